"""Playouts split over processes or a cluster give the same games and the same report as one
process; each game is a function of its own seed; sweeps resume; a stored comparison is measured
again only when something it rests on changed."""

from __future__ import annotations

import os
import pickle
import random
from pathlib import Path

import pytest

from cardgen.content import load_games
from cardgen.registry import engine_for
from verify.compare import compare, recheck
from verify.simulate import game_seeds, play_batch, simulate
from verify.sweep import read_rows, sweep
from verify.workers import Runner, chunks, forked_map

CONTENT = Path(__file__).resolve().parents[2] / "content"
GAMES = ("flamme-rouge", "game-of-trains", "moscow-to-paris", "spectral-rails", "ticket-to-ride-card-game")


@pytest.fixture(scope="module")
def engines():
    contents, errors = load_games(CONTENT, list(GAMES))
    assert not errors
    return {c.id: engine_for(c) for c in contents}


def _same_report(a, b):
    assert a.fingerprint == b.fingerprint
    assert (a.wins, a.lengths, a.capped, a.shared, a.failures, a.mean_scores()) == \
           (b.wins, b.lengths, b.capped, b.shared, b.failures, b.mean_scores())


@pytest.mark.parametrize("game_id", GAMES)
def test_two_worker_processes_play_the_same_games_as_one(engines, game_id):
    engine = engines[game_id]
    one = simulate(engine, 3, games=6, seed=9, policy="greedy", turn_cap=3000, runner=Runner(1))
    two = simulate(engine, 3, games=6, seed=9, policy="greedy", turn_cap=3000, runner=Runner(2))
    _same_report(one, two)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_state_in_mid_game_pickles_and_plays_on_alike(engines, game_id):
    engine = engines[game_id]
    state = engine.new_state(engine.min_players, seed=4)
    rng = random.Random(4)
    for _ in range(12):
        if state.is_terminal():
            break
        player = state.to_move()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    copy = pickle.loads(pickle.dumps(state.clone()))
    assert copy.fields() == state.fields()
    for _ in range(12):
        if state.is_terminal():
            break
        player = state.to_move()[0]
        action = rng.choice(state.legal_actions(player))
        state.apply(player, action)
        copy.apply(player, copy.parse_action(str(action)))
    assert copy.fields() == state.fields()


def test_game_k_depends_on_its_own_seed_only(engines):
    engine = engines["flamme-rouge"]
    short, long = game_seeds(7, 3), game_seeds(7, 8)
    assert long[:3] == short
    alone = play_batch((engine, 3, "random", 400, [(2, long[2])]))[0]
    in_a_run = play_batch((engine, 3, "random", 400, list(enumerate(long))))[2]
    assert alone.digest == in_a_run.digest and alone.actions == in_a_run.actions
    assert len({r.digest for r in play_batch((engine, 3, "random", 400, list(enumerate(long))))}) > 1


def test_shards_merge_into_the_whole_run(engines):
    engine = engines["game-of-trains"]
    whole = simulate(engine, 2, games=9, seed=3, policy="greedy", turn_cap=2000)
    assert [len(c) for c in chunks(9, 1)] and sum(len(c) for c in chunks(9, 5)) == 9
    split = simulate(engine, 2, games=9, seed=3, policy="greedy", turn_cap=2000, runner=Runner(3))
    _same_report(whole, split)
    # Played as separate runs of some of the games each, in any order, the parts merge into the whole.
    parts = [simulate(engine, 2, games=9, seed=3, policy="greedy", turn_cap=2000, only=range(start, stop))
             for start, stop in ((6, 9), (0, 2), (2, 6))]
    merged = parts[1]
    merged.merge(parts[2])
    merged.merge(parts[0])
    assert merged.games == whole.games and merged.actions == whole.actions
    assert merged.fingerprint == whole.fingerprint
    assert (merged.wins, merged.capped, merged.shared, merged.mean_scores()) == \
           (whole.wins, whole.capped, whole.shared, whole.mean_scores())


def test_a_local_dask_cluster_plays_the_same_games(engines):
    pytest.importorskip("distributed")
    engine = engines["flamme-rouge"]
    here = simulate(engine, 4, games=8, seed=5, policy="greedy", turn_cap=3000)
    there = simulate(engine, 4, games=8, seed=5, policy="greedy", turn_cap=3000, runner=Runner(2, "local"))
    _same_report(here, there)


@pytest.mark.slow
def test_a_running_dask_scheduler_and_its_workers_play_the_same_games(capsys, tmp_path):
    """As a user runs a cluster: `dask scheduler` and `dask worker` started as processes of their
    own, then `cardgen simulate --cluster tcp://HOST:PORT`; the report is the one of this process."""
    pytest.importorskip("distributed")
    import json
    import socket
    import subprocess
    import sys
    import time

    from cardgen.cli import main

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    logs = open(tmp_path / "dask.log", "w")
    started = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                 "--no-dashboard"], stdout=logs, stderr=logs, cwd=tmp_path)]
    try:
        started.append(subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--nworkers", "2",
                                         "--nthreads", "1", "--no-dashboard"], stdout=logs, stderr=logs, cwd=tmp_path))
        from distributed import Client

        deadline = time.monotonic() + 60
        while True:  # until both workers have joined the scheduler
            try:
                with Client(address, timeout="2s") as client:
                    if len(client.scheduler_info()["workers"]) == 2:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "dask.log").read_text()
            time.sleep(0.2)
        reports = []
        for where in (["--cluster", address], ["--workers", "1"]):
            with pytest.raises(SystemExit) as done:
                main(["simulate", "flamme-rouge", "--games", "40", "--policy", "greedy", "--seed", "3", "--json", *where])
            out, err = capsys.readouterr()
            assert done.value.code == 0, err
            reports.append(json.loads(out))
        for report in reports:
            report.pop("seconds"), report.pop("games_per_second"), report.pop("actions_per_second")
        assert reports[0] == reports[1]
    finally:
        for process in reversed(started):
            process.terminate()
            process.wait(timeout=30)
        logs.close()


def test_a_comparison_is_the_same_on_two_workers(engines):
    engine = engines["flamme-rouge"]
    one = compare(engine, "exhaustion_supply", ("limited", "unlimited"), 3, 6, seed=2, runner=Runner(1))
    two = compare(engine, "exhaustion_supply", ("limited", "unlimited"), 3, 6, seed=2, runner=Runner(2))
    assert one == two


def test_a_sweep_plays_only_what_its_file_lacks(engines, tmp_path):
    engine = engines["flamme-rouge"]
    out = tmp_path / "sweep.csv"
    played, skipped = sweep(engine, {"exhaustion_supply": ["limited", "unlimited"]}, [2, 3], 4, 1, "greedy", 2000, out)
    assert (played, skipped) == (4, 0)
    rows = read_rows(out)
    assert [r["params"] for r in rows] == ["exhaustion_supply=limited"] * 2 + ["exhaustion_supply=unlimited"] * 2
    # A run stopped after three combinations: only the fourth is played again, with the same figures.
    lines = out.read_text("utf-8").splitlines()
    out.write_text("\n".join(lines[:-1]) + "\n", "utf-8")
    played, skipped = sweep(engine, {"exhaustion_supply": ["limited", "unlimited"]}, [2, 3], 4, 1, "greedy", 2000, out)
    assert (played, skipped) == (1, 3)
    assert read_rows(out) == rows


def test_a_held_comparison_is_remembered_until_its_record_changes(engines, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path))
    engine = engines["flamme-rouge"]
    record = compare(engine, "exhaustion_supply", ("limited", "unlimited"), 3, 4, seed=2).as_record()
    assert recheck(engine, "exhaustion_supply", record) == []
    assert len(list((tmp_path / "comparisons").iterdir())) == 1
    assert recheck(engine, "exhaustion_supply", record) == []
    wrong = dict(record, winner_changed=record["winner_changed"] + 1)
    assert recheck(engine, "exhaustion_supply", wrong) == [
        f"winner_changed: stored {wrong['winner_changed']}, measured {record['winner_changed']}"]


def test_forked_workers_inherit_their_items_and_give_the_results_in_order():
    """Items that cannot be pickled (a game's content need not be) reach the workers all the same,
    and the results are those of a plain loop, in order, for any number of workers."""
    items = [lambda k=k: k * k for k in range(7)]
    with pytest.raises(Exception):
        pickle.dumps(items[0])

    def run(item):
        return item(), os.getpid()

    for workers in (1, 2, 3):
        results = forked_map(run, items, workers)
        assert [value for value, _ in results] == [k * k for k in range(7)]
        here = {pid == os.getpid() for _, pid in results}
        assert here == ({True} if workers == 1 else {False}), (workers, results)


@pytest.mark.parametrize("address", ["not an address", "foo:bar", "tcp://", "http://127.0.0.1:8786", "tcp://[::1",
                                     "inproc://x", "ucx://127.0.0.1:1", "tcp://127.0.0.1:99999", "tcp://host:1/path"])
def test_a_cluster_address_dask_cannot_use_is_a_usage_error(capsys, address):
    from cardgen.cli import main

    with pytest.raises(SystemExit) as done:
        main(["simulate", "flamme-rouge", "--games", "1", "--cluster", address])
    out, err = capsys.readouterr()
    assert done.value.code == 2 and "Traceback" not in out + err
    assert err.startswith("usage error: --cluster:")
    assert "HOST:PORT" in err or "starts with tcp://" in err


def test_a_cluster_address_is_written_out_in_full():
    from verify.workers import cluster_address

    assert cluster_address("10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    assert cluster_address("tls://[::1]:08786") == "tls://[::1]:8786"
    assert cluster_address("local") == "local"


def _pid(_task):
    import time

    time.sleep(0.05)  # long enough that both processes of a pool take tasks
    return os.getpid()


@pytest.mark.parametrize("cluster", [None, "local"])
def test_a_held_runner_keeps_one_pool_for_every_map(cluster):
    """A sweep maps once per chunk: inside `held()` every map runs on the same processes (one local
    cluster started once, by the first map), and the results are those of a plain loop."""
    if cluster:
        pytest.importorskip("distributed")
    import multiprocessing

    runner = Runner(2, cluster)
    with runner.held():
        assert not multiprocessing.active_children()  # nothing starts before a map needs it
        first, second = set(runner.map(_pid, range(8))), set(runner.map(_pid, range(8)))
        counted: list[int] = []
        runner.progress = counted.append
        assert runner.map(abs, [-3, 1, -2], weights=[1, 2, 4]) == [3, 1, 2]
        assert sorted(counted) == [1, 2, 4]  # each task's weight once, as it finished
    assert first == second and len(first) == 2 and os.getpid() not in first
    if cluster is None:  # without it, each map forks a pool of its own
        assert not set(runner.map(_pid, range(8))) & set(runner.map(_pid, range(8)))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_progress_count_adds_up_to_the_games_played(engines, tmp_path, workers):
    """What a progress bar counts: every game of a run, of a comparison (each seed twice), of a
    sweep (combinations and chunks found played before included) and of a report."""
    from verify.lab import measure, readings_of

    engine = engines["flamme-rouge"]
    counted: list[int] = []
    runner = Runner(workers)
    runner.progress = counted.append
    simulate(engine, 3, games=7, seed=2, runner=runner)
    assert sum(counted) == 7 and len(counted) >= (2 if workers > 1 else 1)
    counted.clear()
    compare(engine, "exhaustion_supply", ("limited", "unlimited"), 3, 5, seed=2, runner=runner)
    assert sum(counted) == 10
    counted.clear()
    out = tmp_path / "sweep.csv"
    grid = {"exhaustion_supply": ["limited", "unlimited"]}
    sweep(engine, grid, [2], 3, 1, "greedy", 2000, out, runner)
    sweep(engine, grid, [2, 3], 3, 1, "greedy", 2000, out, runner)  # two combinations in the file already
    assert sum(counted) == 2 * 3 + 4 * 3
    counted.clear()
    content = engine.content
    lab = measure(engine, content, [2], games=3, seed=1, runner=runner)
    assert sum(counted) == 3 * (1 + 2 * len(readings_of(content))) and lab.by_players[2].games == 3


def test_a_stop_during_a_start_up_that_must_not_be_cut_takes_effect_at_its_end():
    import signal

    from cardgen.errors import Interrupted
    from verify.workers import stops_deferred

    before = signal.getsignal(signal.SIGTERM)
    steps = []
    with pytest.raises(Interrupted) as stopped:
        with stops_deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            steps.append("the start-up went on to its end")
    assert steps and stopped.value.signum == signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is before
    with stops_deferred():  # nothing received: nothing raised
        steps.append("quiet")
    assert steps[-1] == "quiet"
