"""Printed track tiles: real size, placement on the page, cut guides off the art, backs behind
fronts when printed double-sided, PDF boxes and fonts, determinism; and the course map's fit."""

from __future__ import annotations

import math

import pytest
from pypdf import PdfReader

from tests.pdfcheck import fonts

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.games.flamme_rouge.course import convex_overlap_area, place_stage, polygon_area
from cardgen.errors import UsageError
from cardgen.pdfdoc import mm, new_canvas
from cardgen.games.flamme_rouge.tiles import (
    BLEED_MM, GUIDE_GAP_MM, MARGIN_MM, Box, apply, box_of, cut_guides, draw_course_map, map_transform,
    page_boxes, page_mirror, plan_tiles, render_tiles, tile_shape, transformed,
)

PAPERS = ["a4", "letter"]
FLIPS = ["long", "short"]


@pytest.fixture(scope="module")
def flamme():
    return load_game(PROJECT_CONTENT, "flamme-rouge")


@pytest.fixture(scope="module")
def plans(flamme):
    return {(p, f): plan_tiles(flamme, p, f) for p in PAPERS for f in FLIPS}


def slots(plan):
    return [s for page in plan.pages for s in page]


def distance_to_polygon(p, polygon) -> float:
    """0 inside the polygon, else the distance to its nearest edge."""
    inside = False
    n = len(polygon)
    best = math.inf
    for i in range(n):
        (ax, ay), (bx, by) = polygon[i], polygon[(i + 1) % n]
        if (ay > p[1]) != (by > p[1]) and p[0] < ax + (p[1] - ay) * (bx - ax) / (by - ay):
            inside = not inside
        dx, dy = bx - ax, by - ay
        f = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(p[0] - ax - f * dx, p[1] - ay - f * dy))
    return 0.0 if inside else best


@pytest.mark.parametrize("paper", PAPERS)
def test_every_tile_is_printed_once(plans, flamme, paper):
    ids = sorted(s.tile_id for s in slots(plans[paper, "long"]))
    assert ids == sorted(t["id"] for t in flamme.files["tiles"]["tiles"])


def test_a4_needs_four_sheets_and_letter_five(plans):
    # Long tiles stand three to a page; A4 has room under them for two sharp curves, Letter not.
    assert len(plans["a4", "long"].pages) == 4
    assert len(plans["letter", "long"].pages) == 5


@pytest.mark.parametrize("paper", PAPERS)
def test_tiles_keep_their_real_size(plans, flamme, paper):
    for slot in slots(plans[paper, "long"]):
        shape = tile_shape(flamme, slot.tile_id)
        outline = transformed(slot.front, shape.outline())
        # A rigid placement: the same area, and an edge of a straight tile is exactly 44 mm.
        assert abs(polygon_area(outline)) == pytest.approx(abs(polygon_area(shape.outline())))
        a, b = apply(slot.front, shape.point(0, -22)), apply(slot.front, shape.point(0, 22))
        assert math.dist(a, b) == pytest.approx(44.0)
    straight = next(s for s in slots(plans[paper, "long"]) if s.tile_id == "b")
    assert sorted((straight.trim.w, straight.trim.h)) == pytest.approx([44.0, 198.0])


@pytest.mark.parametrize("paper", PAPERS)
def test_tiles_stay_inside_the_printer_margin_and_apart(plans, flamme, paper):
    plan = plans[paper, "long"]
    for page in plan.pages:
        for slot in page:
            assert plan.printable.contains(slot.trim.grow(BLEED_MM + GUIDE_GAP_MM + 3.5))
        for i, a in enumerate(page):
            for b in page[i + 1:]:
                # Bleeds may not meet; curves are compared by their shapes, not just their boxes.
                ba, bb = a.bleed, b.bleed
                if ba.x1 <= bb.x0 or bb.x1 <= ba.x0 or ba.y1 <= bb.y0 or bb.y1 <= ba.y0:
                    continue
                pieces_a = [transformed(a.front, p) for k in range(2) for p in tile_shape(flamme, a.tile_id).square_pieces(k)]
                pieces_b = [transformed(b.front, p) for k in range(2) for p in tile_shape(flamme, b.tile_id).square_pieces(k)]
                assert all(convex_overlap_area(p, q) == 0 for p in pieces_a for q in pieces_b), (a.tile_id, b.tile_id)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("flip", FLIPS)
def test_each_back_prints_exactly_behind_its_front(plans, flamme, paper, flip):
    plan = plans[paper, flip]
    turn_over = page_mirror(plan.page_w, plan.page_h, flip)
    for slot in slots(plan):
        lower, upper = tile_shape(flamme, slot.tile_id, "lower"), tile_shape(flamme, slot.tile_id, "upper")
        # The uppercase side is the same cardboard seen from below: its point s along the road and
        # t to the left is the lowercase side's point s along and t to the right. Turning the
        # printed backs page over must bring each such point onto its front point.
        for s in (0.0, lower.length / 3, lower.length):
            for t in (-22.0, -5.0, 22.0):
                on_back = apply(slot.back, upper.point(s, -t))
                assert apply(turn_over, on_back) == pytest.approx(apply(slot.front, lower.point(s, t)), abs=1e-9)


def test_a_curve_back_is_its_other_side_not_a_mirror_image(plans, flamme):
    # e bends left; printed on the back it must bend right as seen on the backs page, and the
    # back's placement must be a turn, not a reflection, so its letter reads the right way round.
    slot = next(s for s in slots(plans["a4", "long"]) if s.tile_id == "e")
    a, b, c, d, _, _ = slot.back
    assert a * d - b * c == pytest.approx(1.0)
    assert tile_shape(flamme, "e", "upper").turn == pytest.approx(-tile_shape(flamme, "e", "lower").turn)


@pytest.mark.parametrize("tile_id", ["b", "e", "h"])
def test_cut_guides_stay_off_the_bleed(flamme, tile_id):
    shape = tile_shape(flamme, tile_id)
    outline = shape.outline()
    guides = cut_guides(shape)
    assert len(guides) >= 8
    for p, q in guides:
        for f in (0.0, 0.25, 0.5, 0.75, 1.0):
            point = (p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1]))
            assert distance_to_polygon(point, outline) >= BLEED_MM + GUIDE_GAP_MM - 0.05


def test_cut_guides_of_neighbours_do_not_reach_their_art(plans, flamme):
    for paper in PAPERS:
        for page in plans[paper, "long"].pages:
            bleeds = [(s, transformed(s.front, tile_shape(flamme, s.tile_id).band(
                -BLEED_MM, tile_shape(flamme, s.tile_id).length + BLEED_MM, -22 - BLEED_MM, 22 + BLEED_MM)))
                for s in page]
            for slot in page:
                for p, q in cut_guides(tile_shape(flamme, slot.tile_id)):
                    mid = apply(slot.front, ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2))
                    for other, bleed in bleeds:
                        if other is not slot:
                            assert distance_to_polygon(mid, bleed) > 0


def test_unknown_paper_or_flip_is_a_usage_error(flamme):
    with pytest.raises(UsageError, match="unknown paper 'a3'"):
        plan_tiles(flamme, "a3", "long")
    with pytest.raises(UsageError, match="unknown flip 'side'"):
        plan_tiles(flamme, "a4", "side")


@pytest.fixture(scope="module")
def a4_pdf(flamme, tmp_path_factory):
    path = tmp_path_factory.mktemp("tiles") / "tiles-a4.pdf"
    plan = render_tiles(flamme, path, "a4", "long")
    return path, plan


def test_pdf_pages_alternate_fronts_and_backs_with_boxes(a4_pdf):
    path, plan = a4_pdf
    reader = PdfReader(path)
    assert len(reader.pages) == 2 * len(plan.pages)
    for number, page_slots in enumerate(plan.pages):
        trim, bleed = page_boxes(page_slots)
        front, back = reader.pages[2 * number], reader.pages[2 * number + 1]
        assert [float(v) for v in front.mediabox] == pytest.approx([0, 0, 210 * mm, 297 * mm])
        assert [float(v) for v in front.trimbox] == pytest.approx(list(trim.scaled(mm).box()), abs=1e-3)
        assert [float(v) for v in front.bleedbox] == pytest.approx(list(bleed.scaled(mm).box()), abs=1e-3)
        assert [float(v) for v in back.trimbox] == pytest.approx(list(plan.back_box(trim).scaled(mm).box()), abs=1e-3)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"


def test_pdf_uses_only_embedded_fonts(a4_pdf):
    found = fonts(a4_pdf[0])
    assert found and all(found.values()) and all("Helvetica" not in f for f in found)


def test_the_same_content_gives_the_same_bytes(flamme, a4_pdf, tmp_path):
    again = tmp_path / "again.pdf"
    render_tiles(flamme, again, "a4", "long")
    assert again.read_bytes() == a4_pdf[0].read_bytes()


@pytest.mark.parametrize("w, h", [(57.0, 80.0), (180.0, 60.0)])
def test_course_map_fits_its_box_and_turns_to_show_more(flamme, w, h):
    for stage_id in ("avenue-corso-paseo", "la-classicissima"):
        placed = place_stage(flamme, stage_id)
        fit, scale = map_transform(placed, w, h)
        box = box_of([transformed(fit, t.outline()) for t in placed])
        assert Box(0, 0, w, h).contains(box, 1e-6)
        # The fit fills the box along one side.
        assert max(box.w / w, box.h / h) == pytest.approx(1.0)
        assert scale > 0


def test_course_map_draws_into_a_page(flamme, tmp_path):
    path = tmp_path / "map.pdf"
    canvas = new_canvas(str(path), (100 * mm, 100 * mm), "map")
    draw_course_map(canvas, flamme, "firenze-milano", 10 * mm, 10 * mm, 63 * mm, 88 * mm)
    canvas.showPage()
    canvas.save()
    content = PdfReader(path).pages[0].get_contents().get_data()
    # Every one of the 78 squares is a filled path ("f" operator) in the page's drawing.
    assert content.count(b" f") + content.count(b"\nf") >= 78
