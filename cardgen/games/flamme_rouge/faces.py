"""Flamme Rouge card faces and backs, drawn as vectors: energy, exhaustion, stage and reference cards.

Every card is laid out in millimetres of a 63 x 88 mm poker card and scaled to the real card size,
so another size in game.yaml still looks right. Art reaches the bleed; text stays inside a safe
area a few millimetres inside the trim. The two rider types must be told apart at a glance, face
up or face down: a rouleur has a round badge with wind lines and a brown back, a sprinteur a
pointed badge with a lightning bolt and a teal back. The rider icons live here so that the player
boards, the tokens and the rule sheet diagrams draw the same riders.
"""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from cardgen.games.flamme_rouge import course
from cardgen.faces import INK, clip_to_bleed, fill_bleed, ink_for, stamp
from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, font_for, mm

# The design grid: a poker card, in millimetres.
DESIGN_W, DESIGN_H = 63.0, 88.0
SAFE_MM = 4.0  # text keeps this far inside the trim; cutters drift by up to a millimetre or two

PAPER = HexColor("#fbf7ee")
GREY_DARK = HexColor("#4a4a4a")
GREY_MID = HexColor("#9e9e9e")
GREY_LIGHT = HexColor("#dcdcdc")
SWEAT = HexColor("#4fa3d9")
CLIMB = HexColor("#d32f2f")
DESCENT = HexColor("#1976d2")

RIDER_NAMES = {
    "rouleur": {"en": "Rouleur", "zh-Hant": "破風手"},
    "sprinteur": {"en": "Sprinteur", "zh-Hant": "衝線手"},
}
TEAM_NAMES = {
    "green": {"en": "Green team", "zh-Hant": "綠隊"},
    "red": {"en": "Red team", "zh-Hant": "紅隊"},
    "blue": {"en": "Blue team", "zh-Hant": "藍隊"},
    "black": {"en": "Black team", "zh-Hant": "黑隊"},
}

# The reference card: one round in three phases, in each language (English face, Chinese back).
REFERENCE = {
    "en": {
        "title": "One round",
        "phases": [
            ("1  Energy", "For each rider in turn: draw 4 from its deck, keep 1 face down, put the "
                          "other 3 face up under the deck. An empty deck: shuffle the face-up cards."),
            ("2  Movement", "Reveal. Front rider first: move as many squares as the card. Pass others, "
                            "never stop on a full square; stop alone in the right lane."),
            ("3  End", "Discard played cards. Slipstream: from the back, a group 1 square behind another "
                       "moves up 1, again and again. A rider with an empty square ahead takes exhaustion."),
        ],
        "footer": "Climb: card counts at most 5.  Descent: at least 5.",
    },
    "zh-Hant": {
        "title": "一回合",
        "phases": [
            ("1  精力階段", "兩位騎士依序:從其牌組抽4張,留1張面朝下,其餘3張面朝上放回牌組下方。"
                           "牌組抽完時,將面朝上的牌洗勻成新牌組。"),
            ("2  移動階段", "同時翻開。由最前方的騎士開始,前進卡上數值的區塊數。可穿越他人,"
                           "不可停在已滿的區塊;獨自一人時停在右側跑道。"),
            ("3  結束階段", "移除打出的卡。跟風:由後往前,與前方騎士群相隔1個空區塊的騎士群前進1格,"
                           "可連續進行。正前方區塊全空的騎士拿取1張疲勞卡。"),
        ],
        "footer": "上坡:卡牌數值最多算5。下坡:至少算5。",
    },
}


# --- small drawing helpers -----------------------------------------------------------------------

class _Frame:
    """Maps the design grid (mm of a poker card, origin bottom left) onto the real card rectangle."""

    def __init__(self, rect, bleed: float):
        self.rect = rect
        self.bleed = bleed
        self.sx = rect.w / (DESIGN_W * mm)
        self.sy = rect.h / (DESIGN_H * mm)
        self.s = min(self.sx, self.sy)

    def x(self, mm_x: float) -> float:
        return self.rect.x + mm_x * mm * self.sx

    def y(self, mm_y: float) -> float:
        return self.rect.y + mm_y * mm * self.sy

    def d(self, mm_len: float) -> float:
        return mm_len * mm * self.s

    def band(self, canvas, y0: float, y1: float, colour: Color) -> None:
        """A full-width stripe between two heights; a stripe touching an edge runs into the bleed."""
        b = self.bleed
        bottom = self.y(y0) - (b if y0 <= 0 else 0)
        top = self.y(y1) + (b if y1 >= DESIGN_H else 0)
        canvas.setFillColor(colour)
        canvas.rect(self.rect.x - b, bottom, self.rect.w + 2 * b, top - bottom, stroke=0, fill=1)


def fit_size(text: str, font: str, size: float, width: float) -> float:
    """The largest font size up to `size` at which `text` fits in `width`."""
    natural = stringWidth(text, font, size)
    return size if natural <= width else size * width / natural


def draw_fitted(canvas, text: str, font: str, size: float, x: float, y: float, width: float,
                align: str = "centre") -> float:
    """Draw one line shrunk to fit `width`; returns the size used."""
    size = fit_size(text, font, size, width)
    canvas.setFont(font, size)
    if align == "centre":
        canvas.drawCentredString(x, y, text)
    elif align == "right":
        canvas.drawRightString(x, y, text)
    else:
        canvas.drawString(x, y, text)
    return size


def mix(colour: Color, other: Color, amount: float) -> Color:
    """`amount` of the way from `colour` to `other`; used for tints of the team colours."""
    return Color(colour.red + (other.red - colour.red) * amount,
                 colour.green + (other.green - colour.green) * amount,
                 colour.blue + (other.blue - colour.blue) * amount)


def team_colour(content, colour_id: str) -> Color:
    return HexColor(content.game["team_colours"][colour_id])


# --- riders and marks ----------------------------------------------------------------------------

def draw_cyclist(canvas, cx: float, cy: float, size: float, colour: Color, sprint: bool = False) -> None:
    """A rider on a bicycle seen from the side, facing right, within a `size` square.

    A sprinteur crouches low over the bars; a rouleur sits upright. Line widths scale with size.
    """
    def p(u, v):
        return cx + u * size, cy + v * size

    canvas.saveState()
    canvas.setStrokeColor(colour)
    canvas.setFillColor(colour)
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    canvas.setLineWidth(size * 0.045)
    wheel_r = 0.19
    rear, front = p(-0.27, -0.2), p(0.27, -0.2)
    for hub in (rear, front):
        canvas.circle(hub[0], hub[1], wheel_r * size, stroke=1, fill=0)
    crank, seat, head = p(-0.02, -0.2), p(-0.1, 0.06), p(0.2, 0.06)
    frame = canvas.beginPath()
    frame.moveTo(*rear)
    frame.lineTo(*crank)
    frame.lineTo(*seat)
    frame.close()
    frame.moveTo(*seat)
    frame.lineTo(*head)
    frame.lineTo(*crank)
    frame.moveTo(*head)
    frame.lineTo(*front)
    canvas.drawPath(frame, stroke=1, fill=0)
    canvas.setLineWidth(size * 0.075)
    hip = p(-0.1, 0.12)
    shoulder, head_c, hands = (p(0.14, 0.2), p(0.25, 0.24), p(0.25, 0.04)) if sprint else \
        (p(0.08, 0.32), p(0.16, 0.43), p(0.23, 0.1))
    body = canvas.beginPath()
    body.moveTo(*hip)
    body.lineTo(*shoulder)
    body.lineTo(*hands)
    body.moveTo(*hip)
    body.lineTo(*p(0.06, -0.02))
    body.lineTo(*p(0.0, -0.28))
    canvas.drawPath(body, stroke=1, fill=0)
    canvas.circle(head_c[0], head_c[1], 0.075 * size, stroke=0, fill=1)
    canvas.restoreState()


def draw_rider_badge(canvas, rider: str, cx: float, cy: float, size: float, fill: Color, ink: Color) -> None:
    """The rider-type mark used everywhere: a round badge with wind lines for a rouleur, a pointed
    shield with a lightning bolt for a sprinteur. `size` is the badge's width."""
    r = size / 2
    canvas.saveState()
    canvas.setFillColor(fill)
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(size * 0.035)
    if rider == "rouleur":
        canvas.circle(cx, cy, r, stroke=1, fill=1)
        draw_cyclist(canvas, cx + r * 0.12, cy + r * 0.02, size * 0.62, ink)
        canvas.setLineCap(1)
        canvas.setLineWidth(size * 0.03)
        for dy, length in ((0.28, 0.3), (0.05, 0.38), (-0.18, 0.3)):
            x0 = cx - r * 0.86
            canvas.line(x0, cy + dy * r, x0 + length * r, cy + dy * r)
    else:
        shield = canvas.beginPath()
        shield.moveTo(cx - r, cy + r * 0.75)
        shield.lineTo(cx, cy + r)
        shield.lineTo(cx + r, cy + r * 0.75)
        shield.lineTo(cx + r * 0.8, cy - r * 0.35)
        shield.lineTo(cx, cy - r)
        shield.lineTo(cx - r * 0.8, cy - r * 0.35)
        shield.close()
        canvas.drawPath(shield, stroke=1, fill=1)
        draw_cyclist(canvas, cx + r * 0.08, cy - r * 0.02, size * 0.6, ink, sprint=True)
        draw_bolt(canvas, cx - r * 0.55, cy + r * 0.35, size * 0.32, ink)
    canvas.restoreState()


def draw_bolt(canvas, cx: float, cy: float, size: float, colour: Color) -> None:
    """A lightning bolt, the sprinteur's burst of speed."""
    u = size
    points = [(0.15, 0.5), (-0.25, -0.05), (0.0, -0.05), (-0.15, -0.5), (0.28, 0.1), (0.03, 0.1), (0.2, 0.5)]
    path = canvas.beginPath()
    path.moveTo(cx + points[0][0] * u, cy + points[0][1] * u)
    for px, py in points[1:]:
        path.lineTo(cx + px * u, cy + py * u)
    path.close()
    canvas.saveState()
    canvas.setFillColor(colour)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


def draw_drop(canvas, cx: float, cy: float, size: float, colour: Color, outline: Color | None = None) -> None:
    """A drop of sweat, point up; `size` is its height."""
    r = size * 0.32
    base_y = cy - size / 2 + r
    path = canvas.beginPath()
    path.moveTo(cx, cy + size / 2)
    path.curveTo(cx + r * 0.35, base_y + r * 1.3, cx + r, base_y + r * 0.6, cx + r, base_y)
    path.curveTo(cx + r, base_y - r * 0.55, cx + r * 0.55, base_y - r, cx, base_y - r)
    path.curveTo(cx - r * 0.55, base_y - r, cx - r, base_y - r * 0.55, cx - r, base_y)
    path.curveTo(cx - r, base_y + r * 0.6, cx - r * 0.35, base_y + r * 1.3, cx, cy + size / 2)
    path.close()
    canvas.saveState()
    canvas.setFillColor(colour)
    if outline is not None:
        canvas.setStrokeColor(outline)
        canvas.setLineWidth(size * 0.06)
    canvas.drawPath(path, stroke=1 if outline is not None else 0, fill=1)
    canvas.setFillColor(white)
    canvas.circle(cx - r * 0.4, base_y + r * 0.1, r * 0.22, stroke=0, fill=1)
    canvas.restoreState()


def draw_flag(canvas, x: float, y: float, size: float, pole: Color, flag: Color) -> None:
    """The red kite that hangs over the road one kilometre from the finish; the game's name."""
    canvas.saveState()
    canvas.setStrokeColor(pole)
    canvas.setLineWidth(size * 0.05)
    canvas.line(x, y, x, y + size)
    tri = canvas.beginPath()
    tri.moveTo(x, y + size)
    tri.lineTo(x + size * 0.75, y + size * 0.8)
    tri.lineTo(x, y + size * 0.55)
    tri.close()
    canvas.setFillColor(flag)
    canvas.drawPath(tri, stroke=0, fill=1)
    canvas.restoreState()


def _pattern(canvas, frame: _Frame, rider: str, colour: Color) -> None:
    """A faint background texture that repeats the rider type: level wind lines for a rouleur,
    slanted speed streaks for a sprinteur."""
    canvas.saveState()
    canvas.setStrokeColor(colour)
    canvas.setLineCap(1)
    canvas.setLineWidth(frame.d(1.1))
    if rider == "rouleur":
        for i, yy in enumerate(range(-2, 92, 6)):
            offset = 6 if i % 2 else 0
            for xx in range(-8 + offset, 70, 16):
                canvas.line(frame.x(xx), frame.y(yy), frame.x(xx + 9), frame.y(yy))
    else:
        for xx in range(-90, 70, 7):
            canvas.line(frame.x(xx), frame.y(-4), frame.x(xx + 60), frame.y(92))
    canvas.restoreState()


# --- card faces ----------------------------------------------------------------------------------

def draw_face(canvas, content, card: dict, rect, bleed: float) -> None:
    """Draw the front of one physical card of Flamme Rouge; copies of a card share one drawing."""
    stamp(canvas, ("fr-face", card["deck"], card["id"]), rect, bleed,
          lambda origin: _draw_face(canvas, content, card, origin, bleed))


def _draw_face(canvas, content, card: dict, rect, bleed: float) -> None:
    canvas.saveState()
    clip_to_bleed(canvas, rect, bleed)
    frame = _Frame(rect, bleed)
    deck = card["deck"]
    if deck.startswith("energy-"):
        _energy_face(canvas, content, card, frame)
    elif deck.startswith("exhaustion-"):
        _exhaustion_face(canvas, content, card, frame)
    elif deck == "stages":
        _stage_face(canvas, content, card, frame)
    elif deck == "reference":
        _reference_side(canvas, content, frame, "en", HexColor(content.game["backs"]["reference-back"]["colour"]))
    else:
        raise ValueError(f"no face drawing for deck {deck!r}")
    canvas.restoreState()


def _corner_value(canvas, frame: _Frame, value: int, ink: Color, fill: Color, x: float, y: float,
                  upside_down: bool = False) -> None:
    """A small value in a disc at a corner, readable when the cards are fanned in the hand."""
    canvas.saveState()
    canvas.translate(frame.x(x), frame.y(y))
    if upside_down:
        canvas.rotate(180)
    canvas.setFillColor(fill)
    canvas.circle(0, 0, frame.d(4.6), stroke=0, fill=1)
    canvas.setFillColor(ink)
    canvas.setFont(SANS_BOLD, 11 * frame.s)
    canvas.drawCentredString(0, -frame.d(1.35), str(value))
    canvas.restoreState()


def _energy_face(canvas, content, card: dict, frame: _Frame) -> None:
    rider, value, team = card["rider"], card["value"], card["colour"]
    colour = team_colour(content, team)
    ink = ink_for(colour)
    fill_bleed(canvas, frame.rect, frame.bleed, PAPER)
    _pattern(canvas, frame, rider, mix(colour, PAPER, 0.86))
    # Head band in the team colour: the rider badge and the rider type in both languages.
    frame.band(canvas, 68, DESIGN_H, colour)
    frame.band(canvas, 67.2, 68, mix(colour, white, 0.5))
    draw_rider_badge(canvas, rider, frame.x(14), frame.y(77), frame.d(15), white, colour)
    canvas.setFillColor(ink)
    draw_fitted(canvas, RIDER_NAMES[rider]["en"].upper(), SANS_BOLD, 12 * frame.s, frame.x(24), frame.y(78.5),
                frame.d(34), align="left")
    draw_fitted(canvas, RIDER_NAMES[rider]["zh-Hant"], CJK, 10 * frame.s, frame.x(24), frame.y(72.2),
                frame.d(34), align="left")
    # The value, as large as the card allows: it is what a player reads across the table.
    canvas.setFillColor(mix(colour, INK, 0.25))
    canvas.setFont(SANS_BOLD, 96 * frame.s)
    canvas.drawCentredString(frame.x(DESIGN_W / 2), frame.y(25), str(value))
    canvas.setFillColor(GREY_DARK)
    draw_fitted(canvas, "squares · 區塊", font_for("zh-Hant"), 7 * frame.s, frame.x(DESIGN_W / 2), frame.y(19.5),
                frame.d(40))
    # Foot band: which team's deck the card belongs to, so lost cards find their way home.
    frame.band(canvas, 0, 13, colour)
    canvas.setFillColor(ink)
    draw_fitted(canvas, TEAM_NAMES[team]["en"], SANS_BOLD, 8 * frame.s, frame.x(DESIGN_W - SAFE_MM), frame.y(6.7),
                frame.d(34), align="right")
    draw_fitted(canvas, TEAM_NAMES[team]["zh-Hant"], CJK, 7 * frame.s, frame.x(DESIGN_W - SAFE_MM), frame.y(3.6),
                frame.d(34), align="right")
    _corner_value(canvas, frame, value, colour, white, 8.5, 6.5)


def _exhaustion_face(canvas, content, card: dict, frame: _Frame) -> None:
    rider, value = card["rider"], card["value"]
    fill_bleed(canvas, frame.rect, frame.bleed, GREY_LIGHT)
    # Dense diagonal hatching: even in a fanned hand a tired card looks nothing like energy.
    canvas.saveState()
    canvas.setStrokeColor(HexColor("#cbcbcb"))
    canvas.setLineWidth(frame.d(0.8))
    for xx in range(-100, 70, 4):
        canvas.line(frame.x(xx), frame.y(-4), frame.x(xx + 92), frame.y(92))
    canvas.restoreState()
    frame.band(canvas, 68, DESIGN_H, GREY_DARK)
    canvas.setFillColor(white)
    draw_fitted(canvas, "EXHAUSTION", SANS_BOLD, 13 * frame.s, frame.x(DESIGN_W / 2), frame.y(78.3), frame.d(52))
    draw_fitted(canvas, "疲勞", CJK, 11 * frame.s, frame.x(DESIGN_W / 2), frame.y(71.3), frame.d(52))
    # Three drops of sweat over the value.
    for dx, dy, size in ((-13, 56, 9), (0, 60, 11), (13, 56, 9)):
        draw_drop(canvas, frame.x(DESIGN_W / 2 + dx), frame.y(dy), frame.d(size), SWEAT, GREY_DARK)
    canvas.setFillColor(GREY_DARK)
    canvas.setFont(SANS_BOLD, 80 * frame.s)
    canvas.drawCentredString(frame.x(DESIGN_W / 2), frame.y(20), str(value))
    _corner_value(canvas, frame, value, white, GREY_MID, 8.5, 8.5)
    # The rider type it tires, small: it is shuffled into that rider's deck.
    frame.band(canvas, 0, 13, GREY_MID)
    draw_rider_badge(canvas, rider, frame.x(DESIGN_W - 10), frame.y(6.5), frame.d(9), white, GREY_DARK)
    canvas.setFillColor(white)
    draw_fitted(canvas, f"{RIDER_NAMES[rider]['en']} · {RIDER_NAMES[rider]['zh-Hant']}", CJK, 7.5 * frame.s,
                frame.x(DESIGN_W - 16), frame.y(5), frame.d(30), align="right")


def stage_terrain_counts(content, stage_id: str) -> dict[str, int]:
    """How many squares of each terrain a stage has (codes as in course.TERRAIN)."""
    counts = {code: 0 for code in course.TERRAIN}
    for code in course.stage_squares(content, stage_id):
        counts[code] += 1
    return counts


def _stage_face(canvas, content, card: dict, frame: _Frame) -> None:
    stage = course.stage(content, card["stage"])
    accent = HexColor(content.game["backs"]["stage-back"]["colour"])
    fill_bleed(canvas, frame.rect, frame.bleed, PAPER)
    frame.band(canvas, 71, DESIGN_H, accent)
    draw_flag(canvas, frame.x(SAFE_MM + 0.5), frame.y(74), frame.d(10), white, white)
    canvas.setFillColor(white)
    draw_fitted(canvas, stage["name"]["en"], SANS_BOLD, 11 * frame.s, frame.x(DESIGN_W / 2 + 4), frame.y(79.5),
                frame.d(46))
    draw_fitted(canvas, stage["name"]["zh-Hant"], CJK, 9 * frame.s, frame.x(DESIGN_W / 2 + 4), frame.y(73.6),
                frame.d(46))
    # The course map takes the middle of the card.
    map_x, map_y, map_w, map_h = frame.x(SAFE_MM), frame.y(24), frame.d(DESIGN_W - 2 * SAFE_MM), frame.d(45)
    draw_stage_map(canvas, content, stage["id"], map_x, map_y, map_w, map_h)
    # Tile letters in the order they are laid, in two rows so they stay legible.
    letters = stage["course"].split()
    half = (len(letters) + 1) // 2
    canvas.setFillColor(INK)
    for row, chunk in enumerate((letters[:half], letters[half:])):
        draw_fitted(canvas, "  ".join(chunk), SANS_BOLD, 8 * frame.s, frame.x(DESIGN_W / 2), frame.y(18.5 - row * 4.2),
                    frame.d(DESIGN_W - 2 * SAFE_MM))
    counts = stage_terrain_counts(content, stage["id"])
    racing = len(course.stage_squares(content, stage["id"])) - counts["S"] - counts["F"]
    frame.band(canvas, 0, 9, mix(accent, PAPER, 0.85))
    items = [
        (None, f"{racing} squares · 區塊"),
        (CLIMB, f"{counts['A']} climb · 上坡"),
        (DESCENT, f"{counts['D']} descent · 下坡"),
    ]
    widths = [frame.d(20), frame.d(20), frame.d(21)]
    x = frame.x(SAFE_MM - 1.5)
    for (swatch, label), width in zip(items, widths):
        tx = x
        if swatch is not None:
            canvas.setFillColor(swatch)
            canvas.rect(x, frame.y(3.2), frame.d(2.4), frame.d(2.4), stroke=0, fill=1)
            tx = x + frame.d(3.2)
        canvas.setFillColor(INK)
        draw_fitted(canvas, label, CJK, 6 * frame.s, tx, frame.y(3.4), width - (tx - x) - frame.d(0.8), align="left")
        x += width


def draw_stage_map(canvas, content, stage_id: str, x: float, y: float, w: float, h: float) -> None:
    """The course map of a stage fitted into the box, drawn as the printed tiles colour it."""
    from cardgen.games.flamme_rouge.tiles import draw_course_map

    draw_course_map(canvas, content, stage_id, x, y, w, h)


def _reference_side(canvas, content, frame: _Frame, lang: str, colour: Color) -> None:
    """One side of a reference card: the round in three phases in one language."""
    text = REFERENCE[lang]
    fill_bleed(canvas, frame.rect, frame.bleed, PAPER)
    frame.band(canvas, 76, DESIGN_H, colour)
    draw_flag(canvas, frame.x(SAFE_MM + 0.5), frame.y(78), frame.d(8), white, HexColor("#e53935"))
    canvas.setFillColor(white)
    title = f"{content.title[lang]} · {text['title']}"
    draw_fitted(canvas, title, font_for(lang, bold=True), 10 * frame.s, frame.x(DESIGN_W / 2 + 3.5), frame.y(80.2),
                frame.d(46))
    cjk = lang.startswith("zh")
    head = ParagraphStyle("head", fontName=font_for(lang, bold=True), fontSize=8 * frame.s,
                          leading=10 * frame.s, textColor=colour)
    body = ParagraphStyle("body", fontName=font_for(lang), fontSize=(6.7 if cjk else 6.4) * frame.s,
                          leading=(8.8 if cjk else 8.0) * frame.s, textColor=INK, alignment=TA_LEFT,
                          wordWrap="CJK" if cjk else None)
    width = frame.d(DESIGN_W - 2 * SAFE_MM)
    top = frame.y(73.5)
    for heading, words in text["phases"]:
        for paragraph, gap in ((Paragraph(heading, head), 0.3), (Paragraph(words, body), 2.2)):
            _, used = paragraph.wrap(width, frame.rect.h)
            paragraph.drawOn(canvas, frame.x(SAFE_MM), top - used)
            top -= used + frame.d(gap)
    frame.band(canvas, 0, 9.5, mix(colour, PAPER, 0.8))
    canvas.setFillColor(INK)
    foot = ParagraphStyle("foot", parent=body, fontSize=6 * frame.s, leading=7.2 * frame.s)
    paragraph = Paragraph(text["footer"], foot)
    _, used = paragraph.wrap(width, frame.rect.h)
    paragraph.drawOn(canvas, frame.x(SAFE_MM), frame.y(4.8) - used / 2)


# --- backs ---------------------------------------------------------------------------------------

def draw_back(canvas, content, back_id: str, rect, bleed: float) -> None:
    """Draw the back shared by every card of `back_id`.

    Rouleur and sprinteur backs differ in colour, badge and texture, so a player never picks up the
    other rider's deck. Energy and exhaustion cards of one rider type share a back, being shuffled
    together. The reference card's back carries the Chinese text of its face.
    """
    stamp(canvas, ("fr-back", back_id), rect, bleed, lambda origin: _draw_back(canvas, content, back_id, origin, bleed))


def _draw_back(canvas, content, back_id: str, rect, bleed: float) -> None:
    back = content.game["backs"][back_id]
    colour = HexColor(back["colour"])
    canvas.saveState()
    clip_to_bleed(canvas, rect, bleed)
    frame = _Frame(rect, bleed)
    if back_id == "reference-back":
        _reference_side(canvas, content, frame, "zh-Hant", colour)
        canvas.restoreState()
        return
    fill_bleed(canvas, rect, bleed, colour)
    light = mix(colour, white, 0.12)
    rider = {"rouleur-back": "rouleur", "sprinteur-back": "sprinteur"}.get(back_id)
    if rider:
        _pattern(canvas, frame, rider, light)
    # A frame line inside the safe area: a back that is cut a little off still looks even.
    canvas.setStrokeColor(mix(colour, white, 0.45))
    canvas.setLineWidth(frame.d(0.6))
    canvas.roundRect(frame.x(SAFE_MM), frame.y(SAFE_MM), frame.d(DESIGN_W - 2 * SAFE_MM),
                     frame.d(DESIGN_H - 2 * SAFE_MM), frame.d(3), stroke=1, fill=0)
    cx = frame.x(DESIGN_W / 2)
    if rider:
        draw_rider_badge(canvas, rider, cx, frame.y(50), frame.d(34), white, colour)
    else:
        canvas.setFillColor(mix(colour, white, 0.9))
        canvas.circle(cx, frame.y(50), frame.d(17), stroke=0, fill=1)
        draw_flag(canvas, cx - frame.d(6), frame.y(41), frame.d(18), colour, colour)
    canvas.setFillColor(white)
    draw_fitted(canvas, back["title"]["en"].upper(), SANS_BOLD, 14 * frame.s, cx, frame.y(24), frame.d(50))
    draw_fitted(canvas, back["title"]["zh-Hant"], CJK, 12 * frame.s, cx, frame.y(16), frame.d(50))
    if back_id != "reference-back" and rider is None:
        draw_fitted(canvas, content.title["en"], SANS, 7 * frame.s, cx, frame.y(72), frame.d(50))
    canvas.restoreState()


# --- rule sheet and board helpers ----------------------------------------------------------------

def rider_label(rider: str, lang: str) -> str:
    return RIDER_NAMES[rider][lang]


def team_label(team: str, lang: str) -> str:
    return TEAM_NAMES[team][lang]


__all__ = [
    "draw_face", "draw_back", "extra_outputs", "draw_cyclist", "draw_rider_badge", "draw_drop", "draw_flag", "draw_bolt",
    "draw_stage_map", "stage_terrain_counts", "rider_label", "team_label", "RIDER_NAMES", "TEAM_NAMES",
    "REFERENCE",
]


def extra_outputs(content, out_dir, paper: str, flip: str):
    """The printed parts that are not cards, for one paper: the track tiles (double-sided, lined
    up for `flip`) and the player boards with the rider tokens (single-sided)."""
    from functools import partial
    from pathlib import Path

    from cardgen.games.flamme_rouge.boards import render_boards
    from cardgen.games.flamme_rouge.tiles import render_tiles

    out_dir = Path(out_dir)
    return [
        (out_dir / f"tiles-{paper}.pdf", partial(_render_tiles, render_tiles, content, paper=paper, flip=flip)),
        (out_dir / f"boards-{paper}.pdf", partial(_render_boards, render_boards, content, paper=paper)),
    ]


def _render_tiles(render_tiles, content, path, *, paper: str, flip: str) -> None:
    render_tiles(content, path, paper, flip)


def _render_boards(render_boards, content, path, *, paper: str) -> None:
    render_boards(content, path, paper)
