"""Course geometry: laying Flamme Rouge tiles end to end, square outlines, overlaps, bounding boxes."""

from __future__ import annotations

import math

import pytest

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.games.flamme_rouge.course import (
    CourseError, CourseTile, Pose, convex_overlap_area, course_bounds, geometry_of, overlaps,
    parse_course, place_course, place_stage, polygon_area, tiles_by_id, tile_turn,
)

SQUARE, LANE = 33.0, 22.0


@pytest.fixture(scope="module")
def flamme():
    return load_game(PROJECT_CONTENT, "flamme-rouge")


def close(a, b, tol=1e-9):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_parse_course_reads_letters_and_sides():
    course = parse_course(" a  b\tC ")
    assert [(t.tile_id, t.side) for t in course] == [("a", "lower"), ("b", "lower"), ("c", "upper")]


@pytest.mark.parametrize("text, message, position", [
    ("a bb c", "'bb' is not a tile letter", 1),
    ("a 7", "'7' is not a tile letter", 1),
    ("   ", "the course names no tiles", None),
])
def test_parse_course_refuses_what_is_not_a_tile_letter(text, message, position):
    with pytest.raises(CourseError) as info:
        parse_course(text)
    assert str(info.value) == message and info.value.position == position


def test_printed_size_comes_from_tiles_yaml(flamme):
    g = geometry_of(flamme)
    assert (g.lane_width, g.square_length, g.width) == (LANE, SQUARE, 2 * LANE)
    # A curve's centre line is two squares long, so its radius follows from its angle.
    assert g.radius("sharp_curve") == pytest.approx(2 * SQUARE / (math.pi / 2))
    assert g.radius("soft_curve") == pytest.approx(2 * SQUARE / (math.pi / 4))


def test_a_straight_tile_advances_six_squares(flamme):
    (tile,) = place_course(flamme, parse_course("b"), Pose(10.0, 20.0, math.pi / 2))
    end = tile.end
    assert close((end.x, end.y, end.heading), (10.0, 20.0 + 6 * SQUARE, math.pi / 2))
    assert polygon_area(tile.square(0)) == pytest.approx(SQUARE * 2 * LANE)


def test_turning_a_curve_over_mirrors_its_bend(flamme):
    tiles, g = tiles_by_id(flamme), geometry_of(flamme)
    assert tile_turn(tiles["e"], "lower", g) == pytest.approx(math.pi / 2)    # e bends left
    assert tile_turn(tiles["e"], "upper", g) == pytest.approx(-math.pi / 2)   # E bends right
    assert tile_turn(tiles["s"], "lower", g) == pytest.approx(-math.pi / 4)   # s bends right, softly
    assert tile_turn(tiles["b"], "upper", g) == 0.0


def test_a_sharp_left_curve_ends_a_quarter_turn_later(flamme):
    (curve,) = place_course(flamme, parse_course("e"))
    r = geometry_of(flamme).radius("sharp_curve")
    end = curve.end
    assert close((end.x, end.y, end.heading), (r, r, math.pi / 2), 1e-9)
    # The right lane is the outer one on a left bend: the square's right edge is on radius r + lane.
    right_start = curve.point(0.0, -LANE)
    assert close(right_start, (0.0, -LANE))


def test_a_curve_square_has_the_area_of_a_straight_square(flamme):
    # An annulus sector's area is its width times its centre-line length, so a curved square
    # holds as much road as a straight one; the drawn outline follows the arc within a hair.
    (curve,) = place_course(flamme, parse_course("q"))
    area = abs(polygon_area(curve.square(1)))
    assert area == pytest.approx(SQUARE * 2 * LANE, rel=2e-3)
    lanes = abs(polygon_area(curve.square(1, "left"))) + abs(polygon_area(curve.square(1, "right")))
    assert lanes == pytest.approx(area)


def test_tiles_join_edge_to_edge(flamme):
    placed = place_stage(flamme, "firenze-milano")
    for before, after in zip(placed, placed[1:]):
        assert close((before.end.x, before.end.y), (after.start.x, after.start.y))
        assert before.end.heading == pytest.approx(after.start.heading)


@pytest.mark.parametrize("stage_id", ["avenue-corso-paseo", "firenze-milano", "la-classicissima",
                                      "la-haute-montagne", "le-col-du-ballon", "ronde-van-wevelgem"])
def test_no_published_stage_runs_over_itself(flamme, stage_id):
    placed = place_stage(flamme, stage_id)
    assert len(placed) == 21 and sum(t.square_count for t in placed) == 78
    assert overlaps(placed) == []


def test_a_loop_of_four_quarter_turns_is_found(flamme):
    placed = place_course(flamme, parse_course("a e g i J b"))
    assert overlaps(placed) == [(0, 4), (1, 5)]


def test_unknown_tile_in_a_course(flamme):
    with pytest.raises(CourseError) as info:
        place_course(flamme, [CourseTile("a"), CourseTile("z")])
    assert str(info.value) == "unknown tile 'z'" and info.value.position == 1


def test_bounding_box_of_a_straight_run(flamme):
    placed = place_course(flamme, parse_course("a b u"))
    assert close(course_bounds(placed), (0.0, -LANE, 18 * SQUARE, LANE), 1e-9)


def test_overlap_area_of_convex_pieces():
    unit = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    shifted = tuple((x + 0.5, y) for x, y in unit)
    touching = tuple((x + 1.0, y) for x, y in unit)
    assert convex_overlap_area(unit, shifted) == pytest.approx(0.5)
    assert convex_overlap_area(unit, tuple(reversed(shifted))) == pytest.approx(0.5)
    assert convex_overlap_area(unit, touching) == pytest.approx(0.0)
