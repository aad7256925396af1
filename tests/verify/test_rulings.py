"""Every reading a ruling offers is playable: its parameter and value are accepted by the game's
engine, and the scenario that pins it plays with that value."""

from __future__ import annotations

import pytest
import yaml

from cardgen.content import PROJECT_CONTENT, discover_games, load_game
from cardgen.registry import engine_for


def offered_readings():
    for game_id in discover_games(PROJECT_CONTENT):
        content = load_game(PROJECT_CONTENT, game_id)
        for ruling in content.files.get("rulings", {}).get("rulings", []):
            param = ruling.get("param", "")
            if not param or "=" in param:
                continue  # no reading offered, or one named as NAME=VALUE without alternatives
            for alternative in ruling.get("alternatives", []):
                if "value" in alternative:
                    yield pytest.param(game_id, ruling["id"], param, alternative, id=f"{game_id}:{ruling['id']}:{alternative['value']}")


@pytest.mark.parametrize("game_id, ruling_id, param, alternative", list(offered_readings()))
def test_each_offered_reading_is_a_parameter_its_scenario_plays(game_id, ruling_id, param, alternative):
    content = load_game(PROJECT_CONTENT, game_id)
    engine = engine_for(content)
    engine.with_params(**{param: alternative["value"]})  # refused values raise
    assert "scenario" in alternative, f"{ruling_id}: the reading {alternative['value']!r} names no scenario"
    scenario = yaml.safe_load((content.root / alternative["scenario"]).read_text("utf-8"))
    assert scenario.get("params", {}).get(param) == alternative["value"], (
        f"{alternative['scenario']} does not play {param}={alternative['value']}")
