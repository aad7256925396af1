"""Printing a drawing larger than the paper: split a W x H mm drawing into panels, one per page,
that overlap their neighbours, with alignment marks and page labels so the pages can be trimmed
and taped into one sheet.

The first half is pure geometry in millimetres and draws nothing: `plan_panels` returns, for a
drawing and a paper, every panel's window on the drawing, where it lands on its page, its label
and the alignment marks it carries. The second half, `render_panels`, draws any `draw(canvas)`
callable (which paints the whole drawing in points, origin at its lower-left corner) once per
panel, clipped to the panel and shifted onto the page, and gives every page a TrimBox and a
BleedBox. Panels all have the same size, so the overlap between neighbours is at least the one
asked for and the same everywhere along a row or a column.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from pathlib import Path
from typing import Callable

from reportlab.lib.colors import HexColor

from cardgen.errors import UsageError
from cardgen.geometry import Rect
from cardgen.pdfdoc import PAPER_MM, SANS, SANS_BOLD, atomic_output, mm, new_canvas

# Nothing is printed closer than this to the paper's edge; the label strip sits inside it.
PANEL_MARGIN_MM = 10.0
DEFAULT_OVERLAP_MM = 15.0
MARK_ARM_MM = 4.0  # half the length of an alignment cross's arms


@dataclass(frozen=True)
class Panel:
    """One page of a split drawing. `window` is the part of the drawing (drawing mm) it shows;
    `origin` is where the drawing's (0, 0) lands on the page (page mm), so a drawing point (x, y)
    prints at (origin_x + x, origin_y + y). `marks` are alignment crosses in drawing mm, each
    printed on every panel whose window holds it; `seams` the lines (drawing mm, vertical as
    ('x', value), horizontal as ('y', value)) along which this page meets a neighbour."""

    row: int
    column: int
    label: str
    window: Rect
    origin: tuple[float, float]
    marks: tuple[tuple[float, float], ...]
    seams: tuple[tuple[str, float], ...]
    neighbours: dict

    def on_page(self) -> Rect:
        """The window where it prints on the page (page mm): the page's TrimBox."""
        return Rect(self.origin[0] + self.window.x, self.origin[1] + self.window.y, self.window.w, self.window.h)


@dataclass(frozen=True)
class PanelPlan:
    paper: str
    page_w: float  # mm, as the page is printed (landscape when that needs fewer pages)
    page_h: float
    width: float  # the drawing, mm
    height: float
    overlap: float
    columns: int
    rows: int
    panels: tuple[Panel, ...]

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h


def _starts(total: float, window: float, overlap: float) -> list[float]:
    """Where windows of `window` mm start so they cover `total` mm with at least `overlap`
    between neighbours, spaced evenly."""
    if total <= window + 1e-9:
        return [0.0]
    count = ceil((total - overlap) / (window - overlap) - 1e-9)
    count = max(count, 2)
    step = (total - window) / (count - 1)
    return [i * step for i in range(count)]


def row_label(row: int) -> str:
    return chr(ord("A") + row) if row < 26 else f"R{row + 1}"


def plan_panels(width_mm: float, height_mm: float, paper: str, overlap_mm: float = DEFAULT_OVERLAP_MM,
                margin_mm: float = PANEL_MARGIN_MM) -> PanelPlan:
    """Split a `width_mm` x `height_mm` drawing over pages of `paper`, portrait or landscape
    (whichever needs fewer pages; portrait on a tie), neighbouring panels overlapping by at least
    `overlap_mm`. Labels run A1, A2, ... along the top row, B1, ... below it."""
    if paper not in PAPER_MM:
        raise UsageError(f"unknown paper {paper!r}; choose one of {', '.join(PAPER_MM)}")
    if width_mm <= 0 or height_mm <= 0:
        raise UsageError("a drawing needs a positive width and height")
    best = None
    for page_w, page_h in (PAPER_MM[paper], PAPER_MM[paper][::-1]):
        win_w, win_h = page_w - 2 * margin_mm, page_h - 2 * margin_mm
        if win_w <= overlap_mm or win_h <= overlap_mm:
            raise UsageError(f"an overlap of {overlap_mm:g} mm leaves no room on {paper} paper")
        xs = _starts(width_mm, win_w, overlap_mm)
        ys = _starts(height_mm, win_h, overlap_mm)
        if best is None or len(xs) * len(ys) < len(best[2]) * len(best[3]):
            best = (page_w, page_h, xs, ys)
    page_w, page_h, xs, ys = best
    win_w, win_h = min(page_w - 2 * margin_mm, width_mm), min(page_h - 2 * margin_mm, height_mm)
    # Seams: the middle of each overlap. Marks sit on the seams, inside the overlap, so both
    # pages that share a seam print them.
    seam_x = [(xs[i] + win_w + xs[i + 1]) / 2 for i in range(len(xs) - 1)]
    seam_y = [(ys[i] + win_h + ys[i + 1]) / 2 for i in range(len(ys) - 1)]
    marks = []
    for sx in seam_x:
        for y0 in ys:
            marks += [(sx, y0 + win_h * 0.2), (sx, y0 + win_h * 0.8)]
    for sy in seam_y:
        for x0 in xs:
            marks += [(x0 + win_w * 0.2, sy), (x0 + win_w * 0.8, sy)]
    marks = sorted(set((round(x, 6), round(y, 6)) for x, y in marks))
    panels = []
    rows = len(ys)
    for r in range(rows):
        y0 = ys[rows - 1 - r]  # row A is the top of the drawing
        for c, x0 in enumerate(xs):
            window = Rect(x0, y0, win_w, win_h)
            origin = ((page_w - win_w) / 2 - x0, (page_h - win_h) / 2 - y0)
            seams = tuple([("x", s) for s in seam_x if x0 < s < x0 + win_w] +
                          [("y", s) for s in seam_y if y0 < s < y0 + win_h])
            neighbours = {}
            if c > 0:
                neighbours["left"] = f"{row_label(r)}{c}"
            if c < len(xs) - 1:
                neighbours["right"] = f"{row_label(r)}{c + 2}"
            if r > 0:
                neighbours["top"] = f"{row_label(r - 1)}{c + 1}"
            if r < rows - 1:
                neighbours["bottom"] = f"{row_label(r + 1)}{c + 1}"
            mine = tuple(m for m in marks if window.contains_point(*m))
            panels.append(Panel(r, c, f"{row_label(r)}{c + 1}", window, origin, mine, seams, neighbours))
    return PanelPlan(paper, page_w, page_h, width_mm, height_mm, overlap_mm, len(xs), rows, tuple(panels))


def covers(plan: PanelPlan, step_mm: float = 1.0) -> bool:
    """Whether every point of the drawing (sampled every `step_mm`) lies in some panel's window."""
    nx, ny = int(plan.width / step_mm) + 1, int(plan.height / step_mm) + 1
    for i in range(nx + 1):
        x = min(i * step_mm, plan.width)
        for j in range(ny + 1):
            y = min(j * step_mm, plan.height)
            if not any(p.window.contains_point(x, y) for p in plan.panels):
                return False
    return True


# --- drawing ------------------------------------------------------------------------------------

MARK_COLOUR = HexColor("#000000")
SEAM_COLOUR = HexColor("#9e9e9e")
LABEL_COLOUR = HexColor("#424242")


def _cross(canvas, x: float, y: float) -> None:
    arm = MARK_ARM_MM * mm
    canvas.circle(x, y, arm * 0.55, stroke=1, fill=0)
    canvas.line(x - arm, y, x + arm, y)
    canvas.line(x, y - arm, x, y + arm)


def render_panels(path: Path, plan: PanelPlan, draw: Callable, title: str,
                  caption: Callable[[Panel], str] | None = None) -> None:
    """Write one PDF page per panel: the drawing clipped to the panel, its alignment marks and
    seams, and a label naming the page and its neighbours (plus `caption(panel)` if given)."""
    with atomic_output(path) as out:
        canvas = new_canvas(out, (plan.page_w * mm, plan.page_h * mm), title)
        # The drawing is made once, as a form, and every page places it: a board of several pages
        # costs one drawing, and the file holds it once.
        canvas.beginForm("PanelDrawing", 0, 0, plan.width * mm, plan.height * mm)
        draw(canvas)
        canvas.endForm()
        for panel in plan.panels:
            trim = panel.on_page()
            box = (trim.x * mm, trim.y * mm, trim.right * mm, trim.top * mm)
            canvas.setTrimBox(tuple(round(v, 4) for v in box))
            canvas.setBleedBox(tuple(round(v, 4) for v in box))
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(*(v * mm for v in (trim.x, trim.y, trim.w, trim.h)))
            canvas.clipPath(clip, stroke=0, fill=0)
            canvas.translate(panel.origin[0] * mm, panel.origin[1] * mm)
            canvas.doForm("PanelDrawing")
            canvas.restoreState()
            ox, oy = panel.origin
            canvas.saveState()
            canvas.setStrokeColor(SEAM_COLOUR)
            canvas.setLineWidth(0.4)
            canvas.setDash(3, 3)
            for axis, value in panel.seams:
                if axis == "x":
                    canvas.line((ox + value) * mm, trim.y * mm, (ox + value) * mm, trim.top * mm)
                else:
                    canvas.line(trim.x * mm, (oy + value) * mm, trim.right * mm, (oy + value) * mm)
            canvas.restoreState()
            canvas.setStrokeColor(MARK_COLOUR)
            canvas.setLineWidth(0.5)
            for mx, my in panel.marks:
                _cross(canvas, (ox + mx) * mm, (oy + my) * mm)
            canvas.setFillColor(LABEL_COLOUR)
            canvas.setFont(SANS_BOLD, 9)
            text = f"{panel.label}  ({panel.row + 1}/{plan.rows}, {panel.column + 1}/{plan.columns})"
            canvas.drawString(trim.x * mm, (trim.top + 2.5) * mm, text)
            canvas.setFont(SANS, 7)
            sides = "  ".join(f"{side}: {name}" for side, name in panel.neighbours.items())
            extra = caption(panel) if caption else ""
            canvas.drawRightString(trim.right * mm, (trim.top + 2.5) * mm, sides)
            if extra:
                canvas.drawString(trim.x * mm, (trim.y - 5) * mm, extra)
            # The label above the panel and the caption below it, each a line of text.
            words = [Rect(trim.x * mm, (trim.top + 1.5) * mm, trim.w * mm, 4 * mm),
                     Rect(trim.x * mm, (trim.y - 6) * mm, trim.w * mm, 4 * mm)]
            from cardgen.sheets import ruler_beside

            ruler_beside(canvas, plan.page_w * mm, plan.page_h * mm, [trim.scaled(mm), *words])
            canvas.showPage()
        canvas.save()


__all__ = ["Panel", "PanelPlan", "plan_panels", "covers", "render_panels", "row_label",
           "DEFAULT_OVERLAP_MM", "PANEL_MARGIN_MM"]
