"""Ticket to Ride: The Card Game content and engine, loaded once per test session."""

from __future__ import annotations

import pytest

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.registry import engine_for

GAME_ID = "ticket-to-ride-card-game"


@pytest.fixture(scope="session")
def ttr():
    return load_game(PROJECT_CONTENT, GAME_ID)


@pytest.fixture(scope="session")
def game(ttr):
    return engine_for(ttr)
