"""Spectral Rails ether cards and their shared back.

An ether card shows its value large in the middle, in the corners for a fanned hand, and as that
many trail pieces: the number of pieces it lets you take. The player's colour fills the frame
and its letter stands in two corners, so the colour never has to be told by hue alone. Faces are
laid out at the card's own size: text keeps its point size and its place from the nearer edge
(3 mm inside the trim at least), the pictures in the middle grow or shrink with the card, and the
frame's colour reaches the bleed whatever the size.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor

from cardgen.faces import PAPER_WHITE, fill_bleed, stamp
from cardgen.games.spectral_rails.art import PAPER, INK, colour_of, ghost_train, letter_of, term, trail_piece
from cardgen.layout import Rect
from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, mm

DESIGN_W, DESIGN_H = 63.0, 88.0  # mm: the card the pictures are drawn for
FRAME = 4.0


def _picture_scale(origin: Rect) -> float:
    """How much the pictures in the middle grow or shrink on a card of this size."""
    return min(origin.w / (DESIGN_W * mm), origin.h / (DESIGN_H * mm))


def _corner(canvas, value: int, letter: str, colour, h: float) -> None:
    canvas.setFillColor(colour)
    canvas.setFont(SANS_BOLD, 20)
    canvas.drawCentredString(10 * mm, h - 15 * mm, str(value))
    canvas.setFont(SANS_BOLD, 9)
    canvas.drawCentredString(10 * mm, h - 20 * mm, letter)


def _face_art(canvas, content, card: dict, origin: Rect, bleed: float) -> None:
    """The face on a trim at (0, 0) of the card's own size."""
    colour = colour_of(content, card["colour"])
    letter = letter_of(content, card["colour"])
    value = card["value"]
    fill_bleed(canvas, origin, bleed, colour)
    w, h, grow = origin.w, origin.h, _picture_scale(origin)
    canvas.setFillColor(PAPER)
    canvas.roundRect(FRAME * mm, FRAME * mm, w - 2 * FRAME * mm, h - 2 * FRAME * mm, 2.5 * mm, stroke=0, fill=1)
    _corner(canvas, value, letter, colour, h)
    canvas.saveState()
    canvas.translate(w, h)
    canvas.rotate(180)
    _corner(canvas, value, letter, colour, h)
    canvas.restoreState()
    # titles
    canvas.setFillColor(INK)
    canvas.setFont(SANS_BOLD, 11)
    canvas.drawCentredString(w / 2, h - 13 * mm, term(content, "ether-card", "en"))
    canvas.setFont(CJK, 10)
    canvas.drawCentredString(w / 2, h - 18 * mm, term(content, "ether-card", "zh-Hant"))
    # the value and a faint train behind it, in the middle of the room between titles and pieces
    middle = (h - 18 * mm + 28 * mm) / 2
    ghost_train(canvas, w / 2, middle + 5 * mm * grow, 34 * mm * grow, HexColor("#e6e0d0"), HexColor("#cfc7b4"))
    canvas.setFillColor(colour)
    canvas.setFont(SANS_BOLD, 72 * grow)
    canvas.drawCentredString(w / 2, middle - 5 * mm * grow, str(value))
    # as many trail pieces as the value
    size = 7 * mm
    gap = 2 * mm
    total = value * size + (value - 1) * gap
    x = (w - total) / 2 + size / 2
    for _ in range(value):
        trail_piece(canvas, x, 21 * mm, size, colour, letter)
        x += size + gap
    canvas.setFillColor(INK)
    canvas.setFont(SANS, 7.5)
    canvas.drawCentredString(w / 2, 12 * mm, term(content, "take-trail", "en", n=value))
    canvas.setFont(CJK, 7.5)
    canvas.drawCentredString(w / 2, 8.5 * mm, term(content, "take-trail", "zh-Hant", n=value))


def draw_face(canvas, content, card: dict, rect: Rect, bleed: float) -> None:
    """Draw `card`'s face on the trim `rect`, its colour reaching `bleed` beyond it."""
    stamp(canvas, ("ether", card["colour"], card["value"]), rect, bleed,
          lambda origin: _face_art(canvas, content, card, origin, bleed))


def _back_art(canvas, content, back_id: str, origin: Rect, bleed: float) -> None:
    back = content.game["backs"][back_id]
    colour = HexColor(back["colour"])
    fill_bleed(canvas, origin, bleed, colour)
    w, h, grow = origin.w, origin.h, _picture_scale(origin)
    canvas.setStrokeColor(HexColor("#8fa3ad"))
    canvas.setLineWidth(1)
    canvas.roundRect(FRAME * mm, FRAME * mm, w - 2 * FRAME * mm, h - 2 * FRAME * mm, 2.5 * mm, stroke=1, fill=0)
    ghost_train(canvas, w / 2, h / 2, 36 * mm * grow, HexColor("#cfd8dc"), HexColor("#eceff1"))
    canvas.setFillColor(PAPER_WHITE)
    for flip in (False, True):
        canvas.saveState()
        if flip:
            canvas.translate(w, h)
            canvas.rotate(180)
        canvas.setFont(SANS_BOLD, 14)
        canvas.drawCentredString(w / 2, h - 17 * mm, content.title["en"])
        canvas.setFont(CJK, 12)
        canvas.drawCentredString(w / 2, h - 24 * mm, content.title["zh-Hant"])
        canvas.restoreState()


def draw_back(canvas, content, back_id: str, rect: Rect, bleed: float) -> None:
    """Draw back `back_id` (from game.yaml) on `rect`, its colour reaching `bleed` beyond it."""
    stamp(canvas, ("back", back_id), rect, bleed, lambda origin: _back_art(canvas, content, back_id, origin, bleed))
