"""Flamme Rouge card faces and backs, drawn as vectors: energy, exhaustion, stage and reference cards.

Every card is laid out in millimetres of a 63 x 88 mm poker card and fitted to the real card size:
what lies near an edge keeps its distance from that edge, the middle stretches or shrinks, shapes
scale with the card and text keeps its point size, so another size in game.yaml still looks right.
Art reaches the bleed; text stays inside a safe area a few millimetres inside the trim. The two rider types must be told apart at a glance, face
up or face down: a rouleur has a round badge with wind lines and a brown back, a sprinteur a
pointed badge with a lightning bolt and a teal back. The rider icons live here so that the player
boards, the tokens and the rule sheet diagrams draw the same riders.
"""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.games.flamme_rouge import course
from cardgen.markup import para
from cardgen.faces import INK, MIN_TEXT_PT, SAFE_ZONE_MM, clip_to_bleed, fill_bleed, ink_for, stamp
from cardgen.geometry import Rect
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

TEAMS = ("green", "red", "blue", "black")


def words(content, key: str, lang: str) -> str:
    """A printed word from the `terms` of rules.yaml: every text on the cards lives in the content."""
    from cardgen.diagrams import term

    return term(content, key, lang)


def rider_label(content, rider: str, lang: str) -> str:
    return words(content, rider, lang)


def team_label(content, team: str, lang: str) -> str:
    return words(content, f"team-{team}", lang)


# --- small drawing helpers -----------------------------------------------------------------------

EDGE_MM = 8.0  # design millimetres along each edge that keep their real distance from it


def _edge_keeping(value: float, design: float, real: float) -> float:
    """Where a design coordinate lands (real mm from the same origin): within EDGE_MM of either
    edge at the same distance from it, the part in between stretched or shrunk to fill the rest."""
    if value <= EDGE_MM:
        return value
    if value >= design - EDGE_MM:
        return real - (design - value)
    return EDGE_MM + (value - EDGE_MM) * (real - 2 * EDGE_MM) / (design - 2 * EDGE_MM)


class _Frame:
    """Maps the design grid (mm of a poker card, origin bottom left) onto the real card rectangle."""

    def __init__(self, rect, bleed: float):
        self.rect = rect
        self.bleed = bleed
        self.sx = rect.w / (DESIGN_W * mm)
        self.sy = rect.h / (DESIGN_H * mm)
        self.s = min(self.sx, self.sy)

    def x(self, mm_x: float) -> float:
        return self.rect.x + _edge_keeping(mm_x, DESIGN_W, self.rect.w / mm) * mm

    def y(self, mm_y: float) -> float:
        return self.rect.y + _edge_keeping(mm_y, DESIGN_H, self.rect.h / mm) * mm

    def d(self, mm_len: float) -> float:
        return mm_len * mm * self.s

    def across(self, mm_x0: float, mm_x1: float) -> float:
        """The real width between two design x coordinates: room for a line of text."""
        return self.x(mm_x1) - self.x(mm_x0)

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
                align: str = "centre", floor: float = 0.0) -> float:
    """Draw one line shrunk to fit `width`, but never below `floor`; returns the size used."""
    size = max(fit_size(text, font, size, width), min(floor, size))
    canvas.setFont(font, size)
    draw_line(canvas, text, x, y, align)
    return size


def draw_line(canvas, text: str, x: float, y: float, align: str = "left") -> None:
    """One line of text in the canvas's current font, placed by its left end, centre or right end.
    Drawn as a single text run (no line advance), which is what the PDF holds for a line anyway."""
    width = stringWidth(text, canvas._fontname, canvas._fontsize)
    left = x - width / 2 if align == "centre" else x - width if align == "right" else x
    run = canvas.beginText(left, y)
    run.setLeading(0)  # a single line: the cursor stays where the line was drawn
    run.textLine(text)
    canvas.drawText(run)


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


CORNER_DISC_MM = 4.2
# The value disc's centre: its edge keeps the safe zone from the trim on both sides.
CORNER_AT = (SAFE_ZONE_MM + CORNER_DISC_MM + 1.0, SAFE_ZONE_MM + CORNER_DISC_MM + 0.5)


def _corner_value(canvas, frame: _Frame, value: int, ink: Color, fill: Color, x: float, y: float,
                  upside_down: bool = False) -> None:
    """A small value in a disc at a corner, readable when the cards are fanned in the hand."""
    canvas.saveState()
    canvas.translate(frame.x(x), frame.y(y))
    if upside_down:
        canvas.rotate(180)
    canvas.setFillColor(fill)
    canvas.circle(0, 0, frame.d(CORNER_DISC_MM), stroke=0, fill=1)
    canvas.setFillColor(ink)
    canvas.setFont(SANS_BOLD, 10.5)
    draw_line(canvas, str(value), 0, -frame.d(1.3), "centre")
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
    draw_fitted(canvas, rider_label(content, rider, "en").upper(), SANS_BOLD, 12, frame.x(24),
                frame.y(78.5), frame.d(34), align="left", floor=MIN_TEXT_PT)
    draw_fitted(canvas, rider_label(content, rider, "zh-Hant"), CJK, 10, frame.x(24), frame.y(72.2),
                frame.d(34), align="left", floor=MIN_TEXT_PT)
    # The value, as large as the card allows: it is what a player reads across the table.
    canvas.setFillColor(mix(colour, INK, 0.25))
    canvas.setFont(SANS_BOLD, 96 * frame.s)
    draw_line(canvas, str(value), frame.x(DESIGN_W / 2), frame.y(25), "centre")
    canvas.setFillColor(GREY_DARK)
    draw_fitted(canvas, f"{words(content, 'squares', 'en')} · {words(content, 'squares', 'zh-Hant')}",
                font_for("zh-Hant"), 7.5, frame.x(DESIGN_W / 2), frame.y(19.5), frame.d(40), floor=MIN_TEXT_PT)
    # Foot band: which team's deck the card belongs to, so lost cards find their way home.
    frame.band(canvas, 0, 13, colour)
    canvas.setFillColor(ink)
    draw_fitted(canvas, team_label(content, team, "en"), SANS_BOLD, 8, frame.x(DESIGN_W - SAFE_MM),
                frame.y(7.4), frame.d(34), align="right", floor=MIN_TEXT_PT)
    draw_fitted(canvas, team_label(content, team, "zh-Hant"), CJK, 7.5, frame.x(DESIGN_W - SAFE_MM),
                frame.y(4.2), frame.d(34), align="right", floor=MIN_TEXT_PT)
    _corner_value(canvas, frame, value, colour, white, *CORNER_AT)


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
    draw_fitted(canvas, words(content, "exhaustion-title", "en"), SANS_BOLD, 13, frame.x(DESIGN_W / 2),
                frame.y(78.3), frame.d(52), floor=MIN_TEXT_PT)
    draw_fitted(canvas, words(content, "exhaustion-title", "zh-Hant"), CJK, 11, frame.x(DESIGN_W / 2),
                frame.y(71.3), frame.d(52), floor=MIN_TEXT_PT)
    # Three drops of sweat over the value.
    for dx, dy, size in ((-13, 56, 9), (0, 60, 11), (13, 56, 9)):
        draw_drop(canvas, frame.x(DESIGN_W / 2 + dx), frame.y(dy), frame.d(size), SWEAT, GREY_DARK)
    canvas.setFillColor(GREY_DARK)
    canvas.setFont(SANS_BOLD, 80 * frame.s)
    draw_line(canvas, str(value), frame.x(DESIGN_W / 2), frame.y(20), "centre")
    _corner_value(canvas, frame, value, white, GREY_MID, CORNER_AT[0], CORNER_AT[1] + 1.0)
    # The rider type it tires, small: it is shuffled into that rider's deck.
    frame.band(canvas, 0, 13, GREY_MID)
    draw_rider_badge(canvas, rider, frame.x(DESIGN_W - 10), frame.y(6.5), frame.d(9), white, GREY_DARK)
    canvas.setFillColor(white)
    draw_fitted(canvas, f"{rider_label(content, rider, 'en')} · {rider_label(content, rider, 'zh-Hant')}", CJK,
                7.5, frame.x(DESIGN_W - 16), frame.y(5), frame.d(30), align="right", floor=MIN_TEXT_PT)


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
    draw_fitted(canvas, stage["name"]["en"], SANS_BOLD, 11, frame.x(DESIGN_W / 2 + 4), frame.y(79.5),
                frame.d(46))
    draw_fitted(canvas, stage["name"]["zh-Hant"], CJK, 9, frame.x(DESIGN_W / 2 + 4), frame.y(73.6),
                frame.d(46))
    # The course map takes the middle of the card.
    map_x, map_y, map_w, map_h = frame.x(SAFE_MM), frame.y(27), frame.d(DESIGN_W - 2 * SAFE_MM), frame.d(43)
    draw_stage_map(canvas, content, stage["id"], map_x, map_y, map_w, map_h)
    # Tile letters in the order they are laid, in two rows, each in a disc that tells the side:
    # a solid disc for the uppercase side, an open ring for the lowercase side (as on the tiles).
    from cardgen.games.flamme_rouge.tiles import draw_tile_letter

    letters = stage["course"].split()
    half = (len(letters) + 1) // 2
    pitch = frame.d((DESIGN_W - 2 * SAFE_ZONE_MM - 2) / half)
    for row, chunk in enumerate((letters[:half], letters[half:])):
        left = frame.x(DESIGN_W / 2) - pitch * (len(chunk) - 1) / 2
        for k, letter in enumerate(chunk):
            draw_tile_letter(canvas, letter, left + k * pitch, frame.y(21.4 - row * 5.4), min(pitch * 0.46, frame.d(2.4)),
                             8)
    counts = stage_terrain_counts(content, stage["id"])
    racing = len(course.stage_squares(content, stage["id"])) - counts["S"] - counts["F"]
    frame.band(canvas, 0, 12.5, mix(accent, PAPER, 0.85))
    items = [(None, racing, "squares"), (CLIMB, counts["A"], "climb-squares"), (DESCENT, counts["D"], "descent-squares")]
    width = frame.across(SAFE_ZONE_MM, DESIGN_W - SAFE_ZONE_MM) / 3
    x = frame.x(SAFE_ZONE_MM)
    for swatch, number, key in items:
        tx = x
        if swatch is not None:
            canvas.setFillColor(swatch)
            canvas.rect(x, frame.y(6.6), frame.d(2.4), frame.d(2.4), stroke=0, fill=1)
            tx = x + frame.d(3.2)
        canvas.setFillColor(INK)
        draw_fitted(canvas, f"{number} {words(content, key, 'en')}", SANS, 7, tx, frame.y(7.0),
                    width - (tx - x) - frame.d(0.6), align="left", floor=MIN_TEXT_PT)
        draw_fitted(canvas, f"{number}{words(content, key, 'zh-Hant')}", CJK, 7, tx, frame.y(SAFE_ZONE_MM + 0.9),
                    width - (tx - x) - frame.d(0.6), align="left", floor=MIN_TEXT_PT)
        x += width


def draw_stage_map(canvas, content, stage_id: str, x: float, y: float, w: float, h: float) -> None:
    """The course map of a stage fitted into the box, drawn as the printed tiles colour it."""
    from cardgen.games.flamme_rouge.tiles import draw_course_map

    draw_course_map(canvas, content, stage_id, x, y, w, h)


REFERENCE_PHASES = ("energy", "movement", "end")


def _reference_side(canvas, content, frame: _Frame, lang: str, colour: Color) -> None:
    """One side of a reference card: the round in three phases in one language."""
    fill_bleed(canvas, frame.rect, frame.bleed, PAPER)
    frame.band(canvas, 77, DESIGN_H, colour)
    draw_flag(canvas, frame.x(SAFE_MM + 0.5), frame.y(79), frame.d(7.5), white, HexColor("#e53935"))
    canvas.setFillColor(white)
    title = f"{content.title[lang]} · {words(content, 'round-title', lang)}"
    draw_fitted(canvas, title, font_for(lang, bold=True), 10, frame.x(DESIGN_W / 2 + 3.5), frame.y(81),
                frame.d(46), floor=MIN_TEXT_PT)
    cjk = lang.startswith("zh")
    head = ParagraphStyle("head", fontName=font_for(lang, bold=True), fontSize=8,
                          leading=9.4, textColor=colour)
    body = ParagraphStyle("body", fontName=font_for(lang), fontSize=MIN_TEXT_PT,
                          leading=(8.9 if cjk else 8.3), textColor=INK, alignment=TA_LEFT,
                          wordWrap="CJK" if cjk else None)
    width = frame.across(SAFE_ZONE_MM + 0.3, DESIGN_W - SAFE_ZONE_MM - 0.3)
    if cjk:  # a closing mark may hang past the line's end: keep a character's room for it
        width -= MIN_TEXT_PT
    left = frame.x(SAFE_ZONE_MM + 0.3)
    top = frame.y(75)
    for phase in REFERENCE_PHASES:
        for paragraph, gap in ((para((words(content, f"ref-{phase}-head", lang)), head), 0.2),
                               (para((words(content, f"ref-{phase}", lang)), body), 1.4)):
            _, used = paragraph.wrap(width, frame.rect.h)
            paragraph.drawOn(canvas, left, top - used)
            top -= used + frame.d(gap)
    frame.band(canvas, 0, 12.5, mix(colour, PAPER, 0.8))
    canvas.setFillColor(INK)
    foot = ParagraphStyle("foot", parent=body, fontSize=MIN_TEXT_PT, leading=8.2)
    paragraph = para((words(content, "ref-footer", lang)), foot)
    _, used = paragraph.wrap(width, frame.rect.h)
    paragraph.drawOn(canvas, left, frame.y(SAFE_ZONE_MM + 0.3))


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
    draw_fitted(canvas, back["title"]["en"].upper(), SANS_BOLD, 14, cx, frame.y(24), frame.d(50))
    draw_fitted(canvas, back["title"]["zh-Hant"], CJK, 12, cx, frame.y(16), frame.d(50))
    if back_id != "reference-back" and rider is None:
        draw_fitted(canvas, content.title["en"], SANS, 7, cx, frame.y(72), frame.d(50))
    canvas.restoreState()


__all__ = [
    "draw_face", "draw_back", "extra_outputs", "draw_cyclist", "draw_rider_badge", "draw_drop", "draw_flag", "draw_bolt",
    "draw_stage_map", "stage_terrain_counts", "rider_label", "team_label", "words", "MIN_TEXT_PT", "SAFE_ZONE_MM",
]


def extra_outputs(content, out_dir, paper: str, flip: str, options=None):
    """The printed parts that are not cards, for one paper: the track tiles (double-sided, lined
    up for `flip`) and the player boards with the rider tokens (single-sided)."""
    from functools import partial
    from pathlib import Path

    from cardgen.games.flamme_rouge.boards import render_boards
    from cardgen.games.flamme_rouge.tiles import render_tiles

    out_dir = Path(out_dir)
    return [
        (out_dir / f"tiles-{paper}.pdf", partial(_render_tiles, render_tiles, content, paper=paper, flip=flip, options=options)),
        (out_dir / f"boards-{paper}.pdf", partial(_render_boards, render_boards, content, paper=paper)),
    ]


def _render_tiles(render_tiles, content, path, *, paper: str, flip: str, options=None) -> None:
    render_tiles(content, path, paper, flip, options)


def _render_boards(render_boards, content, path, *, paper: str) -> None:
    render_boards(content, path, paper)


def parts_to_check(content):
    """Both sides of every track tile, each team's board, and each rider's standee and counter,
    as the preflight draws them (cardgen.registry.PrintedPiece)."""
    from cardgen.games.flamme_rouge import boards, tiles
    from cardgen.registry import PrintedPiece

    pieces = []
    kinds = {t["id"]: t["kind"] for t in content.files["tiles"]["tiles"]}
    for tile_id in tiles.print_order(content):
        for side in ("lower", "upper"):
            shape = tiles.tile_shape(content, tile_id, side)
            box = tiles.box_of([shape.outline()])
            pieces.append(PrintedPiece(
                "tiles", f"tile {shape.letter}", box.w * mm, box.h * mm,
                lambda canvas, trim, shape=shape, box=box, start=kinds[tile_id] == "start":
                    _draw_tile_at(canvas, trim, shape, box, start),
                tiles.BLEED_MM * mm, SAFE_ZONE_MM * mm, "outline" if shape.turn else "rect"))
    for team in boards.teams_of(content):
        pieces.append(PrintedPiece(
            "boards", f"board {team}", boards.BOARD_W_MM * mm, boards.BOARD_H_MM * mm,
            lambda canvas, trim, team=team: boards.draw_board(canvas, content, team, _slot_at(trim)),
            boards.BLEED, SAFE_ZONE_MM * mm))
        for rider in ("sprinteur", "rouleur"):
            standee_h = 2 * boards.STANDEE_FOOT_MM + 2 * boards.STANDEE_FACE_MM
            pieces.append(PrintedPiece(
                "boards", f"standee {team} {rider}", boards.STANDEE_W_MM * mm, standee_h * mm,
                lambda canvas, trim, team=team, rider=rider: boards.draw_standee(canvas, content, team, rider, _slot_at(trim)),
                boards.BLEED, SAFE_ZONE_MM * mm))
            pieces.append(PrintedPiece(
                "boards", f"counter {team} {rider}", boards.COUNTER_MM * mm, boards.COUNTER_MM * mm,
                lambda canvas, trim, team=team, rider=rider: boards.draw_counter(canvas, content, team, rider, _slot_at(trim)),
                boards.BLEED, SAFE_ZONE_MM * mm))
    return pieces


def _slot_at(trim: Rect):
    from cardgen.games.flamme_rouge.boards import BLEED
    from cardgen.layout import Slot

    return Slot(trim, trim.grow(BLEED))


def _draw_tile_at(canvas, trim: Rect, shape, box, start_tile: bool) -> None:
    """One tile side in its own frame, its outline's box moved onto `trim`."""
    from cardgen.games.flamme_rouge.tiles import draw_tile_side

    canvas.translate(trim.x - box.x0 * mm, trim.y - box.y0 * mm)
    draw_tile_side(canvas, shape, start_tile)
