"""What a house rule costs: the same seeded games played under two readings of a rule.

Each game is played once under each reading from the same seed, with the same policy and the same
random stream for the players' choices, so the two games differ only where the rule makes them
differ. The report counts how often the winner, the finishing order and the length change, each
with a 95 % Wilson interval, so a figure from a few hundred games is read for what it is.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from dataclasses import dataclass
from pathlib import Path

from cardgen.buildcache import cache_dir
from cardgen.words import counted
from verify.engine import Game, param_text
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
    differed: int = 0  # games whose actions or chance events differ at all between the readings

    def as_record(self) -> dict:
        """The fields a ruling's `compare:` stores (and `verify` measures again)."""
        return {"seed": self.seed, "games": self.games, "players": self.players, "policy": self.policy,
                "values": list(self.values), "winner_changed": self.winner_changed,
                "order_changed": self.order_changed, "length_changed": self.length_changed}

    def summary(self) -> str:
        a, b = (param_text(v) for v in self.values)
        lines = [f"{counted(self.games, 'seeded game')} of {self.players} players ({self.policy} play), "
                 f"{self.key}={a} against {self.key}={b}:"]
        for label, count in (("winner", self.winner_changed), ("finishing order", self.order_changed),
                             ("length", self.length_changed)):
            low, high = wilson(count, self.games)
            lines.append(f"  the {label} changed in {count} of {counted(self.games, 'game')} "
                         f"({100 * count / self.games:.1f} %, 95 % interval {100 * low:.1f}-{100 * high:.1f} %)")
        if self.differed:
            lines.append(f"  {self.differed} of {counted(self.games, 'game')} went differently at some action or draw")
        else:
            lines.append("  every game went action for action the same under both readings: the rule never came into play")
        if self.unfinished:
            lines.append(f"  {counted(self.unfinished, 'game')} did not finish under one of the readings "
                         "(counted as changed only where they differ)")
        return "\n".join(lines)


def wilson(count: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if total == 0:
        return 0.0, 1.0
    p = count / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def recheck(game: Game, key: str, record: dict, turn_cap: int = 2000, runner=None) -> list[str]:
    """Measure a stored comparison again; the differences, as sentences (empty when it holds).
    A comparison that held is remembered under a hash of the rules code, the game's data, its
    parameters and the stored record, and is measured again only when one of them changes."""
    stamp = _recheck_stamp(game, key, record, turn_cap)
    if stamp is not None and stamp.exists():
        return []
    base = game.with_params(**record.get("params", {}))
    again = compare(base, key, tuple(record["values"]), record["players"], record["games"], record["seed"],
                    record["policy"], turn_cap, runner).as_record()
    moved = [f"{name}: stored {record[name]}, measured {again[name]}"
             for name in ("winner_changed", "order_changed", "length_changed") if again[name] != record[name]]
    if not moved and stamp is not None:
        try:
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text("held\n", "utf-8")
        except OSError:
            pass  # an unwritable cache only costs the next run the measurement
    return moved


def _recheck_stamp(game: Game, key: str, record: dict, turn_cap: int) -> Path | None:
    try:
        data = json.dumps([game.params, key, record, turn_cap], sort_keys=True, default=repr, ensure_ascii=False)
    except (TypeError, ValueError):
        return None  # data that does not serialise is simply measured every time
    digest = hashlib.sha256((game.rules_digest() + data).encode()).hexdigest()
    return cache_dir() / "comparisons" / digest


def play_pair(task) -> list[tuple]:
    """Play each (index, seed) of a batch under both readings; a module-level function so worker
    processes and cluster nodes can run it. Returns per game (done, winners, order, actions, digest of
    the game's actions and chance events) twice."""
    readings, players, policy, turn_cap, games = task
    rows = []
    for _, game_seed in games:
        outcomes = []
        for reading in readings:
            state, record, actions, problem = play_one(reading, players, game_seed, policy, turn_cap,
                                                       random.Random(game_seed))
            done = problem is None and state.is_terminal()
            result = state.result() if done else {}
            digest = hashlib.sha256(repr(record).encode()).digest()
            outcomes.append((done, result.get("winners", [result.get("winner")]), result.get("order"), actions, digest))
        rows.append(tuple(outcomes))
    return rows


def compare(game: Game, key: str, values: tuple, players: int, games: int, seed: int = 1,
            policy: str = "greedy", turn_cap: int = 2000, runner=None) -> Comparison:
    """Play `games` seeded games under `key`=values[0] and under `key`=values[1]; the same figures
    whatever runs them (`runner`: a verify.workers.Runner; default, this process)."""
    readings = [game.with_params(**{key: value}) for value in values]
    return compare_readings(readings, key, values, players, games, seed, policy, turn_cap, runner)


def compare_readings(readings: list, key: str, values: tuple, players: int, games: int, seed: int = 1,
                     policy: str = "greedy", turn_cap: int = 2000, runner=None) -> Comparison:
    """Play the same seeded games under two configured games (`readings`), labelled key=values."""
    from verify.simulate import game_seeds
    from verify.workers import Runner, chunks

    runner = runner or Runner()
    seeds = game_seeds(seed, games)
    tasks = [(readings, players, policy, turn_cap, [(k, seeds[k]) for k in batch])
             for batch in chunks(games, runner.workers)]
    winner = order = length = unfinished = differed = 0
    for rows in runner.map(play_pair, tasks, [2 * len(task[-1]) for task in tasks]):  # each seed played twice
        for (done_a, win_a, order_a, len_a, game_a), (done_b, win_b, order_b, len_b, game_b) in rows:
            unfinished += not (done_a and done_b)
            winner += win_a != win_b
            order += order_a != order_b
            length += len_a != len_b
            differed += game_a != game_b
    return Comparison(key, tuple(values), players, games, seed, policy, winner, order, length, unfinished, differed)


__all__ = ["Comparison", "compare", "compare_readings", "recheck", "wilson"]
