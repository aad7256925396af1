"""Flamme Rouge content: the published decks, tiles and stages, and the errors a broken stage gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.games.flamme_rouge.course import stage_squares
from cardgen.errors import ContentErrors
from tests.conftest import edit

GAME = "flamme-rouge"
STAGE_IDS = ["avenue-corso-paseo", "firenze-milano", "la-classicissima", "la-haute-montagne",
             "le-col-du-ballon", "ronde-van-wevelgem"]
FIRST_COURSE = "course: a b c d e f g h i j k l m n o p q r s t u"


@pytest.fixture(scope="module")
def flamme():
    return load_game(PROJECT_CONTENT, GAME)


def errors_of(content_dir) -> list[str]:
    with pytest.raises(ContentErrors) as info:
        load_game(content_dir, GAME)
    return [str(e) for e in info.value.errors]


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if text in line)


def test_box_holds_the_published_card_counts(flamme):
    assert flamme.deck_counts() == {
        "energy-rouleur": 60, "energy-sprinteur": 60, "exhaustion-rouleur": 30,
        "exhaustion-sprinteur": 30, "stages": 6, "reference": 4,
    }


def test_each_team_deck_has_the_published_values(flamme):
    for colour in ("green", "red", "blue", "black"):
        for rider, values in (("rouleur", [3, 4, 5, 6, 7]), ("sprinteur", [2, 3, 4, 5, 9])):
            deck = sorted(v for c in flamme.physical_cards()
                          if c["deck"] == f"energy-{rider}" and c["colour"] == colour for v in [c["value"]])
            assert deck == sorted(values * 3), (colour, rider)


def test_exhaustion_cards_join_the_energy_deck_of_their_rider_type(flamme):
    decks = {d["id"]: d for d in flamme.decks}
    for rider in ("rouleur", "sprinteur"):
        energy, exhaustion = decks[f"energy-{rider}"], decks[f"exhaustion-{rider}"]
        assert energy["shuffle_group"] == exhaustion["shuffle_group"]
        assert energy["back"] == exhaustion["back"]
    assert decks["energy-rouleur"]["back"] != decks["energy-sprinteur"]["back"]


def test_non_card_components_are_listed(flamme):
    rows = {row["id"]: row["count"] for row in flamme.other_components()}
    assert rows == {"track-tiles": 21, "player-boards": 4, "rider-tokens": 8}


def test_every_stage_has_78_squares_from_start_area_to_finish(flamme):
    for stage_id in STAGE_IDS:
        squares = stage_squares(flamme, stage_id)
        assert len(squares) == 78, stage_id
        assert squares[0] == "S" and squares[-1] == "F"


def test_stage_squares_follow_the_tile_sides(flamme):
    # La Haute Montagne ends on the climbing side of the finish tile (U) and starts on the flat
    # side of the start tile (a): five start squares, then the race.
    squares = stage_squares(flamme, "la-haute-montagne")
    assert squares[:6] == ["S", "S", "S", "S", "S", "N"]
    assert squares[-6:] == ["A", "A", "F", "F", "F", "F"]
    # Le Col du Ballon starts on the uppercase start side (four start squares) and climbs on L.
    ballon = stage_squares(flamme, "le-col-du-ballon")
    assert ballon[:6] == ["S", "S", "S", "S", "N", "N"]
    assert ballon[12:18] == ["A", "A", "A", "D", "D", "D"]  # a, n, then L
    assert set(stage_squares(flamme, "avenue-corso-paseo")) == {"S", "N", "F"}


def test_facts_for_the_rule_text(flamme):
    facts = flamme.facts()
    assert (facts["energy_cards"], facts["exhaustion_cards"], facts["tiles"], facts["stages"]) == (120, 60, 21, 6)
    assert facts["squares_per_stage"] == 78
    assert (facts["sharp_curve_tiles"], facts["soft_curve_tiles"], facts["straight_tiles"]) == (6, 6, 7)


def test_a_tile_used_twice_is_reported_at_the_course(content_copy):
    stages = content_copy / GAME / "stages.yaml"
    edit(stages, FIRST_COURSE, "course: a b c d e f g h i j k l m n o p q r s b u")
    line = line_of(stages, "course: a b c d e f g h i j k l m n o p q r s b u")
    messages = errors_of(content_copy)
    assert len(messages) == 2
    assert all(m.startswith(f"{stages}:{line}:") and "$.stages[0].course" in m for m in messages)
    assert "tile 'b' is used 2 times" in messages[0] and "tiles not used: t" in messages[1]


def test_a_course_without_the_finish_tile_is_refused(content_copy):
    stages = content_copy / GAME / "stages.yaml"
    edit(stages, "course: a b c g i D H q n t m K O L r e p J s f u", "course: a b c g i D H q n t m K O L r e p J s f")
    messages = errors_of(content_copy)
    where = f"stages.yaml:{line_of(stages, 'course: a b c g i D H q n t m K O L r e p J s f')}:"
    assert all(where in m and "$.stages[1].course: stage 'firenze-milano'" in m for m in messages)
    assert messages[0].endswith("tiles not used: u")
    assert messages[1].endswith("the course must end with the finish tile 'u', not 'f'")


def test_a_course_must_begin_with_the_start_tile(content_copy):
    edit(content_copy / GAME / "stages.yaml", FIRST_COURSE, "course: b a c d e f g h i j k l m n o p q r s t u")
    (message,) = errors_of(content_copy)
    assert "must begin with the start tile 'a', not 'b'" in message


def test_an_unknown_tile_letter_is_named(content_copy):
    edit(content_copy / GAME / "stages.yaml", FIRST_COURSE, "course: a b c d e f g h i j k l m n o p q r s x u")
    messages = errors_of(content_copy)
    assert any(m.endswith("unknown tile 'x'") for m in messages)


def test_a_self_crossing_course_is_refused(content_copy):
    # Four left quarter-turns in a row (e, g, i and j turned over) close a loop, so the straight
    # after them runs back over the first curve.
    stages = content_copy / GAME / "stages.yaml"
    crossing = "course: a e g i J b c d f l m n o p q r s t h k u"
    edit(stages, FIRST_COURSE, crossing)
    messages = errors_of(content_copy)
    assert all(m.startswith(f"{stages}:{line_of(stages, crossing)}:") for m in messages)
    assert any("runs over itself: tile 2 (e) and tile 6 (b)" in m for m in messages)


def test_a_stage_without_a_card_is_reported(content_copy):
    edit(content_copy / GAME / "cards.yaml", "stage: ronde-van-wevelgem", "stage: avenue-corso-paseo")
    messages = errors_of(content_copy)
    assert any("stage 'avenue-corso-paseo' has two cards" in m for m in messages)
    assert any("stages.yaml:" in m and "stage 'ronde-van-wevelgem' has no stage card" in m for m in messages)


def test_a_wrong_energy_value_breaks_the_published_deck(content_copy):
    cards = content_copy / GAME / "cards.yaml"
    edit(cards, "id: sprinteur-red-9, colour: red, rider: sprinteur, value: 9",
         "id: sprinteur-red-9, colour: red, rider: sprinteur, value: 8")
    (message,) = errors_of(content_copy)
    assert "the red sprinteur deck has values" in message and "[2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 9, 9, 9]" in message


def test_exhaustion_cards_must_be_worth_two(content_copy):
    cards = content_copy / GAME / "cards.yaml"
    edit(cards, "id: exhaustion-rouleur, rider: rouleur, value: 2", "id: exhaustion-rouleur, rider: rouleur, value: 3")
    (message,) = errors_of(content_copy)
    assert f"cards.yaml:{line_of(cards, 'id: exhaustion-rouleur')}:" in message
    assert "$.cards[40].value: exhaustion cards are worth 2, not 3" in message


def test_a_curve_needs_its_turn_and_a_straight_has_none(content_copy):
    tiles = content_copy / GAME / "tiles.yaml"
    edit(tiles, "{id: e, kind: sharp_curve, turn: left,", "{id: e, kind: sharp_curve,")
    edit(tiles, "{id: b, kind: straight,   ", "{id: b, kind: straight, turn: left,")
    messages = errors_of(content_copy)
    assert len(messages) == 2
    assert any(f"tiles.yaml:{line_of(tiles, '{id: e,')}:" in m and "'turn' is a required property" in m for m in messages)
    assert any(f"tiles.yaml:{line_of(tiles, '{id: b,')}:" in m for m in messages)


def test_a_tile_side_with_the_wrong_number_of_squares(content_copy):
    edit(content_copy / GAME / "tiles.yaml", "{id: h, kind: soft_curve,  turn: left,  lower: [N, N],",
         "{id: h, kind: soft_curve,  turn: left,  lower: [N, N, N],")
    (message,) = errors_of(content_copy)
    assert "$.tiles[7].lower: a soft_curve tile has 2 squares, this side lists 3" in message


def test_finish_squares_only_on_the_finish_tile(content_copy):
    edit(content_copy / GAME / "tiles.yaml", "upper: [D, D, D, D, N, N]", "upper: [D, D, D, D, N, F]")
    (message,) = errors_of(content_copy)
    assert "$.tiles[1].upper: a straight tile must not have past the finish squares (F)" in message
