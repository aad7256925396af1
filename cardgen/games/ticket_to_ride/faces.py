"""Ticket to Ride: The Card Game card faces and backs, drawn from simple vector shapes.

A train card is its colour from edge to edge with the colour's symbol large in the middle and small
in two opposite corners, and its name in English and Chinese: the symbol tells the colours apart in
greyscale and for colour-blind players. The locomotive shows every colour in stripes and a star.
A destination ticket names its two cities (a big city marked with a star), its points, and one
coloured disc with its symbol for each train card it needs. A big-city card shows its city and
bonus. Every symbol is drawn by `draw_symbol`, which the rule-sheet diagrams share.

Faces are laid out in millimetres at the card's own size: corners and headings keep their place
from the nearer edge, text keeps its point size, and only the large symbols in the middle grow or
shrink with the card. Backgrounds run into the bleed, every text stays 3 mm or more inside the trim.
"""

from __future__ import annotations

from math import cos, pi, radians, sin

from reportlab.lib.colors import Color, HexColor

from cardgen.faces import INK, PAPER_WHITE, hex_colour, ink_for, stamp, wrap
from cardgen.content import term
from cardgen.layout import Rect
from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, mm

DESIGN_W, DESIGN_H = 63.0, 88.0  # mm: the card the large symbols are drawn for
SAFE = 3.0  # mm kept free of text along every edge
CREAM = HexColor("#fbf6ea")
OUTLINE = HexColor("#555555")


def _pt(points: float) -> float:
    """A font size or line width in points, in the design's millimetre units."""
    return points / mm


def _enter_card(canvas, rect: Rect) -> tuple[float, float]:
    """Make the card's trim (0, 0)-(width, height) in millimetres, one unit a real millimetre, and
    return (width, height)."""
    canvas.translate(rect.x, rect.y)
    canvas.scale(mm, mm)
    return rect.w / mm, rect.h / mm


def _grow(width: float, height: float) -> float:
    """How much the large symbols drawn for a 63 x 88 mm card grow or shrink on this card."""
    return min(width / DESIGN_W, height / DESIGN_H)


def _bleed_rect(canvas, bleed_pt: float, colour, width: float, height: float) -> None:
    b = bleed_pt / mm
    canvas.setFillColor(colour)
    canvas.rect(-b, -b, width + 2 * b, height + 2 * b, stroke=0, fill=1)


def _tint(colour: Color, amount: float) -> Color:
    return Color(*(c + (1 - c) * amount for c in (colour.red, colour.green, colour.blue)))


def _centred(canvas, text: str, x: float, y: float, font: str, size: float, width: float | None = None) -> None:
    """Centred text, shrunk until it fits `width` (never below 7 pt)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if width is not None:
        while size > _pt(7) and stringWidth(text, font, size) > width:
            size *= 0.95
    canvas.setFont(font, size)
    canvas.drawCentredString(x, y, text)


# ---------------------------------------------------------------- symbols


def draw_symbol(canvas, symbol: str, cx: float, cy: float, r: float, fill, stroke=None, line: float = 0.0) -> None:
    """One colour symbol centred at (cx, cy), about `r` in radius."""
    canvas.saveState()
    canvas.setFillColor(fill)
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(line or r * 0.12)
    do_stroke = 1 if stroke is not None else 0
    path = canvas.beginPath()
    if symbol == "circle":
        canvas.circle(cx, cy, r * 0.85, stroke=do_stroke, fill=1)
        canvas.restoreState()
        return
    if symbol == "square":
        s = r * 0.78
        path.rect(cx - s, cy - s, 2 * s, 2 * s)
    elif symbol == "diamond":
        path.moveTo(cx, cy + r)
        path.lineTo(cx + r * 0.75, cy)
        path.lineTo(cx, cy - r)
        path.lineTo(cx - r * 0.75, cy)
        path.close()
    elif symbol == "triangle":
        path.moveTo(cx, cy + r)
        path.lineTo(cx + r * 0.95, cy - r * 0.72)
        path.lineTo(cx - r * 0.95, cy - r * 0.72)
        path.close()
    elif symbol == "star":
        for k in range(10):
            radius = r if k % 2 == 0 else r * 0.45
            a = pi / 2 + k * pi / 5
            x, y = cx + radius * cos(a), cy + radius * sin(a)
            path.moveTo(x, y) if k == 0 else path.lineTo(x, y)
        path.close()
    elif symbol == "heart":
        path.moveTo(cx, cy - r * 0.9)
        path.curveTo(cx - r * 1.3, cy + r * 0.1, cx - r * 0.6, cy + r * 1.1, cx, cy + r * 0.45)
        path.curveTo(cx + r * 0.6, cy + r * 1.1, cx + r * 1.3, cy + r * 0.1, cx, cy - r * 0.9)
        path.close()
    elif symbol == "drop":
        path.moveTo(cx, cy + r)
        path.curveTo(cx + r * 0.2, cy + r * 0.5, cx + r * 0.75, cy + r * 0.05, cx + r * 0.7, cy - r * 0.35)
        path.curveTo(cx + r * 0.6, cy - r * 1.05, cx - r * 0.6, cy - r * 1.05, cx - r * 0.7, cy - r * 0.35)
        path.curveTo(cx - r * 0.75, cy + r * 0.05, cx - r * 0.2, cy + r * 0.5, cx, cy + r)
        path.close()
    elif symbol == "leaf":
        path.moveTo(cx - r * 0.8, cy - r * 0.8)
        path.curveTo(cx - r * 0.9, cy + r * 0.5, cx + r * 0.2, cy + r * 0.95, cx + r * 0.85, cy + r * 0.85)
        path.curveTo(cx + r * 0.95, cy + r * 0.2, cx + r * 0.5, cy - r * 0.9, cx - r * 0.8, cy - r * 0.8)
        path.close()
    elif symbol == "sun":
        for k in range(8):
            a = radians(22.5 + 45 * k)
            b1, b2 = a - radians(13), a + radians(13)
            path.moveTo(cx + r * cos(a), cy + r * sin(a))
            path.lineTo(cx + r * 0.55 * cos(b1), cy + r * 0.55 * sin(b1))
            path.lineTo(cx + r * 0.55 * cos(b2), cy + r * 0.55 * sin(b2))
            path.close()
        canvas.drawPath(path, stroke=do_stroke, fill=1)
        canvas.circle(cx, cy, r * 0.5, stroke=do_stroke, fill=1)
        canvas.restoreState()
        return
    else:
        raise ValueError(f"unknown symbol {symbol!r}")
    canvas.drawPath(path, stroke=do_stroke, fill=1)
    canvas.restoreState()


def colour_table(content) -> dict:
    """colour id -> (name, hue, symbol), the locomotive under "loco" with no hue."""
    data = content.files["colours"]
    table = {c["id"]: (c["name"], hex_colour(c["hue"]), c["symbol"]) for c in data["colours"]}
    loco = data["locomotive"]
    table[loco["id"]] = (loco["name"], None, loco["symbol"])
    return table


def disc(canvas, content, colour: str, cx: float, cy: float, r: float) -> None:
    """A coloured disc carrying the colour's symbol: how a ticket (and a diagram) shows a card."""
    name, hue, symbol = colour_table(content)[colour]
    if hue is None:
        _rainbow_disc(canvas, content, cx, cy, r)
        draw_symbol(canvas, symbol, cx, cy, r * 0.62, PAPER_WHITE, INK, r * 0.06)
        return
    canvas.setFillColor(hue)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(r * 0.08)
    canvas.circle(cx, cy, r, stroke=1, fill=1)
    draw_symbol(canvas, symbol, cx, cy, r * 0.62, ink_for(hue))


def _rainbow_disc(canvas, content, cx, cy, r) -> None:
    hues = [c[1] for c in colour_table(content).values() if c[1] is not None]
    step = 360 / len(hues)
    for k, hue in enumerate(hues):
        canvas.setFillColor(hue)
        canvas.wedge(cx - r, cy - r, cx + r, cy + r, 90 + k * step, step, stroke=0, fill=1)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(r * 0.08)
    canvas.circle(cx, cy, r, stroke=1, fill=0)


# ---------------------------------------------------------------- faces


def _train_art(canvas, content, colour: str, rect: Rect, bleed: float) -> None:
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    name, hue, symbol = colour_table(content)[colour]
    ink = ink_for(hue)
    _bleed_rect(canvas, bleed, hue, width, height)
    # A lighter inner panel edged in ink, so the white card still shows its edge and frame.
    canvas.setStrokeColor(ink if ink is INK else _tint(hue, 0.55))
    canvas.setLineWidth(_pt(1.2))
    canvas.roundRect(SAFE + 0.5, SAFE + 0.5, width - 2 * SAFE - 1, height - 2 * SAFE - 1, 3, stroke=1, fill=0)
    draw_symbol(canvas, symbol, width / 2, height / 2 + 4, 15 * _grow(width, height), ink, None)
    for x, y, turned in ((9.5, height - 10, False), (width - 9.5, 10, True)):
        draw_symbol(canvas, symbol, x, y, 3.6, ink)
    canvas.setFillColor(ink)
    _centred(canvas, name["en"].capitalize(), width / 2, 19, SANS_BOLD, _pt(15), width - 2 * SAFE - 14)
    _centred(canvas, name["zh-Hant"], width / 2, 12.5, CJK, _pt(13))
    canvas.restoreState()


def _locomotive_art(canvas, content, rect: Rect, bleed: float) -> None:
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    table = colour_table(content)
    hues = [c[1] for c in table.values() if c[1] is not None]
    b = bleed / mm
    band = (height + 2 * b) / len(hues)
    for k, hue in enumerate(hues):
        canvas.setFillColor(hue)
        canvas.rect(-b, -b + k * band, width + 2 * b, band + 0.05, stroke=0, fill=1)
    canvas.setFillColor(CREAM)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(_pt(1.2))
    canvas.roundRect(SAFE + 3, 8, width - 2 * SAFE - 6, height - 16, 4, stroke=1, fill=1)
    name, _, symbol = table["loco"]
    draw_symbol(canvas, symbol, width / 2, height / 2 + 6, 14 * _grow(width, height), HexColor("#f5c518"), INK, 0.6)
    canvas.setFillColor(INK)
    _centred(canvas, name["en"].capitalize(), width / 2, 27, SANS_BOLD, _pt(14), width - 2 * SAFE - 10)
    _centred(canvas, name["zh-Hant"], width / 2, 20.5, CJK, _pt(13))
    _centred(canvas, term(content, "wild", "en"), width / 2, 14.5, SANS, _pt(8), width - 2 * SAFE - 10)
    _centred(canvas, term(content, "wild", "zh-Hant"), width / 2, 10.5, CJK, _pt(8))
    for x, y in ((10.5, height - 13), (width - 10.5, 13)):
        draw_symbol(canvas, symbol, x, y, 3.4, HexColor("#f5c518"), INK, 0.3)
    canvas.restoreState()


def _city_names(content) -> dict:
    return {c["id"]: c["name"] for c in content.files["cities"]["cities"]}


def _big_cities(content) -> set:
    return {c["city"] for c in content.cards if c["deck"] == "big-cities"}


def _ticket_art(canvas, content, card: dict, rect: Rect, bleed: float) -> None:
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    frame = hex_colour(content.game["backs"]["ticket-back"]["colour"])
    _bleed_rect(canvas, bleed, frame, width, height)
    canvas.setFillColor(CREAM)
    canvas.roundRect(SAFE, SAFE, width - 2 * SAFE, height - 2 * SAFE, 3, stroke=0, fill=1)
    names = _city_names(content)
    big = _big_cities(content)
    inner = width - 2 * SAFE - 6
    # Number, small, top left; points in a disc, top right.
    canvas.setFillColor(OUTLINE)
    canvas.setFont(SANS, _pt(7))
    canvas.drawString(SAFE + 2.5, height - SAFE - 5, f"#{card['number']}")
    canvas.setFillColor(frame)
    canvas.circle(width - SAFE - 8, height - SAFE - 8, 6.2, stroke=0, fill=1)
    canvas.setFillColor(PAPER_WHITE)
    _centred(canvas, str(card["points"]), width - SAFE - 8, height - SAFE - 10.6, SANS_BOLD, _pt(17))
    y = height - 27
    for k, city in enumerate((card["from"], card["to"])):
        label = names[city]
        if city in big:
            draw_symbol(canvas, "star", SAFE + 5, y + 1.8, 2.4, HexColor("#f5c518"), INK, 0.2)
        canvas.setFillColor(INK)
        _centred(canvas, label["en"], width / 2 + 2, y, SANS_BOLD, _pt(11), inner - 6)
        _centred(canvas, label["zh-Hant"], width / 2 + 2, y - 5.5, CJK, _pt(10), inner - 6)
        if k == 0:
            canvas.setStrokeColor(OUTLINE)
            canvas.setLineWidth(_pt(1))
            canvas.setDash(1, 1)
            canvas.line(width / 2, y - 8.5, width / 2, y - 13)
            canvas.setDash()
        y -= 19
    # The cards needed in words at the foot, wrapped at 7 pt on a narrow card; above them one disc
    # per train card needed.
    colours = card["colours"]
    table = colour_table(content)
    counts: dict[str, int] = {}
    for colour in colours:
        counts[colour] = counts.get(colour, 0) + 1
    text_en = ", ".join(f"{table[c][0]['en']} ×{n}" for c, n in counts.items())
    text_zh = "、".join(f"{table[c][0]['zh-Hant']}×{n}" for c, n in counts.items())
    lines = [(CJK, line) for line in reversed(wrap(text_zh, CJK, _pt(7), inner))]
    lines += [(SANS, line) for line in reversed(wrap(text_en, SANS, _pt(7), inner))]
    canvas.setFillColor(OUTLINE)
    baseline = 6.6
    for font, line in lines:
        _centred(canvas, line, width / 2, baseline, font, _pt(7))
        baseline += 3.9
    r = 4.6
    gap = 2 * r + 1.6
    x0 = width / 2 - gap * (len(colours) - 1) / 2
    for k, colour in enumerate(colours):
        disc(canvas, content, colour, x0 + k * gap, baseline + 4.6, r)
    canvas.restoreState()


def _city_art(canvas, content, card: dict, rect: Rect, bleed: float) -> None:
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    colour = hex_colour(content.game["backs"]["city-back"]["colour"])
    _bleed_rect(canvas, bleed, colour, width, height)
    canvas.setFillColor(CREAM)
    canvas.roundRect(SAFE, SAFE, width - 2 * SAFE, height - 2 * SAFE, 3, stroke=0, fill=1)
    name = _city_names(content)[card["city"]]
    canvas.setFillColor(colour)
    _centred(canvas, term(content, "big-city-bonus", "en"), width / 2, height - 13, SANS_BOLD, _pt(9), width - 12)
    _centred(canvas, term(content, "big-city-bonus", "zh-Hant"), width / 2, height - 18.5, CJK, _pt(9))
    draw_symbol(canvas, "star", width / 2, height / 2 + 4, 13 * _grow(width, height), HexColor("#f5c518"), INK, 0.5)
    canvas.setFillColor(INK)
    _centred(canvas, str(card["points"]), width / 2, height / 2 + 0.5, SANS_BOLD, _pt(18))
    _centred(canvas, name["en"], width / 2, 23, SANS_BOLD, _pt(14), width - 12)
    _centred(canvas, name["zh-Hant"], width / 2, 15.5, CJK, _pt(13))
    canvas.setFillColor(OUTLINE)
    _centred(canvas, term(content, "most-tickets", "en"), width / 2, 10, SANS, _pt(7), width - 12)
    _centred(canvas, term(content, "most-tickets", "zh-Hant"), width / 2, 6.5, CJK, _pt(7))
    canvas.restoreState()


def draw_face(canvas, content, card: dict, rect: Rect, bleed: float) -> None:
    """Draw `card`'s face on the trim `rect`; copies of a train card share one drawing."""
    deck = card["deck"]
    if deck == "trains":
        stamp(canvas, ("train", card["colour"]), rect, bleed,
              lambda origin: _train_art(canvas, content, card["colour"], origin, bleed))
    elif deck == "locomotives":
        stamp(canvas, ("loco",), rect, bleed, lambda origin: _locomotive_art(canvas, content, origin, bleed))
    elif deck == "tickets":
        _ticket_art(canvas, content, card, rect, bleed)
    else:
        _city_art(canvas, content, card, rect, bleed)


# ---------------------------------------------------------------- backs


def _back_art(canvas, content, back_id: str, rect: Rect, bleed: float) -> None:
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    back = content.game["backs"][back_id]
    colour = hex_colour(back["colour"])
    _bleed_rect(canvas, bleed, colour, width, height)
    light = _tint(colour, 0.3)
    canvas.setStrokeColor(light)
    canvas.setLineWidth(_pt(2))
    canvas.roundRect(SAFE + 1, SAFE + 1, width - 2 * SAFE - 2, height - 2 * SAFE - 2, 3, stroke=1, fill=0)
    # Rails across the middle: two lines and sleepers, the same upside down.
    canvas.setLineWidth(_pt(1.5))
    for y in (height / 2 - 3, height / 2 + 3):
        canvas.line(SAFE + 4, y, width - SAFE - 4, y)
    for k in range(11):
        x = SAFE + 6 + k * (width - 2 * SAFE - 12) / 10
        canvas.line(x, height / 2 - 5, x, height / 2 + 5)
    ink = ink_for(colour)
    for turned in (False, True):
        canvas.saveState()
        if turned:
            canvas.translate(width, height)
            canvas.rotate(180)
        canvas.setFillColor(ink)
        _centred(canvas, back["title"]["en"], width / 2, height - 24, SANS_BOLD, _pt(13), width - 14)
        _centred(canvas, back["title"]["zh-Hant"], width / 2, height - 31, CJK, _pt(12))
        canvas.restoreState()
    canvas.restoreState()


def draw_back(canvas, content, back_id: str, rect: Rect, bleed: float) -> None:
    stamp(canvas, ("back", back_id), rect, bleed, lambda origin: _back_art(canvas, content, back_id, origin, bleed))


__all__ = ["colour_table", "disc", "draw_back", "draw_face", "draw_symbol"]
