"""Shared fixtures for the Spectral Rails tests: the content, the engine and the ring map that
scenarios use."""

from __future__ import annotations

import pytest

from cardgen.content import PROJECT_CONTENT, load_game
from verify.games.spectral_rails.rules import SpectralRails

RING = {
    "regions": [{"id": "hills"}, {"id": "flats"}],
    "towns": [{"id": t, "region": r} for t, r in (("ash", "hills"), ("bell", "hills"), ("coal", "hills"),
                                                    ("dune", "flats"), ("elm", "flats"), ("fort", "flats"))],
    "routes": [{"from": a, "to": b, "spaces": 2} for a, b in (("ash", "bell"), ("bell", "coal"), ("coal", "dune"),
                                                                 ("dune", "elm"), ("elm", "fort"), ("fort", "ash"))],
    "blue_starts": ["ash", "coal", "elm"],
    "red_starts": ["bell", "dune", "fort"],
}


@pytest.fixture(scope="session")
def content():
    return load_game(PROJECT_CONTENT, "spectral-rails")


@pytest.fixture(scope="session")
def game(content):
    return SpectralRails(content)


@pytest.fixture
def ring(game):
    def make(players=3, **setup):
        base = {"map": RING, "trains": {"P1": "ash", "P2": "coal", "P3": "elm"}}
        if players == 4:
            base["trains"]["P4"] = "fort"
        base.update(setup)
        return game.new_state(players, seed=1, setup=base)
    return make
