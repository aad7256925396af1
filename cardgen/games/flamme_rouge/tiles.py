"""Printing Flamme Rouge track: the 21 double-sided tiles at their real size, and small course maps.

The first half is pure geometry in millimetres: which page and where each tile goes, the affine
maps that carry a tile's own drawing onto its front page and (mirrored for the duplex flip) onto
its back page, the cut guides around every outline, and the fit of a whole course into a box.
The second half draws with reportlab and decides nothing about positions.

A tile's own frame has its entry edge centred on the origin and the road leaving along +x, so
its left lane is at +y. Its uppercase side is the lowercase side reflected across the x axis: a
curve turned over bends the other way, and its entry edge stays the same physical edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.lib.colors import Color, toColor

from cardgen.games.flamme_rouge import course
from cardgen.games.flamme_rouge.course import PlacedTile, Point, Polygon, Pose
from cardgen.errors import UsageError
from cardgen.geometry import Rect
from cardgen.layout import FLIPS, flip_axis
from cardgen.pdfdoc import PAPER_MM, SANS, SANS_BOLD, atomic_output, mm, new_canvas

# Nothing is placed closer than this to the paper's edge (home printers leave it blank).
MARGIN_MM = 5.0
# The road's colour reaches this far past the cut line, so a slightly off cut or an off-register
# back shows road, not paper.
BLEED_MM = 2.0
# A cut guide starts this far outside the bleed and is this long.
GUIDE_GAP_MM = 0.5
GUIDE_MM = 3.5
PAD_MM = BLEED_MM + GUIDE_GAP_MM + GUIDE_MM
# Guides on the arcs of a curve are spaced at most this far apart along the arc.
ARC_GUIDE_SPACING_MM = 30.0

Affine = tuple[float, float, float, float, float, float]  # x' = a x + c y + e, y' = b x + d y + f
IDENTITY: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
REFLECT_Y: Affine = (1.0, 0.0, 0.0, -1.0, 0.0, 0.0)

TERRAIN_COLOURS = {"S": "#6e6e6e", "N": "#6e6e6e", "F": "#6e6e6e", "A": "#c0392b", "D": "#1f6fb2"}
BLEED_GREY = "#6e6e6e"
LINE_WHITE = "#ffffff"
START_YELLOW = "#f4c20d"
# The letter's disc sits in the left lane this close to the entry edge; chevrons keep clear of it.
LETTER_CLEAR_MM = 9.0


def apply(t: Affine, p: Point) -> Point:
    a, b, c, d, e, f = t
    return a * p[0] + c * p[1] + e, b * p[0] + d * p[1] + f


def compose(outer: Affine, inner: Affine) -> Affine:
    """The map that applies `inner` first, then `outer`."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def rotation(angle: float) -> Affine:
    c, s = math.cos(angle), math.sin(angle)
    return (c, s, -s, c, 0.0, 0.0)


def translation(dx: float, dy: float) -> Affine:
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def page_mirror(page_w: float, page_h: float, flip: str) -> Affine:
    """Where a point of a front page lands on its backs page after the printer turns the paper."""
    if flip_axis(page_w, page_h, flip) == "x":
        return (-1.0, 0.0, 0.0, 1.0, page_w, 0.0)
    return (1.0, 0.0, 0.0, -1.0, 0.0, page_h)


def transformed(t: Affine, polygon: Polygon) -> Polygon:
    return tuple(apply(t, p) for p in polygon)


def Box(x0: float, y0: float, x1: float, y1: float) -> Rect:  # noqa: N802 (reads like the type it makes)
    """A rectangle in millimetres given by its corners, as the tile planner thinks of them."""
    return Rect.from_corners(x0, y0, x1, y1)


def box_of(polygons) -> Rect:
    return Box(*course.bounds(polygons))


def tile_shape(content, tile_id: str, side: str = "lower") -> PlacedTile:
    """A tile laid in its own frame, the given side up."""
    tile = course.tiles_by_id(content)[tile_id]
    letter = tile_id if side == "lower" else tile_id.upper()
    return course.place_tile(tile, course.CourseTile(letter), course.geometry_of(content), Pose(0.0, 0.0, 0.0))


@dataclass(frozen=True)
class TileSlot:
    """One tile on a sheet: `front` maps its lowercase side's frame onto the front page,
    `back` its uppercase side's frame onto the backs page; `trim` is the front outline's box."""

    tile_id: str
    page: int
    front: Affine
    back: Affine
    trim: Rect

    @property
    def bleed(self) -> Rect:
        return self.trim.grow(BLEED_MM)


@dataclass(frozen=True)
class TilePlan:
    paper: str
    flip: str
    page_w: float
    page_h: float
    pages: tuple[tuple[TileSlot, ...], ...]

    @property
    def printable(self) -> Rect:
        return Box(MARGIN_MM, MARGIN_MM, self.page_w - MARGIN_MM, self.page_h - MARGIN_MM)

    def back_box(self, box: Rect) -> Rect:
        m = page_mirror(self.page_w, self.page_h, self.flip)
        (x0, y0), (x1, y1) = apply(m, (box.x0, box.y0)), apply(m, (box.x1, box.y1))
        return Box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def print_order(content) -> list[str]:
    """Long tiles first (they set the rows), then sharp curves, then soft ones; by letter within."""
    rank = {"start": 0, "finish": 0, "straight": 0, "sharp_curve": 1, "soft_curve": 2}
    tiles = content.files["tiles"]["tiles"]
    return [t["id"] for t in sorted(tiles, key=lambda t: (rank[t["kind"]], t["id"]))]


def upright(shape: PlacedTile) -> Affine:
    """Turn a tile a quarter turn if that makes it taller than wide: pages are portrait."""
    box = box_of([shape.outline()])
    return rotation(math.pi / 2) if box.w > box.h + 1e-6 else IDENTITY


def plan_tiles(content, paper: str, flip: str) -> TilePlan:
    """Place every tile on portrait pages of `paper`, in rows from the top, each row centred.

    A tile goes into the first row on any page that has room for it, or a new row where the
    page still has the height, else on a new page; so short curves fill the space under long
    tiles. Every tile keeps PAD_MM of free paper around it for its bleed and its cut guides.
    """
    if paper not in PAPER_MM:
        raise UsageError(f"unknown paper {paper!r}; choose one of {', '.join(PAPER_MM)}")
    if flip not in FLIPS:
        raise UsageError(f"unknown flip {flip!r}; choose one of {', '.join(FLIPS)}")
    page_w, page_h = PAPER_MM[paper]
    usable_w, usable_h = page_w - 2 * MARGIN_MM, page_h - 2 * MARGIN_MM
    # pages[p] is a list of rows; a row is [height, [(tile_id, turn, cell_w, cell_h), ...]]
    pages: list[list[list]] = []
    for tile_id in print_order(content):
        shape = tile_shape(content, tile_id)
        turn = upright(shape)
        box = box_of([transformed(turn, shape.outline())])
        cell_w, cell_h = box.w + 2 * PAD_MM, box.h + 2 * PAD_MM
        if cell_w > usable_w or cell_h > usable_h:
            raise UsageError(f"tile {tile_id!r} ({box.w:.0f} x {box.h:.0f} mm) does not fit on {paper} paper")
        entry = (tile_id, turn, cell_w, cell_h)
        placed = False
        for rows in pages:
            for row in rows:
                if cell_h <= row[0] + 1e-9 and sum(c[2] for c in row[1]) + cell_w <= usable_w + 1e-9:
                    row[1].append(entry)
                    placed = True
                    break
            if not placed and sum(r[0] for r in rows) + cell_h <= usable_h + 1e-9:
                rows.append([cell_h, [entry]])
                placed = True
            if placed:
                break
        if not placed:
            pages.append([[cell_h, [entry]]])
    mirror = page_mirror(page_w, page_h, flip)
    planned = []
    for number, rows in enumerate(pages):
        slots = []
        top = page_h - MARGIN_MM
        for height, cells in rows:
            x = (page_w - sum(c[2] for c in cells)) / 2
            for tile_id, turn, cell_w, cell_h in cells:
                shape = tile_shape(content, tile_id)
                box = box_of([transformed(turn, shape.outline())])
                # Centre the tile in its cell, the cell's top on the row's top.
                dx = x + cell_w / 2 - (box.x0 + box.x1) / 2
                dy = top - cell_h / 2 - (box.y0 + box.y1) / 2
                front = compose(translation(dx, dy), turn)
                back = compose(mirror, compose(front, REFLECT_Y))
                trim = box_of([transformed(front, shape.outline())])
                slots.append(TileSlot(tile_id, number, front, back, trim))
                x += cell_w
            top -= height
        planned.append(tuple(slots))
    return TilePlan(paper, flip, page_w, page_h, tuple(planned))


def page_boxes(slots) -> tuple[Rect, Rect]:
    """(TrimBox, BleedBox) of a page in millimetres: the union of its tiles' trims and bleeds."""
    trim, bleed = slots[0].trim, slots[0].bleed
    for slot in slots[1:]:
        trim, bleed = trim.union(slot.trim), bleed.union(slot.bleed)
    return trim, bleed


def _tick(corner: Point, direction: tuple[float, float]) -> tuple[Point, Point]:
    """A guide on the line through `corner` along `direction` (unit), starting past the bleed."""
    near, far = BLEED_MM + GUIDE_GAP_MM, BLEED_MM + GUIDE_GAP_MM + GUIDE_MM
    return ((corner[0] + near * direction[0], corner[1] + near * direction[1]),
            (corner[0] + far * direction[0], corner[1] + far * direction[1]))


def cut_guides(shape: PlacedTile) -> list[tuple[Point, Point]]:
    """Short lines, in the tile's frame, that show where to cut and never touch its bleed.

    At each corner the two edges that meet there are continued outwards; along a curve's arcs,
    radial ticks show where the arc passes.
    """
    half = shape.width / 2
    guides = []
    for s, backwards in ((0.0, -1.0), (shape.length, 1.0)):
        h = shape.heading_at(s)
        along = (backwards * math.cos(h), backwards * math.sin(h))
        left = (-math.sin(h), math.cos(h))
        for t, side in ((half, 1.0), (-half, -1.0)):
            corner = shape.point(s, t)
            guides.append(_tick(corner, along))
            guides.append(_tick(corner, (side * left[0], side * left[1])))
    if shape.turn:
        pieces = max(2, math.ceil(shape.length / ARC_GUIDE_SPACING_MM))
        for i in range(1, pieces):
            s = shape.length * i / pieces
            h = shape.heading_at(s)
            left = (-math.sin(h), math.cos(h))
            for t, side in ((half, 1.0), (-half, -1.0)):
                guides.append(_tick(shape.point(s, t), (side * left[0], side * left[1])))
    return guides


def _unit(v: tuple[float, float]) -> tuple[float, float]:
    n = math.hypot(*v)
    return v[0] / n, v[1] / n


def map_transform(placed: list[PlacedTile], w: float, h: float) -> tuple[Affine, float]:
    """The map that fits a laid course into a w x h box (course millimetres to box units), turned
    a quarter if that shows it larger; returns it with its scale. The box's lower left is (0, 0)."""
    outlines = [t.outline() for t in placed]
    best = None
    for turn in (IDENTITY, rotation(math.pi / 2)):
        box = box_of([transformed(turn, o) for o in outlines])
        scale = min(w / box.w, h / box.h)
        if best is None or scale > best[2] + 1e-9:
            best = (turn, box, scale)
    turn, box, scale = best
    dx = (w - box.w * scale) / 2 - box.x0 * scale
    dy = (h - box.h * scale) / 2 - box.y0 * scale
    return compose((scale, 0.0, 0.0, scale, dx, dy), turn), scale


# ---- drawing ---------------------------------------------------------------------------------


def _path(canvas, polygon: Polygon, scale: float = mm, close: bool = True):
    p = canvas.beginPath()
    p.moveTo(polygon[0][0] * scale, polygon[0][1] * scale)
    for x, y in polygon[1:]:
        p.lineTo(x * scale, y * scale)
    if close:
        p.close()
    return p


@lru_cache(maxsize=None)
def _colour(value: str) -> Color:
    """A colour named in the data, parsed once (reportlab parses a string on every use)."""
    return toColor(value)


def _fill(canvas, polygon: Polygon, colour: str, scale: float = mm) -> None:
    canvas.setFillColor(_colour(colour))
    canvas.drawPath(_path(canvas, polygon, scale), stroke=0, fill=1)


def _line(canvas, points, colour: str, width_mm: float, dash=None, scale: float = mm) -> None:
    canvas.setStrokeColor(_colour(colour))
    canvas.setLineWidth(width_mm * scale)
    canvas.setDash(*(dash if dash else ([], 0)))
    canvas.drawPath(_path(canvas, tuple(points), scale, close=False), stroke=1, fill=0)
    canvas.setDash([], 0)


def _end_extension(shape: PlacedTile, at_end: bool, reach: float) -> Polygon:
    """A strip `reach` deep straight out of the tile's entry or exit edge, as wide as the bleed."""
    s = shape.length if at_end else 0.0
    h = shape.heading_at(s)
    out = (math.cos(h), math.sin(h)) if at_end else (-math.cos(h), -math.sin(h))
    half = shape.width / 2 + reach
    a, b = shape.point(s, -half), shape.point(s, half)
    return (a, b, (b[0] + reach * out[0], b[1] + reach * out[1]), (a[0] + reach * out[0], a[1] + reach * out[1]))


def draw_tile_side(canvas, shape: PlacedTile, start_tile: bool) -> None:
    """One side of a tile in its own frame (millimetres): road, squares, lines and its letter."""
    half = shape.width / 2
    sq = shape.square_length
    last = shape.square_count - 1
    for k, code in enumerate(shape.terrain):
        colour = TERRAIN_COLOURS[code]
        _fill(canvas, shape.band(k * sq, (k + 1) * sq, -half - BLEED_MM, half + BLEED_MM), colour)
        if k == 0:
            _fill(canvas, _end_extension(shape, False, BLEED_MM), colour)
        if k == last:
            _fill(canvas, _end_extension(shape, True, BLEED_MM), colour)
        if code in "AD":
            _draw_chevrons(canvas, shape, k, forwards=(code == "D"))
    # Borders between squares; the tile's own ends are its cut lines and carry none.
    for k in range(1, shape.square_count):
        _line(canvas, [shape.point(k * sq, -half), shape.point(k * sq, half)], LINE_WHITE, 0.6)
    _line(canvas, shape.edge_points(0.0, shape.length, 0.0), LINE_WHITE, 0.4, dash=([2.5 * mm, 2 * mm], 0))
    # The right lane, where a lone rider stands, has two white lines along its edge.
    for offset in (1.4, 2.8):
        _line(canvas, shape.edge_points(0.0, shape.length, -half + offset), LINE_WHITE, 0.45)
    for k in range(1, shape.square_count):
        before, after = shape.terrain[k - 1], shape.terrain[k]
        if before == "S" and after != "S":
            _line(canvas, [shape.point(k * sq, -half), shape.point(k * sq, half)], START_YELLOW, 1.6)
        if before != "F" and after == "F":
            _draw_finish_line(canvas, shape, k * sq)
    if start_tile:
        _draw_start_arrow(canvas, shape)
    _draw_letter(canvas, shape, start_tile or "F" in shape.terrain)


def _draw_chevrons(canvas, shape: PlacedTile, k: int, forwards: bool) -> None:
    """Chevrons along each edge of square k, pointing ahead on a descent and back on a climb.

    On a straight there are six a side; on a curve the count follows the length of the line
    they stand on, so that they keep one spacing on the inside and the outside of the bend.
    """
    sq = shape.square_length
    half = shape.width / 2
    curvature = shape.turn / shape.length
    for t in (half - 6.0, -half + 6.0):
        stretch = 1.0 - curvature * t  # length along offset t per millimetre of centre line
        count = max(3, round(6 * stretch))
        reach = 1.3 / stretch
        for i in range(count):
            s = k * sq + (i + 0.5) * sq / count
            if t > 0 and s < LETTER_CLEAR_MM:
                continue  # leave the tile's letter readable
            tip, tail = (s + reach, s - reach) if forwards else (s - reach, s + reach)
            points = [shape.point(tail, t + 1.6), shape.point(tip, t), shape.point(tail, t - 1.6)]
            _line(canvas, points, LINE_WHITE, 0.5)


def _draw_finish_line(canvas, shape: PlacedTile, s: float) -> None:
    """A chequered band two checks deep, its far edge on the finish line."""
    half = shape.width / 2
    check = shape.width / 20
    for row in range(2):
        for col in range(20):
            colour = "#111111" if (row + col) % 2 else "#ffffff"
            t0 = -half + col * check
            polygon = shape.band(s - (row + 1) * check, s - row * check, t0, t0 + check)
            _fill(canvas, polygon, colour)


def _draw_start_arrow(canvas, shape: PlacedTile) -> None:
    """A yellow arrow on the first square shows which way the race runs."""
    s0, s1 = 6.0, shape.square_length - 6.0
    head = 5.0
    _line(canvas, [shape.point(s0, 0), shape.point(s1, 0)], START_YELLOW, 1.4)
    canvas.setFillColor(START_YELLOW)
    triangle = (shape.point(s1 + head, 0), shape.point(s1 - 1, 3.5), shape.point(s1 - 1, -3.5))
    canvas.drawPath(_path(canvas, triangle), stroke=0, fill=1)


def _draw_letter(canvas, shape: PlacedTile, yellow: bool) -> None:
    """The tile's letter in a disc near its entry edge at the left (lower left seen along the road)."""
    h = shape.heading_at(4.5)
    x, y = shape.point(4.5, shape.width / 2 - 4.5)
    canvas.saveState()
    canvas.translate(x * mm, y * mm)
    canvas.rotate(math.degrees(h))
    draw_tile_letter(canvas, shape.letter, 0, 0, 3.3 * mm, 9, yellow)
    canvas.restoreState()


LETTER_INK = "#111111"


def draw_tile_letter(canvas, letter: str, cx: float, cy: float, radius: float, size: float,
                     yellow: bool = False) -> None:
    """A tile letter in a disc that tells the side apart from the glyph: the uppercase side is a
    solid dark disc with a light letter, the lowercase side an open ring with a dark letter. So an
    uppercase I and a lowercase l, alike in most sans-serif faces, never look the same. Start and
    finish tiles keep their yellow mark (the letter on the uppercase side, the disc on the other)."""
    light = START_YELLOW if yellow else LINE_WHITE
    canvas.saveState()
    if letter.isupper():
        canvas.setFillColor(LETTER_INK)
        canvas.setStrokeColor(light)  # a light edge keeps the dark disc clear on dark road
        canvas.setLineWidth(radius * 0.12)
        canvas.circle(cx, cy, radius * 0.94, stroke=1, fill=1)
        canvas.setFillColor(light)
    else:
        canvas.setFillColor(light)
        canvas.setStrokeColor(LETTER_INK)
        canvas.setLineWidth(radius * 0.16)
        canvas.circle(cx, cy, radius * 0.92, stroke=1, fill=1)
        canvas.setFillColor(LETTER_INK)
    canvas.setFont(SANS_BOLD, size)
    from cardgen.games.flamme_rouge.faces import draw_line

    draw_line(canvas, letter, cx, cy - size * 0.36, "centre")
    canvas.restoreState()


def _apply_to_canvas(canvas, t: Affine) -> None:
    a, b, c, d, e, f = t
    canvas.transform(a, b, c, d, e * mm, f * mm)


ARC_CUT_LINE = "#111111"


def arc_cut_lines(shape: PlacedTile) -> list[list[Point]]:
    """A curved tile's two arcs, in its own frame: a scissors cut has to follow them, so they are
    drawn along the trim (the art bleeds past them)."""
    if not shape.turn:
        return []
    half = shape.width / 2
    return [shape.edge_points(0.0, shape.length, half), shape.edge_points(0.0, shape.length, -half)]


def _draw_guides(canvas, t: Affine, shape: PlacedTile) -> None:
    canvas.setStrokeColor("#000000")
    canvas.setLineWidth(0.25)
    for p, q in cut_guides(shape):
        (x0, y0), (x1, y1) = apply(t, p), apply(t, q)
        canvas.line(x0 * mm, y0 * mm, x1 * mm, y1 * mm)
    canvas.setStrokeColor(ARC_CUT_LINE)
    canvas.setLineWidth(0.35)
    for arc in arc_cut_lines(shape):
        path = canvas.beginPath()
        for k, point in enumerate(arc):
            x, y = apply(t, point)
            (path.lineTo if k else path.moveTo)(x * mm, y * mm)
        canvas.drawPath(path, stroke=1, fill=0)


def _draw_page(canvas, content, plan: TilePlan, slots, back: bool, shift: tuple[float, float] = (0.0, 0.0)) -> None:
    """One page of tile fronts, or of their backs moved by `shift` (points: the duplex correction)."""
    trim, bleed = page_boxes(slots)
    dx, dy = shift if back else (0.0, 0.0)
    if back:
        trim, bleed = plan.back_box(trim).moved(dx / mm, dy / mm), plan.back_box(bleed).moved(dx / mm, dy / mm)
    canvas.setTrimBox(trim.scaled(mm).box())
    canvas.setBleedBox(bleed.scaled(mm).box())
    kinds = {t["id"]: t["kind"] for t in content.files["tiles"]["tiles"]}
    for slot in slots:
        shape = tile_shape(content, slot.tile_id, "upper" if back else "lower")
        t = slot.back if back else slot.front
        canvas.saveState()
        canvas.translate(dx, dy)
        canvas.saveState()
        _apply_to_canvas(canvas, t)
        draw_tile_side(canvas, shape, kinds[slot.tile_id] == "start")
        canvas.restoreState()
        _draw_guides(canvas, t, shape)
        canvas.restoreState()
    if not back:
        from cardgen.sheets import ruler_beside

        ruler_beside(canvas, plan.page_w * mm, plan.page_h * mm, [bleed.scaled(mm)])
    canvas.showPage()


def render_tiles(content, path: Path, paper: str = "a4", flip: str = "long", options=None) -> TilePlan:
    """Write every track tile at its real size: each page of fronts followed by its backs page,
    laid so that printing double-sided with the given flip puts each back behind its front, moved
    by the duplex correction of `options` (cardgen.sheets.SheetOptions) for the page's orientation."""
    plan = plan_tiles(content, paper, flip)
    duplex = "DuplexFlipLongEdge" if flip == "long" else "DuplexFlipShortEdge"
    title = f"{content.title['en']} track tiles ({paper}, print double-sided, flip on the {flip} edge)"
    with atomic_output(path) as buffer:
        canvas = new_canvas(buffer, (plan.page_w * mm, plan.page_h * mm), title, duplex)
        shift = options.back_shift(plan.page_w * mm, plan.page_h * mm) if options is not None else (0.0, 0.0)
        for slots in plan.pages:
            _draw_page(canvas, content, plan, slots, back=False)
            _draw_page(canvas, content, plan, slots, back=True, shift=shift)
        canvas.save()
    return plan


def draw_course_map(canvas, content, stage_id: str, x: float, y: float, w: float, h: float) -> None:
    """A stage's course scaled into the box (x, y, w, h) in points: squares in their terrain's
    colour, a yellow start line and a chequered finish line."""
    placed = course.place_stage(content, stage_id)
    fit, scale = map_transform(placed, w, h)
    canvas.saveState()
    canvas.translate(x, y)
    a, b, c, d, e, f = fit
    canvas.transform(a, b, c, d, e, f)
    unit = 1.0  # drawn in course millimetres; the fit scales them into the box
    thin = max(0.25 / scale, 0.4)
    previous = None
    for tile in placed:
        sq = tile.square_length
        for k, code in enumerate(tile.terrain):
            _fill(canvas, tile.square(k), TERRAIN_COLOURS[code], unit)
        for k, here in enumerate(tile.terrain):
            before = tile.terrain[k - 1] if k > 0 else previous
            if before is None:
                continue
            if before == "S" and here != "S":
                _draw_map_start(canvas, tile, k * sq, scale)
            elif before != "F" and here == "F":
                _draw_map_finish(canvas, tile, k * sq, scale)
            else:
                ends = [tile.point(k * sq, -tile.width / 2), tile.point(k * sq, tile.width / 2)]
                _line(canvas, ends, "#ffffff", thin, scale=unit)
        previous = tile.terrain[-1]
    canvas.restoreState()


def _draw_map_start(canvas, tile: PlacedTile, s: float, scale: float) -> None:
    """A yellow bar across the road, reaching past both edges so it shows at any size."""
    reach = tile.width / 2 + max(1.5 / scale, 6.0)
    _line(canvas, [tile.point(s, -reach), tile.point(s, reach)], START_YELLOW, max(2.0 / scale, 5.0), scale=1.0)


def _draw_map_finish(canvas, tile: PlacedTile, s: float, scale: float) -> None:
    """A chequered band, four checks across and two deep, ending on the finish line."""
    check = tile.width / 4
    depth = max(check, 1.0 / scale)
    for row in range(2):
        for col in range(4):
            t0 = -tile.width / 2 + col * check
            band = tile.band(s - (row + 1) * depth / 2, s - row * depth / 2, t0, t0 + check)
            _fill(canvas, band, "#111111" if (row + col) % 2 else "#ffffff", 1.0)


__all__ = [
    "BLEED_MM", "Box", "MARGIN_MM", "PAD_MM", "TilePlan", "TileSlot", "apply", "compose", "cut_guides",
    "draw_course_map", "draw_tile_side", "map_transform", "page_boxes", "page_mirror", "plan_tiles",
    "render_tiles", "tile_shape",
]
