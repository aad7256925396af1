"""Random playouts for any engine: many games played by simple policies, with every invariant
checked after every action, and the speed measured.

A policy picks one of the legal actions. `random` picks uniformly; `greedy` keeps the action with the
best score, breaking ties at random: `State.score_actions(player, actions)` (one score per action,
in order) when the engine scores a whole choice at once, `State.score_action(player, action)` when
it offers that fast estimate one action at a time, else `State.score(player)` of a copy on which the action was played (both are
optional heuristics; without them greedy plays like random). Greedy sees the
outcome of each try, hidden cards included, so it is a way to get games of a plausible length, not
a measure of good play. When an invariant breaks, or the engine fails, the game so far is written
as a scenario that replays it exactly: its setup (when the engine can describe one), every action
and every chance outcome.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import yaml

from cardgen.words import counted
from verify.engine import Game, State, player_names

POLICIES = ("random", "greedy")


@dataclass
class SimulationReport:
    """What a batch of playouts showed."""

    players: int
    policy: str
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    wins: dict[str, int] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)
    capped: int = 0
    shared: int = 0  # games whose first place was shared by several players or teams
    finished: int = 0  # games played to their end
    no_winner: int = 0  # finished games that named no winner at all
    score_totals: dict[str, float] = field(default_factory=dict)  # per player, over scored games
    scored: int = 0
    failures: list[str] = field(default_factory=list)
    failure_file: Path | None = None
    fingerprint_bytes: bytes = bytes(32)  # folded from every game's actions: equal when the games are equal

    @property
    def fingerprint(self) -> str:
        return self.fingerprint_bytes.hex()

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def mean_length(self) -> float:
        return sum(self.lengths) / len(self.lengths) if self.lengths else 0.0

    @property
    def min_length(self) -> int:
        return min(self.lengths, default=0)

    @property
    def max_length(self) -> int:
        return max(self.lengths, default=0)

    def mean_scores(self) -> dict[str, float]:
        return {p: total / self.scored for p, total in self.score_totals.items()} if self.scored else {}

    def merge(self, other: SimulationReport) -> None:
        """Add the games of `other`, played after these (a later shard of the same run)."""
        self.games += other.games
        self.actions += other.actions
        self.seconds += other.seconds
        for table, more in ((self.wins, other.wins), (self.score_totals, other.score_totals)):
            for p, value in more.items():
                table[p] = table.get(p, 0) + value
        self.lengths += other.lengths
        self.capped += other.capped
        self.shared += other.shared
        self.finished += other.finished
        self.no_winner += other.no_winner
        self.scored += other.scored
        self.failures += other.failures
        self.fingerprint_bytes = _folded(self.fingerprint_bytes, other.fingerprint_bytes)

    def as_record(self) -> dict:
        """The report as plain JSON data (`from_record` reads it back); the failure file is not kept."""
        return {"players": self.players, "policy": self.policy, "games": self.games, "actions": self.actions,
                "seconds": self.seconds, "wins": self.wins, "lengths": self.lengths, "capped": self.capped,
                "shared": self.shared, "finished": self.finished, "no_winner": self.no_winner,
                "score_totals": self.score_totals, "scored": self.scored, "failures": self.failures,
                "fingerprint": self.fingerprint}

    @classmethod
    def from_record(cls, record) -> SimulationReport | None:
        """The report `as_record` wrote, or None when `record` is not one (a damaged line of a file)."""
        counts = ("games", "actions", "capped", "shared", "finished", "no_winner", "scored")
        try:
            report = cls(players=record["players"], policy=record["policy"], seconds=float(record["seconds"]),
                         wins=dict(record["wins"]), lengths=list(record["lengths"]),
                         score_totals=dict(record["score_totals"]), failures=list(record["failures"]),
                         fingerprint_bytes=bytes.fromhex(record["fingerprint"]),
                         **{name: record[name] for name in counts})
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        whole = (report.players, *(getattr(report, name) for name in counts), *report.wins.values(), *report.lengths)
        if (not all(type(n) is int and n >= 0 for n in whole) or type(report.policy) is not str
                or len(report.fingerprint_bytes) != 32 or len(report.lengths) != report.games
                or not all(type(v) in (int, float) for v in report.score_totals.values())
                or not all(type(t) is str for t in (*report.wins, *report.score_totals, *report.failures))):
            return None
        return report

    def summary(self) -> str:
        wins = ", ".join(f"{p} {n}" for p, n in self.wins.items())
        lines = [
            f"{counted(self.games, 'game')} of {self.players} players ({self.policy} play): "
            f"{counted(self.actions, 'action')} in {self.seconds:.2f} s, {self.games_per_second:.1f} games/s, "
            f"{self.actions_per_second:.0f} actions/s",
            f"wins by seat: {wins}; shared wins: {self.shared}; stopped by the turn cap: {self.capped}",
            f"length in actions: mean {self.mean_length:.1f}, min {self.min_length}, max {self.max_length}",
            f"broken invariants: {len(self.failures)}",
        ]
        if self.scored:
            means = ", ".join(f"{p} {v:.1f}" for p, v in self.mean_scores().items())
            lines.insert(3, f"mean score by seat: {means}")
        lines += [f"  {failure}" for failure in self.failures]
        if self.failure_file is not None:
            lines.append(f"the first failing game is written to {self.failure_file}")
        return "\n".join(lines)


def greedy_scorer(state: State):
    """How the greedy policy scores a list of actions in this game: `scores(player, actions)`, or
    None when the engine scores nothing (then the policy plays at random)."""
    score_actions = getattr(state, "score_actions", None)
    if score_actions is not None:
        return score_actions
    if hasattr(state, "score_action"):
        return lambda player, actions: [state.score_action(player, action) for action in actions]
    if hasattr(state, "score"):
        return partial(scores_after_playing, state)
    return None


def scores_after_playing(state: State, player: str, actions: list) -> list:
    """`score(player)` after each action, each played on its own copy of the state: what a
    whole-choice `score_actions` must give."""
    scores = []
    for action in actions:
        trial = state.clone()
        trial.apply(player, action)
        scores.append(trial.score(player))
    return scores


def chooser(state: State, policy: str, rng: random.Random):
    """The policy as `pick(player, actions)` for one game's state, decided once per game: at random,
    or greedy (the best-scoring action, ties broken at random)."""
    scores = greedy_scorer(state) if policy == "greedy" else None
    choice = uniform_choice(rng)
    if scores is None:
        return lambda player, actions: choice(actions)

    def greedy(player, actions):
        scored = scores(player, actions)
        best = max(scored)
        if scored.count(best) == 1:  # one best action: picked from a list of one, as the tie list would be
            return choice((actions[scored.index(best)],))
        return choice([action for action, score in zip(actions, scored) if score == best])

    return greedy


def uniform_choice(rng: random.Random):
    """`choice(items)`: one of `items` picked uniformly by `rng`, as `rng.choice` picks it, drawing
    the same bits in the same order (a random index of `len(items).bit_length()` bits, drawn
    again until it falls inside), so the same seed gives the same games; written out here because
    the policy picks once per action and `Random.choice` costs three calls a pick."""
    getrandbits = rng.getrandbits

    def choice(items):
        n = len(items)
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return items[r]

    return choice


def choose(state: State, player: str, policy: str, rng: random.Random):
    """The action `player` plays, or None when the engine offers none (itself a broken invariant)."""
    actions = state.legal_actions(player)
    return chooser(state, policy, rng)(player, actions) if actions else None


def scenario_text(game: Game, state: State, players: int, seed: int, record: list, problem: str) -> str:
    """A scenario replaying a recorded game: `record` holds (player, action text, chance events)."""
    steps = []
    for player, text, events in record:
        for kind, outcome in events:
            steps.append({"chance": {kind: list(outcome)}})
        steps.append({player: text})
    data = {
        "title": f"Random playout of {game.id}, seed {seed}: {problem}",
        "rule": "invariants",
        "players": players,
        "seed": seed,
    }
    setup = state.setup_record() if hasattr(state, "setup_record") else None
    if setup is not None:
        data["setup"] = setup
    data["steps"] = steps
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None)


def play_one(game: Game, players: int, seed: int, policy: str, turn_cap: int, rng: random.Random):
    """Play one game; return (state, record, actions, problem or None). The record holds
    (player, action text, chance events) for every action tried; the texts are written once the
    game is over."""
    state = game.new_state(players, seed=seed)
    log = state.chance.log
    setup_events = len(log)  # chance events made while setting up belong to the setup, not to a step
    played: list = []  # (player, action, where its chance events end in the log)
    actions, problem = 0, None
    # The state's methods and the policy are looked up once per game, not once per action.
    is_terminal, to_move, legal_actions, apply, check = (state.is_terminal, state.to_move, state.legal_actions,
                                                         state.apply, state.check_invariants)
    pick = chooser(state, policy, rng)
    while not is_terminal() and actions < turn_cap:
        movers = to_move()
        if not movers:
            problem = "the game is not over but nobody is to move"
            break
        player = movers[0]
        offered = legal_actions(player)
        if not offered:
            problem = f"the game is not over but {player} has no legal action"
            break
        action = pick(player, offered)
        try:
            apply(player, action)
        except Exception as exc:  # an engine failure is exactly what a playout is for
            played.append((player, action, len(log)))
            problem = f"{player}: {action} failed: {type(exc).__name__}: {exc}"
            break
        played.append((player, action, len(log)))
        actions += 1
        problems = check()
        if problems:
            problem = f"after {player}: {action}: " + "; ".join(problems)
            break
    record, start = [], setup_events
    for player, action, end in played:
        record.append((player, str(action), log[start:end]))
        start = end
    return state, record, actions, problem


def tally(report: SimulationReport, result: dict) -> None:
    """Count one finished game: its winner (every member of a winning team), or a shared first
    place; and the scores."""
    winners = result.get("winners")
    if winners is None:
        winners = [result["winner"]] if result.get("winner") is not None else []
    report.finished += 1
    if not winners:
        report.no_winner += 1
    elif result.get("shared", len(winners) > 1):
        report.shared += 1
    else:
        for winner in winners:
            report.wins[winner] += 1
    scores = result.get("scores") or {}
    per_player = {p: scores[p] for p in report.wins if p in scores}
    if per_player:
        report.scored += 1
        for p, value in per_player.items():
            report.score_totals[p] = report.score_totals.get(p, 0) + float(value)


def game_seeds(seed: int, games: int) -> list[int]:
    """Each game's own seed, drawn from the run's seed alone: game k is the same game whether it is
    played first, last, alone or on another machine."""
    seeds = random.Random(seed)
    return [seeds.randrange(2**31) for _ in range(games)]


@dataclass(frozen=True)
class GameRecord:
    """What one playout leaves for the report; small, so batches travel cheaply between processes."""

    index: int
    seed: int
    actions: int
    digest: bytes  # of the game's actions: equal games, equal digests
    problem: str | None = None
    scenario: str | None = None  # the failing game, written as a scenario that replays it
    result: dict | None = None  # State.result() of a finished game; None when capped or failed


def play_batch(task) -> list[GameRecord]:
    """Play the games `task` names: (game, players, policy, turn_cap, [(index, seed), ...]).
    A module-level function, so worker processes and cluster nodes can run it."""
    game, players, policy, turn_cap, games = task
    records = []
    for index, seed in games:
        # The players' choices have a random stream of their own per game, seeded by the game.
        state, record, actions, problem = play_one(game, players, seed, policy, turn_cap, random.Random(seed))
        digest = hashlib.sha256(("\n".join(text for _, text, _ in record) + "\n\n").encode()).digest()
        if problem is not None:
            scenario = scenario_text(game, state, players, seed, record, problem)
            records.append(GameRecord(index, seed, actions, digest, problem, scenario))
        else:
            records.append(GameRecord(index, seed, actions, digest,
                                      result=state.result() if state.is_terminal() else None))
    return records


def fold_fingerprint(fingerprint: bytes, record: GameRecord) -> bytes:
    """Add one game to a run's fingerprint. The fold is an exclusive or of per-game hashes, so the
    fingerprints of shards merge in any order into the fingerprint of the whole run."""
    return _folded(fingerprint, hashlib.sha256(f"{record.index}:{record.seed}:".encode() + record.digest).digest())


def _folded(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def add_record(report: SimulationReport, record: GameRecord, failure_path: Path | None = None) -> None:
    """Count one game into `report` (games are added in index order, so failures list in order)."""
    report.games += 1
    report.actions += record.actions
    report.lengths.append(record.actions)
    report.fingerprint_bytes = fold_fingerprint(report.fingerprint_bytes, record)
    if record.problem is not None:
        report.failures.append(f"seed {record.seed}: {record.problem}")
        if failure_path is not None and report.failure_file is None:
            path = Path(failure_path)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(record.scenario, "utf-8")
            report.failure_file = path
    elif record.result is None:
        report.capped += 1
    else:
        tally(report, record.result)


def simulate(
    game: Game,
    players: int,
    games: int,
    seed: int = 0,
    policy: str = "random",
    turn_cap: int = 1000,
    failure_path: Path | None = None,
    runner=None,
    only: range | None = None,
) -> SimulationReport:
    """Play `games` games; the same seed gives the same games and the same report, whatever runs
    them (`runner`: a verify.workers.Runner; default, this process). A broken invariant is reported,
    and the first such game is written as a scenario to `failure_path` when one is given. With
    `only`, just those games of the run are played (game k is the same game either way); the
    reports of consecutive parts merge (`SimulationReport.merge`) into the report of the whole."""
    from verify.workers import Runner, chunks

    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    runner = runner or Runner()
    report = SimulationReport(players=players, policy=policy)
    report.wins = {p: 0 for p in player_names(players)}
    only = range(games) if only is None else only
    seeds = game_seeds(seed, only.stop)
    tasks = [(game, players, policy, turn_cap, [(only[k], seeds[only[k]]) for k in batch])
             for batch in chunks(len(only), runner.workers)]
    started = time.perf_counter()
    for batch in runner.map(play_batch, tasks, [len(task[-1]) for task in tasks]):
        for record in batch:
            add_record(report, record, failure_path)
    report.seconds = time.perf_counter() - started
    return report
