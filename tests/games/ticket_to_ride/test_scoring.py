"""The end-of-game allocation: `best_allocation` against a plain enumeration of every subset of
tickets, and the score breakdown with big cities and tie-breaks."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from verify.games.ticket_to_ride.scoring import WILD, Ticket, best_allocation, feasible


def brute_force(pile, tickets):
    """The best (points, tickets completed) over every subset, by trying them all."""
    best = (0, 0)
    counts = Counter(pile)
    for r in range(len(tickets) + 1):
        for subset in itertools.combinations(tickets, r):
            if feasible(counts, subset):
                best = max(best, (sum(t.points for t in subset), len(subset)))
    return best


def all_train_cards(game):
    return [card for card in game.train_cards for _ in range(game.components[card])]


def test_best_allocation_matches_brute_force_on_random_hands(game):
    rng = random.Random(2024)
    cards = all_train_cards(game)
    for _ in range(250):
        tickets = [game.tickets[t] for t in rng.sample(sorted(game.tickets), rng.randint(0, 8))]
        pile = rng.sample(cards, rng.randint(0, 22))
        found = best_allocation(pile, tickets)
        assert (found.gained, len(found.completed)) == brute_force(pile, tickets)


def test_best_allocation_uses_each_card_once_and_only_cards_of_the_pile(game):
    rng = random.Random(7)
    cards = all_train_cards(game)
    for _ in range(100):
        tickets = [game.tickets[t] for t in rng.sample(sorted(game.tickets), rng.randint(1, 10))]
        pile = rng.sample(cards, rng.randint(0, 30))
        found = best_allocation(pile, tickets)
        used = Counter(card for cards_used in found.cards.values() for card in cards_used)
        assert used + Counter(found.unused) == Counter(pile)
        for t in found.completed:
            ticket = game.tickets[t]
            given = found.cards[t]
            assert len(given) == len(ticket.needs)
            assert all(card in (colour, WILD) for card, colour in zip(given, ticket.needs))
        assert set(found.completed) | set(found.failed) == {t.id for t in tickets}
        assert found.lost == sum(game.tickets[t].points for t in found.failed)


def test_best_allocation_does_not_depend_on_ticket_order(game):
    rng = random.Random(11)
    cards = all_train_cards(game)
    for _ in range(40):
        tickets = [game.tickets[t] for t in rng.sample(sorted(game.tickets), 9)]
        pile = rng.sample(cards, 18)
        shuffled = tickets[:]
        rng.shuffle(shuffled)
        assert best_allocation(pile, tickets) == best_allocation(pile, shuffled)


def test_locomotives_stand_for_any_colour_but_each_card_serves_one_ticket():
    a = Ticket(1, 10, ("red", "blue"))
    b = Ticket(2, 9, ("red",))
    found = best_allocation(["red", "blue", WILD], [a, b])
    assert found.completed == (1, 2) and found.gained == 19
    assert sorted(found.cards[1] + found.cards[2]) == sorted(["red", "blue", WILD])
    alone = best_allocation(["red", "blue"], [a, b])
    assert alone.completed == (1,) and alone.failed == (2,) and alone.net == 1


def test_scoring_prefers_points_then_more_tickets():
    big = Ticket(1, 10, ("red", "red"))
    small = [Ticket(2, 5, ("red",)), Ticket(3, 5, ("red",))]
    found = best_allocation(["red", "red"], [big, *small])
    # 10 points either way: two tickets beat one.
    assert found.completed == (2, 3) and found.gained == 10


def test_scoring_breakdown_counts_big_cities_from_the_best_allocation(game):
    state = game.new_state(2, setup={
        "phase": "over", "hands": {"P1": [], "P2": []},
        "tracks": {"P1": ["red", "red", "blue", "yellow", "loco"], "P2": ["black", "white", "white", "green", "loco", "orange"]},
        "tickets": {"P1": [1, 6, 12, 13], "P2": [9, 15, 23]}})
    result = state.result()
    assert result["scores"] == {"P1": 53, "P2": 34}
    assert result["breakdown"]["P2"]["failed"] == [9]
    assert "seattle" not in result["breakdown"]["P1"]["cities"] + result["breakdown"]["P2"]["cities"]


def test_tie_breaks_are_completed_tickets_then_big_cities(game):
    state = game.new_state(2, setup={"phase": "over", "hands": {"P1": [], "P2": []},
                                     "tracks": {"P1": ["yellow", "red"], "P2": ["yellow", "blue", "green", "blue"]},
                                     "tickets": {"P1": [12], "P2": [4, 11]}})
    result = state.result()
    assert result["scores"]["P1"] == result["scores"]["P2"] and result["winner"] == "P2"
    assert result["tiebreaks"] == ["completed tickets"]
