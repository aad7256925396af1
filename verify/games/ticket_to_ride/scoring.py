"""Exact scoring of a tracks pile against destination tickets.

At the end a player matches the cards of their tracks pile to their tickets: each card serves one
ticket only, a locomotive stands for any colour. Which tickets to complete is an optimisation
(two tickets may want the same cards), so `best_allocation` searches every choice: the most ticket
points, then the most tickets. It is a pure function of its inputs and knows nothing of a game
state, so tests compare it with a plain enumeration of every subset.

Spending a ticket's own colour before a locomotive is never worse (a locomotive can do whatever
the coloured card could), so a choice of tickets is feasible exactly when the locomotives cover the
sum of the colour shortfalls. The search walks the tickets once, remembering the best outcome for
each (ticket, cards left) pair it meets.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import accumulate
from typing import Iterable, Sequence

WILD = "loco"


@dataclass(frozen=True)
class Ticket:
    """A destination ticket as scoring needs it: its number, points and the cards it asks for."""

    id: int
    points: int
    needs: tuple[str, ...]
    cities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Allocation:
    """The chosen matching: completed tickets with the cards each uses, failed tickets, leftovers."""

    completed: tuple[int, ...]
    failed: tuple[int, ...]
    cards: dict  # ticket id -> tuple of cards used, in the ticket's order, a locomotive as "loco"
    unused: tuple[str, ...]
    gained: int  # points of the completed tickets
    lost: int  # points of the failed tickets

    @property
    def net(self) -> int:
        return self.gained - self.lost


def feasible(pile: Counter, tickets: Iterable[Ticket], wild: str = WILD) -> bool:
    """Whether every ticket can be completed at once from `pile`."""
    need: Counter = Counter()
    for ticket in tickets:
        need.update(ticket.needs)
    short = sum(max(0, n - pile.get(c, 0)) for c, n in need.items() if c != wild)
    return short <= pile.get(wild, 0)


def best_allocation(tracks_pile: Iterable[str], tickets: Sequence[Ticket], wild: str = WILD) -> Allocation:
    """The player's best matching: most points from completed tickets, then most tickets; among
    equal choices a fixed one, whatever order the tickets come in.

    A depth-first search, completing or skipping one ticket at a time, best points per card first.
    A branch is dropped when it reaches a position met before with no more points (what is left of
    the pile counts only up to what the tickets still to come could use), or when even a loose
    upper bound cannot beat the best found: every card slot of the remaining tickets gets a share
    of its ticket's points, and the cards left (each colour on its own slots, locomotives on any)
    fill the richest slots. When the pile covers every ticket at once (and none counts against),
    the search would complete them all on its first way down, so that is the answer at once."""
    tickets = sorted(tickets, key=lambda t: (-t.points / len(t.needs), t.id))
    pile = Counter(tracks_pile)
    if all(t.points >= 0 for t in tickets) and feasible(pile, tickets, wild):
        return _allocation(pile, tickets, {t.id for t in tickets}, wild)
    colours = sorted({c for t in tickets for c in t.needs if c != wild})
    index = {c: i for i, c in enumerate(colours)}
    n = len(tickets)
    needs = [[(index[c], m) for c, m in Counter(t.needs).items() if c != wild] for t in tickets]
    points = [t.points for t in tickets]
    # slots[i][k]: the shares of the card slots of colour k on tickets i.., richest first;
    # sums[i][k][j]: the first j of them added up.
    slots: list[list[list[float]]] = [[[] for _ in colours] for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        share = points[i] / len(tickets[i].needs)
        slots[i] = list(slots[i + 1])
        for k, m in needs[i]:
            slots[i][k] = sorted(slots[i][k] + [share] * m, reverse=True)
    added: dict[int, list[float]] = {}  # rows a ticket leaves alone are shared: add them up once
    sums = [[added.get(id(row)) or added.setdefault(id(row), list(accumulate(row, initial=0.0))) for row in rows]
            for rows in slots]
    still = [[0] * len(colours) for _ in range(n + 1)]
    reach = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        still[i] = list(still[i + 1])
        for k, m in needs[i]:
            still[i][k] += m
        reach[i] = reach[i + 1] + len(tickets[i].needs)
    left = [pile.get(c, 0) for c in colours]
    best: list = [(-1, -1), ()]
    chosen: list[int] = []
    seen: dict = {}

    def bound(i: int, wilds: int) -> float:
        total = 0.0
        spare: list[float] = []
        for row, added, have in zip(slots[i], sums[i], left):
            if have >= len(row):
                total += added[-1]
            else:
                total += added[have]
                if wilds:
                    spare += row[have:have + wilds]
        if spare:
            spare.sort(reverse=True)
            total += sum(spare[:wilds])
        return total

    def search(i: int, wilds: int, got: int) -> None:
        if i == n:
            key = (got, len(chosen))
            if key > best[0]:
                best[0], best[1] = key, tuple(tickets[k].id for k in chosen)
            return
        here = (got, len(chosen))
        key = (i, min(wilds, reach[i]), *map(min, left, still[i]))
        before = seen.get(key)
        if before is not None and before >= here:
            return
        seen[key] = here
        if got + bound(i, wilds) < best[0][0] - 1e-9:
            return
        short = 0
        spent = []
        for k, m in needs[i]:
            use = min(left[k], m)
            short += m - use
            spent.append((k, use))
        if short <= wilds:
            for k, use in spent:
                left[k] -= use
            chosen.append(i)
            search(i + 1, wilds - short, got + points[i])
            chosen.pop()
            for k, use in spent:
                left[k] += use
        search(i + 1, wilds, got)

    search(0, pile.get(wild, 0), 0)
    return _allocation(pile, tickets, set(best[1]), wild)


def _allocation(pile: Counter, tickets: list[Ticket], ids: set, wild: str) -> Allocation:
    """The allocation completing the tickets numbered `ids` and failing the others."""
    picked = sorted((t for t in tickets if t.id in ids), key=lambda t: t.id)
    cards, unused = _assign(pile, picked, wild)
    failed = sorted((t for t in tickets if t.id not in ids), key=lambda t: t.id)
    return Allocation(tuple(t.id for t in picked), tuple(t.id for t in failed), cards, unused,
                      sum(t.points for t in picked), sum(t.points for t in failed))


def _assign(pile: Counter, chosen: list[Ticket], wild: str) -> tuple[dict, tuple]:
    """Which cards go to which ticket: its own colours first, locomotives for the shortfall."""
    left = Counter(pile)
    cards: dict = {}
    for ticket in chosen:
        used = []
        for colour in ticket.needs:
            if left.get(colour, 0) > 0 and colour != wild:
                left[colour] -= 1
                used.append(colour)
            else:
                used.append(None)
        cards[ticket.id] = used
    for ticket in chosen:
        used = cards[ticket.id]
        for k, card in enumerate(used):
            if card is None:
                left[wild] -= 1
                used[k] = wild
        cards[ticket.id] = tuple(used)
    unused = tuple(sorted(c for c, n in left.items() for _ in range(n)))
    return cards, unused


__all__ = ["Allocation", "Ticket", "WILD", "best_allocation", "feasible"]
