"""Checks that passed are not run again on the same content, code and fonts; any change to the
content runs them again; a preflight's warnings are shown again when its result is recalled."""

from __future__ import annotations

import pytest

import cardgen.content
import cardgen.preflight
import cardgen.static_checks
from cardgen.cli import main
from cardgen.preflight import Finding
from tests.conftest import edit

BUILD = ["build", "game-of-trains", "--paper", "a4", "--layout", "butted", "--lang", "en", "--workers", "1"]


def run(capsys, content, *args) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_:
        main(["--content", str(content), *args])
    out, err = capsys.readouterr()
    return exit_.value.code or 0, out + err


def refuse_to_run(*args, **kwargs):
    raise AssertionError("a check ran again on unchanged content")


def test_unchanged_content_is_not_checked_again_and_a_change_is(content_copy, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    code, out = run(capsys, content_copy, *BUILD, "--out", str(tmp_path / "a"))
    assert code == 0, out
    with monkeypatch.context() as patched:
        patched.setattr(cardgen.static_checks, "check_game", refuse_to_run)
        patched.setattr(cardgen.preflight, "preflight", refuse_to_run)
        patched.setattr(cardgen.content, "_check_against", refuse_to_run)
        code, out = run(capsys, content_copy, *BUILD, "--out", str(tmp_path / "b"))
        assert code == 0, out
        code, out = run(capsys, content_copy, "validate", "game-of-trains")
        assert code == 0, out
    # The same build's files, whether the checks ran or were recalled.
    assert (tmp_path / "a" / "game-of-trains" / "cards-a4-butted.pdf").read_bytes() == \
        (tmp_path / "b" / "game-of-trains" / "cards-a4-butted.pdf").read_bytes()
    # A scenario broken after the checks passed: they run again and find it.
    scenario = sorted((content_copy / "game-of-trains" / "scenarios").glob("*.yaml"))[0]
    edit(scenario, "players:", "players: 9\nplayers_again:")
    code, out = run(capsys, content_copy, *BUILD, "--out", str(tmp_path / "c"))
    assert code == 1 and scenario.name in out, out
    assert not (tmp_path / "c" / "game-of-trains").exists()


def test_a_recalled_preflight_shows_its_warnings_again(content_copy, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    warning = Finding("warning", "game-of-trains", "card gt-01", "safe-zone", "text 1.0 mm from the trim")
    monkeypatch.setattr(cardgen.preflight, "preflight", lambda content, strict=False: [warning])
    code, out = run(capsys, content_copy, *BUILD, "--out", str(tmp_path / "a"))
    assert code == 0 and "text 1.0 mm from the trim" in out, out
    monkeypatch.setattr(cardgen.preflight, "preflight", refuse_to_run)
    code, out = run(capsys, content_copy, *BUILD, "--out", str(tmp_path / "b"))
    assert code == 0 and "text 1.0 mm from the trim" in out, out
    # --strict makes the warning an error: a different check, run again (and refused here).
    with pytest.raises(AssertionError, match="ran again"):
        run(capsys, content_copy, *BUILD, "--strict", "--out", str(tmp_path / "c"))


def test_an_unreadable_record_runs_the_preflight_again(content_copy, tmp_path, capsys, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("CARDGEN_CACHE", str(cache))
    code, out = run(capsys, content_copy, *BUILD, "--out", str(tmp_path / "a"))
    assert code == 0, out
    for record in (cache / "checks").glob("*.json"):
        record.write_text('[{"level": "warning", "no such field": 1}, "text"]', "utf-8")
    code, out = run(capsys, content_copy, *BUILD, "--out", str(tmp_path / "b"))
    assert code == 0 and "Traceback" not in out, out


def test_a_schema_check_recalled_for_unchanged_files_runs_again_on_a_change(content_copy, tmp_path, capsys,
                                                                               monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    code, out = run(capsys, content_copy, "validate", "game-of-trains")
    assert code == 0, out
    with monkeypatch.context() as patched:
        patched.setattr(cardgen.content, "_check_against", refuse_to_run)
        code, out = run(capsys, content_copy, "validate", "game-of-trains")
        assert code == 0, out
    # One field of one file made wrong: the files are checked again, and the error named.
    edit(content_copy / "game-of-trains" / "game.yaml", "players: {min: 2, max: 4}", "players: {min: two, max: 4}")
    code, out = run(capsys, content_copy, "validate", "game-of-trains")
    assert code == 1 and "game.yaml" in out and "players" in out, out
    edit(content_copy / "game-of-trains" / "game.yaml", "players: {min: two, max: 4}", "players: {min: 2, max: 4}")
    code, out = run(capsys, content_copy, "validate", "game-of-trains")
    assert code == 0, out
    # The content folder's own schema changed to forbid what passed: checked again, and refused.
    edit(content_copy / "schema" / "common.schema.json", '"min": {"type": "integer", "minimum": 1, "maximum": 8}',
         '"min": {"type": "integer", "minimum": 3, "maximum": 8}')
    code, out = run(capsys, content_copy, "validate", "game-of-trains")
    assert code == 1 and "game.yaml" in out, out


def test_a_content_folders_own_schema_is_checked_as_a_schema_once_until_its_bytes_change(
        content_copy, tmp_path, capsys, monkeypatch):
    """Checking a schema file against JSON Schema's own costs more than checking a game's data: a
    file that passed is not checked again when only the data changed; a changed file is."""
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    # A schema of its own that is no copy of the project's (a copy is not read at all, see below).
    edit(content_copy / "schema" / "common.schema.json", '"minimum": 1, "maximum": 1000}', '"minimum": 1, "maximum": 999}')
    checked = []
    document_check = cardgen.content._check_schema_document
    monkeypatch.setattr(cardgen.content, "_check_schema_document",
                        lambda path, document: checked.append(path.name) or document_check(path, document))
    code, out = run(capsys, content_copy, "validate", "game-of-trains")
    assert code == 0 and "common.schema.json" in checked, out
    checked.clear()
    edit(content_copy / "game-of-trains" / "abilities.yaml", "Swap two neighbouring carriages,",
         "Swap two carriages side by side,")
    code, out = run(capsys, content_copy, "validate", "game-of-trains")
    assert code == 0 and checked == [], (out, checked)
    edit(content_copy / "schema" / "common.schema.json", '"copies": {"type": "integer"', '"copies": {"type": "integr"')
    code, out = run(capsys, content_copy, "validate", "game-of-trains")
    assert code == 1 and checked == ["common.schema.json"], (out, checked)
    assert "common.schema.json" in out and "broken schema" in out, out


def test_a_copy_of_the_projects_schemas_checks_the_data_once(content_copy, tmp_path, capsys, monkeypatch):
    """A content folder copied from the project's brings the project's schemas byte for byte:
    checking against them again would find nothing new. A schema changed from the project's is
    checked against as well (see above: it can refuse what the project's let through)."""
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    passes = []
    check_against = cardgen.content._check_against
    monkeypatch.setattr(cardgen.content, "_check_against",
                        lambda content, dirs, *rest: passes.append(len(dirs)) or check_against(content, dirs, *rest))
    code, out = run(capsys, content_copy, "validate", "game-of-trains")
    assert code == 0 and passes == [1], (out, passes)
    passes.clear()
    edit(content_copy / "schema" / "common.schema.json", '"minimum": 1, "maximum": 1000}', '"minimum": 1, "maximum": 999}')
    code, out = run(capsys, content_copy, "validate", "game-of-trains")
    assert code == 0 and passes == [1, 2], (out, passes)


def test_the_static_faults_of_several_games_come_together_in_the_games_order(content_copy, tmp_path, capsys,
                                                                              monkeypatch):
    """The games' static checks run side by side; their faults are reported as one list, game by
    game, and nothing passes while one game is broken."""
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    broken = []
    for game in ("flamme-rouge", "game-of-trains"):
        scenario = sorted((content_copy / game / "scenarios").glob("*.yaml"))[0]
        edit(scenario, "players:", "players: 9\nplayers_again:")
        broken.append(scenario.name)
    code, out = run(capsys, content_copy, "validate")
    assert code == 1, out
    assert out.index(broken[0]) < out.index(broken[1]), out


def test_a_kept_value_is_worked_out_once_and_read_back_exact(tmp_path, monkeypatch):
    """Exact fractions (sympy's or Python's), dicts with number keys and nested lists come back
    equal and exact, in the same form whether worked out or read back; a value of another kind is
    worked out every time; a broken record is worked out again."""
    from fractions import Fraction

    import sympy

    from cardgen.checkcache import kept

    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    value = {"mean": sympy.Rational(31, 6), "whole": sympy.Integer(3), "best": {9: Fraction(1, 4), 7: sympy.Rational(3, 4)},
             "rows": [("a", 1, 2.5, True, None)]}
    calls = []

    def work_out():
        calls.append(1)
        return value

    first, second = kept("k", work_out), kept("k", work_out)
    assert len(calls) == 1
    assert first == second == {"mean": Fraction(31, 6), "whole": 3, "best": {9: Fraction(1, 4), 7: Fraction(3, 4)},
                               "rows": [["a", 1, 2.5, True, None]]}
    assert type(first["mean"]) is type(second["mean"]) is Fraction
    assert [str(first["mean"]), str(first["whole"])] == [str(value["mean"]), str(value["whole"])]
    odd = {"when": object()}
    assert kept("odd", lambda: odd) is odd and kept("odd", lambda: {"again": 1}) == {"again": 1}
    from cardgen.checkcache import _record

    _record("k").write_text('[{"?": 1}]', "utf-8")
    assert kept("k", work_out) == first and len(calls) == 2


def test_odds_are_kept_under_the_data_as_loaded(tmp_path, monkeypatch):
    """A game's exact odds are worked out once for the same data; changing the data in memory,
    as a selection or a test may, works them out afresh."""
    from cardgen.content import PROJECT_CONTENT, exact_odds, load_game
    from cardgen.registry import definition_for

    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    content = load_game(PROJECT_CONTENT, "moscow-to-paris")
    rows = exact_odds(content)
    assert rows == definition_for(content.id).odds(content)
    monkeypatch.setattr(type(definition_for(content.id)), "odds", refuse_to_run)
    assert exact_odds(load_game(PROJECT_CONTENT, "moscow-to-paris")) == rows
    monkeypatch.undo()
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    trains = next(card for card in content.cards if card["deck"] == "trains")
    trains["copies"] += 1
    changed = exact_odds(content)
    assert changed == definition_for(content.id).odds(content) != rows
