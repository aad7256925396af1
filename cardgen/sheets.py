"""Drawing a game's cards onto printable sheets: fronts page, then its backs page, and so on; or
fold-over pages that carry fronts and backs on one side of the paper.

The geometry comes from `cardgen.layout`; the faces and backs from the game's definition
(`cardgen.registry`). Every card is drawn clipped to its own bleed, so its art can never spill onto a
neighbour, and its back is drawn at the mirrored place on the following page, so a duplex printer
puts each back behind its own front. Every page carries a label off the art (game, sheet n of m,
side, card positions, paper, flip, "print at 100 %") and a 100 mm ruler to check that the printer
kept the size; both go where `layout.place_strip` finds room.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.errors import ContentErrors, UsageError
from cardgen.faces import clip_to_bleed
from cardgen.layout import (
    INNER_GUIDES, MARGIN, FoldSheet, Rect, Sheet, Slot, Strip, back_slots, crop_marks, inner_guides, line_box, mirror_line,
    page_boxes, pages, place_strip, plan_fold, plan_sheet, ruler_ticks,
)
from cardgen.pdfdoc import SANS, atomic_output, mm, new_canvas
from cardgen.registry import definition_for

MARK_COLOUR = "#000000"
MARK_WIDTH = 0.3  # points: a hairline that still survives a cheap printer

DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}
SIDES = ("both", "fronts", "backs")
SHEET_LAYOUTS = ("home", "butted", "fold")

LABEL_SIZE = 5.5  # points
LABEL_THICKNESS = 2.0 * mm
RULER_LENGTH = 104 * mm  # 100 mm of ticks and the "10 cm" after the last one
RULER_THICKNESS = 2.2 * mm
LABEL_INK = HexColor("#555555")
# Room kept between a label or ruler and the art or marks around it.
ART_CLEARANCE = 1.0 * mm
MARK_CLEARANCE = 0.6 * mm
MAX_BACK_OFFSET_MM = 5.0
MAX_MARGIN_MM = 40.0
MAX_SELECTED = 10_000  # cards of one --cards selection, as many as a game may have


@dataclass(frozen=True)
class SheetOptions:
    """How card sheets are drawn, beyond paper, layout and flip.

    cut_width, cut_colour: the crop marks' (and fold line's) weight in points and colour as #RRGGBB;
    back_offset: (x, y) in mm that every portrait backs page is moved by, right and up as seen on
    the back, to cancel a duplex printer's misregistration, as read on the portrait calibration sheet;
    back_offset_landscape: the same for landscape pages, as read on the landscape calibration sheet
    (a printer turns a landscape page a quarter turn onto the paper, so its error shows in other
    directions there: one orientation's reading never corrects the other's pages);
    sides: both, fronts or backs;
    inner_guides: none, crosses or lines: cut guides inside a block of butted cards (fronts only);
    margin_mm: how far from the paper's edge card sheets keep their cards, marks, label and ruler
    (wider for inkjets that leave a larger margin unprinted, often when printing double-sided)."""

    cut_width: float = MARK_WIDTH
    cut_colour: str = MARK_COLOUR
    back_offset: tuple[float, float] = (0.0, 0.0)
    sides: str = "both"
    back_offset_landscape: tuple[float, float] = (0.0, 0.0)
    inner_guides: str = "none"
    margin_mm: float = MARGIN / mm

    @property
    def margin(self) -> float:
        return self.margin_mm * mm

    def back_shift(self, page_w: float, page_h: float) -> tuple[float, float]:
        """How far (points) a backs page of this size is moved: the offset of its orientation."""
        x, y = self.back_offset_landscape if page_w > page_h else self.back_offset
        return x * mm, y * mm

    def __post_init__(self):
        if not re.fullmatch(r"#[0-9A-Fa-f]{6}", self.cut_colour):
            raise UsageError(f"cut line colour must look like #RRGGBB, not {self.cut_colour!r}")
        if not 0.05 <= self.cut_width <= 3:
            raise UsageError(f"cut line width must be 0.05 to 3 points, not {self.cut_width:g}")
        for offset in (self.back_offset, self.back_offset_landscape):
            if not all(abs(v) <= MAX_BACK_OFFSET_MM for v in offset):  # NaN fails this too
                raise UsageError(f"back offset must be within {MAX_BACK_OFFSET_MM:g} mm each way, "
                                 f"not {offset[0]:g},{offset[1]:g}")
        if self.inner_guides not in INNER_GUIDES:
            raise UsageError(f"inner guides must be one of {', '.join(INNER_GUIDES)}, not {self.inner_guides!r}")
        if self.sides not in SIDES:
            raise UsageError(f"sides must be one of {', '.join(SIDES)}, not {self.sides!r}")
        if not MARGIN / mm <= self.margin_mm <= MAX_MARGIN_MM:  # NaN fails this too
            raise UsageError(f"--margin must be {MARGIN / mm:g} to {MAX_MARGIN_MM:g} mm, not {self.margin_mm:g}")


DEFAULT_OPTIONS = SheetOptions()


def parse_cut_line(text: str) -> tuple[float, str]:
    """'0.5,#FF00AA' -> (0.5, '#FF00AA'); either part may be left out ('0.5' or '#FF00AA')."""
    width, colour = MARK_WIDTH, MARK_COLOUR
    for part in (p.strip() for p in text.split(",") if p.strip()):
        if part.startswith("#"):
            colour = part
        else:
            try:
                width = float(part)
            except ValueError:
                raise UsageError(f"--cut-line must look like WIDTH_PT,#RRGGBB (e.g. 0.5,#808080), not {text!r}") from None
    SheetOptions(cut_width=width, cut_colour=colour)  # validates
    return width, colour


def parse_offset(text: str, option: str = "--back-offset") -> tuple[float, float]:
    """'0.5,-1' -> (0.5, -1.0) millimetres."""
    try:
        x, y = (float(part) for part in text.split(","))
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(text)
    except ValueError:
        raise UsageError(f"{option} must look like X,Y in millimetres (e.g. 0.5,-1), not {text!r}") from None
    try:
        SheetOptions(back_offset=(x, y))
    except UsageError as exc:
        raise UsageError(f"{option}: {exc}") from None
    return x, y


def print_order(content) -> list[dict]:
    """Every physical card in the order the sheets print them: decks in game.yaml order, cards in
    content order within a deck. Card positions (`--cards 12`) count in this order from 1."""
    deck_order = {deck["id"]: i for i, deck in enumerate(content.decks)}
    cards = sorted(content.physical_cards(), key=lambda card: deck_order[card["deck"]])
    for position, card in enumerate(cards, 1):
        card["position"] = position
    return cards


def cards_by_size(content, cards: list[dict] | None = None) -> list[tuple[str, list[dict]]]:
    """Every physical card in print order (or the given cards), cut into runs that share one card
    size, since one sheet holds one size."""
    cards = print_order(content) if cards is None else cards
    runs = []
    for size, group in groupby(cards, key=lambda card: content.deck(card["deck"])["size"]):
        runs.append((size, list(group)))
    return runs


def select_cards(content, spec: str) -> list[dict]:
    """The physical cards named by `spec`: comma-separated positions (`12`), ranges of positions
    (`40-44`) and card ids (`c12`, one copy each time it is named), in the order given."""
    cards = print_order(content)
    by_id: dict[str, list[dict]] = {}
    for card in cards:
        by_id.setdefault(str(card["id"]), []).append(card)
    chosen: list[dict] = []
    taken: dict[str, int] = {}
    parts = [p.strip() for p in spec.split(",")]
    if not any(parts):
        raise UsageError("--cards names no card")
    for part in parts:
        if not part:
            continue
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if match and part not in by_id:
            first = int(match.group(1))
            last = int(match.group(2) or first)
            if not 1 <= first <= last <= len(cards):
                raise UsageError(f"--cards {part}: positions run from 1 to {len(cards)} in {content.id}")
            chosen += cards[first - 1:last]
            if len(chosen) > MAX_SELECTED:
                raise UsageError(f"--cards names more than {MAX_SELECTED} cards; replace fewer at once")
            continue
        if part not in by_id:
            close = difflib.get_close_matches(part, sorted(by_id), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UsageError(f"--cards {part}: no card with that id or position in {content.id}{hint}")
        copies = by_id[part]
        n = taken.get(part, 0)
        chosen.append(copies[n % len(copies)])
        taken[part] = n + 1
        if len(chosen) > MAX_SELECTED:
            raise UsageError(f"--cards names more than {MAX_SELECTED} cards; replace fewer at once")
    return chosen


def _size_mm(content, size_name: str) -> tuple[float, float]:
    size = content.game["card_sizes"][size_name]
    return float(size["width_mm"]), float(size["height_mm"])


def _content_error(content, size_name: str, exc: UsageError) -> ContentErrors:
    return ContentErrors([content.error("game", ["card_sizes", size_name], str(exc))])


def plan_for(content, size_name: str, paper: str, layout: str, margin: float = MARGIN) -> Sheet | FoldSheet:
    """The sheet plan of one card size; a card too large for the paper is blamed on game.yaml,
    or on the margin asked for when the usual one would hold it."""
    try:
        if layout == "fold":
            return plan_fold(paper, *_size_mm(content, size_name), margin)
        return plan_sheet(paper, *_size_mm(content, size_name), layout, margin)
    except UsageError as exc:
        if "does not fit" not in str(exc):
            raise
        if margin > MARGIN:
            try:
                plan_for(content, size_name, paper, layout)
            except ContentErrors:
                pass  # too large with the usual margin too: the content's fault
            else:
                raise UsageError(f"--margin {margin / mm:g}: {exc} ({layout} layout); "
                                 "choose a smaller margin") from None
        raise _content_error(content, size_name, exc) from None


def sheet_count(content, paper: str, layout: str, cards: list[dict] | None = None, margin: float = MARGIN) -> int:
    """How many sheets of paper the cards take in this layout."""
    return sum(len(pages(len(run), plan_for(content, size, paper, layout, margin).per_page))
               for size, run in cards_by_size(content, cards))


def _set_boxes(canvas, slots) -> None:
    trim, bleed = page_boxes(slots)
    canvas.setTrimBox(tuple(round(v, 4) for v in trim.box()))
    canvas.setBleedBox(tuple(round(v, 4) for v in bleed.box()))


def _draw_marks(canvas, marks, options: SheetOptions) -> None:
    canvas.setStrokeColor(HexColor(options.cut_colour))
    canvas.setLineWidth(options.cut_width)
    for mark in marks:
        canvas.line(mark.x0, mark.y0, mark.x1, mark.y1)


def _clipped(canvas, slot: Slot, draw) -> None:
    canvas.saveState()
    clip_to_bleed(canvas, slot.trim, slot.trim.x - slot.bleed.x)
    draw()
    canvas.restoreState()


def _turned(canvas, slot: Slot, draw) -> None:
    """Draw `draw(rect)` turned half a turn inside `slot` (a fold-over back)."""
    canvas.saveState()
    clip_to_bleed(canvas, slot.trim, slot.trim.x - slot.bleed.x)
    canvas.translate(slot.trim.x + slot.trim.w / 2, slot.trim.y + slot.trim.h / 2)
    canvas.rotate(180)
    draw(Rect(-slot.trim.w / 2, -slot.trim.h / 2, slot.trim.w, slot.trim.h))
    canvas.restoreState()


def _positions(cards: list[dict]) -> str:
    """'10-18' or '12, 17, 40-44': the print positions of the cards on a page."""
    numbers = [card.get("position", 0) for card in cards]
    runs, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            runs.append(f"{start}" if start == n else f"{start}-{n}")
            start = None
    return ", ".join(runs)


@lru_cache(maxsize=256)
def _strips(page_w: float, page_h: float, slots: tuple[Slot, ...], marks: tuple, label_length: float,
            margin: float = MARGIN):
    """Places for the label and the ruler on a page holding these slots and marks."""
    obstacles = [s.bleed.grow(ART_CLEARANCE) for s in slots] + [line_box(m, MARK_CLEARANCE) for m in marks]
    label = place_strip(page_w, page_h, obstacles, label_length, LABEL_THICKNESS, margin)
    if label is not None:
        obstacles.append(label.rect.grow(ART_CLEARANCE))
    ruler = place_strip(page_w, page_h, obstacles, RULER_LENGTH, RULER_THICKNESS, margin)
    return label, ruler


def _rotated(canvas, strip: Strip) -> None:
    """Make (0, 0) the strip's start, x along it, y across it."""
    if strip.rotated:
        canvas.translate(strip.rect.right, strip.rect.y)
        canvas.rotate(90)
    else:
        canvas.translate(strip.rect.x, strip.rect.y)


def draw_label(canvas, strip: Strip, text: str) -> None:
    canvas.saveState()
    _rotated(canvas, strip)
    canvas.setFillColor(LABEL_INK)
    canvas.setFont(SANS, LABEL_SIZE)
    canvas.drawString(0, 0.55 * mm, text)
    canvas.restoreState()


def draw_ruler(canvas, strip: Strip, colour: str = "#000000") -> None:
    """A 100 mm scale: ticks every millimetre and the centimetres numbered. Drawn once per
    document as a form and placed on every page."""
    name = f"cardgenRuler{colour.lstrip('#').upper()}"
    drawn = canvas.__dict__.setdefault("_cardgen_forms", set())
    if name not in drawn:
        canvas.beginForm(name, 0, 0, RULER_LENGTH, RULER_THICKNESS)
        _ruler_drawing(canvas, colour)
        canvas.endForm()
        drawn.add(name)
    canvas.saveState()
    _rotated(canvas, strip)
    canvas.doForm(name)
    canvas.restoreState()


def ruler_beside(canvas, page_w: float, page_h: float, obstacles: list[Rect]) -> bool:
    """A 100 mm ruler where the page has room clear of `obstacles` (points), so every part printed at
    1:1 can be checked for scaling; True when it found room."""
    strip = place_strip(page_w, page_h, [o.grow(ART_CLEARANCE) for o in obstacles], RULER_LENGTH, RULER_THICKNESS)
    if strip is not None:
        draw_ruler(canvas, strip)
    return strip is not None


def _ruler_drawing(canvas, colour: str) -> None:
    canvas.setStrokeColor(HexColor(colour))
    canvas.setFillColor(HexColor(colour))
    canvas.setLineWidth(0.25)
    canvas.line(0, 0, 100 * mm, 0)
    path = canvas.beginPath()
    for x, height in ruler_ticks(100):
        path.moveTo(x, 0)
        path.lineTo(x, height)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.setFont(SANS, 3.5)
    for cm in range(0, 11):
        text = f"{cm}" if cm < 10 else "10 cm"
        canvas.drawString(cm * 10 * mm + 0.35 * mm, 1.0 * mm, text)


def _label_and_ruler(canvas, page_w, page_h, slots, marks, text: str, colour: str = "#000000",
                     margin: float = MARGIN) -> tuple[bool, bool]:
    """The page's label and ruler where there is room off the art (the ruler in `colour`)."""
    length = stringWidth(text, SANS, LABEL_SIZE)
    label, ruler = _strips(page_w, page_h, tuple(slots), tuple(marks), round(length, 3), margin)
    if label is not None:
        draw_label(canvas, label, text)
    if ruler is not None:
        draw_ruler(canvas, ruler, colour)
    return label is not None, ruler is not None


def _label_text(content, n: int, m: int, side: str, cards, paper: str, layout: str, flip: str | None,
                sides: str = "both") -> str:
    if flip is None:
        how = "single-sided, fold on the dashed line"
    elif sides == "fronts":
        how = "one side"
    elif sides == "backs":
        how = f"on the back of the printed fronts, turned over the {flip} edge"
    else:
        how = f"duplex, flip on the {flip} edge"
    return (f"{content.title['en']} · sheet {n} of {m} · {side} · cards {_positions(cards)} · "
            f"{paper.upper() if paper == 'a4' else paper.capitalize()} · {layout} · {how} · "
            f"print at 100 % (actual size)")


def draw_card_sheets(canvas, content, paper: str, layout: str, flip: str, faces=None,
                     options: SheetOptions = DEFAULT_OPTIONS, cards: list[dict] | None = None) -> int:
    """Draw every card of `content` (or the given cards) onto `canvas`: a fronts page followed by
    its backs page, or only one of them (`options.sides`); fold-over pages for layout "fold".
    Returns the number of cards drawn."""
    faces = faces or definition_for(content.id)
    if layout == "fold":
        return _draw_fold_sheets(canvas, content, paper, faces, options, cards)
    drawn = 0
    runs = cards_by_size(content, cards)
    total = sheet_count(content, paper, layout, cards, options.margin)
    number = 0
    for size_name, run in runs:
        sheet = plan_for(content, size_name, paper, layout, options.margin)
        dx, dy = options.back_shift(sheet.page_w, sheet.page_h)
        for indices in pages(len(run), sheet.per_page):
            number += 1
            on_page = [run[i] for i in indices]
            fronts = list(sheet.slots[: len(on_page)])
            backs = back_slots(sheet, fronts, flip)
            marks = crop_marks(sheet, fronts)
            if options.sides in ("both", "fronts"):
                canvas.setPageSize((sheet.page_w, sheet.page_h))
                _set_boxes(canvas, fronts)
                for card, slot in zip(on_page, fronts):
                    _clipped(canvas, slot, lambda: faces.draw_face(canvas, content, card, slot.trim, sheet.bleed))
                _draw_marks(canvas, marks + inner_guides(fronts, options.inner_guides), options)
                _label_and_ruler(canvas, sheet.page_w, sheet.page_h, fronts, marks,
                                 _label_text(content, number, total, "fronts", on_page, paper, layout, flip, options.sides),
                                 "#000000", sheet.margin)
                canvas.showPage()
            if options.sides in ("both", "backs"):
                canvas.setPageSize((sheet.page_w, sheet.page_h))
                shifted_backs = [Slot(Rect(s.trim.x + dx, s.trim.y + dy, s.trim.w, s.trim.h),
                                      Rect(s.bleed.x + dx, s.bleed.y + dy, s.bleed.w, s.bleed.h)) for s in backs]
                _set_boxes(canvas, shifted_backs)
                canvas.saveState()
                canvas.translate(dx, dy)
                for card, slot in zip(on_page, backs):
                    back_id = content.deck(card["deck"])["back"]
                    _clipped(canvas, slot, lambda: faces.draw_back(canvas, content, back_id, slot.trim, sheet.bleed))
                # The backs carry the fronts' marks mirrored: if the printer's duplex is off, the two
                # sets of marks disagree, which shows before any card is cut.
                back_marks = [mirror_line(m, sheet.page_w, sheet.page_h, flip) for m in marks]
                _draw_marks(canvas, back_marks, options)
                _label_and_ruler(canvas, sheet.page_w, sheet.page_h, backs, back_marks,
                                 _label_text(content, number, total, "backs", on_page, paper, layout, flip, options.sides),
                                 "#000000", sheet.margin)
                canvas.restoreState()
                canvas.showPage()
            drawn += len(on_page)
    return drawn


FOLD_HATCH = HexColor("#BBBBBB")


def _draw_fold_sheets(canvas, content, paper: str, faces, options: SheetOptions, cards) -> int:
    drawn = 0
    total = sheet_count(content, paper, "fold", cards, options.margin)
    number = 0
    for size_name, run in cards_by_size(content, cards):
        plan: FoldSheet = plan_for(content, size_name, paper, "fold", options.margin)
        sheet = plan.sheet
        for indices in pages(len(run), plan.per_page):
            number += 1
            on_page = [run[i] for i in indices]
            fronts = list(sheet.slots[: len(on_page)])
            backs = list(plan.backs[: len(on_page)])
            canvas.setPageSize((sheet.page_w, sheet.page_h))
            _set_boxes(canvas, fronts + backs)
            if options.sides in ("both", "fronts"):
                for card, slot in zip(on_page, fronts):
                    _clipped(canvas, slot, lambda: faces.draw_face(canvas, content, card, slot.trim, sheet.bleed))
            if options.sides in ("both", "backs"):
                for card, slot in zip(on_page, backs):
                    back_id = content.deck(card["deck"])["back"]
                    _turned(canvas, slot, lambda rect: faces.draw_back(canvas, content, back_id, rect, sheet.bleed))
            tab = _used_tab(plan, fronts)
            _draw_glue_tab(canvas, tab, options)
            marks = crop_marks(sheet, fronts + backs)
            _draw_marks(canvas, marks, options)
            text = _label_text(content, number, total, "fronts above the fold, backs below",
                               on_page, paper, "fold-over", None)
            _label_and_ruler(canvas, sheet.page_w, sheet.page_h, fronts + backs + [Slot(tab, tab)], marks, text,
                             "#000000", sheet.margin)
            canvas.showPage()
            drawn += len(on_page)
    return drawn


def _used_tab(plan: FoldSheet, fronts: list[Slot]) -> Rect:
    left = min(s.bleed.x for s in fronts)
    right = max(s.bleed.right for s in fronts)
    return Rect(left, plan.tab.y, right - left, plan.tab.h)


def _draw_glue_tab(canvas, tab: Rect, options: SheetOptions) -> None:
    """The strip around the fold: hatched as the glue area, the fold line dashed through it."""
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(tab.x, tab.y, tab.w, tab.h)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.setStrokeColor(FOLD_HATCH)
    canvas.setLineWidth(0.4)
    step = 2 * mm
    x = tab.x - tab.h
    hatch = canvas.beginPath()
    while x < tab.right:
        hatch.moveTo(x, tab.y)
        hatch.lineTo(x + tab.h, tab.top)
        x += step
    canvas.drawPath(hatch, stroke=1, fill=0)
    canvas.restoreState()
    canvas.saveState()
    canvas.setStrokeColor(HexColor(options.cut_colour))
    canvas.setLineWidth(options.cut_width)
    canvas.setDash(3, 2)
    fold_y = tab.y + tab.h / 2
    canvas.line(tab.x, fold_y, tab.right, fold_y)
    canvas.restoreState()
    canvas.saveState()
    canvas.setFillColor(LABEL_INK)
    canvas.setFont(SANS, 4.5)
    text = "fold here · glue the unprinted sides together, hatched strip included · then cut"
    canvas.drawCentredString(tab.x + tab.w / 2, fold_y + 0.5 * mm, text)
    canvas.restoreState()


def card_sheets_title(content, paper: str, layout: str, flip: str, sides: str = "both") -> str:
    how = "fold-over" if layout == "fold" else f"{layout}, {flip}-edge flip"
    side = "" if sides == "both" else f", {sides} only"
    return f"{content.title['en']}: cards ({paper}, {how}{side})"


def render_card_sheets(content, path: Path, paper: str, layout: str, flip: str = "long",
                       options: SheetOptions = DEFAULT_OPTIONS, cards: list[dict] | None = None) -> Path:
    """Write a game's cards (all, or the given ones) for one paper and layout to `path`, atomically."""
    if flip not in DUPLEX:
        raise UsageError(f"unknown flip {flip!r}; choose one of {', '.join(DUPLEX)}")
    if layout not in SHEET_LAYOUTS:
        raise UsageError(f"unknown layout {layout!r}; choose one of {', '.join(SHEET_LAYOUTS)}")
    faces = definition_for(content.id)
    duplex = DUPLEX[flip] if layout != "fold" and options.sides == "both" else None
    with atomic_output(path) as buffer:
        canvas = new_canvas(buffer, (595.0, 842.0), card_sheets_title(content, paper, layout, flip, options.sides),
                            duplex=duplex)
        draw_card_sheets(canvas, content, paper, layout, flip, faces, options, cards)
        canvas.save()
    return Path(path)


__all__ = ["SheetOptions", "DEFAULT_OPTIONS", "SIDES", "SHEET_LAYOUTS", "parse_cut_line", "parse_offset",
           "print_order", "cards_by_size", "select_cards", "plan_for", "sheet_count", "draw_card_sheets",
           "render_card_sheets", "draw_ruler", "draw_label", "DUPLEX"]
