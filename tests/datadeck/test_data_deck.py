"""A deck described by data alone (game.yaml, layout.yaml, a card spreadsheet, pictures) is a
complete game: it validates, builds in every layout and passes the preflight, with no Python, no
schema and no rule sheet of its own; verify and simulate say it has no rules engine."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.datadeck.conftest import cardgen, to_xlsx
from tests.pdfcheck import pdf_problems, render_page


def build(capsys, deck: Path, out: Path, *args) -> tuple[int, str, str]:
    return cardgen(capsys, deck.parent, "build", "--paper", "a4", "--out", str(out), *args)


@pytest.mark.parametrize("sheet", ["csv", "xlsx"])
def test_a_deck_from_data_alone_builds_in_every_layout(capsys, deck, tmp_path, sheet):
    if sheet == "xlsx":
        to_xlsx(deck / "cards.csv", deck / "cards.xlsx")
        (deck / "cards.csv").unlink()
    assert not list(deck.rglob("*.py")) and not (deck.parent / "schema").exists()
    code, out, err = cardgen(capsys, deck.parent, "validate")
    assert code == 0 and "ok  my-deck: 9 cards in 2 decks" in out, err
    code, out, err = build(capsys, deck, tmp_path / "out", "--layout", "all")
    assert code == 0, err
    game = tmp_path / "out" / "my-deck"
    names = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert names == sorted([
        "calibration-a4.pdf", "calibration-a4-landscape.pdf", "my-deck/assembly-a4-en.pdf",
        "my-deck/cards-a4-butted.pdf", "my-deck/cards-a4-fold.pdf", "my-deck/cards-a4-home.pdf",
        "my-deck/proof-a4.pdf", "my-deck/shop-poker-63x88/cards.pdf", "my-deck/shop-poker-63x88/cards.csv",
        *[f"my-deck/shop-poker-63x88/front-{n:03d}-{i}.png" for n, i in
          [(1, 1), (4, 2), (6, 3), (8, 4), (9, 5)]],
        "my-deck/shop-poker-63x88/back-events.png", "my-deck/shop-poker-63x88/back-goods.png",
        "my-deck/tts/back-events.png", "my-deck/tts/back-goods.png", "my-deck/tts/deck-events-1.png",
        "my-deck/tts/deck-goods-1.png", "my-deck/tts/my-deck.json"]), names
    for pdf in [*game.glob("*.pdf"), game / "shop-poker-63x88" / "cards.pdf"]:
        assert pdf_problems(pdf) == [], pdf.name
    # Nine cards with their backs: two fronts-and-backs sheets in the home layout.
    assert len(PdfReader(game / "cards-a4-home.pdf").pages) == 4
    code, out, err = build(capsys, deck, tmp_path / "selection", "my-deck", "--cards", "1,9")
    assert code == 0 and (tmp_path / "selection" / "my-deck" / "replacements-a4-home.pdf").is_file(), err
    code, out, err = cardgen(capsys, deck.parent, "preflight")
    assert code == 0 and "no findings" in out, out + err


def test_the_faces_print_their_fields_as_plain_text(capsys, deck, tmp_path):
    code, _, err = build(capsys, deck, tmp_path / "out", "--layout", "home")
    assert code == 0, err
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "out" / "my-deck" / "cards-a4-home.pdf").pages)
    for word in ("Wheat", "Barley", "Storm", "Festival", "Market Day", "Events"):
        assert word in text
    # A cell holding markup is printed as the characters it holds.
    assert "<b>&amp;" in text
    # The colour picked by the suit: a grain card's background is the grain colour.
    page = render_page(tmp_path / "out" / "my-deck" / "cards-a4-home.pdf", 0, dpi=36).convert("RGB")
    colours = {page.getpixel((x, y)) for x in range(0, page.width, 7) for y in range(0, page.height, 7)}
    assert (0xF3, 0xE6, 0xC4) in colours and (0xDF, 0xE7, 0xF2) in colours


def test_each_picture_is_stored_once_per_file(capsys, deck, tmp_path):
    code, _, err = build(capsys, deck, tmp_path / "out", "--layout", "home")
    assert code == 0, err
    reader = PdfReader(tmp_path / "out" / "my-deck" / "cards-a4-home.pdf")
    images, uses = set(), 0
    for page in reader.pages:
        for name, ref in (page["/Resources"].get("/XObject") or {}).items():
            if ref.get_object().get("/Subtype") == "/Image":
                images.add(ref.idnum)
                uses += 1
    # The crate picture shows on five fronts (page 1) and eight backs (page 2): one image object,
    # named by both pages and drawn thirteen times.
    assert len(images) == 1 and uses == 2
    drawn = sum(page.get_contents().get_data().count(b" Do") for page in reader.pages[:2])
    assert drawn >= 13


def test_the_same_deck_builds_the_same_bytes(capsys, deck, tmp_path):
    digests = []
    for n in range(2):
        code, _, err = build(capsys, deck, tmp_path / f"out{n}", "--layout", "home,fold")
        assert code == 0, err
        digests.append({p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                        for p in (tmp_path / f"out{n}" / "my-deck").glob("*.pdf")})
    assert digests[0] == digests[1] and len(digests[0]) == 4


def test_a_game_with_no_rules_engine_says_so_in_one_line(capsys, deck):
    for command in (["verify"], ["simulate", "my-deck"]):
        code, out, err = cardgen(capsys, deck.parent, *command)
        assert code == 1 and out == "" and len(err.strip().splitlines()) == 1, (command, out, err)
        assert "my-deck: this game has no rules engine" in err and "Traceback" not in err


def test_a_schema_the_game_brings_is_used_as_well(capsys, deck):
    schema = deck.parent / "schema"
    schema.mkdir()
    (schema / "my-deck.schema.json").write_text(
        '{"type": "object", "properties": {"cards": {"properties": {"cards": {"items": '
        '{"properties": {"cost": {"type": "integer", "maximum": 3}}}}}}}}', "utf-8")
    code, out, err = cardgen(capsys, deck.parent, "validate")
    lines = err.strip().splitlines()
    assert code == 1 and lines[0].startswith(f"{deck / 'cards.csv'}:4:4: $.cards[2].cost: cell D4 (column cost): 4 is "
                                             "greater than the maximum of 3"), err
    assert lines[1:] == ["1 error found"]


def test_a_deck_may_keep_its_layout_in_game_yaml_and_its_cards_in_yaml(capsys, deck, tmp_path):
    layout = (deck / "layout.yaml").read_text("utf-8")
    (deck / "layout.yaml").unlink()
    indented = "".join(f"  {line}\n" for line in layout.splitlines())
    (deck / "game.yaml").write_text((deck / "game.yaml").read_text("utf-8") + "layout:\n" + indented, "utf-8")
    (deck / "cards.csv").unlink()
    (deck / "cards.yaml").write_text(
        "cards:\n  - {deck: goods, name: Wheat, suit: grain, cost: 2, art: images/crate.png, text: Sell.}\n"
        "  - {deck: events, name: Storm, text: Discard.}\n", "utf-8")
    code, out, err = cardgen(capsys, deck.parent, "validate")
    assert code == 0 and "ok  my-deck: 2 cards in 2 decks" in out, err
    code, _, err = build(capsys, deck, tmp_path / "out", "--layout", "home")
    assert code == 0, err


def test_a_jpeg_picture_is_drawn_like_a_png(capsys, deck, tmp_path):
    from PIL import Image

    Image.open(deck / "images" / "crate.png").convert("RGB").save(deck / "images" / "crate.jpg", quality=90)
    csv = deck / "cards.csv"
    csv.write_text(csv.read_text("utf-8").replace("images/crate.png", "images/crate.jpg"), "utf-8")
    code, _, err = build(capsys, deck, tmp_path / "out", "--layout", "home")
    assert code == 0, err
    reader = PdfReader(tmp_path / "out" / "my-deck" / "cards-a4-home.pdf")
    filters = {str(x.get_object().get("/Filter")) for page in reader.pages
               for x in (page["/Resources"].get("/XObject") or {}).values() if x.get_object()["/Subtype"] == "/Image"}
    assert any("DCTDecode" in f for f in filters), filters  # the JPEG is stored as a JPEG


def test_a_character_the_decks_font_lacks_is_a_preflight_error(capsys, deck):
    csv = deck / "cards.csv"
    csv.write_text(csv.read_text("utf-8").replace("goods,Wheat,", "goods,Wheat 麥,"), "utf-8")
    code, out, err = cardgen(capsys, deck.parent, "preflight")
    assert code == 1 and "glyph" in out + err and "'麥'" in out + err, out + err
