"""Speed figures: how fast the command starts (`cardgen --help`, `cardgen list`); for every game, PDF
build time and throughput, PDF sizes and playouts per second; every engine's greedy games per second
against its bar; playouts on 1, 2 and 4 processes and on a local Dask cluster, with the cost of a
task, a sweep in chunks against one run of its games, and a balance report's games played and then
read back; `cardgen verify` with and without its cache; then cardgen side by side with public packages
from PyPI, each run from its own virtual environment (`bench/setup-comparison.sh` makes it;
`make bench` runs both):

- Flamme Rouge races: the package flamme-rouge 0.1.2 played by its own bots against
  `cardgen simulate flamme-rouge --players 4`;
- engines: RLCard's UNO played by its random agents, beside every engine's actions per second;
- printing: an 88-card deck made with protograf (`bench/protograf_deck.py`) against the same deck
  (`cardgen build game-of-trains --only cards --sides fronts ...`), the whole game and `cardgen
  build` of every game (on every core and in one process), each with its checks run and with
  their results recalled, the deck again after one card text changed (as a designer works), then
  a build again with nothing changed; each beside its anchor.

Run with `make bench`, or `python bench/bench.py [GAME ...] [--part startup|games|engines|scale|verify|races|printing]`.
Figures are printed, never asserted: they depend on the machine and on what else it is running, so
the load average is printed too, and every whole-process figure comes with the CPU seconds the
process used (user + system), which load on the machine changes far less than wall time. The same
machine can also run Python faster one day than another: the CPU time of one fixed piece of
pure-Python work, printed at the start and at the end, sets runs side by side in proportion.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(ROOT))

BUILD_RUNS = 2        # timed library builds of each game, after a first one that loads the fonts
PLAY_BUDGET = 0.6     # seconds of playouts for each game, policy and player count (at most PLAY_GAMES)
PLAY_GAMES = 100
RACE_RUNS = 5         # whole processes for each Flamme Rouge contender
RACES = 100           # races in each of those processes
PRINT_RUNS = 5        # whole processes for the protograf deck and the one-game build
FULL_BUILD_RUNS = 3   # whole processes for the build of every game
STARTUP_RUNS = 7      # whole processes for each start-up figure
STARTUP_TARGET = 0.3  # seconds: a command people type often should answer within this
ONE_DECK_TARGET = 3.0    # times protograf's speed for one deck, whole process
FULL_BUILD_TARGET = 5.0  # seconds for every game's default build, whole process
REBUILD_TARGET = 1.0     # seconds for a build with nothing changed

CARDGEN = Path(sys.executable).parent / "cardgen"

# Greedy games per second with every invariant checked, 4 players, one process (the bar).
ENGINE_TARGETS = {"flamme-rouge": 1000, "game-of-trains": 1000, "moscow-to-paris": 300, "spectral-rails": 300,
                  "ticket-to-ride-card-game": 300}
ENGINE_GAMES = 200       # greedy 4-player games per engine figure
UNO_GAMES = 500          # RLCard UNO games per process
SCALE_GAMES = 2000       # Flamme Rouge games for the workers figures
SCALE_WORKERS = (1, 2, 4)
LAB_GAMES = 100  # games per part of the balance report timed in bench_lab_runs
OVERHEAD_TASKS = 200     # empty tasks for the overhead per task
VERIFY_RUNS = 3
VERIFY_TARGET = 5.0      # seconds for `cardgen verify` of every game


# --- helpers ----------------------------------------------------------------------------------

def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:160]


def guarded(what: str, fn, *args, **kwargs):
    """Run one part of the bench; a failure (often a change elsewhere in the project) is reported
    in one line and the bench goes on."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - a bench reports and continues
        print(f"  {what} failed: {one_line(exc)}")
        return None


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    """`median (min-max)` of a list of figures."""
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def load_average() -> str:
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} CPUs"
    except OSError:
        return "load average unknown"


def _reference_work() -> int:
    """A fixed piece of pure-Python work of the kind the engines do: small lists and dicts, calls,
    comparisons."""
    seen: dict[int, int] = {}
    pile: list[int] = []
    total = 0
    for k in range(200_000):
        pile.append(k % 13)
        if len(pile) > 8:
            total += pile.pop(0)
        seen[k % 97] = seen.get(k % 97, 0) + 1
    return total + len(seen)


def machine_speed() -> str:
    """How fast this machine runs Python now: the same work every run, so that figures of runs on
    other days (or other machines) can be set side by side in proportion."""
    times = []
    for _ in range(5):
        start = time.process_time()
        _reference_work()
        times.append(time.process_time() - start)
    return f"a fixed pure-Python workload took {1000 * statistics.median(times):.0f} ms of CPU (median of 5)"


@dataclass
class Run:
    """One whole process: wall seconds (perf_counter around subprocess.run), CPU seconds of the
    process (user + system), exit status and output."""

    wall: float
    cpu: float
    returncode: int
    stdout: str
    stderr: str

    def problem(self) -> str | None:
        if self.returncode == 0:
            return None
        lines = (self.stderr.strip() or self.stdout.strip()).splitlines()
        return f"exit status {self.returncode}: {lines[-1][:150] if lines else 'no output'}"

    def last_json(self) -> dict:
        for line in reversed(self.stdout.splitlines()):
            if line.startswith("{"):
                return json.loads(line)
        raise ValueError("the process printed no JSON line")


def run_process(argv: list, cwd: Path | None = None, timeout: float = 600, env: dict | None = None) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, done.returncode, done.stdout, done.stderr)


def comparison_python(venv: Path, package: str) -> Path | None:
    """The comparison environment's Python when `package` was installed there, else None (after
    saying so in one line)."""
    python = venv / "bin" / "python"
    if not python.exists() or not (venv / f".ok-{package}").exists():
        print(f"  skipped: {package} is not installed in {venv} (run `make bench`, which installs it)")
        return None
    return python


# --- start-up: the command answering at once ------------------------------------------------

def bench_startup() -> None:
    """Whole processes of the commands people type most, beside the interpreter starting alone."""
    print(f"Start-up, whole processes (median (min-max) wall seconds over {STARTUP_RUNS} runs after a warm-up; "
          f"CPU seconds is the median per process; target {STARTUP_TARGET} s)")
    rows = [("python -c pass (the interpreter alone)", [sys.executable, "-c", "pass"]),
            ("cardgen --version", [CARDGEN, "--version"]),
            ("cardgen --help", [CARDGEN, "--help"]),
            ("cardgen list", [CARDGEN, "list"])]
    for label, argv in rows:
        try:
            run_process(argv)  # warm-up: file caches, compiled modules
            done = [run_process(argv) for _ in range(STARTUP_RUNS)]
            if done[-1].problem():
                raise RuntimeError(done[-1].problem())
        except Exception as exc:  # noqa: BLE001
            print(f"  {label:40} failed: {one_line(exc)}")
            continue
        walls, cpus = [r.wall for r in done], [r.cpu for r in done]
        verdict = "" if label.startswith("python") else \
            ("  within target" if statistics.median(walls) <= STARTUP_TARGET else "  over target")
        print(f"  {label:40} {spread(walls)} s, CPU {statistics.median(cpus):.2f} s{verdict}")
    print("  (wall time grows with the load on the machine; CPU time much less)")


# --- every game: build, sizes, playouts -------------------------------------------------------

@dataclass
class PlayFigures:
    games: int = 0
    finished: int = 0
    actions: int = 0
    seconds: float = 0.0
    capped: int = 0
    failures: int = 0
    lengths: list[int] = field(default_factory=list)


def playouts(engine, players: int, policy: str) -> PlayFigures:
    """Playouts with invariants checked after every action, in growing batches until PLAY_BUDGET
    seconds or PLAY_GAMES games."""
    from verify.simulate import simulate

    figures, batch, seed = PlayFigures(), 1, 1
    while figures.games < PLAY_GAMES and figures.seconds < PLAY_BUDGET:
        batch = min(batch, PLAY_GAMES - figures.games)
        report = simulate(engine, players=players, games=batch, seed=seed, policy=policy, turn_cap=2000)
        figures.games += report.games
        figures.finished += report.finished
        figures.actions += report.actions
        figures.seconds += report.seconds
        figures.capped += report.capped
        figures.failures += len(report.failures)
        figures.lengths += report.lengths
        seed += 1
        batch *= 2
    return figures


def bench_build(content) -> dict[str, float]:
    """Library builds of one game's default files; returns the seconds spent on each file in the
    fastest run."""
    from cardgen.build import build_game

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        first_start = time.perf_counter()
        files = build_game(content, out)
        first = time.perf_counter() - first_start
        times, fastest = [], {}
        for _ in range(BUILD_RUNS):
            spans: dict[str, float] = {}
            last = [time.perf_counter()]
            start = last[0]

            def progress(path) -> None:
                now = time.perf_counter()
                spans[Path(path).name] = now - last[0]
                last[0] = now

            files = build_game(content, out, progress=progress)
            times.append(time.perf_counter() - start)
            if times[-1] == min(times):
                fastest = spans
        card_pdfs = [f for f in files if f.name.startswith("cards-")]
        tile_pdfs = [f for f in files if f.name.startswith("tiles-")]
        print(f"  build: {len(files)} files, first run {first:.2f} s (fonts loaded), then median {statistics.median(times):.2f} s, "
              f"min {min(times):.2f} s over {len(times)} runs")
        if card_pdfs:
            cards = len(content.physical_cards()) * len(card_pdfs)
            card_time = sum(t for name, t in fastest.items() if name.startswith("cards-")) or float("nan")
            print(f"  cards: {cards} card faces in {len(card_pdfs)} PDFs, {cards / card_time:,.0f} cards/s")
        if tile_pdfs:
            tiles = sum(c.get("count", 1) for c in content.other_components() if c.get("kind") == "tile")
            tile_time = sum(t for name, t in fastest.items() if name.startswith("tiles-")) or float("nan")
            print(f"  tiles: {tiles * len(tile_pdfs)} tiles in {len(tile_pdfs)} PDFs, "
                  f"{tiles * len(tile_pdfs) / tile_time:,.0f} tiles/s")
        for path in sorted(files):
            print(f"    {path.name:34} {path.stat().st_size / 1024:8.0f} KiB")
        return fastest


def bench_play(content, greedy_table: dict) -> None:
    from cardgen.registry import engine_for

    engine = engine_for(content)
    if engine is None:
        print("  playouts: no rules engine")
        return
    state = engine.new_state(engine.min_players, seed=0)
    scored = hasattr(state, "score") or hasattr(state, "score_action")
    print(f"  playouts, invariants checked after every action, up to {PLAY_GAMES} games or {PLAY_BUDGET} s each"
          + ("" if scored else "; the engine scores no position, so greedy plays as random"))
    for policy in ("random", "greedy"):
        for players in range(engine.min_players, engine.max_players + 1):
            f = playouts(engine, players, policy)
            per_s = (lambda n: n / f.seconds) if f.seconds else (lambda n: 0.0)
            mean = sum(f.lengths) / len(f.lengths) if f.lengths else 0.0
            print(f"  {policy:6} {players}p: {per_s(f.games):8,.1f} games/s  {per_s(f.finished):8,.1f} finished/s  "
                  f"{per_s(f.actions):9,.0f} actions/s  mean length {mean:6.1f}  games {f.games:3}  "
                  f"capped {f.capped}  broken invariants {f.failures}")
            if policy == "greedy":
                greedy_table.setdefault(content.id, {})[players] = (per_s(f.finished), f.games, f.finished, scored)


def bench_games(game_ids: list[str], spans_by_game: dict) -> None:
    from cardgen.content import PROJECT_CONTENT, load_game

    greedy_table: dict = {}
    for game_id in game_ids:
        try:
            content = load_game(PROJECT_CONTENT, game_id)
        except Exception as exc:  # noqa: BLE001
            print(f"{game_id}: cannot be loaded: {one_line(exc)}")
            continue
        print(f"{content.title['en']} ({game_id})")
        spans = guarded("build", bench_build, content)
        if spans:
            spans_by_game[game_id] = spans
        guarded("playouts", bench_play, content, greedy_table)
    print()
    print("Greedy play, finished games per second (invariants checked after every action)")
    for game_id, row in greedy_table.items():
        cells = "  ".join(f"{players}p {rate:8,.1f}/s ({finished}/{games} finished)"
                          for players, (rate, games, finished, _) in sorted(row.items()))
        note = "" if next(iter(row.values()))[3] else "  (no score: as random)"
        print(f"  {game_id:26} {cells}{note}")


# --- Flamme Rouge races: flamme-rouge 0.1.2 against cardgen simulate --------------------------

def bench_races(venv: Path) -> None:
    print(f"Flamme Rouge, 4 players, full races on Avenue Corso Paseo: {RACES} races in each process, "
          f"{RACE_RUNS} processes each (median (min-max))")
    python = comparison_python(venv, "flamme-rouge")
    contenders = []
    if python is not None:
        script = BENCH / "flamme_rouge_races.py"
        contenders += [
            ("flamme-rouge 0.1.2, 4 Regular teams (random)", "random",
             lambda n, seed: [python, script, "--lineup", "random", "--races", n, "--seed", seed]),
            ("flamme-rouge 0.1.2, 2 Heuristic + 2 Simple", "bots",
             lambda n, seed: [python, script, "--lineup", "bots", "--races", n, "--seed", seed]),
        ]
    failures = Path(tempfile.mkdtemp(prefix="bench-failures-"))
    for policy in ("random", "greedy"):
        contenders.append((f"cardgen simulate --policy {policy}", policy,
                           lambda n, seed, policy=policy: [CARDGEN, "simulate", "flamme-rouge", "--players", 4,
                                                           "--games", n, "--seed", seed, "--policy", policy,
                                                           "--json", "--failures", failures]))
    figures: dict[str, tuple[list[float], list[float], list[float]]] = {}
    print(f"  {'':44} {'whole process, races/s':>24} {'in process, races/s':>24} {'CPU s/process':>14}  per race")
    for label, key, argv in contenders:
        try:
            run_process(argv(1, 999))  # warm-up: file caches, compiled modules
            whole, inside, cpu, extra = [], [], [], ""
            for k in range(RACE_RUNS):
                run = run_process(argv(RACES, k + 1))
                if run.problem() and not run.stdout.strip():
                    raise RuntimeError(run.problem())
                data = run.last_json()
                whole.append(RACES / run.wall)
                inside.append(RACES / data["seconds"] if data["seconds"] else float("nan"))
                cpu.append(run.cpu)
                if "mean_rounds" in data:
                    extra = f"{data['mean_rounds']:.1f} rounds"
                else:
                    extra = f"{data['length']['mean']:.0f} actions"
                    if data.get("failures"):
                        extra += f", {len(data['failures'])} broken invariants"
            figures[label] = (whole, inside, cpu)
            print(f"  {label:44} {spread(whole, '{:,.1f}'):>24} {spread(inside, '{:,.1f}'):>24} "
                  f"{statistics.median(cpu):14.2f}  {extra}")
        except Exception as exc:  # noqa: BLE001
            print(f"  {label:44} failed: {one_line(exc)}")
    pairs = (("cardgen simulate --policy random", "flamme-rouge 0.1.2, 4 Regular teams (random)"),
             ("cardgen simulate --policy greedy", "flamme-rouge 0.1.2, 2 Heuristic + 2 Simple"))
    for ours, theirs in pairs:
        if ours in figures and theirs in figures:
            w = statistics.median(figures[ours][0]) / statistics.median(figures[theirs][0])
            i = statistics.median(figures[ours][1]) / statistics.median(figures[theirs][1])
            print(f"  ratio {ours.split('--policy ')[1]} / {theirs.split(', ', 1)[1]}: "
                  f"whole process {w:.2f}x, in process {i:.2f}x the package's races per second")
    print("  (cardgen checks every invariant after every action; the package runs its own asserts;"
          " whole-process figures include starting Python and, for cardgen, loading and checking the content)")
    if guarded("engine check", _scores_positions, "flamme-rouge") is False:
        print("  (cardgen's Flamme Rouge engine scores no position, so its greedy policy plays as random:"
              " the same games as --policy random)")


def _scores_positions(game_id: str) -> bool:
    from cardgen.content import PROJECT_CONTENT, load_game
    from cardgen.registry import engine_for

    engine = engine_for(load_game(PROJECT_CONTENT, game_id))
    state = engine.new_state(engine.min_players, seed=0)
    return hasattr(state, "score") or hasattr(state, "score_action")


# --- engines against their bars and against RLCard's UNO -------------------------------------

def bench_engines(venv: Path) -> None:
    """Greedy 4-player games per second of every engine in one process, invariants checked after
    every action, beside the bar each should clear and beside RLCard's UNO (random agents, no
    invariants checked)."""
    from cardgen.content import PROJECT_CONTENT, load_game
    from cardgen.registry import engine_for
    from verify.simulate import greedy_scorer, simulate

    print(f"Engines: {ENGINE_GAMES} greedy games of 4 players in one process, every invariant checked after every action")
    for game_id, target in ENGINE_TARGETS.items():
        try:
            engine = engine_for(load_game(PROJECT_CONTENT, game_id))
            simulate(engine, 4, 3, seed=99, policy="greedy")  # warm-up
            cpu = time.process_time()
            report = simulate(engine, 4, ENGINE_GAMES, seed=1, policy="greedy", turn_cap=2000)
            cpu = time.process_time() - cpu
        except Exception as exc:  # noqa: BLE001
            print(f"  {game_id:26} failed: {one_line(exc)}")
            continue
        rate = report.games_per_second
        unscored = greedy_scorer(engine.new_state(4, seed=1)) is None
        # Games per CPU second as well: on a shared machine the wall figure swings with the load.
        print(f"  {game_id:26} {rate:8,.1f} games/s ({ENGINE_GAMES / cpu:,.1f} per CPU second) "
              f"{report.actions_per_second:9,.0f} actions/s  "
              f"anchor: at least {target} games/s  {'met' if rate >= target else 'not met'}"
              f"{'  (no score: greedy plays as random)' if unscored else ''}"
              f"{'' if not report.failures else f'  ({len(report.failures)} broken invariants)'}")
    python = comparison_python(venv, "rlcard")
    if python is None:
        return
    try:
        runs = [run_process([python, BENCH / "rlcard_uno.py", "--games", UNO_GAMES, "--seed", k + 1])
                for k in range(3)]
        data = [r.last_json() for r in runs]
        games = [d["games"] / d["seconds"] for d in data]
        actions = [d["actions"] / d["seconds"] for d in data]
        print(f"  RLCard 1.2.0 UNO, {data[0]['players']} random agents, in process: {spread(games, '{:,.1f}')} games/s, "
              f"{spread(actions, '{:,.0f}')} actions/s (no invariant checked), import {data[0]['import']:.2f} s")
    except Exception as exc:  # noqa: BLE001
        print(f"  RLCard UNO failed: {one_line(exc)}")


# --- playouts on several workers and on a local Dask cluster ----------------------------------

def _nothing(task):
    return task


def bench_scale() -> None:
    """Flamme Rouge playouts on 1, 2 and 4 local processes and on a Dask cluster started here, the
    same games each time (the fingerprint says so), and what one task costs on each."""
    from cardgen.content import PROJECT_CONTENT, load_game
    from cardgen.registry import engine_for
    from verify.simulate import simulate
    from verify.workers import ClusterUnavailable, Runner

    engine = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    print(f"Workers: {SCALE_GAMES} greedy Flamme Rouge games of 4 players; overhead: {OVERHEAD_TASKS} empty tasks "
          f"({os.cpu_count()} CPUs here)")
    runners = [(f"{n} local process{'es' if n > 1 else ''}", Runner(n)) for n in SCALE_WORKERS]
    runners.append(("Dask cluster started here, 2 workers", Runner(2, "local")))
    base = None
    for label, runner in runners:
        try:
            started = time.perf_counter()
            report = simulate(engine, 4, SCALE_GAMES, seed=1, policy="greedy", runner=runner)
            wall = time.perf_counter() - started
            started = time.perf_counter()
            runner.map(_nothing, range(OVERHEAD_TASKS))
            overhead = (time.perf_counter() - started) / OVERHEAD_TASKS
        except ClusterUnavailable as exc:
            print(f"  {label:40} skipped: {exc}")
            continue
        except Exception as exc:  # noqa: BLE001
            print(f"  {label:40} failed: {one_line(exc)}")
            continue
        rate = SCALE_GAMES / wall
        base = base or rate
        print(f"  {label:40} {rate:8,.1f} games/s ({rate / base:.2f}x one process, start-up included)  "
              f"{1000 * overhead:6.2f} ms per empty task (its pool or cluster started)  fingerprint {report.fingerprint[:12]}")
    guarded("sweep and report", bench_lab_runs, engine)


def bench_lab_runs(engine) -> None:
    """What a sweep's chunks cost against one run of the same games, and a balance report played
    and then asked for again (its parts read back from the cache)."""
    from cardgen.content import PROJECT_CONTENT, load_game
    from verify.lab import measure
    from verify.simulate import simulate
    from verify.sweep import CHUNK_GAMES, sweep
    from verify.workers import Runner

    games = 2 * CHUNK_GAMES
    runner = Runner(2)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        with runner.held():  # as the commands hold it: one pool for the whole run
            whole = simulate(engine, 4, games, seed=1, policy="greedy", runner=runner)
        one_run = time.perf_counter() - started
        started = time.perf_counter()
        with runner.held():
            sweep(engine, {}, [4], games, 1, "greedy", 2000, Path(tmp) / "sweep.csv", runner)
        swept = time.perf_counter() - started
        fingerprint = (Path(tmp) / "sweep.csv").read_text("utf-8").strip().rsplit(",", 1)[-1]
    print(f"  sweep of {games:,} games in chunks of {CHUNK_GAMES:,}, 2 processes: {swept:.2f} s, "
          f"{swept / one_run:.2f}x one run of the same games ({one_run:.2f} s); "
          f"{'the same games' if fingerprint == whole.fingerprint else 'OTHER GAMES'}")
    content = load_game(PROJECT_CONTENT, "flamme-rouge")
    with tempfile.TemporaryDirectory() as cache:
        previous = os.environ.get("CARDGEN_CACHE")
        os.environ["CARDGEN_CACHE"] = cache
        try:
            times = []
            for _ in range(2):
                started = time.perf_counter()
                with runner.held():
                    measure(engine, content, [3], LAB_GAMES, seed=1, runner=runner)
                times.append(time.perf_counter() - started)
        finally:
            if previous is None:
                os.environ.pop("CARDGEN_CACHE", None)
            else:
                os.environ["CARDGEN_CACHE"] = previous
    print(f"  balance report's games (Flamme Rouge, 3 players, {LAB_GAMES} games a part, 2 processes): "
          f"{times[0]:.2f} s played, {1000 * times[1]:.0f} ms asked for again (every part read back)")


# --- verify: every scenario and stored comparison ---------------------------------------------

def bench_verify() -> None:
    """`cardgen verify` of every game: with an empty cache (every stored comparison measured) and
    again with the cache it left (comparisons recalled while nothing they rest on changed)."""
    with tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "CARDGEN_CACHE": cache}
        cold = run_process([CARDGEN, "verify"], env=environment, timeout=1200)
        if cold.problem():
            print(f"  cardgen verify failed: {cold.problem()}")
            return
        warm = [run_process([CARDGEN, "verify"], env=environment) for _ in range(VERIFY_RUNS)]
    walls, cpus = [r.wall for r in warm], [r.cpu for r in warm]
    print("Verify, whole processes")
    print(f"  cardgen verify, empty cache (every stored comparison measured): {cold.wall:.1f} s, CPU {cold.cpu:.1f} s")
    print(f"  cardgen verify again, nothing changed: {spread(walls)} s over {len(warm)} runs, "
          f"CPU {statistics.median(cpus):.2f} s\n    "
          + anchor(("seconds", VERIFY_TARGET), statistics.median(walls), statistics.median(cpus), None, None))


# --- printing: protograf against cardgen build ------------------------------------------------

def pdf_pages(folder: Path) -> tuple[int, int, int]:
    """Files, PDFs and PDF pages under `folder` (pages 0 when pypdf is missing)."""
    files = [p for p in folder.rglob("*") if p.is_file()]
    pdfs = [p for p in files if p.suffix == ".pdf"]
    pages = 0
    try:
        from pypdf import PdfReader

        pages = sum(len(PdfReader(p).pages) for p in pdfs)
    except Exception:  # noqa: BLE001
        pass
    return len(files), len(pdfs), pages


def timed_processes(argv, runs: int, warm_up: bool, fresh_cache: bool = False) -> tuple[list[Run], tuple[int, int, int]]:
    """`runs` whole processes of `argv(out_dir)`, each into a new folder. With `fresh_cache`, each
    process starts from an empty cache, so it runs every check; else the checks a run passed are
    recalled by the next (`cardgen.checkcache`)."""
    if warm_up:
        with tempfile.TemporaryDirectory() as tmp:
            run_process(argv(Path(tmp)))
    done, counts = [], (0, 0, 0)
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
            environment = {**os.environ, "CARDGEN_CACHE": cache} if fresh_cache else None
            run = run_process(argv(Path(tmp)), env=environment)
            if run.problem():
                raise RuntimeError(run.problem())
            done.append(run)
            counts = pdf_pages(Path(tmp))
    return done, counts


# Runs the protograf deck script (`python -c TIMER SCRIPT -d DIR`) and prints, as JSON, the seconds
# spent importing protograf and making the deck, so its in-process time can be set beside cardgen's.
PROTOGRAF_TIMER = """import json, runpy, sys, time
start = time.perf_counter()
import protograf
imported = time.perf_counter()
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
print(json.dumps({"import": imported - start, "deck": time.perf_counter() - imported}))
"""


def bench_printing(venv: Path, spans_by_game: dict) -> None:
    print("Printing, whole processes (median (min-max) wall seconds; CPU seconds is the median per process)")
    python = comparison_python(venv, "protograf")
    base = base_cpu = deck = None
    rows = []
    if python is not None:
        rows.append(("protograf 0.5.2: 88 poker cards (63 x 88 mm), a number on each, fronts only, A4",
                     lambda out: [python, "-c", PROTOGRAF_TIMER, BENCH / "protograf_deck.py", "-d", out],
                     PRINT_RUNS, True, True, None))
    checked, recalled = "; every check run (empty cache)", "; checks recalled (unchanged content)"
    one_deck = ["game-of-trains", "--paper", "a4", "--layout", "butted", "--lang", "en", "--only", "cards",
                "--sides", "fronts"]
    for fresh in (True, False):
        rows.append((f"cardgen build {' '.join(one_deck)} --out DIR (the same deck: 88 cards, fronts only)"
                     + (checked if fresh else recalled),
                     lambda out: [CARDGEN, "build", *one_deck, "--out", out],
                     PRINT_RUNS, True, False, ("speed", ONE_DECK_TARGET), fresh))
    for layout in ("home", "butted"):
        for fresh in (True, False):
            rows.append((f"cardgen build game-of-trains --paper a4 --layout {layout} --lang en --out DIR (the whole game: "
                         "card sheets, aids, proof, rule sheet, assembly page, calibration sheets)"
                         + (checked if fresh else recalled),
                         lambda out, layout=layout: [CARDGEN, "build", "game-of-trains", "--paper", "a4", "--layout",
                                                     layout, "--lang", "en", "--out", out],
                         PRINT_RUNS, True, False, None, fresh))
    for fresh in (True, False):
        rows.append(("cardgen build --out DIR (every game, both papers, its default layouts, both languages; "
                     "one process per core)" + (checked if fresh else recalled),
                     lambda out: [CARDGEN, "build", "--out", out], FULL_BUILD_RUNS, not fresh, False,
                     ("seconds", FULL_BUILD_TARGET), fresh))
    rows.append(("cardgen build --workers 1 --out DIR (the same, in one process)" + checked,
                 lambda out: [CARDGEN, "build", "--workers", "1", "--out", out], FULL_BUILD_RUNS, False, False, None,
                 True))
    for label, argv, runs, warm_up, is_base, target, *fresh in rows:
        try:
            done, (files, pdfs, pages) = timed_processes(argv, runs, warm_up, *fresh)
        except Exception as exc:  # noqa: BLE001
            print(f"  {label}\n    failed: {one_line(exc)}")
            continue
        walls, cpus = [r.wall for r in done], [r.cpu for r in done]
        if is_base:
            base, base_cpu = statistics.median(walls), statistics.median(cpus)
        ratio = (f"; {statistics.median(walls) / base:.1f}x protograf's wall time, "
                 f"{statistics.median(cpus) / base_cpu:.1f}x its CPU time") if base and not is_base else ""
        print(f"  {label}\n    {spread(walls)} s over {runs} runs, CPU {statistics.median(cpus):.2f} s{ratio}; "
              f"wrote {files} files, {pdfs} PDFs, {pages} pages")
        if target:
            print("    " + anchor(target, statistics.median(walls), statistics.median(cpus), base, base_cpu))
        if is_base:
            try:
                inside = [r.last_json() for r in done]
                deck = statistics.median([d["deck"] for d in inside])
                print(f"    in process: import {statistics.median([d['import'] for d in inside]):.2f} s, "
                      f"then the deck {spread([d['deck'] for d in inside])} s")
            except (ValueError, KeyError):
                pass
    guarded("one text changed", bench_one_text_changed, one_deck, base, base_cpu)
    spans = spans_by_game.get("game-of-trains")
    if spans and "cards-a4-home.pdf" in spans:
        card = spans["cards-a4-home.pdf"]
        note = f", {card / deck:.2f}x the time of protograf's deck" if deck else ""
        print(f"  in process, cardgen: cards-a4-home.pdf of Game of Trains alone (88 cards, fronts and backs, bleed and"
              f" marks), fastest library build above (fonts already loaded): {card:.2f} s{note}")
    guarded("rebuild", bench_rebuild)


def anchor(target: tuple[str, float], wall: float, cpu: float, base: float | None, base_cpu: float | None) -> str:
    """A figure beside its anchor: ("speed", k) is k times protograf's deck (its time over ours),
    ("seconds", s) is at most s seconds of wall time."""
    kind, goal = target
    if kind == "speed":
        if not base:
            return f"anchor: at least {goal:g}x protograf's speed; protograf not measured"
        speed, cpu_speed = base / wall, base_cpu / cpu
        return (f"anchor: at least {goal:g}x protograf's speed; {speed:.2f}x by wall time, {cpu_speed:.2f}x by CPU time"
                f"  {'met' if speed >= goal else 'not met'}")
    return f"anchor: under {goal:g} s; {wall:.2f} s wall, {cpu:.2f} s CPU  {'met' if wall < goal else 'not met'}"


EDITED_TEXT = ("game-of-trains/abilities.yaml", "Swap two neighbouring carriages")


def bench_one_text_changed(one_deck: list, base: float | None, base_cpu: float | None) -> None:
    """The same deck built from a copy of the content after one card text changed before each
    build, as a designer works: that game's checks run again (the content changed); what does not
    depend on the content (fonts read, schema files checked) is recalled."""
    import shutil

    from cardgen.content import PROJECT_CONTENT

    name, text = EDITED_TEXT
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        shutil.copytree(PROJECT_CONTENT, content, symlinks=True)
        edited = content / name
        original = edited.read_text("utf-8")
        if text not in original:
            raise RuntimeError(f"{name} no longer holds {text!r}: choose another text to change")
        done = []
        for k in range(PRINT_RUNS + 1):  # the first run fills the cache; it is not counted
            edited.write_text(original.replace(text, f"{text} ({k + 1})", 1), "utf-8")
            run = run_process([CARDGEN, "--content", content, "build", *one_deck, "--out", Path(tmp) / f"out{k}"])
            if run.problem():
                raise RuntimeError(run.problem())
            done.append(run)
    done = done[1:]
    walls, cpus = [r.wall for r in done], [r.cpu for r in done]
    print(f"  cardgen --content COPY build {' '.join(one_deck)} --out DIR, one card text changed before each run "
          f"(that game's checks run again)\n    {spread(walls)} s over {len(done)} runs, CPU {statistics.median(cpus):.2f} s\n"
          f"    {anchor(('speed', ONE_DECK_TARGET), statistics.median(walls), statistics.median(cpus), base, base_cpu)}")


def bench_rebuild() -> None:
    """`cardgen build` again into a folder it has just filled, with nothing changed."""
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "CARDGEN_CACHE": cache}
        first = run_process([CARDGEN, "build", "--out", tmp], env=environment)
        if first.problem():
            raise RuntimeError(first.problem())
        done = [run_process([CARDGEN, "build", "--out", tmp], env=environment) for _ in range(STARTUP_RUNS)]
        if done[-1].problem() or "nothing changed" not in done[-1].stdout:
            raise RuntimeError(done[-1].problem() or "the second build drew the files again")
    walls, cpus = [r.wall for r in done], [r.cpu for r in done]
    print(f"  cardgen build --out DIR again, nothing changed (every file kept)\n"
          f"    {spread(walls)} s over {len(done)} runs, CPU {statistics.median(cpus):.2f} s\n    "
          + anchor(("seconds", REBUILD_TARGET), statistics.median(walls), statistics.median(cpus), None, None))


# --- main -------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games for the per-game figures (default: all)")
    parser.add_argument("--part", choices=("all", "startup", "games", "engines", "scale", "verify", "races", "printing"),
                        default="all")
    parser.add_argument("--comparison-venv", type=Path, default=ROOT / ".bench-venv",
                        help="virtual environment holding flamme-rouge and protograf")
    args = parser.parse_args()
    started = time.perf_counter()
    # Builds remember what they made (cardgen.buildcache); the bench's records go with the bench.
    cache = tempfile.TemporaryDirectory(prefix="bench-cache-")
    os.environ["CARDGEN_CACHE"] = cache.name
    print(f"cardgen bench, Python {sys.version.split()[0]}, {load_average()}; {machine_speed()}")
    print()
    spans_by_game: dict = {}
    if args.part in ("all", "startup"):
        bench_startup()
        print()
    if args.part in ("all", "games"):
        try:
            from cardgen.content import PROJECT_CONTENT, discover_games

            games = args.games or discover_games(PROJECT_CONTENT)
        except Exception as exc:  # noqa: BLE001
            print(f"the games cannot be listed: {one_line(exc)}")
            games = []
        bench_games(games, spans_by_game)
        print()
    if args.part in ("all", "engines"):
        bench_engines(args.comparison_venv)
        print()
    if args.part in ("all", "scale"):
        bench_scale()
        print()
    if args.part in ("all", "verify"):
        bench_verify()
        print()
    if args.part in ("all", "races"):
        bench_races(args.comparison_venv)
        print()
    if args.part in ("all", "printing"):
        bench_printing(args.comparison_venv, spans_by_game)
        print()
    print(f"bench done in {time.perf_counter() - started:.0f} s, {load_average()}; {machine_speed()}")


if __name__ == "__main__":
    main()
