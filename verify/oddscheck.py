"""The exact odds a rule sheet prints, held against games the rules engine deals.

A game names each printed figure as an `OddsEvent`: the exact value (a sympy Rational), the player
count, and how to read the event off a freshly dealt game (1 or 0 for a chance, a number for an
average). `check_odds` deals that many games from seeds drawn from one run seed, and compares what
it saw with the printed value in standard errors. The deals are seeded, so a check gives the same
verdict every time; a figure more than `Z_LIMIT` standard errors from what the shuffles deal is
refused. A correct figure lands that far out for fewer than 1 seed in 15,000, while a figure built
on a wrong deck (a card too many, a kind too few) lands many standard errors away.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from verify.engine import State
from verify.simulate import game_seeds

Z_LIMIT = 4.0


@dataclass(frozen=True)
class OddsEvent:
    name: str                         # the figure as the rule sheet's table names it
    exact: object                     # the printed value, exactly (a sympy Rational or a number)
    players: int                      # the games are dealt for this many players
    measure: Callable[[State], float]  # the event in one freshly dealt game
    chance: bool = True               # a chance (measure gives 1 or 0) or an average


@dataclass(frozen=True)
class OddsCheck:
    event: OddsEvent
    deals: int
    observed: float  # the share of deals with the event, or the average
    stderr: float    # one standard error of `observed` around the exact value

    @property
    def z(self) -> float:
        gap = self.observed - float(self.event.exact)
        if self.stderr == 0:
            return 0.0 if gap == 0 else math.inf
        return gap / self.stderr

    @property
    def agrees(self) -> bool:
        return abs(self.z) <= Z_LIMIT

    def describe(self) -> str:
        verdict = "agrees" if self.agrees else "DISAGREES"
        return (f"{self.event.name} ({self.event.players} players): printed {float(self.event.exact):.4f}, "
                f"dealt {self.observed:.4f} over {self.deals} games, {self.z:+.1f} standard errors: {verdict}")


def zone_cards(state: State, name: str, owner: str | None = None) -> list:
    """The live cards of one of the state's zones (top card first where the zone is ordered)."""
    for zone in state.zones():
        if zone.name == name and zone.owner == owner:
            return zone.cards
    raise KeyError(f"no zone {name!r} of {owner!r}")


def check_odds(engine, events: list[OddsEvent], deals: int = 4000, seed: int = 1) -> list[OddsCheck]:
    """Deal `deals` games for every player count the events name, and measure each event on them."""
    if deals < 2:
        raise ValueError("the odds need at least 2 dealt games to be measured")
    seeds = game_seeds(seed, deals)
    readings: dict[int, list[list[float]]] = {}
    for players in sorted({event.players for event in events}):
        mine = [event for event in events if event.players == players]
        values = [[] for _ in mine]
        for game_seed in seeds:
            state = engine.new_state(players, seed=game_seed)
            for slot, event in zip(values, mine):
                slot.append(float(event.measure(state)))
        for event, slot in zip(mine, values):
            readings[id(event)] = slot
    checks = []
    for event in events:
        values = readings[id(event)]
        n = len(values)
        observed = sum(values) / n
        if event.chance:
            p = float(event.exact)
            stderr = math.sqrt(p * (1 - p) / n)
        else:
            spread = sum((v - observed) ** 2 for v in values) / (n - 1)
            stderr = math.sqrt(spread / n)
        checks.append(OddsCheck(event, n, observed, stderr))
    return checks


__all__ = ["OddsCheck", "OddsEvent", "Z_LIMIT", "check_odds", "zone_cards"]
