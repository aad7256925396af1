"""Flamme Rouge movement and end-phase rules, one test per rule, on made-up courses and real stages;
each open reading is played under its game parameter."""

from __future__ import annotations

import random

import pytest

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.registry import engine_for
from tests.verify.test_flamme_rouge import CONTENT, play_round, small_content, where
from verify.games.flamme_rouge.rules import READINGS, Draw, FlammeRouge, Keep, random_race


@pytest.fixture(scope="module")
def engine():
    return engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))


# --- the end of the course -----------------------------------------------------------------------

@pytest.mark.parametrize("stage,mountains", [
    ("avenue-corso-paseo", True), ("avenue-corso-paseo", False),
    ("le-col-du-ballon", True), ("le-col-du-ballon", False),
])
def test_a_card_past_the_last_square_carries_the_rider_to_it(engine, stage, mountains):
    game = engine.with_params(stage=stage, mountains=mountains)
    last = game.course.length
    setup = {"riders": {"P1": {"rouleur": [40], "sprinteur": [last - 6]},
                        "P2": {"rouleur": [last - 7], "sprinteur": [41]}},
             "decks": {"P1": {"rouleur": [3], "sprinteur": [9]}, "P2": {"rouleur": [7], "sprinteur": [2]}}}
    state = game.new_state(2, setup=setup)
    for player, rouleur, sprinteur in (("P1", 3, 9), ("P2", 7, 2)):
        state.apply(player, Draw("rouleur"))
        state.apply(player, Keep(rouleur))
        state.apply(player, Draw("sprinteur"))
        state.apply(player, Keep(sprinteur))
    f = state.fields()
    assert f["rider.P1.sprinteur"] == [last, "right"]
    assert f["rider.P2.rouleur"] == [last, "left"]
    assert state.result()["winner"] == "P1"


# --- climbs --------------------------------------------------------------------------------------

def climb_course(climb_at: int) -> str:
    """Start 1-4, road, a climb of three squares from `climb_at`, road, finish."""
    return "SSSS" + "N" * (climb_at - 5) + "AAA" + "N" * 12 + "FFFF"


@pytest.mark.parametrize("ahead,moved", [(0, 5), (1, 5), (3, 5), (5, 5), (6, 5), (7, 6), (8, 7), (9, 8), (10, 9)])
def test_climb_entry_a_nine_moves_by_where_the_climb_begins(ahead, moved):
    # The sprinteur on 10 plays 9; the climb starts `ahead` squares in front (0: it stands on it).
    s = 10
    course = climb_course(s + ahead) if ahead else "SSSS" + "N" * 5 + "AAA" + "N" * 20 + "FFFF"
    if not ahead:
        s = 11  # on the middle square of the climb 10-12
    state = play_round({"P1.sprinteur": [s], "P1.rouleur": [2], "P2.rouleur": [3], "P2.sprinteur": [1]},
                       {"P1.sprinteur": 9, "P1.rouleur": 3, "P2.rouleur": 3, "P2.sprinteur": 2}, course=course)
    assert where(state, "P1.sprinteur")[0] == s + moved


def test_climb_entry_stops_on_the_nearest_free_lane_before_the_climb():
    # Climb from 17: both sprinteurs' 9s would enter it late; the first takes 16 right, the second
    # 16 left, and a third rider aiming there falls back to 15.
    course = climb_course(17)
    state = play_round({"P1.sprinteur": [10], "P2.sprinteur": [9], "P3.sprinteur": [8],
                        "P1.rouleur": [3], "P2.rouleur": [2], "P3.rouleur": [1]},
                       {"P1.sprinteur": 9, "P2.sprinteur": 9, "P3.sprinteur": 9,
                        "P1.rouleur": 3, "P2.rouleur": 3, "P3.rouleur": 3}, course=course)
    assert where(state, "P1.sprinteur") == [16, "right"]
    assert where(state, "P2.sprinteur") == [16, "left"]
    assert where(state, "P3.sprinteur") == [15, "right"]


def test_climb_entry_after_a_descent():
    # Descent 9-12, climb 16-18: from 9 on the descent a 9 would enter the climb at its 7th step.
    course = "SSSS" + "NNNN" + "DDDD" + "NNN" + "AAA" + "N" * 9 + "FFFF"
    state = play_round({"P1.sprinteur": [9], "P1.rouleur": [12], "P2.rouleur": [3], "P2.sprinteur": [10]},
                       {"P1.sprinteur": 9, "P1.rouleur": 7, "P2.rouleur": 3, "P2.sprinteur": 2}, course=course)
    assert where(state, "P1.rouleur") == [17, "right"]    # climb at its 4th step: 7 counts 5
    assert where(state, "P2.sprinteur") == [15, "right"]  # descent: 2 counts 5
    assert where(state, "P1.sprinteur") == [15, "left"]   # climb at its 7th step: stops before it


def test_climb_entry_does_not_apply_with_mountains_off():
    state = play_round({"P1.sprinteur": [10], "P1.rouleur": [2], "P2.rouleur": [3], "P2.sprinteur": [1]},
                       {"P1.sprinteur": 9, "P1.rouleur": 3, "P2.rouleur": 3, "P2.sprinteur": 2},
                       course=climb_course(17), mountains=False)
    assert where(state, "P1.sprinteur") == [19, "right"]


@pytest.mark.parametrize("ahead,moved", [(3, 5), (7, 5), (9, 5), (10, 9)])
def test_climb_rule_cap_reading_counts_five_whenever_the_move_touches_a_climb(ahead, moved):
    state = play_round({"P1.sprinteur": [10], "P1.rouleur": [2], "P2.rouleur": [3], "P2.sprinteur": [1]},
                       {"P1.sprinteur": 9, "P1.rouleur": 3, "P2.rouleur": 3, "P2.sprinteur": 2},
                       course=climb_course(10 + ahead), climb_rule="cap")
    assert where(state, "P1.sprinteur")[0] == 10 + moved


# --- slipstream near climbs ----------------------------------------------------------------------

def test_climb_slipstream_a_rider_on_a_climb_gives_no_shelter_in_either_reading():
    course = "SSSS" + "N" * 9 + "A" + "N" * 10 + "FFFF"  # climb on 14 only
    for reading in READINGS["climb_slipstream"]:
        state = play_round({"P1.rouleur": [10], "P1.sprinteur": [9], "P2.rouleur": [21], "P2.sprinteur": [20]},
                           {"P1.rouleur": 4, "P1.sprinteur": 3, "P2.rouleur": 3, "P2.sprinteur": 2},
                           course=course, climb_slipstream=reading)
        assert where(state, "P1.sprinteur") == [12, "right"], reading


def test_climb_slipstream_group_on_a_climb_at_its_front_stays():
    course = "SSSS" + "N" * 14 + "A" + "N" * 5 + "FFFF"  # climb on 19 only
    # After movement 18 | 19 (climb) form a group, 20 empty, 21: the front rider is on the climb.
    state = play_round({"P1.rouleur": [16], "P1.sprinteur": [15], "P2.rouleur": [14], "P2.sprinteur": [2]},
                       {"P1.rouleur": 5, "P1.sprinteur": 4, "P2.rouleur": 4, "P2.sprinteur": 2}, course=course)
    assert [where(state, n)[0] for n in ("P2.rouleur", "P1.sprinteur", "P1.rouleur")] == [18, 19, 21]


# --- the final round -----------------------------------------------------------------------------

SHORT = "SSSS" + "N" * 10 + "FFFFF"  # finish squares 15-19


def test_final_round_has_no_end_phase_unless_the_parameter_asks():
    riders = {"P1.rouleur": [12], "P1.sprinteur": [7], "P2.rouleur": [11], "P2.sprinteur": [9]}
    cards = {"P1.rouleur": 5, "P1.sprinteur": 5, "P2.rouleur": 3, "P2.sprinteur": 9}
    plain = play_round(riders, cards, course=SHORT)
    played = play_round(riders, cards, course=SHORT, final_end_phase=True)
    assert where(plain, "P1.sprinteur") == [12, "right"]
    assert where(played, "P1.sprinteur") == [13, "right"]
    assert plain.fields()["recycled.P2.sprinteur"] == [] and played.fields()["recycled.P2.sprinteur"] == ["x"]
    assert plain.result() == played.result()


def test_final_end_phase_never_changes_the_result():
    base = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    for seed in range(40):
        results = []
        for value in READINGS["final_end_phase"]:
            state = random_race(base.with_params(final_end_phase=value), 4, random.Random(seed))
            results.append((state.result()["winner"], state.result()["order"][:1]))
        assert results[0] == results[1]


# --- exhaustion supply ---------------------------------------------------------------------------

def test_exhaustion_supply_unlimited_gives_a_card_to_every_exhausted_rider():
    state = play_round({"P1.rouleur": [15], "P1.sprinteur": [5], "P2.rouleur": [10], "P2.sprinteur": [3]},
                       {"P1.rouleur": 5, "P1.sprinteur": 5, "P2.rouleur": 5, "P2.sprinteur": 2},
                       setup_extra={"exhaustion_left": {"rouleur": 1, "sprinteur": 0}},
                       exhaustion_supply="unlimited")
    f = state.fields()
    assert [f[f"recycled.{n}"] for n in ("P1.rouleur", "P2.rouleur", "P1.sprinteur", "P2.sprinteur")] == [["x"]] * 4
    assert f["exhaustion_left.rouleur"] == 0
    assert not state.check_invariants()


def test_exhaustion_supply_unlimited_keeps_every_card_counted_in_long_races():
    # A tiny pile runs out early; the invariants (every card in one place) must hold throughout.
    game = FlammeRouge(small_content(pile=2), course="SSSS" + "N" * 60 + "FFFF", exhaustion_supply="unlimited")
    rng = random.Random(3)
    for _ in range(20):
        state = game.new_state(4, seed=rng.getrandbits(32))
        while not state.is_terminal():
            for player in state.to_move():
                state.apply(player, rng.choice(state.legal_actions(player)))
                assert not state.check_invariants()
        assert sum(state.exhaustion_made) > 0


# --- a rider with every square ahead full --------------------------------------------------------

def test_boxed_in_rider_stays_where_it_is():
    # With exhaustion cards worth 0 the four riders ahead stay on 11 and 12, both full: the rider
    # on 10 playing 2 has no free lane ahead and stays.
    game = FlammeRouge(small_content(exhaustion=0), course="SSSS" + "N" * 20 + "FFFF")
    setup = {"riders": {"P1": {"rouleur": [12], "sprinteur": [12, "left"]},
                        "P2": {"rouleur": [11], "sprinteur": [11, "left"]},
                        "P3": {"rouleur": [2], "sprinteur": [10]}},
             "decks": {"P1": {"rouleur": ["x"], "sprinteur": ["x"]}, "P2": {"rouleur": ["x"], "sprinteur": ["x"]},
                       "P3": {"rouleur": [3], "sprinteur": [2]}}}
    state = game.new_state(3, setup=setup)
    for player, r, s in (("P1", "x", "x"), ("P2", "x", "x"), ("P3", 3, 2)):
        state.apply(player, Draw("rouleur"))
        state.apply(player, Keep(r))
        state.apply(player, Draw("sprinteur"))
        state.apply(player, Keep(s))
    assert where(state, "P3.sprinteur") == [10, "right"]
    assert not state.check_invariants()


def test_boxed_in_cannot_happen_in_a_race(engine):
    # Riders ahead move first, so every rider always finds a free lane on the next square.
    rng = random.Random(11)
    for stage in engine.stage_ids():
        game = engine.with_params(stage=stage)
        for _ in range(15):
            state = game.new_state(4, seed=rng.getrandbits(32))
            while not state.is_terminal():
                before = state.square[:]
                for player in state.to_move():
                    state.apply(player, rng.choice(state.legal_actions(player)))
                if state.phase != "start" and before != state.square and all(before):
                    assert all(now > was for was, now in zip(before, state.square))


# --- parameters ----------------------------------------------------------------------------------

@pytest.mark.parametrize("key", sorted(READINGS))
def test_reading_parameters_accept_their_values_only(key):
    for value in READINGS[key]:
        FlammeRouge(CONTENT, course="SSSS" + "N" * 10 + "FFFF", **{key: value})
    with pytest.raises(ValueError, match=key):
        FlammeRouge(CONTENT, course="SSSS" + "N" * 10 + "FFFF", **{key: "sideways"})
