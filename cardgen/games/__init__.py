"""The games shipped with cardgen, one print package each. A game's package is imported and
registered the first time the game is asked for, so a command on one game loads that game's code
alone."""

from __future__ import annotations

import importlib

SHIPPED = {
    "game-of-trains": "cardgen.games.game_of_trains",
    "flamme-rouge": "cardgen.games.flamme_rouge",
    "ticket-to-ride-card-game": "cardgen.games.ticket_to_ride",
    "spectral-rails": "cardgen.games.spectral_rails",
    "moscow-to-paris": "cardgen.games.moscow_to_paris",
}


def load(game_id: str) -> None:
    """Register the shipped game `game_id` unless it is registered already."""
    from cardgen.registry import is_known, register

    if not is_known(game_id):
        register(importlib.import_module(SHIPPED[game_id]).GAME)


def load_all() -> None:
    for game_id in SHIPPED:
        load(game_id)
