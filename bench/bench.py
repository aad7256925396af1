"""Speed figures for every game: PDF build time and throughput, PDF sizes, random playouts per second.

Run with `make bench` (every game) or `python bench/bench.py GAME ...`. Figures are printed, never asserted: they depend on the machine.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.build import build_game  # noqa: E402
from cardgen.content import PROJECT_CONTENT, discover_games, load_game  # noqa: E402
from cardgen.registry import engine_for  # noqa: E402
from verify.simulate import simulate  # noqa: E402

RUNS = 3


def timed(fn, runs=RUNS) -> tuple[float, float, object]:
    """Median and minimum seconds over `runs` calls, and the last result."""
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), result


def bench_build(content) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        first_start = time.perf_counter()
        files = build_game(content, out)
        first = time.perf_counter() - first_start
        median, best, files = timed(lambda: build_game(content, out))
        card_pdfs = [f for f in files if f.name.startswith("cards-")]
        tile_pdfs = [f for f in files if f.name.startswith("tiles-")]
        cards = len(content.physical_cards()) * len(card_pdfs)
        print(f"  build: {len(files)} PDFs, first run {first:.2f} s (fonts loaded), then median {median:.2f} s, min {best:.2f} s")
        card_time = _time_of(content, out, "cards")
        print(f"  cards: {cards} card faces in {len(card_pdfs)} PDFs, {cards / card_time:,.0f} cards/s")
        if tile_pdfs:
            tiles = sum(c.get("count", 1) for c in content.other_components() if c.get("kind") == "tile")
            tile_time = _time_of(content, out, "tiles")
            print(f"  tiles: {tiles * len(tile_pdfs)} tiles in {len(tile_pdfs)} PDFs, {tiles * len(tile_pdfs) / tile_time:,.0f} tiles/s")
        for path in sorted(files):
            print(f"    {path.name:28} {path.stat().st_size / 1024:8.0f} KiB")


def _time_of(content, out: Path, prefix: str) -> float:
    """Seconds spent on the files whose names start with `prefix`, from build_game's progress calls."""
    spans: dict[str, float] = {}
    last = [time.perf_counter()]

    def progress(path) -> None:
        now = time.perf_counter()
        spans[Path(path).name] = now - last[0]
        last[0] = now

    build_game(content, out, progress=progress)
    return sum(t for name, t in spans.items() if name.startswith(prefix)) or float("nan")


def bench_play(content) -> None:
    engine = engine_for(content)
    if engine is None:
        print("  no rules engine")
        return
    # Greedy play needs the engine's own score of a position; without one it would be random play again.
    policies = ("random", "greedy") if hasattr(engine.new_state(engine.min_players, seed=0), "score") else ("random",)
    for policy in policies:
        for players in range(engine.min_players, engine.max_players + 1):
            report = simulate(engine, players=players, games=100, seed=1, policy=policy, turn_cap=2000)
            print(f"  {policy:6} {players}p: {report.games_per_second:8,.0f} games/s  "
                  f"{report.actions_per_second:9,.0f} actions/s  mean length {report.mean_length:6.1f}  "
                  f"capped {report.capped}")


def main() -> None:
    for game_id in sys.argv[1:] or discover_games(PROJECT_CONTENT):
        content = load_game(PROJECT_CONTENT, game_id)
        print(f"{content.title['en']} ({game_id})")
        bench_build(content)
        bench_play(content)


if __name__ == "__main__":
    main()
