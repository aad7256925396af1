"""Every exact figure a rule sheet prints, held against games the rules engine deals; and the same
check refusing figures computed from a deck that is not the one the engine deals."""

from __future__ import annotations

import copy

import pytest
from sympy import Rational

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.registry import definition_for, engine_for
from verify.oddscheck import check_odds

GAMES_WITH_ODDS = ["flamme-rouge", "moscow-to-paris", "spectral-rails", "ticket-to-ride-card-game"]
DEALS = 3000


@pytest.fixture(scope="module", params=GAMES_WITH_ODDS)
def game(request):
    content = load_game(PROJECT_CONTENT, request.param)
    return content, engine_for(content), definition_for(content.id)


def test_every_printed_figure_is_an_event_of_the_dealt_games(game):
    content, _, definition = game
    printed = [value for row in definition.odds(content) for value in row.values() if isinstance(value, Rational)]
    assert printed, "the game prints no odds"
    exact = [event.exact for event in definition.odds_events(content)]
    assert [value for value in printed if value not in exact] == []


def test_the_printed_odds_agree_with_dealt_games(game):
    content, engine, definition = game
    checks = check_odds(engine, definition.odds_events(content), deals=DEALS)
    assert [check.describe() for check in checks if not check.agrees] == []


def _more_copies(content, deck: str, pick, extra: int) -> None:
    card = pick([c for c in content.cards if c["deck"] == deck])
    card["copies"] = card.get("copies", 1) + extra


def _move_town(content, town: str, region: str) -> None:
    next(t for t in content.files["map"]["towns"] if t["id"] == town)["region"] = region


WRONG_DECKS = {
    # one more top card in every rouleur deck
    "flamme-rouge": lambda c: _more_copies(c, "energy-rouleur", lambda cards: max(cards, key=lambda x: x["value"]), 1),
    # twice as many cards of the kind the odds name
    "moscow-to-paris": lambda c: _more_copies(c, "trains", lambda cards: cards[0], 11),
    # six more locomotives
    "ticket-to-ride-card-game": lambda c: _more_copies(c, "locomotives", lambda cards: cards[0], 6),
    # a Nevada town counted in Utah, so the first town's region is one town short
    "spectral-rails": lambda c: _move_town(c, "goldfield", "utah"),
}


def test_odds_from_a_wrong_deck_are_refused(game):
    content, engine, definition = game
    wrong = copy.deepcopy(content)
    WRONG_DECKS[content.id](wrong)
    events = definition.odds_events(wrong)
    assert [e.exact for e in events] != [e.exact for e in definition.odds_events(content)]
    checks = check_odds(engine, events, deals=DEALS)
    assert any(not check.agrees for check in checks), [check.describe() for check in checks]
