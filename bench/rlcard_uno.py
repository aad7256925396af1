"""UNO games in RLCard, played by its random agents: a public game engine to set cardgen's playout
speed beside. Run inside the comparison environment:

    .bench-venv/bin/python bench/rlcard_uno.py --games N --seed S

prints one JSON line: games, actions, seconds (in process, after importing RLCard) and the seconds
spent importing it.
"""

import argparse
import json
import time

start = time.perf_counter()
import rlcard  # noqa: E402
from rlcard.agents import RandomAgent  # noqa: E402

imported = time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = rlcard.make("uno", config={"seed": args.seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    actions = 0
    began = time.perf_counter()
    for _ in range(args.games):
        trajectories, _ = env.run(is_training=False)
        # A player's trajectory alternates states and the actions taken from them.
        actions += sum((len(trajectory) - 1) // 2 for trajectory in trajectories)
    seconds = time.perf_counter() - began
    print(json.dumps({"games": args.games, "players": env.num_players, "actions": actions, "seconds": seconds,
                      "import": imported - start}))


if __name__ == "__main__":
    main()
