"""Sweeps as a designer runs them: results as CSV or Parquet, a long combination that was stopped
goes on from its last finished chunk, rows played under other rules are played again, and a file
that is not a sweep's results is refused, never overwritten."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import verify.sweep as sweeping
from cardgen.cli import main
from cardgen.content import load_games
from cardgen.registry import engine_for
from verify.simulate import simulate
from verify.sweep import read_rows, sweep
from verify.workers import Runner

CONTENT = Path(__file__).resolve().parents[2] / "content"
GAME = "flamme-rouge"
GRID = {"exhaustion_supply": ["limited", "unlimited"]}


@pytest.fixture(scope="module")
def engine():
    contents, errors = load_games(CONTENT, [GAME])
    assert not errors
    return engine_for(contents[0])


def cardgen(capsys, *args) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_:
        main(list(args))
    out, err = capsys.readouterr()
    return exit_.value.code, out + err


def test_a_parquet_sweep_holds_the_figures_of_the_csv_one_in_typed_columns(engine, tmp_path):
    import pyarrow.parquet as parquet

    sweep(engine, GRID, [2, 3], 4, 1, "greedy", 2000, tmp_path / "sweep.csv")
    sweep(engine, GRID, [2, 3], 4, 1, "greedy", 2000, tmp_path / "sweep.parquet")
    as_csv, table = read_rows(tmp_path / "sweep.csv"), parquet.read_table(tmp_path / "sweep.parquet")
    assert table.column_names == list(as_csv[0])
    assert [{k: "" if v is None else str(v) for k, v in row.items()} for row in table.to_pylist()] == as_csv
    types = {field.name: str(field.type) for field in table.schema}
    assert (types["params"], types["players"], types["win_P1"], types["mean_length"]) == \
           ("string", "int64", "int64", "double")
    assert table.column("win_P3").to_pylist()[0] is None  # a seat the two-player games lack
    # Resumed like the CSV: a row taken out is the one combination played again, with the same figures.
    rows = table.to_pylist()
    parquet.write_table(table.slice(0, 3), tmp_path / "sweep.parquet")
    assert sweep(engine, GRID, [2, 3], 4, 1, "greedy", 2000, tmp_path / "sweep.parquet") == (1, 3)
    assert parquet.read_table(tmp_path / "sweep.parquet").to_pylist() == rows


class Stop(Exception):
    pass


def test_a_stopped_combination_goes_on_from_its_last_finished_chunk(engine, tmp_path, monkeypatch):
    """Chunks of 3 games: a run stopped in the third chunk of 8 games keeps the first two; the run
    started again plays only the last two chunks, and its row is the row of a run never stopped,
    with the figures of one `simulate` of all 8 games."""
    monkeypatch.setattr(sweeping, "CHUNK_GAMES", 3)
    played = []

    def counting(game, players, games, only, **kwargs):
        played.append((only.start, only.stop))
        if stop_at and len(played) == stop_at:
            raise Stop()
        return simulate(game, players, games, only=only, **kwargs)

    monkeypatch.setattr(sweeping, "simulate", counting)
    out = tmp_path / "sweep.csv"
    stop_at = 3
    with pytest.raises(Stop):
        sweep(engine, {}, [3], 8, 5, "greedy", 2000, out)
    assert played == [(0, 3), (3, 6), (6, 8)] and not out.exists()
    chunks = out.with_name(".sweep.csv.chunks")
    assert len(chunks.read_text("utf-8").splitlines()) == 2
    played.clear()
    stop_at = None
    counted: list[int] = []
    assert sweep(engine, {}, [3], 8, 5, "greedy", 2000, out, Runner(1, progress=counted.append)) == (1, 0)
    assert played == [(6, 8)] and not chunks.exists()
    assert counted[:2] == [3, 3] and sum(counted) == 8  # the chunks played before count as done at once
    resumed = read_rows(out)
    sweep(engine, {}, [3], 8, 5, "greedy", 2000, tmp_path / "whole.csv")
    assert read_rows(tmp_path / "whole.csv") == resumed
    whole = simulate(engine, 3, 8, seed=5, policy="greedy", turn_cap=2000)
    assert resumed[0]["fingerprint"] == whole.fingerprint
    assert [int(resumed[0][f"win_{p}"]) for p in whole.wins] == list(whole.wins.values())
    assert float(resumed[0]["mean_length"]) == round(whole.mean_length, 2)


@pytest.mark.parametrize("damage", ["half a line", "not JSON", "figures that do not add up", "another seed"])
def test_a_damaged_chunks_file_only_costs_its_chunks_again(engine, tmp_path, monkeypatch, damage):
    monkeypatch.setattr(sweeping, "CHUNK_GAMES", 3)
    out = tmp_path / "sweep.csv"
    sweep(engine, {}, [2], 6, 1, "greedy", 2000, tmp_path / "whole.csv")
    chunks = out.with_name(".sweep.csv.chunks")
    played = []
    real = sweeping.simulate

    def stopping(game, players, games, only, **kwargs):
        played.append(only.start)
        if len(played) == 2:
            raise Stop()
        return real(game, players, games, only=only, **kwargs)

    monkeypatch.setattr(sweeping, "simulate", stopping)
    with pytest.raises(Stop):
        sweep(engine, {}, [2], 6, 1, "greedy", 2000, out)
    (line,) = chunks.read_text("utf-8").splitlines()
    entry = json.loads(line)
    if damage == "half a line":
        chunks.write_text(line[: len(line) // 2], "utf-8")
    elif damage == "not JSON":
        chunks.write_text("\x00\xff{{{\n" + line + "\n", "utf-8")
    elif damage == "figures that do not add up":
        entry["report"]["lengths"] = entry["report"]["lengths"][1:]
        chunks.write_text(json.dumps(entry) + "\n", "utf-8")
    else:  # the chunk of another run: another seed
        entry["key"][3] = "2"
        chunks.write_text(json.dumps(entry) + "\n", "utf-8")
    played.clear()
    monkeypatch.setattr(sweeping, "simulate", lambda *a, only, **k: played.append(only.start) or real(*a, only=only, **k))
    assert sweep(engine, {}, [2], 6, 1, "greedy", 2000, out) == (1, 0)
    assert played == ([3] if damage == "not JSON" else [0, 3])  # a line of its own is skipped, not the next
    assert read_rows(out) == read_rows(tmp_path / "whole.csv")


def test_a_row_played_under_other_rules_is_played_again_and_replaced(engine, tmp_path):
    out = tmp_path / "sweep.csv"
    sweep(engine, GRID, [2], 3, 1, "greedy", 2000, out)
    rows = read_rows(out)
    text = out.read_text("utf-8").replace(rows[1]["rules"], "0123456789abcdef")
    out.write_text(text, "utf-8")
    assert len(read_rows(out)) == 2 and {r["rules"] for r in read_rows(out)} == {"0123456789abcdef"}
    assert sweep(engine, {"exhaustion_supply": ["unlimited"]}, [2], 3, 1, "greedy", 2000, out) == (1, 0)
    after = read_rows(out)
    assert [r["params"] for r in after] == ["exhaustion_supply=limited", "exhaustion_supply=unlimited"]
    assert after[1] == rows[1]


def test_a_file_from_before_the_rules_column_is_played_again(engine, tmp_path):
    out = tmp_path / "sweep.csv"
    sweep(engine, {}, [2], 3, 1, "greedy", 2000, out)
    (row,) = read_rows(out)
    with open(out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=[c for c in row if c != "rules"], extrasaction="ignore")
        writer.writeheader()
        writer.writerow(row)
    assert sweep(engine, {}, [2], 3, 1, "greedy", 2000, out) == (1, 0)
    assert read_rows(out) == [row]


FOREIGN = {
    "another CSV": "name,score\nada,3\n",
    "a sweep with a column of its own": "params,players,games,seed,policy,turn_cap,note\n,2,3,1,greedy,2000,mine\n",
    "a ragged row": "params,players,games,seed,policy,turn_cap\n,2,3,1,greedy,2000,9,9\n",
    "not UTF-8": "params,players\n\udcff\udcfe,2\n",
    "not a Parquet file": "params,players,games\n",
}


@pytest.mark.parametrize("kind", list(FOREIGN))
def test_a_file_that_is_not_a_sweeps_results_is_refused_and_left_as_it_was(capsys, tmp_path, kind):
    out = tmp_path / ("results.parquet" if kind == "not a Parquet file" else "results.csv")
    out.write_bytes(FOREIGN[kind].encode("utf-8", "surrogateescape"))
    before = out.read_bytes()
    code, printed = cardgen(capsys, "sweep", GAME, "--games", "2", "--players", "2", "--out", str(out), "--workers", "1")
    assert code == 1, printed
    assert "Traceback" not in printed
    assert f"{out.name}:1: " in printed or f"{out.name}:2: " in printed
    assert "played" not in printed
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


def test_a_sweep_file_saved_again_by_a_spreadsheet_is_still_read(engine, tmp_path):
    out = tmp_path / "sweep.csv"
    sweep(engine, {}, [2], 3, 1, "greedy", 2000, out)
    rows = read_rows(out)
    out.write_bytes(b"\xef\xbb\xbf" + out.read_bytes().replace(b"\n", b"\r\n"))  # a byte order mark, CR LF
    assert read_rows(out) == rows
    assert sweep(engine, {}, [2], 3, 1, "greedy", 2000, out) == (0, 1)


def test_a_value_named_twice_is_one_reading_played_once(capsys, tmp_path):
    out = tmp_path / "sweep.csv"
    code, printed = cardgen(capsys, "sweep", GAME, "--games", "2", "--players", "2,2", "--workers", "1", "--out", str(out),
                            "--param", "exhaustion_supply=limited,unlimited,limited", "--param", "mountains=true,True")
    assert code == 0, printed
    assert "2 combinations played" in printed and "in place of" not in printed
    assert [r["params"] for r in read_rows(out)] == ["exhaustion_supply=limited;mountains=true",
                                                      "exhaustion_supply=unlimited;mountains=true"]


def test_a_parameter_given_twice_is_a_usage_error(capsys, tmp_path):
    code, printed = cardgen(capsys, "sweep", GAME, "--games", "2", "--out", str(tmp_path / "sweep.csv"),
                            "--param", "exhaustion_supply=limited", "--param", "exhaustion_supply=unlimited")
    assert code == 2 and "given twice" in printed and "exhaustion_supply=A,B,C" in printed
    assert not (tmp_path / "sweep.csv").exists()


def test_a_second_sweep_into_the_same_file_while_one_runs_is_refused(capsys, engine, tmp_path):
    """Two sweeps writing one file would each rewrite it without the other's rows."""
    fcntl = pytest.importorskip("fcntl")
    out = tmp_path / "sweep.csv"
    with open(tmp_path / ".sweep.csv.lock", "a") as running:  # as the sweep running now holds it
        fcntl.flock(running, fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, printed = cardgen(capsys, "sweep", GAME, "--games", "2", "--players", "2", "--workers", "1",
                                "--out", str(out))
        assert code == 1 and "another sweep is writing these results now" in printed and "Traceback" not in printed
        assert not out.exists()
    assert sweep(engine, {}, [2], 2, 1, "greedy", 2000, out) == (1, 0)  # once it is done
