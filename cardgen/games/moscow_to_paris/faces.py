"""Moscow to Paris card faces and backs, drawn from simple vector shapes.

A train card shows its kind three ways: a colour, a large letter and the kind's name (so two kinds
never depend on colour alone), with a small carriage drawing and the letter in two opposite
corners for a fanned hand. An action card shows its number, name and text in English and Chinese.
A city card shows its points, its flag drawn from stripes, the country's name and code, a star
when it is a capital, and its line size as a row of small card outlines. Istanbul shows no flag;
Homeland a blank flag and a line to write a name on.

Faces are laid out in millimetres at the card's own size: corners and headings keep their place
from the nearer edge, text keeps its point size and wraps to the card's width, and only the
carriage picture grows or shrinks with the card. Backgrounds run into the bleed and every text
stays in the safe area 3 mm inside the trim.
"""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor

from cardgen.content import term
from cardgen.faces import INK, PAPER_WHITE, fill_bleed, hex_colour, ink_for, stamp, wrap
from cardgen.layout import Rect
from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, mm

DESIGN_W, DESIGN_H = 63.0, 88.0  # mm: the card the pictures are drawn for
SAFE = 3.0
CREAM = HexColor("#fbf6ea")
GOLD = HexColor("#c9a227")
MUTED = HexColor("#5f5f5f")


def _enter_card(canvas, rect: Rect) -> tuple[float, float]:
    """Make the card's trim (0, 0)-(width, height) in millimetres, one unit a real millimetre, and
    return (width, height)."""
    canvas.translate(rect.x, rect.y)
    canvas.scale(mm, mm)
    return rect.w / mm, rect.h / mm


def _half_turn(canvas, width: float, height: float) -> None:
    """Turn what follows half a turn about the card's centre."""
    canvas.translate(width / 2, height / 2)
    canvas.rotate(180)
    canvas.translate(-width / 2, -height / 2)


def _pt(points: float) -> float:
    """A font size given in points, as design millimetres."""
    return points / mm


def _centred(canvas, text: str, x: float, y: float, font: str, size: float) -> None:
    canvas.setFont(font, _pt(size))
    canvas.drawCentredString(x, y, text)


def _lines(canvas, text: str, font: str, size: float, x: float, top: float, width: float, leading: float) -> float:
    """Wrapped text centred on x, first baseline at `top`; returns the baseline after the last line."""
    y = top
    for line in wrap(text, font, _pt(size), width):
        _centred(canvas, line, x, y, font, size)
        y -= leading
    return y


def _tint(colour: Color, amount: float) -> Color:
    return Color(*(c + (1 - c) * amount for c in (colour.red, colour.green, colour.blue)))


def _framed(canvas, rect: Rect, bleed: float, colour: Color) -> None:
    """The coloured card with a cream panel inside its frame."""
    fill_bleed(canvas, rect, bleed, colour)
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    canvas.setFillColor(CREAM)
    canvas.roundRect(4, 4, width - 8, height - 8, 3, stroke=0, fill=1)
    canvas.restoreState()


# ---------------------------------------------------------------- train cards

def wagon(canvas, x: float, y: float, w: float, h: float, colour: Color, letter: str) -> None:
    """A side view of a carriage with the kind's letter on it (the rule sheet draws it too)."""
    canvas.setFillColor(colour)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(max(0.25, w * 0.012))
    canvas.roundRect(x, y + h * 0.18, w, h * 0.72, h * 0.1, stroke=1, fill=1)
    canvas.setFillColor(PAPER_WHITE)
    for k in range(3):
        wx = x + w * (0.1 + 0.3 * k)
        canvas.rect(wx, y + h * 0.62, w * 0.2, h * 0.18, stroke=0, fill=1)
    canvas.setFillColor(INK)
    for cx in (x + w * 0.2, x + w * 0.8):
        canvas.circle(cx, y + h * 0.14, h * 0.12, stroke=0, fill=1)
    canvas.setFillColor(PAPER_WHITE)
    canvas.circle(x + w / 2, y + h * 0.4, h * 0.17, stroke=0, fill=1)
    canvas.setFillColor(INK)
    canvas.setFont(SANS_BOLD, h * 0.26)
    canvas.drawCentredString(x + w / 2, y + h * 0.31, letter)


def _train_art(canvas, card: dict, rect: Rect, bleed: float) -> None:
    colour = hex_colour(card["colour"])
    _framed(canvas, rect, bleed, colour)
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    ink = ink_for(colour)
    for turn in (False, True):
        canvas.saveState()
        if turn:
            _half_turn(canvas, width, height)
        canvas.setFillColor(colour)
        canvas.circle(11, height - 11, 5.2, stroke=0, fill=1)
        canvas.setFillColor(ink)
        _centred(canvas, card["letter"], 11, height - 13.2, SANS_BOLD, 17)
        canvas.restoreState()
    # The carriage on its rail, scaled with the card, in the middle of the room above the names.
    canvas.saveState()
    grow = min(width / DESIGN_W, height / DESIGN_H)
    canvas.translate(width / 2, (33 + height - 17) / 2)
    canvas.scale(grow, grow)
    canvas.translate(-DESIGN_W / 2, -52)
    wagon(canvas, 9, 40, 45, 24, colour, card["letter"])
    canvas.setStrokeColor(MUTED)
    canvas.setLineWidth(0.6)
    canvas.line(7, 39.5, 56, 39.5)
    canvas.restoreState()
    canvas.setFillColor(INK)
    _centred(canvas, card["name"]["en"], width / 2, 29, SANS_BOLD, 12)
    _centred(canvas, card["name"]["zh-Hant"], width / 2, 21, CJK, 12)
    canvas.restoreState()


# ---------------------------------------------------------------- action cards

ACTION_COLOUR = HexColor("#23395b")


def _action_art(canvas, card: dict, rect: Rect, bleed: float) -> None:
    _framed(canvas, rect, bleed, ACTION_COLOUR)
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    top = height - DESIGN_H  # how far the heading moves up from where a poker card has it
    canvas.setFillColor(ACTION_COLOUR)
    canvas.rect(4, top + 60, width - 8, 16, stroke=0, fill=1)
    canvas.setFillColor(GOLD)
    canvas.circle(width / 2, top + 76, 7, stroke=0, fill=1)
    canvas.setFillColor(INK)
    _centred(canvas, str(card["number"]), width / 2, top + 72.6, SANS_BOLD, 24)
    canvas.setFillColor(PAPER_WHITE)
    _centred(canvas, card["name"]["en"], width / 2, top + 63.5, SANS_BOLD, 11)
    canvas.setFillColor(INK)
    _centred(canvas, card["name"]["zh-Hant"], width / 2, top + 53.5, CJK, 11)
    text_width = width - 2 * (4 + SAFE)
    y = _lines(canvas, card["text"]["en"], SANS, 7.5, width / 2, top + 46, text_width, 3.4)
    _lines(canvas, card["text"]["zh-Hant"], CJK, 7.5, width / 2, y - 2.5, text_width, 3.6)
    canvas.restoreState()


# ---------------------------------------------------------------- city cards

def draw_flag(canvas, flag: dict, x: float, y: float, w: float, h: float) -> None:
    """A flag from stripes; a blank flag is a dashed frame to draw in."""
    canvas.saveState()
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(max(0.2, w * 0.012))
    if flag["layout"] == "blank":
        canvas.setFillColor(PAPER_WHITE)
        canvas.setDash(1.2, 0.8)
        canvas.rect(x, y, w, h, stroke=1, fill=1)
        canvas.restoreState()
        return
    stripes = flag["stripes"]
    total = sum(s.get("weight", 1) for s in stripes)
    start = 0.0
    hoist = w * 0.12 if flag.get("hoist") else 0.0
    for stripe in stripes:
        share = stripe.get("weight", 1) / total
        canvas.setFillColor(hex_colour(stripe["colour"]))
        if flag["layout"] == "horizontal":
            canvas.rect(x + hoist, y + h * (1 - start - share), w - hoist, h * share, stroke=0, fill=1)
        else:
            canvas.rect(x + w * start, y, w * share, h, stroke=0, fill=1)
        start += share
    if hoist:
        canvas.setFillColor(hex_colour(flag["hoist"]))
        canvas.rect(x, y, hoist, h, stroke=0, fill=1)
        canvas.setFillColor(hex_colour(stripes[0]["colour"]))
        for k in range(5):  # a plain stand-in for the ornament on the hoist
            cy = y + h * (0.1 + 0.2 * k)
            canvas.circle(x + hoist / 2, cy, hoist * 0.28, stroke=0, fill=1)
    canvas.rect(x, y, w, h, stroke=1, fill=0)
    canvas.restoreState()


def star(canvas, cx: float, cy: float, r: float) -> None:
    from math import cos, pi, sin

    path = canvas.beginPath()
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.42
        angle = pi / 2 + k * pi / 5
        point = (cx + radius * cos(angle), cy + radius * sin(angle))
        path.moveTo(*point) if k == 0 else path.lineTo(*point)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


CITY_COLOUR = HexColor("#8c2f39")


def _both(content, key: str, sep: str = " · ", **values) -> str:
    """A term of rules.yaml in English and Chinese side by side, as a city card prints it."""
    return sep.join(term(content, key, lang).replace("#", str(values.get("n", ""))) for lang in ("en", "zh-Hant"))


def country_label(content, card: dict) -> str:
    """The country line of a city face: its name in both languages and its code."""
    country = {c["id"]: c for c in content.files["countries"]["countries"]}[card["country"]]
    return f"{country['name']['en']} · {country['name']['zh-Hant']} ({country['code']})"


def _city_art(canvas, content, card: dict, rect: Rect, bleed: float) -> None:
    countries = {c["id"]: c for c in content.files["countries"]["countries"]}
    country = countries.get(card.get("country"))
    _framed(canvas, rect, bleed, CITY_COLOUR)
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    middle = (height - DESIGN_H) / 2  # the flag's block keeps to the middle of the card
    # points, top left; capital star, top right
    canvas.setFillColor(CITY_COLOUR)
    canvas.circle(13, height - 13, 6.5, stroke=0, fill=1)
    canvas.setFillColor(PAPER_WHITE)
    _centred(canvas, str(card["points"]), 13, height - 16.4, SANS_BOLD, 24)
    if card["capital"]:
        canvas.setFillColor(GOLD)
        star(canvas, width - 13, height - 12, 6)
        canvas.setFillColor(INK)
        _centred(canvas, _both(content, "capital", " "), width - 13, height - 21.5, CJK, 7)
    # the flag and the country
    special = card.get("special")
    own = content.files.get("homeland", {}).get("homeland", {})
    flag_box = (width / 2 - 15, 44 + middle, 30, 19)
    if special == "istanbul":
        canvas.setFillColor(MUTED)
        _centred(canvas, term(content, "no-flag", "en"), width / 2, 54 + middle, SANS, 7.5)
        _centred(canvas, term(content, "no-flag", "zh-Hant"), width / 2, 50 + middle, CJK, 7.5)
    elif special == "homeland" and "flag" in own:
        _own_flag(canvas, content, own["flag"], flag_box)
        canvas.setFillColor(INK)
        _centred(canvas, f"{card['name']['en']} · {card['name']['zh-Hant']}", width / 2, 39.5 + middle, CJK, 7.5)
    else:
        draw_flag(canvas, country["flag"], *flag_box)
        canvas.setFillColor(INK)
        _centred(canvas, country_label(content, card), width / 2, 39.5 + middle, CJK, 7.5)
    # the city's name
    canvas.setFillColor(INK)
    if special == "homeland" and "name" in own:
        # A player's own country, from homeland.yaml, where the blank card leaves a line to write on.
        name = own["name"] if isinstance(own["name"], dict) else {"en": own["name"]}
        _centred(canvas, name.get("en", next(iter(name.values()))), width / 2, 30, CJK, 14)
        if "zh-Hant" in name:
            _centred(canvas, name["zh-Hant"], width / 2, 23.5, CJK, 12)
    elif special == "homeland":
        canvas.setStrokeColor(MUTED)
        canvas.setLineWidth(0.4)
        canvas.line(10, 28, width - 10, 28)
        canvas.setFillColor(MUTED)
        _centred(canvas, f"{card['name']['en']} · {card['name']['zh-Hant']}", width / 2, 33, CJK, 10)
        _centred(canvas, _both(content, "write-city"), width / 2, 23.5, CJK, 7)
    else:
        _centred(canvas, card["name"]["en"], width / 2, 30, SANS_BOLD, 14)
        _centred(canvas, card["name"]["zh-Hant"], width / 2, 23.5, CJK, 12)
    # the line size: that many card outlines
    n = card["line"]
    cw, gap = 5.0, 1.6
    x0 = width / 2 - (n * cw + (n - 1) * gap) / 2
    canvas.setStrokeColor(CITY_COLOUR)
    canvas.setFillColor(_tint(CITY_COLOUR, 0.8))
    canvas.setLineWidth(0.4)
    for k in range(n):
        canvas.roundRect(x0 + k * (cw + gap), 12, cw, 7, 0.8, stroke=1, fill=1)
    canvas.setFillColor(INK)
    _centred(canvas, _both(content, "line-at-most", n=n), width / 2, 8, CJK, 7)
    canvas.restoreState()


def _own_flag(canvas, content, name: str, box: tuple[float, float, float, float]) -> None:
    """A flag picture of the player's own, fitted whole into the flag's place, with a thin frame."""
    from cardgen.images import draw_picture, fitted, picture

    pic = picture(content.root, name)
    x, y, w, h = fitted(pic, *box, "contain")
    # the design's millimetre units are in force; a picture is drawn in those units too
    draw_picture(canvas, pic, x, y, w, h)
    canvas.setStrokeColor(MUTED)
    canvas.setLineWidth(0.2)
    canvas.rect(x, y, w, h, stroke=1, fill=0)


# ---------------------------------------------------------------- dispatch and backs

def draw_face(canvas, content, card: dict, rect: Rect, bleed: float) -> None:
    """Draw `card`'s face on the trim `rect`; copies of one card share one drawing."""
    deck = card["deck"]
    if deck == "trains":
        stamp(canvas, ("train", card["id"]), rect, bleed, lambda origin: _train_art(canvas, card, origin, bleed))
    elif deck == "actions":
        stamp(canvas, ("action", card["id"]), rect, bleed, lambda origin: _action_art(canvas, card, origin, bleed))
    else:
        _city_art(canvas, content, card, rect, bleed)


def draw_back(canvas, content, back_id: str, rect: Rect, bleed: float) -> None:
    stamp(canvas, ("back", back_id), rect, bleed, lambda origin: _back_art(canvas, content, back_id, origin, bleed))


def _back_art(canvas, content, back_id: str, rect: Rect, bleed: float) -> None:
    back = content.game["backs"][back_id]
    colour = hex_colour(back["colour"])
    fill_bleed(canvas, rect, bleed, colour)
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    canvas.setStrokeColor(CREAM)
    canvas.setLineWidth(0.8)
    canvas.roundRect(5.5, 5.5, width - 11, height - 11, 3, stroke=1, fill=0)
    # rails across the middle: two rails and sleepers, the same either way up
    middle = height / 2
    sleepers = int((width - 16) / 4.3) + 1
    first = (width - (sleepers - 1) * 4.3) / 2
    canvas.setStrokeColor(_tint(colour, 0.35))
    canvas.setLineWidth(0.9)
    for k in range(sleepers):
        x = first + k * 4.3
        canvas.line(x, middle - 6, x, middle + 6)
    canvas.setStrokeColor(CREAM)
    canvas.setLineWidth(1.1)
    canvas.line(6, middle - 3, width - 6, middle - 3)
    canvas.line(6, middle + 3, width - 6, middle + 3)
    for turn in (False, True):
        canvas.saveState()
        if turn:
            _half_turn(canvas, width, height)
        canvas.setFillColor(CREAM)
        _centred(canvas, back["title"]["en"], width / 2, height - 19, SANS_BOLD, 14)
        _centred(canvas, back["title"]["zh-Hant"], width / 2, height - 27, CJK, 13)
        canvas.restoreState()
    canvas.restoreState()


__all__ = ["draw_face", "draw_back", "draw_flag", "wagon", "star"]
