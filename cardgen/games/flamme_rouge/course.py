"""Flamme Rouge courses: reading a course's tile letters, and where every tile and square lies.

A course is a row of tile letters ("a b c ... u"); lowercase lays a tile's lowercase side up,
uppercase its other side. Laying the tiles end to end gives placed tiles with a position and a
heading; from those come the outline of every square (to draw, and to find a course that runs
over itself) and the course's bounding box. Everything here is plain arithmetic in millimetres,
with x to the right, y up and headings in radians counter-clockwise from the x axis; nothing is
drawn. The rules engine reads a stage's squares through `stage_squares`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

Point = tuple[float, float]
Polygon = tuple[Point, ...]

TERRAIN = {"S": "start area", "N": "normal", "A": "climb", "D": "descent", "F": "past the finish"}
CURVES = ("soft_curve", "sharp_curve")

# Arcs become straight steps of at most this angle; at the largest radius in use (about 100 mm)
# a 5 degree chord strays less than 0.1 mm from the true arc.
ARC_STEP_RAD = math.radians(5)
# Two squares that only touch (a shared corner or edge) have no area in common; anything below
# this many square millimetres counts as touching, not overlapping.
OVERLAP_AREA_MM2 = 1.0


class CourseError(ValueError):
    """A course that cannot be laid; `position` is the 0-based place of the offending tile, if any."""

    def __init__(self, message: str, position: int | None = None):
        super().__init__(message)
        self.position = position


@dataclass(frozen=True)
class CourseTile:
    """One tile of a course as written: its letter and which side is up."""

    letter: str

    @property
    def tile_id(self) -> str:
        return self.letter.lower()

    @property
    def side(self) -> str:
        return "lower" if self.letter.islower() else "upper"


def parse_course(text: str) -> list[CourseTile]:
    """Read a course written as tile letters separated by spaces ("a b C d")."""
    tiles = []
    for position, word in enumerate(text.split()):
        if len(word) != 1 or not ("a" <= word.lower() <= "z"):
            raise CourseError(f"{word!r} is not a tile letter", position)
        tiles.append(CourseTile(word))
    if not tiles:
        raise CourseError("the course names no tiles")
    return tiles


def format_course(course: Iterable[CourseTile]) -> str:
    return " ".join(t.letter for t in course)


@dataclass(frozen=True)
class Geometry:
    """Printed size of the track, from tiles.yaml."""

    lane_width: float
    square_length: float
    squares: dict[str, int]
    angle_deg: dict[str, float]

    @property
    def width(self) -> float:
        return 2 * self.lane_width

    def radius(self, kind: str) -> float:
        """Centre-line radius of a curve: the arc of its angle is as long as its squares."""
        return self.squares[kind] * self.square_length / math.radians(self.angle_deg[kind])


def geometry_of(content) -> Geometry:
    g = content.files["tiles"]["geometry"]
    return Geometry(float(g["lane_width_mm"]), float(g["square_length_mm"]), dict(g["squares"]),
                    {k: float(v) for k, v in g["angle_deg"].items()})


def tiles_by_id(content) -> dict[str, dict]:
    return {t["id"]: t for t in content.files["tiles"]["tiles"]}


def stage(content, stage_id: str) -> dict:
    for entry in content.files["stages"]["stages"]:
        if entry["id"] == stage_id:
            return entry
    known = ", ".join(s["id"] for s in content.files["stages"]["stages"])
    raise KeyError(f"unknown stage {stage_id!r}; known: {known}")


def course_squares(content, course: list[CourseTile]) -> list[str]:
    """Terrain codes of every square of a course, from the start tile to the finish tile."""
    tiles = tiles_by_id(content)
    squares: list[str] = []
    for position, entry in enumerate(course):
        if entry.tile_id not in tiles:
            raise CourseError(f"unknown tile {entry.letter!r}", position)
        squares.extend(tiles[entry.tile_id][entry.side])
    return squares


def stage_squares(content, stage_id: str) -> list[str]:
    """Terrain codes of a stage's whole course in order (S, N, A, D, F; see TERRAIN)."""
    return course_squares(content, parse_course(stage(content, stage_id)["course"]))


@dataclass(frozen=True)
class Pose:
    x: float
    y: float
    heading: float


@dataclass(frozen=True)
class PlacedTile:
    """A tile laid in a course: where its entry edge's midpoint is and which way it runs.

    `turn` is the signed angle the tile bends by (positive to the left, 0 for a straight);
    `length` is the length of its centre line; `width` spans both lanes.
    """

    position: int
    letter: str
    kind: str
    terrain: tuple[str, ...]
    start: Pose
    turn: float
    length: float
    width: float

    @property
    def square_count(self) -> int:
        return len(self.terrain)

    @property
    def square_length(self) -> float:
        return self.length / self.square_count

    def point(self, s: float, t: float) -> Point:
        """The point `s` mm along the centre line and `t` mm to its left (negative: right)."""
        return strip_point(self.start, self.turn / self.length, s, t)

    def heading_at(self, s: float) -> float:
        return self.start.heading + self.turn * s / self.length

    @property
    def end(self) -> Pose:
        x, y = self.point(self.length, 0.0)
        return Pose(x, y, self.heading_at(self.length))

    def edge_points(self, s0: float, s1: float, t: float) -> list[Point]:
        """Points along the line at offset `t` from `s0` to `s1`, close enough to the arc to draw."""
        steps = max(1, math.ceil(abs(self.turn) * abs(s1 - s0) / self.length / ARC_STEP_RAD))
        return [self.point(s0 + (s1 - s0) * i / steps, t) for i in range(steps + 1)]

    def band(self, s0: float, s1: float, t0: float, t1: float) -> Polygon:
        """Outline of the part of the tile between centre-line distances s0..s1 and offsets t0..t1."""
        return tuple(self.edge_points(s0, s1, t0) + self.edge_points(s1, s0, t1))

    def square(self, k: int, lane: str | None = None) -> Polygon:
        """Outline of square `k` (0-based in travel order), or of its 'right' or 'left' lane only."""
        t0, t1 = -self.width / 2, self.width / 2
        if lane == "right":
            t1 = 0.0
        elif lane == "left":
            t0 = 0.0
        return self.band(k * self.square_length, (k + 1) * self.square_length, t0, t1)

    def outline(self) -> Polygon:
        return self.band(0.0, self.length, -self.width / 2, self.width / 2)

    def square_pieces(self, k: int) -> list[Polygon]:
        """Square `k` cut into convex four-sided pieces (one per arc step) for overlap tests."""
        s0, s1 = k * self.square_length, (k + 1) * self.square_length
        right = self.edge_points(s0, s1, -self.width / 2)
        left = self.edge_points(s0, s1, self.width / 2)
        return [(right[i], right[i + 1], left[i + 1], left[i]) for i in range(len(right) - 1)]


def strip_point(start: Pose, curvature: float, s: float, t: float) -> Point:
    """A point of a strip that leaves `start` and bends at a constant `curvature` (rad per mm)."""
    h = start.heading + curvature * s
    if curvature == 0:
        cx, cy = start.x + s * math.cos(start.heading), start.y + s * math.sin(start.heading)
    else:
        cx = start.x + (math.sin(h) - math.sin(start.heading)) / curvature
        cy = start.y - (math.cos(h) - math.cos(start.heading)) / curvature
    return cx - t * math.sin(h), cy + t * math.cos(h)


def tile_turn(tile: dict, side: str, geometry: Geometry) -> float:
    """Signed bend of a tile laid with `side` up: turning a curve over mirrors it."""
    if tile["kind"] not in CURVES:
        return 0.0
    angle = math.radians(geometry.angle_deg[tile["kind"]])
    bends_left = (tile["turn"] == "left") == (side == "lower")
    return angle if bends_left else -angle


def place_tile(tile: dict, entry: CourseTile, geometry: Geometry, start: Pose, position: int = 0) -> PlacedTile:
    terrain = tuple(tile[entry.side])
    return PlacedTile(position, entry.letter, tile["kind"], terrain, start, tile_turn(tile, entry.side, geometry),
                      len(terrain) * geometry.square_length, geometry.width)


def place_course(content, course: list[CourseTile], origin: Pose = Pose(0.0, 0.0, 0.0)) -> list[PlacedTile]:
    """Lay the tiles of a course end to end, the first one's entry edge centred on `origin`."""
    tiles = tiles_by_id(content)
    geometry = geometry_of(content)
    placed = []
    pose = origin
    for position, entry in enumerate(course):
        if entry.tile_id not in tiles:
            raise CourseError(f"unknown tile {entry.letter!r}", position)
        laid = place_tile(tiles[entry.tile_id], entry, geometry, pose, position)
        placed.append(laid)
        pose = laid.end
    return placed


def place_stage(content, stage_id: str) -> list[PlacedTile]:
    return place_course(content, parse_course(stage(content, stage_id)["course"]))


def bounds(polygons: Iterable[Polygon]) -> tuple[float, float, float, float]:
    """(xmin, ymin, xmax, ymax) over every point of the polygons."""
    xs, ys = [], []
    for polygon in polygons:
        for x, y in polygon:
            xs.append(x)
            ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)


def course_bounds(placed: list[PlacedTile]) -> tuple[float, float, float, float]:
    return bounds(tile.outline() for tile in placed)


def polygon_area(polygon: Polygon) -> float:
    """Signed area (positive when the points run counter-clockwise)."""
    n = len(polygon)
    return sum(polygon[i][0] * polygon[(i + 1) % n][1] - polygon[(i + 1) % n][0] * polygon[i][1]
               for i in range(n)) / 2


def _counter_clockwise(polygon: Polygon) -> Polygon:
    return polygon if polygon_area(polygon) >= 0 else tuple(reversed(polygon))


def convex_overlap_area(a: Polygon, b: Polygon) -> float:
    """Area shared by two convex polygons (clip one by every edge of the other)."""
    a, b = _counter_clockwise(a), _counter_clockwise(b)
    result = list(a)
    for i in range(len(b)):
        if not result:
            return 0.0
        (px, py), (qx, qy) = b[i], b[(i + 1) % len(b)]

        def side(p: Point) -> float:
            return (qx - px) * (p[1] - py) - (qy - py) * (p[0] - px)

        clipped = []
        for j in range(len(result)):
            cur, nxt = result[j], result[(j + 1) % len(result)]
            sc, sn = side(cur), side(nxt)
            if sc >= 0:
                clipped.append(cur)
            if (sc >= 0) != (sn >= 0):
                f = sc / (sc - sn)
                clipped.append((cur[0] + f * (nxt[0] - cur[0]), cur[1] + f * (nxt[1] - cur[1])))
        result = clipped
    return abs(polygon_area(tuple(result))) if len(result) >= 3 else 0.0


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def overlaps(placed: list[PlacedTile]) -> list[tuple[int, int]]:
    """Pairs (i, j), i < j, of tiles that are not neighbours in the course yet share ground.

    Neighbours share their joining edge by design, so only tiles further apart are compared,
    square against square.
    """
    pieces = []
    for tile in placed:
        tile_pieces = [p for k in range(tile.square_count) for p in tile.square_pieces(k)]
        pieces.append([(bounds([p]), p) for p in tile_pieces])
    tile_boxes = [bounds(p for _, p in tile_pieces) for tile_pieces in pieces]
    found = []
    for i in range(len(placed)):
        for j in range(i + 2, len(placed)):
            if not _boxes_meet(tile_boxes[i], tile_boxes[j]):
                continue
            if any(_boxes_meet(box_a, box_b) and convex_overlap_area(a, b) > OVERLAP_AREA_MM2
                   for box_a, a in pieces[i] for box_b, b in pieces[j]):
                found.append((i, j))
    return found


__all__ = [
    "CourseError", "CourseTile", "Geometry", "PlacedTile", "Pose", "TERRAIN", "course_bounds",
    "course_squares", "format_course", "geometry_of", "overlaps", "parse_course", "place_course",
    "place_stage", "stage", "stage_squares", "strip_point", "tiles_by_id",
]
