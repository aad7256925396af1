"""Fingerprints and speed of seeded playouts, for every game (or those named): the same rules give
the same fingerprints, so a change meant to make an engine faster, and nothing else, leaves every
line of this script's output but the games per second as it was.

    python scripts/playout-fingerprints.py [GAME ...] [--games N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.content import load_game  # noqa: E402
from cardgen.registry import engine_for  # noqa: E402
from verify.simulate import simulate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["flamme-rouge", "game-of-trains", "moscow-to-paris", "spectral-rails", "ticket-to-ride-card-game"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=GAMES)
    parser.add_argument("--games", dest="count", type=int, default=60)
    args = parser.parse_args()
    for name in args.games:
        engine = engine_for(load_game(ROOT / "content", name))
        for policy in ("random", "greedy"):
            for players in range(engine.min_players, engine.max_players + 1):
                report = simulate(engine, players, args.count, seed=7, policy=policy, turn_cap=1000)
                print(f"{name} {policy} {players}p: {report.fingerprint} "
                      f"failures {len(report.failures)} capped {report.capped} wins {report.wins} "
                      f"({report.games_per_second:.0f} games/s)", flush=True)


if __name__ == "__main__":
    main()
