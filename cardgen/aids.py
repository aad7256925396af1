"""Player aids: reference cards a game keeps in `aids.yaml`, drawn with the data layouts and
printed beside its card sheets (`aids-<paper>-<layout>.pdf`), one copy per player.

    title: {en: "Game of Trains: reference card", zh-Hant: 火車遊戲：提示卡}
    size: {width_mm: 70, height_mm: 120}
    colour: "#3b4a5a"                 # the back's colour
    copies: players                   # one per player (the game's most), or a number
    layout: {faces: {default: [...]}, backs: {default: [...]}}
    cards:
      - {id: abilities, heading: {en: ..., zh-Hant: ...}, body: {en: ..., zh-Hant: ...}}

Each aid card becomes a deck of its own with a back of its own, and the back's fields are the
card's, so a layout can print the English text on the front and the Chinese on the back (an
element with `lang:` is left out of a build that does not print its language). A text may quote
the game's computed facts as {name}, as rule texts do. The aids are a small data game of their own
(`aid_content`), checked, preflighted and drawn by the same code as a designer's deck; the game's
own cards, decks and rules engine never see them.
"""

from __future__ import annotations

from pathlib import Path

from cardgen.content import PLACEHOLDER, GameContent, iter_texts, placeholder_problem
from cardgen.errors import ContentError
from cardgen.yamlio import Locator, format_json_path

STEM = "aids"


class PrefixedLocator(Locator):
    """Positions of a part of another file: a path here is `prefix + path` there."""

    def __init__(self, inner: Locator, prefix: tuple):
        super().__init__(inner.path, inner.marks)
        self.prefix = tuple(prefix)

    def where(self, json_path):
        return super().where(self.prefix + tuple(json_path))

    def error(self, json_path, message: str) -> ContentError:
        line, col = self.where(json_path)
        return ContentError(str(self.path), line, col, format_json_path(self.prefix + tuple(json_path)), message)


def aid_id(content) -> str:
    return f"{content.id}-aids"


def aid_content(content: GameContent) -> GameContent | None:
    """The game's reference cards as a data game of their own, or None when it has none."""
    aids = content.files.get(STEM)
    if not isinstance(aids, dict):
        return None
    cached = getattr(content, "_aid_content", None)
    if cached is not None:
        cached.languages = content.languages
        return cached
    from cardgen.datagame import DataGameDefinition
    from cardgen.registry import is_known, register

    copies = aids.get("copies", "players")
    copies = content.game["players"]["max"] if copies == "players" else copies
    languages = list(content.printed_languages)
    cards, decks, backs = [], [], {}
    for entry in aids["cards"]:
        fields = {key: _filled(content, value) for key, value in entry.items()}
        cards.append({**fields, "deck": entry["id"], "copies": copies})
        decks.append({"id": entry["id"], "name": fields.get("heading", aids["title"]), "count": copies,
                      "size": "aid", "back": entry["id"], "shuffle_group": entry["id"]})
        backs[entry["id"]] = {"title": aids["title"], "colour": aids.get("colour", "#3a4a6b"), "fields": fields}
    game = {"id": aid_id(content), "title": aids["title"], "languages": languages,
            "players": content.game["players"], "card_sizes": {"aid": aids["size"]}, "backs": backs, "decks": decks}
    locator = content.locators[STEM]
    aid = GameContent(aid_id(content), content.root,
                      files={"game": game, "cards": {"cards": cards}, "layout": aids["layout"]},
                      locators={"game": locator, "cards": locator, "layout": PrefixedLocator(locator, ("layout",))},
                      languages=content.languages)
    if not is_known(aid.id):  # an id of its own, made here: never a shipped or installed game
        register(DataGameDefinition(aid.id))
    content._aid_content = aid
    return aid


def _filled(content: GameContent, value):
    """A text with the game's facts filled in, in every language it has."""
    if isinstance(value, dict):
        return {lang: content.render_text(text, lang) for lang, text in value.items()}
    return content.render_text(value, "en") if isinstance(value, str) else value


def check_aids(content: GameContent) -> list[ContentError]:
    """The aids' facts, fields and pictures, located in aids.yaml."""
    if STEM not in content.files:
        return []
    from cardgen.datalayout import check_layout

    errors = []
    facts = content.facts()
    for path, text in iter_texts(content.files[STEM].get("cards", [])):
        problem = placeholder_problem(text)
        names = [m.group(1) for m in PLACEHOLDER.finditer(text) if m.group(1)]
        unknown = [name for name in names if name not in facts]
        if problem:
            errors.append(content.error(STEM, ["cards", *path], problem))
        elif unknown:
            errors.append(content.error(STEM, ["cards", *path], f"unknown fact {{{unknown[0]}}}; known: "
                                        f"{', '.join(sorted(facts))}"))
    if errors:
        return errors
    return check_layout(aid_content(content))


def aid_outputs(content: GameContent, game_dir: Path, papers, layouts, flip: str, options) -> list:
    """(path, render) of the aids' card sheets for every paper and sheet layout of the build."""
    from functools import partial

    from cardgen.sheets import SHEET_LAYOUTS, render_card_sheets

    aid = aid_content(content)
    if aid is None:
        return []
    outputs = []
    for paper in papers:
        for layout in layouts:
            if layout in SHEET_LAYOUTS:
                name = f"aids-{paper}-{layout}{'-short' if flip == 'short' and layout != 'fold' else ''}.pdf"
                outputs.append((game_dir / name, partial(_render, aid, paper=paper, layout=layout, flip=flip,
                                                         options=options)))
    return outputs


def _render(aid: GameContent, path: Path, *, paper: str, layout: str, flip: str, options) -> None:
    from cardgen.sheets import render_card_sheets

    render_card_sheets(aid, path, paper, layout, flip, options)


__all__ = ["STEM", "aid_content", "aid_outputs", "check_aids"]
