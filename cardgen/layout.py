"""Where cards go on a printed sheet: pure geometry in PDF points, with nothing drawn.

A `Sheet` is the plan for one paper and one layout: the page size, whether it is turned to
landscape, and the slots (trim and bleed rectangles) in reading order. From a page's used slots
come its crop marks, its TrimBox and BleedBox, and the slots of its backs page, mirrored for the
way the paper is flipped in a duplex printer. Everything here returns values and can be tested
without making a PDF.

Two layouts:
- `home`: cards share their cut lines (no bleed, no gap), which gets the most cards onto a sheet
  cut with scissors or a rotary trimmer;
- `shop`: every card has its own bleed and a gap to its neighbours, as a print shop wants for a
  guillotine, at the price of fewer cards per sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import floor

from cardgen.errors import UsageError
from cardgen.pdfdoc import PAPER_MM, mm

# Home printers leave 3 to 5 mm unprinted at the edges; nothing is placed closer than this.
MARGIN = 5 * mm
# The shop layout's bleed around each card, and the gap between two neighbouring bleeds.
SHOP_BLEED = 3 * mm
SHOP_GAP = 3 * mm
# A crop mark starts this far from any card's bleed so that it never shows on a cut card;
# it is at most MARK_LENGTH long and left out where less than MARK_MIN fits.
MARK_OFFSET = 0.5 * mm
MARK_LENGTH = 5 * mm
MARK_MIN = 1.5 * mm

LAYOUTS = ("home", "shop")
FLIPS = ("long", "short")

# Coordinates are compared after rounding to this many decimals of a point, far below what a
# printer can show, so that a cut line shared by two cards is one line and not two.
_DIGITS = 6


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle; (x, y) is its lower-left corner, as in PDF."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grow(self, d: float) -> "Rect":
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def union(self, other: "Rect") -> "Rect":
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.right, other.right) - x, max(self.top, other.top) - y)

    def contains(self, other: "Rect", tolerance: float = 1e-6) -> bool:
        return (other.x >= self.x - tolerance and other.y >= self.y - tolerance
                and other.right <= self.right + tolerance and other.top <= self.top + tolerance)

    def box(self) -> tuple[float, float, float, float]:
        """The rectangle as a PDF box: (x0, y0, x1, y1)."""
        return (self.x, self.y, self.right, self.top)


@dataclass(frozen=True)
class Line:
    """A straight crop mark from (x0, y0) to (x1, y1); always vertical or horizontal."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        return abs(self.x1 - self.x0) + abs(self.y1 - self.y0)


@dataclass(frozen=True)
class Slot:
    """One card's place: the trim (where it is cut) and the bleed (how far its art reaches)."""

    trim: Rect
    bleed: Rect


@dataclass(frozen=True)
class Sheet:
    """The plan for one paper and one layout: page size and every slot, rows top to bottom."""

    paper: str
    layout: str
    page_w: float
    page_h: float
    columns: int
    rows: int
    bleed: float
    slots: tuple[Slot, ...]

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    @property
    def per_page(self) -> int:
        return len(self.slots)


def _fit(available: float, size: float, gap: float) -> int:
    """How many things of `size`, separated by `gap`, fit in `available`."""
    return max(0, floor((available + gap) / (size + gap) + 1e-9))


def plan_sheet(paper: str, card_w_mm: float, card_h_mm: float, layout: str) -> Sheet:
    """Place as many cards as fit on `paper` (portrait, or landscape if that holds more), the
    grid centred on the page. Raises UsageError for an unknown paper or layout, or a card
    too large for the paper."""
    if paper not in PAPER_MM:
        raise UsageError(f"unknown paper {paper!r}; choose one of {', '.join(PAPER_MM)}")
    if layout not in LAYOUTS:
        raise UsageError(f"unknown layout {layout!r}; choose one of {', '.join(LAYOUTS)}")
    bleed, gap = (SHOP_BLEED, SHOP_GAP) if layout == "shop" else (0.0, 0.0)
    card_w, card_h = card_w_mm * mm, card_h_mm * mm
    cell_w, cell_h = card_w + 2 * bleed, card_h + 2 * bleed
    paper_w, paper_h = (v * mm for v in PAPER_MM[paper])
    best = None
    # Portrait first: landscape is chosen only when it holds strictly more cards.
    for page_w, page_h in ((paper_w, paper_h), (paper_h, paper_w)):
        columns = _fit(page_w - 2 * MARGIN, cell_w, gap)
        rows = _fit(page_h - 2 * MARGIN, cell_h, gap)
        if best is None or columns * rows > best[2] * best[3]:
            best = (page_w, page_h, columns, rows)
    page_w, page_h, columns, rows = best
    if columns * rows == 0:
        raise UsageError(
            f"a {card_w_mm:g} x {card_h_mm:g} mm card does not fit on {paper} paper "
            f"inside the {MARGIN / mm:g} mm printer margin"
        )
    grid_w = columns * cell_w + (columns - 1) * gap
    grid_h = rows * cell_h + (rows - 1) * gap
    left = (page_w - grid_w) / 2
    top = (page_h + grid_h) / 2
    slots = []
    for row in range(rows):
        for column in range(columns):
            bx = left + column * (cell_w + gap)
            by = top - (row + 1) * cell_h - row * gap
            outer = Rect(bx, by, cell_w, cell_h)
            slots.append(Slot(trim=outer.grow(-bleed), bleed=outer))
    return Sheet(paper, layout, page_w, page_h, columns, rows, bleed, tuple(slots))


def flip_axis(page_w: float, page_h: float, flip: str) -> str:
    """Which coordinate the backs page mirrors: 'x' or 'y'.

    A duplex printer turns the paper over its long or short edge. On a portrait page the long
    edge is vertical, so a long-edge flip mirrors the columns; a landscape page lies across the
    paper, so the two swap."""
    if flip not in FLIPS:
        raise UsageError(f"unknown flip {flip!r}; choose one of {', '.join(FLIPS)}")
    portrait = page_h >= page_w
    return "x" if (flip == "long") == portrait else "y"


def mirror(rect: Rect, page_w: float, page_h: float, flip: str) -> Rect:
    """Where the back of `rect` lands on the backs page, so it prints behind the front."""
    if flip_axis(page_w, page_h, flip) == "x":
        return Rect(page_w - rect.x - rect.w, rect.y, rect.w, rect.h)
    return Rect(rect.x, page_h - rect.y - rect.h, rect.w, rect.h)


def mirror_line(line: Line, page_w: float, page_h: float, flip: str) -> Line:
    if flip_axis(page_w, page_h, flip) == "x":
        return Line(page_w - line.x0, line.y0, page_w - line.x1, line.y1)
    return Line(line.x0, page_h - line.y0, line.x1, page_h - line.y1)


def back_slots(sheet: Sheet, slots: list[Slot] | tuple[Slot, ...], flip: str) -> list[Slot]:
    """The slots of a backs page, in the same order as the fronts they belong to."""
    return [Slot(mirror(s.trim, sheet.page_w, sheet.page_h, flip),
                 mirror(s.bleed, sheet.page_w, sheet.page_h, flip)) for s in slots]


def page_boxes(slots: list[Slot] | tuple[Slot, ...]) -> tuple[Rect, Rect]:
    """(TrimBox, BleedBox) of a page: the union of its cards' trims and of their bleeds."""
    trim, bleed = slots[0].trim, slots[0].bleed
    for slot in slots[1:]:
        trim, bleed = trim.union(slot.trim), bleed.union(slot.bleed)
    return trim, bleed


def _free_spans(start: float, end: float, blocked: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The parts of [start, end] not covered by any blocked interval."""
    spans, cursor = [], start
    for low, high in sorted(blocked):
        if low > cursor:
            spans.append((cursor, min(low, end)))
        cursor = max(cursor, high)
        if cursor >= end:
            break
    if cursor < end:
        spans.append((cursor, end))
    return [(a, b) for a, b in spans if b > a]


def _marks_on_line(start: float, end: float, blocked: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Mark intervals along one cut line: next to each card edge, in the free spans, never
    reaching into the printer margin."""
    marks = []
    for a, b in _free_spans(start, end, blocked):
        pieces = []
        if a > start:  # a card ends at a: mark from there outwards
            pieces.append((a, min(a + MARK_LENGTH, b)))
        if b < end:  # a card starts at b
            pieces.append((max(b - MARK_LENGTH, a), b))
        if len(pieces) == 2 and pieces[0][1] >= pieces[1][0]:
            pieces = [(pieces[0][0], pieces[1][1])]
        marks.extend(p for p in pieces if p[1] - p[0] >= MARK_MIN - 1e-9)
    return marks


def crop_marks(sheet: Sheet, slots: list[Slot] | tuple[Slot, ...]) -> list[Line]:
    """Short lines on the extension of every cut line of the given cards, kept MARK_OFFSET away
    from every bleed and out of the printer margin; between cards too where the gap allows."""
    xs = sorted({round(v, _DIGITS) for s in slots for v in (s.trim.x, s.trim.right)})
    ys = sorted({round(v, _DIGITS) for s in slots for v in (s.trim.y, s.trim.top)})
    lines = []
    for x in xs:
        blocked = [(s.bleed.y - MARK_OFFSET, s.bleed.top + MARK_OFFSET)
                   for s in slots if s.bleed.x - 1e-6 <= x <= s.bleed.right + 1e-6]
        for y0, y1 in _marks_on_line(MARGIN, sheet.page_h - MARGIN, blocked):
            lines.append(Line(x, y0, x, y1))
    for y in ys:
        blocked = [(s.bleed.x - MARK_OFFSET, s.bleed.right + MARK_OFFSET)
                   for s in slots if s.bleed.y - 1e-6 <= y <= s.bleed.top + 1e-6]
        for x0, x1 in _marks_on_line(MARGIN, sheet.page_w - MARGIN, blocked):
            lines.append(Line(x0, y, x1, y))
    return lines


def pages(count: int, per_page: int) -> list[range]:
    """Indices of the cards on each page, in order."""
    return [range(i, min(i + per_page, count)) for i in range(0, count, per_page)]


__all__ = [
    "MARGIN", "SHOP_BLEED", "SHOP_GAP", "MARK_OFFSET", "MARK_LENGTH", "MARK_MIN", "LAYOUTS", "FLIPS",
    "Rect", "Line", "Slot", "Sheet", "plan_sheet", "flip_axis", "mirror", "mirror_line", "back_slots",
    "page_boxes", "crop_marks", "pages",
]
