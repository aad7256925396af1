"""Scenarios you can debug: `verify FILE --show N` prints the whole position after step N, `--trace`
after every step, and every static fault of a file is reported at once, before any replay."""

from __future__ import annotations

import yaml

from cardgen.content import PROJECT_CONTENT
from tests.test_cli import run

SWAP = PROJECT_CONTENT / "game-of-trains" / "scenarios" / "ability-1-couple.yaml"


def positions(out: str) -> dict[str, dict]:
    """Title line -> the YAML document printed under it."""
    blocks, title = {}, None
    for line in out.splitlines():
        if line.startswith("--- "):
            title = line[4:]
            blocks[title] = []
        elif title is not None and (line.startswith(" ") or line.split(":")[0] in ("to move", "zones", "fields", "seen by")):
            blocks[title].append(line)
        else:
            title = None
    return {t: yaml.safe_load("\n".join(lines)) for t, lines in blocks.items()}


def test_show_prints_every_zone_and_what_each_player_sees_after_the_step(capsys):
    code, out, err = run(capsys, "verify", str(SWAP), "--show", "2")
    assert code == 0, err
    (title, position), = positions(out).items()
    assert title == "after step 2: P1: use 12 swap 3 2"
    assert position["zones"]["train.P1 (everyone)"] == [5, 15, 20, 30, 45, 35, 60]
    assert position["zones"]["discard (everyone)"] == [12]
    assert len(position["zones"]["pile (nobody)"]) == 69  # hidden zones are shown whole here
    assert position["to move"] == ["P2"]
    assert set(position["seen by"]) == {"P1", "P2"}
    assert position["seen by"]["P2"]["draw_size"] == 69 and "pile" not in position["seen by"]["P2"]


def test_trace_prints_the_start_and_every_step(capsys):
    code, out, _ = run(capsys, "verify", str(SWAP), "--trace")
    titles = list(positions(out))
    assert code == 0 and titles[0] == "start" and len(titles) == 4
    assert [t.split(":")[0] for t in titles[1:]] == ["after step 1", "after step 2", "after step 3"]


def test_show_names_a_step_the_replay_never_reached(capsys):
    code, _, err = run(capsys, "verify", str(SWAP), "--show", "9")
    assert "no position after step 9: the replay stopped after step 3" in err


def test_a_failing_step_shows_the_position_where_it_stopped(capsys, tmp_path):
    path = tmp_path / "wrong.yaml"
    path.write_text("title: t\nplayers: 2\nsetup:\n  trains: {P1: [1, 2, 3, 4, 5, 7, 6], P2: [80, 70, 60, 50, 40, 30, 20]}\n"
                    "  market: [9]\nsteps:\n  - P1: draw place 1\n  - expect: {market: [10]}\n", "utf-8")
    code, out, _ = run(capsys, "verify", "--game", "game-of-trains", str(path), "--show", "2")
    assert code == 1 and "--- after step 2: expect: {\"market\": [10]}" in out


def test_every_static_fault_is_reported_at_once_before_replay(capsys, tmp_path):
    path = tmp_path / "faults.yaml"
    path.write_text(
        "title: several faults\nplayers: 2\nsetup:\n"
        "  trains: {P1: [1, 2, 3, 4, 5, 7, 6], P2: [80, 70, 60, 50, 40, 30, 20]}\n  market: [9]\n"
        "steps:\n"
        "  - expect: {markt: [9]}\n"           # line 7: unknown field
        "  - P3: draw place 1\n"               # line 8: no such player
        "  - P1: fly to the moon\n"            # line 9: unreadable action
        "  - P1: fly to the moon\n    rejects: cannot\n"   # a refusal may be unreadable on purpose
        "  - observe: {P2: {marke: [9]}}\n"    # line 12: unknown observed field
        "  - expct: {market: [9]}\n",          # line 13: misspelled step kind
        "utf-8")
    code, out, err = run(capsys, "verify", "--game", "game-of-trains", str(path))
    assert code == 1 and "replayed" not in out and "pass" not in out
    lines = err.strip().splitlines()
    assert lines[-1] == "5 errors found before replay"
    assert f"{path}:7:" in lines[0] and "unknown expect field 'markt'; did you mean 'market'?" in lines[0]
    assert f"{path}:8:" in lines[1] and "'P3'" in lines[1]
    assert f"{path}:9:" in lines[2] and "cannot read the action 'fly to the moon'" in lines[2]
    assert f"{path}:12:" in lines[3] and "did you mean 'market'?" in lines[3]
    assert f"{path}:13:" in lines[4] and "did you mean 'expect'?" in lines[4]
