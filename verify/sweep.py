"""Sweeps: the same seeded playouts under every combination of some parameters' values and player
counts, one row of results per combination, written as CSV.

A sweep is resumable: every finished combination is in the file at once (written whole, then moved
into place), and a run started again on the same file plays only the combinations it lacks. A row
is found again by its parameters, player count, games, seed, policy and turn cap, so changing any of
those plays it anew.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from cardgen.words import counted
from verify.engine import param_text, player_names
from verify.simulate import simulate

KEY_COLUMNS = ("params", "players", "games", "seed", "policy", "turn_cap")


@dataclass(frozen=True)
class Combination:
    params: tuple[tuple[str, object], ...]
    players: int

    @property
    def params_text(self) -> str:
        return ";".join(f"{k}={param_text(v)}" for k, v in self.params)


def combinations(grid: dict[str, list], player_counts: list[int]) -> list[Combination]:
    """Every combination of the grid's values (in the order given) and player counts."""
    keys = list(grid)
    return [Combination(tuple(zip(keys, values)), players)
            for values in itertools.product(*(grid[k] for k in keys)) for players in player_counts]


def _row_key(row: dict) -> tuple:
    return tuple(str(row[c]) for c in KEY_COLUMNS)


def read_rows(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def write_rows(path: Path, rows: list[dict], columns: list[str]) -> None:
    """Write the whole file beside its place, then move it in: a reader never sees half a row."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(buffer.getvalue(), "utf-8")
    os.replace(partial, path)


def columns_for(max_players: int) -> list[str]:
    seats = player_names(max_players)
    return [*KEY_COLUMNS, *(f"win_{p}" for p in seats), "shared", "capped", "failures",
            "mean_length", "min_length", "max_length", *(f"mean_score_{p}" for p in seats), "fingerprint"]


def sweep(game, grid: dict[str, list], player_counts: list[int], games: int, seed: int, policy: str,
          turn_cap: int, out: Path, runner=None, progress: Callable[[str], None] = lambda _: None) -> tuple[int, int]:
    """Play every combination missing from `out`; return (played, skipped)."""
    rows = read_rows(out)
    columns = columns_for(max([*player_counts, *(int(r["players"]) for r in rows if str(r.get("players", "")).isdigit())]))
    done = {_row_key(r) for r in rows}
    played = skipped = 0
    for combo in combinations(grid, player_counts):
        row = {"params": combo.params_text, "players": combo.players, "games": games, "seed": seed,
               "policy": policy, "turn_cap": turn_cap}
        if _row_key(row) in done:
            skipped += 1
            continue
        progress(f"{combo.params_text or '(defaults)'}, {combo.players} players: {counted(games, 'game')}")
        report = simulate(game.with_params(**dict(combo.params)), combo.players, games, seed=seed,
                          policy=policy, turn_cap=turn_cap, runner=runner)
        row.update({f"win_{p}": n for p, n in report.wins.items()})
        row.update({f"mean_score_{p}": round(v, 3) for p, v in report.mean_scores().items()})
        row.update(shared=report.shared, capped=report.capped, failures=len(report.failures),
                   mean_length=round(report.mean_length, 2), min_length=report.min_length,
                   max_length=report.max_length, fingerprint=report.fingerprint)
        rows.append(row)
        write_rows(out, rows, columns)
        played += 1
    if not out.exists():
        write_rows(out, rows, columns)
    return played, skipped


__all__ = ["combinations", "sweep", "read_rows"]
