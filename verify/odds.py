"""Exact odds of card draws, as sympy Rationals; games build their own tables from them.

A deck is a list of card values (repeats allowed); a draw is a handful taken without replacement
from a freshly shuffled deck. Everything is counted with binomial coefficients, so the numbers are
exact and a rule sheet can print them as fractions or round them once, at the very end.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from sympy import Rational, binomial


def deck_mean(values: Sequence[int]) -> Rational:
    """The average value of one card drawn from the deck."""
    if not values:
        raise ValueError("an empty deck has no mean")
    return Rational(sum(values), len(values))


def chance_of_value(values: Sequence[int], value: int, draw: int) -> Rational:
    """Probability that `draw` cards from a fresh shuffle hold at least one card of `value`."""
    others = sum(1 for v in values if v != value)
    return 1 - binomial(others, draw) / binomial(len(values), draw)


def best_of_draw(values: Sequence[int], draw: int) -> dict[int, Rational]:
    """Distribution of the highest value among `draw` cards: {value: probability}.

    The best is at most v exactly when every card drawn comes from the cards worth v or less, so
    P(best = v) is the difference of two such counts.
    """
    if not 0 < draw <= len(values):
        raise ValueError(f"cannot draw {draw} cards from a deck of {len(values)}")
    total = binomial(len(values), draw)
    counts = Counter(values)
    result: dict[int, Rational] = {}
    at_most_before = 0
    for value in sorted(counts):
        at_most = binomial(sum(n for v, n in counts.items() if v <= value), draw)
        if at_most != at_most_before:
            result[value] = Rational(at_most - at_most_before, total)
        at_most_before = at_most
    return result


def expected(distribution: dict[int, Rational]) -> Rational:
    return sum((value * p for value, p in distribution.items()), Rational(0))
