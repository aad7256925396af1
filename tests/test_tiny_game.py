"""A game needs nothing outside its own places: a made-up game kept under tests/ (its content,
schema, print definition and engine) is registered by one line and validated, built, verified and
simulated by the ordinary commands. A misspelled or missing part is refused when declared."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardgen.registry
from cardgen.cli import main
from cardgen.registry import GameDefinition, register, registered
from tests.pdfcheck import pdf_problems
from tests.tinygame.game import GAME

CONTENT = Path(__file__).parent / "tinygame" / "content"


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(cardgen.registry, "_GAMES", registered())  # a copy: the game leaves with the test
    register(GAME)


def run(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_:
        main(["--content", str(CONTENT), *args])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def test_the_made_up_game_validates_builds_verifies_and_simulates(tiny, capsys, tmp_path):
    code, out, err = run(capsys, "validate")
    assert code == 0 and "ok  tiny-race: 9 cards in 1 deck," in out, err
    code, out, err = run(capsys, "build", "--paper", "a4", "--layout", "home,butted,fold", "--out", str(tmp_path))
    assert code == 0, err
    built = sorted(p.name for p in (tmp_path / "tiny-race").iterdir())
    assert built == ["assembly-a4-en.pdf", "assembly-a4-zh-Hant.pdf", "cards-a4-butted.pdf", "cards-a4-fold.pdf",
                     "cards-a4-home.pdf", "proof-a4.pdf", "rules-a4-en.pdf", "rules-a4-zh-Hant.pdf"]
    assert all(not pdf_problems(p) for p in (tmp_path / "tiny-race").iterdir())
    code, out, err = run(capsys, "verify")
    assert code == 0 and "1 scenarios replayed, 0 failed" in out, out + err
    code, out, err = run(capsys, "simulate", "tiny-race", "--players", "3", "--games", "50", "--policy", "greedy",
                         "--failures", str(tmp_path / "failures"))
    assert code == 0 and "broken invariants: 0" in out and "stopped by the turn cap: 0" in out, out + err


def test_an_unregistered_game_folder_is_a_located_content_error(capsys):
    code, out, err = run(capsys, "validate")
    assert code == 1 and "game.yaml" in err and "no game 'tiny-race' is registered" in err


def test_a_misspelled_part_is_refused_when_declared():
    with pytest.raises(TypeError, match="draw_fase is not part of the game interface; did you mean 'draw_face'"):
        class Misspelled(GameDefinition):  # noqa: F841
            id = "misspelled"

            def draw_fase(self, canvas, content, card, rect, bleed):
                pass


def test_a_missing_part_cannot_be_registered():
    class NoBacks(GameDefinition):
        id = "no-backs"

        def draw_face(self, canvas, content, card, rect, bleed):
            pass

    with pytest.raises(TypeError, match="draw_back"):
        register(NoBacks())


def test_parts_of_the_wrong_kind_are_refused(monkeypatch):
    monkeypatch.setattr(cardgen.registry, "_GAMES", registered())

    class BadDiagrams(type(GAME)):
        diagrams = {"board": "not a function"}

    with pytest.raises(TypeError, match="diagrams must map names to functions"):
        register(BadDiagrams())


def test_rule_sheet_pieces_named_by_module_are_imported_and_checked_when_first_read(monkeypatch, tmp_path):
    """A game may name its rule-sheet tables by module, so that card sheets alone never import
    them; they are checked when a rule sheet first reads them."""
    import sys

    from cardgen.registry import SheetTable, sheet_function

    monkeypatch.setattr(cardgen.registry, "_GAMES", registered())
    (tmp_path / "tiny_sheet_pieces.py").write_text(
        "DIAGRAMS = {'board': lambda content, lang: ('board', lang)}\n"
        "BROKEN = {'board': 'not a function'}\n"
        "def example(content, lang, example):\n    return ('example', lang)\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))

    class Deferred(type(GAME)):
        diagrams = SheetTable("tiny_sheet_pieces", "DIAGRAMS")
        example_diagram = staticmethod(sheet_function("tiny_sheet_pieces", "example"))

    class Broken(type(GAME)):
        diagrams = SheetTable("tiny_sheet_pieces", "BROKEN")

    register(Deferred())
    register(Broken())
    assert "tiny_sheet_pieces" not in sys.modules
    assert Deferred.diagrams["board"](None, "en") == ("board", "en")
    assert Deferred.example_diagram(None, "zh-Hant", None) == ("example", "zh-Hant")
    with pytest.raises(TypeError, match="BROKEN must map names to functions"):
        list(Broken.diagrams)
    monkeypatch.delitem(sys.modules, "tiny_sheet_pieces")
