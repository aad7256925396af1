"""Moscow to Paris content: the seed's totals, one back for the cards shuffled together, reconstructed
data labelled as such, broken data refused with file:line:col errors, and the rule sheet's facts."""

from __future__ import annotations

import pytest

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.errors import ContentErrors
from cardgen.games.moscow_to_paris.checks import deal_odds
from tests.conftest import edit


@pytest.fixture(scope="module")
def content():
    return load_game(PROJECT_CONTENT, "moscow-to-paris")


def test_deck_totals_are_the_published_ones(content):
    assert content.deck_counts() == {"trains": 88, "actions": 16, "cities": 16, "special-cities": 2}
    effects = {c["effect"] for c in content.cards if c["deck"] == "actions"}
    assert len(effects) == 5


def test_train_and_action_cards_share_one_back_and_cities_another(content):
    decks = {d["id"]: d for d in content.decks}
    assert decks["trains"]["back"] == decks["actions"]["back"]
    assert decks["trains"]["shuffle_group"] == decks["actions"]["shuffle_group"]
    assert decks["cities"]["back"] == decks["special-cities"]["back"] != decks["trains"]["back"]


def test_every_card_is_labelled_reconstructed(content):
    assert content.provenance_counts() == {"sourced": 0, "reconstructed": 122}


def test_istanbul_has_no_country_and_three_points(content):
    istanbul = next(c for c in content.cards if c["id"] == "istanbul")
    assert istanbul["points"] == 3 and "country" not in istanbul


def test_every_line_can_be_matched_by_four_cards_in_front(content):
    assert all(c["line"] <= 4 for c in content.cards if c["deck"] in ("cities", "special-cities"))


def test_a_line_longer_than_four_is_refused_at_its_place(content_copy):
    edit(content_copy / "moscow-to-paris" / "cards.yaml", "points: 3, capital: true, line: 4", "points: 3, capital: true, line: 5")
    with pytest.raises(ContentErrors) as err:
        load_game(content_copy, "moscow-to-paris")
    message = str(err.value)
    assert "cards.yaml:" in message and "$.cards[" in message and ".line" in message


def test_an_unknown_country_is_refused_at_its_place(content_copy):
    edit(content_copy / "moscow-to-paris" / "cards.yaml", "country: poland, points: 3", "country: narnia, points: 3")
    with pytest.raises(ContentErrors) as err:
        load_game(content_copy, "moscow-to-paris")
    assert "unknown country 'narnia'" in str(err.value)
    line = str(err.value).split("cards.yaml:")[1].split(":")
    assert line[0].isdigit() and line[1].isdigit()


def test_a_wrong_train_count_is_refused(content_copy):
    edit(content_copy / "moscow-to-paris" / "cards.yaml", "id: tank, copies: 11", "id: tank, copies: 10")
    with pytest.raises(ContentErrors, match="states 88 cards but cards.yaml has 87"):
        load_game(content_copy, "moscow-to-paris")


def test_odds_are_exact_and_agree_with_a_shuffle(content):
    odds = deal_odds(content)
    assert odds["kind_next_draw"] == pytest.approx(11 / 104)
    import random

    deck = [c["id"] for c in content.physical_cards() if c["deck"] in ("trains", "actions")]
    rng = random.Random(3)
    hits = sum("sleeper" in rng.sample(deck, 5) for _ in range(20000))
    assert abs(hits / 20000 - float(odds["kind_in_hand"])) < 0.015


def test_rule_texts_quote_the_computed_counts(content):
    facts = content.facts()
    assert (facts["trains"], facts["actions"], facts["cities"], facts["train_kinds"]) == (88, 16, 16, 8)
    assert facts["cities_in_deck"] == 12 and facts["capitals"] == 6
