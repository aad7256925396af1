"""The command line behaves as its neighbours do: --version, -h, `python -m cardgen`, shell
completion, program options after the command, "did you mean" for games, choices in any case and
listed in the help, help text without stray metavars or broken sentences, clear words for an empty
content folder or a missing file, and JSON or JUnit output for scripts and CI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cardgen import __version__
from cardgen.cli import app
from cardgen.content import PROJECT_CONTENT
from tests.conftest import edit
from tests.test_cli import run

COMMANDS = [c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands]


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def test_version_and_short_help(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"cardgen {__version__}"
    code, short, _ = run(capsys, "build", "-h")
    assert code == 0
    code, long, _ = run(capsys, "build", "--help")
    assert short == long and "Usage: cardgen build" in short


def test_python_m_cardgen_runs_the_command(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cardgen", "--version"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"cardgen {__version__}"


def completions(words: str, cwd) -> list[str]:
    env = {**os.environ, "_CARDGEN_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - 1)}
    done = subprocess.run([sys.executable, "-c", "from cardgen.cli import main; main()"], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=60)
    return done.stdout.split()


def test_shell_completion_completes_commands_and_games(tmp_path):
    assert completions("cardgen bu", tmp_path) == ["build"]
    assert completions("cardgen build game-of", tmp_path) == ["game-of-trains"]
    assert completions("cardgen simulate fl", tmp_path) == ["flamme-rouge"]


def test_program_options_are_accepted_after_the_command(capsys, content_copy):
    edit(content_copy / "game-of-trains" / "game.yaml", "count: 84", "count: 83")
    for args in (["validate", "--content", str(content_copy), "game-of-trains"],
                 ["validate", "game-of-trains", f"--content={content_copy}"]):
        code, _, err = run(capsys, *args)
        assert code == 1 and "states 83 cards" in err
    # In a process of its own: a process embeds one Chinese font, and earlier tests chose one.
    done = subprocess.run([sys.executable, "-c", "from cardgen.cli import main; main()", "preflight", "game-of-trains",
                           "--font", str(content_copy / "none.ttf")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "--font: no font file at" in done.stderr and "No such option" not in done.stderr


def test_a_misspelled_game_gets_a_suggestion_without_the_install_path(capsys):
    code, _, err = run(capsys, "validate", "game-of-train")
    assert code == 2 and "did you mean 'game-of-trains'?" in err
    assert str(PROJECT_CONTENT) not in err and "site-packages" not in err


def test_choices_take_any_case(capsys):
    # Every choice is read before the card size, whose fault then stops the build: the choices passed.
    code, _, err = run(capsys, "build", "--paper", "A4", "--flip", "SHORT", "--sides", "Fronts", "--lang", "EN",
                       "--layout", "HOME", "--card-size", "big")
    assert code == 2 and "--card-size must look like 63x88" in err
    code, _, err = run(capsys, "simulate", "game-of-trains", "--policy", "GREEDY", "--players", "9")
    assert code == 2 and "takes 2-4 players" in err


def test_help_lists_choices_hides_flag_types_and_keeps_sentences_whole(capsys):
    code, out, _ = run(capsys, "build", "--help")
    assert "a4|letter|all" in out and "long|short" in out and "both|fronts|backs" in out
    for command in COMMANDS:
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and "<bool>" not in out, command
    code, out, _ = run(capsys, "--help")
    assert "<bool>" not in out
    # The command list gives each command's whole first sentence, wrapped between words, never cut.
    listing = out.split("Commands:", 1)[1]
    summaries: dict[str, str] = {}
    for line in listing.splitlines():
        words = line.split()
        if words and words[0] in COMMANDS and line.startswith("  ") and not line.startswith("   "):
            command = words[0]
            summaries[command] = " ".join(words[1:])
        elif words:
            summaries[command] += " " + " ".join(words)
    assert set(summaries) == set(COMMANDS)
    for info in app.registered_commands:
        command = info.name or info.callback.__name__.replace("_", "-")
        assert all("\n" not in paragraph for paragraph in info.help.split("\n\n")), command
        assert summaries[command] == info.help.split("\n\n")[0] and summaries[command].endswith("."), command
        assert not summaries[command].endswith("..."), command


def test_an_empty_content_folder_holds_no_game(capsys, tmp_path):
    for command in (["list"], ["build", "--out", str(tmp_path / "out")], ["validate"]):
        code, _, err = run(capsys, "--content", str(tmp_path), *command)
        assert code == 1 and "holds no game" in err, command
    assert not (tmp_path / "out").exists()


def test_verify_says_a_named_file_does_not_exist(capsys, tmp_path):
    code, _, err = run(capsys, "verify", str(tmp_path / "nosuch.yaml"))
    assert code == 2 and "nosuch.yaml: the file does not exist" in err


def test_list_as_json(capsys):
    code, out, _ = run(capsys, "list", "--json")
    games = {row["game"]: row for row in json.loads(out)["games"]}
    assert code == 0 and games["game-of-trains"]["cards"] == 88
    assert games["game-of-trains"]["players_min"] == 2 and games["game-of-trains"]["title"] == "Game of Trains"


def test_validate_as_json_with_and_without_errors(capsys, content_copy):
    code, out, _ = run(capsys, "validate", "game-of-trains", "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] and report["games"][0]["cards"] == 88
    edit(content_copy / "game-of-trains" / "game.yaml", "count: 84", "count: 83")
    code, out, _ = run(capsys, "--content", str(content_copy), "validate", "game-of-trains", "--json")
    report = json.loads(out)
    assert code == 1 and not report["ok"]
    assert any("states 83 cards" in e["message"] and e["file"].endswith("game.yaml") and e["line"] > 0
               for e in report["errors"])


def broken_scenario(content_copy: Path) -> Path:
    path = content_copy / "game-of-trains" / "scenarios" / "zz-broken.yaml"
    path.write_text("title: an expectation that is wrong\nplayers: 2\nsetup:\n"
                    "  trains: {P1: [1, 2, 3, 4, 5, 7, 6], P2: [80, 70, 60, 50, 40, 30, 20]}\n"
                    "  market: [9]\nsteps:\n  - expect: {market: [10]}\n", "utf-8")
    return path


def test_verify_as_json_and_junit(capsys, content_copy, tmp_path):
    good = sorted((content_copy / "game-of-trains" / "scenarios").glob("*.yaml"))[:2]
    bad = broken_scenario(content_copy)
    report_file = tmp_path / "reports" / "verify.xml"
    code, out, _ = run(capsys, "--content", str(content_copy), "verify", *map(str, good), str(bad), "--json",
                       "--junit", str(report_file))
    report = json.loads(out)
    assert code == 1 and report["replayed"] == 3 and report["failed"] == 1 and not report["ok"]
    failed = [s for s in report["scenarios"] if not s["ok"]]
    assert len(failed) == 1 and "market: expected [10], actual [9]" in failed[0]["failures"][0]
    suite = ET.parse(report_file).getroot().find("testsuite")
    assert suite.get("name") == "game-of-trains" and suite.get("tests") == "3" and suite.get("failures") == "1"
    failures = [case for case in suite.iter("testcase") if case.find("failure") is not None]
    assert len(failures) == 1 and failures[0].get("name").startswith("zz-broken.yaml")


def test_verify_as_json_reports_static_faults_as_json(capsys, tmp_path):
    path = tmp_path / "faulty.yaml"
    path.write_text("title: t\nplayers: 2\nsteps:\n  - expect: {markt: [9]}\n", "utf-8")
    code, out, err = run(capsys, "verify", "--game", "game-of-trains", str(path), "--json")
    report = json.loads(out)
    assert code == 1 and not report["ok"] and report["replayed"] == 0 and err == ""
    (error,) = report["errors"]
    assert error["line"] == 4 and "did you mean 'market'?" in error["message"]


def test_junit_lists_faults_found_before_replay(capsys, tmp_path):
    path = tmp_path / "faulty.yaml"
    path.write_text("title: t\nplayers: 2\nsteps:\n  - expect: {markt: [9]}\n  - P7: draw place 1\n", "utf-8")
    report_file = tmp_path / "verify.xml"
    code, _, err = run(capsys, "verify", "--game", "game-of-trains", str(path), "--junit", str(report_file))
    assert code == 1 and "2 errors found before replay" in err
    suite = ET.parse(report_file).getroot().find("testsuite")
    assert suite.get("failures") == "2" and len(list(suite.iter("failure"))) == 2


def test_positions_and_json_do_not_mix(capsys):
    code, _, err = run(capsys, "verify", "game-of-trains", "--json", "--trace")
    assert code == 2 and "leave out --json" in err
