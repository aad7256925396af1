"""The shape every rules engine shares: a `Game` (fixed configuration), a `State` (everything that
changes) and actions with a text notation that parses back.

Players are named "P1".."Pn" in seat order (clockwise). At any moment `State.to_move()` names the
players who must choose now: one in a turn-based phase, several when choices are simultaneous and
secret (each submits with `apply`; the state resolves once all have chosen). Chance (shuffles,
reshuffles) goes through `Chance`, which draws from a seeded generator unless a scenario has queued
the exact outcome, and which logs every outcome so that a game can be written back as a scenario.

A state declares its components in zones (`verify.kit`): from them the base class derives what each
player observes, the fields a scenario's `expect:` reads, the conservation invariant and a
hashable key of the position. A game ends with an `Outcome` (scores, ties, teams).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Hashable, Mapping, Sequence

from verify.kit import Outcome, Zone, conservation_problems, freeze, zone_fields


class IllegalAction(Exception):
    """`apply` refused an action. `rule` names the rule that refused it."""

    def __init__(self, rule: str, reason: str):
        super().__init__(f"{reason} (rule: {rule})")
        self.rule = rule
        self.reason = reason


class NotationError(ValueError):
    """The text of an action does not parse."""


def player_names(n: int) -> list[str]:
    return [f"P{i}" for i in range(1, n + 1)]


@dataclass
class Chance:
    """Every random event of a game. Queued outcomes (from a scenario) come first, then the seed."""

    seed: int | None = None
    queued: list[tuple[str, list]] = field(default_factory=list)
    log: list[tuple[str, list]] = field(default_factory=list)
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self):
        self.rng = random.Random(self.seed)

    def copy(self) -> "Chance":
        """An independent copy at the same point of its random stream, queue and log."""
        other = Chance.__new__(Chance)
        other.seed = self.seed
        other.queued = [(kind, list(outcome)) for kind, outcome in self.queued]
        other.log = list(self.log)
        # Skipping Random's constructor avoids seeding from the operating system on every copy.
        other.rng = random.Random.__new__(random.Random)
        other.rng.setstate(self.rng.getstate())
        return other

    def queue(self, kind: str, outcome: Sequence) -> None:
        """Fix the outcome of the next chance event of this kind (a scenario's `chance:` step)."""
        self.queued.append((kind, list(outcome)))

    def shuffle(self, kind: str, items: Sequence) -> list:
        """Return `items` in a new order: the queued order for this kind if any, else a random one."""
        items = list(items)
        for i, (queued_kind, order) in enumerate(self.queued):
            if queued_kind == kind:
                del self.queued[i]
                if sorted(order, key=repr) != sorted(items, key=repr):
                    raise IllegalAction(
                        "chance",
                        f"{kind} order {order} is not a reordering of the {len(items)} cards {sorted(items, key=repr)}",
                    )
                result = order
                break
        else:
            result = items[:]
            _shuffle(self.rng.getrandbits, result)
        self.log.append((kind, list(result)))
        return result


def _shuffle(getrandbits, items: list) -> None:
    """`random.Random.shuffle` written out with the generator's `getrandbits`: the same order from
    the same generator state, in about half the time (no call per card to `_randbelow`)."""
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@lru_cache(maxsize=None)
def _slot_names(kind: type) -> tuple[str, ...]:
    """Every field name the classes of `kind` keep in slots."""
    names: list[str] = []
    for cls in reversed(kind.__mro__):
        slots = cls.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [name for name in slots if name != "__weakref__"]
    return tuple(names)


class Action:
    """Base of every action value type: frozen dataclasses whose `str()` parses back."""

    def __str__(self) -> str:  # pragma: no cover - each game defines its own notation
        raise NotImplementedError


class State:
    """Base class for a game's mutable state. Subclasses implement the abstract methods.

    A state may keep its fields in slots (`__slots__`, listing every field it sets): reading them
    is then equally quick on every state, clones included, and a field it forgot to list fails at
    once instead of being left out of its clones. A state that lists none keeps a dictionary."""

    __slots__ = ()

    players: list[str]
    chance: Chance

    # --- what a subclass provides -------------------------------------------------------------
    def to_move(self) -> list[str]:
        """Players who must decide now; empty when the game is over. Usually the active player,
        but anyone may be asked mid-turn (a trade offer, a simultaneous secret choice)."""
        raise NotImplementedError

    def legal_actions(self, player: str) -> list[Action]:
        raise NotImplementedError

    def apply(self, player: str, action: Action) -> None:
        """Carry out `action` for `player`, or raise `IllegalAction` and change nothing."""
        raise NotImplementedError

    def parse_action(self, text: str) -> Action:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def zones(self) -> list[Zone]:
        """Every zone with its live list of components (see `verify.kit`)."""
        raise NotImplementedError

    def components(self) -> Mapping[Hashable, int]:
        """Every component the zones must hold between them, with its number of copies."""
        raise NotImplementedError

    def public_fields(self) -> dict[str, Any]:
        """Facts everyone sees that are not zone contents: phase, turn, positions, scores so far."""
        return {}

    def private_fields(self, player: str) -> dict[str, Any]:
        """Facts only `player` sees beyond the zones they may look at."""
        return {}

    def rule_problems(self) -> list[str]:
        """Broken invariants of the game's own rules (limits, phases), as sentences."""
        return []

    def outcome(self) -> Outcome:
        """At the end: scores, ranks, ties, teams (`verify.kit.outcome_from_scores` helps)."""
        raise NotImplementedError

    # --- derived from the above; a game may override any of them for speed or old fields ----------
    def result(self) -> dict[str, Any]:
        """At the end: `winner` (a player, or None when shared or nobody), `winners`, `order`,
        `ranks`, `scores`, `breakdown`, `shared` and the tie-breaks used."""
        return self.outcome().as_result()

    def fields(self) -> dict[str, Any]:
        """Named facts about the state that a scenario's `expect:` may compare: everything."""
        fields = {**self.public_fields(), **zone_fields(self.zones())}
        for player in self.players:
            for name, value in self.private_fields(player).items():
                fields.setdefault(name, {})[player] = value
        if self.is_terminal():
            fields["result"] = self.result()
        return fields

    def observation(self, player: str) -> dict[str, Any]:
        """What `player` may see: zones hidden from them appear as {"hidden": size}."""
        return {**self.public_fields(), **self.private_fields(player),
                **zone_fields(self.zones(), viewer=player, everything=False)}

    def check_invariants(self) -> list[str]:
        """Broken invariants, as sentences; empty when all hold."""
        return conservation_problems(self.zones(), self.components()) + self.rule_problems()

    def key(self) -> Hashable:
        """A hashable snapshot of the position (who moves and every zone in order), equal for
        equal positions: for repetition and stuck-game tests."""
        zones = tuple((z.name, z.owner, tuple(z.cards) if z.ordered else freeze(z.shown())) for z in self.zones())
        return (tuple(self.to_move()), freeze(self.public_fields()), zones)

    # --- shared helpers -------------------------------------------------------------------------
    def clone(self) -> "State":
        return copy.deepcopy(self)

    def shallow_copy(self) -> "State":
        """A new state of the same kind whose fields hold this one's values, shared, not copied:
        the start of a fast `clone`, which then copies whatever changes."""
        kind = type(self)
        other = kind.__new__(kind)
        for name in _slot_names(kind):
            try:
                setattr(other, name, getattr(self, name))
            except AttributeError:  # a field not set yet on this state
                pass
        if hasattr(self, "__dict__"):  # a kind that keeps (some of) its fields in a dictionary
            other.__dict__.update(self.__dict__)
        return other

    def apply_text(self, player: str, text: str) -> Action:
        action = self.parse_action(text)
        self.apply(player, action)
        return action

    def next_player(self, player: str, step: int = 1) -> str:
        return self.players[(self.players.index(player) + step) % len(self.players)]


def param_text(value) -> str:
    """A game parameter's value as `--param KEY=VALUE` writes it: true and false in lower case."""
    return "true" if value is True else "false" if value is False else str(value)


class Game:
    """Fixed configuration of one game. `new_state` starts a game from a seed or a scenario setup."""

    id: str = ""
    min_players: int = 2
    max_players: int = 4

    def __init__(self, content=None, **params):
        self.content = content
        self.params = params

    def with_params(self, **params) -> "Game":
        """The same game with some parameters (variants) changed. A game is configuration that no
        state changes, so each set of parameters is made once and shared, as the games of one
        playout run share their game: a game works out its tables when made, and a content
        folder's scenarios ask for the same few variants again and again."""
        merged = {**self.params, **params}
        if merged == self.params:
            return self
        key = repr(sorted(merged.items()))
        variants = self.__dict__.setdefault("_variants", {})
        if key not in variants:
            variants[key] = type(self)(self.content, **merged)
        return variants[key]

    def rules_digest(self) -> str:
        """The hash of what decides this game's playouts besides its parameters and seeds: the
        source of the rules engines (this package, and the game's own engine wherever it is
        installed) and the game's content as loaded. Worked out once per game (the code does not
        change while it runs)."""
        import hashlib
        import inspect
        import json
        from pathlib import Path

        if "_rules_digest" in self.__dict__:
            return self.__dict__["_rules_digest"]
        digest = hashlib.sha256()
        folders = {Path(__file__).resolve().parent}
        source = inspect.getsourcefile(type(self))
        if source:
            folders.add(Path(source).resolve().parent)
        for folder in sorted(folders):
            for path in sorted(folder.rglob("*.py")):
                digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        files = getattr(self.content, "files", None)
        digest.update(json.dumps(files, sort_keys=True, default=repr, ensure_ascii=False).encode())
        self.__dict__["_rules_digest"] = digest.hexdigest()
        return self.__dict__["_rules_digest"]

    def checked_setup(self, players: int, setup: dict | None, keys) -> dict:
        """The checks every `new_state` starts with: a player count the game takes, and a setup
        that is a mapping of known keys (a missing setup is an empty one)."""
        if not self.min_players <= players <= self.max_players:
            raise SetupError("players", f"{self.id} takes {self.min_players}-{self.max_players} players, not {players}")
        setup = setup or {}
        if not isinstance(setup, dict):
            raise SetupError("", "must be a mapping")
        unknown = sorted(set(setup) - set(keys))
        if unknown:
            raise SetupError(unknown[0], f"unknown setup key; known: {', '.join(sorted(keys))}")
        return setup

    def new_state(self, players: int, seed: int | None = None, setup: dict | None = None) -> State:
        """A new game. `setup` (from a scenario) fixes deck orders and positions; errors in it raise
        `SetupError` naming the field."""
        raise NotImplementedError

    def notation_help(self) -> str:
        """The action notation and the `expect:` fields, as a short text for users."""
        raise NotImplementedError


class SetupError(ValueError):
    """A scenario's setup is inconsistent; `field` is the dotted path inside `setup`."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message
