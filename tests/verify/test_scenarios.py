"""Every Game of Trains scenario replays clean, and a broken one is reported by file, line and step."""

from __future__ import annotations

import pytest
import yaml

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.registry import engine_for
from verify.scenario import run_scenario

SCENARIOS = sorted((PROJECT_CONTENT / "game-of-trains" / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def game(trains):
    return engine_for(trains)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_replays_clean(game, path):
    result = run_scenario(path, game)
    assert result.failures == []
    assert result.steps_run == len(yaml.safe_load(path.read_text("utf-8"))["steps"])


def test_every_ability_has_a_scenario():
    rules = {yaml.safe_load(p.read_text("utf-8")).get("rule") for p in SCENARIOS}
    assert {f"ability {n}" for n in range(1, 9)} <= rules


def test_every_ruling_has_a_scenario_that_names_it(trains):
    for ruling in trains.files["rulings"]["rulings"]:
        scenario = yaml.safe_load((trains.root / ruling["scenario"]).read_text("utf-8"))
        assert scenario["rule"] == f"ruling: {ruling['id']}"


def test_worked_examples_sit_beside_their_rules_and_name_a_rule(trains):
    placed = [stem for section in trains.files["rules"]["sections"] for stem in section.get("examples", [])]
    assert len(placed) >= 4
    for name in placed:
        path = PROJECT_CONTENT / "game-of-trains" / "scenarios" / f"{name}.yaml"
        data = yaml.safe_load(path.read_text("utf-8"))
        assert data["rule"] and data["example"]["steps"]


def test_complete_games_end_with_a_winner(game):
    for name, players in (("full-game-two-players", 2), ("full-game-four-players", 4)):
        path = PROJECT_CONTENT / "game-of-trains" / "scenarios" / f"{name}.yaml"
        data = yaml.safe_load(path.read_text("utf-8"))
        assert data["players"] == players and len(data["setup"]["deck"]) == 84
        result = run_scenario(path, game)
        assert result.ok and result.state.is_terminal()


def test_a_wrong_expectation_fails_with_file_line_and_step(game, tmp_path):
    text = (PROJECT_CONTENT / "game-of-trains" / "scenarios" / "ability-1-couple.yaml").read_text("utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace("train.P1: [5, 15, 20, 30, 45, 35, 60]", "train.P1: [5, 20, 15, 30, 45, 35, 60]"))
    result = run_scenario(broken, game)
    # The expected fields start on the line after `- expect:`.
    line = next(i for i, l in enumerate(broken.read_text().splitlines(), 1) if "train.P1: [5, 20, 15" in l)
    assert result.failures == [
        f"{broken}:{line}:7: $.steps[2].expect: step 3: train.P1: expected [5, 20, 15, 30, 45, 35, 60], actual [5, 15, 20, 30, 45, 35, 60]"
    ]


def test_an_illegal_step_names_the_rule_that_refused_it(game, tmp_path):
    broken = tmp_path / "illegal.yaml"
    broken.write_text(
        "title: broken\nplayers: 2\nsetup:\n  trains:\n    P1: [5, 20, 15, 30, 45, 35, 60]\n"
        "    P2: [80, 70, 61, 50, 41, 31, 21]\n  market: [12]\nsteps:\n  - P1: use 12 swap 2 4\n"
    )
    result = run_scenario(broken, game)
    assert len(result.failures) == 1
    assert result.failures[0].startswith(f"{broken}:9:9: $.steps[0].P1: step 1 (P1: use 12 swap 2 4): refused by rule 'ability 1'")


def test_a_bad_setup_names_its_field(game, tmp_path):
    broken = tmp_path / "setup.yaml"
    broken.write_text(
        "title: broken\nplayers: 2\nsetup:\n  trains:\n    P1: [5, 20, 15, 30, 45, 35]\n"
        "    P2: [80, 70, 61, 50, 41, 31, 21]\nsteps: []\n"
    )
    assert run_scenario(broken, game).failures == [
        f"{broken}:5:9: $.setup.trains.P1: setup.trains.P1: a train has 7 carriages, not 6"
    ]


def test_an_unmet_end_is_reported(game, tmp_path):
    text = (PROJECT_CONTENT / "game-of-trains" / "scenarios" / "win-by-draw.yaml").read_text("utf-8")
    broken = tmp_path / "end.yaml"
    broken.write_text(text.replace("end: {winner: P1,", "end: {winner: P2,"))
    failures = run_scenario(broken, game).failures
    assert len(failures) == 1 and "end: winner: expected 'P2', actual 'P1'" in failures[0]


def test_a_bad_parameter_is_reported_at_the_params_line(tmp_path, trains):
    from verify.games.game_of_trains.rules import GameOfTrains

    path = tmp_path / "params.yaml"
    path.write_text("title: t\nplayers: 2\nparams: {stage: five}\nsteps: []\n", "utf-8")
    result = run_scenario(path, GameOfTrains(trains))
    assert result.failures == [f"{path}:3:9: $.params: params: unknown parameter 'stage'; Game of Trains has draft, refill, reshuffle, pairs, no_effect"]
