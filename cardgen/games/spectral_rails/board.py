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
from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, mm, register_fonts

TOWN_R = 11.0  # mm
SPACE = 16.0  # mm, the side of a track space (a trail piece is 14 mm)
SOUL = 28.0  # mm, the side of a soul slot (a soul tile is 26 mm)
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
    names: dict  # town -> (x, y) centre of its name label


def _routes(data: dict) -> list[tuple[str, str, list[str]]]:
    out, number = [], 0
    for route in data["routes"]:
        ids = [f"s{number + k}" for k in range(1, route["spaces"] + 1)]
        number += route["spaces"]
        out.append((route["from"], route["to"], ids))
    return out


def layout(content, side_id: str) -> BoardLayout:
    """Where everything of one board side goes; worked out once per content and side (placing the
    soul slots tries many turns), then shared by the board, the rule sheet's pictures and the mats."""
    cache = content.__dict__.setdefault("_board_layouts", {})
    if side_id not in cache:
        cache[side_id] = _layout(content, side_id)
    return cache[side_id]


def _layout(content, side_id: str) -> BoardLayout:
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
    slots = _place_slots(towns, spaces, routes, width, height)
    track = [(14 + TRACK_BOX / 2 + i * (TRACK_BOX + 3), 14 + TRACK_BOX * 1.5 + 4 - r * (TRACK_BOX + 4))
             for r in range(2) for i in range(3)]
    track = [(x + 14, y) for x, y in track]
    names = _place_names(content, towns, spaces, slots, _start_marks(side, towns))
    return BoardLayout(side, width, height, offset, towns, spaces, routes, slots, track, (width - 8, 40.0), names)


def _start_marks(side: dict, towns: dict) -> dict:
    """Where the blue (I) and red (II) start marks of a side stand: beside the town, above it."""
    marks = {}
    for key, dx in (("blue_starts", -1), ("red_starts", 1)):
        for town in side[key]:
            x, y = towns[town]
            marks[(town, key)] = (x + dx * (TOWN_R + 3), y + TOWN_R + 2)
    return marks


def _box(x: float, y: float, w: float, h: float) -> tuple:
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def _place_slots(towns: dict, spaces: dict, routes: list, width: float, height: float) -> dict:
    """Two soul slots side by side next to each town, turned to wherever they cover the least
    of the routes, spaces, towns and slots already placed, and stay on the board."""
    blocked = [_box(x, y, SPACE, SPACE) for x, y, _ in spaces.values()]
    blocked += [_box(x, y, 2 * TOWN_R + 8, 2 * TOWN_R) for x, y in towns.values()]
    slots = {}
    reach_mm = TOWN_R + SOUL * 1.5 + SOUL  # no candidate box of a town reaches past this
    for town, (x, y) in towns.items():
        near = (x - reach_mm, y - reach_mm, x + reach_mm, y + reach_mm)
        # A box out of reach overlaps no candidate: leaving it out changes no cost.
        nearby = [o for o in blocked if o is not None and _overlap(o, near) > 0]
        best, best_cost = None, None
        for step in range(36):
            a = step * pi / 18 - pi / 2
            for reach in (0.9, 1.2, 1.5):
                cx, cy = x + cos(a) * (TOWN_R + SOUL * reach), y + sin(a) * (TOWN_R + SOUL * reach)
                px, py = -sin(a) * (SOUL / 2 + 1), cos(a) * (SOUL / 2 + 1)
                pair = [(cx - px, cy - py), (cx + px, cy + py)]
                boxes = [_box(px_, py_, SOUL, SOUL) for px_, py_ in pair]
                cost = sum(_overlap(b, o) for b in boxes for o in nearby)
                cost += sum(1000 for bx0, by0, bx1, by1 in boxes if bx0 < 2 or by0 < 2 or bx1 > width - 2 or by1 > height - 2)
                cost += reach  # nearer is better when all else is equal
                if best_cost is None or cost < best_cost - 1e-6:
                    best, best_cost = pair, cost
        slots[town] = best
        blocked += [_box(px_, py_, SOUL, SOUL) for px_, py_ in best]
    return slots


NAME_H = 9.0  # mm: two lines, English over Chinese


def _overlap(a, b) -> float:
    """Overlapping area of two boxes (x0, y0, x1, y1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _place_names(content, towns, spaces, slots, marks) -> dict:
    """Each town's name goes where it covers the least of the spaces, soul slots and towns
    around it: below the town if that is free, else beside or above it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    names = {t["id"]: t["name"] for t in content.files["map"]["towns"]}
    blocked = [(x - SPACE / 2, y - SPACE / 2, x + SPACE / 2, y + SPACE / 2) for x, y, _ in spaces.values()]
    blocked += [(x - SOUL / 2, y - SOUL / 2, x + SOUL / 2, y + SOUL / 2) for pair in slots.values() for x, y in pair]
    blocked += [(x - TOWN_R, y - TOWN_R, x + TOWN_R, y + TOWN_R) for x, y in towns.values()]
    blocked += [_box(x, y + 2, 12, 10) for x, y in marks.values()]
    placed = {}
    for town, (x, y) in towns.items():
        w = max(stringWidth(names[town]["en"], SANS_BOLD, 9), stringWidth(names[town]["zh-Hant"], CJK, 8)) / mm + 2
        d = TOWN_R + NAME_H / 2 + 0.5
        candidates = [(x, y - d), (x + TOWN_R + w / 2 + 1, y), (x - TOWN_R - w / 2 - 1, y), (x, y + d),
                      (x + TOWN_R + w / 2, y - d + 2), (x - TOWN_R - w / 2, y - d + 2),
                      (x + TOWN_R + w / 2, y + d - 2), (x - TOWN_R - w / 2, y + d - 2)]
        best, best_cost = candidates[0], None
        for cx, cy in candidates:
            box = (cx - w / 2, cy - NAME_H / 2, cx + w / 2, cy + NAME_H / 2)
            cost = sum(_overlap(box, b) for b in blocked) + sum(_overlap(box, b) for b in placed.values())
            if best_cost is None or cost < best_cost - 1e-6:
                best, best_cost = (cx, cy), cost
        cx, cy = best
        placed[town] = (cx - w / 2, cy - NAME_H / 2, cx + w / 2, cy + NAME_H / 2)
    return {t: ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for t, b in placed.items()}


def _text(canvas, text: str, x: float, y: float, font: str, size: float, colour=INK) -> None:
    canvas.setFillColor(colour)
    canvas.setFont(font, size)
    canvas.drawCentredString(x, y, text)


def _tint(colour: Color, amount: float) -> Color:
    return Color(*(c + (1 - c) * amount for c in (colour.red, colour.green, colour.blue)))


def draw_board(canvas, content, side_id: str, scale: float = 1.0, labels: bool = True, bleed: float = 0.0) -> None:
    """Draw a side of the board with its lower-left corner at (0, 0); 1 map mm is `scale` mm. The
    art reaches `bleed` map mm past the board's edge (for the printed board, cut on its edge)."""
    lay = layout(content, side_id)
    u = mm * scale
    regions = region_table(content)
    towns = {t["id"]: t for t in content.files["map"]["towns"]}
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(-bleed * u, -bleed * u, (lay.width + 2 * bleed) * u, (lay.height + 2 * bleed) * u)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setFillColor(SAND)
    canvas.rect(-bleed * u, -bleed * u, (lay.width + 2 * bleed) * u, (lay.height + 2 * bleed) * u, stroke=0, fill=1)
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
    marks = _start_marks(lay.side, lay.towns)
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
        nx, ny = lay.names[town]
        _text(canvas, name["en"], nx * u, (ny + 0.6) * u, SANS_BOLD, 9 * scale)
        _text(canvas, name["zh-Hant"], nx * u, (ny - 3.6) * u, CJK, 8 * scale)
        for key, colour_, mark in (("blue_starts", BLUE_START, "I"), ("red_starts", RED_START, "II")):
            if (town, key) in marks:
                tx, ty = marks[(town, key)]
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
