"""The incremental invariant check sees every change the engine makes: after each action, every
rider whose cards changed is among those it checks, and a move of any rider is noticed; the
incremental and the full check agree, and both report any fault planted where the last action
reached; a clone is independent; the engine's own shuffle is the shared one."""

from __future__ import annotations

import random

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.registry import engine_for
from verify.games.flamme_rouge.rules import READINGS, Draw


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
                if not state._full:
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


def positions_after(engine, players=3, seed=11):
    """A seeded race, stopped right after each kind of action: a draw, a keep, the keep that ends
    a round (and plays its movement and end phase), and the last placement."""
    state = engine.new_state(players, seed=seed)
    rng = random.Random(seed)
    found = {}
    while len(found) < 4 and not state.is_terminal():
        player = state.to_move()[0]
        action = rng.choice(state.legal_actions(player))
        round_before = state.round
        state.apply(player, action)
        kind = type(action).__name__.lower() + ("+round" if state.round != round_before and state.round > 1 else "")
        if state.round >= 3 and kind not in found:
            found[kind] = state.clone()
        assert not state.check_invariants()
    return found


def touched_rider(state) -> int:
    """A rider the last action touched: the one the next default check looks at."""
    return min(state._dirty) if state._dirty else 0


FAULTS = {
    # a card lost, one added from nowhere, one changed into another value, one moved to another rider
    "card lost": lambda s, r: (s.played[r] or s.recycled[r] or s.deck[r]).pop(),
    "card duplicated": lambda s, r: s.recycled[r].append((s.played[r] or s.deck[r])[0]),
    "card changed": lambda s, r: s.played[r].__setitem__(0, 9 if s.played[r][0] != 9 else 3),
    "card given away": lambda s, r: s.recycled[r ^ 1].append(s.played[r].pop()),
    "exhaustion card made": lambda s, r: s.recycled[r].append("x"),
    "foreign card": lambda s, r: s.recycled[r].append(42),
    # an energy card turned into an exhaustion card, and the last recycled card into another value
    "card made exhaustion": lambda s, r: make_exhaustion(s.recycled[r] + s.played[r] and (
        s.recycled[r] if any(c != "x" for c in s.recycled[r]) else s.played[r])),
    "last recycled card changed": lambda s, r: (s.recycled[r] or s.played[r]).__setitem__(
        -1, 9 if (s.recycled[r] or s.played[r])[-1] != 9 else 3),
}


def make_exhaustion(cards: list) -> None:
    """Turn the last energy card of `cards` into an exhaustion card."""
    i = max(i for i, c in enumerate(cards) if c != "x")
    cards[i] = "x"


KEEP_FAULTS = {
    # a keep gone wrong: the kept card another value, a card of the hand lost or kept twice
    "kept card changed": lambda s, r: s.kept.__setitem__(r, 9 if s.kept[r] != 9 else 3),
    "hand card lost on keeping": lambda s, r: s.recycled[r].pop(),
    "kept card also recycled": lambda s, r: s.recycled[r].append(s.kept[r]),
    "kept card taken from the pile": lambda s, r: s.deck[r].insert(0, s.kept[r]),
}
RULE_FAULTS = {
    # a hand of five, and a player still to choose with both cards kept
    "hand of five": lambda s, r: s.hand[r >> 1].append(s.deck[r].pop()) if s.hand[r >> 1] is not None else None,
    "exhaustion pile below zero": lambda s, r: s.exhaustion_left.__setitem__(r & 1, -1),
    "exhaustion card counted as made but given to nobody": lambda s, r: s.exhaustion_made.__setitem__(r & 1, 1),
    "race too long": lambda s, r: setattr(s, "round", s.course.length + 1),
    "player among those choosing or not, against the cards kept": lambda s, r: (
        s.choosing.remove(s.players[r >> 1]) if s.players[r >> 1] in s.choosing else s.choosing.append(s.players[r >> 1])),
    "players waited for, one too many": lambda s, r: setattr(s, "waiting", s.waiting + 1),
}
POSITION_FAULTS = {
    "rider past the line": lambda s, r: (s.occ.__setitem__(2 * s.square[r] + s.lane[r], -1), s._put(r, s.course.finish, 0)),
    "rider off the course": lambda s, r: s.square.__setitem__(r, s.course.length + 5),
    "rider on no square": lambda s, r: s.square.__setitem__(r, 0),
    "rider moved back": lambda s, r: (s.occ.__setitem__(2 * s.square[r] + s.lane[r], -1), s._put(r, 1, 0)),
    "square naming a rider twice": lambda s, r: s.occ.__setitem__(1, r),
    "lone rider in the left lane": lambda s, r: (s.occ.__setitem__(2 * s.square[r] + s.lane[r], -1),
                                                 s._put(r, s.course.finish - 1, 1)),
}


def test_the_default_check_reports_every_fault_an_action_could_leave():
    """Faults planted in what the last action touched (a rider's cards after a draw or keep;
    every rider and square after a movement phase) are reported by the default check, as by the
    full one; the same state without the fault passes both."""
    engine = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    found = positions_after(engine)
    assert set(found) >= {"draw", "keep", "keep+round"}
    for kind, state in found.items():
        faults = dict(FAULTS, **RULE_FAULTS)
        if kind == "keep+round":
            faults.update(POSITION_FAULTS)
        if kind == "keep":
            faults.update(KEEP_FAULTS)
        for name, plant in faults.items():
            if name == "hand of five" and kind != "draw":
                continue
            broken = state.clone()
            plant(broken, touched_rider(broken))
            twin = broken.clone()
            assert broken.check_invariants(), (kind, name)
            assert twin.check_invariants(full=True), (kind, name)
        assert state.clone().check_invariants() == [] == state.clone().check_invariants(full=True)


def test_a_fault_in_the_choosing_is_told_once():
    engine = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    state = positions_after(engine)["keep+round"]
    state.choosing.remove(state.players[0])
    state.waiting -= 1
    for problems in (state.clone().check_invariants(full=True), state.clone().check_invariants()):
        assert len([p for p in problems if "among the players choosing" in p]) == 1, problems


def test_the_check_keeps_reporting_a_fault_until_it_is_mended():
    engine = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    state = positions_after(engine)["draw"]
    r = touched_rider(state)
    card = state.deck[r].pop()
    for _ in range(2):
        state._dirty.add(r)
        assert any("energy cards" in p for p in state.check_invariants())
    state.deck[r].append(card)
    state._dirty.add(r)
    assert state.check_invariants() == []


def test_a_hand_needs_four_cards_unless_the_riders_cards_ran_out():
    engine = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    state = positions_after(engine)["draw"]
    r = touched_rider(state)
    state.recycled[r].append(state.hand[r >> 1].pop())  # three cards drawn while the deck holds more
    assert any("holds 3 cards" in p for p in state.check_invariants())
    riders = {"P1": {"rouleur": [2], "sprinteur": [1]}, "P2": {"rouleur": [4], "sprinteur": [3]}}
    short = engine.new_state(2, seed=1, setup={"riders": riders, "decks": {"P1": {"rouleur": [3, 4, 5]}}})
    short.apply("P1", Draw("rouleur"))
    assert short.hand[0] == [3, 4, 5] and short.check_invariants() == []



def test_the_default_check_reports_faults_planted_anywhere_in_whole_races():
    """After every action of whole races, each kind of card fault planted in a rider the action
    touched is reported by the default check as by the full one."""
    engine = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    rng = random.Random(8)
    for players, seed in ((4, 21), (3, 22), (2, 23)):
        state = engine.new_state(players, seed=seed)
        assert not state.check_invariants()
        while not state.is_terminal():
            player = state.to_move()[0]
            action = rng.choice(state.legal_actions(player))
            state.apply(player, action)
            if not state._dirty and not state._full:  # a placement touches no rider's cards
                assert state.check_invariants() == []
                continue
            r = touched_rider(state)
            faults = dict(FAULTS, **KEEP_FAULTS) if state.kept[r] not in (None, "-") else FAULTS
            for name, plant in faults.items():
                broken = state.clone()
                try:
                    plant(broken, r)
                except (IndexError, ValueError):  # no card there to change
                    continue
                twin = broken.clone()
                assert any("cards" in p for p in broken.check_invariants()), (name, str(action))
                assert any("cards" in p for p in twin.check_invariants(full=True)), (name, str(action))
            assert state.check_invariants() == []


def test_the_remembered_cards_are_copies_of_the_riders_piles():
    """The lists the check remembers as found right are its own: were one the rider's live pile,
    a later change to that pile would change the remembered list with it and go unseen (a clone
    copies the piles, so the fault tests above, which plant faults in clones, would not notice)."""
    engine = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    rng = random.Random(12)
    for players, seed in ((4, 31), (2, 32)):
        state = engine.new_state(players, seed=seed)
        assert not state.check_invariants()
        while not state.is_terminal():
            player = state.to_move()[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
            assert state.check_invariants() == []
            live = {id(pile) for piles in (state.deck, state.played, state.recycled, state.hand) for pile in piles}
            for remembered in (state._seen_top, state._seen_played, state._seen_recycled):
                assert not any(id(seen) in live for seen in remembered), str(state.to_move())
