"""Drawing one side of the Spectral Rails map board at full size (millimetres from the map's
lower-left corner, as in map.yaml), for printing in panels over several pages and for the
rule sheet's small maps.

Geometry first (`BoardLayout`: where every space, town, soul slot and the round track go on a
side, pure numbers), then `draw_board(canvas, ...)`, which only draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import atan2, cos, degrees, hypot, pi, sin

from reportlab.lib.colors import Color, HexColor

from cardgen.games.spectral_rails.art import (BLUE_START, INK, PAPER, RAIL, RED_START, SAND, ghost_train, region_shape,
                                              region_table, term)
from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, mm

TOWN_R = 11.0  # mm
SPACE = 16.0  # mm, the side of a track space (a trail piece is 14 mm)
SOUL = 20.0  # mm, the side of a soul slot (a soul tile is 18 mm)
TRACK_BOX = 19.0  # mm, a square of the round track (a wreck marker is 17 mm)
SIDE_MARGIN = 12.0  # mm of board kept around the outermost towns of a side


@dataclass(frozen=True)
class BoardLayout:
    side: dict
    width: float
    height: float
    offset: tuple[float, float]  # map mm -> board mm: board = map - offset
    towns: dict  # id -> (x, y) board mm
    spaces: dict  # space id -> (x, y, angle)
    routes: list  # (from, to, [space ids])
    soul_slots: dict  # town -> [(x, y), (x, y)]
    round_track: list  # [(x, y)] six squares, first half then second
    title_at: tuple[float, float]


def _routes(data: dict) -> list[tuple[str, str, list[str]]]:
    out, number = [], 0
    for route in data["routes"]:
        ids = [f"s{number + k}" for k in range(1, route["spaces"] + 1)]
        number += route["spaces"]
        out.append((route["from"], route["to"], ids))
    return out


def layout(content, side_id: str) -> BoardLayout:
    data = content.files["map"]
    side = next(s for s in data["sides"] if s["id"] == side_id)
    keep = {t["id"]: tuple(t["at"]) for t in data["towns"] if t["region"] in side["regions"]}
    xs = [p[0] for p in keep.values()]
    full_w, full_h = data["size_mm"]
    # A side without the westmost region is cut down to its own towns (and the round track).
    left = max(0.0, min(xs) - TOWN_R - SIDE_MARGIN - 75.0)
    offset = (left, 0.0)
    width, height = full_w - left, full_h
    towns = {t: (p[0] - left, p[1]) for t, p in keep.items()}
    routes, spaces = [], {}
    for a, b, ids in _routes(data):
        if a not in towns or b not in towns:
            continue
        (ax, ay), (bx, by) = towns[a], towns[b]
        length = hypot(bx - ax, by - ay)
        angle = atan2(by - ay, bx - ax)
        usable = length - 2 * (TOWN_R + 2)
        n = len(ids)
        for k, s in enumerate(ids):
            t = (TOWN_R + 2 + usable * (k + 0.5) / n) / length
            spaces[s] = (ax + (bx - ax) * t, ay + (by - ay) * t, angle)
        routes.append((a, b, ids))
    slots = {}
    for town, (x, y) in towns.items():
        angles = []
        for a, b, _ in routes:
            if town in (a, b):
                ox, oy = towns[b if town == a else a]
                angles.append(atan2(oy - y, ox - x))
        angles.sort()
        best, best_gap = pi / 2, -1.0
        for i, a in enumerate(angles):
            nxt = angles[(i + 1) % len(angles)] + (2 * pi if i == len(angles) - 1 else 0)
            if nxt - a > best_gap:
                best_gap, best = nxt - a, (a + nxt) / 2
        if not angles:
            best = -pi / 2
        cx, cy = x + cos(best) * (TOWN_R + SOUL * 0.9), y + sin(best) * (TOWN_R + SOUL * 0.9)
        px, py = -sin(best) * (SOUL / 2 + 1), cos(best) * (SOUL / 2 + 1)
        slots[town] = [(cx - px, cy - py), (cx + px, cy + py)]
    track = [(14 + TRACK_BOX / 2 + i * (TRACK_BOX + 3), 14 + TRACK_BOX * 1.5 + 4 - r * (TRACK_BOX + 4))
             for r in range(2) for i in range(3)]
    track = [(x + 14, y) for x, y in track]
    return BoardLayout(side, width, height, offset, towns, spaces, routes, slots, track, (width - 8, height - 10))


def _text(canvas, text: str, x: float, y: float, font: str, size: float, colour=INK) -> None:
    canvas.setFillColor(colour)
    canvas.setFont(font, size)
    canvas.drawCentredString(x, y, text)


def _tint(colour: Color, amount: float) -> Color:
    return Color(*(c + (1 - c) * amount for c in (colour.red, colour.green, colour.blue)))


def draw_board(canvas, content, side_id: str, scale: float = 1.0, labels: bool = True) -> None:
    """Draw a side of the board with its lower-left corner at (0, 0); 1 map mm is `scale` mm."""
    lay = layout(content, side_id)
    u = mm * scale
    regions = region_table(content)
    towns = {t["id"]: t for t in content.files["map"]["towns"]}
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(0, 0, lay.width * u, lay.height * u)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setFillColor(SAND)
    canvas.rect(0, 0, lay.width * u, lay.height * u, stroke=0, fill=1)
    # regions: soft discs of the region colour around its towns
    for town, (x, y) in lay.towns.items():
        canvas.setFillColor(_tint(HexColor(regions[towns[town]["region"]]["colour"]), 0.6))
        canvas.circle(x * u, y * u, 46 * u, stroke=0, fill=1)
    # routes and spaces
    canvas.setStrokeColor(RAIL)
    canvas.setLineWidth(2.2 * scale)
    for a, b, _ in lay.routes:
        (ax, ay), (bx, by) = lay.towns[a], lay.towns[b]
        canvas.line(ax * u, ay * u, bx * u, by * u)
    for s, (x, y, angle) in lay.spaces.items():
        canvas.saveState()
        canvas.translate(x * u, y * u)
        canvas.rotate(degrees(angle))
        canvas.setFillColor(HexColor("#fffdf6"))
        canvas.setStrokeColor(RAIL)
        canvas.setLineWidth(1.2 * scale)
        canvas.roundRect(-SPACE / 2 * u, -SPACE / 2 * u, SPACE * u, SPACE * u, 2.5 * u, stroke=1, fill=1)
        canvas.restoreState()
        if labels:
            _text(canvas, s, x * u, (y - 1.6) * u, SANS, 8 * scale, HexColor("#9a8b78"))
    # soul slots
    canvas.setDash(2 * scale, 2 * scale)
    canvas.setLineWidth(0.8 * scale)
    canvas.setStrokeColor(HexColor("#6d5f4f"))
    for town, slots in lay.soul_slots.items():
        for x, y in slots:
            canvas.setFillColor(HexColor("#f7efdc"))
            canvas.rect((x - SOUL / 2) * u, (y - SOUL / 2) * u, SOUL * u, SOUL * u, stroke=1, fill=1)
    canvas.setDash()
    # towns
    side = lay.side
    for town, (x, y) in lay.towns.items():
        region = regions[towns[town]["region"]]
        colour = HexColor(region["colour"])
        canvas.setFillColor(PAPER)
        canvas.setStrokeColor(colour)
        canvas.setLineWidth(2.5 * scale)
        canvas.circle(x * u, y * u, TOWN_R * u, stroke=1, fill=1)
        canvas.setFillColor(colour)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.5 * scale)
        region_shape(canvas, region["shape"], x * u, (y + 3) * u, 4.2 * u)
        _text(canvas, region["letter"], x * u, (y - 6.5) * u, SANS_BOLD, 8 * scale)
        name = towns[town]["name"]
        _text(canvas, name["en"], x * u, (y - TOWN_R - 4.5) * u, SANS_BOLD, 9 * scale)
        _text(canvas, name["zh-Hant"], x * u, (y - TOWN_R - 8.5) * u, CJK, 8 * scale)
        for key, colour_, mark, dx in (("blue_starts", BLUE_START, "I", -1), ("red_starts", RED_START, "II", 1)):
            if town in side[key]:
                tx, ty = x + dx * (TOWN_R + 3), y + TOWN_R + 2
                ghost_train(canvas, tx * u, ty * u, 10 * u, colour_, INK)
                _text(canvas, mark, tx * u, (ty + 5.5) * u, SANS_BOLD, 8 * scale, colour_)
    # the round track for the wreck markers
    for i, (x, y) in enumerate(lay.round_track):
        canvas.setFillColor(PAPER)
        canvas.setStrokeColor(BLUE_START if i < 3 else RED_START)
        canvas.setLineWidth(1.5 * scale)
        canvas.rect((x - TRACK_BOX / 2) * u, (y - TRACK_BOX / 2) * u, TRACK_BOX * u, TRACK_BOX * u, stroke=1, fill=1)
        _text(canvas, str(i % 3 + 1), x * u, (y - 3) * u, SANS_BOLD, 12 * scale, HexColor("#9e9e9e"))
    x0, y0 = lay.round_track[0]
    for row, (colour_, mark) in enumerate(((BLUE_START, "I"), (RED_START, "II"))):
        gx, gy = x0 - TRACK_BOX / 2 - 8, lay.round_track[row * 3][1]
        ghost_train(canvas, gx * u, gy * u, 10 * u, colour_, INK)
        _text(canvas, mark, gx * u, (gy - 9) * u, SANS_BOLD, 8 * scale, colour_)
    _text(canvas, term(content, "round-track", "en"), (x0 + TRACK_BOX + 3) * u, (lay.round_track[0][1] + TRACK_BOX / 2 + 7) * u, SANS_BOLD, 8 * scale)
    _text(canvas, term(content, "round-track", "zh-Hant"), (x0 + TRACK_BOX + 3) * u, (lay.round_track[0][1] + TRACK_BOX / 2 + 3) * u, CJK, 8 * scale)
    # title
    tx, ty = lay.title_at
    canvas.setFillColor(INK)
    canvas.setFont(SANS_BOLD, 16 * scale)
    title = f"{content.title['en']}: {term(content, side_id, 'en')}"
    canvas.drawRightString(tx * u, ty * u, title)
    canvas.setFont(CJK, 13 * scale)
    canvas.drawRightString(tx * u, (ty - 7) * u, f"{content.title['zh-Hant']}：{term(content, side_id, 'zh-Hant')}")
    canvas.setFont(SANS, 7 * scale)
    canvas.drawRightString(tx * u, (ty - 12) * u, term(content, "reconstructed-map", "en"))
    canvas.setFont(CJK, 7 * scale)
    canvas.drawRightString(tx * u, (ty - 16) * u, term(content, "reconstructed-map", "zh-Hant"))
    canvas.restoreState()
