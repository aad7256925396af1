"""What a house rule costs: the same seeded games played under two readings of a rule.

Each game is played once under each reading from the same seed, with the same policy and the same
random stream for the players' choices, so the two games differ only where the rule makes them
differ. The report counts how often the winner, the finishing order and the length change, each
with a 95 % Wilson interval, so a figure from a few hundred games is read for what it is.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from verify.engine import Game
from verify.simulate import play_one


@dataclass(frozen=True)
class Comparison:
    key: str
    values: tuple
    players: int
    games: int
    seed: int
    policy: str
    winner_changed: int
    order_changed: int
    length_changed: int
    unfinished: int  # games that hit the turn cap or failed under either reading

    def as_record(self) -> dict:
        """The fields a ruling's `compare:` stores (and `verify` measures again)."""
        return {"seed": self.seed, "games": self.games, "players": self.players, "policy": self.policy,
                "values": list(self.values), "winner_changed": self.winner_changed,
                "order_changed": self.order_changed, "length_changed": self.length_changed}

    def summary(self) -> str:
        a, b = (_show(v) for v in self.values)
        lines = [f"{self.games} seeded games of {self.players} players ({self.policy} play), "
                 f"{self.key}={a} against {self.key}={b}:"]
        for label, count in (("winner", self.winner_changed), ("finishing order", self.order_changed),
                             ("length", self.length_changed)):
            low, high = wilson(count, self.games)
            lines.append(f"  the {label} changed in {count} of {self.games} games "
                         f"({100 * count / self.games:.1f} %, 95 % interval {100 * low:.1f}-{100 * high:.1f} %)")
        if self.unfinished:
            lines.append(f"  {self.unfinished} games did not finish under one of the readings (counted as changed only where they differ)")
        return "\n".join(lines)


def _show(value) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def wilson(count: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if total == 0:
        return 0.0, 1.0
    p = count / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def recheck(game: Game, key: str, record: dict, turn_cap: int = 2000) -> list[str]:
    """Measure a stored comparison again; the differences, as sentences (empty when it holds)."""
    base = game.with_params(**record.get("params", {}))
    again = compare(base, key, tuple(record["values"]), record["players"], record["games"], record["seed"],
                    record["policy"], turn_cap).as_record()
    return [f"{name}: stored {record[name]}, measured {again[name]}"
            for name in ("winner_changed", "order_changed", "length_changed") if again[name] != record[name]]


def compare(game: Game, key: str, values: tuple, players: int, games: int, seed: int = 1,
            policy: str = "greedy", turn_cap: int = 2000) -> Comparison:
    """Play `games` seeded games under `key`=values[0] and under `key`=values[1]."""
    readings = [game.with_params(**{key: value}) for value in values]
    seeds = random.Random(seed)
    winner = order = length = unfinished = 0
    for _ in range(games):
        game_seed = seeds.randrange(2**31)
        outcomes = []
        for reading in readings:
            state, _, actions, problem = play_one(reading, players, game_seed, policy, turn_cap, random.Random(game_seed))
            done = problem is None and state.is_terminal()
            result = state.result() if done else {}
            outcomes.append((done, result.get("winners", [result.get("winner")]), result.get("order"), actions))
        (done_a, win_a, order_a, len_a), (done_b, win_b, order_b, len_b) = outcomes
        unfinished += not (done_a and done_b)
        winner += win_a != win_b
        order += order_a != order_b
        length += len_a != len_b
    return Comparison(key, tuple(values), players, games, seed, policy, winner, order, length, unfinished)


__all__ = ["Comparison", "compare", "recheck", "wilson"]
