"""Exact deck odds. Every expected value is worked out by hand in the comment beside it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from sympy import Rational

from cardgen.content import PROJECT_CONTENT, load_game
from verify.odds import best_of_draw, chance_of_value, deck_mean, expected
from verify.games.flamme_rouge.odds import energy_odds as flamme_rouge_odds

ROULEUR = [3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7]
SPRINTEUR = [2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 9, 9, 9]


def test_mean_card_of_each_deck():
    # rouleur: 3 * (3+4+5+6+7) / 15 = 75/15 = 5; sprinteur: 3 * (2+3+4+5+9) / 15 = 69/15 = 23/5
    assert deck_mean(ROULEUR) == 5
    assert deck_mean(SPRINTEUR) == Rational(23, 5)


def test_chance_of_a_top_card_in_a_fresh_draw_of_four():
    # 12 of the 15 cards are not a 7: P(no 7) = C(12,4)/C(15,4) = 495/1365 = 33/91, so 1 - 33/91 = 58/91.
    assert chance_of_value(ROULEUR, 7, 4) == Rational(58, 91)
    # The sprinteur has three 9s among 15 cards as well: the same 58/91.
    assert chance_of_value(SPRINTEUR, 9, 4) == Rational(58, 91)


def test_chance_of_a_value_the_deck_lacks_is_zero():
    # C(15,4)/C(15,4) = 1 of drawing no 8 at all.
    assert chance_of_value(ROULEUR, 8, 4) == 0


def test_best_of_four_from_the_rouleur_deck():
    # C(15,4) = 1365. The best is at most v when all four come from the cards worth v or less:
    # <=4: C(6,4) = 15; <=5: C(9,4) = 126; <=6: C(12,4) = 495; <=7: 1365. Differences over 1365:
    # best 4: 15/1365 = 1/91; 5: 111/1365 = 37/455; 6: 369/1365 = 123/455; 7: 870/1365 = 58/91.
    assert best_of_draw(ROULEUR, 4) == {4: Rational(1, 91), 5: Rational(37, 455), 6: Rational(123, 455), 7: Rational(58, 91)}


def test_expected_best_of_four():
    # rouleur: (4*15 + 5*111 + 6*369 + 7*870) / 1365 = 8919/1365 = 2973/455
    assert expected(best_of_draw(ROULEUR, 4)) == Rational(2973, 455)
    # sprinteur: (3*15 + 4*111 + 5*369 + 9*870) / 1365 = 10164/1365 = 484/65
    assert expected(best_of_draw(SPRINTEUR, 4)) == Rational(484, 65)


def test_best_of_a_whole_deck_is_certain():
    # Drawing all 15 cards always shows a 7.
    assert best_of_draw(ROULEUR, 15) == {7: 1}


def test_drawing_more_cards_than_the_deck_holds_is_refused():
    with pytest.raises(ValueError):
        best_of_draw([3, 4], 3)
    with pytest.raises(ValueError):
        deck_mean([])


def test_table_reads_the_decks_from_content():
    # A made-up deck of 2, 2, 8, 8 for one colour: mean 5; P(an 8 in a draw of 2) = 1 - C(2,2)/C(4,2) = 5/6.
    cards = [{"deck": "energy-rouleur", "colour": "green", "rider": "rouleur", "value": v, "copies": 2} for v in (2, 8)]
    [row] = flamme_rouge_odds(SimpleNamespace(cards=cards), draw=2)
    assert (row["rider"], row["cards"], row["mean"], row["top"], row["top_in_draw"]) == ("rouleur", 4, 5, 8, Rational(5, 6))


def test_table_for_the_real_decks():
    rows = {row["rider"]: row for row in flamme_rouge_odds(load_game(PROJECT_CONTENT, "flamme-rouge"))}
    assert rows["rouleur"]["mean"] == 5 and rows["rouleur"]["top"] == 7
    assert rows["sprinteur"]["mean"] == Rational(23, 5) and rows["sprinteur"]["top"] == 9
    assert rows["rouleur"]["top_in_draw"] == Rational(58, 91) == rows["sprinteur"]["top_in_draw"]
    assert rows["sprinteur"]["expected_best"] == Rational(484, 65)
