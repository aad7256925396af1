"""Printing a drawing larger than the paper: split a W x H mm drawing into panels, one per page,
that overlap their neighbours, with alignment marks and page labels so the pages can be trimmed
and taped into one sheet.

Where two pages meet, the one to the right (or below) goes on top: it is trimmed on the seam, a
dashed line in the middle of the overlap that only the top page prints, and laid over its
neighbour. The neighbour, the covered page, carries the alignment crosses in the strip the top
page will hide, each with one arm's tip on the seam: the top page's cut edge lies right over those
tips, and nothing of a cross shows on the finished board. Along the drawing's outer edge the art
reaches `bleed_mm` past the edge, and crop marks in line with that edge show where to cut it.

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
MARK_ARM_MM = 3.0  # half the length of an alignment cross's arms; a cross fits in half an overlap
CROP_GAP_MM = 1.0  # between the printed art and a crop mark
CROP_MM = 3.0  # the length of a crop mark


@dataclass(frozen=True)
class Panel:
    """One page of a split drawing. `window` is the part of the drawing (drawing mm) it shows;
    `origin` is where the drawing's (0, 0) lands on the page (page mm), so a drawing point (x, y)
    prints at (origin_x + x, origin_y + y). `marks` are alignment crosses in drawing mm, each
    printed on the covered page only; `seams` the lines (drawing mm, vertical as ('x', value),
    horizontal as ('y', value)) on which this page is trimmed to lie on top of a neighbour;
    `outer` the sides on the drawing's edge, whose art reaches `bleed` mm past it."""

    row: int
    column: int
    label: str
    window: Rect
    origin: tuple[float, float]
    marks: tuple[tuple[float, float], ...]
    seams: tuple[tuple[str, float], ...]
    neighbours: dict
    outer: tuple[str, ...] = ()
    bleed: float = 0.0

    def on_page(self) -> Rect:
        """The window where it prints on the page (page mm): the page's TrimBox."""
        return Rect(self.origin[0] + self.window.x, self.origin[1] + self.window.y, self.window.w, self.window.h)

    def printed(self) -> Rect:
        """What the page prints of the drawing (page mm): its window and, on outer sides, the bleed."""
        t, b = self.on_page(), self.bleed
        left, right = (b if "left" in self.outer else 0.0), (b if "right" in self.outer else 0.0)
        bottom, top = (b if "bottom" in self.outer else 0.0), (b if "top" in self.outer else 0.0)
        return Rect(t.x - left, t.y - bottom, t.w + left + right, t.h + bottom + top)

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """(x0, y0, x1, y1) in page mm: on every outer side, a mark in line with that side beyond
        each of its ends, clear of the printed art."""
        t, p = self.on_page(), self.printed()
        reach = (CROP_GAP_MM, CROP_GAP_MM + CROP_MM)
        marks = []
        for side in self.outer:
            if side in ("top", "bottom"):
                y = t.top if side == "top" else t.y
                marks += [(p.x - reach[1], y, p.x - reach[0], y), (p.right + reach[0], y, p.right + reach[1], y)]
            else:
                x = t.right if side == "right" else t.x
                marks += [(x, p.y - reach[1], x, p.y - reach[0]), (x, p.top + reach[0], x, p.top + reach[1])]
        return marks


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
                margin_mm: float = PANEL_MARGIN_MM, bleed_mm: float = 0.0) -> PanelPlan:
    """Split a `width_mm` x `height_mm` drawing over pages of `paper`, portrait or landscape
    (whichever needs fewer pages; portrait on a tie), neighbouring panels overlapping by at least
    `overlap_mm`. Labels run A1, A2, ... along the top row, B1, ... below it. With `bleed_mm`, the
    drawing's outer edge prints that much past it, with crop marks; the margin grows to hold both."""
    margin_mm += bleed_mm
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
    # Seams: the middle of each overlap. A page is covered right of a vertical seam's left page
    # and below a horizontal seam's upper page; each cross lies in that hidden strip, one arm's tip
    # on the seam.
    seam_x = [(xs[i] + win_w + xs[i + 1]) / 2 for i in range(len(xs) - 1)]
    seam_y = [(ys[i] + win_h + ys[i + 1]) / 2 for i in range(len(ys) - 1)]
    panels = []
    rows = len(ys)
    for r in range(rows):
        y0 = ys[rows - 1 - r]  # row A is the top of the drawing
        for c, x0 in enumerate(xs):
            window = Rect(x0, y0, win_w, win_h)
            origin = ((page_w - win_w) / 2 - x0, (page_h - win_h) / 2 - y0)
            # This page lies on top of its left and upper neighbours: trimmed on those seams.
            seams = tuple([("x", s) for s in seam_x if x0 < s < x0 + win_w and c > 0 and s < x0 + win_w / 2] +
                          [("y", s) for s in seam_y if y0 < s < y0 + win_h and r > 0 and s > y0 + win_h / 2])
            neighbours = {}
            if c > 0:
                neighbours["left"] = f"{row_label(r)}{c}"
            if c < len(xs) - 1:
                neighbours["right"] = f"{row_label(r)}{c + 2}"
            if r > 0:
                neighbours["top"] = f"{row_label(r - 1)}{c + 1}"
            if r < rows - 1:
                neighbours["bottom"] = f"{row_label(r + 1)}{c + 1}"
            # The part of the page that shows once it is joined: between the seams it is trimmed
            # on (left, top) and those where a neighbour covers it (right, bottom).
            left = next((s for s in seam_x if x0 < s < x0 + win_w / 2), x0) if c > 0 else x0
            right = next((s for s in seam_x if x0 + win_w / 2 < s < x0 + win_w), None)
            top = next((s for s in seam_y if y0 + win_h / 2 < s < y0 + win_h), y0 + win_h) if r > 0 else y0 + win_h
            bottom = next((s for s in seam_y if y0 < s < y0 + win_h / 2), None)
            marks = []
            if "right" in neighbours:  # the right neighbour covers this page past the seam
                low = bottom if bottom is not None else y0
                marks += [(right + MARK_ARM_MM, low + (top - low) * f) for f in (0.2, 0.8)]
            if "bottom" in neighbours:  # the lower neighbour covers this page below the seam
                end = right if right is not None else x0 + win_w
                marks += [(left + (end - left) * f, bottom - MARK_ARM_MM) for f in (0.2, 0.8)]
            outer = tuple(side for side in ("left", "right", "top", "bottom") if side not in neighbours)
            panels.append(Panel(r, c, f"{row_label(r)}{c + 1}", window, origin,
                                tuple(sorted((round(x, 6), round(y, 6)) for x, y in marks)), seams, neighbours,
                                outer, bleed_mm))
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
PANELS_KEYWORD = "cardgen-panels"  # in the file's keywords: the assembly page tells how to join its pages
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
    bleed = max((panel.bleed for panel in plan.panels), default=0.0)
    with atomic_output(path) as out:
        canvas = new_canvas(out, (plan.page_w * mm, plan.page_h * mm), title)
        canvas.setKeywords(PANELS_KEYWORD)
        # The drawing is made once, as a form, and every page places it: a board of several pages
        # costs one drawing, and the file holds it once.
        canvas.beginForm("PanelDrawing", -bleed * mm, -bleed * mm, (plan.width + bleed) * mm, (plan.height + bleed) * mm)
        draw(canvas)
        canvas.endForm()
        for panel in plan.panels:
            trim, printed = panel.on_page(), panel.printed()
            canvas.setTrimBox(tuple(round(v * mm, 4) for v in (trim.x, trim.y, trim.right, trim.top)))
            canvas.setBleedBox(tuple(round(v * mm, 4) for v in (printed.x, printed.y, printed.right, printed.top)))
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(*(v * mm for v in (printed.x, printed.y, printed.w, printed.h)))
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
            canvas.setLineWidth(0.3)
            for x0, y0, x1, y1 in panel.crop_marks():
                canvas.line(x0 * mm, y0 * mm, x1 * mm, y1 * mm)
            canvas.setFillColor(LABEL_COLOUR)
            canvas.setFont(SANS_BOLD, 9)
            # The label above the printed art and the caption below it, clear of the crop marks
            # that stand in line with the page's sides.
            inset = 1.5
            text = f"{panel.label}  ({panel.row + 1}/{plan.rows}, {panel.column + 1}/{plan.columns})"
            canvas.drawString((trim.x + inset) * mm, (printed.top + 2.5) * mm, text)
            canvas.setFont(SANS, 7)
            sides = "  ".join(f"{side}: {name}" for side, name in panel.neighbours.items())
            extra = caption(panel) if caption else ""
            canvas.drawRightString((trim.right - inset) * mm, (printed.top + 2.5) * mm, sides)
            if extra:
                canvas.drawString((trim.x + inset) * mm, (printed.y - 5) * mm, extra)
            words = [Rect(trim.x * mm, (printed.top + 1.5) * mm, trim.w * mm, 4 * mm),
                     Rect(trim.x * mm, (printed.y - 6) * mm, trim.w * mm, 4 * mm)]
            marks = [Rect(min(m[0], m[2]) * mm, min(m[1], m[3]) * mm, abs(m[2] - m[0]) * mm, abs(m[3] - m[1]) * mm)
                     for m in panel.crop_marks()]
            from cardgen.sheets import ruler_beside

            ruler_beside(canvas, plan.page_w * mm, plan.page_h * mm, [printed.scaled(mm), *words, *marks])
            canvas.showPage()
        canvas.save()


__all__ = ["PANELS_KEYWORD", "Panel", "PanelPlan", "plan_panels", "covers", "render_panels", "row_label",
           "DEFAULT_OVERLAP_MM", "PANEL_MARGIN_MM"]
