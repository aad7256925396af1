"""Ticket to Ride: the engine's quick ways give what the plain ones give. `legal_actions` lists the
sets a plain enumeration finds, `score_actions` scores each action as `score_action` does (and
keeping tickets as a plain walk through them does), and the quick invariant check reports every
fault the full check reports, in the same words."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial
from itertools import combinations

import pytest

from verify.engine import State
from verify.games.ticket_to_ride.rules import LOCO, Keep, Play
from verify.kit import conservation_problems
from verify.simulate import choose


def positions(game, players, seed, games=2, policy="greedy"):
    """Every position of a few seeded games, with the player to move (do not change the state)."""
    rng = random.Random(seed)
    for k in range(games):
        state = game.new_state(players, seed=seed * 100 + k)
        while not state.is_terminal():
            player = state.to_move()[0]
            yield state, player
            state.apply(player, choose(state, player, policy, rng))


def plain_plays(state, player):
    """Every set `player` may play, enumerated as the rules read: n cards of a colour held and m
    locomotives, more than the strongest column an opponent shows of it; then three colours no
    opponent shows."""
    hand = Counter(state.hands[player])
    plays, free = [], []
    for colour in state.game.colours:
        if not hand[colour]:
            continue
        beat = 0
        for other in state.players:
            column = state.yards[other].get(colour, []) if other != player else []
            strength = sum(1 for c in column if c != LOCO) if state.game.bump_count == "colour" else len(column)
            beat = max(beat, strength)
        if beat == 0:
            free.append(colour)
        plays += [Play((colour,) * n + (LOCO,) * m) for n in range(1, hand[colour] + 1)
                  for m in range(hand[LOCO] + 1) if n + m >= 2 and n + m > beat]
    return plays + [Play(trio) for trio in combinations(free, 3)]


def plain_keep_score(state, player, tickets):
    """The greedy score of keeping `tickets`: walk them in order, each covered by the cards owned
    (laid and in hand) beyond what the tickets held need, locomotives covering shortfalls."""
    spare = Counter(state.tracks[player]) + Counter(state.hands[player])
    for column in state.yards[player].values():
        spare.update(column)
    spare = dict(spare)
    for t in state.tickets[player]:
        for colour in state.game.tickets[t].needs:
            spare[colour] = spare.get(colour, 0) - 1
    wild = spare.pop(LOCO, 0) - sum(-n for n in spare.values() if n < 0)
    value = 0.0
    for t in tickets:
        ticket = state.game.tickets[t]
        lack = 0
        for colour in ticket.needs:
            if spare.get(colour, 0) > 0:
                spare[colour] -= 1
            else:
                lack += 1
        if lack <= wild:
            wild -= lack
            value += ticket.points
        else:
            value -= ticket.points * 0.6
    return value


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_and_their_scores_match_the_plain_ways(game, players):
    for variant in (game, game.with_params(bump_count="colour")):
        for state, player in positions(variant, players, seed=players):
            actions = state.legal_actions(player)
            if state.phase == "play" and state.step == "start":
                assert [a for a in actions if isinstance(a, Play)] == plain_plays(state, player)
            one_by_one = [state.score_action(player, action) for action in actions]
            assert state.score_actions(player, actions) == one_by_one
            # A list other than the one just offered is scored an action at a time.
            assert state.score_actions(player, actions[::-1]) == one_by_one[::-1]
            for action, score in zip(actions, one_by_one):
                if isinstance(action, Keep):
                    assert score == plain_keep_score(state, player, action.tickets)


def full_check(state):
    return conservation_problems(state.zones(), state.components()) + state.rule_problems()


def train_piles(state):
    """Every list of train cards the state keeps, yard columns included."""
    piles = [state.deck, state.faceup, state.discard]
    for p in state.players:
        piles += [state.hands[p], state.tracks[p], *state.yards[p].values()]
    return [pile for pile in piles if pile]


def ticket_piles(state):
    piles = [state.ticket_deck]
    for p in state.players:
        piles += [state.tickets[p], state.pending[p], state.done[p]]
    return [pile for pile in piles if pile]


# Each kind of component: where the state keeps it, and what it could be changed into.
KINDS = {
    "card": (train_piles, lambda state: state.game.train_cards),
    "ticket": (ticket_piles, lambda state: [*state.game.tickets, 99]),
    "city": (lambda state: [state.cities], lambda state: [*state.game.city_points, "atlantis"]),
}


def lose(kind, state, rng):
    pile = rng.choice(KINDS[kind][0](state))
    pile.pop(rng.randrange(len(pile)))


def double(kind, state, rng):
    piles = KINDS[kind][0](state)
    rng.choice(piles).append(rng.choice(rng.choice(piles)))


def change(kind, state, rng):
    piles, kinds = KINDS[kind]
    pile = rng.choice(piles(state))
    k = rng.randrange(len(pile))
    pile[k] = rng.choice([c for c in kinds(state) if c != pile[k]])


def add_a_stranger(state, rng):
    rng.choice([state.deck, state.discard, *state.hands.values()]).append(rng.choice(["grey", 7]))


def column_of_another_colour(state, rng):
    """A card of a column swapped with a card of another colour from a hand (none lost or gained)."""
    columns = [(colour, column) for p in state.players for colour, column in state.yards[p].items()]
    if not columns:
        return False
    colour, column = rng.choice(columns)
    hand = next((h for h in state.hands.values() if any(c not in (colour, LOCO) for c in h)), None)
    if hand is None:
        return False
    j = next(i for i, c in enumerate(hand) if c not in (colour, LOCO))
    k = rng.randrange(len(column))
    column[k], hand[j] = hand[j], column[k]


def locomotive_under_a_colour(state, rng):
    columns = [column for p in state.players for column in state.yards[p].values()]
    hand = next((h for h in state.hands.values() if LOCO in h), None)
    if not columns or hand is None:
        return False
    column = rng.choice(columns)
    hand.remove(LOCO)
    column.insert(rng.randrange(sum(1 for c in column if c != LOCO)), LOCO)  # below a card of the colour


def colour_shown_twice(state, rng):
    shown = {colour: p for p in state.players for colour in state.yards[p]}
    for p in state.players:
        for colour, owner in shown.items():
            if owner != p and colour in state.hands[p]:
                state.hands[p].remove(colour)
                state.yards[p][colour] = [colour]
                return None
    return False


def empty_column(state, rng):
    p = rng.choice(state.players)
    state.yards[p][rng.choice([c for c in state.game.colours if c not in state.yards[p]])] = []


def short_face_up_row(state, rng):
    if not (state.phase == "play" and state.deck and state.faceup):
        return False
    state.discard.append(state.faceup.pop())


def no_ticket(state, rng):
    p = rng.choice(state.players)
    if not (state.phase == "play" and state.deck_number == 1 and state.tickets[p] and not state.done[p]):
        return False
    state.ticket_deck += state.tickets[p]
    state.tickets[p].clear()


def over_too_soon(state, rng):
    state.phase, state.final = "over", 1


FAULTS = {f"{op.__name__} a {kind}": partial(op, kind) for op in (lose, double, change) for kind in KINDS}
FAULTS.update((fault.__name__, fault) for fault in [
    add_a_stranger, column_of_another_colour, locomotive_under_a_colour, colour_shown_twice, empty_column,
    short_face_up_row, no_ticket, over_too_soon])


def test_the_quick_check_reports_every_planted_fault_as_the_full_check_does(game):
    rng = random.Random(11)
    planted = Counter()
    for players in (2, 3, 4):
        for k, (state, _) in enumerate(positions(game, players, seed=players + 10, games=1)):
            if k % 5:
                continue
            assert state.check_invariants() == [] == full_check(state)
            for name, fault in FAULTS.items():
                broken = state.clone()
                # Checked right before the fault is planted, so the quick check compares with
                # what it found right in this very state (the piles of cards and tickets it does
                # not weigh again while they are unchanged).
                assert broken.check_invariants() == []
                if fault(broken, rng) is False:
                    continue
                expected = full_check(broken)
                assert expected, name
                assert broken.check_invariants() == expected, name
                planted[name] += 1
    assert set(planted) == set(FAULTS)


def test_the_deck_weighed_once_still_shows_every_card_changed_lost_or_added(game):
    """The quick check weighs the bottom parts of the train deck once: a deck that is anything
    but a bottom part of the deck weighed is weighed again, so every fault in it is reported."""
    state = game.new_state(4, seed=5)
    state.apply("P1", state.legal_actions("P1")[0])
    assert state.check_invariants() == []
    for k in (0, len(state.deck) // 2, len(state.deck) - 1):
        changed = state.clone()
        assert changed.check_invariants() == []
        changed.deck[k] = next(c for c in game.train_cards if c != changed.deck[k])
        assert changed.check_invariants() == full_check(changed) != []
    faults = {
        "the top card lost": lambda deck: deck.pop(),
        "the bottom card lost": lambda deck: deck.pop(0),
        "a card added on top": lambda deck: deck.append(deck[0]),
        "a card added at the bottom": lambda deck: deck.insert(0, deck[-1]),
    }
    for name, fault in faults.items():
        broken = state.clone()
        assert broken.check_invariants() == []
        fault(broken.deck)
        assert broken.check_invariants() == full_check(broken) != [], name
    moved = state.clone()  # a card of a hand put back on the deck: nothing is lost
    assert moved.check_invariants() == []
    moved.deck.append(moved.hands["P2"].pop())
    assert moved.check_invariants() == [] == full_check(moved)


def test_a_pile_changed_in_place_after_a_check_is_weighed_again(game, monkeypatch):
    """The quick check weighs again only the piles unlike its copies of them from the last check:
    a card changed inside a hand, a tracks pile or a rail yard column of the very state checked,
    nothing added or taken away, is found; and so is one changed in a clone. While the game is
    right the quick pass alone says so (were a copy the pile itself, say, every check would
    find the weights wrong and fall back to the full one)."""
    full = []
    monkeypatch.setattr(State, "check_invariants", lambda self: full.append(self) or full_check(self))
    state = game.new_state(4, seed=7)
    rng = random.Random(7)
    while not any(state.yards.values()) or not any(state.tracks.values()):
        player = state.to_move()[0]
        state.apply(player, choose(state, player, "greedy", rng))
        assert state.check_invariants() == []
    assert not full
    owner = next(p for p in state.players if state.tracks[p])
    shower = next(p for p in state.players if state.yards[p])
    piles = {"hand": lambda s: s.hands["P1"], "tracks": lambda s: s.tracks[owner],
             "column": lambda s: next(iter(s.yards[shower].values()))}
    for name, pile_of in piles.items():
        for checked in (state, state.clone()):
            assert checked.check_invariants() == []
            pile = pile_of(checked)
            card = pile[0]
            pile[0] = next(c for c in game.train_cards if c != card)
            assert checked.check_invariants() == full_check(checked) != [], name
            pile[0] = card
            assert checked.check_invariants() == [], name
