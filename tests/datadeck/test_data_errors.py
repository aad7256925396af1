"""A data deck's faults are each one located line with exit status 1, never a traceback, and a
build that meets one leaves its output folder as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen import registry
from cardgen.registry import register, registered
from tests.datadeck.conftest import cardgen, to_xlsx
from tests.tinygame.game import GAME as TINY_GAME

TINY = Path(__file__).parent.parent / "tinygame" / "content"


def one_error(capsys, content: Path, *args) -> str:
    """The single error line a command prints (exit status 1, nothing else but the count)."""
    code, out, err = cardgen(capsys, content, *args)
    lines = err.strip().splitlines()
    assert code == 1 and "Traceback" not in err, err
    assert len(lines) == 2 and lines[1] in ("1 error found", "1 errors found"), err
    return lines[0]


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_a_picture_outside_the_folder_is_refused_unread(capsys, deck, tmp_path):
    secret = tmp_path / "content" / "secret.png"
    shutil.copy(deck / "images" / "crate.png", secret)
    replace_in(deck / "cards.csv", "goods,Barley,grain,1,images/crate.png", "goods,Barley,grain,1,../secret.png")
    line = one_error(capsys, deck.parent, "validate")
    assert line.startswith(f"{deck / 'cards.csv'}:3:5: $.cards[1].art: cell E3 (column art): '../secret.png' leads "
                           "out of the game's folder"), line


def test_a_link_that_leads_out_of_the_folder_is_refused(capsys, deck, tmp_path):
    outside = tmp_path / "elsewhere.png"
    shutil.copy(deck / "images" / "crate.png", outside)
    (deck / "images" / "linked.png").symlink_to(outside)
    replace_in(deck / "layout.yaml", "file: images/crate.png", "file: images/linked.png")
    line = one_error(capsys, deck.parent, "validate")
    assert line.startswith(f"{deck / 'layout.yaml'}:19:27: ") and "$.backs.goods[1].file" in line and "leads out" in line


def test_a_missing_picture_is_one_error_at_the_cell_that_names_it(capsys, deck):
    replace_in(deck / "cards.csv", "goods,Linen,cloth,4,images/coin.svg", "goods,Linen,cloth,4,images/lnen.png")
    line = one_error(capsys, deck.parent, "validate")
    assert line == (f"{deck / 'cards.csv'}:4:5: $.cards[2].art: cell E4 (column art): 'images/lnen.png' not found "
                    "in the game's folder"), line


def test_an_unreadable_picture_is_one_located_error(capsys, deck):
    (deck / "images" / "crate.png").write_bytes(b"\x89PNG\r\n\x1a\n not really a picture")
    code, out, err = cardgen(capsys, deck.parent, "preflight")
    assert code == 1 and "Traceback" not in err
    assert f"{deck / 'layout.yaml'}:19:27: $.backs.goods[1].file" in err and "'images/crate.png' cannot be read as PNG" in err


def test_a_malformed_csv_cell_is_located_by_row_and_column(capsys, deck):
    replace_in(deck / "cards.csv", "Fine cloth <b>&amp; more</b>: plain text.,2", "Fine cloth.,two")
    line = one_error(capsys, deck.parent, "validate")
    assert line.startswith(f"{deck / 'cards.csv'}:4:7: $.cards[2].copies: cell G4 (column copies): 'two' is not "), line


def test_a_spreadsheet_error_in_a_workbook_cell_is_located(capsys, deck):
    def spoil(sheet):
        sheet["D3"] = "=1/0"
        sheet["D3"].data_type = "e"
        sheet["D3"].value = "#DIV/0!"

    to_xlsx(deck / "cards.csv", deck / "cards.xlsx", spoil)
    (deck / "cards.csv").unlink()
    code, out, err = cardgen(capsys, deck.parent, "validate")
    assert code == 1 and "Traceback" not in err
    assert err.strip().splitlines() == [f"{deck / 'cards.xlsx'}:3:4: $: cell D3 holds the spreadsheet error #DIV/0!",
                                        "1 error found"], err


def test_a_file_that_is_no_workbook_is_one_error(capsys, deck):
    (deck / "cards.csv").unlink()
    (deck / "cards.xlsx").write_bytes(b"PK\x03\x04 broken")
    line = one_error(capsys, deck.parent, "validate")
    assert line.startswith(f"{deck / 'cards.xlsx'}: $: ") and "workbook" in line


def test_cards_yaml_and_a_spreadsheet_beside_it_make_one_list_located_in_both(capsys, deck):
    (deck / "cards.yaml").write_text("cards:\n  - {deck: events, name: Drought, text: Nothing grows.}\n"
                                     "  - {deck: events, name: Flood, text: Rivers rise., copies: 0}\n", "utf-8")
    to_xlsx(deck / "cards.csv", deck / "cards.xlsx", lambda sheet: sheet.append(["goods", "Rye", "grain", 1, "images/crate.png", "Grain.", "x"]))
    code, out, err = cardgen(capsys, deck.parent, "validate")
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 3, err
    assert lines[0].startswith(f"{deck / 'cards.yaml'}:3:61: $.cards[1].copies: 0 is less than the minimum of 1"), err
    assert lines[1].startswith(f"{deck / 'cards.xlsx'}:7:7: $.cards[5].copies: cell G7 (column copies): 'x' is not"), err
    (deck / "cards.yaml").write_text("cards:\n  - {deck: events, name: Drought, text: Nothing grows.}\n", "utf-8")
    (deck / "cards.xlsx").unlink()
    code, out, err = cardgen(capsys, deck.parent, "validate")
    assert code == 0 and "ok  my-deck: 10 cards in 2 decks" in out, err


def test_a_field_no_card_has_is_located_in_the_layout(capsys, deck):
    replace_in(deck / "layout.yaml", 'text: "{cost}"', 'text: "{price} gold"')
    line = one_error(capsys, deck.parent, "validate")
    assert line == f"{deck / 'layout.yaml'}:11:26: $.faces.goods[6].text: cards 1, 2, 3 have no field 'price'", line


def test_a_misspelled_layout_key_gets_a_suggestion(capsys, deck):
    replace_in(deck / "layout.yaml", "stroke_width: 1", "stroke_widht: 1")
    line = one_error(capsys, deck.parent, "validate")
    assert line.startswith(f"{deck / 'layout.yaml'}:6:116: ") and "unknown key 'stroke_widht'; did you mean 'stroke_width'?" in line


def test_a_value_the_map_does_not_list_needs_a_default(capsys, deck):
    replace_in(deck / "layout.yaml", ', default: "#ffffff"}}', "}}")
    replace_in(deck / "cards.csv", "goods,Barley,grain", "goods,Barley,fruit")
    line = one_error(capsys, deck.parent, "validate")
    assert line.startswith(f"{deck / 'layout.yaml'}:5:") and "card 2 has suit 'fruit', which the map does not list" in line


def test_nothing_is_written_when_the_content_is_wrong(capsys, deck, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine", "utf-8")
    replace_in(deck / "cards.csv", "goods,Linen,cloth,4,images/coin.svg", "goods,Linen,cloth,4,images/gone.svg")
    code, _, err = cardgen(capsys, deck.parent, "build", "--paper", "a4", "--out", str(out))
    assert code == 1 and "gone.svg" in err
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    assert [p.name for p in tmp_path.iterdir() if "staging" in p.name] == []


def test_text_too_long_for_its_box_shrinks_to_the_floor_then_the_preflight_stops_the_build(capsys, deck, tmp_path):
    replace_in(deck / "cards.csv", "Each player gains 2 :coin:.", "Each player gains 2 :coin:. " * 40)
    code, out, err = cardgen(capsys, deck.parent, "build", "--paper", "a4", "--out", str(tmp_path / "out"))
    assert code == 1 and "below the 7 pt minimum" in err, err
    assert "card 5" in err and "nothing was written" in err
    assert not (tmp_path / "out" / "my-deck").exists()


def test_a_coarse_picture_is_a_resolution_warning(capsys, deck):
    from PIL import Image

    Image.new("RGB", (60, 60), "#c8a46a").save(deck / "images" / "crate.png")
    code, out, err = cardgen(capsys, deck.parent, "preflight")
    assert code == 0 and "resolution" in out and "'images/crate.png' prints at" in out and "below 300" in out, out + err
    code, out, err = cardgen(capsys, deck.parent, "preflight", "--strict")
    assert code == 1


@pytest.fixture
def tiny(monkeypatch, tmp_path) -> Path:
    """The made-up Python game without a rule sheet, rulings or provenance."""
    monkeypatch.setattr(registry, "_GAMES", registered())
    register(TINY_GAME)
    content = tmp_path / "content"
    shutil.copytree(TINY, content)
    game = content / "tiny-race"
    (game / "rules.yaml").unlink()
    (game / "rulings.yaml").unlink()
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace(", provenance: reconstructed", ""), "utf-8")
    schema = content / "schema" / "tiny-race.schema.json"
    text = schema.read_text("utf-8").replace('"required": ["game", "rules", "rulings", "cards"]', '"required": ["game", "cards"]')
    schema.write_text(text.replace('"required": ["id", "deck", "value", "provenance"]', '"required": ["id", "deck", "value"]'),
                      "utf-8")
    return content


def test_a_game_without_rules_yaml_validates_and_builds(capsys, tiny, tmp_path):
    """Once `validate` stopped with KeyError: 'rules'."""
    code, out, err = cardgen(capsys, tiny, "validate")
    assert code == 0 and "ok  tiny-race" in out, err
    code, out, err = cardgen(capsys, tiny, "build", "--paper", "a4", "--layout", "home", "--out", str(tmp_path / "out"))
    assert code == 0, err
    assert not list((tmp_path / "out" / "tiny-race").glob("rules-*"))


def test_cards_without_provenance_are_verified(capsys, tiny):
    """Once `verify` stopped with KeyError: 'provenance'."""
    code, out, err = cardgen(capsys, tiny, "verify")
    assert code == 0 and "components sourced 0, reconstructed 0" in out and "1 scenarios replayed, 0 failed" in out, out + err


@pytest.mark.parametrize("svg, says", [
    ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
     '<image xlink:href="file:///etc/hostname" width="10" height="10"/></svg>', "may not link"),
    ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/hostname">]>'
     '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><desc>&x;</desc></svg>', None),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text x="1" y="5">Hi</text></svg>',
     "holds text"),
    ("<svg", "is not readable SVG"),
])
def test_a_hostile_or_broken_svg_is_one_located_error_and_never_reads_outside(capsys, deck, svg, says):
    (deck / "images" / "coin.svg").write_text(svg, "utf-8")
    code, out, err = cardgen(capsys, deck.parent, "validate")
    assert "Traceback" not in err
    if says is None:  # the entity is never expanded: the picture is harmless and the deck is valid
        assert code == 0, err
        return
    assert code == 1 and f"{deck / 'layout.yaml'}:2:9: $.icons.coin: 'images/coin.svg'" in err and says in err, err
