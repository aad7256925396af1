"""The shape every rules engine shares: a `Game` (fixed configuration), a `State` (everything that
changes) and actions with a text notation that parses back.

Players are named "P1".."Pn" in seat order (clockwise). At any moment `State.to_move()` names the
players who must choose now: one in a turn-based phase, several when choices are simultaneous and
secret (each submits with `apply`; the state resolves once all have chosen). Chance (shuffles,
reshuffles) goes through `Chance`, which draws from a seeded generator unless a scenario has queued
the exact outcome, and which logs every outcome so that a game can be written back as a scenario.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, Sequence


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
            self.rng.shuffle(result)
        self.log.append((kind, list(result)))
        return result


class Action:
    """Base of every action value type: frozen dataclasses whose `str()` parses back."""

    def __str__(self) -> str:  # pragma: no cover - each game defines its own notation
        raise NotImplementedError


class State:
    """Base class for a game's mutable state. Subclasses implement the abstract methods."""

    players: list[str]
    chance: Chance

    # --- what a subclass provides -------------------------------------------------------------
    def to_move(self) -> list[str]:
        """Players who must act now; empty when the game is over."""
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

    def result(self) -> dict[str, Any]:
        """At the end: at least `winner` (a player name or None) and `order` (finishing order)."""
        raise NotImplementedError

    def fields(self) -> dict[str, Any]:
        """Named facts about the state that a scenario's `expect:` may compare."""
        raise NotImplementedError

    def check_invariants(self) -> list[str]:
        """Broken invariants, as sentences; empty when all hold."""
        raise NotImplementedError

    def observation(self, player: str) -> dict[str, Any]:
        """What `player` may see: hidden hands and face-down piles are left out."""
        raise NotImplementedError

    # --- shared helpers -------------------------------------------------------------------------
    def clone(self) -> "State":
        return copy.deepcopy(self)

    def apply_text(self, player: str, text: str) -> Action:
        action = self.parse_action(text)
        self.apply(player, action)
        return action

    def next_player(self, player: str, step: int = 1) -> str:
        return self.players[(self.players.index(player) + step) % len(self.players)]


class Game:
    """Fixed configuration of one game. `new_state` starts a game from a seed or a scenario setup."""

    id: str = ""
    min_players: int = 2
    max_players: int = 4

    def __init__(self, content=None, **params):
        self.content = content
        self.params = params

    def with_params(self, **params) -> "Game":
        """The same game with some parameters (variants) changed."""
        return type(self)(self.content, **{**self.params, **params})

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
