"""The Flamme Rouge engine, rule by rule, on short made-up courses; then the scenarios, random races
on every stage with the invariants checked after every action, and determinism."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from cardgen.content import PROJECT_CONTENT, load_game
from verify.engine import IllegalAction, NotationError, SetupError
from cardgen.registry import engine_for
from verify.games.flamme_rouge.rules import (
    Course, Draw, FlammeRouge, Keep, Start, random_race,
)
from verify.scenario import run_scenario

FLAT = "SSSS" + "N" * 20 + "FFFF"  # start 1-4, road 5-24, finish 25-28


def small_content(rouleur=(3, 4, 5, 6, 7), sprinteur=(2, 3, 4, 5, 9), copies=3, pile=30, exhaustion=2):
    """Content shaped like cards.yaml, with decks chosen by the test."""
    cards = []
    for colour in ("green", "red", "blue", "black"):
        for rider, values in (("rouleur", rouleur), ("sprinteur", sprinteur)):
            for v in values:
                cards.append({"id": f"{rider}-{colour}-{v}", "deck": f"energy-{rider}", "colour": colour,
                              "rider": rider, "value": v, "copies": copies})
    for rider in ("rouleur", "sprinteur"):
        cards.append({"id": f"exhaustion-{rider}", "deck": f"exhaustion-{rider}", "rider": rider,
                      "value": exhaustion, "copies": pile})
    return SimpleNamespace(cards=cards, files={})


CONTENT = small_content()


def play_round(riders, cards, course=FLAT, setup_extra=None, **params):
    """Place the riders, give each rider a one-card deck and play that card; return the state.

    `riders` maps "P1.rouleur" to [square] or [square, lane]; `cards` maps the same names to a value.
    """
    players = max(int(name[1]) for name in riders)
    setup = {"riders": {}, "decks": {}}
    for name, spot in riders.items():
        player, rider = name.split(".")
        setup["riders"].setdefault(player, {})[rider] = spot
        setup["decks"].setdefault(player, {})[rider] = [cards[name]]
    setup.update(setup_extra or {})
    state = FlammeRouge(CONTENT, course=course, **params).new_state(players, setup=setup)
    for name in riders:
        player, rider = name.split(".")
        state.apply(player, Draw(rider))
        state.apply(player, Keep(cards[name]))
        assert not state.check_invariants()
    return state


def where(state, name):
    return state.fields()[f"rider.{name}"]


# --- movement ------------------------------------------------------------------------------------

def test_lone_rider_takes_the_right_lane():
    # Both start on square 10; each ends alone on its square, so each stands in the right lane.
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [10, "left"], "P2.rouleur": [3], "P2.sprinteur": [2]},
                       {"P1.rouleur": 4, "P1.sprinteur": 3, "P2.rouleur": 3, "P2.sprinteur": 2})
    assert where(state, "P1.rouleur") == [14, "right"]
    assert where(state, "P1.sprinteur") == [13, "right"]


def test_second_rider_on_a_square_takes_the_left_lane():
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [9], "P2.rouleur": [3], "P2.sprinteur": [2]},
                       {"P1.rouleur": 4, "P1.sprinteur": 5, "P2.rouleur": 3, "P2.sprinteur": 2})
    assert where(state, "P1.rouleur") == [14, "right"]
    assert where(state, "P1.sprinteur") == [14, "left"]


def test_blocked_rider_stops_behind():
    # Square 14 is full after the first two riders; the third, aiming for 14, stops on 13.
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [9], "P2.rouleur": [8], "P2.sprinteur": [2]},
                       {"P1.rouleur": 4, "P1.sprinteur": 5, "P2.rouleur": 6, "P2.sprinteur": 2})
    assert where(state, "P2.rouleur") == [13, "right"]


def test_blocked_rider_skips_every_full_square():
    state = play_round(
        {"P1.rouleur": [12], "P1.sprinteur": [12, "left"], "P2.rouleur": [11], "P2.sprinteur": [11, "left"],
         "P3.rouleur": [8], "P3.sprinteur": [2]},
        {"P1.rouleur": 3, "P1.sprinteur": 3, "P2.rouleur": 3, "P2.sprinteur": 3, "P3.rouleur": 7, "P3.sprinteur": 2})
    # 15 and 14 are full, so the rouleur playing 7 from 8 (aiming for 15) falls back to 13.
    assert where(state, "P3.rouleur") == [13, "right"]


def test_rider_passes_through_riders():
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [10, "left"], "P2.rouleur": [3], "P2.sprinteur": [9]},
                       {"P1.rouleur": 3, "P1.sprinteur": 3, "P2.rouleur": 3, "P2.sprinteur": 9})
    assert where(state, "P2.sprinteur") == [18, "right"]


def test_movement_goes_front_to_back_and_right_lane_first():
    # Both riders on 10 play 4: the right-lane rider moves first and takes the right lane of 14.
    state = play_round({"P1.rouleur": [10, "left"], "P2.rouleur": [10], "P1.sprinteur": [2], "P2.sprinteur": [1]},
                       {"P1.rouleur": 4, "P2.rouleur": 4, "P1.sprinteur": 2, "P2.sprinteur": 2})
    assert where(state, "P2.rouleur") == [14, "right"]
    assert where(state, "P1.rouleur") == [14, "left"]


def test_side_by_side_riders_aiming_at_one_free_lane_right_lane_gets_it():
    # 12→15 first; both riders on 10 aim for 15, where one lane is left: the right-lane one gets it.
    state = play_round({"P3.rouleur": [12], "P1.rouleur": [10], "P2.rouleur": [10, "left"],
                        "P1.sprinteur": [5], "P2.sprinteur": [4], "P3.sprinteur": [3]},
                       {"P3.rouleur": 3, "P1.rouleur": 5, "P2.rouleur": 5,
                        "P1.sprinteur": 2, "P2.sprinteur": 2, "P3.sprinteur": 2})
    assert where(state, "P1.rouleur") == [15, "left"]
    assert where(state, "P2.rouleur") == [14, "right"]


# --- end phase -----------------------------------------------------------------------------------

def test_played_cards_leave_the_game():
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [9], "P2.rouleur": [8], "P2.sprinteur": [7]},
                       {"P1.rouleur": 4, "P1.sprinteur": 4, "P2.rouleur": 4, "P2.sprinteur": 4})
    assert state.fields()["played.P1.rouleur"][-1] == 4
    assert state.fields()["kept.P1.rouleur"] is None


def test_slipstream_chains_through_merged_groups():
    # After movement: 10 | 12 | 14-15. The rear rider joins 12 (to 11), and that pair joins 14-15.
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [9], "P2.rouleur": [8], "P2.sprinteur": [6]},
                       {"P1.rouleur": 5, "P1.sprinteur": 5, "P2.rouleur": 4, "P2.sprinteur": 4})
    assert [where(state, n)[0] for n in ("P2.sprinteur", "P2.rouleur", "P1.sprinteur", "P1.rouleur")] == [12, 13, 14, 15]


def test_slipstream_needs_exactly_one_empty_square():
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [9], "P2.rouleur": [7], "P2.sprinteur": [2]},
                       {"P1.rouleur": 5, "P1.sprinteur": 5, "P2.rouleur": 4, "P2.sprinteur": 2})
    # 11 is two empty squares behind 14: it stays, and so does the rider on 4.
    assert where(state, "P2.rouleur") == [11, "right"]
    assert where(state, "P2.sprinteur") == [4, "right"]


def test_exhaustion_for_an_empty_square_in_front_only():
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [7], "P2.rouleur": [8], "P2.sprinteur": [6]},
                       {"P1.rouleur": 5, "P1.sprinteur": 4, "P2.rouleur": 4, "P2.sprinteur": 5})
    f = state.fields()
    assert f["recycled.P1.rouleur"] == ["x"]   # 15, road empty ahead
    assert f["recycled.P2.rouleur"] == ["x"]   # 12, road empty ahead
    assert f["recycled.P1.sprinteur"] == []    # 11, square 12 has a rider: one free lane is no gap
    assert f["recycled.P2.sprinteur"] == []
    assert f["exhaustion_left.rouleur"] == 28


def test_both_riders_side_by_side_at_the_front_are_exhausted():
    # 14 right and left, open road on 15: each of the two takes a card, not only the right lane.
    state = play_round({"P1.rouleur": [10], "P2.rouleur": [9], "P1.sprinteur": [4], "P2.sprinteur": [3]},
                       {"P1.rouleur": 4, "P2.rouleur": 5, "P1.sprinteur": 2, "P2.sprinteur": 2})
    f = state.fields()
    assert f["rider.P1.rouleur"] == [14, "right"] and f["rider.P2.rouleur"] == [14, "left"]
    assert f["recycled.P1.rouleur"] == ["x"]
    assert f["recycled.P2.rouleur"] == ["x"]


def test_empty_exhaustion_pile_gives_nothing():
    state = play_round({"P1.rouleur": [15], "P1.sprinteur": [5], "P2.rouleur": [10], "P2.sprinteur": [3]},
                       {"P1.rouleur": 5, "P1.sprinteur": 5, "P2.rouleur": 5, "P2.sprinteur": 2},
                       setup_extra={"exhaustion_left": {"rouleur": 1, "sprinteur": 0}})
    f = state.fields()
    assert f["recycled.P1.rouleur"] == ["x"]  # the front rouleur gets the last card
    assert f["recycled.P2.rouleur"] == []
    assert f["exhaustion_left.rouleur"] == 0
    assert not state.check_invariants()


# --- mountains -----------------------------------------------------------------------------------

CLIMB = "SSSS" + "N" * 10 + "AAAA" + "N" * 7 + "FFFF"  # climb on 15-18


def test_climb_caps_a_card_at_five():
    state = play_round({"P1.rouleur": [12], "P1.sprinteur": [2], "P2.rouleur": [3], "P2.sprinteur": [1]},
                       {"P1.rouleur": 7, "P1.sprinteur": 2, "P2.rouleur": 3, "P2.sprinteur": 2}, course=CLIMB)
    assert where(state, "P1.rouleur") == [17, "right"]


def test_a_sixth_step_into_a_climb_stops_before_it():
    # From 8 the climb (15) would be entered on the 7th step of the 9: the rider stops on 14.
    state = play_round({"P1.rouleur": [3], "P1.sprinteur": [8], "P2.rouleur": [2], "P2.sprinteur": [1]},
                       {"P1.rouleur": 3, "P1.sprinteur": 9, "P2.rouleur": 3, "P2.sprinteur": 2}, course=CLIMB)
    assert where(state, "P1.sprinteur") == [14, "right"]


def test_cap_only_reading_moves_five_short_of_the_climb():
    state = play_round({"P1.rouleur": [3], "P1.sprinteur": [8], "P2.rouleur": [2], "P2.sprinteur": [1]},
                       {"P1.rouleur": 3, "P1.sprinteur": 9, "P2.rouleur": 3, "P2.sprinteur": 2}, course=CLIMB,
                       climb_rule="cap")
    assert where(state, "P1.sprinteur") == [13, "right"]


def test_climb_cap_applies_when_starting_on_a_climb():
    # From 18, the last climb square, a 7 would only cross road (19-25); the start alone caps it.
    state = play_round({"P1.rouleur": [18], "P1.sprinteur": [2], "P2.rouleur": [3], "P2.sprinteur": [1]},
                       {"P1.rouleur": 7, "P1.sprinteur": 2, "P2.rouleur": 3, "P2.sprinteur": 2}, course=CLIMB)
    assert where(state, "P1.rouleur") == [23, "right"]


def test_small_cards_are_not_changed_by_a_climb():
    state = play_round({"P1.rouleur": [12], "P1.sprinteur": [2], "P2.rouleur": [3], "P2.sprinteur": [1]},
                       {"P1.rouleur": 4, "P1.sprinteur": 2, "P2.rouleur": 3, "P2.sprinteur": 2}, course=CLIMB)
    assert where(state, "P1.rouleur") == [16, "right"]


def test_slipstream_into_a_gap_on_a_climb_square():
    course = "SSSS" + "NN" + "A" + "N" * 17 + "FFFF"  # climb on 7 only
    state = play_round({"P1.rouleur": [4], "P1.sprinteur": [3], "P2.rouleur": [20], "P2.sprinteur": [19]},
                       {"P1.rouleur": 4, "P1.sprinteur": 3, "P2.rouleur": 3, "P2.sprinteur": 2}, course=course)
    assert where(state, "P1.sprinteur") == [7, "right"]  # the rider on 6 is off the climb: it moves up
    state = play_round({"P1.rouleur": [4], "P1.sprinteur": [3], "P2.rouleur": [20], "P2.sprinteur": [19]},
                       {"P1.rouleur": 4, "P1.sprinteur": 3, "P2.rouleur": 3, "P2.sprinteur": 2}, course=course,
                       climb_slipstream="group")
    assert where(state, "P1.sprinteur") == [6, "right"]  # the group reading: the gap is a climb square


def test_no_slipstream_from_a_rider_on_a_climb():
    course = "SSSS" + "N" * 9 + "A" + "N" * 10 + "FFFF"  # climb on 14 only
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [9], "P2.rouleur": [21], "P2.sprinteur": [20]},
                       {"P1.rouleur": 4, "P1.sprinteur": 3, "P2.rouleur": 3, "P2.sprinteur": 2}, course=course)
    assert where(state, "P1.sprinteur") == [12, "right"]


def test_group_partly_on_a_climb_only_riders_off_the_climb_slipstream():
    course = "SSSS" + "N" * 14 + "A" + "N" * 5 + "FFFF"  # climb on 19 only
    riders = {"P1.rouleur": [17], "P1.sprinteur": [16], "P2.rouleur": [15], "P2.sprinteur": [2]}
    cards = {"P1.rouleur": 5, "P1.sprinteur": 3, "P2.rouleur": 5, "P2.sprinteur": 2}
    # 19 (climb) and 20 form a group one empty square behind 22: the rider on 20 moves up to 21,
    # the one on the climb stays.
    state = play_round(riders, cards, course=course)
    assert [where(state, n)[0] for n in ("P1.sprinteur", "P2.rouleur", "P1.rouleur")] == [19, 21, 22]
    state = play_round(riders, cards, course=course, climb_slipstream="group")
    assert [where(state, n)[0] for n in ("P1.sprinteur", "P2.rouleur", "P1.rouleur")] == [19, 20, 22]


def test_descent_moves_at_least_five():
    course = "SSSS" + "NNNN" + "DDDD" + "N" * 12 + "FFFF"  # descent on 9-12
    state = play_round({"P1.rouleur": [9], "P1.sprinteur": [10], "P2.rouleur": [7], "P2.sprinteur": [12]},
                       {"P1.rouleur": 7, "P1.sprinteur": 2, "P2.rouleur": 3, "P2.sprinteur": 3}, course=course)
    assert where(state, "P1.sprinteur") == [15, "right"]  # 2 counts 5
    assert where(state, "P1.rouleur") == [16, "right"]    # 7 stays 7
    assert where(state, "P2.rouleur") == [10, "right"]    # started on road: 3 stays 3


def test_mountains_off_treats_climbs_and_descents_as_road():
    state = play_round({"P1.rouleur": [12], "P1.sprinteur": [2], "P2.rouleur": [3], "P2.sprinteur": [1]},
                       {"P1.rouleur": 7, "P1.sprinteur": 2, "P2.rouleur": 3, "P2.sprinteur": 2},
                       course=CLIMB, mountains=False)
    assert where(state, "P1.rouleur") == [19, "right"]


# --- finish --------------------------------------------------------------------------------------

SHORT = "SSSS" + "N" * 10 + "FFFFF"  # finish squares 15-19


def test_furthest_past_the_line_wins_and_right_lane_is_ahead():
    state = play_round({"P1.rouleur": [12], "P1.sprinteur": [7], "P2.rouleur": [11], "P2.sprinteur": [9]},
                       {"P1.rouleur": 5, "P1.sprinteur": 4, "P2.rouleur": 6, "P2.sprinteur": 9}, course=SHORT)
    assert state.is_terminal()
    assert state.result() == {"winner": "P2", "rounds": 1,
                              "order": ["P2 sprinteur", "P1 rouleur", "P2 rouleur", "P1 sprinteur"]}


def test_no_end_phase_in_the_final_round():
    state = play_round({"P1.rouleur": [12], "P1.sprinteur": [7], "P2.rouleur": [11], "P2.sprinteur": [9]},
                       {"P1.rouleur": 5, "P1.sprinteur": 4, "P2.rouleur": 6, "P2.sprinteur": 9}, course=SHORT)
    f = state.fields()
    assert f["rider.P1.sprinteur"] == [11, "right"]  # no slipstream to 12
    assert f["exhaustion_left.rouleur"] == 30 and f["exhaustion_left.sprinteur"] == 30


@pytest.mark.parametrize("reading, squares, exhausted", [
    (True, {"P1.rouleur": 15, "P2.rouleur": 14, "P1.sprinteur": 13, "P2.sprinteur": 12}, {"P1.rouleur"}),
    ("riders-behind", {"P1.rouleur": 15, "P2.rouleur": 13, "P1.sprinteur": 12, "P2.sprinteur": 11}, {"P2.rouleur"}),
    ("riders-behind-all-past", None, set()),
])
def test_the_final_end_phase_with_or_without_the_riders_past_the_line(reading, squares, exhausted):
    if reading == "riders-behind-all-past":
        # Every rider past the line: nobody is left to play the end phase.
        state = play_round({"P1.rouleur": [12], "P1.sprinteur": [11], "P2.rouleur": [11, "left"], "P2.sprinteur": [10]},
                           {"P1.rouleur": 5, "P1.sprinteur": 5, "P2.rouleur": 4, "P2.sprinteur": 9},
                           course=SHORT, final_end_phase="riders-behind")
        assert state.is_terminal() and state.fields()["exhaustion_left.rouleur"] == 30
        return
    state = play_round({"P1.rouleur": [12], "P1.sprinteur": [7], "P2.rouleur": [10], "P2.sprinteur": [9]},
                       {"P1.rouleur": 3, "P1.sprinteur": 5, "P2.rouleur": 3, "P2.sprinteur": 2}, course=SHORT,
                       final_end_phase=reading)
    assert state.is_terminal()
    assert {name: where(state, name)[0] for name in squares} == squares
    assert {name for name in squares if state.fields()[f"recycled.{name}"]} == exhausted
    assert state.result()["order"] == ["P1 rouleur", "P2 rouleur", "P1 sprinteur", "P2 sprinteur"]


def test_move_past_the_last_square_stops_on_it():
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [9], "P2.rouleur": [8], "P2.sprinteur": [5]},
                       {"P1.rouleur": 7, "P1.sprinteur": 9, "P2.rouleur": 7, "P2.sprinteur": 2},
                       course="SSSS" + "N" * 6 + "FFF")
    assert state.result()["order"] == ["P1 rouleur", "P1 sprinteur", "P2 rouleur", "P2 sprinteur"]
    assert where(state, "P2.rouleur") == [12, "right"]


def test_actions_after_the_finish_are_refused():
    state = play_round({"P1.rouleur": [12], "P1.sprinteur": [7], "P2.rouleur": [11], "P2.sprinteur": [9]},
                       {"P1.rouleur": 5, "P1.sprinteur": 4, "P2.rouleur": 6, "P2.sprinteur": 9}, course=SHORT)
    with pytest.raises(IllegalAction, match="over"):
        state.apply("P1", Draw("rouleur"))
    assert state.to_move() == []


# --- energy phase --------------------------------------------------------------------------------

def energy_state(decks, recycled=None, players=2, **params):
    setup = {"riders": {p: {"rouleur": [4 - i], "sprinteur": [4 - i, "left"]} for i, p in enumerate(["P1", "P2", "P3", "P4"][:players])},
             "decks": decks}
    if recycled:
        setup["recycled"] = recycled
    return FlammeRouge(CONTENT, course=FLAT, **params).new_state(players, seed=3, setup=setup)


def test_draw_takes_four_and_keep_recycles_the_rest():
    state = energy_state({"P1": {"rouleur": [7, 3, 4, 5, 6]}})
    state.apply("P1", Draw("rouleur"))
    assert state.fields()["hand.P1"] == [7, 3, 4, 5]
    state.apply("P1", Keep(7))
    f = state.fields()
    assert f["kept.P1.rouleur"] == 7 and f["recycled.P1.rouleur"] == [3, 4, 5] and f["deck.P1.rouleur"] == 1


def test_reshuffle_recycled_cards_when_the_pile_runs_out():
    state = energy_state({"P1": {"rouleur": [5, 6]}}, recycled={"P1": {"rouleur": [3, 4, 7]}})
    state.chance.queue("shuffle.P1.rouleur", [7, 3, 4])
    state.apply("P1", Draw("rouleur"))
    f = state.fields()
    assert f["hand.P1"] == [5, 6, 7, 3] and f["deck.P1.rouleur"] == 1 and f["recycled.P1.rouleur"] == []
    assert state.chance.log[-1] == ("shuffle.P1.rouleur", [7, 3, 4])


def test_fewer_than_four_only_when_both_piles_run_out():
    state = energy_state({"P1": {"rouleur": [5]}}, recycled={"P1": {"rouleur": [3]}})
    state.apply("P1", Draw("rouleur"))
    assert sorted(state.fields()["hand.P1"]) == [3, 5]


def test_no_cards_at_all_plays_an_exhaustion_card():
    state = energy_state({"P1": {"rouleur": []}})
    state.apply("P1", Draw("rouleur"))
    f = state.fields()
    assert f["kept.P1.rouleur"] == "x" and f["exhaustion_left.rouleur"] == 29 and f["hand.P1"] == []


def test_keeping_an_exhaustion_card_removes_it_from_the_game():
    state = energy_state({"P1": {"rouleur": ["x", 3]}})
    state.apply("P1", Draw("rouleur"))
    state.apply("P1", Keep("x"))
    assert state.fields()["kept.P1.rouleur"] == "x"
    assert state.fields()["recycled.P1.rouleur"] == [3]


def test_choices_are_simultaneous_and_secret():
    state = energy_state({"P1": {"rouleur": [7, 3, 4, 5, 6]}, "P2": {"rouleur": [6, 3, 4, 5]}})
    assert state.to_move() == ["P1", "P2"]
    state.apply("P2", Draw("rouleur"))
    state.apply("P2", Keep(6))
    seen_by_p1 = state.observation("P1")
    assert seen_by_p1["riders"]["P2 rouleur"]["kept"] is True  # chosen, value hidden
    assert seen_by_p1["hand"] == []
    assert state.observation("P2")["riders"]["P2 rouleur"]["kept"] == 6


def test_a_player_keeps_before_drawing_again():
    state = energy_state({"P1": {"rouleur": [7, 3, 4, 5, 6]}})
    state.apply("P1", Draw("rouleur"))
    with pytest.raises(IllegalAction, match="must first keep"):
        state.apply("P1", Draw("sprinteur"))
    with pytest.raises(IllegalAction, match="not in P1's hand"):
        state.apply("P1", Keep(9))


def test_a_refused_action_changes_nothing():
    state = energy_state({"P1": {"rouleur": [7, 3, 4, 5, 6]}})
    state.apply("P1", Draw("rouleur"))
    before = state.fields()
    for action in (Keep(9), Draw("sprinteur"), Start("rouleur", 1)):
        with pytest.raises(IllegalAction):
            state.apply("P1", action)
    assert state.fields() == before


def test_handicap_takes_exhaustion_cards_from_the_piles():
    state = FlammeRouge(CONTENT, course=FLAT, handicap={"P2": 2}).new_state(2, seed=1)
    f = state.fields()
    assert f["deck.P2.rouleur"] == 17 and f["deck.P2.sprinteur"] == 17 and f["deck.P1.rouleur"] == 15
    assert f["exhaustion_left.rouleur"] == 28
    assert not state.check_invariants()


def test_deck_values_and_pile_sizes_come_from_the_content():
    content = small_content(rouleur=(8,), copies=2, pile=5, exhaustion=1)
    state = FlammeRouge(content, course=FLAT).new_state(2, seed=1)
    assert state.fields()["exhaustion_left.rouleur"] == 5
    assert sorted(state.deck[0]) == [8, 8]
    assert state.game.cards[2]["x"] == 1


# --- placement -----------------------------------------------------------------------------------

def test_riders_are_placed_one_at_a_time_in_seat_order():
    state = FlammeRouge(CONTENT, course=FLAT).new_state(2, seed=1)
    assert state.to_move() == ["P1"]
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply("P2", Start("rouleur", 1))
    state.apply("P1", Start("rouleur", 4))
    state.apply("P2", Start("rouleur", 4))
    assert where(state, "P2.rouleur") == [4, "left"]
    with pytest.raises(IllegalAction, match="full"):
        state.apply("P1", Start("sprinteur", 4))
    with pytest.raises(IllegalAction, match="start line"):
        state.apply("P1", Start("sprinteur", 5))
    state.apply("P1", Start("sprinteur", 1))
    state.apply("P2", Start("sprinteur", 2))
    assert state.fields()["phase"] == "energy" and state.to_move() == ["P1", "P2"]


# --- notation and setup errors -------------------------------------------------------------------

def test_notation_round_trip():
    state = FlammeRouge(CONTENT, course=FLAT).new_state(3, seed=5)
    rng = random.Random(5)
    seen = set()
    while not state.is_terminal():
        for player in state.to_move():
            actions = state.legal_actions(player)
            for action in actions:
                assert state.parse_action(str(action)) == action
                seen.add(type(action))
            state.apply(player, rng.choice(actions))
    assert seen == {Start, Draw, Keep}
    assert str(Keep("x")) == "keep x" and state.parse_action("keep x") == Keep("x")


@pytest.mark.parametrize("text", ["", "jump 3", "draw", "draw domestique", "keep seven", "start rouleur x"])
def test_bad_notation_is_refused(text):
    state = FlammeRouge(CONTENT, course=FLAT).new_state(2, seed=1)
    with pytest.raises(NotationError):
        state.parse_action(text)


@pytest.mark.parametrize("setup, field", [
    ({"bogus": 1}, "bogus"),
    ({"riders": {"P1": {"rouleur": [5], "sprinteur": [5]}, "P2": {"rouleur": [6], "sprinteur": [7]}}}, "riders.P1.sprinteur"),
    ({"riders": {"P1": {"rouleur": [30], "sprinteur": [5]}, "P2": {"rouleur": [6], "sprinteur": [7]}}}, "riders.P1.rouleur"),
    ({"decks": {"P1": {"rouleur": [9]}}}, "decks.P1.rouleur"),
    ({"decks": {"P9": {"rouleur": [3]}}}, "decks.P9"),
    ({"exhaustion_left": {"rouleur": 31}}, "exhaustion_left.rouleur"),
])
def test_setup_errors_name_the_field(setup, field):
    with pytest.raises(SetupError) as caught:
        FlammeRouge(CONTENT, course=FLAT).new_state(2, setup=setup)
    assert caught.value.field == field


@pytest.mark.parametrize("codes", ["SSSNNN", "SSSNNFFN", "NNSSFF", "SSQNFF", "FFFF"])
def test_bad_courses_are_refused(codes):
    with pytest.raises(ValueError, match="course"):
        Course(codes)


@pytest.mark.parametrize("params, message", [
    ({"stage": "tour-de-nowhere"}, "params.stage"),
    ({"mountains": "yes"}, "params.mountains"),
    ({"handicap": {"P7": 1}}, "params.handicap"),
    ({"handicap": {"P1": 31}}, "params.handicap.P1"),
    ({"course": 5}, "params.course"),
])
def test_bad_parameters_name_the_parameter(content, params, message):
    with pytest.raises(ValueError, match=message):
        engine_for(content).with_params(**params).new_state(2)


def test_unknown_parameter_is_refused():
    with pytest.raises(ValueError, match="wind"):
        FlammeRouge(CONTENT, wind=3)


# --- scenarios, stages, random races -------------------------------------------------------------

@pytest.fixture(scope="module")
def content():
    return load_game(PROJECT_CONTENT, "flamme-rouge")


SCENARIOS = sorted((PROJECT_CONTENT / "flamme-rouge" / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_replays_clean(content, path):
    result = run_scenario(path, engine_for(content))
    assert result.ok, result.failures
    assert not result.state.check_invariants()


def test_every_ruling_is_pinned_by_a_scenario(content):
    rulings = content.files["rulings"]["rulings"]
    assert len(rulings) >= 8
    assert all((content.root / r["scenario"]).is_file() for r in rulings)


def test_a_scenario_that_expects_the_wrong_square_fails(content, tmp_path):
    text = (PROJECT_CONTENT / "flamme-rouge" / "scenarios" / "blocking.yaml").read_text("utf-8")
    broken = tmp_path / "blocking.yaml"
    broken.write_text(text.replace("rider.P3.rouleur: [13, right]", "rider.P3.rouleur: [14, right]"), "utf-8")
    result = run_scenario(broken, engine_for(content))
    assert not result.ok and "rider.P3.rouleur" in result.failures[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_races_keep_every_invariant_on_every_stage(content, players):
    game = engine_for(content)
    rng = random.Random(players)
    for stage in game.stage_ids() * 4:
        state = game.with_params(stage=stage).new_state(players, seed=rng.randrange(10**6))
        while not state.is_terminal():
            for player in state.to_move():
                state.apply(player, rng.choice(state.legal_actions(player)))
                problems = state.check_invariants()
                assert not problems, (stage, problems)
        result = state.result()
        assert result["winner"] == result["order"][0].split()[0]
        assert len(result["order"]) == 2 * players


def test_invariants_catch_a_lost_card_and_a_rider_moving_back():
    state = play_round({"P1.rouleur": [10], "P1.sprinteur": [9], "P2.rouleur": [8], "P2.sprinteur": [7]},
                       {"P1.rouleur": 4, "P1.sprinteur": 4, "P2.rouleur": 4, "P2.sprinteur": 4})
    assert not state.check_invariants()
    # Changed behind the engine's back, so the full check (not only what the last action touched).
    state.recycled[0].append(7)  # a card from nowhere
    assert any("energy cards" in p for p in state.check_invariants(full=True))
    state.recycled[0].pop()
    state.exhaustion_left[1] -= 1  # an exhaustion card lost
    assert any("sprinteur exhaustion" in p for p in state.check_invariants(full=True))
    state.exhaustion_left[1] += 1
    r = 0
    state.occ[2 * state.square[r]] = -1
    state._put(r, 5, 0)
    assert any("moved back" in p for p in state.check_invariants(full=True))


def test_six_stages_are_known(content):
    assert len(engine_for(content).stage_ids()) == 6


def test_same_seed_same_race(content):
    game = engine_for(content).with_params(stage="le-col-du-ballon")
    first = random_race(game, 4, random.Random(42))
    again = random_race(game, 4, random.Random(42))
    assert first.result() == again.result()
    assert first.chance.log == again.chance.log
    other = random_race(game, 4, random.Random(43))
    assert other.chance.log != first.chance.log


def test_random_race_plays_through_to_a_winner(content):
    state = random_race(engine_for(content), 4, random.Random(1))
    assert state.is_terminal() and state.result()["winner"] in state.players
    assert not state.check_invariants()


def test_a_test_deck_may_hold_values_the_printed_decks_lack():
    state = FlammeRouge(CONTENT, course=FLAT).new_state(2, setup={
        "energy": {"rouleur": [1, 8, 8]},
        "riders": {"P1": {"rouleur": [4], "sprinteur": [3]}, "P2": {"rouleur": [2], "sprinteur": [1]}},
        "decks": {"P1": {"rouleur": [8, 1]}, "P2": {"rouleur": [8]}}})
    state.apply("P1", Draw("rouleur"))
    state.apply("P1", Keep(8))
    assert state.check_invariants() == []
    with pytest.raises(SetupError, match="from 1 to 9"):
        FlammeRouge(CONTENT, course=FLAT).new_state(2, setup={"energy": {"rouleur": [0, 10]}})
    with pytest.raises(SetupError, match="not .or no longer. in the rouleur deck"):
        FlammeRouge(CONTENT, course=FLAT).new_state(2, setup={"energy": {"rouleur": [1]}, "decks": {"P1": {"rouleur": [8]}}})
