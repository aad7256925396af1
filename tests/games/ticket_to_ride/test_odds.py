"""The exact odds the rule sheet prints, checked against dealt games."""

from __future__ import annotations

from sympy import Rational

from cardgen.games.ticket_to_ride.diagrams import blind_loco, blind_pair_helps, loco_in_faceup


def test_odds_are_exact_fractions(ttr):
    assert loco_in_faceup(ttr, 2) == 1 - Rational(80 * 79 * 78 * 77 * 76, 94 * 93 * 92 * 91 * 90)
    assert blind_loco(ttr, 4) == Rational(12, 92)
    assert isinstance(blind_pair_helps(ttr, 3), Rational)


def test_a_locomotive_among_the_first_face_up_cards_as_often_as_computed(ttr, game):
    deals = 3000
    seen = sum(1 for seed in range(deals) if "loco" in game.new_state(2, seed=seed).faceup)
    expected = float(loco_in_faceup(ttr, 2))
    # Three standard deviations of a binomial count.
    assert abs(seen / deals - expected) < 3 * (expected * (1 - expected) / deals) ** 0.5
