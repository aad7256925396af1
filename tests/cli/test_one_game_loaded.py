"""A command on one game imports that game's own package and no other game's."""

from __future__ import annotations

import subprocess
import sys

ONE_PAPER = ["--paper", "a4", "--layout", "home", "--lang", "en", "--workers", "1"]


def test_a_command_on_one_game_loads_that_games_code_alone(tmp_path):
    probe = ("import sys; from cardgen.cli import main\n"
             "try:\n"
             f"    main(['build', 'game-of-trains', '--only', 'cards', *{ONE_PAPER!r}, '--out', {str(tmp_path)!r}])\n"
             "except SystemExit as exit_:\n"
             "    assert not exit_.code, exit_.code\n"
             "print(sorted(m for m in sys.modules if m.startswith('cardgen.games.') and m.count('.') == 2))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "['cardgen.games.game_of_trains']", done.stdout
