"""Sheet geometry: how many cards fit, crop marks that stay off the cards, backs that line up."""

from __future__ import annotations

import pytest

from cardgen.errors import UsageError
from cardgen.layout import (
    MARGIN, MARK_MIN, Line, Rect, Slot, back_slots, crop_marks, flip_axis,
    mirror, page_boxes, pages, plan_sheet,
)
from cardgen.pdfdoc import PAPER_MM, mm

POKER = (63, 88)
SIZES = [POKER, (57, 87), (44, 68), (70, 120), (88, 63), (41, 63)]


def distance(line: Line, rect: Rect) -> float:
    """Smallest distance between an axis-aligned segment and a rectangle (0 when they touch)."""
    dx = max(rect.x - max(line.x0, line.x1), min(line.x0, line.x1) - rect.right, 0)
    dy = max(rect.y - max(line.y0, line.y1), min(line.y0, line.y1) - rect.top, 0)
    return (dx * dx + dy * dy) ** 0.5


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_butted_layout_fits_nine_poker_cards_portrait(paper):
    sheet = plan_sheet(paper, *POKER, "butted")
    assert (sheet.columns, sheet.rows, sheet.landscape) == (3, 3, False)
    assert sheet.bleed == 0


@pytest.mark.parametrize("paper, expected", [("a4", (4, 2)), ("letter", (4, 2))])
def test_home_layout_turns_the_page_when_landscape_holds_more(paper, expected):
    sheet = plan_sheet(paper, *POKER, "home")
    assert (sheet.columns, sheet.rows) == expected
    assert sheet.landscape
    assert sheet.per_page < plan_sheet(paper, *POKER, "butted").per_page


def test_butted_cards_share_cut_lines():
    sheet = plan_sheet("a4", *POKER, "butted")
    first, second = sheet.slots[0], sheet.slots[1]
    assert first.trim.right == pytest.approx(second.trim.x)
    assert first.trim == first.bleed


def test_home_cards_have_their_own_bleed_into_a_gutter():
    sheet = plan_sheet("a4", *POKER, "home")
    first, second = sheet.slots[0], sheet.slots[1]
    assert first.bleed == first.trim.grow(sheet.bleed)
    assert second.trim.x - first.trim.right == pytest.approx(2 * sheet.bleed)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["home", "butted"])
@pytest.mark.parametrize("size", SIZES)
def test_cards_have_their_exact_size_and_stay_inside_the_printer_margin(paper, layout, size):
    sheet = plan_sheet(paper, *size, layout)
    safe = Rect(MARGIN, MARGIN, sheet.page_w - 2 * MARGIN, sheet.page_h - 2 * MARGIN)
    assert sorted((sheet.page_w / mm, sheet.page_h / mm)) == pytest.approx(sorted(PAPER_MM[paper]))
    for slot in sheet.slots:
        assert (slot.trim.w, slot.trim.h) == pytest.approx((size[0] * mm, size[1] * mm))
        assert safe.contains(slot.bleed)
    # No two cards overlap.
    for i, a in enumerate(sheet.slots):
        for b in sheet.slots[i + 1:]:
            assert a.bleed.right <= b.bleed.x + 1e-6 or b.bleed.right <= a.bleed.x + 1e-6 \
                or a.bleed.top <= b.bleed.y + 1e-6 or b.bleed.top <= a.bleed.y + 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["home", "butted"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("used", ["full", "partial"])
def test_crop_marks_never_touch_a_card_or_the_printer_margin(paper, layout, size, used):
    sheet = plan_sheet(paper, *size, layout)
    slots = sheet.slots if used == "full" else sheet.slots[: max(1, sheet.per_page - 2)]
    marks = crop_marks(sheet, slots)
    safe = Rect(MARGIN, MARGIN, sheet.page_w - 2 * MARGIN, sheet.page_h - 2 * MARGIN)
    for mark in marks:
        assert mark.length >= MARK_MIN - 1e-6
        assert safe.contains(Rect(min(mark.x0, mark.x1), min(mark.y0, mark.y1),
                                  abs(mark.x1 - mark.x0), abs(mark.y1 - mark.y0)))
        for slot in slots:  # an empty place on a partial page may be crossed: nothing is printed there
            assert distance(mark, slot.bleed) >= sheet.mark_offset - 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_cut_line_of_the_butted_grid_has_marks_on_both_ends(paper):
    sheet = plan_sheet(paper, *POKER, "butted")
    marks = crop_marks(sheet, sheet.slots)
    vertical = [m for m in marks if m.x0 == m.x1]
    horizontal = [m for m in marks if m.y0 == m.y1]
    # 4 vertical cut lines and 4 horizontal ones, each marked above and below (left and right).
    assert len({round(m.x0, 3) for m in vertical}) == 4 and len(vertical) == 8
    assert len({round(m.y0, 3) for m in horizontal}) == 4 and len(horizontal) == 8
    cut_xs = {round(v, 3) for s in sheet.slots for v in (s.trim.x, s.trim.right)}
    assert {round(m.x0, 3) for m in vertical} == cut_xs


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["home", "butted"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("flip", ["long", "short"])
def test_back_of_every_card_is_its_front_mirrored_for_the_flip(paper, layout, size, flip):
    sheet = plan_sheet(paper, *size, layout)
    backs = back_slots(sheet, sheet.slots, flip)
    axis = flip_axis(sheet.page_w, sheet.page_h, flip)
    for front, back in zip(sheet.slots, backs):
        if axis == "x":
            assert back.trim.x == pytest.approx(sheet.page_w - front.trim.x - front.trim.w)
            assert back.trim.y == pytest.approx(front.trim.y)
        else:
            assert back.trim.y == pytest.approx(sheet.page_h - front.trim.y - front.trim.h)
            assert back.trim.x == pytest.approx(front.trim.x)
        again = mirror(back.bleed, sheet.page_w, sheet.page_h, flip)
        assert (again.x, again.y, again.w, again.h) == pytest.approx(
            (front.bleed.x, front.bleed.y, front.bleed.w, front.bleed.h))
    # The grid is centred, so a full page of backs occupies exactly the places of the fronts.
    def places(slots):
        return sorted((round(s.trim.x, 3), round(s.trim.y, 3)) for s in slots)
    assert places(backs) == places(sheet.slots)


def test_long_edge_flip_mirrors_columns_on_portrait_and_rows_on_landscape():
    assert flip_axis(595, 842, "long") == "x"
    assert flip_axis(595, 842, "short") == "y"
    assert flip_axis(842, 595, "long") == "y"
    assert flip_axis(842, 595, "short") == "x"


def test_column_c_of_n_backs_onto_column_n_minus_1_minus_c():
    sheet = plan_sheet("a4", *POKER, "butted")
    backs = back_slots(sheet, sheet.slots, "long")
    for index, back in enumerate(backs):
        row, column = divmod(index, sheet.columns)
        partner = sheet.slots[row * sheet.columns + sheet.columns - 1 - column].trim
        assert back.trim.box() == pytest.approx(partner.box())


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["home", "butted"])
def test_trim_and_bleed_boxes_wrap_the_cards_inside_the_page(paper, layout):
    sheet = plan_sheet(paper, *POKER, layout)
    trim, bleed = page_boxes(sheet.slots)
    page = Rect(0, 0, sheet.page_w, sheet.page_h)
    assert page.contains(bleed) and bleed.contains(trim)
    if layout == "butted":
        assert trim == bleed
    else:
        assert bleed.box() == pytest.approx(trim.grow(sheet.bleed).box())
    top_left, bottom_right = sheet.slots[0].trim, sheet.slots[-1].trim
    assert trim.box() == pytest.approx((top_left.x, bottom_right.y, bottom_right.right, top_left.top))


def test_partial_page_boxes_wrap_only_the_cards_printed():
    sheet = plan_sheet("a4", *POKER, "butted")
    trim, _ = page_boxes(sheet.slots[:1])
    assert trim == sheet.slots[0].trim


def test_pages_split_cards_in_order():
    assert [list(r) for r in pages(20, 9)] == [list(range(9)), list(range(9, 18)), [18, 19]]
    assert pages(0, 9) == []


@pytest.mark.parametrize("args, message", [
    (("a3", 63, 88, "home"), "unknown paper 'a3'"),
    (("a4", 63, 88, "poster"), "unknown layout 'poster'"),
    (("a4", 300, 88, "home"), "does not fit on a4 paper"),
])
def test_impossible_requests_are_refused_with_a_reason(args, message):
    with pytest.raises(UsageError, match=message):
        plan_sheet(*args)


def test_unknown_flip_is_refused():
    with pytest.raises(UsageError, match="unknown flip"):
        flip_axis(595, 842, "sideways")


def test_slot_is_a_value():
    assert Slot(Rect(0, 0, 1, 1), Rect(0, 0, 1, 1)) == Slot(Rect(0, 0, 1, 1), Rect(0, 0, 1, 1))
