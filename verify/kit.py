"""The engine kit: what every rules engine needs besides its rules.

- **Zones** hold components (cards, tiles, tokens: any hashable id) and say who may see them:
  everyone, the owner, or nobody. A state lists its zones (`State.zones()`); from that list come a
  player's observation, the fields a scenario's `expect:` reads, the conservation invariant (every
  component in exactly one zone) and the parsing of a scenario's `setup:` piles. Sizes stay public
  unless a zone says otherwise.
- **Outcomes**: per-player scores with their breakdown, ranks with ties, teams, shared wins and
  the tie-break steps that decided; `Outcome.as_result()` is what `State.result()` returns.
- **State keys**: a hashable snapshot of a position, for repetition and stuck-game tests.

A game may keep its components in its own structures and return `Zone` views of the very lists it
uses (mutating a view's `cards` changes the state), or keep them in a `ZoneTable` built from
declared `ZoneSpec`s.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Hashable, Iterable, Mapping, Sequence


class Visibility(str, Enum):
    """Who may see what a zone holds."""

    EVERYONE = "everyone"
    OWNER = "owner"
    NOBODY = "nobody"


@dataclass
class Zone:
    """A place components sit in. `cards` is the live list; `owner` is None for a shared zone."""

    name: str
    cards: list
    visibility: Visibility
    owner: str | None = None
    ordered: bool = False  # order carries meaning (a draw pile, a row): fields keep it
    size_public: bool = True

    def visible_to(self, player: str | None) -> bool:
        """Whether `player` may see the contents (None: an onlooker who sees only public zones)."""
        if self.visibility is Visibility.EVERYONE:
            return True
        return self.visibility is Visibility.OWNER and player is not None and player == self.owner

    def shown(self) -> list:
        items = [c for c in self.cards if c is not None]
        return list(self.cards) if self.ordered else sorted(items, key=_sort_key)


@dataclass(frozen=True)
class ZoneSpec:
    """The declaration of a zone a `ZoneTable` keeps: one shared list, or one list per player."""

    name: str
    visibility: Visibility
    per_player: bool = False
    ordered: bool = False
    size_public: bool = True


class ZoneTable:
    """Storage for declared zones: `table["deck"]` or `table["hand", "P1"]` is the live list."""

    def __init__(self, specs: Sequence[ZoneSpec], players: Sequence[str]):
        self.specs = {spec.name: spec for spec in specs}
        self.players = list(players)
        self.lists: dict[tuple[str, str | None], list] = {}
        for spec in specs:
            for owner in (self.players if spec.per_player else [None]):
                self.lists[spec.name, owner] = []

    def __getitem__(self, key) -> list:
        name, owner = key if isinstance(key, tuple) else (key, None)
        return self.lists[name, owner]

    def __setitem__(self, key, cards) -> None:
        name, owner = key if isinstance(key, tuple) else (key, None)
        self.lists[name, owner][:] = list(cards)

    def zones(self) -> list[Zone]:
        return [Zone(name, cards, self.specs[name].visibility, owner, self.specs[name].ordered,
                     self.specs[name].size_public)
                for (name, owner), cards in self.lists.items()]

    def copy(self) -> "ZoneTable":
        other = ZoneTable.__new__(ZoneTable)
        other.specs = self.specs
        other.players = self.players
        other.lists = {key: list(cards) for key, cards in self.lists.items()}
        return other


def _sort_key(item) -> tuple:
    return (type(item).__name__, item) if isinstance(item, (int, float, str)) else (type(item).__name__, repr(item))


def hidden(count: int) -> dict:
    """How a zone a player may not see appears in their observation."""
    return {"hidden": count}


def zone_fields(zones: Iterable[Zone], viewer: str | None = None, everything: bool = True) -> dict[str, Any]:
    """Zones as fields: a shared zone as `name`, a player's as `name: {P1: ..., P2: ...}`.
    With `everything`, every zone is shown (what `expect:` reads); otherwise only what `viewer`
    may see, the rest as {"hidden": size} (or {"hidden": None} when even the size is secret)."""
    fields: dict[str, Any] = {}
    for zone in zones:
        if everything or zone.visible_to(viewer):
            value: Any = zone.shown()
        else:
            value = hidden(len([c for c in zone.cards if c is not None]) if zone.size_public else None)
        if zone.owner is None:
            fields[zone.name] = value
        else:
            fields.setdefault(zone.name, {})[zone.owner] = value
    return fields


def conservation_problems(zones: Iterable[Zone], components: Mapping[Hashable, int]) -> list[str]:
    """Every component in exactly one place: none missing, none doubled, nothing unknown. The
    count is made first, in one pass; only a count that differs looks for where each card is."""
    zones = list(zones)
    counted: Counter = Counter()
    for zone in zones:
        counted.update(zone.cards)
    counted.pop(None, None)
    if counted == (components if isinstance(components, Counter) else Counter(components)):
        return []
    seen: Counter = Counter()
    where: dict[Hashable, list[str]] = {}
    for zone in zones:
        label = zone.name if zone.owner is None else f"{zone.owner}'s {zone.name}"
        for card in zone.cards:
            if card is None:
                continue
            seen[card] += 1
            where.setdefault(card, []).append(label)
    problems = []
    for card, count in seen.items():
        expected = components.get(card, 0)
        if expected == 0:
            problems.append(f"{card!r} is no component of the game (in {', '.join(where[card])})")
        elif count > expected:
            problems.append(f"{card!r} is in {count} places, {expected} expected: {', '.join(where[card])}")
    for card, expected in components.items():
        if seen.get(card, 0) < expected:
            problems.append(f"{card!r} is missing ({seen.get(card, 0)} of {expected} found)")
    return problems


def freeze(value: Any) -> Hashable:
    """A hashable copy of plain data (dicts, lists, sets, scalars): the basis of state keys."""
    if isinstance(value, Mapping):
        return tuple(sorted(((k, freeze(v)) for k, v in value.items()), key=lambda kv: repr(kv[0])))
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted((freeze(v) for v in value), key=repr))
    return value


# --- outcomes ---------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """How a game ended: scores, the order of finish with ties, teams and the tie-breaks used.

    `ranking` lists groups best first; players in one group share their place (a shared win when
    the first group holds more than one side). With teams, a side is a team and its members share
    its score and place."""

    ranking: list[list[str]]
    scores: dict[str, Any] = field(default_factory=dict)
    breakdown: dict[str, dict[str, Any]] = field(default_factory=dict)
    teams: dict[str, list[str]] = field(default_factory=dict)  # team name -> players
    tiebreaks: list[str] = field(default_factory=list)  # the criteria, after the first, that separated sides

    @property
    def winners(self) -> list[str]:
        """Every player who shares first place (team members included)."""
        return [p for side in (self.ranking[0] if self.ranking else []) for p in self._players(side)]

    @property
    def shared(self) -> bool:
        return len(self.ranking[0]) > 1 if self.ranking else False

    def _players(self, side: str) -> list[str]:
        return self.teams.get(side, [side])

    def ranks(self) -> dict[str, int]:
        """Place of each player, 1 for the winners; tied sides share a place (1, 1, 3)."""
        places: dict[str, int] = {}
        place = 1
        for group in self.ranking:
            for side in group:
                for player in self._players(side):
                    places[player] = place
            place += len(group)
        return places

    def as_result(self) -> dict[str, Any]:
        winners = self.winners
        result: dict[str, Any] = {
            "winner": winners[0] if len(winners) == 1 else None,
            "winners": winners,
            "shared": self.shared,
            "order": [p for group in self.ranking for side in group for p in self._players(side)],
            "ranks": self.ranks(),
            "scores": dict(self.scores),
            "breakdown": {k: dict(v) for k, v in self.breakdown.items()},
            "tiebreaks": list(self.tiebreaks),
        }
        if self.teams:
            result["teams"] = {k: list(v) for k, v in self.teams.items()}
        return result


def rank_sides(sides: Sequence[str], criteria: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[list[list[str]], list[str]]:
    """Order `sides` by the criteria in turn (higher is better for each); sides equal on every
    criterion share a group. Returns the groups and the names of the criteria after the first that
    were needed to separate sides that tied on all earlier ones."""
    keyed = {side: tuple(values[side] for _, values in criteria) for side in sides}
    ordered = sorted(sides, key=lambda s: keyed[s], reverse=True)
    groups: list[list[str]] = []
    for side in ordered:
        if groups and keyed[groups[-1][0]] == keyed[side]:
            groups[-1].append(side)
        else:
            groups.append([side])
    used: list[str] = []
    for i in range(1, len(criteria)):
        before = {s: keyed[s][:i] for s in sides}
        tied_before = [s for s in sides if sum(1 for t in sides if before[t] == before[s]) > 1]
        if any(keyed[s][i] != keyed[t][i] for s in tied_before for t in tied_before if before[s] == before[t]):
            used.append(criteria[i][0])
    return groups, used


def outcome_from_scores(scores: Mapping[str, Any], breakdown: Mapping[str, Mapping[str, Any]] | None = None,
                        tiebreaks: Sequence[tuple[str, Mapping[str, Any]]] = (),
                        teams: Mapping[str, Sequence[str]] | None = None) -> Outcome:
    """The usual outcome: sides (players, or teams when given) ranked by score, then by each
    tie-break in order; sides still equal share their place. `scores` and the tie-break values are
    per side."""
    sides = list(scores)
    groups, used = rank_sides(sides, [("score", scores), *tiebreaks])
    return Outcome(groups, dict(scores), {k: dict(v) for k, v in (breakdown or {}).items()},
                   {k: list(v) for k, v in (teams or {}).items()}, used)


__all__ = ["Outcome", "Visibility", "Zone", "ZoneSpec", "ZoneTable", "conservation_problems", "freeze",
           "hidden", "outcome_from_scores", "rank_sides", "zone_fields"]
