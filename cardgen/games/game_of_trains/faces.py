"""Game of Trains card faces, backs and ability icons, drawn from simple vector shapes.

A carriage card shows its number three times (large on a carriage in the middle, small in two
opposite corners so a fanned hand can be read), the ability's icon, name and short text in English
and Chinese, all in one colour per ability. The locomotive card is drawn sideways, because it lies
across the table at the head of the train, with an arrow saying the numbers rise away from it.

Faces are laid out in millimetres at the card's own size: corners and titles keep their place
from the nearer edge, the ability panel spans the card's width, text keeps its point size, and
only the pictures in the middle (the carriage, the locomotive, the wheel on the back) grow or
shrink with the card. The background colour runs into the bleed, every text stays in the safe
area 3 mm inside the trim.
"""

from __future__ import annotations

from math import cos, pi, radians, sin

from reportlab.lib.colors import Color, HexColor

from cardgen.faces import INK, PAPER_WHITE, arrow_head, fill_bleed, hex_colour, ink_for, stamp, wrap
from cardgen.layout import Rect
from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, mm

DESIGN_W, DESIGN_H = 63.0, 88.0  # mm: the poker card the pictures are drawn for
FRAME = 4.0  # mm of coloured frame around the cream panel; text starts inside it

CREAM = HexColor("#fbf6ea")
CARD_FILL = HexColor("#ffffff")
CROSS_RED = HexColor("#d32f2f")
LOCK_GOLD = HexColor("#f2b705")
STEEL = HexColor("#37474f")
RAIL = HexColor("#8d8d8d")

# One colour per ability, far enough apart to sort the market at a glance.
ABILITY_COLOURS = {
    "swap-adjacent": HexColor("#2e7d32"),
    "swap-over-one": HexColor("#00897b"),
    "shift-right": HexColor("#1565c0"),
    "shift-left": HexColor("#5e35b1"),
    "remove-first": HexColor("#c62828"),
    "remove-middle": HexColor("#e65100"),
    "remove-last": HexColor("#6d4c41"),
    "lock": HexColor("#f9a825"),
}


# ---------------------------------------------------------------- icons (also used by the rule sheet)

def _mini_card(canvas, x: float, y: float, w: float, h: float) -> None:
    canvas.setFillColor(CARD_FILL)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(3.2)
    canvas.roundRect(x, y, w, h, 4, stroke=1, fill=1)


def _three_cards(canvas) -> list[float]:
    """Three cards in a row; returns their centres along x."""
    for x in (6, 38.5, 71):
        _mini_card(canvas, x, 24, 23, 36)
    return [17.5, 50.0, 82.5]


def _double_arc(canvas, x0: float, x1: float, base: float, crest: float) -> None:
    """A two-headed arrow arching from x0 to x1 over whatever lies between: a swap. The heads'
    tips are at height `base`; the curve's control points at `crest`."""
    canvas.setStrokeColor(INK)
    canvas.setFillColor(INK)
    canvas.setLineWidth(4.5)
    head = 9
    # The heads point down into the two cards; the curve stops where each head begins.
    path = canvas.beginPath()
    path.moveTo(x0, base + head)
    path.curveTo(x0, crest, x1, crest, x1, base + head)
    canvas.drawPath(path, stroke=1, fill=0)
    arrow_head(canvas, x0, base, -pi / 2, head)
    arrow_head(canvas, x1, base, -pi / 2, head)


def _straight_arrow(canvas, x0: float, x1: float, y: float) -> None:
    canvas.setStrokeColor(INK)
    canvas.setFillColor(INK)
    canvas.setLineWidth(6)
    head = 11
    direction = 1 if x1 > x0 else -1
    canvas.line(x0, y, x1 - direction * head * 0.9, y)
    arrow_head(canvas, x1, y, 0 if direction > 0 else pi, head)


def _red_cross(canvas, cx: float, cy: float, half: float) -> None:
    canvas.setStrokeColor(CROSS_RED)
    canvas.setLineWidth(7)
    canvas.setLineCap(1)
    canvas.line(cx - half, cy - half, cx + half, cy + half)
    canvas.line(cx - half, cy + half, cx + half, cy - half)
    canvas.setLineCap(0)


def _padlock(canvas) -> None:
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(8)
    path = canvas.beginPath()
    path.moveTo(32, 50)
    path.lineTo(32, 66)
    path.arcTo(32, 50, 68, 86, startAng=180, extent=-180)
    path.lineTo(68, 50)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.setFillColor(LOCK_GOLD)
    canvas.setLineWidth(4)
    canvas.roundRect(20, 8, 60, 46, 7, stroke=1, fill=1)
    canvas.setFillColor(INK)
    canvas.circle(50, 35, 6, stroke=0, fill=1)
    path = canvas.beginPath()
    path.moveTo(46.5, 35)
    path.lineTo(44, 18)
    path.lineTo(56, 18)
    path.lineTo(53.5, 35)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _icon_swap_adjacent(canvas):
    _mini_card(canvas, 18, 12, 27, 40)
    _mini_card(canvas, 55, 12, 27, 40)
    _double_arc(canvas, 31.5, 68.5, 56, 96)


def _icon_swap_over_one(canvas):
    left, _, right = _three_cards(canvas)
    _double_arc(canvas, left, right, 64, 98)


def _locomotive_mark(canvas, x: float, y: float, w: float) -> None:
    """A small locomotive seen from the side, its front to the left, in the box (x, y, w, 0.9 w):
    the head of the train drawn into every icon that points along the train, so the icon says
    which way it means from whichever side of the table it is read."""
    h = w * 0.9
    canvas.setFillColor(INK)
    canvas.setStrokeColor(INK)
    # Boiler with a rounded nose, a cab at the back, a chimney, a buffer beam and two wheels.
    canvas.roundRect(x + w * 0.02, y + h * 0.26, w * 0.64, h * 0.36, h * 0.14, stroke=0, fill=1)
    canvas.rect(x + w * 0.58, y + h * 0.26, w * 0.40, h * 0.66, stroke=0, fill=1)
    canvas.rect(x + w * 0.50, y + h * 0.88, w * 0.54, h * 0.10, stroke=0, fill=1)
    canvas.rect(x + w * 0.14, y + h * 0.60, w * 0.16, h * 0.26, stroke=0, fill=1)
    canvas.rect(x + w * 0.10, y + h * 0.84, w * 0.24, h * 0.08, stroke=0, fill=1)
    path = canvas.beginPath()  # the cowcatcher
    path.moveTo(x - w * 0.06, y + h * 0.06)
    path.lineTo(x + w * 0.14, y + h * 0.06)
    path.lineTo(x + w * 0.14, y + h * 0.30)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.setFillColor(CARD_FILL)
    canvas.roundRect(x + w * 0.68, y + h * 0.58, w * 0.2, h * 0.2, h * 0.03, stroke=0, fill=1)
    canvas.setFillColor(INK)
    for cx in (0.28, 0.74):
        canvas.circle(x + w * cx, y + h * 0.15, h * 0.15, stroke=0, fill=1)
    canvas.setFillColor(CARD_FILL)
    for cx in (0.28, 0.74):
        canvas.circle(x + w * cx, y + h * 0.15, h * 0.05, stroke=0, fill=1)


LOCO = (5, 31, 30)  # x, y, width of the locomotive in icons that point along the train


def _icon_shift_right(canvas):
    """Push back: the locomotive, a carriage, and two arrows leading away from the locomotive."""
    _locomotive_mark(canvas, *LOCO)
    _mini_card(canvas, 40, 26, 22, 44)
    _straight_arrow(canvas, 66, 82, 48)
    _straight_arrow(canvas, 84, 100, 48)


def _icon_shift_left(canvas):
    """Pull forward: the locomotive, two arrows leading towards it, and the carriage they come from."""
    _locomotive_mark(canvas, *LOCO)
    _straight_arrow(canvas, 53, 37, 48)
    _straight_arrow(canvas, 71, 55, 48)
    _mini_card(canvas, 76, 26, 22, 44)


def _remove(position: int):
    """Uncouple: the locomotive and three carriages, the first, middle or last one crossed out."""
    def draw(canvas):
        _locomotive_mark(canvas, 4, 33, 24)
        centres = []
        for x in (31, 54.5, 78):
            _mini_card(canvas, x, 26, 20, 42)
            centres.append(x + 10)
        _red_cross(canvas, centres[position], 47, 10)
    return draw


_ICONS = {
    "swap-adjacent": _icon_swap_adjacent,
    "swap-over-one": _icon_swap_over_one,
    "shift-right": _icon_shift_right,
    "shift-left": _icon_shift_left,
    "remove-first": _remove(0),
    "remove-middle": _remove(1),
    "remove-last": _remove(2),
    "lock": _padlock,
}
ICONS = tuple(_ICONS)


def draw_ability_icon(canvas, icon: str, x: float, y: float, size: float) -> None:
    """Draw ability icon `icon` (an `icon:` name from abilities.yaml) in the square whose
    lower-left corner is (x, y) and side is `size`, in the canvas's current units."""
    if icon not in _ICONS:
        raise ValueError(f"unknown ability icon {icon!r}; known: {', '.join(ICONS)}")
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(size / 100.0, size / 100.0)  # icons are drawn on a 100 x 100 grid
    _ICONS[icon](canvas)
    canvas.restoreState()


# ---------------------------------------------------------------- helpers in design millimetres

def _enter_card(canvas, rect: Rect, landscape: bool = False) -> tuple[float, float]:
    """Make the card's trim (0, 0)-(width, height) in millimetres, one unit a real millimetre, and
    return (width, height); `landscape` turns the card a quarter turn for a card laid sideways."""
    canvas.translate(rect.x, rect.y)
    canvas.scale(mm, mm)
    width, height = rect.w / mm, rect.h / mm
    if landscape:
        canvas.translate(width, 0)
        canvas.rotate(90)
        return height, width
    return width, height


def _picture_scale(width: float, height: float) -> float:
    """How much the pictures drawn for a 63 x 88 mm card grow or shrink on this card."""
    return min(width / DESIGN_W, height / DESIGN_H)


def _picture(canvas, at: tuple[float, float], scale: float, centre: tuple[float, float]) -> None:
    """Draw what follows, designed around `centre` on the 63 x 88 mm card, around `at`, scaled."""
    canvas.translate(*at)
    canvas.scale(scale, scale)
    canvas.translate(-centre[0], -centre[1])


def _pt(points: float) -> float:
    """A font size given in points, as design millimetres."""
    return points / mm


def _centred(canvas, text: str, x: float, y: float, font: str, size: float) -> None:
    canvas.setFont(font, size)
    canvas.drawCentredString(x, y, text)


def _abilities(content) -> dict[int, dict]:
    return {a["id"]: a for a in content.files["abilities"]["abilities"]}


def ability_colour(ability: dict) -> Color:
    return ABILITY_COLOURS[ability["icon"]]


# ---------------------------------------------------------------- carriage face

def _upside_down(canvas, draw, width: float, height: float) -> None:
    """Draw the top corners a second time, turned half a turn, into the bottom corners."""
    draw()
    canvas.saveState()
    canvas.translate(width, height)
    canvas.rotate(180)
    draw()
    canvas.restoreState()


def icon_box(width: float, height: float) -> tuple[float, float, float]:
    """x, y, side of the small icon's box in the top right corner."""
    return width - 15.4, height - 14.4, 9.4


def _corner_badges(canvas, colour: Color, width: float, height: float) -> None:
    """The disc that will hold the number (top left) and the box for the small icon (top right)."""
    canvas.setFillColor(colour)
    canvas.circle(10.0, height - 10.0, 4.7, stroke=0, fill=1)
    canvas.setFillColor(PAPER_WHITE)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(0.5)
    x, y, side = icon_box(width, height)
    canvas.roundRect(x, y, side, side, 1.5, stroke=1, fill=1)


def _corner_icons(canvas, icon: str, width: float, height: float) -> None:
    """The small icon in both icon boxes, the lower one turned half a turn with the card like the
    numbers. Every icon that points along the train carries its own locomotive, so it means the
    same ability whichever way up it is read."""
    x, y, side = icon_box(width, height)
    _upside_down(canvas, lambda: draw_ability_icon(canvas, icon, x + 0.7, y + 0.7, side - 1.4), width, height)


HALF_TURN_DIGITS = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}


def reads_as_another_number(number: int) -> bool:
    """True when the number, turned half a turn, looks like a different number (6 and 9, 16 and 91)."""
    text = str(number)
    if any(d not in HALF_TURN_DIGITS for d in text):
        return False
    return "".join(HALF_TURN_DIGITS[d] for d in reversed(text)) != text


def _corner_number(canvas, number: int, colour: Color, height: float) -> None:
    canvas.setFillColor(ink_for(colour))
    size = _pt(13) if number < 10 else _pt(11.5)
    _centred(canvas, str(number), 10.0, height - 11.7, SANS_BOLD, size)
    if reads_as_another_number(number):
        # The corner is also read upside down; a bar under the number tells 6 from 9.
        canvas.setStrokeColor(ink_for(colour))
        canvas.setLineWidth(0.35)
        half = canvas.stringWidth(str(number), SANS_BOLD, size) / 2
        canvas.line(10.0 - half, height - 12.4, 10.0 + half, height - 12.4)


CAR_LEFT, CAR_RIGHT, CAR_BOTTOM, CAR_TOP = 8.5, 54.5, 46.0, 65.5
CAR_CENTRE = (DESIGN_W / 2, 54.0)  # the middle of the carriage picture, rails to roof
PANEL_TOP = 38.6  # mm above the bottom edge: the ability panel's top


def _enter_carriage(canvas, width: float, height: float) -> None:
    """The carriage picture's frame: centred across the card, in the middle of the room between
    the ability panel and the top corners, scaled with the card."""
    room_top = height - 16.0
    _picture(canvas, (width / 2, (PANEL_TOP + room_top) / 2 + 0.7), _picture_scale(width, height), CAR_CENTRE)


def _carriage(canvas, colour: Color) -> None:
    """A railway carriage in side view, its body left free for the number."""
    left, right, bottom, top = CAR_LEFT, CAR_RIGHT, CAR_BOTTOM, CAR_TOP
    rail, wheel_r = 41.3, 2.6
    # Rails and sleepers first, so the wheels sit on them.
    canvas.setStrokeColor(RAIL)
    canvas.setLineWidth(0.6)
    for x in range(7, 58, 4):
        canvas.line(x, rail - 0.8, x + 2, rail - 0.8)
    canvas.setStrokeColor(STEEL)
    canvas.setLineWidth(0.7)
    canvas.line(5.5, rail, 57.5, rail)
    # Couplers at both ends, bogies, wheels.
    canvas.setFillColor(STEEL)
    canvas.rect(5.5, bottom + 1.4, 3.5, 2.2, stroke=0, fill=1)
    canvas.rect(54, bottom + 1.4, 3.5, 2.2, stroke=0, fill=1)
    canvas.rect(11, bottom - 1.2, 15, 2, stroke=0, fill=1)
    canvas.rect(37, bottom - 1.2, 15, 2, stroke=0, fill=1)
    for cx in (14.5, 22.5, 40.5, 48.5):
        canvas.setFillColor(STEEL)
        canvas.circle(cx, rail + wheel_r, wheel_r, stroke=0, fill=1)
        canvas.setFillColor(CREAM)
        canvas.circle(cx, rail + wheel_r, 0.8, stroke=0, fill=1)
    canvas.setFillColor(STEEL)
    canvas.roundRect(left + 1, top - 1.5, right - left - 2, 4.2, 1.8, stroke=0, fill=1)
    canvas.setFillColor(colour)
    canvas.setStrokeColor(STEEL)
    canvas.setLineWidth(0.6)
    canvas.roundRect(left, bottom, right - left, top - bottom, 1.6, stroke=1, fill=1)
    canvas.setFillColor(CREAM)
    for x in range(11, 52, 6):
        canvas.roundRect(x, top - 4.7, 4, 3.3, 0.7, stroke=0, fill=1)


def _numbers(canvas, number: int, colour: Color, width: float, height: float) -> None:
    """The card's number, large on the carriage and small in two corners."""
    canvas.setFillColor(ink_for(colour))
    canvas.saveState()
    _enter_carriage(canvas, width, height)
    _centred(canvas, str(number), (CAR_LEFT + CAR_RIGHT) / 2, CAR_BOTTOM + 2.4, SANS_BOLD, _pt(44))
    canvas.restoreState()
    _upside_down(canvas, lambda: _corner_number(canvas, number, colour, height), width, height)


def _ability_panel(canvas, ability: dict, colour: Color, width: float) -> None:
    """The lower panel across the card: the icon, then what the ability does, in English and in
    Chinese, wrapped to the panel's width."""
    x0, y0, x1, y1 = 6.0, 15.6, width - 6.0, PANEL_TOP
    canvas.setFillColor(PAPER_WHITE)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(0.7)
    canvas.roundRect(x0, y0, x1 - x0, y1 - y0, 2.2, stroke=1, fill=1)
    draw_ability_icon(canvas, ability["icon"], x0 + 1.2, (y0 + y1) / 2 - 7.8, 14.5)
    # The ability's number, as the published card list and rule sheet refer to it.
    canvas.setFillColor(colour)
    canvas.circle(x0 + 3.4, y1 - 3.2, 2.3, stroke=0, fill=1)
    canvas.setFillColor(ink_for(colour))
    _centred(canvas, str(ability["id"]), x0 + 3.4, y1 - 4.35, SANS_BOLD, _pt(8.5))

    text_x = 22.5
    width = x1 - 1.5 - text_x
    lines = [(SANS_BOLD, _pt(9), ability["name"]["en"], 3.7)]
    lines += [(SANS, _pt(7), line, 2.8) for line in wrap(ability["short"]["en"], SANS, _pt(7), width)]
    lines += [(CJK, _pt(8.5), ability["name"]["zh-Hant"], 3.9)]
    lines += [(CJK, _pt(7), line, 2.8) for line in wrap(ability["short"]["zh-Hant"], CJK, _pt(7), width)]
    height = sum(step for *_, step in lines)
    baseline = (y0 + y1) / 2 + height / 2
    canvas.setFillColor(INK)
    for font, size, text, step in lines:
        baseline -= step
        canvas.setFont(font, size)
        canvas.drawString(text_x, baseline + 0.5, text)


def _carriage_art(canvas, ability: dict, rect: Rect, bleed: float) -> None:
    """Everything on a carriage face except its number: the same for every card of an ability."""
    colour = ability_colour(ability)
    fill_bleed(canvas, rect, bleed, colour)
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    canvas.setFillColor(CREAM)
    canvas.roundRect(FRAME, FRAME, width - 2 * FRAME, height - 2 * FRAME, 2.5, stroke=0, fill=1)
    _upside_down(canvas, lambda: _corner_badges(canvas, colour, width, height), width, height)
    _corner_icons(canvas, ability["icon"], width, height)
    canvas.saveState()
    _enter_carriage(canvas, width, height)
    _carriage(canvas, colour)
    canvas.restoreState()
    _ability_panel(canvas, ability, colour, width)
    canvas.restoreState()


def _carriage_face(canvas, content, card: dict, rect: Rect, bleed: float) -> None:
    ability = _abilities(content)[card["ability"]]
    stamp(canvas, ("ability", ability["id"]), rect, bleed,
           lambda origin: _carriage_art(canvas, ability, origin, bleed))
    canvas.saveState()
    width, height = _enter_card(canvas, rect)
    _numbers(canvas, card["number"], ability_colour(ability), width, height)
    canvas.restoreState()


# ---------------------------------------------------------------- locomotive face (drawn sideways)

def _locomotive(canvas) -> None:
    """A steam locomotive facing left, its coupling on the right where the train continues."""
    canvas.setStrokeColor(STEEL)
    canvas.setLineWidth(0.7)
    canvas.line(5, 14.2, 83, 14.2)
    dark, accent = HexColor("#263238"), HexColor("#7a2e1f")
    canvas.setFillColor(dark)
    # Cowcatcher, frame, boiler with its round front, chimney, dome, cab.
    path = canvas.beginPath()
    path.moveTo(6, 15.5)
    path.lineTo(11, 15.5)
    path.lineTo(11, 21)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.rect(10, 20, 32, 3.2, stroke=0, fill=1)
    canvas.roundRect(10, 23, 23, 11.5, 5.5, stroke=0, fill=1)
    canvas.rect(14, 34, 4.2, 5, stroke=0, fill=1)
    canvas.rect(13, 38.6, 6.2, 1.8, stroke=0, fill=1)
    canvas.setFillColor(LOCK_GOLD)
    canvas.circle(25, 34.5, 2.6, stroke=0, fill=1)
    canvas.setFillColor(accent)
    canvas.rect(31, 23, 11, 17, stroke=0, fill=1)
    canvas.setFillColor(dark)
    canvas.rect(30, 39.6, 13.2, 1.8, stroke=0, fill=1)
    canvas.setFillColor(CREAM)
    canvas.roundRect(33.5, 31.5, 6, 5.5, 0.8, stroke=0, fill=1)
    canvas.setFillColor(LOCK_GOLD)
    canvas.rect(10, 27.5, 21, 0.9, stroke=0, fill=1)
    # Coupler and wheels.
    canvas.setFillColor(STEEL)
    canvas.rect(42, 20.5, 3.2, 2, stroke=0, fill=1)
    for cx, r in ((14.5, 2.6), (24, 4.2), (34.5, 4.2)):
        canvas.setFillColor(STEEL)
        canvas.circle(cx, 14.2 + r, r, stroke=0, fill=1)
        canvas.setFillColor(CREAM)
        canvas.circle(cx, 14.2 + r, r * 0.35, stroke=0, fill=1)


def _locomotive_face(canvas, content, card: dict, rect: Rect, bleed: float) -> None:
    stamp(canvas, ("locomotive", card["deck"]), rect, bleed,
           lambda origin: _locomotive_art(canvas, content, card, origin, bleed))


def _locomotive_art(canvas, content, card: dict, rect: Rect, bleed: float) -> None:
    deck = content.deck(card["deck"])
    colour = hex_colour(content.game["backs"][deck["back"]]["colour"])
    fill_bleed(canvas, rect, bleed, colour)
    canvas.saveState()
    width, height = _enter_card(canvas, rect, landscape=True)
    canvas.setFillColor(CREAM)
    canvas.roundRect(FRAME, FRAME, width - 2 * FRAME, height - 2 * FRAME, 2.5, stroke=0, fill=1)
    title = content.game["backs"][deck["back"]]["title"]
    canvas.setFillColor(colour)
    _centred(canvas, title["en"], width / 2, height - 12.5, SANS_BOLD, _pt(17))
    _centred(canvas, title["zh-Hant"], width / 2, height - 19.5, CJK, _pt(13))
    # The locomotive stands on the rail at the lower left, as tall as the room under the title allows.
    canvas.saveState()
    grow = min(_picture_scale(height, width), (height - 21.0 - 14.2) / (41.4 - 14.2))
    _picture(canvas, (5.0, 14.2), grow, (5.0, 14.2))
    _locomotive(canvas)
    canvas.restoreState()
    # The arrow away from the locomotive with the rising numbers over it, at the right.
    canvas.setFillColor(INK)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(1.1)
    canvas.line(width - 40, 20, width - 9, 20)
    arrow_head(canvas, width - 5, 20, 0, 4.2)
    _centred(canvas, "1 < 2 < 3 < … < 7", width - 23, 24.2, SANS_BOLD, _pt(10))
    canvas.setFillColor(STEEL)
    _centred(canvas, "Numbers rise away from the locomotive", width / 2, 8.6, SANS, _pt(7))
    canvas.setFont(CJK, _pt(7))
    canvas.drawCentredString(width - 23, 15.2, "數字由車頭往右遞增")
    canvas.restoreState()


def draw_face(canvas, content, card: dict, rect: Rect, bleed: float) -> None:
    """Draw `card`'s face on the trim `rect`, its background reaching `bleed` beyond it."""
    if card["deck"] == "locomotives":
        _locomotive_face(canvas, content, card, rect, bleed)
    else:
        _carriage_face(canvas, content, card, rect, bleed)


# ---------------------------------------------------------------- backs

def _wheel(canvas, cx: float, cy: float, r: float) -> None:
    canvas.setLineWidth(1.1)
    canvas.circle(cx, cy, r, stroke=1, fill=0)
    canvas.circle(cx, cy, r * 0.22, stroke=0, fill=1)
    canvas.setLineWidth(0.8)
    for k in range(8):
        a = radians(22.5 + 45 * k)
        canvas.line(cx + cos(a) * r * 0.22, cy + sin(a) * r * 0.22, cx + cos(a) * r, cy + sin(a) * r)


def _tint(colour: Color, amount: float) -> Color:
    """`colour` moved `amount` of the way towards white."""
    return Color(*(c + (1 - c) * amount for c in (colour.red, colour.green, colour.blue)))


def _back_half(canvas, title: dict, ink: Color, width: float, height: float) -> None:
    """The upper half of a back; drawn twice, the second turned half a turn, so a card looks
    the same whichever way up it lies in the pile."""
    canvas.setFillColor(ink)
    _centred(canvas, title["en"], width / 2, height - 20.5, SANS_BOLD, _pt(15))
    _centred(canvas, title["zh-Hant"], width / 2, height - 28.5, CJK, _pt(14))


def draw_back(canvas, content, back_id: str, rect: Rect, bleed: float) -> None:
    """Draw back `back_id` (from game.yaml) on `rect`, its colour reaching `bleed` beyond it."""
    stamp(canvas, ("back", back_id), rect, bleed, lambda origin: _back_art(canvas, content, back_id, origin, bleed))


def _back_art(canvas, content, back_id: str, rect: Rect, bleed: float) -> None:
    back = content.game["backs"][back_id]
    colour = hex_colour(back["colour"])
    ink = CREAM
    fill_bleed(canvas, rect, bleed, colour)
    canvas.saveState()
    # Fine diagonal stripes over the whole card and bleed; centred, so a half turn maps them onto
    # themselves.
    path = canvas.beginPath()
    path.rect(rect.x - bleed, rect.y - bleed, rect.w + 2 * bleed, rect.h + 2 * bleed)
    canvas.clipPath(path, stroke=0, fill=0)
    width, height = _enter_card(canvas, rect)
    # A solid tint rather than transparency, which some print shops' workflows refuse.
    canvas.setStrokeColor(_tint(colour, 0.08))
    canvas.setLineWidth(1.2)
    reach = width + height
    for k in range(-30, 31):
        offset = k * 4.0
        canvas.line(width / 2 + offset - reach, height / 2 - reach, width / 2 + offset + reach, height / 2 + reach)
    canvas.setStrokeColor(ink)
    canvas.setFillColor(ink)
    canvas.setLineWidth(0.8)
    canvas.roundRect(5.5, 5.5, width - 11, height - 11, 3, stroke=1, fill=0)
    canvas.setLineWidth(0.3)
    canvas.roundRect(7, 7, width - 14, height - 14, 2.2, stroke=1, fill=0)
    grow = _picture_scale(width, height)
    _wheel(canvas, width / 2, height / 2, 11 * grow)
    canvas.setLineWidth(0.5)
    canvas.circle(width / 2, height / 2, 14 * grow, stroke=1, fill=0)
    for turn in (0, 180):
        canvas.saveState()
        canvas.translate(width / 2, height / 2)
        canvas.rotate(turn)
        canvas.translate(-width / 2, -height / 2)
        _back_half(canvas, back["title"], ink, width, height)
        canvas.restoreState()
    canvas.restoreState()


__all__ = ["ABILITY_COLOURS", "ICONS", "draw_ability_icon", "ability_colour", "draw_face", "draw_back"]
