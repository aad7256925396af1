"""Duplex calibration: one sheet per page orientation, printed double-sided, that shows how far the
printer puts the back side off its place. A printer turns a landscape page a quarter turn onto the
paper, so its error shows in other directions there: each orientation is measured on its own sheet.

The front carries four targets, one near each corner, each two thin lines, one upright and one
level. The back carries a millimetre scale behind each line, centred where the line belongs once the paper is turned over (mirrored for the flip,
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

SCALE_MM = 5  # each scale reads from -5 to +5 mm
LINE_LENGTH = 30 * mm
LINE_WIDTH = 0.5  # points: thin enough to read to half a millimetre, thick enough to see through paper
INK = HexColor("#000000")
RED = HexColor("#C0392B")
ORIENTATIONS = ("portrait", "landscape")


def calibration_name(paper: str, flip: str, orientation: str = "portrait") -> str:
    """calibration-a4.pdf, calibration-a4-landscape.pdf, with -short for a short-edge flip."""
    return (f"calibration-{paper}{'-landscape' if orientation == 'landscape' else ''}"
            f"{'-short' if flip == 'short' else ''}.pdf")


def page_size(paper: str, orientation: str) -> tuple[float, float]:
    w, h = (v * mm for v in PAPER_MM[paper])
    return (h, w) if orientation == "landscape" else (w, h)


def targets(page_w: float, page_h: float) -> list[tuple[Rect, Rect]]:
    """The front's four targets, one near each corner, as (upright line, level line) zero-width
    rects. Four readings instead of one show whether the printer also turns or scales the back."""
    found = []
    for fy in (0.8, 0.2):
        for fx in (0.25, 0.75):
            cx, cy = page_w * fx, page_h * fy
            upright = Rect(cx - 10 * mm, cy - LINE_LENGTH / 2, 0, LINE_LENGTH)
            level = Rect(cx - 4 * mm, cy - 10 * mm, LINE_LENGTH, 0)
            found.append((upright, level))
    return found


def _text_block(canvas, x, y, lines, size=8.5):
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
    canvas.setLineWidth(LINE_WIDTH)
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


def scale_points(upright: Rect, level: Rect, page_w: float, page_h: float, flip: str):
    """Where the back's two scales of one target are centred: the X scale (level ticks) on the
    mirrored upright line, the Y scale (upright ticks) on the mirrored level line."""
    upright_back = mirror(upright, page_w, page_h, flip)
    level_back = mirror(level, page_w, page_h, flip)
    return ((upright_back.x, upright_back.y + upright_back.h * 0.8),
            (level_back.x + level_back.w / 2, level_back.y))


def render_calibration(path: Path, paper: str, flip: str, orientation: str = "portrait") -> Path:
    """The calibration sheet for pages of one orientation: card sheets laid out landscape are
    corrected by what the landscape sheet reads, portrait ones by the portrait sheet."""
    page_w, page_h = page_size(paper, orientation)
    title = f"Duplex calibration ({paper}, {orientation} pages, {flip}-edge flip)"
    box = (MARGIN, MARGIN, page_w - MARGIN, page_h - MARGIN)
    option = "--back-offset-landscape" if orientation == "landscape" else "--back-offset"
    paper_name = paper.upper() if paper == "a4" else paper
    pairs = targets(page_w, page_h)
    text_x, text_y = 16 * mm, page_h * 0.62
    with atomic_output(path) as buffer:
        canvas = new_canvas(buffer, (page_w, page_h), title, duplex=DUPLEX[flip])
        # Front: four targets of two red lines each.
        canvas.setTrimBox(box)
        canvas.setBleedBox(box)
        _text_block(canvas, text_x, text_y, [
            f"Duplex calibration for {orientation} pages: front",
            f"Print this file double-sided on {paper_name} paper, flipping on the {flip} edge, at 100 % (actual size),",
            f"with the same printer settings as the card sheets. It corrects the {orientation} files only.",
            "Hold the sheet against a light with the BACK towards you: each red line shows through and",
            "crosses a scale on the back. Read X and Y at each of the four targets, in mm.",
            "If the four agree within 0.5 mm, use them; if they differ, the printer also turns or",
            "scales the back: use their average, and check the paper guides of the tray.",
            f"Build again with {option} X,Y, or write them into a printer file",
            f"(printer: {{back_offset_mm: {{{orientation}: [X, Y]}}}}) and use --printer FILE.",
        ])
        canvas.setStrokeColor(RED)
        canvas.setLineWidth(LINE_WIDTH)
        for n, (upright, level) in enumerate(pairs, 1):
            canvas.line(upright.x, upright.y, upright.x, upright.top)
            canvas.line(level.x, level.y, level.right, level.y)
            canvas.setFillColor(RED)
            canvas.setFont(SANS_BOLD, 9)
            canvas.drawString(upright.x + 3 * mm, upright.top - 3 * mm, str(n))
        _draw_front_ruler(canvas, page_w, page_h)
        canvas.showPage()
        # Back: two scales behind each target.
        canvas.setPageSize((page_w, page_h))
        canvas.setTrimBox(box)
        canvas.setBleedBox(box)
        for n, (upright, level) in enumerate(pairs, 1):
            (xx, xy), (yx, yy) = scale_points(upright, level, page_w, page_h, flip)
            # The upright line crosses a level scale (it reads X); the level line an upright one (Y).
            _scale(canvas, xx, xy, upright_scale=False)
            _scale(canvas, yx, yy, upright_scale=True)
            canvas.setFont(SANS, 6.5)
            canvas.drawCentredString(xx, xy - 5 * mm, f"{n}: X (mm, + = right)")
            canvas.drawString(yx + 6 * mm, yy - 1, f"{n}: Y (mm, + = up)")
        _text_block(canvas, text_x, text_y, [
            f"Duplex calibration for {orientation} pages: back",
            "Read where each red line of the front crosses the scale beside its number, against a light.",
            "0 and 0 at all four targets means the backs already sit behind their fronts.",
        ])
        canvas.showPage()
        canvas.save()
    return Path(path)


def _draw_front_ruler(canvas, page_w, page_h):
    from cardgen.layout import Strip

    strip = Strip(Rect((page_w - 104 * mm) / 2, page_h * 0.5 - 14 * mm, 104 * mm, 2.2 * mm), False)
    draw_ruler(canvas, strip)


__all__ = ["ORIENTATIONS", "calibration_name", "page_size", "render_calibration", "scale_points", "targets"]
