"""A command on one game imports that game's own package and no other game's, and a build again with
nothing changed loads no checking library."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from tests.conftest import edit

ONE_PAPER = ["--paper", "a4", "--layout", "home", "--lang", "en", "--workers", "1"]


def test_a_command_on_one_game_loads_that_games_code_alone(tmp_path):
    probe = ("import sys; from cardgen.cli import main\n"
             "try:\n"
             f"    main(['build', 'game-of-trains', '--only', 'cards', *{ONE_PAPER!r}, '--out', {str(tmp_path)!r}])\n"
             "except SystemExit as exit_:\n"
             "    assert not exit_.code, exit_.code\n"
             "print(sorted(m for m in sys.modules if m.startswith('cardgen.games.') and m.count('.') == 2))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "['cardgen.games.game_of_trains']", done.stdout


def _card_build_loads(game: str, out, cache, parts: str = "cards", content=None) -> list[str]:
    where = [] if content is None else ["--content", str(content)]
    probe = ("import sys; from cardgen.cli import main\n"
             "try:\n"
             f"    main([*{where!r}, 'build', {game!r}, '--only', {parts!r}, *{ONE_PAPER!r}, '--out', {str(out)!r}])\n"
             "except SystemExit as exit_:\n"
             "    assert not exit_.code, exit_.code\n"
             "print(sorted(m for m in ('sympy', 'jsonschema', 'reportlab.platypus') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "CARDGEN_CACHE": str(cache)})
    assert done.returncode == 0, done.stderr
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("game", ["moscow-to-paris", "ticket-to-ride-card-game"])
def test_card_sheets_built_again_load_neither_the_odds_nor_the_schema_library(tmp_path, game):
    """The rule texts of these games quote exact odds. Their checks ran on the first build; on the
    second, with nothing changed, they are recalled, and the card sheets need neither library."""
    assert "sympy" in _card_build_loads(game, tmp_path / "first", tmp_path / "cache")
    assert not {"sympy", "jsonschema"} & set(_card_build_loads(game, tmp_path / "second", tmp_path / "cache"))


@pytest.mark.parametrize("game", ["game-of-trains", "moscow-to-paris"])
def test_card_sheets_load_no_page_layout_when_the_game_names_its_rule_sheet_pieces_by_module(tmp_path, game):
    """These games name their rule-sheet tables by module (`cardgen.registry.SheetTable`): card
    sheets alone, checks recalled, never import reportlab's page layout."""
    _card_build_loads(game, tmp_path / "first", tmp_path / "cache")
    assert _card_build_loads(game, tmp_path / "second", tmp_path / "cache") == []


def test_checking_changed_content_loads_no_page_layout(content_copy, tmp_path):
    """The names a game's rule sheet may use for its pictures, read once per code, are kept: a card
    sheet built after a text changed runs the static checks again without reportlab's page layout,
    and a picture no game draws is still refused."""
    _card_build_loads("game-of-trains", tmp_path / "first", tmp_path / "cache", content=content_copy)
    edit(content_copy / "game-of-trains" / "abilities.yaml", "Swap two neighbouring carriages,",
         "Swap two carriages side by side,")
    loaded = _card_build_loads("game-of-trains", tmp_path / "second", tmp_path / "cache", content=content_copy)
    assert "jsonschema" in loaded and "reportlab.platypus" not in loaded, loaded
    rules = content_copy / "game-of-trains" / "rules.yaml"
    diagram = next(line.split(":", 1)[1].strip() for line in rules.read_text("utf-8").splitlines()
                   if line.strip().startswith("diagram:"))
    edit(rules, f"diagram: {diagram}", "diagram: turntable")
    done = subprocess.run([sys.executable, "-m", "cardgen", "--content", str(content_copy), "validate", "game-of-trains"],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "CARDGEN_CACHE": str(tmp_path / "cache")})
    assert done.returncode == 1 and "unknown diagram 'turntable'; known: " in done.stderr + done.stdout, done.stderr
    assert diagram in (done.stderr + done.stdout).split("known: ")[1]


@pytest.mark.parametrize("game", ["flamme-rouge", "moscow-to-paris", "spectral-rails", "ticket-to-ride-card-game"])
def test_rule_sheets_and_aids_built_again_print_the_same_odds_without_working_them_out(tmp_path, game):
    """These games print exact odds in their rule sheets, aids or texts. A second build of the same
    content reads them back instead of loading sympy, and prints the same figures: the same bytes."""
    first, second = tmp_path / "first", tmp_path / "second"
    assert "sympy" in _card_build_loads(game, first, tmp_path / "cache", "rules,aids")
    assert "sympy" not in _card_build_loads(game, second, tmp_path / "cache", "rules,aids")
    made = sorted(path.relative_to(first) for path in first.rglob("*.pdf"))
    assert any(path.name.startswith("rules-") for path in made)
    for path in made:
        assert (first / path).read_bytes() == (second / path).read_bytes(), path
