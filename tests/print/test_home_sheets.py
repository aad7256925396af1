"""Home card sheets: a gutter with the art bleeding into it, crop marks well clear of the art, a
choice of cut-line weight and colour, a label and a 100 mm ruler off the art on every page."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.build import build_options
from cardgen.errors import UsageError
from cardgen.layout import MARK_CLEAR, Rect, crop_marks, line_box, plan_sheet, ruler_ticks
from cardgen.pdfdoc import mm
from cardgen.sheets import (
    ART_CLEARANCE, LABEL_SIZE, RULER_LENGTH, SheetOptions, _strips, parse_cut_line, render_card_sheets,
)
from reportlab.pdfbase.pdfmetrics import stringWidth

SIZES = [(63, 88), (57, 87), (44, 68), (70, 120), (88, 63), (41, 63)]


def distance(line, rect: Rect) -> float:
    dx = max(rect.x - max(line.x0, line.x1), min(line.x0, line.x1) - rect.right, 0)
    dy = max(rect.y - max(line.y0, line.y1), min(line.y0, line.y1) - rect.top, 0)
    return (dx * dx + dy * dy) ** 0.5


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", SIZES)
def test_home_cards_sit_in_a_gutter_their_art_bleeds_into(paper, size):
    sheet = plan_sheet(paper, *size, "home")
    assert sheet.bleed >= 1 * mm - 1e-6
    for slot in sheet.slots:
        assert slot.bleed.box() == pytest.approx(slot.trim.grow(sheet.bleed).box())
    for a in sheet.slots:
        for b in sheet.slots:
            if a is not b and abs(a.trim.y - b.trim.y) < 1e-6 and b.trim.x > a.trim.x:
                # Two trims never touch: a cut off by less than the bleed shows the card's own art.
                assert b.trim.x - a.trim.right >= 2 * sheet.bleed - 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", SIZES)
def test_home_crop_marks_keep_two_millimetres_and_more_from_all_art(paper, size):
    sheet = plan_sheet(paper, *size, "home")
    for used in (sheet.slots, sheet.slots[:1]):
        marks = crop_marks(sheet, used)
        assert marks
        for mark in marks:
            for slot in used:
                assert distance(mark, slot.bleed) >= min(MARK_CLEAR, 2 * mm) - 1e-6


def test_butted_layout_is_kept_as_an_option():
    sheet = plan_sheet("a4", 63, 88, "butted")
    assert sheet.per_page == 9 and sheet.bleed == 0


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["home", "butted"])
def test_every_page_has_room_off_the_art_for_its_label_and_ruler(paper, layout):
    sheet = plan_sheet(paper, 63, 88, layout)
    text = "Game of Trains · sheet 10 of 11 · backs · cards 82-88 · Letter · butted · duplex, flip on the short edge · print at 100 % (actual size)"
    from cardgen.pdfdoc import register_fonts, SANS

    register_fonts()
    for used in (sheet.slots, sheet.slots[:2]):
        marks = crop_marks(sheet, used)
        label, ruler = _strips(sheet.page_w, sheet.page_h, tuple(used), tuple(marks),
                               stringWidth(text, SANS, LABEL_SIZE))
        assert label is not None and ruler is not None
        assert ruler.length == pytest.approx(RULER_LENGTH)
        page = Rect(0, 0, sheet.page_w, sheet.page_h).grow(-5 * mm)
        for strip in (label, ruler):
            assert page.contains(strip.rect)
            for slot in used:
                assert not _overlap(strip.rect, slot.bleed.grow(ART_CLEARANCE - 1e-3))
            for mark in marks:
                assert not _overlap(strip.rect, line_box(mark))


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def test_the_ruler_measures_one_hundred_millimetres():
    ticks = ruler_ticks(100)
    assert ticks[0][0] == 0 and ticks[-1][0] == pytest.approx(100 * mm)
    assert len(ticks) == 101


def test_sheets_carry_their_label_and_ruler(trains, tmp_path):
    path = render_card_sheets(trains, tmp_path / "cards.pdf", "a4", "home", "short")
    reader = PdfReader(path)
    first = reader.pages[0].extract_text()
    back = reader.pages[1].extract_text()
    for needed in ("Game of Trains", "sheet 1 of 11", "fronts", "cards 1-8", "A4", "short edge",
                   "print at 100 %", "10 cm"):
        assert needed in first, needed
    assert "sheet 1 of 11" in back and "backs" in back


def test_cut_line_weight_and_colour_are_chosen(trains, tmp_path):
    width, colour = parse_cut_line("0.6,#FF0000")
    path = render_card_sheets(trains, tmp_path / "cards.pdf", "a4", "home",
                              options=SheetOptions(cut_width=width, cut_colour=colour))
    stream = PdfReader(path).pages[0].get_contents().get_data()
    assert b"1 0 0 RG" in stream and b".6 w" in stream
    default = PdfReader(render_card_sheets(trains, tmp_path / "plain.pdf", "a4", "home")).pages[0]
    assert b"1 0 0 RG" not in default.get_contents().get_data()


@pytest.mark.parametrize("text, message", [
    ("thick", "WIDTH_PT,#RRGGBB"), ("0.5,#12345", "#RRGGBB"), ("9,#000000", "0.05 to 3 points"),
])
def test_a_bad_cut_line_is_a_usage_error(text, message):
    with pytest.raises(UsageError, match=message):
        parse_cut_line(text)


def test_layout_choices_are_checked_and_home_is_the_gutter_layout():
    layouts, _ = build_options("home", None, None, None, None, None, "both", ["g"])
    assert layouts == ("home",)
    layouts, _ = build_options("all", None, None, None, None, None, "both", ["g"])
    assert layouts == ("home", "butted", "fold", "shop", "tts")
    with pytest.raises(UsageError, match="--layout must be one of"):
        build_options("poster", None, None, None, None, None, "both", ["g"])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_butted_cards_get_cut_guides_inside_the_block_on_request(paper):
    from cardgen.layout import inner_guides

    sheet = plan_sheet(paper, 63, 88, layout="butted")
    slots = sheet.slots
    assert inner_guides(slots, "none") == []
    trims = [s.trim for s in slots]

    def on_a_cut_line(x, y):
        return any(abs(x - v) < 1e-6 for t in trims for v in (t.x, t.right)) or \
            any(abs(y - v) < 1e-6 for t in trims for v in (t.y, t.top))

    for style in ("crosses", "lines"):
        guides = inner_guides(slots, style)
        assert guides and len(guides) == len(set(guides))
        for g in guides:
            # Every stroke runs along a cut line, so the cut takes it away.
            assert (g.x0 == g.x1 and on_a_cut_line(g.x0, 1e9)) or (g.y0 == g.y1 and on_a_cut_line(1e9, g.y0))
        # The middle card, whose corners no mark outside the block reaches, has a guide at each corner.
        middle = min(trims, key=lambda t: abs(t.x + t.w / 2 - sheet.page_w / 2) + abs(t.y + t.h / 2 - sheet.page_h / 2))
        for cx, cy in ((middle.x, middle.y), (middle.right, middle.y), (middle.x, middle.top), (middle.right, middle.top)):
            assert any(min(g.x0, g.x1) - 1e-6 <= cx <= max(g.x0, g.x1) + 1e-6 and
                       min(g.y0, g.y1) - 1e-6 <= cy <= max(g.y0, g.y1) + 1e-6 for g in guides), (style, cx, cy)
    with pytest.raises(UsageError, match="--inner-guides"):
        build_options("butted", None, None, None, None, None, "both", ["g"], None, "dots")
