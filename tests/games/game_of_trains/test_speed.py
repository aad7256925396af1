"""The shortcuts that make Game of Trains playouts fast give what the slow way gives: the greedy
scores of an Uncouple whose refill runs the draw pile out, of several Uncouples offered at
once while trains hold locks, and of swaps and moves kept for trains alike in order, are the
scores after playing them, the reshuffle looked ahead is the one the game then makes, and the
quick invariant check reports a fault planted in a train that changed as the whole check reports
it."""

from __future__ import annotations

import random

import pytest

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.registry import engine_for
from verify.games.game_of_trains.rules import PARAMS, Uncouple
from verify.simulate import scores_after_playing

READINGS = [{}] + [{key: value} for key, values in PARAMS.items() for value in values[1:]]


@pytest.fixture(scope="module")
def engine():
    return engine_for(load_game(PROJECT_CONTENT, "game-of-trains"))


def positions_in_play(game, seed, wanted):
    """Positions in play where `wanted(state, actions)` holds, met along random games of 2, 3 and
    4 players."""
    rng = random.Random(seed)
    for players in (2, 3, 4):
        state = game.new_state(players, seed=rng.getrandbits(32))
        while not state.is_terminal():
            player = state.to_move()[0]
            actions = state.legal_actions(player)
            if state.phase == "play" and wanted(state, actions):
                yield state, player, actions
            state.apply(player, rng.choice(actions))


def uncouples_offered(actions) -> int:
    return sum(type(action) is Uncouple for action in actions)


def short_pile(state, actions) -> bool:
    """An Uncouple is offered and the draw pile cannot refill every train."""
    return len(state.pile) < len(state.players) and uncouples_offered(actions) > 0


def several_uncouples_and_a_lock(state, actions) -> bool:
    """More than one Uncouple is offered (their scores share the cards the refill would draw) and
    some train holds a lock."""
    return uncouples_offered(actions) > 1 and any(state.locks.values())


@pytest.mark.parametrize("wanted", [short_pile, several_uncouples_and_a_lock], ids=lambda f: f.__name__)
@pytest.mark.parametrize("params", READINGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_uncouples_score_as_when_played(engine, params, wanted):
    game = engine.with_params(**params)
    checked = 0
    for seed in range(8):
        for state, player, actions in positions_in_play(game, seed, wanted):
            played = scores_after_playing(state, player, actions)
            assert state.score_actions(player, actions) == played, state.fields()
            assert [state.score_action(player, action) for action in actions] == played
            checked += 1
    assert checked >= 20


def test_the_reshuffle_looked_ahead_is_the_one_made(engine):
    rng = random.Random(3)
    state = engine.new_state(4, seed=8)
    cards = sorted(state.pile)
    for _ in range(40):
        discard = rng.sample(cards, rng.randrange(1, 30))
        count = rng.randrange(1, len(discard) + 1)
        looked = state._reshuffled(discard, count)
        trial = state.clone()
        trial.discard = list(discard)
        trial._reshuffle()
        assert looked == trial.pile[::-1][:count]
        if rng.random() < 0.3:
            state.chance.shuffle("reshuffle", [1, 2, 3])  # the chance moves on: the orders known go
    # A reshuffle a scenario has queued is the one looked ahead.
    state.chance.queue("reshuffle", [5, 3, 4])
    assert state._reshuffled([3, 4, 5], 3) == [5, 3, 4]


def _gap(state, train):
    state.discard.append(train[3])
    train[3] = None


def _short_train(state, train):
    state.discard.append(train.pop())


def _long_train(state, train):
    train.append(state.pile.pop(0))


def _rising_train(state, train):
    train.sort()


def _train_with_a_stranger(state, train):
    state.discard.append(train[2])
    train[2] = 999


TRAIN_FAULTS = [_gap, _short_train, _long_train, _rising_train, _train_with_a_stranger]


@pytest.mark.parametrize("fault", TRAIN_FAULTS, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("seed", range(3))
def test_the_quick_check_of_a_changed_train_reports_what_the_whole_check_reports(engine, fault, seed):
    # The quick check looks again at each train that changed since the last clean check; the fault
    # goes into the train of the player who has just moved, or of another player.
    state = engine.new_state(4, seed=seed)
    rng = random.Random(seed)
    while state.phase != "play" or state.turns < 10 + seed:
        player = state.to_move()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
        assert state.check_invariants() == [] == state.check_all_invariants()
    player = state.to_move()[0]
    state.apply(player, rng.choice(state.legal_actions(player)))
    fault(state, state.trains[rng.choice(state.players)])
    found = state.check_all_invariants()
    assert found and state.check_invariants() == found


@pytest.mark.parametrize("params", READINGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_way_scores_shared_by_trains_alike_in_order_are_the_scores_after_playing(engine, params):
    # The scores of swaps and moves are kept by the order of the carriages and the rival's count,
    # so each order is met twice here, with other numbers: the second train is scored from what
    # the first one left in the table.
    from verify.games.game_of_trains.rules import _REARRANGING

    game = engine.with_params(**params)
    rng = random.Random(11)
    market = [next(card for card, use in game.uses.items() if use[:2] == way) for way in _REARRANGING]
    rest = sorted(set(game.ability_of) - set(market))
    checked = 0
    for _ in range(60):
        order = rng.sample(range(7), 7)
        rival_train = rng.sample(rest, 7)
        for _ in range(2):
            numbers = sorted(rng.sample([c for c in rest if c not in rival_train], 7))
            train = [numbers[k] for k in order]
            if train == sorted(train):
                continue  # a rising train has won already
            state = game.new_state(2, setup={"trains": {"P1": train, "P2": rival_train}, "market": market})
            actions = state.legal_actions("P1")
            assert state.score_actions("P1", actions) == scores_after_playing(state, "P1", actions)
            checked += 1
    assert checked >= 100
