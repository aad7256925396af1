"""Printing defects of Flamme Rouge, each measured on the printed output: text size on every card,
the value disc inside the safe zone, tile letters whose sides cannot be confused, riders that fit
one square, and every printed word coming from the content."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.games.flamme_rouge import boards, faces
from cardgen.games.flamme_rouge.tiles import draw_tile_letter
from cardgen.layout import Rect
from cardgen.pdfdoc import mm, new_canvas
from tests.pdfcheck import text_sizes

PAGE = (120 * mm, 130 * mm)
CARD = Rect(28.5 * mm, 21 * mm, 63 * mm, 88 * mm)
BLEED = 3 * mm
MIN_PT = 7.0
SAFE_MM = 3.0


@pytest.fixture(scope="module")
def flamme():
    return load_game(PROJECT_CONTENT, "flamme-rouge")


@pytest.fixture(scope="module")
def card_pages(flamme, tmp_path_factory) -> tuple[Path, list[str]]:
    """Every distinct face and every back alone on a page; with what each page shows."""
    path = tmp_path_factory.mktemp("cards") / "cards.pdf"
    canvas = new_canvas(str(path), PAGE, "cards")
    names = []
    for card in flamme.cards:
        faces.draw_face(canvas, flamme, {**card, "copy": 1}, CARD, BLEED)
        canvas.showPage()
        names.append(card["id"])
    for back_id in flamme.game["backs"]:
        faces.draw_back(canvas, flamme, back_id, CARD, BLEED)
        canvas.showPage()
        names.append(back_id)
    canvas.save()
    return path, names


def test_no_text_on_any_card_is_below_7_pt(card_pages):
    path, names = card_pages
    small = []
    for name, page in zip(names, PdfReader(str(path)).pages):
        sizes = text_sizes(page)
        assert sizes, name
        small += [f"{name}: {size:.1f} pt {text[:20]!r}" for size, text in sizes if size < MIN_PT - 0.01]
    assert not small, small


def test_value_disc_keeps_3_mm_from_the_trim(card_pages):
    # An energy card's value disc is white on the team colour: nothing white may reach into the
    # 3 mm next to the trim at its corner.
    path, names = card_pages
    document = pypdfium2.PdfDocument(str(path))
    scale = 4
    px = scale * mm  # pixels per millimetre
    checked = 0
    for index, name in enumerate(names):
        if not name.startswith(("rouleur-", "sprinteur-")) or name.endswith("-back"):
            continue
        image = document[index].render(scale=scale).to_pil().convert("RGB")
        _, height = image.size
        left = CARD.x * scale
        bottom = height - CARD.y * scale
        pixels = image.load()
        white = 0
        for x in range(int(left), int(left + 20 * px)):
            for y in range(int(bottom - SAFE_MM * px) + 1, int(bottom) - 1):
                r, g, b = pixels[x, y]
                white += min(r, g, b) > 240
        for x in range(int(left) + 1, int(left + SAFE_MM * px)):
            for y in range(int(bottom - 20 * px), int(bottom) - 1):
                r, g, b = pixels[x, y]
                white += min(r, g, b) > 240
        assert white == 0, (name, white)
        checked += 1
    assert checked == 40


def render_letter(letter: str, tmp_path: Path):
    path = tmp_path / f"letter-{ord(letter)}.pdf"
    canvas = new_canvas(str(path), (12 * mm, 12 * mm), "letter")
    draw_tile_letter(canvas, letter, 6 * mm, 6 * mm, 3.3 * mm, 9)
    canvas.showPage()
    canvas.save()
    return pypdfium2.PdfDocument(str(path))[0].render(scale=6).to_pil().convert("L")


@pytest.mark.parametrize("pair", ["lI", "iI", "lL", "oO"])
def test_tile_letters_of_the_two_sides_never_look_alike(pair, tmp_path):
    # Uppercase I and lowercase l are one bar in the sans-serif face; the side's disc tells them
    # apart: at least a third of the disc's pixels differ.
    first, second = (render_letter(c, tmp_path) for c in pair)
    width, height = first.size
    a, b = first.load(), second.load()
    differ = sum(1 for x in range(width) for y in range(height) if abs(a[x, y] - b[x, y]) > 96)
    assert differ > 0.33 * width * height * 0.28, pair  # the disc covers about 28 % of the square


def test_stage_cards_show_every_tile_letter_in_its_side_disc(flamme, card_pages):
    path, names = card_pages
    reader = PdfReader(str(path))
    for stage in flamme.files["stages"]["stages"]:
        text = reader.pages[names.index(f"stage-{stage['id']}")].extract_text()
        for letter in stage["course"].split():
            assert letter in text


def test_a_folded_rider_stands_on_one_lane_of_one_square(flamme):
    geometry = flamme.files["tiles"]["geometry"]
    along, across = boards.standee_footprint_mm()
    assert along <= geometry["square_length_mm"] - 6, "a standee must leave room on its square"
    assert across < geometry["lane_width_mm"]
    assert along < 2 * boards.STANDEE_FACE_MM  # the feet can meet under the tent
    assert boards.COUNTER_MM < min(geometry["lane_width_mm"], geometry["square_length_mm"])
    fold = faces.words(flamme, "riders-fold", "en")
    assert "folded in" in fold and "one lane of one square" in fold


def test_every_printed_word_comes_from_the_content():
    # No Chinese text is held in the print code: the style checks of the content see all of it.
    root = Path(faces.__file__).parent
    offenders = []
    for path in sorted(root.glob("*.py")):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if re.search(r"[\u3400-\u9fff]", code) and not line.lstrip().startswith(('"""', "'")):
                offenders.append(f"{path.name}:{n}")
    assert not offenders, offenders
