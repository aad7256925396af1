"""Sweeps: the same seeded playouts under every combination of some parameters' values and player
counts, one row of results per combination, written as CSV, or as Parquet when the file's name
ends in .parquet.

A sweep is resumable at two levels. Every finished combination is in the file at once (written
whole, then moved into place), and a run started again on the same file plays only the
combinations it lacks. Within a combination, the games are played in chunks of `CHUNK_GAMES`;
each finished chunk's figures are added to a file beside the results (`.NAME.chunks`), so a long
combination that was stopped goes on from its last finished chunk. The chunks' figures merge into
exactly the figures of one uninterrupted run.

A row is found again by its parameters, player count, games, seed, policy, turn cap and `rules`:
a hash of the rules engines' code and the game's content (`Game.rules_digest`). Changing any of
those plays it anew, and a row of the same combination played under other rules is replaced. One
sweep at a time writes a file (`only_writer`).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from cardgen.errors import OutputError, display_path
from cardgen.words import counted
from verify.engine import param_text, player_names
from verify.simulate import SimulationReport, simulate

KEY_COLUMNS = ("params", "players", "games", "seed", "policy", "turn_cap", "rules")
# The columns every sweep file has had; `rules` came later, and a row without it is played again.
REQUIRED_COLUMNS = KEY_COLUMNS[:-1]
SEAT_COLUMN = re.compile(r"(win|mean_score)_P[1-9][0-9]*")
FIGURE_COLUMNS = ("shared", "capped", "failures", "mean_length", "min_length", "max_length", "fingerprint")
TEXT_COLUMNS = ("params", "policy", "rules", "fingerprint")
DECIMAL_COLUMNS = ("mean_length",)
CHUNK_GAMES = 1000  # games per resumable chunk of a combination


class SweepFileError(Exception):
    """A results file that is not a sweep's, or that another sweep is writing now."""

    def __init__(self, path: Path, line: int, message: str):
        super().__init__(f"{display_path(str(path))}:{line}: {message}")


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
    return tuple("" if row.get(c) is None else str(row[c]) for c in KEY_COLUMNS)


def _combination_key(row: dict) -> tuple:
    """The row's combination, whatever the rules it was played under."""
    return _row_key(row)[:-1]


def is_parquet(path: Path) -> bool:
    return path.suffix.lower() == ".parquet"


def read_rows(path: Path) -> list[dict]:
    """The rows of a sweep's results file (CSV or Parquet); none when there is no file yet. A file
    that is not a sweep's is refused (`SweepFileError`), never overwritten."""
    if not path.exists():
        return []
    if is_parquet(path):
        columns, rows = _read_parquet(path)
    else:
        columns, rows = _read_csv(path)
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    foreign = [c for c in columns if c not in KEY_COLUMNS and c not in FIGURE_COLUMNS and not SEAT_COLUMN.fullmatch(c)]
    if missing or foreign:
        what = (f"no column {', '.join(map(repr, missing))}" if missing
                else f"column {', '.join(map(repr, foreign))} is not a sweep's")
        raise SweepFileError(path, 1, f"not the results of a sweep ({what}); give --out a new file or a sweep's")
    return rows


def _read_csv(path: Path) -> tuple[list[str], list[dict]]:
    line = 1
    try:
        # utf-8-sig: a file saved again by a spreadsheet may begin with a byte order mark.
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            columns = list(reader.fieldnames or [])
            rows = []
            for row in reader:
                line = reader.line_num
                if None in row:
                    raise SweepFileError(path, line, "a row with more cells than the header has columns")
                rows.append(row)
    except UnicodeDecodeError as exc:
        raise SweepFileError(path, line, f"not a CSV file in UTF-8 ({exc.reason})") from None
    except csv.Error as exc:
        raise SweepFileError(path, line, f"not a CSV file: {exc}") from None
    except OSError as exc:
        raise SweepFileError(path, 1, f"cannot be read: {exc.strerror or exc}") from None
    return columns, rows


def _arrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ImportError("Parquet files need pyarrow: pip install 'cardgen[parquet]'") from None
    return pyarrow, pyarrow.parquet


def _read_parquet(path: Path) -> tuple[list[str], list[dict]]:
    _, parquet = _arrow()
    try:
        table = parquet.read_table(path)
    except Exception as exc:  # noqa: BLE001 - whatever pyarrow finds wrong with a file, said in one line
        raise SweepFileError(path, 1, f"not a Parquet file pyarrow can read: {exc}") from None
    return list(table.column_names), table.to_pylist()


def write_rows(path: Path, rows: list[dict], columns: list[str]) -> None:
    """Write the whole file beside its place, then move it in: a reader never sees half a row."""
    def write(partial: Path) -> None:
        if is_parquet(path):
            _write_parquet(partial, rows, columns)
        else:
            buffer = io.StringIO()
            writer = csv.DictWriter(buffer, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
            partial.write_text(buffer.getvalue(), "utf-8")

    _replace(path, write)


def _replace(path: Path, write: Callable[[Path], None]) -> None:
    """`write(partial)` into a file beside `path`, then moved onto it; an OS error is an
    `OutputError` naming `path`, and leaves no partial file."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        write(partial)
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise OutputError(path, exc) from None


def _write_parquet(path: Path, rows: list[dict], columns: list[str]) -> None:
    """Typed columns: text, whole numbers, and decimals for the means; a seat a row's player count
    lacks is empty (null)."""
    arrow, parquet = _arrow()

    def typed(column: str):
        if column in TEXT_COLUMNS:
            return arrow.string(), str
        if column in DECIMAL_COLUMNS or column.startswith("mean_score_"):
            return arrow.float64(), float
        return arrow.int64(), int

    arrays = []
    for column in columns:
        kind, convert = typed(column)
        arrays.append(arrow.array([None if row.get(column) in (None, "") else convert(row[column]) for row in rows],
                                  type=kind))
    parquet.write_table(arrow.Table.from_arrays(arrays, names=columns), path)


def columns_for(max_players: int) -> list[str]:
    seats = player_names(max_players)
    return [*KEY_COLUMNS, *(f"win_{p}" for p in seats), "shared", "capped", "failures",
            "mean_length", "min_length", "max_length", *(f"mean_score_{p}" for p in seats), "fingerprint"]


class Chunks:
    """The figures of each finished chunk of the combinations not yet in the results file, one JSON
    line each, beside it. A line that cannot be read (a run stopped while writing it) is a chunk
    to play again."""

    def __init__(self, results: Path):
        self.path = results.with_name(f".{results.name}.chunks")
        self.lines: list[dict] = []
        try:
            text = self.path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            return
        for line in text.splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if (isinstance(entry, dict) and isinstance(entry.get("key"), list)
                    and all(isinstance(k, str) for k in entry["key"])
                    and type(entry.get("start")) is int and type(entry.get("stop")) is int
                    and SimulationReport.from_record(entry.get("report")) is not None):
                self.lines.append(entry)

    def played(self, key: tuple, start: int, stop: int) -> SimulationReport | None:
        for entry in self.lines:
            if tuple(entry["key"]) == key and (entry["start"], entry["stop"]) == (start, stop):
                return SimulationReport.from_record(entry["report"])
        return None

    def add(self, key: tuple, start: int, stop: int, report: SimulationReport) -> None:
        entry = {"key": list(key), "start": start, "stop": stop, "report": report.as_record()}
        self.lines.append(entry)
        try:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(entry, sort_keys=True) + "\n")
        except OSError as exc:
            raise OutputError(self.path, exc) from None

    def forget(self, key: tuple) -> None:
        """Drop a finished combination's chunks; the file goes when no chunk is left."""
        self.lines = [entry for entry in self.lines if tuple(entry["key"]) != key]
        if self.lines:
            text = "".join(json.dumps(entry, sort_keys=True) + "\n" for entry in self.lines)
            _replace(self.path, lambda partial: partial.write_text(text, "utf-8"))
            return
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            raise OutputError(self.path, exc) from None


def chunk_ranges(games: int) -> list[range]:
    return [range(start, min(games, start + CHUNK_GAMES)) for start in range(0, games, CHUNK_GAMES)]


def play_combination(game, players: int, games: int, seed: int, policy: str, turn_cap: int, runner,
                     key: tuple, chunks: Chunks) -> SimulationReport:
    """The figures of one combination, chunk by chunk, with the chunks already played read back."""
    report = None
    for part_games in chunk_ranges(games):
        start, stop = part_games.start, part_games.stop
        part = chunks.played(key, start, stop)
        if part is None:
            part = simulate(game, players, games, seed=seed, policy=policy, turn_cap=turn_cap, runner=runner,
                            only=part_games)
            chunks.add(key, start, stop, part)
        elif runner is not None:
            runner.advance(len(part_games))  # played before the stop
        if report is None:
            report = part
        else:
            report.merge(part)
    return report


@contextmanager
def only_writer(out: Path):
    """Hold `.NAME.lock` beside the results for the whole sweep: a second sweep into the same file
    while one runs would rewrite it without the other's rows, so it is refused (`SweepFileError`).
    The lock is the operating system's and goes with the process, however it ends; the empty file
    stays (removing it would let two sweeps lock two files of one name)."""
    try:
        import fcntl
    except ImportError:  # no such locks here: sweeps into one file must be kept apart by hand
        yield
        return
    path = out.with_name(f".{out.name}.lock")
    try:
        handle = open(path, "a")
    except OSError as exc:
        raise OutputError(path, exc) from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SweepFileError(out, 1, "another sweep is writing these results now; let it finish, or give "
                                         "--out another file") from None
        yield


def sweep(game, grid: dict[str, list], player_counts: list[int], games: int, seed: int, policy: str,
          turn_cap: int, out: Path, runner=None, progress: Callable[[str], None] = lambda _: None) -> tuple[int, int]:
    """Play every combination missing from `out`; return (played, skipped)."""
    read_rows(out)  # a file that is not a sweep's is refused before anything is written beside it
    with only_writer(out):
        return _sweep(game, grid, player_counts, games, seed, policy, turn_cap, out, runner, progress)


def _sweep(game, grid, player_counts, games, seed, policy, turn_cap, out, runner, progress) -> tuple[int, int]:
    rows = read_rows(out)
    columns = columns_for(max([*player_counts, *(int(r["players"]) for r in rows if str(r.get("players", "")).isdigit())]))
    done = {_row_key(r) for r in rows}
    chunks = Chunks(out)
    rules = game.rules_digest()[:16]
    played = skipped = 0
    for combo in combinations(grid, player_counts):
        row = {"params": combo.params_text, "players": combo.players, "games": games, "seed": seed,
               "policy": policy, "turn_cap": turn_cap, "rules": rules}
        key = _row_key(row)
        if key in done:
            skipped += 1
            if runner is not None:
                runner.advance(games)
            continue
        stale = [r for r in rows if _combination_key(r) == key[:-1]]
        recalled = sum(chunks.played(key, part.start, part.stop) is not None for part in chunk_ranges(games))
        progress(f"{combo.params_text or '(defaults)'}, {combo.players} players: {counted(games, 'game')}"
                 + (f"; {recalled} of {len(chunk_ranges(games))} chunks of {CHUNK_GAMES:,} were played before"
                    if recalled else "")
                 + ("; in place of a row played under other rules or content" if stale else ""))
        report = play_combination(game.with_params(**dict(combo.params)), combo.players, games, seed,
                                  policy, turn_cap, runner, key, chunks)
        row.update({f"win_{p}": n for p, n in report.wins.items()})
        row.update({f"mean_score_{p}": round(v, 3) for p, v in report.mean_scores().items()})
        row.update(shared=report.shared, capped=report.capped, failures=len(report.failures),
                   mean_length=round(report.mean_length, 2), min_length=report.min_length,
                   max_length=report.max_length, fingerprint=report.fingerprint)
        rows = [r for r in rows if _combination_key(r) != key[:-1]] + [row]
        write_rows(out, rows, columns)
        chunks.forget(key)
        played += 1
    if not out.exists():
        write_rows(out, rows, columns)
    return played, skipped


__all__ = ["CHUNK_GAMES", "Chunks", "SweepFileError", "combinations", "read_rows", "sweep"]
