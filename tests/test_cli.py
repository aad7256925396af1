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
    assert "--paper must be one of a4, letter or all" in err


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
