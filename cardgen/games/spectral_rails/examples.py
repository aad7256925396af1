"""The worked examples of the Spectral Rails rule sheet, each under the rule it shows.

An example is a scenario replayed when the sheet is built (`cardgen.rulesheet.worked_example`);
its words are the terms `example-<scenario>` and `example-<scenario>-title` of rules.yaml, and the
scenario's `example: {steps: ...}` names the steps those words narrate. The picture shows the
position right before and right after those steps, drawn from the replayed positions themselves:
the ring of six towns with the souls waiting by each town, trail on the spaces and each train
inside its town's circle, and under it, for every player the text speaks of, a small mat (six
seats, the two halves of delivered souls), coins, trail left in the supply, and the hand, the row
of used cards and the bid.

Geometry first: `scene()` lists every item a view draws, with its box (pure numbers, so tests can
check that a train stands inside its town, that every soul named is drawn and that no label is
cut short); `paint()` only draws a scene.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import cos, pi, sin

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether

from cardgen.diagrams import Picture
from cardgen.games.spectral_rails.art import (BLUE_START, DARK_SOUL, GOLD, INK, RED_START, LIGHT_SOUL, PAPER, RAIL, colour_of, font,
                                              ghost_train, letter_of, term, trail_piece)
from cardgen.markup import para, plain
from cardgen.pdfdoc import SANS_BOLD, mm

MUTED = HexColor("#616161")
COLOURS = ("green", "purple", "orange", "grey")
REGION_TINT = {"hills": HexColor("#e9dcc0"), "flats": HexColor("#d7e4cf")}

VIEW_W = 85 * mm  # one position: the ring and the players under it
VIEW_GAP = 4 * mm
RING_R = 17 * mm
TOWN_R = 4.8 * mm
SPACE = 3.4 * mm
SOUL = 3.4 * mm
# The ring lies flat-topped (towns at 120, 60, 0 ... degrees), a little lower than it is wide.
RING_H = 2 * (RING_R * sin(pi / 3) + TOWN_R) + 2.5 * mm
PANEL_H = 13 * mm
CARD_W, CARD_H, CARD_GAP = 3.1 * mm, 4.0 * mm, 0.4 * mm
LINE_GAP = 0.6 * mm
MIN_LABEL = 5.0  # points: labels shrink to this size, then wrap

# --- the examples and the sections they stand in --------------------------------------------------

# Generated part -> the scenarios it shows, in order. Each scenario's `example.steps` names the steps.
EXAMPLES = {
    "example-setup": ("setup-souls-and-start-towns",),
    "example-turn": ("boarding-and-delivery",),
    "example-boarding": ("fourth-soul-cost",),
    "example-trail": ("second-card-costs-a-coin", "own-trail-blocks", "ruling-ride-others-trail", "coin-move"),
    "example-take-back": ("removal-ends-the-turn",),
    "example-passing": ("passing", "round-end-recovery"),
    "example-auction": ("auction",),
    "example-second-half": ("second-half",),
    "example-scoring": ("scoring",),
}

# The kinds of pieces the pictures name in words (the terms of rules.yaml), as the examples name them.
KIND_TERMS = ("zone-coins", "label-mat", "wreck-markers")

# What each example's picture shows beyond the ring: the players the text speaks of, and whether
# the ring is drawn at all (the scoring example is about the mats only).
SHOWN = {
    "setup-souls-and-start-towns": {"players": (), "ring": True},
    "boarding-and-delivery": {"players": ("P1",)},
    "fourth-soul-cost": {"players": ("P1",)},
    "second-card-costs-a-coin": {"players": ("P2",)},
    "own-trail-blocks": {"players": ("P1",)},
    "ruling-ride-others-trail": {"players": ("P1",)},
    "coin-move": {"players": ("P1",)},
    "removal-ends-the-turn": {"players": ("P1",)},
    "passing": {"players": ("P3",)},
    "round-end-recovery": {"players": ("P1",)},
    "auction": {"players": ("P1", "P2")},
    "second-half": {"players": ("P1", "P2")},
    "scoring": {"players": ("P1", "P2", "P3"), "ring": False},
}


# --- the scene: what a view draws, and where ------------------------------------------------------

@dataclass(frozen=True)
class Item:
    """One thing drawn: `kind` (town, name, space, trail, train, soul, seat, half, card, coin,
    supply, player, label), `key` (a town, space, soul or card), `where` (the zone it shows:
    waiting.<town>, aboard.P1, delivered_one.P1, row.P1, hand.P1, bid.P1 ...), its box in points
    and, for a label, its text, font and size."""

    kind: str
    key: str
    x: float
    y: float
    w: float
    h: float
    where: str = ""
    owner: str = ""
    text: str = ""
    font: str = ""
    size: float = 0.0

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


@dataclass
class Scene:
    width: float
    height: float
    items: list[Item] = field(default_factory=list)

    def add(self, *args, **kwargs) -> Item:
        item = Item(*args, **kwargs)
        self.items.append(item)
        return item

    def of(self, kind: str) -> list[Item]:
        return [i for i in self.items if i.kind == kind]


def ring_map(example) -> dict:
    return example.data["setup"]["map"]


def town_name(content, town: str, lang: str) -> str:
    return term(content, f"town-{town}", lang)


def fit_label(scene: Scene, text: str, lang: str, x: float, y: float, width: float, size: float,
              bold: bool = False, align: str = "left", colour: str = "muted") -> list[Item]:
    """A label no wider than `width`: shrunk down to MIN_LABEL points, then wrapped onto more lines
    (at spaces, or between any two characters in Chinese). `y` is the first line's baseline."""
    face = font(lang, bold)
    while size > MIN_LABEL and stringWidth(text, face, size) > width:
        size -= 0.25
    lines = [text]
    if stringWidth(text, face, size) > width:
        lines, line = [], ""
        pieces = list(text) if lang.startswith("zh") else text.split(" ")
        joiner = "" if lang.startswith("zh") else " "
        for piece in pieces:
            trial = f"{line}{joiner}{piece}" if line else piece
            if line and stringWidth(trial, face, size) > width:
                lines.append(line)
                line = piece
            else:
                line = trial
        lines.append(line)
    items = []
    for k, line in enumerate(lines):
        w = stringWidth(line, face, size)
        left = {"left": x, "centre": x - w / 2, "right": x - w}[align]
        items.append(scene.add("label", colour, left, y - k * size * 1.15, w, size, text=line, font=face, size=size))
    return items


def _ring_points(towns: list[str], cx: float, cy: float) -> dict[str, tuple[float, float, float]]:
    n = len(towns)
    first = 2 * pi / 3 if n == 6 else pi / 2
    return {t: (cx + RING_R * cos(first - 2 * pi * k / n), cy + RING_R * sin(first - 2 * pi * k / n),
                first - 2 * pi * k / n) for k, t in enumerate(towns)}


def _players(fields: dict) -> list[str]:
    return sorted(fields["trains"])


def ring_items(scene: Scene, content, lang: str, data: dict, fields: dict, cx: float, cy: float) -> None:
    towns = [t["id"] for t in data["towns"]]
    regions = {t["id"]: t.get("region", "") for t in data["towns"]}
    points = _ring_points(towns, cx, cy)
    number = 0
    for route in data["routes"]:
        (ax, ay, _), (bx, by, _) = points[route["from"]][:3], points[route["to"]][:3]
        scene.add("route", f"{route['from']}-{route['to']}", ax, ay, bx - ax, by - ay)
        n = route["spaces"]
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        usable = length - 2 * TOWN_R
        for k in range(n):
            number += 1
            t = (TOWN_R + usable * (k + 0.5) / n) / length
            x, y = ax + (bx - ax) * t, ay + (by - ay) * t
            space = f"s{number}"
            scene.add("space", space, x - SPACE / 2, y - SPACE / 2, SPACE, SPACE)
            owner = fields["track"].get(space)
            if owner:
                scene.add("trail", space, x - SPACE * 0.42, y - SPACE * 0.42, SPACE * 0.84, SPACE * 0.84, owner=owner)
    for town, (x, y, angle) in points.items():
        start = "blue" if town in data.get("blue_starts", ()) else "red" if town in data.get("red_starts", ()) else ""
        scene.add("town", town, x - TOWN_R, y - TOWN_R, 2 * TOWN_R, 2 * TOWN_R, where=regions[town], text=start)
        scene.add("label", "ink", x - 3, y + TOWN_R * 0.35, 6, 5.5, text=town[0].upper(), font=SANS_BOLD, size=5.5)
        # The name beside the circle, on the outer side; top and bottom towns carry it to the right.
        name = town_name(content, town, lang)
        right = cos(angle) > 0.01 or abs(cos(angle)) <= 0.01
        room = VIEW_W / 2 - abs(x - cx) - TOWN_R - 1.5 * mm
        if right:
            fit_label(scene, name, lang, x + TOWN_R + 1 * mm, y - 2, room, 6.5, bold=True, colour="ink")
        else:
            fit_label(scene, name, lang, x - TOWN_R - 1 * mm, y - 2, room, 6.5, bold=True, colour="ink", align="right")
        # Souls waiting by the town sit on its inner side, towards the middle of the ring.
        waiting = fields.get(f"at.{town}", [])
        inner = RING_R - TOWN_R - SOUL / 2 - 1.6 * mm
        ix, iy = cx + inner * cos(angle), cy + inner * sin(angle)
        px, py = -sin(angle), cos(angle)
        for k, soul in enumerate(waiting):
            off = (k - (len(waiting) - 1) / 2) * (SOUL + 0.7 * mm)
            sx, sy = ix + px * off, iy + py * off
            scene.add("soul", soul, sx - SOUL / 2, sy - SOUL / 2, SOUL, SOUL, where=f"waiting.{town}")
        # Trains stand inside their town's circle, side by side below the town's letter.
        here = [p for p in _players(fields) if fields["trains"][p] == town]
        w = min(4.2 * mm, (2 * TOWN_R - 2.5 * mm) / max(1, len(here)))
        for k, player in enumerate(here):
            tx = x + (k - (len(here) - 1) / 2) * w
            scene.add("train", player, tx - w * 0.45, y - 2.8 * mm, w * 0.9, w * 0.9 * 0.7, where=town, owner=player)
    # Which train is whose: each player's name in the train's colour, along the ring's lower right edge.
    right = cx + VIEW_W / 2 - 1 * mm
    for player in reversed(_players(fields)):
        right -= fit_label(scene, player, lang, right, cy - RING_H / 2 + 1 * mm, 6 * mm, 6.5, bold=True,
                           align="right", colour=player)[0].w + 1.5 * mm
    round_track_items(scene, content, lang, fields, cx - VIEW_W / 2, cy + RING_H / 2)


def round_track_items(scene: Scene, content, lang: str, fields: dict, x0: float, top: float) -> None:
    """The round track in the view's upper left corner: three blue squares over three red ones,
    each holding its wreck marker until that round has been played."""
    box = 2.6 * mm
    left = list(fields.get("round_track", []))
    on = {"blue": left.count("wreck-blue"), "red": left.count("wreck-red")}
    for row, colour in enumerate(("blue", "red")):
        for k in range(3):
            x, y = x0 + 1 * mm + k * (box + 0.6 * mm), top - 1 * mm - (row + 1) * (box + 0.6 * mm)
            scene.add("track-box", f"{colour}-{k + 1}", x, y, box, box, where=colour)
            # markers leave from the left: the rightmost ones of a row are the rounds still to come
            if k >= 3 - on[colour]:
                scene.add("wreck", f"{colour}-{k + 1}", x + 0.4 * mm, y + 0.4 * mm, box - 0.8 * mm, box - 0.8 * mm,
                          where=colour)
    fit_label(scene, term(content, "round-track", lang), lang, x0 + 1 * mm, top - 2 * (box + 0.6 * mm) - 3.6 * mm,
              14 * mm, 5.5)
    # the markers are named beside the row they start on, as the text speaks of them
    fit_label(scene, term(content, "wreck-markers", lang), lang, x0 + 2 * mm + 3 * (box + 0.6 * mm),
              top - 1 * mm - (box + 0.6 * mm) + 0.6 * mm, 15 * mm, 5.5)


def panel_items(scene: Scene, content, lang: str, fields: dict, player: str, x0: float, y0: float,
                lines: tuple[str, ...]) -> None:
    """One player's table: name and train, a small mat (six seats over the two halves of delivered
    souls), coins and trail left in the supply, then the hand, the row and the bid as cards."""
    scene.add("player", player, x0, y0, VIEW_W, PANEL_H, owner=player)
    top = y0 + PANEL_H
    fit_label(scene, player, lang, x0, top - 3.2 * mm, 8 * mm, 7.5, bold=True, colour=player)
    scene.add("train", player, x0 + 0.3 * mm, top - 10.5 * mm, 6 * mm, 4.2 * mm, where="mat", owner=player)
    fit_label(scene, term(content, "label-mat", lang), lang, x0 + 7.5 * mm, top - PANEL_H + 0.6 * mm, 7.5 * mm, 5.5,
              align="right")
    # the mat
    seat = 3.9 * mm
    mx, mw, mh = x0 + 8 * mm, 6 * (seat + 0.8 * mm) + 1.2 * mm, PANEL_H - 1 * mm
    scene.add("mat", player, mx, top - mh, mw, mh, owner=player)
    for k in range(6):
        sx, sy = mx + 1 * mm + k * (seat + 0.8 * mm), top - 1 * mm - seat
        scene.add("seat", str(k + 1), sx, sy, seat, seat, owner=player, where="paid" if k >= 3 else "free")
    for k, soul in enumerate(fields.get(f"aboard.{player}", [])[:6]):
        sx, sy = mx + 1 * mm + k * (seat + 0.8 * mm) + (seat - SOUL) / 2, top - 1 * mm - seat + (seat - SOUL) / 2
        scene.add("soul", soul, sx, sy, SOUL, SOUL, where=f"aboard.{player}")
    half_w, half_h = (mw - 3 * mm) / 2, mh - seat - 2.6 * mm
    for k, zone in enumerate(("delivered_one", "delivered_two")):
        hx, hy = mx + 1 * mm + k * (half_w + 1 * mm), top - mh + 1 * mm
        scene.add("half", str(k + 1), hx, hy, half_w, half_h, owner=player)
        souls = fields.get(f"{zone}.{player}", [])
        step = min(SOUL + 0.5 * mm, (half_w - 4 * mm - SOUL) / max(1, len(souls) - 1)) if souls else 0
        for j, soul in enumerate(souls):
            scene.add("soul", soul, hx + 3.5 * mm + j * step, hy + (half_h - SOUL) / 2, SOUL, SOUL,
                      where=f"{zone}.{player}")
    # coins and supply, the coins named as the card lines under them are
    rx = mx + mw + 1.5 * mm
    label_w = 7.5 * mm
    fit_label(scene, term(content, "zone-coins", lang), lang, rx, top - 2.9 * mm, label_w - 0.5 * mm, 6)
    for k in range(len(fields.get(f"coins.{player}", []))):
        scene.add("coin", str(k + 1), rx + label_w + k * 3.8 * mm, top - 3.6 * mm, 3.2 * mm, 3.2 * mm, owner=player)
    sx = rx + label_w + 8 * mm
    scene.add("supply", str(fields[f"pieces.{player}"]), sx, top - 3.7 * mm, 3.4 * mm, 3.4 * mm, owner=player)
    fit_label(scene, f"× {fields[f'pieces.{player}']} {term(content, 'in-supply', lang)}", lang,
              sx + 4.2 * mm, top - 3.0 * mm, x0 + VIEW_W - sx - 4.2 * mm, 6)
    # cards: a word, then the cards in order (a row from its left end)
    y = top - 3.7 * mm
    for zone in lines:
        cards = fields.get(f"{zone}.{player}", [])
        y -= CARD_H + LINE_GAP
        fit_label(scene, term(content, f"zone-{zone}", lang), lang, rx, y + 1.3 * mm, label_w - 0.5 * mm, 6)
        room = x0 + VIEW_W - rx - label_w
        step = min(CARD_W + CARD_GAP, room / max(1, len(cards)))
        for k, card in enumerate(cards):
            scene.add("card", card, rx + label_w + k * step, y, CARD_W, CARD_H, where=f"{zone}.{player}", owner=player)


def _lines_for(example, player: str) -> tuple[str, ...]:
    """The card zones worth a line: those holding a card in one of the two views."""
    wanted = []
    for zone in ("hand", "row", "bid"):
        if any(view.get(f"{zone}.{player}") for view in (example.before, example.after)):
            wanted.append(zone)
    return tuple(wanted)


def views(example) -> list[tuple[str, dict]]:
    shown = SHOWN.get(example.path.stem, {})
    if shown.get("ring", True):
        return [("before", example.before), ("after", example.after)]
    return [("after", example.after)]


def scene(content, lang: str, example) -> Scene:
    """Every item of an example's picture: for each view (before, after) the ring and the panels."""
    shown = SHOWN.get(example.path.stem, {})
    players = shown.get("players", ())
    ring = shown.get("ring", True)
    lines = {p: _lines_for(example, p) for p in players}
    panels_h = sum(PANEL_H + max(0, len(lines[p]) - 2) * (CARD_H + LINE_GAP) + 1.5 * mm for p in players)
    # "before" and "after" stand in the ring's upper right corner (the round track has the left);
    # without a ring they head the view.
    title_h = 0 if ring else 5 * mm
    height = title_h + (RING_H if ring else 0) + panels_h
    shown_views = views(example)
    width = len(shown_views) * VIEW_W + (len(shown_views) - 1) * VIEW_GAP
    result = Scene(width, height)
    for k, (key, fields) in enumerate(shown_views):
        x0 = k * (VIEW_W + VIEW_GAP)
        if ring:
            fit_label(result, term(content, key, lang), lang, x0 + VIEW_W - 1 * mm, height - 3.5 * mm, 20 * mm, 8.5,
                      bold=True, align="right", colour="ink")
        else:
            fit_label(result, term(content, key, lang), lang, x0 + VIEW_W / 2, height - 3.5 * mm, VIEW_W, 8.5,
                      bold=True, align="centre", colour="ink")
        y = height - title_h
        if ring:
            ring_items(result, content, lang, ring_map(example), fields, x0 + VIEW_W / 2, y - RING_H / 2)
            y -= RING_H
        for player in players:
            extra = max(0, len(lines[player]) - 2) * (CARD_H + LINE_GAP)
            y -= PANEL_H + extra + 1.5 * mm
            panel_items(result, content, lang, fields, player, x0, y + extra, lines[player])
    return result


# --- painting -------------------------------------------------------------------------------------

def _player_colour(content, player: str):
    return colour_of(content, COLOURS[int(player[1:]) - 1])


def _soul_tile(c, item: Item) -> None:
    dark = item.key.startswith("d-")
    c.setFillColor(DARK_SOUL if dark else LIGHT_SOUL)
    c.setStrokeColor(INK)
    c.setLineWidth(0.4)
    c.roundRect(item.x, item.y, item.w, item.h, 0.5 * mm, stroke=1, fill=1)
    town = item.key[2:].rsplit("-", 1)[0] if dark else item.key[2:]
    c.setFillColor(HexColor("#ffffff") if dark else INK)
    c.setFont(SANS_BOLD, item.h * 0.62)
    c.drawCentredString(item.x + item.w / 2, item.y + item.h * 0.28, town[0].upper())


def paint(c, content, the_scene: Scene) -> None:
    for item in the_scene.items:
        if item.kind == "route":
            c.setStrokeColor(RAIL)
            c.setLineWidth(0.9)
            c.line(item.x, item.y, item.x + item.w, item.y + item.h)
    for item in the_scene.items:
        kind = item.kind
        if kind == "space":
            c.setFillColor(HexColor("#fffdf6"))
            c.setStrokeColor(RAIL)
            c.setLineWidth(0.6)
            c.roundRect(item.x, item.y, item.w, item.h, 0.8 * mm, stroke=1, fill=1)
        elif kind == "trail":
            colour = COLOURS[int(item.owner[1:]) - 1]
            trail_piece(c, item.x + item.w / 2, item.y + item.h / 2, item.w, colour_of(content, colour),
                        letter_of(content, colour))
        elif kind == "town":
            # A start town's circle is drawn in the colour of its mark: blue (first half), red (second).
            c.setFillColor(REGION_TINT.get(item.where, PAPER))
            c.setStrokeColor({"blue": BLUE_START, "red": RED_START}.get(item.text, INK))
            c.setLineWidth(1.6 if item.text else 0.9)
            c.circle(item.x + item.w / 2, item.y + item.h / 2, item.w / 2, stroke=1, fill=1)
        elif kind == "track-box":
            c.setFillColor(PAPER)
            c.setStrokeColor(BLUE_START if item.where == "blue" else RED_START)
            c.setLineWidth(0.6)
            c.rect(item.x, item.y, item.w, item.h, stroke=1, fill=1)
        elif kind == "wreck":
            colour = BLUE_START if item.where == "blue" else RED_START
            c.setFillColor(colour)
            c.setStrokeColor(INK)
            c.setLineWidth(0.3)
            c.rect(item.x, item.y, item.w, item.h, stroke=1, fill=1)
        elif kind == "train":
            ghost_train(c, item.x + item.w / 2, item.y + item.h / 2, item.w, _player_colour(content, item.owner), INK)
        elif kind == "soul":
            _soul_tile(c, item)
        elif kind == "mat":
            c.setFillColor(PAPER)
            c.setStrokeColor(_player_colour(content, item.owner))
            c.setLineWidth(1.2)
            c.roundRect(item.x, item.y, item.w, item.h, 1.2 * mm, stroke=1, fill=1)
        elif kind == "seat":
            c.setFillColor(HexColor("#ffffff"))
            c.setStrokeColor(_player_colour(content, item.owner))
            c.setLineWidth(0.6)
            if item.where == "paid":
                c.setDash(1.2, 1)
            c.rect(item.x, item.y, item.w, item.h, stroke=1, fill=1)
            c.setDash()
            c.setFillColor(HexColor("#bdbdbd"))
            c.setFont(SANS_BOLD, 6)
            c.drawCentredString(item.x + item.w / 2, item.y + 1.2, item.key)
        elif kind == "half":
            c.setFillColor(HexColor("#f1ead8"))
            c.setStrokeColor(INK)
            c.setLineWidth(0.4)
            c.roundRect(item.x, item.y, item.w, item.h, 0.8 * mm, stroke=1, fill=1)
            c.setFillColor(INK)
            c.setFont(SANS_BOLD, 8)
            c.drawString(item.x + 0.8 * mm, item.y + item.h / 2 - 2.8, item.key)
        elif kind == "coin":
            c.setFillColor(GOLD)
            c.setStrokeColor(INK)
            c.setLineWidth(0.4)
            c.circle(item.x + item.w / 2, item.y + item.h / 2, item.w / 2, stroke=1, fill=1)
        elif kind == "supply":
            colour = COLOURS[int(item.owner[1:]) - 1]
            trail_piece(c, item.x + item.w / 2, item.y + item.h / 2, item.w, colour_of(content, colour),
                        letter_of(content, colour))
        elif kind == "card":
            colour = _player_colour(content, item.owner)
            c.setFillColor(PAPER)
            c.setStrokeColor(colour)
            c.setLineWidth(0.7)
            c.roundRect(item.x, item.y, item.w, item.h, 0.5 * mm, stroke=1, fill=1)
            c.setFillColor(colour)
            c.setFont(SANS_BOLD, 7)
            c.drawCentredString(item.x + item.w / 2, item.y + item.h / 2 - 2.4, item.key[1:])
        elif kind == "label":
            colour = {"muted": MUTED, "ink": INK}.get(item.key)
            c.setFillColor(colour if colour is not None else _player_colour(content, item.key))
            c.setFont(item.font, item.size)
            c.drawString(item.x, item.y, item.text)


def example_picture(content, lang: str, example) -> Flowable:
    the_scene = scene(content, lang, example)
    return Picture(the_scene.width, the_scene.height, lambda c: paint(c, content, the_scene))


# --- the parts placed under the rules -------------------------------------------------------------

class FitPicture(Flowable):
    """A picture that may be drawn a little smaller (down to ExampleBlock.MIN_SCALE) to finish a
    page rather than leave its foot blank. Measured for a KeepTogether (which asks with an endless
    height), it gives its smallest height, so the group stays on the page when that fits."""

    def __init__(self, picture: Flowable):
        super().__init__()
        self.picture = picture
        self.scale = 1.0
        self.hAlign = "CENTER"

    def wrap(self, available_width, available_height):
        width, height = self.picture.wrap(available_width, available_height)
        if available_height >= 0xffffff:  # a KeepTogether measuring its contents
            self.scale = ExampleBlock.MIN_SCALE
        else:
            self.scale = 1.0 if available_height >= height else max(ExampleBlock.MIN_SCALE, available_height / height)
        self.width, self.height = width * self.scale, height * self.scale
        return self.width, self.height

    def getSpaceBefore(self):
        return self.picture.getSpaceBefore()

    def getSpaceAfter(self):
        return self.picture.getSpaceAfter()

    def draw(self):
        self.canv.saveState()
        self.canv.scale(self.scale, self.scale)
        self.picture.drawOn(self.canv, 0, 0)
        self.canv.restoreState()


class ExampleBlock(Flowable):
    """An example's title, words and picture, kept on one page. Where the page has not quite
    room for the picture at full size, the picture is drawn a little smaller (down to MIN_SCALE)
    rather than leaving the rest of the page blank; with less room the whole block moves on."""

    MIN_SCALE = 0.8

    def __init__(self, text: list[Flowable], picture: Flowable):
        super().__init__()
        self.text = text
        self.picture = picture
        self.scale = 1.0

    def _text_height(self, width: float) -> float:
        height = 0.0
        for k, flowable in enumerate(self.text):
            _, h = flowable.wrap(width, 10 ** 6)
            height += h + flowable.getSpaceAfter() + (flowable.getSpaceBefore() if k else 0)
        return height

    def wrap(self, available_width, available_height):
        self.width = available_width
        self._text_h = self._text_height(available_width)
        pw, ph = self.picture.wrap(available_width, available_height)
        room = available_height - self._text_h - self.picture.getSpaceBefore()
        self.scale = 1.0 if room >= ph else max(self.MIN_SCALE, room / ph)
        self.height = self._text_h + self.picture.getSpaceBefore() + ph * self.scale
        return self.width, self.height

    def split(self, available_width, available_height):
        return []  # never split: on a page with too little room the block starts the next page

    def getSpaceBefore(self):
        return self.text[0].getSpaceBefore() if self.text else 0

    def getSpaceAfter(self):
        return self.picture.getSpaceAfter()

    def draw(self):
        y = self.height
        for k, flowable in enumerate(self.text):
            _, h = flowable.wrap(self.width, 10 ** 6)
            y -= (flowable.getSpaceBefore() if k else 0) + h
            flowable.drawOn(self.canv, 0, y)
            y -= flowable.getSpaceAfter()
        pw, ph = self.picture.width * self.scale, self.picture.height * self.scale
        self.canv.saveState()
        self.canv.translate((self.width - pw) / 2, 0)
        self.canv.scale(self.scale, self.scale)
        self.picture.drawOn(self.canv, 0, 0)
        self.canv.restoreState()


def examples_part(stems):
    def part(content, lang, styles):
        from cardgen.rulesheet import body_flowables, example_beside_rule, tidy

        flowables = []
        for stem in stems:
            if not (content.root / "scenarios" / f"{stem}.yaml").is_file():
                continue  # a trimmed copy of the content without this scenario prints the rule alone
            words = tidy(term(content, f"example-{stem}", lang))
            example = example_beside_rule(content, stem, lang, words, example_picture)
            colon = "：" if lang.startswith("zh") else ": "
            title = f"{term(content, 'example', lang)}{colon}{term(content, f'example-{stem}-title', lang)}"
            text = []
            for flowable in body_flowables(words, styles):
                text += list(flowable._content) if isinstance(flowable, KeepTogether) else [flowable]
            flowables.append(ExampleBlock([para(plain(title), styles.h2)] + text, example_picture(content, lang, example)))
        return flowables

    return part


PARTS = {kind: examples_part(stems) for kind, stems in EXAMPLES.items()}
