"""Replaying scenario files: scripted games or fragments that pin a rule.

A scenario names a game's players and setup, then lists steps:

    - P1: use 7               # an action in the game's notation; must be accepted
    - P2: draw place 3
      rejects: not your turn  # this action must be refused with a message containing this text
    - chance: {reshuffle: [12, 40, 3]}   # the outcome of the next chance event of that kind
    - expect: {market: [7]}   # only the named fields of State.fields() are compared
    - observe: {P2: {hand: {P1: {hidden: 5}}}}   # the named fields of what P2 sees

and optionally `end:` (the game must be over; the named fields of State.result() are compared).
Every failure names the file, the line, the step and what differed.
"""

from __future__ import annotations

import copy
import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from cardgen.errors import ContentError, printable
from cardgen.yamlio import Locator, load_yaml
from verify.engine import Game, IllegalAction, NotationError, SetupError, State

SCENARIO_KEYS = {"title", "rule", "players", "seed", "setup", "steps", "end", "params", "example"}


@dataclass
class ScenarioResult:
    path: Path
    title: str
    failures: list[str] = field(default_factory=list)
    steps_run: int = 0
    state: State | None = None
    # With run_scenario(..., record=True): positions[0] is the start, positions[n] the position
    # after step n (State.fields()), so a worked example can picture exactly the steps it narrates.
    positions: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


_loaded: dict[tuple, tuple[dict, Locator] | ContentError] = {}


def load_scenario(path: Path) -> tuple[dict, Locator]:
    """Read a scenario file and check its outer shape; raise ContentError on a malformed one.
    Each file is read once while it stays unchanged (the checks, the rule sheet and the replay all
    ask for it); every caller gets a copy of its own to play on."""
    try:
        info = os.stat(path)
        key = (os.path.realpath(path), info.st_ino, info.st_size, info.st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _loaded:
        found = _loaded[key]
        if isinstance(found, ContentError):
            raise found
        return copy.deepcopy(found[0]), found[1]
    try:
        data, locator = _read_scenario(path)
    except ContentError as exc:
        if key is not None:
            _loaded[key] = exc
        raise
    if key is not None:
        if len(_loaded) > 1000:
            _loaded.clear()
        _loaded[key] = (copy.deepcopy(data), locator)
    return data, locator


def _read_scenario(path: Path) -> tuple[dict, Locator]:
    data, locator = load_yaml(path)
    if not isinstance(data, dict):
        raise locator.error([], "a scenario must be a mapping with title, players and steps")
    for key in data:
        if key not in SCENARIO_KEYS:
            raise locator.error([key], f"unknown key {key!r}; expected one of {', '.join(sorted(SCENARIO_KEYS))}")
    for key in ("title", "players", "steps"):
        if key not in data:
            raise locator.error([], f"missing {key!r}")
    if not isinstance(data["title"], str):
        raise locator.error(["title"], "must be a text")
    if not isinstance(data["players"], int) or isinstance(data["players"], bool):
        raise locator.error(["players"], "must be a whole number")
    if not isinstance(data["steps"], list):
        raise locator.error(["steps"], "must be a list of steps")
    for key in ("setup", "end", "params"):
        if key in data and not isinstance(data[key], dict):
            raise locator.error([key], "must be a mapping")
    if "seed" in data and (not isinstance(data["seed"], int) or isinstance(data["seed"], bool)):
        raise locator.error(["seed"], "must be a whole number")
    return data, locator


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        return len(expected) == len(actual) and all(_same(e, a) for e, a in zip(expected, actual))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(_same(v, actual[k]) for k, v in expected.items())
    return expected == actual


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def compare_fields(expected: dict, actual: dict, what: str) -> list[str]:
    problems = []
    for name, want in expected.items():
        if name not in actual:
            problems.append(f"unknown {what} field {name!r}; known: {', '.join(sorted(actual))}")
        elif not _same(want, actual[name]):
            problems.append(f"{name}: expected {_plain(want)!r}, actual {_plain(actual[name])!r}")
    return problems


STEP_KEYS = ("expect", "observe", "chance", "rejects")


def start_state(data: dict, game: Game) -> tuple[State | None, tuple[list, str] | None]:
    """The state a scenario starts from, or None with (json path, message) saying why it cannot."""
    players = data["players"]
    if not game.min_players <= players <= game.max_players:
        return None, (["players"], f"{game.id} takes {game.min_players}-{game.max_players} players, not {players}")
    try:
        return game.with_params(**data.get("params", {})).new_state(players, seed=data.get("seed", 0), setup=data.get("setup")), None
    except SetupError as exc:
        return None, (["setup", *exc.field.split(".")] if exc.field else ["setup"], f"setup.{exc.field}: {exc.message}")
    except (IllegalAction, ValueError, KeyError, TypeError) as exc:
        # Engines name a bad parameter "params.<name>: ..."; anything else is about the setup.
        if str(exc).startswith("params"):
            return None, (["params"], str(exc))
        return None, (["setup"], f"setup: {exc}")


def check_scenario(path: Path, game: Game | None) -> list[ContentError]:
    """Every fault that can be found without playing, all at once: the file's shape, each step's
    shape, and (with an engine) that its players, parameters and setup make a position the rules
    allow, that every acting or observing player exists, that every action can be read, and that
    every field `expect:` and `observe:` name exists (with a "did you mean")."""
    try:
        data, loc = load_scenario(path)
    except ContentError as exc:
        return [exc]
    errors = []
    state = None
    if game is not None:
        state, problem = start_state(data, game)
        if problem is not None:
            errors.append(loc.error(problem[0], problem[1]))
    players = list(state.players) if state is not None else None
    for i, step in enumerate(data["steps"]):
        at = ["steps", i]
        if not isinstance(step, dict) or not step:
            errors.append(loc.error(at, "a step is a mapping such as 'P1: <action>', 'expect: {...}' or 'chance: {...}'"))
            continue
        movers = [k for k in step if k not in STEP_KEYS]
        if not any(k in step for k in ("expect", "observe", "chance")) and len(movers) != 1:
            errors.append(loc.error(at, f"expected one player with an action, got {sorted(map(str, step))}"))
            continue
        if state is None:
            continue
        errors += _step_faults(step, at, state, players, loc)
    return errors


def _unknown(name, known, what: str) -> str:
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown {what} {name!r}{hint} (known: {', '.join(sorted(map(str, known)))})"


def _step_faults(step: dict, at: list, state: State, players: list[str], loc) -> list[ContentError]:
    """What is wrong with one step, judged against the starting position's players and fields."""
    errors = []
    fields = set(state.fields()) | {"result"}  # result appears once the game is over
    for key, value in step.items():
        if key == "expect" and isinstance(value, dict):
            errors += [loc.error(at + ["expect", name], _unknown(name, fields, "expect field"))
                       for name in value if name not in fields]
        elif key == "observe" and isinstance(value, dict):
            for viewer, wanted in value.items():
                if viewer not in players:
                    errors.append(loc.error(at + ["observe", viewer], _unknown(viewer, players, "player")))
                elif isinstance(wanted, dict):
                    seen = set(state.observation(viewer))
                    errors += [loc.error(at + ["observe", viewer, name], _unknown(name, seen, "observed field"))
                               for name in wanted if name not in seen]
        elif key in STEP_KEYS:
            continue
        elif key not in players:
            errors.append(loc.error(at + [key], _unknown(key, players + ["expect", "observe", "chance"],
                                                         "player or step kind")))
        elif not isinstance(value, str):
            errors.append(loc.error(at + [key], "the action must be text"))
        elif "rejects" not in step:  # a step that must be refused may hold an unreadable action on purpose
            try:
                state.parse_action(value)
            except (NotationError, ValueError, OverflowError) as exc:  # a number past every limit, say
                errors.append(loc.error(at + [key], f"cannot read the action {printable(value)!r}: {printable(exc)}"))
    return errors


def _plain_data(value: Any) -> Any:
    """Plain lists, dicts and scalars for printing; sets are sorted, tuples become lists."""
    if isinstance(value, (set, frozenset)):
        return sorted((_plain_data(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_plain_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain_data(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def describe_position(n: int, step, state: State) -> str:
    """The whole position after step `n` (0: before the first step), as YAML: who moves, every
    zone with all it holds (hidden ones too) and who may see it, every field `expect:` may name,
    then what each player sees (hidden zones only by size)."""
    import yaml

    title = "start" if n == 0 else f"after step {n}: {_step_text(step)}"
    zones = {(f"{zone.name}.{zone.owner}" if zone.owner else zone.name) + f" ({zone.visibility.name.lower()})":
             _plain_data(zone.shown()) for zone in state.zones()}
    document = {"to move": list(state.to_move()), "zones": zones, "fields": _plain_data(state.fields()),
                "seen by": {player: _plain_data(state.observation(player)) for player in state.players}}
    body = yaml.safe_dump(document, allow_unicode=True, sort_keys=False, default_flow_style=None, width=100)
    return f"--- {title}\n{body}"


def _step_text(step) -> str:
    if not isinstance(step, dict):
        return str(step)
    import json

    return ", ".join(f"{k}: {v if isinstance(v, str) else json.dumps(_plain_data(v), ensure_ascii=False)}"
                     for k, v in step.items())


def run_scenario(path: Path, game: Game, record: bool = False,
                 watch: Callable[[int, Any, State], None] | None = None) -> ScenarioResult:
    """Replay one scenario against `game`. Never raises for a bad scenario: failures are listed.
    With `record`, the position before the first step and after every step is kept; `watch(n,
    step, state)` is called with the start (n = 0, step None) and after every step that ran."""
    path = Path(path)
    try:
        data, loc = load_scenario(path)
    except ContentError as exc:
        return ScenarioResult(path, path.stem, [str(exc)])
    result = ScenarioResult(path, data["title"])

    def fail(json_path, message: str) -> ScenarioResult:
        result.failures.append(str(loc.error(json_path, message)))
        if watch is not None and result.state is not None and result.steps_run < len(data["steps"]):
            # The position where the script stopped: the failing step changed nothing.
            watch(result.steps_run + 1, data["steps"][result.steps_run], result.state)
        return result

    state, problem = start_state(data, game)
    if state is None:
        return fail(*problem)
    result.state = state
    if record:
        result.positions.append(state.fields())
    if watch is not None:
        watch(0, None, state)

    for i, step in enumerate(data["steps"]):
        n = i + 1
        if record and i > 0:
            result.positions.append(state.fields())
        if watch is not None and i > 0:
            watch(i, data["steps"][i - 1], state)
        at = ["steps", i]
        if not isinstance(step, dict) or not step:
            return fail(at, f"step {n}: a step is a mapping such as 'P1: <action>', 'expect: {{...}}' or 'chance: {{...}}'")
        if "expect" in step:
            if not isinstance(step["expect"], dict):
                return fail(at + ["expect"], f"step {n}: expect must be a mapping of fields")
            problems = compare_fields(step["expect"], state.fields(), "expect")
            if problems:
                return fail(at + ["expect"], f"step {n}: " + "; ".join(problems))
            result.steps_run = n
            continue
        if "observe" in step:
            views = step["observe"]
            if not isinstance(views, dict) or not all(isinstance(v, dict) for v in views.values()):
                return fail(at + ["observe"], f"step {n}: observe maps a player to the fields they see")
            for viewer, wanted in views.items():
                if viewer not in state.players:
                    return fail(at + ["observe", viewer], f"step {n}: unknown player {viewer!r}; players: {', '.join(state.players)}")
                problems = compare_fields(wanted, state.observation(viewer), f"observation of {viewer}")
                if problems:
                    return fail(at + ["observe", viewer], f"step {n}: what {viewer} sees: " + "; ".join(problems))
            result.steps_run = n
            continue
        if "chance" in step:
            chance = step["chance"]
            if not isinstance(chance, dict) or not all(isinstance(v, list) for v in chance.values()):
                return fail(at + ["chance"], f"step {n}: chance must map an event kind to its outcome list")
            for kind, outcome in chance.items():
                state.chance.queue(kind, outcome)
            result.steps_run = n
            continue
        movers = [k for k in step if k not in ("rejects",)]
        if len(movers) != 1 or movers[0] not in state.players:
            return fail(at, f"step {n}: expected one player ({', '.join(state.players)}) with an action, got {sorted(step)}")
        player = movers[0]
        text = step[player]
        if not isinstance(text, str):
            return fail(at + [player], f"step {n}: the action must be text")
        rejects = step.get("rejects")
        try:
            action = state.parse_action(text)
            before = state.clone() if rejects is not None else None
            state.apply(player, action)
        except NotationError as exc:
            if rejects is not None and str(rejects).lower() in str(exc).lower():
                result.steps_run = n
                continue
            return fail(at + [player], f"step {n} ({player}: {text}): cannot read the action: {exc}")
        except (ValueError, OverflowError) as exc:  # a number past every limit, say
            return fail(at + [player], f"step {n} ({player}: {text}): cannot read the action: {exc}")
        except IllegalAction as exc:
            if rejects is not None and str(rejects).lower() in str(exc).lower():
                result.steps_run = n
                continue
            expected = f" (expected a refusal containing {rejects!r})" if rejects is not None else ""
            return fail(at + [player], f"step {n} ({player}: {text}): refused by rule {exc.rule!r}: {exc.reason}{expected}")
        if rejects is not None:
            state = before  # keep the script going from the state the refusal should have left
            result.state = state
            return fail(at + ["rejects"], f"step {n} ({player}: {text}): expected a refusal containing {rejects!r}, but it was accepted")
        result.steps_run = n

    if record and data["steps"]:
        result.positions.append(state.fields())
    if watch is not None and data["steps"]:
        watch(len(data["steps"]), data["steps"][-1], state)
    if "end" in data:
        if not state.is_terminal():
            return fail(["end"], f"end: the game is not over (to move: {', '.join(state.to_move())})")
        problems = compare_fields(data["end"], state.result(), "end")
        if problems:
            return fail(["end"], "end: " + "; ".join(problems))
    return result
