"""The declared game interface and the registry of games.

A game is three places: its content folder (`content/<id>/`), one print package
(`cardgen/games/<name>/`) and one engine package (`verify/games/<name>/`). The print package
declares the game by subclassing `GameDefinition` and the game is registered by one explicit line
(`cardgen/games/__init__.py` for the games shipped here; `register()` for any other). Shared modules
ask the registry for a game's parts and never name a game.

The interface is checked when a definition is declared and registered, not when a part is first
used: a subclass that defines a name the interface does not know (a misspelled part) is refused
with a "did you mean", one that lacks a required part cannot be instantiated, and parts of the
wrong kind are refused at `register()`.
"""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping

from cardgen.errors import UsageError

# Card fields that say how a card is kept, not what it shows.
CARD_BOOKKEEPING = {"id", "deck", "copies", "copy", "position", "provenance", "source", "note", "notes"}

# (path, render) pairs: `render(path)` writes one file atomically.
Output = tuple[Path, Callable[[Path], object]]


@dataclass(frozen=True)
class PrintedPiece:
    """One distinct piece of a printed part (a token, a tile side, a mat, a board), for the
    preflight: `draw(canvas, trim)` draws it with its trim at `trim` (points) and its art reaching
    `bleed` points past the trim; `safe` is how far inside the trim its text must stay. `round`
    pieces are cut as the circle inside their rect; `outline` pieces have a cut line of their own
    shape (curved tiles), so only their text is measured, not their edges."""

    part: str  # "tokens", "mats", "board", "tiles", ...
    name: str  # which piece, e.g. "soul tile d-01 (back)"
    width: float  # points
    height: float
    draw: Callable[[Any, Any], None]
    bleed: float
    safe: float
    shape: str = "rect"  # "rect", "round" or "outline"


class GameDefinition(ABC):
    """Everything a game adds to the shared machinery. Subclass it, set `id`, implement the two
    card methods, and override any optional part. Methods take the loaded `GameContent`."""

    # --- identity and rules ---------------------------------------------------------------------
    id: ClassVar[str]
    """The content folder name, e.g. "game-of-trains"."""

    engine: ClassVar[type | None] = None
    """The rules engine: a `verify.engine.Game` subclass, built as `engine(content)`; None if the
    game's rules are not implemented (every command that needs them then says so)."""

    # --- content ----------------------------------------------------------------------------------
    def check(self, content) -> list:
        """Cross-file checks only this game needs, as a list of `ContentError`."""
        return []

    def facts(self, content) -> dict[str, Any]:
        """Numbers computed from the data that rule texts may quote as {name}, beyond the shared
        ones (deck counts, component counts, player counts)."""
        return {}

    def card_title(self, content, card: dict) -> str:
        """A card's title in English for lists and digital tables (Tabletop Simulator nicknames):
        its `name`, else its deck's name and the values that tell it apart (e.g. "Carriage card:
        1, ability 3"). A game may override it."""
        name = card.get("name")
        if isinstance(name, dict) and name.get("en"):
            return str(name["en"])
        deck = content.deck(card["deck"])["name"]["en"]
        words = deck.split()
        label = " ".join(words[:-1] + [words[-1][:-1] if words[-1].endswith("s") else words[-1]]).capitalize()
        details = []
        for key, value in card.items():
            if key in CARD_BOOKKEEPING or isinstance(value, (dict, list, bool)):
                continue
            shown = str(value).replace("-", " ")
            details.append(shown if key in ("number", "value") or isinstance(value, str) else f"{key} {shown}")
        return f"{label}: {', '.join(details)}" if details else label

    def manifest_lines(self, content, deck: dict) -> list[str]:
        """Extra lines under a deck in `cardgen manifest` (e.g. the cards of each ability)."""
        return []

    def component_names(self, content, lang: str) -> set[str]:
        """The names a player tells components apart by (cities, towns, card titles, riders), in
        `lang`: what a worked example's picture must show when its text names it. By default the
        `name` of every entry of a list in the game's files other than the rule sheet's."""
        found: set[str] = set()

        def walk(data):
            if isinstance(data, list):
                for entry in data:
                    name = entry.get("name") if isinstance(entry, dict) else None
                    if isinstance(name, dict) and isinstance(name.get(lang), str):
                        found.add(name[lang])
                    walk(entry)
            elif isinstance(data, dict):
                for key, value in data.items():
                    if key != "decks":  # a deck's name says what the cards are, not which one
                        walk(value)

        for file, data in content.files.items():
            if file not in ("rules", "rulings"):
                walk(data)
        return found

    def odds(self, content) -> list[dict]:
        """Exact odds (sympy Rationals) a player can use; rows are the game's own shape."""
        return []

    def odds_events(self, content) -> list:
        """Every figure `odds` gives that the rule sheet prints, as a `verify.oddscheck.OddsEvent`:
        its exact value and how to read it off a game the rules engine has just dealt, so that
        dealt games can be held against the printed odds."""
        return []

    # --- printing ---------------------------------------------------------------------------------
    @abstractmethod
    def draw_face(self, canvas, content, card: dict, rect, bleed: float) -> None:
        """Draw one card's front: `rect` is its trim in points, `bleed` how far the art reaches."""

    @abstractmethod
    def draw_back(self, canvas, content, back_id: str, rect, bleed: float) -> None:
        """Draw one back (a `backs:` entry of game.yaml)."""

    def extra_outputs(self, content, game_dir: Path, paper: str, flip: str, options=None) -> list[Output]:
        """Printed parts that are not card sheets (tiles, boards, tokens), for one paper. `options`
        (cardgen.sheets.SheetOptions) carries the duplex correction that two-sided parts apply
        to their backs pages (`options.back_shift(page_w, page_h)`)."""
        return []

    def parts_to_check(self, content) -> list[PrintedPiece]:
        """Every distinct piece of the parts `extra_outputs` prints, for the preflight to hold to
        the card standard (text size, safe zone, bleed)."""
        return []

    diagrams: ClassVar[Mapping[str, Callable]] = {}
    """Rule-sheet pictures named by a section's `diagram:` key: id -> f(content, lang) -> flowable.
    This and `parts` may be a `SheetTable`, imported when a rule sheet first reads it."""

    parts: ClassVar[Mapping[str, Callable]] = {}
    """Rule-sheet parts computed from the data, named by a section's `generated:` key:
    kind -> f(content, lang, styles) -> list of flowables."""

    example_diagram: ClassVar[Callable | None] = None
    """f(content, lang, example) -> flowable picturing a worked example before and after."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        known = _interface_names()
        for name in vars(cls):
            if name.startswith("_") or name in known:
                continue
            close = difflib.get_close_matches(name, sorted(known), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TypeError(f"{cls.__name__}.{name} is not part of the game interface{hint} "
                            f"(the interface: {', '.join(sorted(known))})")


def _interface_names() -> set[str]:
    return {name for name in vars(GameDefinition) if not name.startswith("_")} | {"id"}


class SheetTable(Mapping):
    """A game's table of rule-sheet pieces (its `diagrams` or `parts`), named by the module that
    holds it and imported the first time a rule sheet reads it: those modules bring reportlab's
    page layout, which card sheets alone never need. Its functions are checked then."""

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name
        self._table: Mapping | None = None

    def _loaded(self) -> Mapping:
        if self._table is None:
            import importlib

            table = getattr(importlib.import_module(self.module), self.name)
            _check_table(f"{self.module}.{self.name}", table)
            self._table = table
        return self._table

    @property
    def loaded(self) -> bool:
        return self._table is not None

    def __getitem__(self, key):
        return self._loaded()[key]

    def __iter__(self):
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())


def sheet_function(module: str, name: str) -> Callable:
    """A rule-sheet function (such as `example_diagram`) of a module imported when it is first
    called, for the same reason as `SheetTable`."""
    def call(*args, **kwargs):
        import importlib

        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def _check_table(what: str, table) -> None:
    if not isinstance(table, Mapping) or not all(callable(f) for f in table.values()):
        raise TypeError(f"{what} must map names to functions")


_GAMES: dict[str, GameDefinition] = {}


def register(definition: GameDefinition) -> GameDefinition:
    """Add a game. Its parts are checked now, so a broken declaration fails at start-up."""
    if not isinstance(definition, GameDefinition):
        raise TypeError(f"{definition!r} is not a GameDefinition")
    game_id = getattr(definition, "id", None)
    if not isinstance(game_id, str) or not game_id:
        raise TypeError(f"{type(definition).__name__} has no id")
    for name in ("diagrams", "parts"):
        table = getattr(definition, name)
        if not isinstance(table, SheetTable):  # one imported when first read is checked then
            _check_table(f"{game_id}: {name}", table)
    if definition.example_diagram is not None and not callable(definition.example_diagram):
        raise TypeError(f"{game_id}: example_diagram must be a function")
    if definition.engine is not None and not callable(getattr(definition.engine, "new_state", None)):
        raise TypeError(f"{game_id}: engine must be a rules engine class (verify.engine.Game)")
    _GAMES[game_id] = definition
    return definition


def unregister(game_id: str) -> None:
    _GAMES.pop(game_id, None)


ENTRY_POINT_GROUP = "cardgen.games"
_installed_loaded = False


def _ensure_builtin(game_id: str | None = None) -> None:
    """Register the games shipped with the project and those installed packages declare; when
    `game_id` is a shipped game, that game alone."""
    import cardgen.games as shipped

    if game_id in _GAMES:
        return
    if game_id in shipped.SHIPPED:
        shipped.load(game_id)
        return
    shipped.load_all()
    global _installed_loaded
    if not _installed_loaded:
        _installed_loaded = True
        load_installed_games()


def is_known(game_id: str) -> bool:
    """Whether `game_id` is registered now (nothing is loaded to find out)."""
    return game_id in _GAMES


def load_installed_games() -> list[str]:
    """Register the games that installed packages declare under the entry point group
    `cardgen.games` (a `GameDefinition` instance or subclass each), so the installed `cardgen`
    finds them without a launcher. A game shipped with cardgen keeps its id."""
    from importlib.metadata import entry_points

    found = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: (p.name, p.value)):
        try:
            loaded = point.load()
            definition = loaded() if isinstance(loaded, type) else loaded
            if getattr(definition, "id", None) in _GAMES:
                raise TypeError(f"a game with the id {definition.id!r} is already registered")
            register(definition)
        except Exception as exc:  # an installed package's fault, reported as such, never a traceback
            raise UsageError(f"the installed game {point.name!r} ({point.value}) cannot be used: "
                             f"{type(exc).__name__}: {exc}") from None
        found.append(definition.id)
    return found


def registered() -> dict[str, GameDefinition]:
    _ensure_builtin()
    return dict(_GAMES)


def definition_for(game_id: str) -> GameDefinition:
    """The registered definition of `game_id`; a game folder with none cannot be used."""
    _ensure_builtin(game_id)
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UsageError(f"no game {game_id!r} is registered (registered: {known})") from None


def is_registered(game_id: str) -> bool:
    _ensure_builtin(game_id)
    return game_id in _GAMES


def engine_for(content):
    """The rules engine of this game, built from its content, or None if it has none."""
    definition = definition_for(content.id)
    return None if definition.engine is None else definition.engine(content)


__all__ = ["ENTRY_POINT_GROUP", "GameDefinition", "Output", "PrintedPiece", "definition_for", "engine_for", "is_known",
           "is_registered", "load_installed_games", "register", "registered", "unregister"]
