"""Progress that tells something: on a terminal a bar with the count of files or scenarios, the
game and file at hand and the time left; piped, plain lines; verify says when it re-measures the
rulings' comparisons; a build closes with the file to open first and where the card sheets are."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys

import pytest

from cardgen.content import PROJECT_CONTENT

SCENARIOS = sorted((PROJECT_CONTENT / "game-of-trains" / "scenarios").glob("*.yaml"))[:3]
CARDGEN = [sys.executable, "-c", "from cardgen.cli import main; main()"]


def on_a_terminal(args, cwd) -> tuple[int, str, str]:
    """Run cardgen with its stderr on a pseudo-terminal; (exit status, what the terminal showed,
    stdout)."""
    import pty

    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "160", "TERM": "xterm"}
    process = subprocess.Popen(CARDGEN + args, stdin=follower, stdout=subprocess.PIPE, stderr=follower,
                               env=env, cwd=cwd)
    os.close(follower)
    shown = []
    while True:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                data = os.read(leader, 65536)
            except OSError:
                break
            if not data:
                break
            shown.append(data)
        elif process.poll() is not None:
            break
    stdout = process.stdout.read().decode()
    os.close(leader)
    return process.wait(timeout=60), b"".join(shown).decode("utf-8", "replace"), stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_verify_shows_a_bar_with_the_count_and_the_file_on_a_terminal(tmp_path):
    code, shown, stdout = on_a_terminal(["verify", *map(str, SCENARIOS)], tmp_path)
    assert code == 0, shown
    assert "3/3" in shown and "scenarios" in shown and f"game-of-trains/{SCENARIOS[-1].name}" in shown
    assert re.search(r"\d:\d\d:\d\d", shown)  # the time left
    assert "3 scenarios replayed, 0 failed" in stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_build_shows_a_bar_with_the_count_of_files_on_a_terminal(tmp_path):
    code, shown, stdout = on_a_terminal(["build", "game-of-trains", "--paper", "a4", "--layout", "home",
                                         "--lang", "en", "--out", str(tmp_path / "out")], tmp_path)
    assert code == 0, shown
    written = sum(1 for p in (tmp_path / "out").rglob("*") if p.is_file())
    # The bar counts up to every file the build writes, and ends there.
    assert f"{written}/{written}" in shown and f"{written + 1}/" not in shown
    assert "files" in shown and "game-of-trains/" in shown


def test_piped_output_is_plain_lines_ending_with_where_to_start(tmp_path):
    done = subprocess.run(CARDGEN + ["build", "game-of-trains", "--paper", "a4", "--layout", "home", "--lang", "en",
                                     "--out", "out"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stderr + done.stdout
    assert "building game-of-trains" in done.stderr.splitlines()
    assert done.stdout.splitlines()[-1] == (
        "open out/game-of-trains/assembly-a4-en.pdf first: it says what to print, on what, and how to cut and "
        "assemble; the card sheets (cards-*.pdf) are in out/game-of-trains/")


def test_verify_says_when_it_re_measures_the_rulings(capsys):
    from tests.test_cli import run

    code, out, _ = run(capsys, "verify", "game-of-trains")
    lines = out.splitlines()
    notice = next(i for i, line in enumerate(lines) if "re-measuring" in line)
    assert code == 0 and "ruling comparison" in lines[notice]
    assert all("ruling" in line for line in lines[notice + 1:-1])
