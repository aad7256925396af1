"""The rules engines, one module per game, found by the game's content id."""

from __future__ import annotations

import importlib

from cardgen.content import GameContent, module_name
from verify.engine import Game


def engine_for(content: GameContent) -> Game | None:
    """The engine of this game, or None if the game has no engine yet."""
    try:
        module = importlib.import_module(f"verify.games.{module_name(content.id)}")
    except ModuleNotFoundError as exc:
        if exc.name == f"verify.games.{module_name(content.id)}":
            return None
        raise
    return module.GAME_CLASS(content)
