"""Ticket to Ride: The Card Game content: the counts the published game states, sourced data
with its source, colours told apart by symbol as well as hue, and broken data refused with
`file:line:col: $.path: message` errors."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from cardgen.content import load_game
from cardgen.errors import ContentErrors
from tests.conftest import edit

GAME_ID = "ticket-to-ride-card-game"
ERROR = re.compile(r"^(?P<file>\S+\.yaml):(?P<line>\d+):(?P<col>\d+): (?P<path>\$\S*): (?P<message>.+)$")


def test_counts_are_those_of_the_published_game(ttr):
    counts = ttr.deck_counts()
    assert counts == {"trains": 80, "locomotives": 16, "tickets": 46, "big-cities": 6}
    per_colour = Counter()
    for card in ttr.cards:
        if card["deck"] == "trains":
            per_colour[card["colour"]] += card["copies"]
    assert set(per_colour.values()) == {10} and len(per_colour) == 8


def test_every_card_is_sourced_and_names_its_source(ttr):
    sources = ttr.files["cards"]["sources"]
    for card in ttr.cards:
        assert card["provenance"] == "sourced" and card["source"] in sources


def test_reference_checks_hold(ttr):
    tickets = [c for c in ttr.cards if c["deck"] == "tickets"]
    assert sum(t["points"] for t in tickets) == 581
    icons = Counter(colour for t in tickets for colour in t["colours"])
    assert sum(icons.values()) == 132 and icons["blue"] == 18 and icons["yellow"] == 17


def test_every_colour_has_its_own_symbol_and_hue(ttr):
    colours = ttr.files["colours"]["colours"]
    symbols = [c["symbol"] for c in colours] + [ttr.files["colours"]["locomotive"]["symbol"]]
    assert len(set(symbols)) == len(symbols) == 9
    assert len({c["hue"].lower() for c in colours}) == 8


def broken(content_copy, file: str, old: str, new: str) -> list[str]:
    edit(content_copy / GAME_ID / file, old, new)
    with pytest.raises(ContentErrors) as caught:
        load_game(content_copy, GAME_ID)
    lines = [str(error) for error in caught.value.errors]
    for line in lines:
        assert ERROR.match(line), line
    return lines


def test_an_unknown_colour_on_a_ticket_is_refused_at_its_line(content_copy):
    lines = broken(content_copy, "cards.yaml", "colours: [yellow], provenance", "colours: [pink], provenance")
    assert any(".yaml:" in line and "$.cards[" in line and "pink" in line for line in lines), lines


def test_a_ticket_to_an_unknown_city_is_refused(content_copy):
    lines = broken(content_copy, "cards.yaml", "to: new-york, points: 5", "to: gotham, points: 5")
    assert any("unknown city 'gotham'" in line and ".to" in line for line in lines), lines


def test_two_colours_with_one_symbol_are_refused(content_copy):
    lines = broken(content_copy, "colours.yaml", 'hue: "#f08a1c", symbol: triangle', 'hue: "#f08a1c", symbol: heart')
    assert any("colours.yaml" in line and "symbol 'heart' is also used by red" in line for line in lines), lines


def test_a_missing_ticket_breaks_the_stated_count(content_copy):
    path = content_copy / GAME_ID / "cards.yaml"
    text = path.read_text("utf-8")
    line = next(l for l in text.splitlines() if "id: t46," in l)
    lines = broken(content_copy, "cards.yaml", line + "\n", "")
    assert any("states 46 cards but cards.yaml has 45" in l for l in lines), lines


def test_a_ruling_without_its_source_is_refused(content_copy):
    lines = broken(content_copy, "rulings.yaml", "    source: 从车票牌堆抓取4张牌，保留任意数量的车票牌，也可全不保留。\n", "")
    assert any("rulings.yaml" in line and "'source' is a required property" in line for line in lines), lines
