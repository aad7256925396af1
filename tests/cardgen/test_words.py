"""Counts in English words."""

from __future__ import annotations

import pytest

from cardgen.words import CountingFormatter, counted, noun_for


@pytest.mark.parametrize("count, noun, said", [
    (1, "card", "1 card"), (0, "card", "0 cards"), (88, "card", "88 cards"), (2, "box", "2 boxes"),
    (3, "city", "3 cities"), (2, "day", "2 days"), (6, "die", "6 dice"), (1, "die", "1 die"),
    (4, "other component", "4 other components"), (2, "match", "2 matches"),
])
def test_a_count_takes_its_noun_in_the_singular_only_when_it_is_one(count, noun, said):
    assert counted(count, noun) == said
    assert noun_for(count, noun) == said.split(" ", 1)[1]


def test_a_text_names_its_noun_once_for_every_count():
    text = "{sheets:sheet} ({pages:page}), {edge} edge, {n}"
    assert CountingFormatter().format(text, sheets=1, pages=2, edge="long", n=7) == "1 sheet (2 pages), long edge, 7"
    assert CountingFormatter().format("{x:.1f}", x=2.25) == "2.2"
