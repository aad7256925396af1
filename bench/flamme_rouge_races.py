"""Full races of the PyPI package flamme-rouge (0.1.2), played by its own bots, for `make bench`.

Run inside the comparison environment:

    .bench-venv/bin/python bench/flamme_rouge_races.py --lineup random|bots --races N --seed S

Four teams race on the package's first track, AVENUE_CORSO_PASEO (the same stage as cardgen's
default, Avenue Corso Paseo). Line-ups, none of which asks for input:

- random: four `Regular` teams (a rouleur and a sprinteur; every choice uniformly at random), the
  counterpart of cardgen's random policy;
- bots: two `Heuristic` and two `Simple` teams from `flamme_rouge.strategies`.

The package logs every move at INFO level; logging is switched off so that nothing is printed or
formatted. Prints one JSON line: races, seconds spent racing (in process), rounds and winners.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import time

logging.disable(logging.CRITICAL)

from flamme_rouge.core import Game  # noqa: E402
from flamme_rouge.strategies import Heuristic, Simple  # noqa: E402
from flamme_rouge.teams import Regular  # noqa: E402
from flamme_rouge.tracks import ALL_TRACKS, AVENUE_CORSO_PASEO  # noqa: E402

LINEUPS = {
    "random": (Regular, Regular, Regular, Regular),
    "bots": (Heuristic, Simple, Heuristic, Simple),
}


def race(track, lineup) -> tuple[int, str]:
    teams = [cls(name=f"{cls.__name__}#{i + 1}") for i, cls in enumerate(lineup)]
    game = Game(track, teams)
    game.play()
    return game.rounds_played, str(game.winner.team)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lineup", choices=sorted(LINEUPS), default="random")
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    assert ALL_TRACKS[0] is AVENUE_CORSO_PASEO
    random.seed(args.seed)  # the package draws from the module-level generator
    rounds, winners = [], {}
    start = time.perf_counter()
    for _ in range(args.races):
        length, winner = race(AVENUE_CORSO_PASEO, LINEUPS[args.lineup])
        rounds.append(length)
        winners[winner] = winners.get(winner, 0) + 1
    seconds = time.perf_counter() - start
    print(json.dumps({"races": args.races, "seconds": seconds, "lineup": args.lineup,
                      "track": AVENUE_CORSO_PASEO.name, "mean_rounds": sum(rounds) / len(rounds),
                      "winners": winners}))


if __name__ == "__main__":
    main()
