"""Panels: a drawing larger than the paper split over pages with overlap, alignment marks and
labels; the pages cover the drawing, neighbours overlap by at least the asked amount, marks in an
overlap print on both pages, and the PDF has one page per panel with its boxes and fonts."""

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


def test_marks_in_an_overlap_print_on_both_neighbours():
    plan = plan_panels(*BOARD, "a4")
    by_label = {p.label: p for p in plan.panels}
    a1, a2 = by_label["A1"], by_label["A2"]
    shared = set(a1.marks) & set(a2.marks)
    assert shared, "two neighbours share no alignment mark"
    for x, y in shared:
        assert a2.window.x <= x <= a1.window.right
    assert a1.neighbours["right"] == "A2" and a2.neighbours["left"] == "A1"
    assert [p.label for p in plan.panels][:2] == ["A1", "A2"]


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
