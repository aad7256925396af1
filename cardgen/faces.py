"""The drawing helpers that every game's card faces share (each game draws its own faces and
backs through its `GameDefinition`): shared artwork as forms, colours, clipping and wrapping.
"""

from __future__ import annotations

from functools import lru_cache
from math import cos, sin
from weakref import WeakKeyDictionary

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.layout import Rect

# The print rules every card keeps (the preflight checks them): no printed word smaller than this,
# and nothing that must survive the cut closer to the trim than the safe zone.
MIN_TEXT_PT = 7.0
SAFE_ZONE_MM = 3.0

INK = HexColor("#222222")
PAPER_WHITE = HexColor("#ffffff")


# Artwork that many cards share is drawn once per document as a form and placed on each card;
# this keeps a deck's PDF small and its build fast. Forms belong to one canvas.
_stamps: "WeakKeyDictionary[object, set[str]]" = WeakKeyDictionary()


def stamp(canvas, key: tuple, rect: Rect, bleed: float, draw) -> None:
    """Place the artwork `key` on `rect`; `draw(origin)` draws it once per canvas, on a card whose
    trim is at (0, 0). Forms cannot nest: `draw` must not call `stamp` itself."""
    parts = [str(part) for part in key] + [f"{v:.3f}" for v in (rect.w, rect.h, bleed)]
    name = "Art" + "".join(ch if ch.isalnum() else "_" for ch in "_".join(parts))
    defined = _stamps.setdefault(canvas, set())
    if name not in defined:
        canvas.beginForm(name, -bleed, -bleed, rect.w + bleed, rect.h + bleed)
        draw(Rect(0, 0, rect.w, rect.h))
        canvas.endForm()
        defined.add(name)
    canvas.saveState()
    canvas.translate(rect.x, rect.y)
    canvas.doForm(name)
    canvas.restoreState()


def draw_shrunk(canvas, rect: Rect, size: tuple[float, float], paint) -> None:
    """A card drawn at its printed size (`size`, width and height in points) and shrunk or grown
    into `rect`: a rule sheet's picture then shows exactly the card the players hold, however the
    face code places its texts. `paint(trim)` draws the face or back on a card whose trim is `trim`."""
    width, height = size
    canvas.saveState()
    canvas.translate(rect.x, rect.y)
    canvas.scale(rect.w / width, rect.h / height)
    paint(Rect(0, 0, width, height))
    canvas.restoreState()


def shows(content, lang: str) -> bool:
    """Whether this run prints `lang` on the cards (an English-only build leaves Chinese out)."""
    return lang in getattr(content, "languages", (lang,))


def hex_colour(text: str) -> Color:
    return HexColor(text)


def ink_for(background: Color) -> Color:
    """Dark ink on light colours, white on dark ones, by perceived brightness."""
    brightness = 0.299 * background.red + 0.587 * background.green + 0.114 * background.blue
    return INK if brightness > 0.6 else PAPER_WHITE


def clip_to_bleed(canvas, rect: Rect, bleed: float) -> None:
    """Clip further drawing to the card and its bleed: in the home layout cards touch, and nothing
    may spill onto a neighbour."""
    path = canvas.beginPath()
    path.rect(rect.x - bleed, rect.y - bleed, rect.w + 2 * bleed, rect.h + 2 * bleed)
    canvas.clipPath(path, stroke=0, fill=0)


def fill_bleed(canvas, rect: Rect, bleed: float, colour: Color) -> None:
    """Paint the whole card, bleed included, so a slightly-off cut shows no white edge."""
    canvas.setFillColor(colour)
    canvas.rect(rect.x - bleed, rect.y - bleed, rect.w + 2 * bleed, rect.h + 2 * bleed, stroke=0, fill=1)


def arrow_head(canvas, x: float, y: float, angle: float, size: float, spread: float = 0.55) -> None:
    """A filled triangle whose tip is at (x, y), pointing along `angle` (radians); `spread` is its
    half-width as a share of its length."""
    back, side = size, size * spread
    bx, by = x - back * cos(angle), y - back * sin(angle)
    nx, ny = -sin(angle) * side, cos(angle) * side
    path = canvas.beginPath()
    path.moveTo(x, y)
    path.lineTo(bx + nx, by + ny)
    path.lineTo(bx - nx, by - ny)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Break `text` into lines no wider than `width`: at spaces for Latin text, between any two
    characters for Chinese, which has no spaces to break at. Lines come out of even length:
    the narrowest width that needs no more lines is used, so no word is left alone on a line."""
    return list(_even_wrap(text, font, size, width))


@lru_cache(maxsize=8192)
def _even_wrap(text: str, font: str, size: float, width: float) -> tuple[str, ...]:
    # The same texts are wrapped on every copy of a card, every layout and every paper, and each
    # try at a narrower width measures mostly the lines the tries before it measured.
    widths: dict[str, float] = {}

    def measure(candidate: str) -> float:
        width_of = widths.get(candidate)
        if width_of is None:
            width_of = widths[candidate] = stringWidth(candidate, font, size)
        return width_of

    lines = _greedy_wrap(text, measure, width)
    low, high = 0.0, width
    for _ in range(20):
        middle = (low + high) / 2
        if len(_greedy_wrap(text, measure, middle)) <= len(lines):
            high = middle
        else:
            low = middle
    return tuple(_greedy_wrap(text, measure, high))


# Marks that close or pause a Chinese phrase: a line never starts with one.
NO_LINE_START = frozenset("、。，．：；！？）」』】》〉")


def _greedy_wrap(text: str, measure, width: float) -> list[str]:
    if " " in text:
        pieces, joiner = text.split(" "), " "
    else:
        pieces, joiner = list(text), ""
    lines: list[str] = []
    current = ""
    for piece in pieces:
        candidate = f"{current}{joiner}{piece}" if current else piece
        if current and measure(candidate) > width:
            if not joiner and piece in NO_LINE_START:
                # A closing mark never starts a Chinese line: the character before it goes along,
                # or, after a lone character, the mark hangs past the line's end.
                if len(current) > 1:
                    lines.append(current[:-1])
                    current = current[-1] + piece
                else:
                    current = candidate
            else:
                lines.append(current)
                current = piece
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


__all__ = ["INK", "PAPER_WHITE", "arrow_head", "hex_colour", "ink_for", "fill_bleed", "wrap"]
