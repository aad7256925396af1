"""Drawing a game's cards onto printable sheets: fronts page, then its backs page, and so on.

The geometry comes from `cardgen.layout`; the faces and backs from the game's definition
(`cardgen.registry`). Every card is drawn clipped to its own bleed, so its art can never spill onto a
neighbour, and its back is drawn at the mirrored place on the following page, so a duplex printer
puts each back behind its own front.
"""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

from reportlab.lib.colors import HexColor

from cardgen.errors import ContentErrors, UsageError
from cardgen.faces import clip_to_bleed
from cardgen.registry import definition_for
from cardgen.layout import Sheet, Slot, back_slots, crop_marks, mirror_line, page_boxes, pages, plan_sheet
from cardgen.pdfdoc import atomic_output, new_canvas

MARK_COLOUR = HexColor("#000000")
MARK_WIDTH = 0.3  # points: a hairline that still survives a cheap printer

DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}


def cards_by_size(content) -> list[tuple[str, list[dict]]]:
    """Every physical card in print order (decks in game.yaml order, cards in content order),
    cut into runs that share one card size, since one sheet holds one size."""
    deck_order = {deck["id"]: i for i, deck in enumerate(content.decks)}
    cards = sorted(content.physical_cards(), key=lambda card: deck_order[card["deck"]])
    runs = []
    for size, group in groupby(cards, key=lambda card: content.deck(card["deck"])["size"]):
        runs.append((size, list(group)))
    return runs


def _plan(content, size_name: str, paper: str, layout: str) -> Sheet:
    size = content.game["card_sizes"][size_name]
    try:
        return plan_sheet(paper, float(size["width_mm"]), float(size["height_mm"]), layout)
    except UsageError as exc:
        if "does not fit" not in str(exc):
            raise
        # A card too large for the paper is a fault of the content: point at the size.
        raise ContentErrors([content.error("game", ["card_sizes", size_name], str(exc))]) from None


def _set_boxes(canvas, slots: list[Slot]) -> None:
    trim, bleed = page_boxes(slots)
    canvas.setTrimBox(tuple(round(v, 4) for v in trim.box()))
    canvas.setBleedBox(tuple(round(v, 4) for v in bleed.box()))


def _draw_marks(canvas, marks) -> None:
    canvas.setStrokeColor(MARK_COLOUR)
    canvas.setLineWidth(MARK_WIDTH)
    for mark in marks:
        canvas.line(mark.x0, mark.y0, mark.x1, mark.y1)


def _clipped(canvas, slot: Slot, draw) -> None:
    canvas.saveState()
    clip_to_bleed(canvas, slot.trim, slot.trim.x - slot.bleed.x)
    draw()
    canvas.restoreState()


def draw_card_sheets(canvas, content, paper: str, layout: str, flip: str, faces=None) -> int:
    """Draw every card of `content` onto `canvas`, a fronts page followed by its backs page;
    returns the number of cards drawn."""
    faces = faces or definition_for(content.id)
    drawn = 0
    for size_name, cards in cards_by_size(content):
        sheet = _plan(content, size_name, paper, layout)
        for indices in pages(len(cards), sheet.per_page):
            on_page = [cards[i] for i in indices]
            fronts = list(sheet.slots[: len(on_page)])
            backs = back_slots(sheet, fronts, flip)
            marks = crop_marks(sheet, fronts)

            canvas.setPageSize((sheet.page_w, sheet.page_h))
            _set_boxes(canvas, fronts)
            for card, slot in zip(on_page, fronts):
                _clipped(canvas, slot, lambda: faces.draw_face(canvas, content, card, slot.trim, sheet.bleed))
            _draw_marks(canvas, marks)
            canvas.showPage()

            canvas.setPageSize((sheet.page_w, sheet.page_h))
            _set_boxes(canvas, backs)
            for card, slot in zip(on_page, backs):
                back_id = content.deck(card["deck"])["back"]
                _clipped(canvas, slot, lambda: faces.draw_back(canvas, content, back_id, slot.trim, sheet.bleed))
            # The backs carry the fronts' marks mirrored: if the printer's duplex is off, the two
            # sets of marks disagree, which shows before any card is cut.
            _draw_marks(canvas, [mirror_line(m, sheet.page_w, sheet.page_h, flip) for m in marks])
            canvas.showPage()
            drawn += len(on_page)
    return drawn


def render_card_sheets(content, path: Path, paper: str, layout: str, flip: str = "long") -> Path:
    """Write all of a game's cards for one paper and layout to `path`, atomically."""
    if flip not in DUPLEX:
        raise UsageError(f"unknown flip {flip!r}; choose one of {', '.join(DUPLEX)}")
    faces = definition_for(content.id)
    title = f"{content.title['en']}: cards ({paper}, {layout})"
    with atomic_output(path) as buffer:
        canvas = new_canvas(buffer, (595.0, 842.0), title, duplex=DUPLEX[flip])
        draw_card_sheets(canvas, content, paper, layout, flip, faces)
        canvas.save()
    return Path(path)


__all__ = ["cards_by_size", "draw_card_sheets", "render_card_sheets", "DUPLEX"]
