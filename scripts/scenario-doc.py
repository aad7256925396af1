"""Writes docs/scenarios.md: the scenario format and each game's notation as its engine states it
(`cardgen verify --notation GAME`). A test checks the file against the engines."""

from __future__ import annotations

import sys
from pathlib import Path

from cardgen.content import PROJECT_CONTENT, discover_games, load_game
from cardgen.registry import engine_for

HEAD = """# Writing scenarios

A scenario is a scripted game, or a fragment of one, that `cardgen verify` replays against a game's
rules engine. Every rule and ruling of a game is pinned by at least one, and every worked example in
a rule sheet is one. This page is for people who write them; players never need it.

```yaml
title: Uncouple front takes carriage 1 from every unlocked train
rule: ability 5               # the rule or ruling it pins
players: 3
params: {reshuffle: at-once}  # game parameters (variants, other readings of a ruling)
seed: 7                       # chance not fixed by the setup comes from this seed
setup: {...}                  # any position the rules allow: deck order, hands, board ...
steps:
  - P1: use 7                 # an action in the game's notation, which must be accepted
  - P2: draw place 3
    rejects: not your turn    # this action must be refused, with this text in the reason
  - expect: {market: [44]}    # fields of the whole position (hidden ones too); only those named
  - observe: {P2: {hand: {P1: {hidden: 5}}}}   # what one player sees: hidden zones show a size
  - chance: {reshuffle: [12, 40, 3]}           # the outcome of the next chance event of that kind
end: {winner: P1}             # the game must be over; fields of the result are compared
```

A scenario a rule sheet shows as a worked example also carries `example:` with its words in each
language, a short `title` and the `steps` it narrates (`[first, last]`, or one step number); the
sheet pictures the positions right before the first and right after the last, and a section of
`rules.yaml` places it under its rule with `examples: [<file name without .yaml>]`.

Every pile (a deck, a draw pile, a ticket deck) is written with its top card first, in `setup:`,
in `expect:` and in a `chance:` outcome alike. A failure names the file, the line, the step and what differed. `cardgen simulate` writes a game
that broke an invariant as a scenario in this format, so it can be replayed and kept.

Each game's actions and the fields `expect:` may name follow, as its engine prints them
(`cardgen verify --notation GAME`).
"""


def document() -> str:
    parts = [HEAD]
    for game_id in discover_games(PROJECT_CONTENT):
        content = load_game(PROJECT_CONTENT, game_id)
        engine = engine_for(content)
        if engine is None:
            continue
        parts.append(f"\n## {content.title['en']} (`{game_id}`)\n\n```\n{engine.notation_help().rstrip()}\n```\n")
    return "".join(parts)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/scenarios.md")
    target.write_text(document(), "utf-8")
