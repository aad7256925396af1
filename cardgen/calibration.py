"""Duplex calibration: one sheet, printed double-sided, that shows how far the printer puts the back
side off its place.

The front carries two thin lines, one upright and one level. The back carries a millimetre scale
behind each, centred where the line belongs once the paper is turned over (mirrored for the flip,
as the backs of card sheets are). Held against a light, the front's line shows through the paper
and crosses the back's scale at the printer's error, counted in the back's own directions: the
number read is how far the backs must move (right and up, as seen on the back) to sit behind their
fronts, which is what `--back-offset X,Y` (or a `--printer` file) takes.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import HexColor

from cardgen.layout import MARGIN, Rect, mirror
from cardgen.pdfdoc import PAPER_MM, SANS, SANS_BOLD, atomic_output, mm, new_canvas
from cardgen.sheets import DUPLEX, draw_ruler

SCALE_MM = 5  # the scale reads from -5 to +5 mm
LINE_LENGTH = 40 * mm
INK = HexColor("#000000")
RED = HexColor("#C0392B")


def calibration_name(paper: str, flip: str) -> str:
    return f"calibration-{paper}{'-short' if flip == 'short' else ''}.pdf"


def targets(page_w: float, page_h: float) -> tuple[Rect, Rect]:
    """The front's upright line (as a zero-width rect) and its level line."""
    upright = Rect(page_w / 2, page_h * 0.62, 0, LINE_LENGTH)
    level = Rect(page_w * 0.25, page_h * 0.35, LINE_LENGTH, 0)
    return upright, level


def _text_block(canvas, x, y, lines, size=9):
    canvas.setFillColor(INK)
    for i, line in enumerate(lines):
        canvas.setFont(SANS_BOLD if i == 0 else SANS, size + (3 if i == 0 else 0))
        canvas.drawString(x, y, line)
        y -= (size + 3) * 1.35 if i == 0 else size * 1.35


def _scale(canvas, origin_x, origin_y, upright_scale: bool):
    """Ticks every half millimetre from -5 to +5, numbered every millimetre; along x when level,
    along y when upright."""
    canvas.setStrokeColor(INK)
    canvas.setFillColor(INK)
    canvas.setLineWidth(0.2)
    canvas.setFont(SANS, 5)
    for half in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        v = half / 2
        length = (4 if half == 0 else 3 if half % 2 == 0 else 1.8) * mm
        if upright_scale:
            y = origin_y + v * mm
            canvas.line(origin_x - length / 2, y, origin_x + length / 2, y)
            if half % 2 == 0:
                canvas.drawString(origin_x + 2.6 * mm, y - 1.6, f"{v:+.0f}" if v else "0")
        else:
            x = origin_x + v * mm
            canvas.line(x, origin_y - length / 2, x, origin_y + length / 2)
            if half % 2 == 0:
                canvas.drawCentredString(x, origin_y + 2.6 * mm, f"{v:+.0f}" if v else "0")


def render_calibration(path: Path, paper: str, flip: str) -> Path:
    page_w, page_h = (v * mm for v in PAPER_MM[paper])
    upright, level = targets(page_w, page_h)
    title = f"Duplex calibration ({paper}, {flip}-edge flip)"
    box = (MARGIN, MARGIN, page_w - MARGIN, page_h - MARGIN)
    with atomic_output(path) as buffer:
        canvas = new_canvas(buffer, (page_w, page_h), title, duplex=DUPLEX[flip])
        # Front.
        canvas.setTrimBox(box)
        canvas.setBleedBox(box)
        _text_block(canvas, 20 * mm, page_h - 25 * mm, [
            "Duplex calibration: front",
            f"Print this file double-sided on {paper.upper() if paper == 'a4' else paper} paper, flipping on the "
            f"{flip} edge, at 100 % (actual size).",
            "Then hold the sheet against a light with the BACK side towards you. The red lines of this",
            "side show through and cross the scales printed on the back: read each crossing in mm.",
            "Build again with --back-offset X,Y (X from the level scale, Y from the upright scale),",
            "or write them into a printer file (printer: {back_offset_mm: [X, Y]}) and use --printer FILE.",
            "Check the ruler below with a ruler of your own: it must measure exactly 100 mm.",
        ])
        canvas.setStrokeColor(RED)
        canvas.setLineWidth(0.35)
        canvas.line(upright.x, upright.y, upright.x, upright.top)
        canvas.line(level.x, level.y, level.right, level.y)
        _draw_front_ruler(canvas, page_w)
        canvas.showPage()
        # Back: the scales behind the lines.
        canvas.setPageSize((page_w, page_h))
        canvas.setTrimBox(box)
        canvas.setBleedBox(box)
        upright_back = mirror(upright, page_w, page_h, flip)
        level_back = mirror(level, page_w, page_h, flip)
        # The upright line crosses a level scale (it reads X); the level line an upright one (Y).
        _scale(canvas, upright_back.x, upright_back.y + upright_back.h / 2, upright_scale=False)
        _scale(canvas, level_back.x + level_back.w / 2, level_back.y, upright_scale=True)
        canvas.setFont(SANS, 7)
        canvas.drawCentredString(upright_back.x, upright_back.y + upright_back.h / 2 - 6 * mm, "X (mm, + = right)")
        canvas.drawCentredString(level_back.x + level_back.w / 2, level_back.y - 9 * mm, "Y (mm, + = up)")
        _text_block(canvas, 20 * mm, page_h - 25 * mm, [
            "Duplex calibration: back",
            "Read where the red lines of the front cross these scales, looking at this side against a light.",
            "Reading 0 and 0 means the backs already sit behind their fronts.",
        ])
        canvas.showPage()
        canvas.save()
    return Path(path)


def _draw_front_ruler(canvas, page_w):
    from cardgen.layout import Strip

    strip = Strip(Rect((page_w - 104 * mm) / 2, 30 * mm, 104 * mm, 2.2 * mm), False)
    draw_ruler(canvas, strip)


__all__ = ["calibration_name", "render_calibration", "targets"]
