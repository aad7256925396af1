"""English counts, as the command's lines and the printed pages say them: "1 card", "3 cards"."""

from __future__ import annotations

import string

IRREGULAR_PLURALS = {"die": "dice"}


def noun_for(count: int, noun: str) -> str:
    """`noun` as a count of `count` takes it: card, cards; box, boxes; die, dice."""
    if count == 1:
        return noun
    if noun in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[noun]
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and len(noun) > 1 and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def counted(count: int, noun: str) -> str:
    """The count and its noun: "1 card", "3 cards", "0 errors"."""
    return f"{count} {noun_for(count, noun)}"


class CountingFormatter(string.Formatter):
    """`str.format` in which `{n:noun}` is the count with its noun, as `counted` says it ("1 sheet",
    "3 sheets"): a text in English names its nouns once, for every count."""

    def format_field(self, value, format_spec: str) -> str:
        if isinstance(value, int) and format_spec.replace(" ", "").isalpha():
            return counted(value, format_spec)
        return super().format_field(value, format_spec)


__all__ = ["CountingFormatter", "counted", "noun_for"]
