"""A game made of data alone: a content folder whose `game.yaml` (or `layout.yaml`) holds a face
layout needs no Python, no schema of its own and no rule sheet.

Such a folder is checked against the shared `data-deck.schema.json` (and against a schema of its
own as well, when the content folder's `schema/` brings `<game>.schema.json`), then completed with
defaults a designer need not write: a poker card size, one language (English), a deck's name,
count and shuffle group, a card's id (its row) and deck (the only deck), a back's title and colour.
`DataGameDefinition` draws its faces and backs with `cardgen.datalayout`; it has no rules engine,
so `verify` and `simulate` say so.
"""

from __future__ import annotations

from cardgen.content import GameContent
from cardgen.datalayout import (DEFAULT_BACK_COLOUR, back_elements, back_fields, check_layout, draw_default_back,
                                draw_elements, elements_for_face, layout_source)
from cardgen.errors import ContentError
from cardgen.registry import GameDefinition, is_registered, register

SCHEMA = "data-deck.schema.json"
POKER = {"width_mm": 63, "height_mm": 88}


class DataGameDefinition(GameDefinition):
    """The definition of every game drawn from its layout data; one instance per game id."""

    engine = None

    def __init__(self, game_id: str):
        self.id = game_id

    def check(self, content) -> list:
        return check_layout(content)

    def draw_face(self, canvas, content, card, rect, bleed):
        draw_elements(canvas, content, elements_for_face(content, card), card, rect, bleed)

    def draw_back(self, canvas, content, back_id, rect, bleed):
        elements = back_elements(content, back_id)
        if elements is None:
            draw_default_back(canvas, content, back_id, rect, bleed)
        else:
            draw_elements(canvas, content, elements, back_fields(content, back_id), rect, bleed)


def is_data_game(content: GameContent) -> bool:
    """Whether the folder describes its faces as data (and so needs no Python)."""
    return layout_source(content) is not None


def register_data_game(content: GameContent) -> bool:
    """Register the folder's game as a data game if it is one and no other game has its id."""
    if not is_data_game(content):
        return False
    if not is_registered(content.id):
        register(DataGameDefinition(content.id))
    return True


def uses_data_definition(game_id: str) -> bool:
    from cardgen.registry import definition_for

    return isinstance(definition_for(game_id), DataGameDefinition)


def _text(value, languages) -> dict:
    """A name written as one string stands for every language the game prints."""
    if isinstance(value, dict):
        text = dict(value)
    else:
        text = {lang: str(value) for lang in languages}
    text.setdefault("en", text[next(iter(text))])
    return text


def complete(content: GameContent) -> list[ContentError]:
    """Fill in what a designer may leave out; errors for what cannot be guessed."""
    errors = []
    game = content.game
    languages = list(game.setdefault("languages", ["en"]))
    game["title"] = _text(game["title"], languages)
    game.setdefault("players", {"min": 1, "max": 8})
    sizes = game.setdefault("card_sizes", {"poker": dict(POKER)})
    for back_id, back in game["backs"].items():
        back["title"] = _text(back.get("title", game["title"]), languages)
        back.setdefault("colour", DEFAULT_BACK_COLOUR)
    counts: dict[str, int] = {}
    decks = game["decks"]
    for i, card in enumerate(content.cards):
        card.setdefault("id", i + 1)
        if "deck" not in card:
            if len(decks) == 1:
                card["deck"] = decks[0]["id"]
            else:
                errors.append(content.error("cards", ["cards", i], "the game has several decks: name the card's deck"))
                continue
        counts[card["deck"]] = counts.get(card["deck"], 0) + card.get("copies", 1)
    for i, deck in enumerate(decks):
        deck["name"] = _text(deck.get("name", deck["id"]), languages)
        deck.setdefault("count", counts.get(deck["id"], 0))
        deck.setdefault("shuffle_group", deck["id"])
        if "size" not in deck:
            if len(sizes) == 1:
                deck["size"] = next(iter(sizes))
            else:
                errors.append(content.error("game", ["decks", i], "the game has several card sizes: name the deck's size"))
        if deck.get("count") == 0:
            errors.append(content.error("game", ["decks", i], f"deck {deck['id']!r} has no cards"))
    return errors


__all__ = ["DataGameDefinition", "SCHEMA", "complete", "is_data_game", "register_data_game", "uses_data_definition"]
