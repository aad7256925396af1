"""Fixtures for the print machinery tests: a small made-up game (9 cards) registered for the test,
so that rasterising every card stays quick."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardgen.registry
from cardgen.content import load_game
from cardgen.registry import register, registered
from tests.tinygame.game import GAME

TINY_CONTENT = Path(__file__).resolve().parent.parent / "tinygame" / "content"


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(cardgen.registry, "_GAMES", registered())  # a copy: the game leaves with the test
    register(GAME)
    return load_game(TINY_CONTENT, GAME.id)
