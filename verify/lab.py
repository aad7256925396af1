"""The balance lab's measurements: for every player count, seeded playouts (win rate by seat with
95 % intervals, game lengths, games stopped by the cap) and, for every ruling that offers another
reading, the same games played under each reading side by side.

Nothing here draws; `cardgen.balance` turns a `LabReport` into a PDF.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from cardgen.words import counted
from verify.compare import Comparison, compare_readings, wilson
from verify.engine import IllegalAction, SetupError, param_text
from verify.simulate import SimulationReport, greedy_scorer, simulate

DEFAULT = "as printed"  # the label of the reading a game plays without the ruling's parameter


@dataclass(frozen=True)
class Reading:
    """One ruling's other reading: the parameter and the value that plays it."""

    ruling: str
    param: str
    value: object
    base: tuple = ()  # parameters both readings are played with (a climb rule needs a mountain stage)

    @property
    def label(self) -> str:
        """The parameters as a `--param` takes them: claim=exact, homeland=true."""
        return ", ".join(f"{key}={param_text(value)}" for key, value in ((self.param, self.value), *self.base))


@dataclass
class LabReport:
    game: str
    policy: str
    games: int
    seed: int
    turn_cap: int
    by_players: dict[int, SimulationReport] = field(default_factory=dict)
    readings: dict[int, list[tuple[Reading, Comparison | str]]] = field(default_factory=dict)
    odds: list = field(default_factory=list)  # verify.oddscheck.OddsCheck of each figure the rule sheet prints
    title: str = ""  # the game's name, as its rule sheet prints it in English
    scored: bool = True  # whether the engine scores positions: without a score, greedy play is random play

    @property
    def name(self) -> str:
        """The game's name, as the report heads it (its id where it has none)."""
        return self.title or self.game

    def win_rates(self, players: int) -> list[tuple[str, float, float, float]]:
        """(seat, rate, low, high) over the games that named a single winner or none."""
        report = self.by_players[players]
        return [(seat, wins / report.games, *wilson(wins, report.games)) for seat, wins in report.wins.items()]


def readings_of(content) -> list[Reading]:
    """Every other reading the game's rulings offer as a parameter value, in the rulings' order."""
    found: dict[tuple, Reading] = {}
    for ruling in content.files.get("rulings", {}).get("rulings", []) or []:
        if not isinstance(ruling, dict) or not isinstance(ruling.get("param"), str):
            continue
        compared = ruling.get("compare") if isinstance(ruling.get("compare"), dict) else {}
        base = compared.get("params") if isinstance(compared.get("params"), dict) else {}
        for alternative in ruling.get("alternatives", []) or []:
            if isinstance(alternative, dict) and "value" in alternative:
                reading = Reading(str(ruling.get("id", ruling["param"])), ruling["param"], alternative["value"],
                                  tuple(sorted(base.items(), key=str)))
                key = (reading.param, repr(reading.value), reading.base)
                if key in found:  # two rulings offering one reading: played once, both named
                    reading = Reading(f"{found[key].ruling}, {reading.ruling}", *key[:1], reading.value, reading.base)
                found[key] = reading
    return list(found.values())


def measure(engine, content, player_counts: list[int], games: int, seed: int = 1, policy: str = "greedy",
            turn_cap: int = 2000, runner=None, progress=lambda _: None) -> LabReport:
    """Play the lab's games: `games` per player count, and as many per reading and player count.
    Each part's figures are kept in the cache folder under the rules, the content and the part's
    settings (`_kept_part`): a report stopped half-way goes on from its last finished part, and
    one asked for again on unchanged rules plays nothing."""
    report = LabReport(content.id, policy, games, seed, turn_cap, title=content.title["en"],
                       scored=greedy_scorer(engine.new_state(engine.min_players, seed=seed)) is not None)
    readings = readings_of(content)
    settings = [games, seed, policy, turn_cap]
    for players in player_counts:
        progress(f"{players} players: {counted(games, 'game')}")
        report.by_players[players] = _kept_part(
            engine, ["games", players, *settings], runner, games,
            lambda: simulate(engine, players, games, seed=seed, policy=policy, turn_cap=turn_cap,
                             runner=runner).as_record(),
            SimulationReport.from_record)
        report.readings[players] = []
        for reading in readings:
            progress(f"{players} players: {reading.label} against the rule as printed")
            try:
                printed = engine.with_params(**dict(reading.base))
                other = printed.with_params(**{reading.param: reading.value})
                other.new_state(players, seed=0)
            except (SetupError, IllegalAction, ValueError, KeyError, TypeError) as exc:
                # A reading some player counts do not allow (teams need four players, say).
                report.readings[players].append((reading, f"not playable with {players} players: {exc}"))
                if runner is not None:
                    runner.advance(2 * games)  # the games a progress count expected it to play
                continue
            comparison = _kept_part(
                other, ["reading", players, printed.params, reading.param, *settings], runner, 2 * games,
                lambda: asdict(compare_readings([printed, other], reading.param, (DEFAULT, reading.value), players,
                                                games, seed, policy, turn_cap, runner)),
                _comparison_from)
            report.readings[players].append((reading, comparison))
    return report


def _kept_part(game, part: list, runner, weight: int, play, read):
    """`read(play())`, the part's figures, played once and kept (`cardgen.checkcache.kept`) under
    the game's rules digest and parameters and the `part`'s settings; read back after (the runner
    told of the `weight` games it did not play). A record that cannot be read back is played again
    and replaced."""
    import hashlib
    import json

    from cardgen.checkcache import forget, kept

    key = hashlib.sha256(json.dumps(["lab", game.rules_digest(), game.params, part], sort_keys=True,
                                    default=repr).encode()).hexdigest()
    played = []
    record = kept(key, lambda: played.append(True) or play())
    value = read(record) if isinstance(record, dict) else None
    if value is None:  # a record of another shape: dropped, and the part played again and kept
        forget(key)
        value = read(kept(key, lambda: played.append(True) or play()))
    if not played and runner is not None:
        runner.advance(weight)
    return value


def _comparison_from(record: dict) -> Comparison | None:
    try:
        return Comparison(**{**record, "values": tuple(record["values"])})
    except (TypeError, KeyError):
        return None


__all__ = ["DEFAULT", "LabReport", "Reading", "measure", "readings_of"]
