"""Preflight: what a prepress check finds on the printed cards, before anything is written.

Every distinct card face and back of a game is drawn once onto a recording canvas: a real reportlab
canvas that also notes each piece of text it is asked to draw (its font, size and place on the page,
forms of shared art included). From those notes and a coarse rendering of the same pages come the
findings, each naming the game, the card and what is wrong:

- text below the minimum size (7 pt): an error, as text that cannot fit at the minimum must be
  rewritten or given room, never shrunk;
- characters that the font drawing them cannot print (they would show as empty boxes): an error;
- text that runs past the card's trim (it would be cut off): an error;
- text inside the 3 mm safe zone along the trim, where a cutter's drift can reach it: a warning;
- text that runs into other text (a face laid out for a bigger card, say): a warning;
- art that stops at the trim instead of reaching into the bleed (a white sliver after a slightly
  off cut): a warning.

Warnings become errors with `strict`. A finding about a card points at the card's line in its
content file.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from cardgen.errors import display_path
from cardgen.faces import MIN_TEXT_PT, SAFE_ZONE_MM
from cardgen.images import PRINT_DPI
from cardgen.layout import Rect
from cardgen.pdfdoc import CJK, CJK_MONO, SANS, drop_chinese, english_only, mm, register_fonts
from cardgen.registry import definition_for

SAFE_MM = SAFE_ZONE_MM
BLEED_MM = 3.0
PART_BLEED_MM = 2.0  # the least bleed of a token, tile, mat or board: tokens sit closer than cards
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Finding:
    level: str  # "error" or "warning"
    game: str
    card: str  # "card <id>" or "back <id>"
    check: str  # min-size, glyph, overflow, safe-zone, bleed
    message: str
    where: str = ""  # file:line:col of the card in the content, when known

    def __str__(self) -> str:
        place = f"{self.where}: " if self.where else ""
        return f"{place}{self.level}: {self.game} {self.card}: {self.message}"

    def as_dict(self) -> dict[str, str]:
        return {"level": self.level, "game": self.game, "card": self.card, "check": self.check,
                "message": self.message, "where": self.where}


@dataclass
class TextRun:
    text: str
    font: str
    size: float  # in points on the page, the drawing's scale included
    corners: list[tuple[float, float]]  # the run's box on the page


def _compose(outer, inner):
    a, b, c, d, e, f = outer
    A, B, C, D, E, F = inner
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


def _apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _scale(m) -> float:
    a, b, c, d, _, _ = m
    return abs(a * d - b * c) ** 0.5


class _RecordingText(PDFTextObject):
    """Notes each run where it is drawn: textOut and textLine move the cursor before they format
    the text, so their starting point is kept first. A paragraph writes its pieces with
    `_textOut`, which reportlab's cursor does not follow: each piece moves the pen along the line
    by its width (`_ahead`), and the PDF's own T* after a line's last piece moves it down a
    leading (`_dropped`), until the next new line start or origin."""

    _start = None
    _dropped = 0.0
    _ahead = 0.0

    def setTextOrigin(self, x, y):
        self._dropped = self._ahead = 0.0
        super().setTextOrigin(x, y)

    def setTextTransform(self, a, b, c, d, e, f):
        self._dropped = self._ahead = 0.0
        super().setTextTransform(a, b, c, d, e, f)

    def moveCursor(self, dx, dy):  # a new line start, from the start of the line the pen is on
        self._ahead = 0.0
        super().moveCursor(dx, dy)

    def _here(self) -> tuple[float, float]:
        return self._x + self._ahead, self._y - self._dropped

    def textOut(self, text):
        self._start = self._here()
        super().textOut(text)

    def textLine(self, text=""):
        self._start = self._here()
        super().textLine(text)
        self._ahead = 0.0

    def _textOut(self, text, TStar=0):  # noqa: N803 (reportlab's name)
        self._start = self._here()
        super()._textOut(text, TStar)
        if TStar:
            self._dropped += self._leading
            self._ahead = 0.0
        else:
            self._ahead += self._canvas.stringWidth(text, self._fontname, self._fontsize)

    def _formatText(self, text):
        x, y = self._start if self._start is not None else (self._x, self._y)
        self._start = None
        self._canvas._note(text, self._fontname, self._fontsize, x, y)
        return super()._formatText(text)


class RecordingCanvas(Canvas):
    """A canvas that notes every text it draws, with the transformation in force; text drawn into
    a form (shared art) is noted where the form is placed. Every way of drawing text (drawString
    and its kin, text objects, paragraphs) goes through a text object, which is where it is noted."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.runs: list[TextRun] = []
        self.images: list[tuple[str, float]] = []  # (picture, resolution in dpi as printed)
        self._forms: dict[str, list[tuple[Any, str, str, float, float, float]]] = {}
        self._in_form: list[tuple[str, Any]] = []
        self._page_notes: list[tuple[Any, str, str, float, float, float]] = []

    def _note(self, text: str, font: str, size: float, x: float, y: float) -> None:
        note = (self._currentMatrix, text, font, size, x, y)
        if self._in_form:
            self._forms[self._in_form[-1][0]].append(note)
        else:
            self._place(note, IDENTITY)

    def _place(self, note, outer) -> None:
        matrix, text, font, size, x, y = note
        m = _compose(outer, matrix)
        width = pdfmetrics.stringWidth(text, font, size)
        face = pdfmetrics.getFont(font).face
        ascent = getattr(face, "ascent", 750) / 1000 * size
        descent = getattr(face, "descent", -250) / 1000 * size
        corners = [_apply(m, x + dx, y + dy) for dx in (0, width) for dy in (descent, ascent)]
        self.runs.append(TextRun(text, font, size * _scale(m), corners))

    def beginText(self, x=0, y=0, direction=None):
        return _RecordingText(self, x, y, direction=direction)

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):
        if width and height and hasattr(image, "getSize"):
            pixels_w, pixels_h = image.getSize()
            scale = _scale(self._currentMatrix)
            dpi = min(pixels_w / (abs(width) * scale / 72), pixels_h / (abs(height) * scale / 72))
            self.images.append((getattr(image, "cardgen_name", "a picture"), dpi))
        return super().drawImage(image, x, y, width, height, *args, **kwargs)

    def beginForm(self, name, *args, **kwargs):
        self._forms[name] = []
        self._in_form.append((name, self._currentMatrix))
        self._currentMatrix = IDENTITY
        return super().beginForm(name, *args, **kwargs)

    def endForm(self, *args, **kwargs):
        _, matrix = self._in_form.pop()
        self._currentMatrix = matrix
        return super().endForm(*args, **kwargs)

    def doForm(self, name):
        for note in self._forms.get(name, []):
            if self._in_form:
                self._forms[self._in_form[-1][0]].append((_compose(self._currentMatrix, note[0]), *note[1:]))
            else:
                self._place(note, self._currentMatrix)
        return super().doForm(name)


@dataclass
class _Page:
    label: str
    where: str
    trim: Rect
    runs: list[TextRun] = field(default_factory=list)
    images: list[tuple[str, float]] = field(default_factory=list)
    bleed: float = BLEED_MM * mm  # how far the page reaches past the trim on every side
    safe: float = SAFE_MM * mm
    shape: str = "rect"  # see cardgen.registry.PrintedPiece


_covered: dict[str, frozenset[int] | None] = {}


def _coverage(font: str) -> frozenset[int] | None:
    """The code points a registered font prints, worked out once per font (there is a text run
    for every line on every card)."""
    if font not in _covered:
        mapping = getattr(pdfmetrics.getFont(font).face, "charToGlyph", None)
        _covered[font] = frozenset(mapping) if mapping else None
    return _covered[font]


def _where(content, stem: str, json_path) -> str:
    place = content.locators[stem].error(json_path, "")  # a card list may span several files
    return f"{display_path(place.file)}:{place.line}:{place.col}"


def _card_location(content, card: dict) -> str:
    for i, entry in enumerate(content.cards):
        if entry is card or (entry["id"] == card["id"] and entry["deck"] == card["deck"]):
            return _where(content, "cards", ["cards", i])
    return ""


def _draw_pages(content) -> tuple[bytes, list[_Page]]:
    """Every distinct face and back on a page of its own (trim plus bleed), recorded."""
    register_fonts()
    definition = definition_for(content.id)
    bleed = BLEED_MM * mm
    buffer = io.BytesIO()
    canvas = RecordingCanvas(buffer, pagesize=(100, 100), invariant=1, initialFontName=SANS)
    pages: list[_Page] = []
    backs_done: set[str] = set()

    def page(label: str, where: str, w: float, h: float, draw) -> None:
        _record_page(canvas, pages, label, where, w, h, draw, bleed)

    for card in content.cards:
        deck = content.deck(card["deck"])
        w, h = (v * mm for v in content.card_size_mm(deck))
        page(f"card {card['id']}", _card_location(content, card), w, h,
             lambda trim: definition.draw_face(canvas, content, {**card, "copy": 1}, trim, bleed))
        if deck["back"] not in backs_done:
            backs_done.add(deck["back"])
            page(f"back {deck['back']}", _where(content, "game", ["backs", deck["back"]]), w, h,
                 lambda trim: definition.draw_back(canvas, content, deck["back"], trim, bleed))
    canvas.save()
    return buffer.getvalue(), pages


def _record_page(canvas, pages: list[_Page], label: str, where: str, w: float, h: float, draw, bleed: float,
                 safe: float = SAFE_MM * mm, shape: str = "rect") -> None:
    """One piece on a page of its own, as large as its trim plus its bleed, its text recorded."""
    canvas.setPageSize((w + 2 * bleed, h + 2 * bleed))
    trim = Rect(bleed, bleed, w, h)
    start, pictures = len(canvas.runs), len(canvas.images)
    canvas.saveState()
    draw(trim)
    canvas.restoreState()
    canvas.showPage()
    pages.append(_Page(label, where, trim, canvas.runs[start:], canvas.images[pictures:], bleed, safe, shape))


def _draw_part_pages(content) -> tuple[bytes, list[_Page]]:
    """Every distinct piece of the game's other printed parts (tokens, tiles, mats, boards)."""
    register_fonts()
    pieces = definition_for(content.id).parts_to_check(content)
    buffer = io.BytesIO()
    canvas = RecordingCanvas(buffer, pagesize=(100, 100), invariant=1, initialFontName=SANS)
    pages: list[_Page] = []
    for piece in pieces:
        # The page reaches at least PART_BLEED_MM past the trim, so that art declared without a
        # bleed is seen to stop at the trim.
        _record_page(canvas, pages, f"{piece.part}: {piece.name}", "", piece.width, piece.height,
                     lambda trim, piece=piece: piece.draw(canvas, trim),
                     max(piece.bleed, PART_BLEED_MM * mm), piece.safe, piece.shape)
    canvas.save()
    return buffer.getvalue(), pages


def _text_findings(content, pages: list[_Page], strict: bool) -> list[Finding]:
    findings = []
    warn = "error" if strict else "warning"
    for pg in pages:
        safe = pg.safe
        reported: set[tuple[str, str]] = set()

        def add(level, check, message):
            if (check, message) not in reported:
                reported.add((check, message))
                findings.append(Finding(level, content.id, pg.label, check, message, pg.where))

        for run in pg.runs:
            shown = run.text.strip()
            if not shown:
                continue
            if run.size < MIN_TEXT_PT - 0.05:
                add("error", "min-size", f"text {shown[:40]!r} is {run.size:.1f} pt, below the {MIN_TEXT_PT:g} pt minimum")
            covered = _coverage(run.font)
            if covered is not None:
                printed = drop_chinese(shown) if english_only() and run.font in (CJK, CJK_MONO) else shown
                missing = sorted({ch for ch in printed if ord(ch) not in covered and not ch.isspace()})
                if missing:
                    add("error", "glyph", f"font {run.font} cannot print {', '.join(repr(c) for c in missing[:5])} in {shown[:40]!r}")
            xs = [p[0] for p in run.corners]
            ys = [p[1] for p in run.corners]
            t = pg.trim
            if min(xs) < t.x - 0.5 or max(xs) > t.right + 0.5 or min(ys) < t.y - 0.5 or max(ys) > t.top + 0.5:
                add("error", "overflow", f"text {shown[:40]!r} runs past the trim")
            elif pg.shape != "outline" and min(xs) < t.x + safe - 0.5 or max(xs) > t.right - safe + 0.5 or min(ys) < t.y + safe - 0.5 or max(ys) > t.top - safe + 0.5:
                add(warn, "safe-zone", f"text {shown[:40]!r} lies within {safe / mm:g} mm of the trim")
        for first, second in _overlapping(pg.runs):
            add(warn, "overlap", f"text {first.text.strip()[:40]!r} runs into {second.text.strip()[:40]!r}")
        for name, dpi in pg.images:
            if dpi < PRINT_DPI - 0.5:
                add(warn, "resolution", f"picture {name!r} prints at {dpi:.0f} dpi, below {PRINT_DPI}; "
                    "give it more pixels or draw it smaller")
    return findings


def _overlapping(runs: list[TextRun]) -> list[tuple[TextRun, TextRun]]:
    """Pairs of texts whose letters run into each other: the boxes of their letters' bodies (a
    fifth of the run's height off each edge, whichever way up it is drawn) overlap by more than
    half a point both ways. Lines of one paragraph touch only at their ascents and descents."""
    boxes = []
    for run in runs:
        if run.text.strip():
            xs = [p[0] for p in run.corners]
            ys = [p[1] for p in run.corners]
            # The first two corners are the run's foot and head at its start: they share an x
            # when the run reads across the page, so its height goes up the page.
            across = abs(run.corners[0][0] - run.corners[1][0]) <= 0.01
            dx = 0.0 if across else 0.2 * (max(xs) - min(xs))
            dy = 0.2 * (max(ys) - min(ys)) if across else 0.0
            boxes.append((min(xs) + dx, min(ys) + dy, max(xs) - dx, max(ys) - dy, run))
    boxes.sort(key=lambda box: box[0])
    found = []
    for i, (x0, y0, x1, y1, run) in enumerate(boxes):
        for u0, v0, u1, v1, other in boxes[i + 1:]:
            if u0 > x1 - 0.5:
                break  # sorted by left edge: no later box reaches back this far
            if min(x1, u1) - max(x0, u0) > 0.5 and min(y1, v1) - max(y0, v0) > 0.5:
                found.append((run, other))
    return found


def _edge_samples(pg: _Page) -> dict[str, list[tuple[tuple[float, float], tuple[float, float]]]]:
    """Pairs of points along each edge of a page's piece: one just inside the trim, one just
    inside the bleed's outer edge, on the same line across the edge."""
    from math import cos, pi, sin

    t, inner, outer = pg.trim, 1.5, 1.0  # points inside the trim / inside the bleed's outer edge
    samples: dict[str, list] = {"left": [], "right": [], "bottom": [], "top": []}
    if pg.shape == "round":
        cx, cy, radius = t.x + t.w / 2, t.y + t.h / 2, min(t.w, t.h) / 2
        for k in range(48):
            angle = 2 * pi * (k + 0.5) / 48
            side = ("right", "top", "left", "bottom")[int(((angle + pi / 4) % (2 * pi)) // (pi / 2))]
            u, v = cos(angle), sin(angle)
            near, far = radius - inner, radius + pg.bleed - outer
            samples[side].append(((cx + near * u, cy + near * v), (cx + far * u, cy + far * v)))
        return samples
    for k in range(1, 20):
        fy = t.y + t.h * k / 20
        fx = t.x + t.w * k / 20
        samples["left"].append(((t.x + inner, fy), (outer, fy)))
        samples["right"].append(((t.right - inner, fy), (t.right + pg.bleed - outer, fy)))
        samples["bottom"].append(((fx, t.y + inner), (fx, outer)))
        samples["top"].append(((fx, t.top - inner), (fx, t.top + pg.bleed - outer)))
    return samples


def _bleed_findings(content, pdf: bytes, pages: list[_Page], strict: bool) -> list[Finding]:
    """Art that is coloured at the trim but white at the bleed's outer edge stops at the trim."""
    try:
        import pypdfium2
        import pypdfium2.raw
    except ImportError:  # the check needs a renderer; without it the check is skipped, said once
        return [Finding("warning", content.id, "-", "bleed", "bleed check skipped: pypdfium2 is not installed")]
    findings = []
    scale = 72 / 72  # one pixel per point is fine enough to see a sliver of 3 mm
    document = pypdfium2.PdfDocument(pdf)
    try:
        for index, pg in enumerate(pages):
            if pg.shape == "outline":
                continue  # cut along a line of its own shape: its bleed follows that line
            # Rendered in grey, one byte a pixel, and read where it lies: no picture object is made.
            bitmap = document[index].render(scale=scale, grayscale=True,
                                            force_bitmap_format=pypdfium2.raw.FPDFBitmap_Gray)
            width, height, stride, pixels = bitmap.width, bitmap.height, bitmap.stride, bitmap.buffer

            def at(x: float, y: float) -> int:
                px = min(width - 1, max(0, int(x * scale)))
                py = min(height - 1, max(0, int((height / scale - y) * scale)))
                return pixels[py * stride + px]

            samples = _edge_samples(pg)
            samples = {side: [(at(*a), at(*b)) for a, b in points] for side, points in samples.items()}
            short = [side for side, pairs in samples.items()
                     if sum(1 for a, b in pairs if a < 235 and b > 245) > len(pairs) // 4]
            if short:
                findings.append(Finding("error" if strict else "warning", content.id, pg.label, "bleed",
                                        f"art stops at the trim on the {', '.join(short)} edge; it should reach into the bleed",
                                        pg.where))
    finally:
        document.close()
    return findings


def preflight(content, strict: bool = False, bleed_check: bool = True) -> list[Finding]:
    """Every finding for one game's cards and its other printed parts, errors first."""
    from cardgen.aids import aid_content

    findings = []
    for drawn in (_draw_pages(content), _draw_part_pages(content)):
        pdf, pages = drawn
        if not pages:
            continue
        findings += _text_findings(content, pages, strict)
        if bleed_check:
            findings += _bleed_findings(content, pdf, pages, strict)
    aids = aid_content(content)
    if aids is not None:  # the reference cards printed beside the game's cards
        findings += preflight(aids, strict, bleed_check)
    return sorted(findings, key=lambda f: (f.level != "error", f.card, f.check))


def table(findings: list[Finding]) -> str:
    """The findings as an aligned table for a terminal."""
    if not findings:
        return "preflight: no findings"
    rows = [("level", "game", "card", "check", "message")] + [
        (f.level, f.game, f.card, f.check, f.message) for f in findings]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join("  ".join(r[i].ljust(widths[i]) for i in range(4)) + "  " + r[4] for r in rows)


__all__ = ["Finding", "MIN_TEXT_PT", "RecordingCanvas", "SAFE_MM", "preflight", "table"]
