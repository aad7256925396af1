"""The Game of Trains engine, rule by rule, plus notation, hidden information and invariants."""

from __future__ import annotations

import random

import pytest

from cardgen.content import load_game
from tests.conftest import edit
from verify.engine import IllegalAction, NotationError, SetupError
from verify.games.game_of_trains.rules import (
    Draft, DrawPlace, GameOfTrains, Keep, Lock, Move, Swap, Uncouple, is_ascending, parse_action,
)
from verify.simulate import scores_after_playing

P2_TRAIN = [80, 74, 65, 58, 49, 43, 37]  # a falling train that no test below touches


@pytest.fixture(scope="module")
def game(trains):
    return GameOfTrains(trains)


def midgame(game, p1, market=(), players=2, **extra):
    trains = {"P1": p1, "P2": list(P2_TRAIN)}
    if players >= 3:
        trains["P3"] = [82, 76, 67, 62, 55, 48, 38]
    return game.new_state(players, setup={"trains": trains, "market": list(market), **extra})


def snapshot(state):
    return (state.fields(), list(state.pile), list(state.discard), list(state.chance.log))


def refused(state, player, action, rule):
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(player, action)
    assert info.value.rule == rule, str(info.value)
    assert snapshot(state) == before, "a refused action changed the state"
    return info.value


# --- setup and draft --------------------------------------------------------------------------


def test_deal_gives_seven_each_sorted_falling_from_locomotive(game):
    state = game.new_state(4, seed=3)
    for p in state.players:
        train = state.trains[p]
        assert len(train) == 7 and train == sorted(train, reverse=True)


def test_draft_seat_k_draws_k_cards_in_seat_order(game):
    deck = list(range(84, 0, -1))
    state = game.new_state(3, setup={"deck": deck})
    assert state.draft_hands == {"P1": [63], "P2": [62, 61], "P3": [60, 59, 58]}
    assert state.phase == "draft" and state.to_move() == ["P1", "P2", "P3"]
    assert state.fields()["draw_top"] == [57, 56, 55]


def test_draft_discards_unchosen_cards_and_sends_replaced_carriage_to_market(game):
    state = game.new_state(2, setup={"deck": list(range(1, 85))})
    assert state.trains["P2"] == [14, 13, 12, 11, 10, 9, 8]
    state.apply("P1", Draft(15, 1))
    state.apply("P2", Draft(17, 7))
    assert state.discard == [16]
    assert sorted(state.market) == [7, 8]  # 7 (ability 5) and 8 (ability 2) do not pair
    assert state.phase == "play" and state.to_move() == ["P1"]


def test_same_seed_same_deal(game):
    assert game.new_state(3, seed=11).fields() == game.new_state(3, seed=11).fields()
    assert game.new_state(3, seed=11).fields() != game.new_state(3, seed=12).fields()


def test_unused_locomotives_are_out_of_the_game(game):
    assert game.new_state(2, seed=1).locomotives_out == 2
    assert game.new_state(4, seed=1).locomotives_out == 0


# --- market, drawing and turns ----------------------------------------------------------------


def test_market_discards_a_pair_of_one_ability_at_once(game):
    state = midgame(game, [10, 20, 30, 40, 50, 17, 70], market=[9], deck=[60])
    state.apply("P1", DrawPlace(6))  # 17 has ability 3, like 9 in the market
    assert state.market == [] and sorted(state.discard) == [9, 17]


def test_draw_place_puts_top_card_and_sends_replaced_carriage_to_market(game):
    state = midgame(game, [10, 20, 30, 40, 50, 5, 70], deck=[33])
    state.apply("P1", DrawPlace(3))
    assert state.trains["P1"] == [10, 20, 33, 40, 50, 5, 70]
    assert state.market == [30] and state.to_move() == ["P2"] and state.turns == 1


def test_turn_order_refuses_the_player_not_to_move(game):
    state = midgame(game, [10, 20, 30, 40, 50, 5, 70])
    assert "not your turn" in str(refused(state, "P2", DrawPlace(1), "turn order"))


def test_empty_market_leaves_only_draw_actions(game):
    state = midgame(game, [10, 20, 30, 40, 50, 5, 70])
    assert state.legal_actions("P1") == [DrawPlace(p) for p in range(1, 8)]
    refused(state, "P1", Swap(12, 1, 2), "market")


def test_draw_position_must_be_on_the_train(game):
    state = midgame(game, [10, 20, 30, 40, 50, 5, 70])
    refused(state, "P1", DrawPlace(8), "draw")
    refused(state, "P1", DrawPlace(0), "draw")


def test_reshuffle_happens_only_when_a_card_must_be_drawn_with_reshuffle_when_needed(game):
    state = midgame(game.with_params(reshuffle="when-needed"), [10, 20, 30, 40, 50, 5, 70], deck=[60], rest="discard")
    state.apply("P1", DrawPlace(7))
    assert state.pile == [] and not any(kind == "reshuffle" for kind, _ in state.chance.log)
    discard = sorted(state.discard)
    state.chance.queue("reshuffle", discard)
    state.apply("P2", DrawPlace(1))
    assert state.chance.log[-1] == ("reshuffle", discard)
    assert state.trains["P2"][0] == discard[0] and len(state.pile) == len(discard) - 1
    assert state.discard == []


# --- abilities --------------------------------------------------------------------------------


def test_swap_swaps_neighbours_only(game):
    state = midgame(game, [5, 20, 15, 30, 45, 35, 60], market=[12])
    refused(state, "P1", Swap(12, 2, 4), "ability 1")
    state.apply("P1", Swap(12, 2, 3))
    assert state.trains["P1"] == [5, 15, 20, 30, 45, 35, 60] and state.discard == [12]


def test_leapfrog_swaps_across_one_and_keeps_the_middle(game):
    state = midgame(game, [33, 21, 13, 64, 57, 45, 70], market=[8])
    refused(state, "P1", Swap(8, 1, 2), "ability 2")
    state.apply("P1", Swap(8, 1, 3))
    assert state.trains["P1"] == [13, 21, 33, 64, 57, 45, 70]


def test_push_back_moves_two_places_and_shifts_the_passed_carriages(game):
    state = midgame(game, [41, 5, 22, 50, 66, 61, 79], market=[17])
    state.apply("P1", Move(17, 1, 3))
    assert state.trains["P1"] == [5, 22, 41, 50, 66, 61, 79]


def test_push_back_cannot_take_the_last_two_carriages(game):
    state = midgame(game, [41, 5, 22, 50, 66, 61, 79], market=[17])
    refused(state, "P1", Move(17, 6, 8), "ability 3")
    refused(state, "P1", Move(17, 3, 1), "ability 3")
    assert {a.source for a in state.legal_actions("P1") if isinstance(a, Move)} == {1, 2, 3, 4, 5}


def test_pull_forward_moves_two_places_towards_the_locomotive(game):
    state = midgame(game, [20, 30, 44, 50, 10, 60, 70], market=[3])
    refused(state, "P1", Move(3, 2, 0), "ability 4")
    state.apply("P1", Move(3, 5, 3))
    assert state.trains["P1"] == [20, 30, 10, 44, 50, 60, 70]
    assert {a.source for a in midgame(game, [20, 30, 44, 50, 10, 60, 70], market=[3]).legal_actions("P1")
            if isinstance(a, Move)} == {3, 4, 5, 6, 7}


@pytest.mark.parametrize("card, position", [(7, 1), (5, 4), (6, 7)])
def test_uncouple_removes_the_same_position_from_every_train_including_own(game, card, position):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 4], market=[card], deck=[1, 84])
    p1_removed = state.trains["P1"][position - 1]
    p2_removed = state.trains["P2"][position - 1]
    state.apply("P1", Uncouple(card))
    assert state.trains["P1"][position - 1] == 1  # the active player refills first
    assert state.trains["P2"][position - 1] == 84
    assert p1_removed in state.market + state.discard and p2_removed in state.market + state.discard
    assert card in state.discard


def test_uncouple_refill_goes_clockwise_from_the_active_player(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 4], market=[7], players=3, deck=[1, 2, 3], turn="P2")
    state.apply("P2", Uncouple(7))
    assert [state.trains[p][0] for p in ("P2", "P3", "P1")] == [1, 2, 3]


def test_locked_carriage_survives_uncouple(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 4], market=[6], locks={"P1": {7: 18}}, deck=[1])
    state.apply("P1", Uncouple(6))
    assert state.trains["P1"][6] == 4 and state.trains["P2"][6] == 1 and state.locks["P1"] == {7: 18}


def test_lock_card_goes_under_the_train_not_to_the_discard(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 4], market=[26])
    state.apply("P1", Lock(26, 4))
    assert state.locks["P1"] == {4: 26} and state.discard == [] and state.market == []


def test_lock_only_on_positions_1_4_7_of_own_train(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 4], market=[26])
    refused(state, "P1", Lock(26, 3), "ability 8")
    assert {a.position for a in state.legal_actions("P1") if isinstance(a, Lock)} == {1, 4, 7}


def test_lock_is_lost_when_its_carriage_moves(game):
    state = midgame(game, [10, 20, 30, 40, 50, 44, 70], market=[3], locks={"P1": {4: 2}})
    state.apply("P1", Move(3, 6, 4))
    assert state.locks["P1"] == {} and state.discard == [2, 3]


def test_lock_is_lost_when_its_carriage_is_only_shifted(game):
    state = midgame(game, [10, 20, 30, 40, 50, 44, 70], market=[17], locks={"P1": {4: 2}})
    state.apply("P1", Move(17, 3, 5))  # 30 jumps over the locked 40, which slides to position 3
    assert state.trains["P1"] == [10, 20, 40, 50, 30, 44, 70]
    assert state.locks["P1"] == {} and state.discard == [2, 17]


def test_lock_is_lost_when_its_carriage_is_swapped(game):
    state = midgame(game, [10, 20, 30, 40, 50, 44, 70], market=[12], locks={"P1": {1: 2}})
    state.apply("P1", Swap(12, 1, 2))
    assert state.locks["P1"] == {} and 2 in state.discard


def test_lock_is_kept_when_other_carriages_move(game):
    state = midgame(game, [10, 20, 30, 40, 50, 44, 70], market=[12], locks={"P1": {1: 2}})
    state.apply("P1", Swap(12, 5, 6))
    assert state.locks["P1"] == {1: 2}


def test_lock_is_kept_when_leapfrog_swaps_across_it(game):
    state = midgame(game, [10, 20, 30, 40, 50, 44, 70], market=[8], locks={"P1": {4: 2}})
    state.apply("P1", Swap(8, 3, 5))  # 30 and 50 change places; the locked 40 between them stays put
    assert state.trains["P1"] == [10, 20, 50, 40, 30, 44, 70] and state.locks["P1"] == {4: 2}


def test_lock_is_lost_when_its_carriage_is_replaced(game):
    state = midgame(game, [10, 20, 30, 40, 50, 44, 70], locks={"P1": {4: 2}}, deck=[45])
    state.apply("P1", DrawPlace(4))
    assert state.locks["P1"] == {} and state.discard == [2] and state.market == [40]


def test_ruling_locks_do_not_stack(game):
    state = midgame(game, [10, 20, 30, 40, 50, 44, 70], market=[18], locks={"P1": {1: 2}})
    refused(state, "P1", Lock(18, 1), "ruling: locks-do-not-stack")


def test_ruling_no_effect_uncouple_when_every_target_is_locked(game):
    state = midgame(game, [10, 20, 30, 40, 50, 44, 70], market=[6], locks={"P1": {7: 2}, "P2": {7: 34}})
    refused(state, "P1", Uncouple(6), "ruling: no-effect")
    assert not any(isinstance(a, Uncouple) for a in state.legal_actions("P1"))


def test_ruling_no_effect_lock_when_1_4_7_are_locked(game):
    state = midgame(game, [10, 20, 30, 40, 50, 44, 70], market=[18], locks={"P1": {1: 2, 4: 26, 7: 34}})
    refused(state, "P1", Lock(18, 4), "ruling: no-effect")


def test_ruling_used_card_leaves_market_before_its_effect(game):
    state = midgame(game, [40, 20, 30, 13, 50, 60, 70], market=[5], locks={"P2": {4: 10}}, deck=[27])
    state.apply("P1", Uncouple(5))  # 13 has ability 6, like the used card 5
    assert state.market == [13] and state.discard == [5]


def test_ruling_pair_rule_on_arrival_follows_refill_order(game):
    # P2 uses the card, so refill order (P2, P1) and seat order (P1, P2) disagree.
    state = game.with_params(pairs="on-arrival").new_state(2, setup={
        "trains": {"P1": [9, 44, 20, 28, 36, 12, 53], "P2": [25, 80, 70, 60, 50, 41, 33]},
        "market": [17, 7], "deck": [30, 40], "turn": "P2"})
    state.apply("P2", Uncouple(7))  # 9, 25 and 17 all have ability 3; P2's 25 arrives first
    assert state.market == [9] and sorted(state.discard) == [7, 17, 25]


def test_used_card_is_discarded_only_after_its_effect(game):
    # The draw pile is empty, so P2's refill reshuffles the discard pile; the used card 6 is not in it.
    state = midgame(game, [10, 20, 30, 40, 50, 60, 4], market=[6], locks={"P1": {7: 18}}, deck=[],
                    rest="discard")
    state.apply("P1", Uncouple(6))
    kind, order = state.chance.log[-1]
    assert kind == "reshuffle" and 6 not in order and state.market == [37]  # 37: P2's last carriage
    assert state.discard == [6] and state.trains["P2"][6] == order[0]


def test_ruling_draft_in_turn_pairs_each_carriage_as_it_arrives(game):
    trains = {"P1": [84, 80, 70, 60, 33, 20, 10], "P2": [83, 79, 69, 41, 30, 19, 11],
              "P3": [82, 78, 67, 50, 29, 18, 12]}  # 33, 41 and 50 all have ability 3
    state = game.with_params(draft="in-turn").new_state(3, setup={"phase": "draft", "trains": trains, "deck": [40, 44, 45, 52, 53, 54]})
    state.apply("P1", Draft(40, 5))
    state.apply("P2", Draft(44, 4))
    assert state.market == [] and sorted(state.discard) == [33, 41, 45]
    state.apply("P3", Draft(54, 4))
    assert state.market == [50]


# --- the end ----------------------------------------------------------------------------------


def test_ascending_means_complete_and_strictly_rising():
    assert is_ascending([1, 2, 3, 4, 5, 6, 7])
    assert not is_ascending([1, 2, 3, 5, 4, 6, 7])
    assert not is_ascending([1, 2, 3, None, 5, 6, 7])


def test_win_by_draw_ends_the_game_at_once(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 5], deck=[70])
    state.apply("P1", DrawPlace(7))
    assert state.is_terminal() and state.to_move() == [] and state.legal_actions("P2") == []
    assert state.result() == {"winner": "P1", "order": ["P1", "P2"], "turns": 1}
    refused(state, "P2", DrawPlace(1), "game over")


def test_win_by_own_ability(game):
    state = midgame(game, [10, 20, 40, 30, 50, 60, 70], market=[12])
    state.apply("P1", Swap(12, 3, 4))
    assert state.result()["winner"] == "P1"


def test_ruling_first_complete_train_in_refill_order_wins(game):
    state = game.new_state(3, setup={
        "trains": {"P1": [10, 20, 30, 40, 50, 60, 5], "P2": [84, 12, 22, 32, 42, 52, 79],
                   "P3": [11, 21, 31, 41, 51, 61, 3]},
        "market": [6], "deck": [72, 71, 70], "turn": "P2"})
    state.apply("P2", Uncouple(6))
    assert state.result() == {"winner": "P3", "order": ["P3", "P1", "P2"], "turns": 1}
    assert state.trains["P1"][6] is None and state.check_invariants() == []


def test_win_is_checked_in_the_draft(game):
    state = game.new_state(2, setup={"phase": "draft", "deck": [9, 75, 77], "trains": {
        "P1": [80, 70, 60, 50, 40, 30, 20], "P2": [11, 22, 33, 44, 55, 66, 1]}})
    state.apply("P1", Draft(9, 7))
    state.apply("P2", Draft(77, 7))
    assert state.result()["winner"] == "P2" and state.result()["turns"] == 0


# --- setup errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("setup, field", [
    ({"trains": {"P1": [1, 2, 3, 4, 5, 6], "P2": P2_TRAIN}}, "trains.P1"),
    ({"trains": {"P1": [1, 2, 3, 4, 5, 7, 6], "P2": [1, 75, 66, 61, 54, 47, 39]}}, "trains.P2"),
    ({"trains": {"P1": [1, 2, 3, 4, 5, 7, 6], "P2": P2_TRAIN}, "market": [9, 17]}, "market"),
    ({"trains": {"P1": [1, 2, 3, 4, 5, 7, 6], "P2": P2_TRAIN}, "locks": {"P1": {3: 10}}}, "locks.P1"),
    ({"trains": {"P1": [1, 2, 3, 4, 5, 7, 6], "P2": P2_TRAIN}, "locks": {"P1": {4: 12}}}, "locks.P1"),
    ({"trains": {"P1": [1, 2, 3, 4, 5, 7, 6], "P2": P2_TRAIN}, "turn": "P5"}, "turn"),
    ({"trains": {"P1": [1, 2, 3, 4, 5, 7, 6], "P2": P2_TRAIN}, "phase": "draft", "locks": {"P1": {4: 10}}},
     "locks"),
    ({"trains": {"P1": [1, 2, 3, 4, 5, 6, 7], "P2": P2_TRAIN}}, "trains.P1"),
    ({"trains": {"P1": [1, 2, 3, 4, 5, 7, 6]}}, "trains"),
    ({"deck": [1, 2, 2]}, "deck"),
    ({"deck": [1, 85]}, "deck.1"),
    ({"market": [1]}, "market"),
    ({"hand": [1]}, "hand"),
])
def test_setup_errors_name_the_field(game, setup, field):
    with pytest.raises(SetupError) as info:
        game.new_state(2, setup=setup)
    assert info.value.field == field


def test_card_abilities_come_from_the_content(content_copy):
    # Give card 12 the ability of card 17 (Push back) instead of Swap.
    edit(content_copy / "game-of-trains" / "cards.yaml", "number: 12, ability: 1", "number: 12, ability: 3")
    edit(content_copy / "game-of-trains" / "cards.yaml", "number: 80, ability: 1", "number: 80, ability: 3")
    changed = GameOfTrains(load_game(content_copy, "game-of-trains"))
    state = midgame(changed, [41, 5, 22, 50, 66, 61, 79], market=[12])
    state.apply("P1", Move(12, 1, 3))
    assert state.trains["P1"] == [5, 22, 41, 50, 66, 61, 79]


# --- notation, hidden information, invariants -------------------------------------------------


def play_randomly(state, rng, steps):
    """Play up to `steps` random actions (fewer when the game ends), yielding after each."""
    for _ in range(steps):
        if state.is_terminal():
            return
        player = state.to_move()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
        yield state


def random_states(game, count, seed):
    """States met along random games, for tests that want variety."""
    rng = random.Random(seed)
    for i in range(count):
        state = game.new_state(rng.choice([2, 3, 4]), seed=i)
        # Every fourth state is taken in the draft, the others somewhere in play.
        steps = rng.randrange(0, len(state.players)) if i % 4 == 0 else rng.randrange(4, 120)
        for _ in play_randomly(state, rng, steps):
            pass
        yield state


def test_notation_round_trips_for_every_legal_action_in_random_states(game):
    seen = set()
    for state in random_states(game, 60, seed=1):
        for player in state.to_move():
            for action in state.legal_actions(player):
                assert parse_action(str(action)) == action
                seen.add(type(action).__name__)
    assert seen == {"Draft", "DrawPlace", "Swap", "Move", "Uncouple", "Lock"}


def test_every_legal_action_is_accepted(game):
    for state in random_states(game, 25, seed=2):
        for player in state.to_move():
            for action in state.legal_actions(player):
                state.clone().apply(player, action)


@pytest.mark.parametrize("text", ["", "draw", "draw place", "draw place x", "use", "use 12 swap 1",
                                  "draft 3 on 4", "use 12 lock", "take 5", "draw place ²"])
def test_unreadable_actions_raise_notation_errors(text):
    with pytest.raises(NotationError):
        parse_action(text)


def test_swap_notation_reads_either_order():
    assert parse_action("use 12 swap 4 3") == Swap(12, 3, 4)


def test_observation_hides_draw_pile_discard_and_other_draft_hands(game):
    state = game.new_state(3, seed=4)
    seen = state.observation("P2")
    assert seen["draft_hand"] == sorted(state.draft_hands["P2"])
    assert seen["draft_hand_sizes"] == {"P1": 1, "P2": 2, "P3": 3}
    text = repr(seen)
    for hidden in state.draft_hands["P1"] + state.draft_hands["P3"]:
        assert f" {hidden}," not in text and f"[{hidden}]" not in text and f" {hidden}]" not in text
    assert "pile" not in seen and "discard" not in seen
    assert seen["draw_size"] == len(state.pile)


def test_invariants_hold_at_the_start(game):
    for players in (2, 3, 4):
        assert game.new_state(players, seed=players).check_invariants() == []


def test_invariants_catch_a_card_in_two_places(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 5])
    state.market.append(10)
    assert any("card 10 is both" in p for p in state.check_invariants())


def test_invariants_catch_a_lost_card(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 5])
    state.pile.remove(1)
    assert any("cards in no place: [1]" in p for p in state.check_invariants())


def test_invariants_catch_a_pair_in_the_market(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 5], market=[9])
    state.pile.remove(17)
    state.market.append(17)
    assert any("two cards of one ability" in p for p in state.check_invariants())


def test_invariants_catch_a_short_train_outside_a_refill(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 5])
    state.discard.append(state.trains["P1"][3])
    state.trains["P1"][3] = None
    assert any("not 7 carriages" in p for p in state.check_invariants())


def _take_from_pile(state, wanted):
    card = next(c for c in reversed(state.pile) if wanted(c))
    state.pile.remove(card)
    return card


def _lose_a_card(state):
    state.pile.pop(0)


def _duplicate_a_card(state):
    state.discard.append(state.trains["P2"][0])


def _duplicate_within_the_pile(state):
    state.pile[0] = state.pile[1]


def _bring_a_stranger(state):
    state.pile[0] = 99


def _shuffle_the_piles_together_losing_a_card(state):
    state.pile = sorted(state.pile + state.discard)[1:]
    state.discard = []


def _discard_a_train_card_twice(state):
    state.discard = state.discard[1:] + [state.trains["P1"][0]] + state.discard[:1]


def _leave_a_gap(state):
    state.discard.append(state.trains["P1"][3])
    state.trains["P1"][3] = None


def _lock_the_wrong_carriage(state):
    lock = _take_from_pile(state, lambda c: state.game.ability_of[c] == state.game.lock_ability)
    state.locks["P1"].pop(2, None)
    state.locks["P1"][2] = lock


def _lock_with_a_card_that_is_no_lock(state):
    card = _take_from_pile(state, lambda c: state.game.ability_of[c] != state.game.lock_ability)
    state.discard.extend(state.locks["P2"].values())
    state.locks["P2"][4] = card


def _pair_in_the_market(state):
    first = _take_from_pile(state, lambda c: True)
    ability = state.game.ability_of[first]
    second = _take_from_pile(state, lambda c: state.game.ability_of[c] == ability)
    state.discard.extend(state.market)
    state.market[:] = [first, second]


def _rising_train_in_play(state):
    state.trains["P2"].sort()


def _lose_a_locomotive(state):
    state.locomotives_out += 1


FAULTS = [_lose_a_card, _duplicate_a_card, _duplicate_within_the_pile, _bring_a_stranger,
          _shuffle_the_piles_together_losing_a_card, _discard_a_train_card_twice, _leave_a_gap,
          _lock_the_wrong_carriage, _lock_with_a_card_that_is_no_lock, _pair_in_the_market,
          _rising_train_in_play, _lose_a_locomotive]


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("seed", range(4))
def test_the_quick_invariant_check_reports_what_the_whole_check_reports(game, fault, seed):
    # Play on, checking after every action as a playout does, so that the check after the fault
    # looks again only at what the last action and the fault changed.
    state = game.new_state(3, seed=seed)
    rng = random.Random(seed)
    for _ in play_randomly(state, rng, 12 + 7 * seed):
        assert state.check_invariants() == [] == state.check_all_invariants()
    assert state.phase == "play"
    player = state.to_move()[0]
    state.apply(player, rng.choice(state.legal_actions(player)))
    fault(state)
    found = state.check_all_invariants()
    assert found and state.check_invariants() == found


def test_the_quick_invariant_check_agrees_with_the_whole_check_along_games(game):
    for params in READINGS:
        configured = game.with_params(**params)
        for seed in range(3):
            for state in play_randomly(configured.new_state(4, seed=seed), random.Random(seed), 150):
                assert state.check_invariants() == state.check_all_invariants() == []


def test_clone_shares_nothing_that_changes(game):
    state = game.new_state(2, seed=9)
    copy = state.clone()
    copy.apply("P1", copy.legal_actions("P1")[0])
    copy.chance.shuffle("probe", [1, 2, 3])
    assert state.fields() == game.new_state(2, seed=9).fields()
    assert state.chance.log == game.new_state(2, seed=9).chance.log


def test_score_prefers_more_rising_neighbours(game):
    better = midgame(game, [10, 20, 30, 40, 50, 60, 5]).score("P1")
    worse = midgame(game, [60, 20, 30, 40, 50, 10, 5]).score("P1")
    assert better > worse


def test_notation_help_names_every_action_form_and_field(game):
    text = game.notation_help()
    for part in ("draft <card> at", "draw place", "swap", "move", "lock", "train.P1", "locks.P1",
                 "market", "draw_top", "draw_size", "discard_size", "to_move", "phase", "winner"):
        assert part in text


# --- the readings the rules leave open (game parameters) ---------------------------------------


def test_params_are_checked(game):
    with pytest.raises(ValueError, match="unknown parameter 'stage'"):
        game.with_params(stage="x")
    with pytest.raises(ValueError, match="params.draft: must be one of together, in-turn, keep-then-place"):
        game.with_params(draft="backwards")


def test_ruling_opening_draft_choices_are_secret_until_everyone_has_chosen(game):
    state = game.new_state(3, setup={"deck": list(range(84, 0, -1))})
    before = {p: list(t) for p, t in state.trains.items()}
    state.apply("P3", Draft(58, 1))
    state.apply("P1", Draft(63, 7))
    assert state.trains == before and state.market == [] and state.to_move() == ["P2"]
    assert "already chosen" in str(refused(state, "P1", Draft(63, 6), "draft"))
    state.apply("P2", Draft(61, 7))
    assert [state.trains[p][k] for p, k in (("P1", 6), ("P2", 6), ("P3", 0))] == [63, 61, 58]
    assert state.phase == "play" and state.to_move() == ["P1"]


def test_ruling_opening_draft_in_turn_shows_earlier_placements(game):
    state = game.with_params(draft="in-turn").new_state(3, setup={"deck": list(range(84, 0, -1))})
    assert state.to_move() == ["P1"]
    state.apply("P1", Draft(63, 7))
    assert state.trains["P1"][6] == 63 and state.to_move() == ["P2"]


def test_ruling_opening_draft_keep_then_place_keeps_all_cards_before_any_placement(game):
    state = game.with_params(draft="keep-then-place").new_state(3, setup={"deck": list(range(84, 0, -1))})
    assert state.legal_actions("P1") == [Keep(63)]
    refused(state, "P1", Draft(63, 7), "draft")
    for player, card in (("P1", 63), ("P2", 61), ("P3", 58)):
        state.apply(player, Keep(card))
    assert state.discard == [62, 59, 60] and all(t == sorted(t, reverse=True) for t in state.trains.values())
    state.apply("P1", Draft(63, 7))
    assert state.trains["P1"][6] == 63 and state.to_move() == ["P2"]


def test_ruling_no_effect_allowed_clears_the_card_from_the_market(game):
    state = midgame(game.with_params(no_effect="allowed"), [10, 20, 30, 40, 50, 44, 70], market=[6, 18],
                    locks={"P1": {1: 2, 4: 26, 7: 34}, "P2": {7: 42}})
    assert Uncouple(6) in state.legal_actions("P1") and Lock(18, 1) in state.legal_actions("P1")
    state.apply("P1", Uncouple(6))
    assert state.market == [18] and state.discard == [6] and state.trains["P2"] == P2_TRAIN


def test_ruling_pair_rule_after_removals_keeps_the_card_already_in_the_market(game):
    state = game.new_state(2, setup={
        "trains": {"P1": [9, 44, 20, 28, 36, 12, 53], "P2": [25, 80, 70, 60, 50, 41, 33]},
        "market": [17, 7], "deck": [30, 40], "turn": "P2"})
    state.apply("P2", Uncouple(7))  # 25 and 9 arrive; 17, 25 and 9 are all Push back
    assert state.market == [17] and sorted(state.discard) == [7, 9, 25]


def test_ruling_pair_rule_in_a_draft_played_together_keeps_the_first_players_card(game):
    trains = {"P1": [84, 80, 70, 60, 33, 20, 10], "P2": [83, 79, 69, 41, 30, 19, 11],
              "P3": [82, 78, 67, 50, 29, 18, 12]}  # 33, 41 and 50 all have ability 3
    state = game.new_state(3, setup={"phase": "draft", "trains": trains, "deck": [40, 44, 45, 52, 53, 54]})
    for player, action in (("P1", Draft(40, 5)), ("P2", Draft(44, 4)), ("P3", Draft(54, 4))):
        state.apply(player, action)
    assert state.market == [33] and sorted(state.discard) == [41, 45, 50, 52, 53]


def test_ruling_reshuffle_at_once_when_the_last_card_is_drawn(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 5], market=[12], deck=[70], rest="discard")
    state.apply("P1", DrawPlace(5))
    assert state.chance.log[-1][0] == "reshuffle" and len(state.pile) == 68 and state.discard == []
    state.apply("P2", Swap(12, 1, 2))
    assert state.discard == [12] and 12 not in state.pile


def test_ruling_who_refills_only_players_who_lost_a_carriage(game):
    state = midgame(game, [10, 20, 30, 40, 50, 60, 4], market=[6], players=3, locks={"P2": {7: 18}},
                    deck=[1, 2, 3])
    state.apply("P1", Uncouple(6))
    assert [state.trains[p][6] for p in ("P1", "P2", "P3")] == [1, 37, 2] and state.to_move() == ["P2"]


def test_ruling_who_refills_everyone_lets_a_locked_player_draw_and_place(game):
    state = midgame(game.with_params(refill="everyone"), [10, 20, 30, 40, 50, 60, 4], market=[6], players=3,
                    locks={"P2": {7: 18}}, deck=[1, 2, 3])
    state.apply("P1", Uncouple(6))
    assert state.phase == "refill" and state.to_move() == ["P2"] and state.trains["P3"][6] is None
    assert state.legal_actions("P2") == [DrawPlace(p) for p in range(1, 8)]
    assert state.check_invariants() == []
    refused(state, "P3", DrawPlace(7), "turn order")
    state.apply("P2", DrawPlace(7))  # onto the locked carriage: the lock is lost, as with any draw
    assert state.trains["P2"][6] == 2 and state.locks["P2"] == {} and state.trains["P3"][6] == 3
    assert state.phase == "play" and state.to_move() == ["P2"] and state.turns == 1
    assert 6 in state.discard and 18 in state.discard


READINGS = [{}, {"draft": "in-turn"}, {"draft": "keep-then-place"}, {"refill": "everyone"},
            {"reshuffle": "when-needed"}, {"pairs": "on-arrival"}, {"no_effect": "allowed"},
            {"draft": "in-turn", "refill": "everyone", "reshuffle": "when-needed", "pairs": "on-arrival",
             "no_effect": "allowed"}]


@pytest.mark.parametrize("params", READINGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_score_action_equals_the_score_after_playing_the_action(game, params):
    configured = game.with_params(**params)
    checked = 0
    for state in random_states(configured, 80, seed=7):
        for player in state.to_move():
            actions = state.legal_actions(player)
            played = []
            for action in actions:
                trial = state.clone()
                trial.apply(player, action)
                played.append(trial.score(player))
                assert state.score_action(player, action) == played[-1], (str(action), state.fields())
                checked += 1
            # The whole list as legal_actions offered it, and the same actions in another order.
            assert state.score_actions(player, actions) == played, state.fields()
            assert state.score_actions(player, actions[::-1]) == played[::-1], state.fields()
    assert checked > 800


def test_score_actions_sees_the_card_a_reshuffle_would_bring(game):
    state = midgame(game.with_params(reshuffle="when-needed"), [10, 20, 30, 40, 50, 60, 5], market=[12, 7],
                    deck=[], rest="discard")
    actions = state.legal_actions("P1")
    played = scores_after_playing(state, "P1", actions)
    assert state.pile == [] and state.score_actions("P1", actions) == played
    assert [state.score_action("P1", action) for action in actions] == played
    assert state.chance.log == []  # looking ahead shuffled a copy of the chance only


@pytest.mark.parametrize("draft, first", [("together", "P1"), ("together", "P2"), ("in-turn", None)])
def test_draft_scores_let_the_first_rising_train_in_seat_order_win(game, draft, first):
    # Either player completes a rising train by putting the drawn card last (P1 70, P2 77).
    trains = {"P1": [10, 20, 30, 40, 50, 60, 5], "P2": [11, 22, 33, 44, 55, 66, 1]}
    state = game.with_params(draft=draft).new_state(2, setup={"phase": "draft", "deck": [70, 75, 77],
                                                             "trains": trains})
    if first is not None:
        state.apply(first, {"P1": Draft(70, 7), "P2": Draft(77, 7)}[first])
    player = state.to_move()[0]
    actions = state.legal_actions(player)
    played = scores_after_playing(state, player, actions)
    assert state.score_actions(player, actions) == played
    assert (1000 in played) == (player == "P1") and (-1000 in played) == (draft == "together")


@pytest.mark.parametrize("params", READINGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_every_reading_keeps_every_invariant_and_greedy_games_finish(game, params):
    from verify.simulate import simulate

    configured = game.with_params(**params)
    for players in (2, 4):
        report = simulate(configured, players, games=20, seed=players, policy="random", turn_cap=300)
        assert report.failures == []
        report = simulate(configured, players, games=20, seed=players, policy="greedy", turn_cap=2000)
        assert report.failures == [] and report.capped == 0
