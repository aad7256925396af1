"""The `cardgen` command: exit statuses, one-line errors, and what each command prints."""

from __future__ import annotations

import json

import pytest

from cardgen.cli import main
from tests.conftest import edit


def run(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return info.value.code, out, err


def test_validate_all_games_succeeds(capsys):
    code, out, err = run(capsys, "validate")
    assert code == 0, err
    assert "ok  game-of-trains: 88 cards in 2 decks" in out


def test_validate_reports_every_error_and_exits_1(capsys, content_copy):
    cards = content_copy / "game-of-trains" / "cards.yaml"
    edit(cards, "number: 3, ability: 4", "number: 3, ability: 0")
    edit(cards, "number: 9, ability: 3", "number: 9, ability: 10")
    code, out, err = run(capsys, "--content", str(content_copy), "validate", "game-of-trains")
    assert code == 1
    lines = err.strip().splitlines()
    assert lines[-1] == "2 errors found"
    assert all(line.startswith(str(cards) + ":") for line in lines[:2])
    assert "Traceback" not in err


def test_hostile_yaml_gives_one_line_not_a_traceback(capsys, content_copy):
    (content_copy / "game-of-trains" / "game.yaml").write_bytes(b"id: \xff\n")
    code, _, err = run(capsys, "--content", str(content_copy), "validate", "game-of-trains")
    assert code == 1
    assert "game.yaml:1:5: $: not valid UTF-8" in err
    assert "Traceback" not in err


def test_unknown_game_is_a_usage_error(capsys):
    code, _, err = run(capsys, "validate", "no-such-game")
    assert code == 2
    assert "unknown game 'no-such-game'" in err


def test_bad_option_value_is_a_usage_error(capsys):
    code, _, err = run(capsys, "build", "--paper", "a3")
    assert code == 2
    assert "'--paper'" in err and "'a3' is not one of 'a4', 'letter', 'all'" in err


def test_unknown_command_is_a_usage_error(capsys):
    code, _, _ = run(capsys, "frobnicate")
    assert code == 2


def test_missing_content_folder(capsys, tmp_path):
    code, _, err = run(capsys, "--content", str(tmp_path / "none"), "validate")
    assert code == 1
    assert "content folder not found" in err


def test_list_shows_totals(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    line = next(l for l in out.splitlines() if l.startswith("game-of-trains"))
    assert "88 cards" in line and "2-4 players" in line


def test_manifest_json_has_one_object_per_physical_card(capsys):
    code, out, _ = run(capsys, "manifest", "game-of-trains", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 88
    carriages = [r for r in rows if r["deck"] == "carriages"]
    assert sorted(r["number"] for r in carriages) == list(range(1, 85))
    assert all(r["ability"] in range(1, 9) for r in carriages)
    assert sum(r["deck"] == "locomotives" for r in rows) == 4


def test_manifest_text_totals(capsys):
    code, out, _ = run(capsys, "manifest", "game-of-trains")
    assert code == 0
    assert "carriages                  84 cards  63 x 88 mm" in out
    assert "total: 88 cards" in out


def test_verify_replays_every_scenario_of_a_game(capsys):
    code, out, err = run(capsys, "verify", "game-of-trains")
    assert code == 0, err
    assert "game-of-trains: data ok; components sourced 88, reconstructed 0" in out
    assert "0 failed" in out


def test_verify_one_scenario_file(capsys):
    from cardgen.content import PROJECT_CONTENT

    path = sorted((PROJECT_CONTENT / "game-of-trains" / "scenarios").glob("*.yaml"))[0]
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0
    assert "1 scenarios replayed, 0 failed" in out


def test_verify_reports_a_failing_scenario_with_file_line_and_step(capsys, content_copy):
    scenarios = content_copy / "game-of-trains" / "scenarios"
    bad = scenarios / "zz-broken.yaml"
    bad.write_text(
        "title: a scenario whose expectation is wrong\n"
        "players: 2\n"
        "setup:\n"
        "  trains: {P1: [1, 2, 3, 4, 5, 7, 6], P2: [80, 70, 60, 50, 40, 30, 20]}\n"
        "  market: [9]\n"
        "steps:\n"
        "  - expect: {market: [10]}\n",
        "utf-8",
    )
    code, out, err = run(capsys, "--content", str(content_copy), "verify", str(bad))
    assert code == 1
    assert f"{bad}:7:13: $.steps[0].expect: step 1: market: expected [10], actual [9]" in err
    assert "FAIL  zz-broken.yaml" in out


def test_scenario_outside_a_game_folder_needs_the_game_named(capsys, tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("title: t\nplayers: 2\nsteps: []\n", "utf-8")
    code, _, err = run(capsys, "verify", str(path))
    assert code == 2 and "--game" in err
    code, out, _ = run(capsys, "verify", "--game", "game-of-trains", str(path))
    assert code == 0 and "1 scenarios replayed, 0 failed" in out


def test_simulate_reports_speed_and_wins_as_json(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "game-of-trains", "--players", "3", "--games", "5",
                         "--seed", "4", "--policy", "greedy", "--json", "--failures", str(tmp_path))
    assert code == 0, err
    report = json.loads(out)
    assert report["games"] == 5 and report["failures"] == []
    assert sum(report["wins"].values()) + report["capped"] == 5
    assert set(report["wins"]) == {"P1", "P2", "P3"}


def test_simulate_refuses_a_player_count_the_game_does_not_take(capsys):
    code, _, err = run(capsys, "simulate", "game-of-trains", "--players", "7")
    assert code == 2 and "takes 2-4 players" in err


def test_build_writes_the_named_paper_and_layout_only(capsys, tmp_path):
    code, out, err = run(capsys, "build", "game-of-trains", "--paper", "letter", "--layout", "home",
                         "--out", str(tmp_path))
    assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "game-of-trains").iterdir())
    assert names == ["aids-letter-home.pdf", "assembly-letter-en.pdf", "assembly-letter-zh-Hant.pdf", "cards-letter-home.pdf",
                     "proof-letter.pdf", "rules-letter-en.pdf", "rules-letter-zh-Hant.pdf"]
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["calibration-letter-landscape.pdf", "calibration-letter.pdf"]


def test_build_refuses_broken_content_and_writes_nothing(capsys, tmp_path, content_copy):
    edit(content_copy / "game-of-trains" / "game.yaml", "count: 84", "count: 83")
    code, _, err = run(capsys, "--content", str(content_copy), "build", "game-of-trains", "--out", str(tmp_path / "o"))
    assert code == 1 and "states 83 cards" in err
    assert not (tmp_path / "o").exists()


def test_card_size_option_prints_cards_at_that_size(capsys, tmp_path):
    from pypdf import PdfReader

    code, _, err = run(capsys, "build", "game-of-trains", "--paper", "a4", "--layout", "butted",
                       "--card-size", "66x92", "--out", str(tmp_path))
    assert code == 0, err
    page = PdfReader(tmp_path / "game-of-trains" / "cards-a4-butted.pdf").pages[0]
    trim = page.trimbox
    # 66 x 92 mm cards: 3 columns and 3 rows fit on A4, butted on shared cut lines.
    mm = 72 / 25.4
    assert round(float(trim.width) / mm, 2) == 3 * 66
    assert round(float(trim.height) / mm, 2) == 3 * 92


def test_a_card_size_too_small_for_the_text_is_refused_by_card(capsys, tmp_path):
    """Text keeps its point size on any card size; what no longer fits is named card by card."""
    import re

    code, _, err = run(capsys, "build", "game-of-trains", "--paper", "a4", "--card-size", "44x68", "--out", str(tmp_path))
    assert code == 1 and "runs past the trim" in err and "nothing was written" in err
    assert "below the 7 pt minimum" not in err
    assert "content/game-of-trains/cards.yaml:" in err and re.search(r"game-of-trains card c\d+:", err)
    assert not (tmp_path / "game-of-trains").exists()


def test_card_size_option_must_be_width_x_height(capsys):
    code, _, err = run(capsys, "build", "--card-size", "big")
    assert code == 2 and "--card-size must look like 63x88" in err


def test_simulate_takes_game_parameters(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "flamme-rouge", "--players", "2", "--games", "3", "--json",
                         "--param", "stage=la-haute-montagne", "--param", "handicap={P1: 1}",
                         "--failures", str(tmp_path))
    assert code == 0, err
    report = json.loads(out)
    assert report["games"] == 3 and report["capped"] == 0 and report["failures"] == []


def test_simulate_refuses_an_unknown_parameter_value(capsys):
    code, _, err = run(capsys, "simulate", "flamme-rouge", "--games", "1", "--param", "stage=nowhere")
    assert code == 2 and "unknown stage 'nowhere'" in err
    code, _, err = run(capsys, "simulate", "flamme-rouge", "--games", "1", "--param", "stage")
    assert code == 2 and "KEY=VALUE" in err


def test_own_content_folder_without_schemas_uses_the_projects(capsys, tmp_path):
    import shutil

    from cardgen.content import PROJECT_CONTENT

    shutil.copytree(PROJECT_CONTENT / "game-of-trains", tmp_path / "mine" / "game-of-trains")
    edit(tmp_path / "mine" / "game-of-trains" / "game.yaml", "width_mm: 63", "width_mm: 600")
    code, _, err = run(capsys, "--content", str(tmp_path / "mine"), "validate")
    assert code == 1 and "$.card_sizes.poker.width_mm: 600 is greater than the maximum of 200" in err


def test_docs_list_every_games_scenario_notation_as_its_engine_prints_it(capsys):
    import runpy
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    document = runpy.run_path(str(root / "scripts" / "scenario-doc.py"))["document"]
    assert (root / "docs" / "scenarios.md").read_text("utf-8") == document(), \
        "docs/scenarios.md is out of date: run .venv/bin/python scripts/scenario-doc.py"
    code, out, _ = run(capsys, "verify", "--notation", "flamme-rouge")
    assert code == 0 and out.strip() in (root / "docs" / "scenarios.md").read_text("utf-8")
