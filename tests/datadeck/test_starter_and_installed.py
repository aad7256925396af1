"""`cardgen new` writes a deck that builds as it is; a game an installed package declares under the
entry point group `cardgen.games` is found by the installed `cardgen`; a deck may bring its own
TrueType font; an English-only deck needs no Chinese font."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader

from tests.datadeck.conftest import cardgen
from tests.pdfcheck import fonts, pdf_problems

PROJECT = Path(__file__).resolve().parents[2]


def test_the_starter_deck_builds_as_it_is(capsys, tmp_path):
    folder = tmp_path / "games"
    code, out, err = cardgen(capsys, folder, "new", str(folder))
    assert code == 0, err
    assert out.splitlines()[-1] == f"next: cardgen --content {folder} build my-deck --out {folder}-print"
    game = folder / "my-deck"
    assert sorted(p.relative_to(game).as_posix() for p in game.rglob("*") if p.is_file()) == [
        "cards.csv", "game.yaml", "images/emblem.png", "layout.yaml"]
    code, out, err = cardgen(capsys, folder, "build", "my-deck", "--paper", "a4", "--layout", "all",
                             "--out", str(tmp_path / "print"))
    assert code == 0, err
    pdf = tmp_path / "print" / "my-deck" / "cards-a4-home.pdf"
    assert pdf_problems(pdf) == []
    text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "Navigator" in text and "Fair Wind" in text and "Events" in text
    code, out, err = cardgen(capsys, folder, "preflight")
    assert code == 0 and "no findings" in out, out + err


def test_a_deck_of_data_is_listed_with_its_cards_and_no_made_up_player_count(capsys, tmp_path):
    """A deck made of data names its title in one text, keeps its cards in a spreadsheet and gives
    no player count: `list` shows its title and cards, and no players."""
    folder = tmp_path / "games"
    assert cardgen(capsys, folder, "new", str(folder))[0] == 0
    code, out, err = cardgen(capsys, folder, "list")
    assert code == 0, out + err
    line = out.splitlines()[0]
    assert line.startswith("my-deck") and "My Deck" in line and "12 cards" in line and "players" not in line, line
    code, out, err = cardgen(capsys, folder, "list", "--json")
    (row,) = json.loads(out)["games"]
    assert code == 0 and row["cards"] == 12 and row["players_min"] is None and row["title"] == "My Deck"
    (folder / "my-deck" / "cards.csv").write_text('name,copies\n"unclosed,1\n', "utf-8")
    code, out, err = cardgen(capsys, folder, "list")
    assert code == 1 and "cardgen validate my-deck" in out, out + err


def test_the_starter_never_writes_into_an_existing_deck(capsys, tmp_path):
    (tmp_path / "games" / "my-deck").mkdir(parents=True)
    (tmp_path / "games" / "my-deck" / "cards.csv").write_text("mine", "utf-8")
    code, out, err = cardgen(capsys, tmp_path, "new", str(tmp_path / "games"))
    assert code == 2 and "already exists" in err
    assert (tmp_path / "games" / "my-deck" / "cards.csv").read_text("utf-8") == "mine"
    assert [p.name for p in (tmp_path / "games").iterdir()] == ["my-deck"]


def test_the_starter_picture_is_the_same_every_time():
    from cardgen.starter import starter_files

    assert starter_files() == starter_files()


def test_an_installed_package_declares_its_game_by_entry_point(tmp_path):
    """The installed command, run as a user runs it (no launcher), finds the made-up game that a
    package installed beside it declares."""
    site = tmp_path / "site"
    info = site / "tiny_race_game-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-race-game\nVersion: 1.0\n", "utf-8")
    (info / "entry_points.txt").write_text("[cardgen.games]\ntiny-race = tests.tinygame.game:GAME\n", "utf-8")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{site}:{PROJECT}", "HOME": str(tmp_path)}
    command = [str(Path(sys.executable).parent / "cardgen"), "--content", str(PROJECT / "tests/tinygame/content")]
    done = subprocess.run([*command, "validate"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and "ok  tiny-race: 9 cards" in done.stdout, done.stderr
    (info / "entry_points.txt").write_text("[cardgen.games]\ntiny-race = tests.tinygame.game:NO_SUCH_GAME\n", "utf-8")
    done = subprocess.run([*command, "validate"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "the installed game 'tiny-race' (tests.tinygame.game:NO_SUCH_GAME) cannot be used" in done.stderr


def test_a_deck_sets_its_faces_in_a_font_of_its_own(capsys, deck, tmp_path):
    import reportlab

    (deck / "fonts").mkdir()
    shutil.copy(Path(reportlab.__file__).parent / "fonts" / "VeraBI.ttf", deck / "fonts" / "Title.ttf")
    layout = deck / "layout.yaml"
    text = layout.read_text("utf-8").replace("icons:\n", "fonts:\n  title: fonts/Title.ttf\nicons:\n", 1)
    layout.write_text(text.replace('text: "{name}", x: 6, y: 6, width: 51, height: 8, size: 14, font: sans-bold',
                                   'text: "{name}", x: 6, y: 6, width: 51, height: 8, size: 14, font: title'), "utf-8")
    code, out, err = cardgen(capsys, deck.parent, "build", "--paper", "a4", "--layout", "home", "--out", str(tmp_path / "out"))
    assert code == 0, err
    embedded = fonts(tmp_path / "out" / "my-deck" / "cards-a4-home.pdf")
    assert any(name.endswith("BitstreamVeraSans-BoldOblique") for name in embedded), embedded
    assert all(embedded.values())


def test_a_font_outside_the_folder_or_not_truetype_is_refused(capsys, deck, tmp_path):
    layout = deck / "layout.yaml"
    original = layout.read_text("utf-8")
    layout.write_text(original.replace("icons:\n", "fonts:\n  title: ../Title.ttf\nicons:\n", 1), "utf-8")
    code, out, err = cardgen(capsys, deck.parent, "validate")
    assert code == 1 and f"{layout}:2:10: $.fonts.title: '../Title.ttf' leads out of the game's folder" in err, err
    (deck / "fonts").mkdir()
    (deck / "fonts" / "Title.ttf").write_bytes(b"not a font")
    layout.write_text(original.replace("icons:\n", "fonts:\n  title: fonts/Title.ttf\nicons:\n", 1), "utf-8")
    code, out, err = cardgen(capsys, deck.parent, "validate")
    assert code == 1 and "$.fonts.title: 'fonts/Title.ttf' cannot be embedded" in err and "Traceback" not in err, err


def test_an_english_deck_builds_without_any_chinese_font(deck, tmp_path):
    code = ("import cardgen.pdfdoc as p; p.cjk_candidates = lambda: []; from cardgen.cli import main; "
            f"main(['--content', {str(deck.parent)!r}, 'build', '--paper', 'a4', '--layout', 'home', '--out', "
            f"{str(tmp_path / 'out')!r}])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Chinese font: none found; building English only" in done.stdout
    assert pdf_problems(tmp_path / "out" / "my-deck" / "cards-a4-home.pdf") == []


def test_a_deck_of_one_card_is_counted_in_the_singular(capsys, tmp_path):
    """Every count the command prints takes its noun in the singular when it is one: a designer's
    first deck may well hold one card, in one deck, printed to one file."""
    import re

    import yaml

    folder = tmp_path / "games"
    assert cardgen(capsys, folder, "new", str(folder))[0] == 0
    deck = folder / "my-deck"
    rows = (deck / "cards.csv").read_text("utf-8").splitlines()
    (deck / "cards.csv").write_text("\n".join(rows[:2]) + "\n", "utf-8")  # the header and the first crew card
    game = yaml.safe_load((deck / "game.yaml").read_text("utf-8"))
    game["decks"] = [d for d in game["decks"] if d["id"] == "crew"]
    del game["backs"]["events"]
    (deck / "game.yaml").write_text(yaml.safe_dump(game, sort_keys=False), "utf-8")
    layout = yaml.safe_load((deck / "layout.yaml").read_text("utf-8"))
    del layout["faces"]["events"]
    (deck / "layout.yaml").write_text(yaml.safe_dump(layout, sort_keys=False), "utf-8")
    said = []
    for args in (["validate"], ["list"], ["manifest", "my-deck"],
                 ["build", "my-deck", "--only", "cards", "--paper", "a4", "--layout", "home", "--sides", "fronts",
                  "--out", str(tmp_path / "print")]):
        code, out, err = cardgen(capsys, folder, *args)
        assert code == 0, out + err
        said.append(out + err)
    assert "1 card in 1 deck" in said[0] and "1 card " in said[1] and "total: 1 card," in said[2]
    assert "1 file in" in said[3]
    assert not re.findall(r"\b1 [a-z]+s\b", "\n".join(said))
