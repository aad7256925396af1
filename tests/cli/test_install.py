"""A pip user's first commands: the wheel, installed into a fresh environment on a machine with no
Chinese font, builds and checks a game from any folder, in English, and says in one line what it
left out.

The fresh environment has no packages of its own besides cardgen's wheel; the libraries cardgen
depends on are lent from the test environment by a path file (installing them from an index
would need the network), and the test checks that every one the wheel declares is there. The
project's folder is out of sight: the commands run from another folder, and the wheel is built
from a copy of the sources.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("cardgen", "verify", "content", "README.md", "LICENSE", "pyproject.toml", "setup.py")


def run(argv, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=600, **kwargs)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, dict]:
    """(bin folder of a fresh environment holding the installed wheel, environment variables that
    hide every Chinese font)."""
    tmp = tmp_path_factory.mktemp("install")
    source = tmp / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    done = run([sys.executable, "-m", "pip", "wheel", source, "--no-deps", "--no-build-isolation", "--no-index",
                "-w", tmp / "wheels"])
    assert done.returncode == 0, done.stderr
    (wheel,) = (tmp / "wheels").glob("cardgen-*.whl")
    env_dir = tmp / "fresh"
    done = run([sys.executable, "-m", "venv", "--without-pip", env_dir])
    assert done.returncode == 0, done.stderr
    python = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    done = run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", wheel])
    assert done.returncode == 0, done.stderr
    fresh_site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    lent = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (fresh_site / "lent-dependencies.pth").write_text("".join(f"{p}\n" for p in sorted(lent)), "utf-8")
    home = tmp / "home"
    fonts = tmp / "no-fonts"
    fonts.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith("CARDGEN_")}
    env.update(CARDGEN_FONT_PATH=str(fonts), HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"),
               PATH=f"{python.parent}{os.pathsep}{env.get('PATH', '')}", PYTHONDONTWRITEBYTECODE="1")
    return python.parent, env


@pytest.mark.slow
def test_the_wheel_declares_what_it_needs_and_runs_from_the_fresh_environment(installed, tmp_path):
    bin_dir, env = installed
    check = ("import importlib.metadata as m, re, cardgen\n"
             "missing = [r for r in m.requires('cardgen') if 'extra ==' not in r\n"
             "           and not m.distribution(re.split('[<>=! ;]', r)[0])]\n"
             "print(cardgen.__file__); print(missing)")
    done = run([bin_dir / "python", "-c", check], cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    location, missing = done.stdout.splitlines()
    assert Path(location).is_relative_to(bin_dir.parent) and missing == "[]"
    done = run([bin_dir / "python", "-m", "cardgen", "--version"], cwd=tmp_path, env=env)
    assert done.returncode == 0 and done.stdout.startswith("cardgen ")


@pytest.mark.slow
def test_build_and_preflight_from_another_folder_without_a_chinese_font(installed, tmp_path):
    bin_dir, env = installed
    cardgen = bin_dir / ("cardgen.exe" if os.name == "nt" else "cardgen")
    done = run([cardgen, "build", "game-of-trains"], cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    notes = [line for line in (done.stdout + done.stderr).splitlines() if "Chinese" in line]
    assert len(notes) == 1 and "Chinese left out" in notes[0], done.stderr
    built = sorted(p.name for p in (tmp_path / "output" / "game-of-trains").iterdir())
    assert {"rules-a4-en.pdf", "cards-a4-home.pdf", "assembly-a4-en.pdf"} <= set(built)
    assert not any("zh-Hant" in name for name in built)
    assert "open output/game-of-trains/assembly-a4-en.pdf first" in done.stdout

    done = run([cardgen, "preflight", "game-of-trains"], cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert len([line for line in done.stderr.splitlines() if "Chinese left out" in line]) == 1

    done = run([cardgen, "preflight", "game-of-trains", "--lang", "zh-Hant"], cwd=tmp_path, env=env)
    assert done.returncode == 2 and "no Chinese font was found" in done.stderr and "Traceback" not in done.stderr
