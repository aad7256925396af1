"""The balance lab's measurements: for every player count, seeded playouts (win rate by seat with
95 % intervals, game lengths, games stopped by the cap) and, for every ruling that offers another
reading, the same games played under each reading side by side.

Nothing here draws; `cardgen.balance` turns a `LabReport` into a PDF.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    """Play the lab's games: `games` per player count, and as many per reading and player count."""
    report = LabReport(content.id, policy, games, seed, turn_cap, title=content.title["en"],
                       scored=greedy_scorer(engine.new_state(engine.min_players, seed=seed)) is not None)
    readings = readings_of(content)
    for players in player_counts:
        progress(f"{players} players: {counted(games, 'game')}")
        report.by_players[players] = simulate(engine, players, games, seed=seed, policy=policy,
                                              turn_cap=turn_cap, runner=runner)
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
            comparison = compare_readings([printed, other], reading.param, (DEFAULT, reading.value), players,
                                          games, seed, policy, turn_cap, runner)
            report.readings[players].append((reading, comparison))
    return report


__all__ = ["DEFAULT", "LabReport", "Reading", "measure", "readings_of"]
