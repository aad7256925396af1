"""The incremental invariant check sees every change the engine makes: after each action, every
rider whose cards changed is among those it checks, and a move of any rider is noticed; the
incremental and the full check agree; a clone is independent."""

from __future__ import annotations

import random

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.registry import engine_for
from verify.games.flamme_rouge.rules import READINGS


def snapshot(state):
    cards = []
    for r in range(len(state.square)):
        p = r // 2
        hand = state.hand[p] if state.hand[p] is not None and state.hand_rider[p] == r else None
        cards.append((tuple(state.deck[r]), tuple(state.recycled[r]), tuple(state.played[r]), state.kept[r],
                      None if hand is None else tuple(hand)))
    return cards, (tuple(state.square), tuple(state.lane), tuple(state.occ)), tuple(state.exhaustion_left)


def test_incremental_invariant_checks_cover_every_change():
    engine = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    rng = random.Random(5)
    params = [{}] + [{key: values[1]} for key, values in READINGS.items()]
    for stage in engine.stage_ids():
        for extra in params:
            game = engine.with_params(stage=stage, **extra)
            state = game.new_state(rng.choice([2, 3, 4]), seed=rng.getrandbits(32))
            assert not state.check_invariants()
            while not state.is_terminal():
                player = state.to_move()[0]
                before = snapshot(state)
                state.apply(player, rng.choice(state.legal_actions(player)))
                after = snapshot(state)
                dirty = state._dirty
                if dirty is not None:
                    changed = {r for r, (a, b) in enumerate(zip(before[0], after[0])) if a != b}
                    assert changed <= dirty, (stage, extra, changed, dirty)
                    if before[2] != after[2]:
                        assert dirty, "the exhaustion pile changed without a rider's cards"
                if before[1] != after[1]:
                    assert state._moved
                twin = state.clone()
                assert state.check_invariants() == [] == twin.check_invariants(full=True)


def test_a_clone_shares_no_mutable_part():
    engine = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    state = engine.new_state(4, seed=3)
    rng = random.Random(3)
    for _ in range(40):
        player = state.to_move()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    twin = state.clone()
    fields = state.fields()
    for _ in range(60):
        if twin.is_terminal():
            break
        player = twin.to_move()[0]
        twin.apply(player, rng.choice(twin.legal_actions(player)))
    assert state.fields() == fields
    assert not state.check_invariants(full=True) and not twin.check_invariants(full=True)


def test_the_card_check_catches_a_card_changed_lost_or_added():
    engine = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    state = engine.new_state(2, seed=4)
    assert not state.check_invariants(full=True)
    deck = state.deck[0]
    for change in ("swap", "foreign", "lose", "add"):
        saved = deck[:]
        if change == "swap":
            deck[deck.index(3)] = 4  # one 3 becomes a 4: the sizes still agree
        elif change == "foreign":
            deck[deck.index(3)] = 8  # a value no rouleur deck holds
        elif change == "lose":
            deck.pop()
        else:
            deck.append(5)
        assert any("energy cards" in p for p in state.check_invariants(full=True)), change
        deck[:] = saved
        assert not state.check_invariants(full=True)
