"""Where cards go on a printed sheet: pure geometry in PDF points, with nothing drawn.

A `Sheet` is the plan for one paper and one layout: the page size, whether it is turned to
landscape, and the slots (trim and bleed rectangles) in reading order. From a page's used slots
come its crop marks, its TrimBox and BleedBox, and the slots of its backs page, mirrored for the
way the paper is flipped in a duplex printer. Everything here returns values and can be tested
without making a PDF.

Two sheet layouts:
- `home` (the default): a gutter between cards with each card's art bleeding halfway into it and
  around the grid, so a cut off by up to the bleed shows the card's own colour, never a sliver of
  its neighbour's; crop marks stay MARK_CLEAR away from all art. The widest bleed of HOME_BLEEDS
  that keeps the most cards on the sheet is chosen;
- `butted`: cards share their cut lines (no bleed, no gap), which gets the most cards onto a sheet
  cut with scissors or a rotary trimmer.

Besides, a fold-over plan (`plan_fold`: fronts above a fold line, their backs below it, turned, for
single-sided printers), a one-card-per-page plan for print shops (`shop_page`), and `place_strip`,
which finds room off the art for a sheet's label and its 100 mm ruler.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import floor

from cardgen.errors import UsageError
from cardgen.geometry import Rect
from cardgen.pdfdoc import PAPER_MM, mm

# Home printers leave 3 to 5 mm unprinted at the edges; nothing is placed closer than this.
MARGIN = 5 * mm
# The home layout's bleed into the gutter (the gutter is twice the bleed), widest first.
HOME_BLEEDS = (2 * mm, 1.5 * mm, 1 * mm)
# Home crop marks keep this far from any art, and are at most HOME_MARK_LENGTH long.
MARK_CLEAR = 2.5 * mm
HOME_MARK_LENGTH = 3 * mm
# A crop mark starts this far from any card's bleed so that it never shows on a cut card;
# it is at most MARK_LENGTH long and left out where less than MARK_MIN fits. (The butted
# layout keeps these; its cards leave no more room.)
MARK_OFFSET = 0.5 * mm
MARK_LENGTH = 5 * mm
MARK_MIN = 1.5 * mm
# Fold-over sheets: the tab either side of the fold line, glued to itself when folded.
FOLD_TAB = 3 * mm

LAYOUTS = ("home", "butted")
FLIPS = ("long", "short")

# Coordinates are compared after rounding to this many decimals of a point, far below what a
# printer can show, so that a cut line shared by two cards is one line and not two.
_DIGITS = 6


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
    mark_offset: float = MARK_OFFSET
    mark_length: float = MARK_LENGTH
    margin: float = MARGIN  # nothing is printed closer than this to the paper's edge

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    @property
    def per_page(self) -> int:
        return len(self.slots)


def _fit(available: float, size: float, gap: float) -> int:
    """How many things of `size`, separated by `gap`, fit in `available`."""
    return max(0, floor((available + gap) / (size + gap) + 1e-9))


def _paper(paper: str) -> tuple[float, float]:
    if paper not in PAPER_MM:
        raise UsageError(f"unknown paper {paper!r}; choose one of {', '.join(PAPER_MM)}")
    return tuple(v * mm for v in PAPER_MM[paper])


def _grid(page_w, page_h, card_w, card_h, bleed, gap, reserve, columns, rows, landscape_ok=True):
    """Slots of a centred grid: cells of card + 2 bleed, `gap` apart."""
    cell_w, cell_h = card_w + 2 * bleed, card_h + 2 * bleed
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
    return tuple(slots)


def plan_sheet(paper: str, card_w_mm: float, card_h_mm: float, layout: str, margin: float = MARGIN) -> Sheet:
    """Place as many cards as fit on `paper` (portrait, or landscape if that holds more), the
    grid centred on the page and `margin` (points) clear of its edges. Raises UsageError for an
    unknown paper or layout, or a card too large for the paper."""
    paper_w, paper_h = _paper(paper)
    if layout not in LAYOUTS:
        raise UsageError(f"unknown layout {layout!r}; choose one of {', '.join(LAYOUTS)}")
    card_w, card_h = card_w_mm * mm, card_h_mm * mm
    if layout == "butted":
        choices = [(0.0, 0.0, 0.0, MARK_OFFSET, MARK_LENGTH)]
    else:
        # Neighbouring bleeds meet: the gutter between two trims is twice the bleed. Room is kept
        # for a mark of at least MARK_MIN beyond MARK_CLEAR on every side of the grid.
        choices = [(b, 0.0, MARK_CLEAR + MARK_MIN, MARK_CLEAR, HOME_MARK_LENGTH) for b in HOME_BLEEDS]
    best = None
    for bleed, gap, reserve, offset, length in choices:
        cell_w, cell_h = card_w + 2 * bleed, card_h + 2 * bleed
        # Portrait first: landscape is chosen only when it holds strictly more cards.
        for page_w, page_h in ((paper_w, paper_h), (paper_h, paper_w)):
            columns = _fit(page_w - 2 * margin - 2 * reserve, cell_w, gap)
            rows = _fit(page_h - 2 * margin - 2 * reserve, cell_h, gap)
            if best is None or columns * rows > best[2] * best[3]:
                best = (page_w, page_h, columns, rows, bleed, gap, offset, length)
    page_w, page_h, columns, rows, bleed, gap, offset, length = best
    if columns * rows == 0:
        raise UsageError(
            f"a {card_w_mm:g} x {card_h_mm:g} mm card does not fit on {paper} paper "
            f"inside the {margin / mm:g} mm printer margin"
        )
    slots = _grid(page_w, page_h, card_w, card_h, bleed, gap, 0, columns, rows)
    return Sheet(paper, layout, page_w, page_h, columns, rows, bleed, slots, offset, length, margin)


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


def _marks_on_line(start: float, end: float, blocked: list[tuple[float, float]],
                   length: float = MARK_LENGTH) -> list[tuple[float, float]]:
    """Mark intervals along one cut line: next to each card edge, in the free spans, never
    reaching into the printer margin."""
    marks = []
    for a, b in _free_spans(start, end, blocked):
        pieces = []
        if a > start:  # a card ends at a: mark from there outwards
            pieces.append((a, min(a + length, b)))
        if b < end:  # a card starts at b
            pieces.append((max(b - length, a), b))
        if len(pieces) == 2 and pieces[0][1] >= pieces[1][0]:
            pieces = [(pieces[0][0], pieces[1][1])]
        marks.extend(p for p in pieces if p[1] - p[0] >= MARK_MIN - 1e-9)
    return marks


def crop_marks(sheet: Sheet, slots: list[Slot] | tuple[Slot, ...]) -> list[Line]:
    """Short lines on the extension of every cut line of the given cards, kept the sheet's
    mark offset away from every bleed and out of the printer margin; between cards too where the
    gap allows."""
    offset, length = sheet.mark_offset, sheet.mark_length
    xs = sorted({round(v, _DIGITS) for s in slots for v in (s.trim.x, s.trim.right)})
    ys = sorted({round(v, _DIGITS) for s in slots for v in (s.trim.y, s.trim.top)})
    lines = []
    for x in xs:
        blocked = [(s.bleed.y - offset, s.bleed.top + offset)
                   for s in slots if s.bleed.x - offset - 1e-6 <= x <= s.bleed.right + offset + 1e-6]
        for y0, y1 in _marks_on_line(sheet.margin, sheet.page_h - sheet.margin, blocked, length):
            lines.append(Line(x, y0, x, y1))
    for y in ys:
        blocked = [(s.bleed.x - offset, s.bleed.right + offset)
                   for s in slots if s.bleed.y - offset - 1e-6 <= y <= s.bleed.top + offset + 1e-6]
        for x0, x1 in _marks_on_line(sheet.margin, sheet.page_w - sheet.margin, blocked, length):
            lines.append(Line(x0, y, x1, y))
    return lines


INNER_GUIDES = ("none", "crosses", "lines")
GUIDE_ARM = 1.5 * mm  # half the length of each stroke of a cross where trims meet


def inner_guides(slots: list[Slot] | tuple[Slot, ...], style: str) -> list[Line]:
    """Cut guides inside a block of butted cards, where crop marks outside the block cannot reach a
    middle row: "lines" draws a hairline along every edge two cards share, "crosses" a small cross
    wherever the trims of neighbouring cards meet. Both lie on cut lines, so the cut takes them away."""
    if style == "none":
        return []
    trims = [s.trim for s in slots]
    r = lambda v: round(v, _DIGITS)
    lines: list[Line] = []
    # Shared upright edges: one card's right is another's left, and they overlap in height.
    for a in trims:
        for b in trims:
            if r(a.right) == r(b.x):
                y0, y1 = max(a.y, b.y), min(a.top, b.top)
                if y1 > y0:
                    if style == "lines":
                        lines.append(Line(a.right, y0, a.right, y1))
                    else:
                        for y in (y0, y1):
                            lines.append(Line(a.right, y - GUIDE_ARM, a.right, y + GUIDE_ARM))
                            lines.append(Line(a.right - GUIDE_ARM, y, a.right + GUIDE_ARM, y))
            if r(a.top) == r(b.y):
                x0, x1 = max(a.x, b.x), min(a.right, b.right)
                if x1 > x0:
                    if style == "lines":
                        lines.append(Line(x0, a.top, x1, a.top))
                    else:
                        for x in (x0, x1):
                            lines.append(Line(x - GUIDE_ARM, a.top, x + GUIDE_ARM, a.top))
                            lines.append(Line(x, a.top - GUIDE_ARM, x, a.top + GUIDE_ARM))
    # A cross where four cards meet is found from several edges: keep each stroke once, in order.
    unique = sorted({(r(l.x0), r(l.y0), r(l.x1), r(l.y1)) for l in lines})
    return [Line(*values) for values in unique]


def shifted(rect: Rect, dx: float, dy: float) -> Rect:
    return Rect(rect.x + dx, rect.y + dy, rect.w, rect.h)


def shift_slots(slots, dx: float, dy: float) -> list[Slot]:
    """Slots moved by (dx, dy): a back page corrected for a printer's duplex offset."""
    return [Slot(shifted(s.trim, dx, dy), shifted(s.bleed, dx, dy)) for s in slots]


def shift_line(line: Line, dx: float, dy: float) -> Line:
    return Line(line.x0 + dx, line.y0 + dy, line.x1 + dx, line.y1 + dy)


# --- fold-over sheets ------------------------------------------------------------------------------

@dataclass(frozen=True)
class FoldSheet:
    """Fronts above a horizontal fold line and each back below it, at the place the fold puts it
    behind its front; a back is drawn turned half a turn, so that it reads upright once folded.
    `sheet.slots` are the fronts; `backs[i]` belongs to `sheet.slots[i]`; `tab` is the strip
    around the fold that is glued to itself."""

    sheet: Sheet
    backs: tuple[Slot, ...]
    fold_y: float
    tab: Rect

    @property
    def per_page(self) -> int:
        return len(self.sheet.slots)


def fold_back(slot: Slot, fold_y: float) -> Slot:
    """The place below the fold that folding lays behind `slot`."""
    def flip(rect: Rect) -> Rect:
        return Rect(rect.x, 2 * fold_y - rect.y - rect.h, rect.w, rect.h)
    return Slot(flip(slot.trim), flip(slot.bleed))


def plan_fold(paper: str, card_w_mm: float, card_h_mm: float, margin: float = MARGIN) -> FoldSheet:
    """As many card pairs as fit on one side of `paper`: rows of fronts above the page's middle,
    their backs mirrored below, the fold line between them, a gutter and bleed as in the home
    layout, `margin` (points) clear of the paper's edges."""
    paper_w, paper_h = _paper(paper)
    card_w, card_h = card_w_mm * mm, card_h_mm * mm
    reserve = MARK_CLEAR + MARK_MIN
    best = None
    for bleed in HOME_BLEEDS:
        gap = 0.0  # the bleeds of neighbours meet in the middle of the gutter
        cell_w, cell_h = card_w + 2 * bleed, card_h + 2 * bleed
        for page_w, page_h in ((paper_w, paper_h), (paper_h, paper_w)):
            columns = _fit(page_w - 2 * margin - 2 * reserve, cell_w, gap)
            half = page_h / 2 - FOLD_TAB - margin - reserve
            rows = _fit(half, cell_h, gap)
            if best is None or columns * rows > best[2] * best[3]:
                best = (page_w, page_h, columns, rows, bleed, gap)
    page_w, page_h, columns, rows, bleed, gap = best
    if columns * rows == 0:
        raise UsageError(f"a {card_w_mm:g} x {card_h_mm:g} mm card and its back do not fit on one side "
                         f"of {paper} paper inside the {margin / mm:g} mm printer margin")
    cell_w, cell_h = card_w + 2 * bleed, card_h + 2 * bleed
    fold_y = page_h / 2
    grid_w = columns * cell_w + (columns - 1) * gap
    left = (page_w - grid_w) / 2
    fronts = []
    for row in range(rows):  # reading order: the row farthest from the fold first
        by = fold_y + FOLD_TAB + (rows - 1 - row) * (cell_h + gap)
        for column in range(columns):
            outer = Rect(left + column * (cell_w + gap), by, cell_w, cell_h)
            fronts.append(Slot(outer.grow(-bleed), outer))
    sheet = Sheet(paper, "fold", page_w, page_h, columns, rows, bleed, tuple(fronts), MARK_CLEAR, HOME_MARK_LENGTH,
                  margin)
    backs = tuple(fold_back(slot, fold_y) for slot in fronts)
    tab = Rect(left, fold_y - FOLD_TAB, grid_w, 2 * FOLD_TAB)
    return FoldSheet(sheet, backs, fold_y, tab)


# --- print-shop pages ----------------------------------------------------------------------------

def shop_page(trim_w: float, trim_h: float, bleed: float) -> tuple[float, float, Slot]:
    """One card per page, the page exactly the card and its bleed: (page_w, page_h, slot)."""
    trim = Rect(bleed, bleed, trim_w, trim_h)
    return trim_w + 2 * bleed, trim_h + 2 * bleed, Slot(trim, trim.grow(bleed))


def safe_area(trim: Rect, safe: float) -> Rect:
    """Where text and symbols belong: the trim less the safe distance all round."""
    return trim.grow(-safe)


# --- room off the art ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Strip:
    """A label or ruler's place: `rect` on the page; `rotated` means it reads bottom to top."""

    rect: Rect
    rotated: bool

    @property
    def length(self) -> float:
        return self.rect.h if self.rotated else self.rect.w


def line_box(line: Line, grow: float = 0.0) -> Rect:
    x0, x1 = sorted((line.x0, line.x1))
    y0, y1 = sorted((line.y0, line.y1))
    return Rect(x0, y0, x1 - x0, y1 - y0).grow(grow)


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right - 1e-6 and b.x < a.right - 1e-6 and a.y < b.top - 1e-6 and b.y < a.top - 1e-6


def place_strip(page_w: float, page_h: float, obstacles: list[Rect], length: float, thickness: float,
                margin: float = MARGIN) -> Strip | None:
    """Room for a `length` x `thickness` strip inside the printer margin that touches no obstacle:
    along the bottom, top, left or right edge in that order, as near the edge as it goes and as
    near the middle of that edge as it can; None if there is none."""
    def spans_along(fixed_lo, fixed_hi, along_hi, vertical):
        blocked = []
        for o in obstacles:
            lo, hi = (o.x, o.right) if vertical else (o.y, o.top)
            if lo < fixed_hi - 1e-6 and fixed_lo < hi - 1e-6:
                blocked.append((o.y, o.top) if vertical else (o.x, o.right))
        return _free_spans(margin, along_hi - margin, blocked)

    def best_in(spans, along_hi):
        middle = along_hi / 2
        found = None
        for a, b in spans:
            if b - a + 1e-6 < length:
                continue
            start = min(max(middle - length / 2, a), b - length)
            if found is None or abs(start + length / 2 - middle) < abs(found + length / 2 - middle):
                found = start
        return found

    edges = (("bottom", False), ("top", False), ("left", True), ("right", True))
    for edge, vertical in edges:
        extent = page_w if vertical else page_h  # the direction across the strip
        along = page_h if vertical else page_w
        # Candidate offsets from the page edge: the margin, then just past each obstacle.
        if edge in ("bottom", "left"):
            starts = [margin] + sorted((o.right if vertical else o.top) for o in obstacles)
        else:
            starts = [extent - margin - thickness] + sorted(
                ((o.x if vertical else o.y) - thickness for o in obstacles), reverse=True)
        for lo in starts:
            if lo < margin - 1e-6 or lo + thickness > extent - margin + 1e-6:
                continue
            if (edge in ("bottom", "left") and lo + thickness > extent / 2) or \
                    (edge in ("top", "right") and lo < extent / 2):
                break
            start = best_in(spans_along(lo, lo + thickness, along, vertical), along)
            if start is None:
                continue
            rect = Rect(lo, start, thickness, length) if vertical else Rect(start, lo, length, thickness)
            if not any(_overlaps(rect, o) for o in obstacles):
                return Strip(rect, vertical)
    return None


def ruler_ticks(length_mm: int = 100) -> list[tuple[float, float]]:
    """(position, height) of a ruler's ticks in points: every millimetre, longer every 5 and 10."""
    ticks = []
    for n in range(length_mm + 1):
        height = 2.0 if n % 10 == 0 else (1.3 if n % 5 == 0 else 0.8)
        ticks.append((n * mm, height * mm))
    return ticks


def pages(count: int, per_page: int) -> list[range]:
    """Indices of the cards on each page, in order."""
    return [range(i, min(i + per_page, count)) for i in range(0, count, per_page)]


__all__ = [
    "MARGIN", "HOME_BLEEDS", "MARK_CLEAR", "MARK_OFFSET", "MARK_LENGTH", "MARK_MIN", "FOLD_TAB", "LAYOUTS",
    "FLIPS", "Rect", "Line", "Slot", "Sheet", "FoldSheet", "Strip", "plan_sheet", "plan_fold", "fold_back",
    "flip_axis", "mirror", "mirror_line", "back_slots", "page_boxes", "crop_marks", "pages", "shifted",
    "shift_slots", "shift_line", "shop_page", "safe_area", "place_strip", "line_box", "ruler_ticks",
]
