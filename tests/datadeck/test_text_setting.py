"""How a data layout sets a text in its box: wrapping, Chinese line breaks, hanging indents,
shrinking to fit, and the anchors that place a box."""

from __future__ import annotations

import pytest

from cardgen.datalayout import box, fit_text, pieces, set_lines
from cardgen.layout import Rect
from cardgen.pdfdoc import CJK, SANS, mm, register_fonts


@pytest.fixture(scope="module", autouse=True)
def fonts():
    register_fonts()


def texts(lines) -> list[str]:
    return ["".join(((" " if gap and n else "") + piece.text) for n, (piece, gap) in enumerate(line)) for line, _ in lines]


def test_no_chinese_line_starts_with_a_closing_mark():
    text = "自己火車中相鄰的兩節車廂對調。" * 6
    for width in range(60, 200, 7):
        lines = set_lines(list(pieces(text, {})), CJK, 9.5, width, True, {})
        assert all(line and line[0][0].text not in "，。、；：！？）」』" for line, _ in lines), width
        assert all(used <= width + 0.01 for _, used in lines), width


def test_a_hanging_indent_moves_the_later_lines_of_each_paragraph_in():
    text = "1 Swap: two neighbouring carriages of your train trade places.\n2 Lock: keeps it in place."
    lines = set_lines(list(pieces(text, {})), SANS, 9.5, 40 * mm, True, {}, hang=3 * mm)
    firsts = [line[0] for line, _ in lines]
    starts = [piece.text for piece, _ in firsts]
    assert starts[0] == "1" and "2" in starts
    for (piece, gap) in firsts:
        assert gap == (0.0 if piece.text in ("1", "2") else 3 * mm)


def test_a_long_text_shrinks_to_fit_and_below_the_floor_only_when_it_cannot():
    area = Rect(0, 0, 50 * mm, 12 * mm)
    short = fit_text("A short line.", SANS, {"size": 10}, area, {}, {})
    assert short[0] == 10
    longer = fit_text("Every player discards one good. " * 3, SANS, {"size": 10}, area, {}, {})
    assert 7 <= longer[0] < 10
    too_long = fit_text("Every player discards one good. " * 12, SANS, {"size": 10}, area, {}, {})
    assert too_long[0] < 7  # the preflight reports it: text below 7 pt is an error
    kept = fit_text("Every player discards one good. " * 12, SANS, {"size": 10, "shrink": False}, area, {}, {})
    assert kept[0] == 10


@pytest.mark.parametrize("anchor, x, y, expect", [
    ("top-left", 5, 5, (5, 88 - 5 - 10)),
    ("bottom-right", -5, -5, (63 - 5 - 20, 5)),
    ("center", 0, 0, ((63 - 20) / 2, (88 - 10) / 2)),
    ("top", 0, 3, ((63 - 20) / 2, 88 - 3 - 10)),
])
def test_an_anchor_places_the_elements_point_of_that_name_on_the_cards(anchor, x, y, expect):
    card = Rect(0, 0, 63 * mm, 88 * mm)
    placed = box({"type": "rect", "anchor": anchor, "x": x, "y": y, "width": 20, "height": 10}, card)
    assert (round(placed.x / mm, 6), round(placed.y / mm, 6)) == pytest.approx(expect)
    assert (round(placed.w / mm, 6), round(placed.h / mm, 6)) == (20, 10)
