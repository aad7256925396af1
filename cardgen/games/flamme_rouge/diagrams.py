"""Pictures and computed parts for the Flamme Rouge rule sheet.

The pictures show a stretch of straight road seen from above, the race running left to right, so
the right lane is the lower row of each square. Riders are discs in their team colour marked R
(rouleur) or S (sprinteur), as on the printed tokens. Each rule picture shows the road before and
after the rule acts; the positions in them follow the same rules as the engine, and the worked
examples are drawn from the replayed scenario states themselves. Every word printed comes from
the `terms` of rules.yaml. The odds table is computed exactly by `verify.odds`.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.platypus import Spacer, Table, TableStyle

from cardgen.content import exact_odds
from cardgen.diagrams import Picture, term
from cardgen.games.flamme_rouge.faces import CLIMB, DESCENT, draw_drop, draw_stage_map, team_colour
from cardgen.markup import bold, para
from cardgen.pdfdoc import SANS_BOLD, font_for, mm

INK = colors.HexColor("#222222")
MUTED = colors.HexColor("#666666")
ROAD = colors.HexColor("#e9e4d8")
ROAD_LINE = colors.HexColor("#ffffff")
START_FILL = colors.HexColor("#f6e3a1")
CLIMB_FILL = colors.HexColor("#f4c7c3")
DESCENT_FILL = colors.HexColor("#c5dcf2")
MOVE = colors.HexColor("#b3261e")
SWEAT = colors.HexColor("#4fa3d9")
SEATS = ("green", "red", "blue", "black")  # P1, P2, ... sit in this order of team colours
TERRAIN_FILL = {"S": START_FILL, "N": ROAD, "A": CLIMB_FILL, "D": DESCENT_FILL, "F": colors.white}

SQUARE_W = 11 * mm
LANE_H = 7 * mm
TEXT_WIDTH = 170 * mm  # the rule sheet's column is a little wider; pictures stay inside it


@dataclass(frozen=True)
class Rider:
    """A rider drawn on the road: square (1-based), lane ('right' or 'left'), team colour, type."""

    square: int
    lane: str
    team: str
    rider: str
    mark: bool = False  # highlighted: the rider the picture is about


class Road:
    """A straight stretch of squares `first`..`first + len(codes) - 1` with their terrain."""

    def __init__(self, content, codes: str, first: int = 1, square_w: float = SQUARE_W):
        self.content = content
        self.codes = codes
        self.first = first
        self.square_w = square_w

    @property
    def width(self) -> float:
        return len(self.codes) * self.square_w

    @property
    def height(self) -> float:
        return 2 * LANE_H

    def x_of(self, square: int) -> float:
        """Left edge of a square."""
        return (square - self.first) * self.square_w

    def centre(self, square: int, lane: str) -> tuple[float, float]:
        y = LANE_H / 2 if lane == "right" else LANE_H * 1.5
        return self.x_of(square) + self.square_w / 2, y

    def draw(self, c, x: float, y: float, riders: list[Rider], lang: str, numbers: bool = True) -> None:
        c.saveState()
        c.translate(x, y)
        for k, code in enumerate(self.codes):
            left = k * self.square_w
            c.setFillColor(TERRAIN_FILL[code])
            c.rect(left, 0, self.square_w, self.height, stroke=0, fill=1)
            if code == "F":
                _checker(c, left, 0, self.square_w, self.height)
            if code in "AD":
                _chevrons(c, left, self.height, self.square_w, code)
        c.setStrokeColor(ROAD_LINE)
        c.setLineWidth(0.8)
        for k in range(1, len(self.codes)):
            c.line(k * self.square_w, 0, k * self.square_w, self.height)
        c.setDash(2, 2)
        c.line(0, LANE_H, self.width, LANE_H)
        c.setDash()
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.5)
        c.rect(0, 0, self.width, self.height, stroke=1, fill=0)
        if numbers:
            # Under a road with hills the numbers sit below the chevrons of its lower edge.
            below = -4.9 * mm if any(code in "AD" for code in self.codes) else -3.2 * mm
            c.setFillColor(MUTED)
            c.setFont(SANS_BOLD, 6.5)
            for k in range(len(self.codes)):
                c.drawCentredString(k * self.square_w + self.square_w / 2, below, str(self.first + k))
        for rider in riders:
            cx, cy = self.centre(rider.square, rider.lane)
            draw_rider_disc(c, self.content, cx, cy, rider)
        c.restoreState()


def _checker(c, x, y, w, h) -> None:
    """Finish squares: a chequered flag pattern."""
    size = h / 4
    c.setFillColor(colors.HexColor("#9e9e9e"))
    for i in range(int(round(w / size))):
        for j in range(4):
            if (i + j) % 2 == 0:
                c.rect(x + i * size, y + j * size, size, size, stroke=0, fill=1)


def _chevrons(c, x: float, top: float, w: float, code: str) -> None:
    """The edge marks of climbs (red, pointing back) and descents (blue, pointing on)."""
    c.saveState()
    c.setStrokeColor(CLIMB if code == "A" else DESCENT)
    c.setLineWidth(0.9)
    step = w / 3
    for i in range(3):
        cx = x + step * (i + 0.5)
        d = step * 0.25 if code == "D" else -step * 0.25
        for edge in (top + 1.3 * mm, -1.3 * mm):
            c.line(cx - d, edge + 0.9 * mm, cx + d, edge)
            c.line(cx + d, edge, cx - d, edge - 0.9 * mm)
    c.restoreState()


def draw_rider_disc(c, content, cx: float, cy: float, rider: Rider, radius: float = 2.8 * mm) -> None:
    """A rider as on the printed counters: team colour, white R or S; a ring when highlighted."""
    colour = team_colour(content, rider.team)
    c.saveState()
    if rider.mark:
        c.setStrokeColor(MOVE)
        c.setLineWidth(1.2)
        c.circle(cx, cy, radius + 0.9 * mm, stroke=1, fill=0)
    c.setFillColor(colour)
    c.setStrokeColor(colors.white)
    c.setLineWidth(0.6)
    c.circle(cx, cy, radius, stroke=1, fill=1)
    c.setFillColor(colors.white)
    c.setFont(SANS_BOLD, 7.5)
    c.drawCentredString(cx, cy - 2.6, rider.rider[0].upper())
    c.restoreState()


def _label(c, x, y, text, lang, size=8, colour=MUTED, bold=False, align="centre") -> None:
    c.setFillColor(colour)
    c.setFont(font_for(lang, bold=bold), size)
    {"centre": c.drawCentredString, "left": c.drawString, "right": c.drawRightString}[align](x, y, text)


def _hop(c, x1: float, x2: float, y: float, rise: float, colour=MOVE, dashed: bool = False) -> None:
    """A curved arrow above the road from x1 to x2, for a move."""
    c.saveState()
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(1.0)
    if dashed:
        c.setDash(2.5, 1.8)
    path = c.beginPath()
    path.moveTo(x1, y)
    path.curveTo(x1, y + rise, x2, y + rise, x2, y + 1.2 * mm)
    c.drawPath(path, stroke=1, fill=0)
    c.setDash()
    head = c.beginPath()
    head.moveTo(x2, y)
    head.lineTo(x2 - 1.1 * mm, y + 2.2 * mm)
    head.lineTo(x2 + 1.1 * mm, y + 2.2 * mm)
    head.close()
    c.drawPath(head, stroke=0, fill=1)
    c.restoreState()


def _cross(c, x: float, y: float, size: float = 2.2 * mm) -> None:
    c.saveState()
    c.setStrokeColor(MOVE)
    c.setLineWidth(1.4)
    c.line(x - size, y - size, x + size, y + size)
    c.line(x - size, y + size, x + size, y - size)
    c.restoreState()


def _before_after(content, lang, road: Road, before: list[Rider], after: list[Rider], annotate_before=None,
                  annotate_after=None, gap: float = 16 * mm) -> Picture:
    """Two copies of the road, one above the other, headed 'before' and 'after'."""
    label_w = 16 * mm
    width = label_w + road.width + 2 * mm
    height = 2 * road.height + gap + 20 * mm

    def paint(c):
        upper_y = height - road.height - 9 * mm
        lower_y = upper_y - road.height - gap
        for y, riders, key, extra in ((upper_y, before, "before", annotate_before),
                                      (lower_y, after, "after", annotate_after)):
            _label(c, label_w - 3 * mm, y + road.height / 2 - 1 * mm, term(content, key, lang), lang, size=8.5,
                   colour=INK, bold=True, align="right")
            road.draw(c, label_w, y, riders, lang)
            if extra is not None:
                c.saveState()
                c.translate(label_w, y)
                extra(c)
                c.restoreState()

    return Picture(width, height, paint)


# --- the rule pictures ---------------------------------------------------------------------------

def slipstream_diagram(content, lang):
    """The rear rider is one square behind a pair: it moves up; the new group is again one square
    behind the leader and moves up as a whole."""
    road = Road(content, "NNNNNNNNNNN")
    before = [Rider(2, "right", "red", "sprinteur", True), Rider(4, "right", "green", "rouleur", True),
              Rider(4, "left", "blue", "rouleur", True), Rider(6, "right", "red", "rouleur")]
    after = [Rider(4, "right", "red", "sprinteur", True), Rider(5, "right", "green", "rouleur", True),
             Rider(5, "left", "blue", "rouleur", True), Rider(6, "right", "red", "rouleur")]

    def arrows(c):
        top = road.height + 1 * mm
        for start, end, rise in ((2, 3, 5 * mm), (3, 4, 7 * mm), (4, 5, 5 * mm)):
            _hop(c, road.centre(start, "left")[0], road.centre(end, "left")[0], top, rise)
        _label(c, road.x_of(8), top + 1 * mm, term(content, "slipstream", lang), lang, size=8, colour=MOVE,
               bold=True, align="left")

    def note(c):
        x = road.centre(6, "right")[0]
        draw_drop(c, x, road.height + 4 * mm, 4.5 * mm, SWEAT)
        _label(c, x + 4 * mm, road.height + 2.5 * mm, term(content, "exhaustion", lang), lang, size=7.5,
               align="left")

    return _before_after(content, lang, road, before, after, annotate_before=arrows, annotate_after=note)


def exhaustion_diagram(content, lang):
    """After slipstream: riders with an empty square right in front take an exhaustion card;
    a square with one lane taken in front is cover enough."""
    road = Road(content, "NNNNNNNNNNN")
    riders = [Rider(2, "right", "blue", "sprinteur"), Rider(3, "right", "green", "sprinteur", True),
              Rider(3, "left", "black", "rouleur", True), Rider(7, "right", "red", "rouleur", True),
              Rider(6, "right", "blue", "rouleur")]
    label_w = 4 * mm
    width = road.width + 2 * label_w
    height = road.height + 24 * mm

    def paint(c):
        base = 7 * mm
        road.draw(c, label_w, base, riders, lang)
        for rider in riders:
            if rider.mark:
                x, _ = road.centre(rider.square, rider.lane)
                y = base + road.height + (3 * mm if rider.lane == "left" or rider.square != 3 else 3 * mm)
                draw_drop(c, label_w + x + (3.5 * mm if rider.lane == "left" else -0.5 * mm), y + 2.5 * mm,
                          5 * mm, SWEAT)
        # Square 8 and square 4 lie empty: the riders behind them tire.
        for square in (4, 8):
            x = label_w + road.x_of(square) + road.square_w / 2
            _label(c, x, base + road.height / 2 - 1 * mm, term(content, "empty", lang), lang, size=6.5)
        _label(c, label_w + road.width / 2, base + road.height + 12 * mm,
               term(content, "exhaustion-card", lang), lang, size=8, colour=INK, bold=True)

    return Picture(width, height, paint)


def blocking_diagram(content, lang):
    """A rider aims at a full square and stops in the nearest free lane behind it."""
    road = Road(content, "NNNNNNNNNNN")
    before = [Rider(2, "right", "blue", "rouleur", True), Rider(7, "right", "red", "rouleur"),
              Rider(7, "left", "red", "sprinteur"), Rider(6, "right", "green", "sprinteur")]
    after = [Rider(6, "left", "blue", "rouleur", True), Rider(7, "right", "red", "rouleur"),
             Rider(7, "left", "red", "sprinteur"), Rider(6, "right", "green", "sprinteur")]

    def arrows(c):
        top = road.height + 1 * mm
        start = road.centre(2, "left")[0]
        _hop(c, start, road.centre(7, "left")[0], top, 9 * mm, dashed=True)
        _cross(c, road.centre(7, "left")[0], top + 5.5 * mm)
        _label(c, road.x_of(7) + road.square_w + 1 * mm, top + 1 * mm, term(content, "full", lang),
               lang, size=8, colour=MOVE, bold=True, align="left")

    def result(c):
        top = road.height + 1 * mm
        _hop(c, road.centre(2, "left")[0], road.centre(6, "left")[0], top, 7 * mm)
        _label(c, road.x_of(7) + 1 * mm, top + 1 * mm, term(content, "nearest-free-lane", lang), lang,
               size=8, colour=MOVE, bold=True, align="left")

    return _before_after(content, lang, road, before, after, annotate_before=arrows, annotate_after=result)


# The road of the climb picture and its two cases: start square, card, where the rider ends (as the
# engine moves it; a test replays both), and the term with the caption.
CLIMB_ROAD = "NNNNNNNAAAANNN"
CLIMB_CASES = (
    (1, 9, 7, "climb-late"),
    (5, 7, 10, "climb-early"),
)


def climb_diagram(content, lang):
    """Both cases of the climb rule. Above, a 9 whose 7th step would enter the climb: the rider
    stops on the last square before it. Below, a 7 whose 3rd step enters the climb: it counts as 5
    and the rider ends on the climb."""
    road = Road(content, CLIMB_ROAD)
    label_w = 4 * mm
    row_h = road.height + 19 * mm
    width = road.width + 2 * label_w
    height = 2 * row_h
    cases = CLIMB_CASES

    def paint(c):
        for row, (start, card, end, key) in enumerate(cases):
            base = height - (row + 1) * row_h + 10 * mm
            rider = Rider(end, "right", ("green", "black")[row], ("sprinteur", "rouleur")[row], True)
            road.draw(c, label_w, base, [rider], lang)
            c.saveState()
            c.translate(label_w, base)
            top = road.height + 1 * mm
            full = min(start + card, len(road.codes))
            _hop(c, road.centre(start, "left")[0], road.centre(full, "left")[0], top, 9 * mm, dashed=True)
            _cross(c, road.centre(full, "left")[0], top + 5.7 * mm)
            _hop(c, road.centre(start, "left")[0], road.centre(end, "left")[0], top, 6 * mm)
            x, y = road.centre(start, "right")
            c.setStrokeColor(MUTED)
            c.setDash(1.2, 1.2)
            c.circle(x, y, 2.8 * mm, stroke=1, fill=0)  # where the rider started
            c.setDash()
            # The caption sits under the square numbers, clear of the arrows and chevrons.
            _label(c, 0, -9 * mm, term(content, key, lang), lang, size=8.5, colour=MOVE, bold=True, align="left")
            c.restoreState()

    return Picture(width, height, paint)


def card_anatomy_diagram(content, lang):
    """An energy card and an exhaustion card, each with its parts named beside it."""
    from cardgen.games.flamme_rouge import faces
    from cardgen.layout import Rect

    scale = 0.62
    card_w, card_h = 63 * mm, 88 * mm
    gap, label_w = 3 * mm, 42 * mm
    width = 2 * (card_w * scale + gap + label_w)
    height = card_h * scale + 6 * mm
    energy = next(card for card in content.cards if card["deck"] == "energy-sprinteur" and card["value"] == 9)
    tired = next(card for card in content.cards if card["deck"] == "exhaustion-sprinteur")
    # (card, [(term, height on the card in mm from its foot, x on the card in mm)])
    # (card, [(term, the point on the card in mm (x, y from its foot), height of the label in mm)])
    plans = (
        (energy, [("anatomy-rider", (40, 77), 77), ("anatomy-value", (40, 45), 50), ("anatomy-team", (52, 6), 26),
                  ("anatomy-corner", (8, 8), 6)]),
        (tired, [("anatomy-exhaustion", (50, 77), 77), ("anatomy-exhaustion-value", (40, 35), 45),
                 ("anatomy-exhaustion-rider", (52, 6), 10)]),
    )

    def paint(c):
        for k, (card, marks) in enumerate(plans):
            left = k * (card_w * scale + gap + label_w)
            c.saveState()
            c.translate(left, 3 * mm)
            c.scale(scale, scale)
            faces.draw_face(c, content, {**card, "copy": 1}, Rect(0, 0, card_w, card_h), 0)
            c.setStrokeColor(MUTED)
            c.setLineWidth(0.4 / scale)
            c.rect(0, 0, card_w, card_h, stroke=1, fill=0)
            c.restoreState()
            text_x = left + card_w * scale + gap
            for key, (at_x, at_y), label_y in marks:
                x, y = left + at_x * mm * scale, 3 * mm + at_y * mm * scale
                ly = 3 * mm + label_y * mm * scale
                c.setStrokeColor(MOVE)
                c.setFillColor(MOVE)
                c.setLineWidth(0.6)
                c.circle(x, y, 0.8 * mm, stroke=0, fill=1)
                c.line(x, y, text_x - 3 * mm, ly)
                c.line(text_x - 3 * mm, ly, text_x - 1 * mm, ly)
                _label(c, text_x, ly - 1 * mm, term(content, key, lang), lang, size=8, colour=INK, align="left")

    return Picture(width, height, paint)


def player_board_diagram(content, lang):
    """A team's player board, small: the sprinteur deck on the left, the rouleur deck on the right."""
    from cardgen.games.flamme_rouge import boards
    from cardgen.layout import Rect, Slot

    scale = 0.42
    w, h = boards.BOARD_W_MM * mm, boards.BOARD_H_MM * mm
    width, height = w * scale, h * scale

    def paint(c):
        c.saveState()
        c.scale(scale, scale)
        boards.draw_board(c, content, "red", Slot(Rect(0, 0, w, h), Rect(0, 0, w, h)))
        c.restoreState()
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.5)
        c.rect(0, 0, width, height, stroke=1, fill=0)

    return Picture(width, height, paint)


def start_diagram(content, lang):
    """The start tile: riders take the squares behind the start line, lone riders on the right."""
    road = Road(content, "SSSSSNNN")
    riders = [Rider(5, "right", "green", "sprinteur"), Rider(5, "left", "red", "rouleur"),
              Rider(4, "right", "blue", "rouleur"), Rider(4, "left", "green", "rouleur"),
              Rider(3, "right", "red", "sprinteur"), Rider(2, "right", "blue", "sprinteur")]
    width = road.width + 8 * mm
    height = road.height + 18 * mm

    def paint(c):
        base = 7 * mm
        road.draw(c, 4 * mm, base, riders, lang)
        line_x = 4 * mm + road.x_of(6)
        c.setStrokeColor(INK)
        c.setLineWidth(1.6)
        c.line(line_x, base - 1 * mm, line_x, base + road.height + 1 * mm)
        _label(c, line_x, base + road.height + 3 * mm, term(content, "start-line", lang), lang, size=8,
               colour=INK, bold=True)
        arrow_y = base + road.height + 4 * mm
        c.setStrokeColor(MOVE)
        c.setLineWidth(1.2)
        c.line(4 * mm + road.x_of(7), arrow_y, 4 * mm + road.x_of(9) - 2 * mm, arrow_y)
        head = c.beginPath()
        head.moveTo(4 * mm + road.x_of(9), arrow_y)
        head.lineTo(4 * mm + road.x_of(9) - 2.4 * mm, arrow_y + 1.2 * mm)
        head.lineTo(4 * mm + road.x_of(9) - 2.4 * mm, arrow_y - 1.2 * mm)
        head.close()
        c.setFillColor(MOVE)
        c.drawPath(head, stroke=0, fill=1)

    return Picture(width, height, paint)


def first_stage_diagram(content, lang):
    """The suggested first course, as on its stage card, with its tiles in laying order."""
    stage = content.files["stages"]["stages"][0]
    width, height = 150 * mm, 78 * mm

    def paint(c):
        from cardgen.games.flamme_rouge.tiles import draw_tile_letter

        draw_stage_map(c, content, stage["id"], 0, 12 * mm, width, height - 14 * mm)
        letters = stage["course"].split()
        name = stage["name"][lang] + ("：" if lang.startswith("zh") else ":")
        _label(c, 0, 3 * mm, name, lang, size=8.5, colour=INK, bold=True, align="left")
        pitch = 5.4 * mm
        first = width - pitch * len(letters) + pitch / 2
        for k, letter in enumerate(letters):
            draw_tile_letter(c, letter, first + k * pitch, 4.2 * mm, 2.4 * mm, 8)

    return Picture(width, height, paint)


DIAGRAMS = {
    "start": start_diagram,
    "first-stage": first_stage_diagram,
    "slipstream": slipstream_diagram,
    "exhaustion": exhaustion_diagram,
    "blocking": blocking_diagram,
    "climb": climb_diagram,
    "card-anatomy": card_anatomy_diagram,
    "player-board": player_board_diagram,
}


# --- worked examples -----------------------------------------------------------------------------

def _example_codes(content, data: dict) -> str:
    params = data.get("params", {})
    if "course" in params:
        return "".join(params["course"].split())
    from cardgen.games.flamme_rouge.course import stage_squares

    return "".join(stage_squares(content, params.get("stage", content.files["stages"]["stages"][0]["id"])))


def _riders_of(fields: dict) -> list[Rider]:
    riders = []
    for key, where in sorted(fields.items()):
        if key.startswith("rider.") and where:
            _, player, rider = key.split(".")
            seat = int(player[1:]) - 1
            riders.append(Rider(where[0], where[1], SEATS[seat % len(SEATS)], rider))
    return riders


def _movement_only(content):
    """The engine with every round's end phase held back (no slipstream, no exhaustion), so a
    replay stops where the riders stand right after movement."""
    from verify.games.flamme_rouge.rules import FlammeRouge, FlammeRougeState

    class MovementOnlyState(FlammeRougeState):
        __slots__ = ()

        def _slipstream(self):
            pass

        def _exhaust(self):
            pass

    class MovementOnly(FlammeRouge):
        def new_state(self, *args, **kwargs):
            state = super().new_state(*args, **kwargs)
            state.__class__ = MovementOnlyState
            return state

    return MovementOnly(content)


def after_movement(content, example) -> dict | None:
    """The position right after the movement phase of the example's last step, played by the
    engine with that round's end phase held back; None when the end phase moves nobody (or the
    race ended with the movement), so the picture needs no row of its own for it."""
    from verify.scenario import run_scenario

    last = example.steps[1]
    # The replay's own checks fail after the narrated steps (they expect the end phase); only
    # the position right after the last narrated step is read.
    replay = run_scenario(example.path, _movement_only(content), record=True)
    # Held back in an earlier round too, the replay would part from the game before the last step.
    if len(replay.positions) <= last or replay.positions[last - 1] != example.at(last - 1):
        return None
    moved = replay.positions[last]
    if _riders_of(moved) == _riders_of(example.after):
        return None
    return moved


def _legend(content, lang, players: list[str], stage: str | None) -> tuple[list, float]:
    """The key under an example: each player's team colour, R and S, and the course if it is a
    stage; drawn as (x, text or colour) runs, with its width."""
    runs, x = [], 0.0
    gap = 2.5 * mm
    if stage is not None:
        name = next(s["name"][lang] for s in content.files["stages"]["stages"] if s["id"] == stage)
        runs.append((x, "text", name))
        x += _text_width(name, lang) + 2 * gap
    for seat, player in enumerate(players):
        runs.append((x, "disc", SEATS[seat % len(SEATS)]))
        runs.append((x + 3.2 * mm, "text", player))
        x += 3.2 * mm + _text_width(player, lang) + gap
    for letter, key in (("R", "rouleur"), ("S", "sprinteur")):
        label = f"{letter} {term(content, key, lang)}"
        runs.append((x + gap, "text", label))
        x += gap + _text_width(label, lang) + gap
    return runs, x


def _text_width(text: str, lang: str, size: float = 8) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font_for(lang), size)


def example_diagram(content, lang, example):
    """The road around the riders right before and right after the steps an example narrates, and
    between them, where the end phase moves riders, the road right after movement; riders that
    moved are ringed. A key names the players' colours and the rider types (and the stage)."""
    codes = _example_codes(content, example.data)
    middle = after_movement(content, example)
    rows = [("before", example.before)] + ([("after-movement", middle)] if middle else []) + [("after", example.after)]
    riders = [_riders_of(fields) for _, fields in rows]
    squares = [r.square for row in riders for r in row]
    first = max(1, min(squares) - 1)
    last = min(len(codes), max(squares) + 1)
    window = codes[first - 1:last]
    label_w = 24 * mm
    square_w = min(SQUARE_W, (TEXT_WIDTH - label_w - 4 * mm) / len(window))
    road = Road(content, window, first, square_w)
    marked = [riders[0]]
    for earlier, row in zip(riders, riders[1:]):
        moved = {(r.team, r.rider) for r in row} - {(r.team, r.rider) for r in row if r in earlier}
        marked.append([Rider(r.square, r.lane, r.team, r.rider, (r.team, r.rider) in moved) for r in row])
    players = sorted({key.split(".")[1] for key in example.before if key.startswith("rider.")}, key=lambda p: int(p[1:]))
    stage = example.data.get("params", {}).get("stage")
    runs, legend_w = _legend(content, lang, players, stage)
    row_h = road.height + 9 * mm
    width = max(label_w + road.width + 2 * mm, legend_w)
    height = len(rows) * row_h + 9 * mm

    def paint(c):
        for k, ((key, _), row) in enumerate(zip(rows, marked)):
            y = height - (k + 1) * row_h
            _label(c, label_w - 3 * mm, y + road.height / 2 - 1 * mm, term(content, key, lang), lang, size=8.5,
                   colour=INK, bold=True, align="right")
            road.draw(c, label_w, y, row, lang)
        for x, kind, value in runs:
            if kind == "disc":
                draw_rider_disc(c, content, x + 1.4 * mm, 2.4 * mm, Rider(0, "right", value, " "), radius=1.6 * mm)
            else:
                _label(c, x, 1.4 * mm, value, lang, size=8, colour=INK, align="left")

    return Picture(width, height, paint)


EXAMPLE_DIAGRAM = example_diagram


# --- the odds table ------------------------------------------------------------------------------

def odds_part(content, lang, styles):
    """Exact odds of the decks, computed by the engine package, as a table."""
    rows = exact_odds(content)
    header = [term(content, key, lang) for key in ("deck", "mean", "chance-9-or-7")]
    body_style = styles.small
    data = [[para(bold(h), body_style) for h in header]]
    for row in rows:
        data.append([para(str(cell), body_style) for cell in _odds_cells(content, lang, row)])
    table = Table(data, colWidths=[70 * mm, 40 * mm, 50 * mm], hAlign="LEFT")
    table.setStyle(TableStyle([
        # Tables set their own cell font even around paragraphs; an embedded one keeps Helvetica out.
        ("FONTNAME", (0, 0), (-1, -1), font_for(lang)),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, styles.accent),
        ("LINEBELOW", (0, 1), (-1, -2), 0.3, colors.HexColor("#c8c8c8")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ]))
    return [table, Spacer(1, 4)]


def _odds_cells(content, lang, row: dict) -> list[str]:
    """Deck name and size, the mean card and the chance of a top card, each exact and rounded."""
    from cardgen.games.flamme_rouge.faces import rider_label

    zh = lang.startswith("zh")
    unit = term(content, "cards-unit", lang)
    name = rider_label(content, row["rider"], lang)
    deck = f"{name}（{row['cards']}{unit}）" if zh else f"{name} ({row['cards']} {unit})"
    mean = row["mean"]
    mean_text = str(mean) if mean.denominator == 1 else f"{mean.numerator}/{mean.denominator} = {float(mean):.2f}"
    chance = row["top_in_draw"]
    top = f"{row['top']}"
    chance_text = f"{chance.numerator}/{chance.denominator} ≈ {float(chance) * 100:.1f} %  ({top})"
    return [deck, mean_text, chance_text]


GENERATED = {"odds": odds_part}
