"""Panels: a drawing larger than the paper split over pages with overlap, alignment marks and
labels; the pages cover the drawing, neighbours overlap by at least the asked amount, marks in an
overlap print only on the page that will be covered, the outer edge bleeds and has crop marks, and the
PDF has one page per panel with its boxes and fonts."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.errors import UsageError
from cardgen.panels import covers, plan_panels, render_panels
from cardgen.pdfdoc import PAPER_MM, mm
from tests.pdfcheck import pdf_problems

BOARD = (600.0, 400.0)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_600_by_400_board_is_covered_with_overlap(paper):
    plan = plan_panels(*BOARD, paper, overlap_mm=15)
    assert covers(plan, step_mm=2)
    assert len(plan.panels) == plan.columns * plan.rows > 1
    by_place = {(p.row, p.column): p for p in plan.panels}
    for (r, c), panel in by_place.items():
        right = by_place.get((r, c + 1))
        if right:
            assert panel.window.right - right.window.x >= 15 - 1e-6
            assert abs(panel.window.y - right.window.y) < 1e-6
        below = by_place.get((r + 1, c))
        if below:
            assert below.window.top - panel.window.y >= 15 - 1e-6
    # every window fits on its page inside the margin
    page_w, page_h = plan.page_w, plan.page_h
    assert {page_w, page_h} == set(PAPER_MM[paper])
    for panel in plan.panels:
        box = panel.on_page()
        assert box.x >= 5 and box.y >= 5 and box.right <= page_w - 5 and box.top <= page_h - 5


def _kept(panel):
    """What is left of a page's window once it is trimmed on its seams (drawing mm)."""
    x0, y0, x1, y1 = panel.window.x, panel.window.y, panel.window.right, panel.window.top
    for axis, value in panel.seams:
        if axis == "x":
            x0 = value  # a page is trimmed on the seam with its left neighbour
        else:
            y1 = value  # and on the seam with its upper neighbour
    return x0, y0, x1, y1


def _inside(box, x0, y0, x1, y1):
    return box[0] <= x0 + 1e-6 and box[1] <= y0 + 1e-6 and x1 <= box[2] + 1e-6 and y1 <= box[3] + 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crosses_print_only_where_the_page_on_top_will_cover_them(paper):
    from cardgen.panels import MARK_ARM_MM

    plan = plan_panels(*BOARD, paper, bleed_mm=3)
    by_label = {p.label: p for p in plan.panels}
    assert by_label["A1"].neighbours["right"] == "A2" and by_label["A2"].neighbours["left"] == "A1"
    assert [p.label for p in plan.panels][:2] == ["A1", "A2"]
    counted = 0
    for panel in plan.panels:
        # The page to the right and the page below lie on top; the first row and column are trimmed on no seam.
        assert {axis for axis, _ in panel.seams} == ({"x"} if panel.column else set()) | ({"y"} if panel.row else set())
        on_top = [by_label[panel.neighbours[side]] for side in ("right", "bottom") if side in panel.neighbours]
        assert len(panel.marks) == 2 * len(on_top)
        for mx, my in panel.marks:
            counted += 1
            box = (mx - MARK_ARM_MM, my - MARK_ARM_MM, mx + MARK_ARM_MM, my + MARK_ARM_MM)
            assert _inside(_kept(panel), *box)
            # hidden: wholly under the kept part of a page that lies on top of this one
            assert any(_inside(_kept(top), *box) for top in on_top), (panel.label, mx, my)
            # and one arm's tip touches the seam the top page is trimmed on
            seams = [v for top in on_top for axis, v in top.seams]
            assert any(abs(v - (mx - MARK_ARM_MM)) < 1e-6 or abs(v - (my + MARK_ARM_MM)) < 1e-6 for v in seams)
    assert counted > 0


def test_outer_edges_bleed_and_carry_crop_marks_in_line_with_the_edge():
    plan = plan_panels(*BOARD, "a4", bleed_mm=3)
    corner = plan.panels[0]
    assert set(corner.outer) == {"left", "top"}
    printed, trim = corner.printed(), corner.on_page()
    assert printed.x == pytest.approx(trim.x - 3) and printed.top == pytest.approx(trim.top + 3)
    assert printed.right == pytest.approx(trim.right) and printed.y == pytest.approx(trim.y)
    marks = corner.crop_marks()
    assert len(marks) == 4
    for x0, y0, x1, y1 in marks:
        on_left = x0 == x1 == pytest.approx(trim.x)
        on_top = y0 == y1 == pytest.approx(trim.top)
        assert on_left or on_top
        mid_x, mid_y = (x0 + x1) / 2, (y0 + y1) / 2
        assert not printed.contains_point(mid_x, mid_y)  # clear of the art
        assert 0 < mid_x < plan.page_w and 0 < mid_y < plan.page_h


def test_a_drawing_smaller_than_the_page_is_one_panel():
    plan = plan_panels(150, 100, "letter")
    assert len(plan.panels) == 1 and not plan.panels[0].marks and covers(plan)


def test_unknown_paper_and_impossible_overlap_are_refused():
    with pytest.raises(UsageError):
        plan_panels(*BOARD, "a3")
    with pytest.raises(UsageError):
        plan_panels(*BOARD, "a4", overlap_mm=300)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rendered_panels_have_boxes_embedded_fonts_and_one_page_each_and_draw_the_board_once(tmp_path, paper):
    plan = plan_panels(*BOARD, paper)
    drawn = []

    def draw(canvas):
        drawn.append(1)
        canvas.rect(0, 0, BOARD[0] * mm, BOARD[1] * mm, stroke=1, fill=0)

    path = tmp_path / "board.pdf"
    render_panels(path, plan, draw, "test board")
    reader = PdfReader(path)
    assert len(reader.pages) == len(plan.panels) and drawn == [1]
    assert pdf_problems(reader) == []
    first = reader.pages[0]
    trim = [float(v) for v in first.trimbox]
    window = plan.panels[0].on_page()
    assert trim == pytest.approx([window.x * mm, window.y * mm, window.right * mm, window.top * mm], abs=0.01)
    again = tmp_path / "again.pdf"
    drawn.clear()
    render_panels(again, plan, draw, "test board")
    assert path.read_bytes() == again.read_bytes()
