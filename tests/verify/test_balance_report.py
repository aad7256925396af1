"""The balance lab's report builds for every game, says what was measured, and is the same file
for the same games."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest

from cardgen.balance import render_balance_report
from cardgen.cli import main
from cardgen.content import load_games
from cardgen.registry import definition_for, engine_for
from verify.compare import wilson
from verify.lab import measure, readings_of

CONTENT = Path(__file__).resolve().parents[2] / "content"
GAMES = ("flamme-rouge", "game-of-trains", "moscow-to-paris", "spectral-rails", "ticket-to-ride-card-game")


def _text(path: Path) -> str:
    pdf = pypdfium2.PdfDocument(str(path))
    return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_report_builds_for_every_game_from_the_command_line(game_id, tmp_path, capsys):
    out = tmp_path / "report.pdf"
    with pytest.raises(SystemExit) as exit:
        main(["report", game_id, "--games", "2", "--players", "3", "--workers", "1", "--out", str(out)])
    assert exit.value.code in (0, None), capsys.readouterr()
    text = _text(out)
    assert "3 players" in text and "Win rate by seat" in text and "Game length" in text
    contents, _ = load_games(CONTENT, [game_id])
    # The game named as its rule sheet names it, and by the id the command line takes.
    assert f"Balance report: {contents[0].title['en']}" in text and f"2 games of {game_id} for each" in text
    # Table cells wrap long names at their hyphens, which the text layer marks as U+FFFE.
    flat = "".join(ch for ch in text.replace("\ufffe", "-") if not ch.isspace())
    for reading in readings_of(contents[0]):
        assert reading.ruling.split(",")[0] in flat
    # Every figure the rule sheet prints, beside the dealt games, and none of them disagreeing.
    events = definition_for(game_id).odds_events(contents[0])
    assert ("The rule sheet's odds against dealt games" in text) == bool(events)
    for event in events:
        assert f"{float(event.exact):.4f}" in text
    assert "(disagrees)" not in text


def test_the_report_prints_the_measured_rates_with_their_intervals(tmp_path, monkeypatch):
    contents, _ = load_games(CONTENT, ["flamme-rouge"])
    engine = engine_for(contents[0])
    lab = measure(engine, contents[0], [2], games=12, seed=3)
    path = render_balance_report(lab, tmp_path / "a.pdf")
    text = _text(path)
    sim = lab.by_players[2]
    assert sum(sim.wins.values()) + sim.shared + sim.capped + len(sim.failures) == 12
    for seat, wins in sim.wins.items():
        low, high = wilson(wins, 12)
        assert f"{100 * wins / 12:.1f} %" in text and f"{100 * low:.1f} % - {100 * high:.1f} %" in text
    # The same games, played again (not read back from the cache), give the same file, byte for byte.
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "fresh-cache"))
    again = render_balance_report(measure(engine, contents[0], [2], games=12, seed=3), tmp_path / "b.pdf")
    assert path.read_bytes() == again.read_bytes()


def test_a_reading_a_player_count_cannot_play_says_so_across_the_figures(tmp_path):
    contents, _ = load_games(CONTENT, ["moscow-to-paris"])
    lab = measure(engine_for(contents[0]), contents[0], [2], games=4, seed=3)
    reading = next(r for r, _ in lab.readings[2] if r.base)
    assert reading.label == "homeland_row=russia, homeland=true"  # as --param takes them
    lab.readings[2].append((reading, "not playable with 2 players: teams need 4"))
    lines = _text(render_balance_report(lab, tmp_path / "r.pdf")).splitlines()
    # One line across the three figures' columns, not wrapped in the first of them.
    assert any("not playable with 2 players: teams need 4" in line for line in lines)


def test_a_reading_that_changed_no_game_says_it_never_came_into_play(tmp_path, capsys):
    """Ticket to Ride's second deal is a four-player rule: at two players every game goes action for
    action as under the rule as printed, which the report says instead of three zeros; at four
    players the deal order changes games."""
    contents, _ = load_games(CONTENT, ["ticket-to-ride-card-game"])
    engine = engine_for(contents[0])
    lab = measure(engine, contents[0], [2, 4], games=6, seed=1)
    by_ruling = {players: {r.ruling: c for r, c in lab.readings[players]} for players in (2, 4)}
    assert by_ruling[2]["second-deal-order"].differed == 0 and by_ruling[4]["second-deal-order"].differed > 0
    text = _text(render_balance_report(lab, tmp_path / "r.pdf"))
    assert text.count("never came into play") == sum(not c.differed for p in (2, 4) for c in by_ruling[p].values())
    with pytest.raises(SystemExit):
        main(["simulate", "ticket-to-ride-card-game", "--players", "2", "--games", "3", "--policy", "greedy",
              "--workers", "1", "--compare", "second_deal=one-at-a-time,four-at-a-time"])
    assert "the rule never came into play" in capsys.readouterr().out


@pytest.mark.parametrize("game_id, scored", [("flamme-rouge", False), ("game-of-trains", True)])
def test_the_report_says_when_greedy_play_is_random_play(tmp_path, capsys, game_id, scored):
    """Flamme Rouge's engine scores no position: its greedy games are random games, and neither the
    report nor simulate may pass them off as consistent play."""
    with pytest.raises(SystemExit):
        main(["simulate", game_id, "--players", "2", "--games", "1", "--policy", "greedy", "--workers", "1"])
    assert ("greedy play is random play" in capsys.readouterr().out) == (not scored)
    contents, _ = load_games(CONTENT, [game_id])
    lab = measure(engine_for(contents[0]), contents[0], [2], games=2, seed=1)
    text = " ".join(_text(render_balance_report(lab, tmp_path / "r.pdf")).split())
    assert ("greedy play is random play here" in text) == (not scored)
    assert ("strongest single-move choice" in text) == scored


def test_a_report_asked_for_again_plays_only_what_it_has_not_kept(tmp_path, monkeypatch):
    """Each part of a report (a player count's games, a reading's comparison) is kept once played:
    asked for again on the same rules it plays nothing and gives the same figures; a stopped one
    goes on from its last finished part; other settings, or a damaged record, play again."""
    import verify.lab as lab_module
    from verify.workers import Runner

    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    contents, _ = load_games(CONTENT, ["ticket-to-ride-card-game"])
    engine, content = engine_for(contents[0]), contents[0]
    calls = []
    simulate, compare_readings = lab_module.simulate, lab_module.compare_readings
    monkeypatch.setattr(lab_module, "simulate", lambda *a, **k: calls.append("games") or simulate(*a, **k))
    monkeypatch.setattr(lab_module, "compare_readings", lambda *a, **k: calls.append("reading") or compare_readings(*a, **k))
    parts = 1 + len(readings_of(content))
    first = measure(engine, content, [2], games=3, seed=4)
    assert len(calls) == parts
    counted: list[int] = []
    again = measure(engine, content, [2], games=3, seed=4, runner=Runner(1, progress=counted.append))
    assert len(calls) == parts and sum(counted) == 3 * (1 + 2 * len(readings_of(content)))
    assert again.by_players[2].fingerprint == first.by_players[2].fingerprint
    assert again.readings == first.readings
    measure(engine, content, [2], games=3, seed=5)  # another seed: played
    assert len(calls) == 2 * parts
    for record in (tmp_path / "cache" / "checks").iterdir():
        record.write_text('[{"not": "a report"}]', "utf-8")
    damaged = measure(engine, content, [2], games=3, seed=4)
    assert len(calls) == 3 * parts and damaged.readings == first.readings
    measure(engine, content, [2], games=3, seed=4)  # the damaged records were replaced
    assert len(calls) == 3 * parts
