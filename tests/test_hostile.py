"""Hostile or broken content, options and faults: one case per class. Each asserts the exit status,
a message that names the place, no traceback, a time limit, no network access (a local server
fails the test if contacted) and no file changed outside --out."""

from __future__ import annotations

import hashlib
import re
import http.server
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from cardgen.cli import main
from cardgen.content import PROJECT_CONTENT
from tests.conftest import edit

GAME = "game-of-trains"
LIMIT_S = 60  # a hang, not a timing figure


@pytest.fixture
def content(tmp_path) -> Path:
    """A copy of one game (with the schemas), which a test may break."""
    target = tmp_path / "content"
    shutil.copytree(PROJECT_CONTENT / GAME, target / GAME)
    shutil.copytree(PROJECT_CONTENT / "schema", target / "schema")
    return target


@pytest.fixture
def trap():
    """A server on this machine that records every request: content must never make one."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            hits.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()


def snapshot(*folders: Path) -> dict[str, str]:
    found = {}
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file() and not path.is_symlink():
                found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def run(capsys, *args) -> tuple[int, str, str]:
    start = time.perf_counter()
    with pytest.raises(SystemExit) as info:
        main(list(args))
    assert time.perf_counter() - start < LIMIT_S
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return info.value.code, out, err


def refused(capsys, content: Path, *args, status: int = 1) -> str:
    """Run a command that must fail, leaving the content folder as it was; return its stderr."""
    before = snapshot(content)
    code, _, err = run(capsys, "--content", str(content), *args)
    assert code == status, err
    assert snapshot(content) == before
    return err


def validate_error(capsys, content: Path) -> str:
    return refused(capsys, content, "validate", GAME)


# --- security -------------------------------------------------------------------------------------

def test_markup_in_a_rule_text_prints_as_text_and_fetches_nothing(capsys, content, tmp_path, trap):
    url, hits = trap
    rules = content / GAME / "rules.yaml"
    data = yaml.safe_load(rules.read_text("utf-8"))
    hostile = f"Deck <img src='{url}/x.png'/> <img src='/etc/hostname'/> & <b "
    data["sections"][0]["body"]["en"] = hostile + data["sections"][0]["body"]["en"]
    rules.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    out = tmp_path / "out"
    code, _, err = run(capsys, "--content", str(content), "build", GAME, "--paper", "a4", "--layout", "home", "--out", str(out))
    assert code == 0, err
    assert hits == []
    printed = " ".join(page.extract_text() for page in PdfReader(out / GAME / "rules-a4-en.pdf").pages)
    assert "<img src=" in printed and "& <b" in printed


def test_a_link_out_of_the_content_folder_is_refused_and_not_echoed(capsys, content):
    secret = content.parent / "secret.txt"
    secret.write_text("password: hunter2\n", "utf-8")
    (content / GAME / "extra.yaml").symlink_to(secret)
    err = validate_error(capsys, content)
    assert "extra.yaml" in err and "link that leads out of the content folder" in err and "hunter2" not in err


def test_a_format_spec_in_a_placeholder_is_refused(capsys, content):
    edit(content / GAME / "rules.yaml", "{carriages}", "{carriages:>99999999999}")
    err = validate_error(capsys, content)
    assert "rules.yaml:" in err and "bad placeholder" in err


def test_attribute_access_in_a_placeholder_is_refused(capsys, content):
    edit(content / GAME / "rules.yaml", "{carriages}", "{carriages.__class__}")
    assert "bad placeholder" in validate_error(capsys, content)


# --- content the schema lets through ----------------------------------------------------------------

def test_nan_and_infinity_are_refused(capsys, content):
    edit(content / GAME / "game.yaml", "width_mm: 63", "width_mm: .nan")
    err = validate_error(capsys, content)
    assert "game.yaml:" in err and "not a finite number" in err


def test_a_huge_count_is_refused(capsys, content):
    edit(content / GAME / "game.yaml", "count: 84", "count: 1000000000")
    err = validate_error(capsys, content)
    assert "game.yaml:" in err and "1000000000 is greater than the maximum" in err


def test_an_unknown_key_is_refused_with_a_suggestion(capsys, content):
    path = content / GAME / "game.yaml"
    path.write_text(path.read_text("utf-8") + "componets: []\n")
    err = validate_error(capsys, content)
    assert "unknown key 'componets'; did you mean 'components'?" in err


def test_a_yaml_1_1_boolean_key_stays_a_word(capsys, content):
    path = content / GAME / "game.yaml"
    path.write_text(path.read_text("utf-8") + "on: true\n")
    assert "unknown key 'on'" in validate_error(capsys, content)


def test_deep_nesting_is_reported_at_its_line(capsys, content):
    path = content / GAME / "game.yaml"
    lines = len(path.read_text("utf-8").splitlines())
    path.write_text(path.read_text("utf-8") + "deep: " + "[" * 3000 + "]" * 3000 + "\n")
    assert f"game.yaml:{lines + 1}:" in validate_error(capsys, content)


def test_a_character_no_font_has_is_named(capsys, content):
    edit(content / GAME / "game.yaml", "en: Game of Trains", "en: Game of Trains \U0001F682")
    err = validate_error(capsys, content)
    assert "game.yaml:" in err and "U+1F682" in err


def test_a_schema_ref_loop_is_named(capsys, content):
    edit(content / "schema" / "common.schema.json", '"colour": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},',
         '"colour": {"$ref": "#/$defs/colour2"}, "colour2": {"$ref": "#/$defs/colour"},')
    err = validate_error(capsys, content)
    assert "common.schema.json" in err and "$ref loop" in err


def test_a_broken_common_schema_is_blamed_on_itself(capsys, content):
    (content / "schema" / "common.schema.json").write_text('{"$defs": ', "utf-8")
    err = validate_error(capsys, content)
    assert "common.schema.json:1:" in err and "broken schema" in err


def test_yaml_bombs_and_python_tags_are_refused(capsys, content):
    bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for prev, name in zip("abcdefg", "bcdefgh"):
        bomb.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    (content / GAME / "bomb.yaml").write_text("\n".join(bomb) + "\n", "utf-8")
    (content / GAME / "tag.yaml").write_text("x: !!python/object/apply:os.system ['true']\n", "utf-8")
    err = validate_error(capsys, content)
    assert "bomb.yaml:" in err and "tag.yaml:1:" in err and "unsupported tag" in err


# --- options and faults -------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ("simulate", GAME, "--games", "-1"), ("simulate", GAME, "--turn-cap", "-1"), ("simulate", GAME, "--players", "0"),
    ("build", GAME, "--out", ""), ("build", GAME, "--paper", "a3"), ("build", GAME, "--lang", "fr"),
])
def test_bad_options_are_usage_errors(capsys, content, args):
    refused(capsys, content, *args, status=2)


def test_an_output_that_cannot_be_a_folder_is_one_line(capsys, content, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", "utf-8")
    err = refused(capsys, content, "build", GAME, "--paper", "a4", "--out", str(blocker / "out"))
    assert len(err.strip().splitlines()) == 1 and "cannot write" in err
    err = refused(capsys, content, "build", GAME, "--paper", "a4", "--out", "/proc/cardgen-out")
    assert "cannot write" in err and "/proc/cardgen-out" in err
    assert blocker.read_text("utf-8") == "not a folder"


def test_a_fault_found_during_the_build_leaves_the_output_folder_as_it_was(capsys, content, tmp_path):
    out = tmp_path / "out"
    code, _, err = run(capsys, "--content", str(content), "build", GAME, "--paper", "a4", "--out", str(out))
    assert code == 0, err
    (out / "keep.txt").write_text("mine", "utf-8")
    before = snapshot(out)
    # Worked examples that no longer replay are found only when the rule sheet is made.
    broken = []
    for scenario in (content / GAME / "scenarios").glob("*.yaml"):
        text = scenario.read_text("utf-8")
        if "  - expect:" in text:
            scenario.write_text(text.replace("  - expect:", "  - expect: {no_such_field: 1}\n  - expect:", 1), "utf-8")
            broken.append(scenario.name)
    code, _, err = run(capsys, "--content", str(content), "build", GAME, "--paper", "a4", "--out", str(out))
    assert code == 1 and any(name in err for name in broken), err
    assert snapshot(out) == before
    assert not [p for p in tmp_path.iterdir() if "staging" in p.name]


def test_ctrl_c_during_a_build_exits_130_and_changes_nothing(content, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine", "utf-8")
    before = snapshot(out)
    # Every layout (a PNG of every card among them) keeps the build drawing for seconds after its
    # first file is done, which its first progress line says: Ctrl-C lands in the middle.
    process = subprocess.Popen([sys.executable, "-m", "cardgen.cli", "--content", str(content), "build", GAME,
                                "--layout", "all", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    said = []
    while not said or not said[-1].startswith("building"):
        said.append(process.stderr.readline())
        assert said[-1], said
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=LIMIT_S)
    err = "".join(said) + err
    assert process.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert snapshot(out) == before


def test_ctrl_c_during_simulate_exits_130(content, tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "cardgen.cli", "--content", str(content), "simulate", GAME,
                                "--games", "1000000", "--failures", str(tmp_path / "f")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    time.sleep(2.5)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=LIMIT_S)
    assert process.returncode == 130 and "interrupted" in err and "Traceback" not in err


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
def test_ctrl_c_at_a_terminal_reaches_every_worker_and_prints_no_traceback(content, tmp_path):
    """A terminal sends Ctrl-C to the whole process group: the workers leave it to the command,
    which stops them and says so in one line."""
    process = subprocess.Popen([sys.executable, "-m", "cardgen.cli", "--content", str(content), "simulate", GAME,
                                "--games", "1000000", "--workers", "2", "--failures", str(tmp_path / "f")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               start_new_session=True)
    time.sleep(2.5)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=LIMIT_S)
    assert process.returncode == 130 and "interrupted" in err and "Traceback" not in err, err


def _poison(data, payload: str):
    """Every language text in `data` with `payload` added to its end."""
    if isinstance(data, dict):
        return {k: (v + payload if k in ("en", "zh-Hant") and isinstance(v, str) else _poison(v, payload))
                for k, v in data.items()}
    if isinstance(data, list):
        return [_poison(v, payload) for v in data]
    return data


@pytest.mark.parametrize("game", sorted(p.parent.name for p in PROJECT_CONTENT.glob("*/game.yaml")))
def test_every_text_of_every_game_stays_plain_text_in_every_renderer(game, tmp_path, trap):
    """Markup, entities and image tags in every text of a game reach every renderer (card faces,
    boards, tiles, rule sheets) as plain text: nothing is fetched and nothing breaks."""
    from cardgen.build import build_game
    from cardgen.content import load_game
    from cardgen.yamlio import load_yaml

    url, hits = trap
    content_dir = tmp_path / "content"
    shutil.copytree(PROJECT_CONTENT / game, content_dir / game)
    payload = f" <img src='{url}/x.png'/>&amp;<b"
    for path in sorted((content_dir / game).rglob("*.yaml")):
        data, _ = load_yaml(path)
        path.write_text(yaml.safe_dump(_poison(data, payload), allow_unicode=True, sort_keys=False), "utf-8")
    content = load_game(content_dir, game)
    written = build_game(content, tmp_path / "out", papers=("a4",), layouts=("home",))
    assert written and hits == []
    rules = next(p for p in written if p.name == "rules-a4-en.pdf")
    assert "<img src=" in " ".join(page.extract_text() for page in PdfReader(rules).pages)


# --- second round: every case is run under a witness ------------------------------------------------
#
# Each case below checks the exit status, a message naming the place at fault, no traceback, a time
# limit, that no file outside the content folder was opened (an audit hook records every open) and
# that nothing under the test's folder changed: neither the content nor the output folder.

_opened: list[str] | None = None


def _record_opens(event, args):
    """Files opened for reading (the build writes and rereads its own files in its staging folder)."""
    if _opened is None or event != "open" or not args or not isinstance(args[0], (str, bytes, os.PathLike)):
        return
    mode, flags = args[1], args[2]
    reading = ("r" in mode or "+" in mode) if isinstance(mode, str) else (flags or 0) & os.O_ACCMODE != os.O_WRONLY
    if reading:
        _opened.append(os.path.realpath(os.fsdecode(args[0])))


sys.addaudithook(_record_opens)  # audit hooks stay for the process; it records only inside `attack`


def tree_state(folder: Path) -> dict[str, object]:
    """Every entry under `folder` with what it holds: a hash for a small file, size and time for a
    big one (a 10 GB sparse file is never read), the target of a link, the kind of anything else."""
    found: dict[str, object] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            info = os.lstat(path)
            if os.path.islink(path):
                found[path] = ("link", os.readlink(path))
            elif not os.path.isfile(path) or os.path.isdir(path):
                found[path] = ("other", info.st_mode)
            elif info.st_size > 1 << 20:
                found[path] = ("big", info.st_size, info.st_mtime_ns)
            else:
                found[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return found


@pytest.fixture
def out(tmp_path) -> Path:
    """An output folder holding a file of the user's: it must survive every failed run."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine", "utf-8")
    return folder


def attack(capsys, content: Path, *args, status: int = 1, limit: float = LIMIT_S, inside: tuple = ()) -> str:
    """Run `cardgen --content CONTENT ARGS` and check what every hostile case must hold; return
    everything it printed."""
    global _opened
    scratch = content.parent
    before = tree_state(scratch)
    _opened = []
    start = time.perf_counter()
    try:
        with pytest.raises(SystemExit) as info:
            main(["--content", str(content), *args])
    finally:
        opened, _opened = _opened, None
    elapsed = time.perf_counter() - start
    printed, err = capsys.readouterr()
    printed += err
    assert info.value.code == status, printed[-3000:]
    assert "Traceback" not in printed
    assert elapsed < limit, f"took {elapsed:.1f} s"
    allowed = [os.path.realpath(content), *(os.path.realpath(p) for p in inside)]
    root = os.path.realpath(scratch) + os.sep
    strays = [p for p in opened if p.startswith(root) and ".staging-" not in p.removeprefix(root).split(os.sep)[0]
              and not any(p == a or p.startswith(a + os.sep) for a in allowed)]
    assert not strays, f"read outside the content folder: {strays}"
    assert tree_state(scratch) == before, "files changed"
    return printed


def copy_game(tmp_path: Path, game: str, schemas: bool = False) -> Path:
    target = tmp_path / "content"
    shutil.copytree(PROJECT_CONTENT / game, target / game)
    if schemas:
        shutil.copytree(PROJECT_CONTENT / "schema", target / "schema")
    return target


# --- holes -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("linked", ["file", "folder"])
def test_a_schema_linked_out_of_the_content_folder_is_refused_unread(capsys, content, tmp_path, out, linked):
    outside = tmp_path / "outside"
    shutil.copytree(content / "schema", outside)
    (outside / f"{GAME}.schema.json").write_text('{"hunter2": ', "utf-8")
    if linked == "file":
        (content / "schema" / f"{GAME}.schema.json").unlink()
        (content / "schema" / f"{GAME}.schema.json").symlink_to(outside / f"{GAME}.schema.json")
    else:
        shutil.rmtree(content / "schema")
        (content / "schema").symlink_to(outside)
    printed = attack(capsys, content, "validate", GAME)
    assert "schema" in printed and "link that leads out of the content folder" in printed
    assert "hunter2" not in printed


@pytest.mark.parametrize("where", ["scenario title", "game title", "replay message"])
def test_control_characters_from_content_reach_the_terminal_escaped(capsys, content, out, where):
    escape = "\\e]0;pwned\\a\\e[2J\\u202e"  # as YAML writes them in double quotes
    scenario = content / GAME / "scenarios" / "ability-1-couple.yaml"
    if where == "scenario title":
        edit(scenario, "title: Swap", f'title: "{escape}Swap')
        edit(scenario, "train\n", 'train"\n')
        args, status = ("verify", str(scenario)), 0
    elif where == "game title":
        edit(content / GAME / "game.yaml", "en: Game of Trains", f'en: "Game of {escape} Trains"')
        args, status = ("list",), 0
    else:  # an action the engine cannot read, echoed in the replay's message
        edit(scenario, "  - P1: use", f'  - P1: "{escape}" # use', count=1)
        args, status = ("verify", str(scenario)), 1
    printed = attack(capsys, content, *args, status=status)
    assert not any(ch in printed for ch in "\x1b\x07\u202e"), printed
    assert "\\x1b" in printed


@pytest.mark.parametrize("named", ["scenario file", "game folder"])
def test_a_newline_in_a_name_cannot_forge_a_line(capsys, content, out, named):
    forged = "zz\nFORGED all good"
    if named == "scenario file":
        scenario = content / GAME / "scenarios" / f"{forged}.yaml"
        shutil.copy(content / GAME / "scenarios" / "ability-1-couple.yaml", scenario)
        printed = attack(capsys, content, "verify", str(scenario), status=0)
    else:
        shutil.copytree(content / GAME, content / forged)
        printed = attack(capsys, content, "validate", status=1)
        assert "registered" in printed
    assert not [line for line in printed.splitlines() if line.startswith("FORGED")]
    assert "'zz\\nFORGED all good" in printed


# --- nothing half-built ------------------------------------------------------------------------------

def test_a_folder_where_an_output_file_goes_stops_the_build_before_any_file_moves(capsys, content, out):
    (out / GAME).mkdir()
    (out / GAME / "cards-a4-home.pdf").write_text("old sheet", "utf-8")
    (out / GAME / "rules-a4-en.pdf").mkdir()
    (out / GAME / "rules-a4-en.pdf" / "notes.txt").write_text("mine", "utf-8")
    printed = attack(capsys, content, "build", GAME, "--paper", "a4", "--layout", "home", "--lang", "en",
                     "--out", str(out), inside=[out])
    assert "rules-a4-en.pdf" in printed and "a folder stands where this file goes" in printed
    assert not [p for p in out.parent.iterdir() if "staging" in p.name]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_during_a_build_leave_no_staging_folder(content, out, signum):
    before = tree_state(out)
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "cardgen.cli", "--content", str(content), "build", GAME,
                                "--paper", "a4", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=out.parent)
    while not [p for p in out.parent.iterdir() if "staging" in p.name] and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signum)
    _, err = process.communicate(timeout=LIMIT_S)
    assert time.perf_counter() - start < LIMIT_S
    assert process.returncode == 128 + signum, err
    assert "interrupted" in err and "Traceback" not in err
    assert not [p for p in out.parent.iterdir() if "staging" in p.name]
    assert tree_state(out) == before


# Sends the process a stop the instant its staging folder exists, before the build has gone on.
STOP_AS_STAGING_APPEARS = """import os, signal, sys, tempfile
made = tempfile.mkdtemp
def mkdtemp(*args, **kwargs):
    path = made(*args, **kwargs)
    if ".staging-" in os.path.basename(path):
        os.kill(os.getpid(), int(sys.argv[1]))
    return path
tempfile.mkdtemp = mkdtemp
from cardgen.cli import main
main(sys.argv[2:])
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_as_the_staging_folder_is_made_leaves_none(content, out, signum):
    """No moment of a build is without its handling of a stop: one that lands right as the staging
    folder appears still removes it and ends the run as interrupted."""
    before = tree_state(out)
    done = subprocess.run([sys.executable, "-c", STOP_AS_STAGING_APPEARS, str(int(signum)), "--content", str(content),
                           "build", GAME, "--paper", "a4", "--layout", "home", "--lang", "en", "--only", "proof",
                           "--out", str(out)], capture_output=True, text=True, cwd=out.parent, timeout=LIMIT_S)
    assert done.returncode == 128 + signum, done.stderr
    assert "interrupted" in done.stderr and "Traceback" not in done.stderr
    assert not [p for p in out.parent.iterdir() if "staging" in p.name]
    assert tree_state(out) == before


@pytest.mark.slow
@pytest.mark.parametrize("command", ["simulate", "sweep", "sweep on a local cluster"])
def test_sigterm_ends_a_run_on_two_workers_and_its_workers_with_it(tmp_path, command):
    """The stop a service manager or `kill` sends ends the run as Ctrl-C does: one line and nothing
    else (no traceback from a worker, no warning from a cluster's), and no worker left playing."""
    if command.endswith("cluster"):
        pytest.importorskip("distributed")
    argv = [sys.executable, "-m", "cardgen.cli", command.split()[0], "flamme-rouge", "--games", "200000", "--workers", "2"]
    if command.startswith("sweep"):
        argv += ["--out", str(tmp_path / "sweep.csv")]
    if command.endswith("cluster"):
        argv += ["--cluster", "local"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    def children() -> list[str]:  # of every thread: a cluster starts its workers from one of its own
        found = []
        for thread in Path(f"/proc/{process.pid}/task").glob("*"):
            try:
                found += (thread / "children").read_text().split()
            except OSError:
                pass
        return found

    workers: list[str] = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
        workers = children()
    assert len(workers) >= 2, "the workers never started"
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert err.splitlines() == ["interrupted (SIGTERM): stopped before finishing; files are moved into place only "
                                "when complete, so nothing half-written was left"], err
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_out_on_another_filesystem_is_copied_then_renamed(capsys, content, out, monkeypatch):
    import errno

    rename = os.replace

    def across_devices(src, dst):  # as a rename from the staging folder onto a USB stick fails
        if ".staging-" in str(src) and ".staging-" not in str(dst):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return rename(src, dst)

    monkeypatch.setattr(os, "replace", across_devices)
    code, printed, err = run(capsys, "--content", str(content), "build", GAME, "--paper", "a4", "--layout", "home",
                             "--lang", "en", "--out", str(out))
    assert code == 0, err
    built = sorted(p.name for p in (out / GAME).iterdir())
    assert built == ["aids-a4-home.pdf", "assembly-a4-en.pdf", "cards-a4-home.pdf", "proof-a4.pdf", "rules-a4-en.pdf"]
    assert len(PdfReader(out / GAME / "cards-a4-home.pdf").pages) > 1
    assert not [p for p in out.rglob(".*")] and not [p for p in out.parent.iterdir() if "staging" in p.name]


def test_out_naming_a_file_is_a_usage_error(capsys, content, out):
    printed = attack(capsys, content, "build", GAME, "--out", str(out / "keep.txt"), status=2)
    assert "--out" in printed and "keep.txt" in printed


# --- no traceback ------------------------------------------------------------------------------------

@pytest.mark.parametrize("game, file, old, new, field", [
    (GAME, "cards.yaml", "deck: carriages, ", "", "'deck' is a required property"),
    ("flamme-rouge", "stages.yaml", "course: a b c d e f g h i j k l m n o p q r s t u", "course: 7", "course"),
    ("ticket-to-ride-card-game", "cards.yaml", "from: chicago, ", "", "'from' is a required property"),
    ("moscow-to-paris", "cards.yaml", "line: 4,", "line: four,", "line"),
])
def test_a_permissive_schema_of_its_own_cannot_let_through_what_the_game_does_not_expect(
        capsys, tmp_path, out, game, file, old, new, field):
    content = copy_game(tmp_path, game)
    (content / "schema").mkdir()
    for name in (f"{game}.schema.json", "common.schema.json"):
        (content / "schema" / name).write_text('{"type": "object"}', "utf-8")
    edit(content / game / file, old, new)
    printed = attack(capsys, content, "validate", game)
    assert f"{file}:" in printed and field in printed


@pytest.mark.parametrize("dialect, status", [(None, 0), ("https://example.com/my-dialect", 1)])
def test_a_schema_with_no_or_an_unknown_dialect(capsys, content, out, dialect, status):
    path = content / "schema" / f"{GAME}.schema.json"
    text = path.read_text("utf-8").replace('"$schema": "https://json-schema.org/draft/2020-12/schema",', "")
    path.write_text(text if dialect is None else text.replace("{", '{"$schema": "%s",' % dialect, 1), "utf-8")
    printed = attack(capsys, content, "validate", GAME, status=status)
    if status:
        assert f"{GAME}.schema.json: $.$schema: unknown $schema" in printed


@pytest.mark.parametrize("game, file, change, message", [
    ("ticket-to-ride-card-game", "cards.yaml", lambda t: "\n".join(l for l in t.split("\n") if "deck: tickets" not in l),
     "game.yaml:"),
    ("ticket-to-ride-card-game", "cards.yaml",
     lambda t: t.replace("colour: red, copies: 10", "colour: red, copies: 11").replace("colour: blue, copies: 10", "colour: blue, copies: 9"),
     "cards.yaml:16:"),
    ("spectral-rails", "map.yaml", lambda t: t.replace("id: three-players, players: 3", "id: three-players, players: 4"),
     "map.yaml:"),
])
def test_facts_of_a_game_that_the_data_breaks_are_located_errors(capsys, tmp_path, out, game, file, change, message):
    content = copy_game(tmp_path, game)
    path = content / game / file
    changed = change(path.read_text("utf-8"))
    assert changed != path.read_text("utf-8")
    path.write_text(changed, "utf-8")
    assert message in attack(capsys, content, "validate", game)


def _alias_bomb(key: str) -> str:
    lines = [f'{key}: &a ["x","x","x","x","x","x","x","x","x"]']
    for prev, name in zip("abcdefg", "bcdefgh"):
        lines.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("fault, message", [
    ("nan", "not a finite number"), ("python tag", "unsupported tag"), ("alias bomb", "more than"),
    ("50 MB", "larger than"), ("10 GB sparse", "larger than"), ("named pipe", "not a regular file"),
])
def test_a_faulty_printer_file_is_one_located_line(capsys, content, out, fault, message):
    printer = content.parent / "printer.yaml"
    if fault == "nan":
        printer.write_text("printer: {name: laser, back_offset_mm: [.nan, 0]}\n", "utf-8")
    elif fault == "python tag":
        printer.write_text("printer: !!python/object/apply:os.system ['true']\n", "utf-8")
    elif fault == "alias bomb":
        printer.write_text(_alias_bomb("printer"), "utf-8")
    elif fault == "50 MB":
        printer.write_text("printer: {name: " + "x" * (50 << 20) + "}\n", "utf-8")
    elif fault == "10 GB sparse":
        with open(printer, "wb") as handle:
            handle.truncate(10 << 30)
    else:
        os.mkfifo(printer)
    printed = attack(capsys, content, "build", GAME, "--printer", str(printer), "--out", str(out), limit=20,
                     inside=[printer])
    assert "printer.yaml" in printed and message in printed and len(printed) < 2000


@pytest.mark.parametrize("offset", ["nan,0", "0,inf"])
def test_a_back_offset_that_is_not_a_number_is_a_usage_error(capsys, content, out, offset):
    assert "--back-offset" in attack(capsys, content, "build", GAME, "--back-offset", offset, "--out", str(out), status=2)


def test_a_huge_sparse_content_file_is_refused_before_it_is_read(capsys, content, out):
    with open(content / GAME / "huge.yaml", "wb") as handle:
        handle.truncate(10 << 30)
    printed = attack(capsys, content, "validate", GAME, limit=20)
    assert "huge.yaml:1:1" in printed and "larger than" in printed


@pytest.mark.parametrize("value", ["[" * 50_000 + "]" * 50_000, "{" * 50_000 + "}" * 50_000])
def test_a_deeply_nested_param_is_a_short_usage_error(capsys, content, out, value):
    printed = attack(capsys, content, "simulate", GAME, "--games", "1", "--param", f"draft={value}", status=2, limit=20)
    assert "--param draft" in printed and len(printed) < 2000


# --- no hang -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["content file", "scenario", "scenario named"])
def test_a_named_pipe_is_never_opened(capsys, content, out, where):
    folder = content / GAME / ("scenarios" if where != "content file" else "")
    pipe = folder / "pipe.yaml"
    os.mkfifo(pipe)
    if where == "scenario named":
        pipe.rename(content.parent / "pipe.yaml")
        pipe = content.parent / "pipe.yaml"
        printed = attack(capsys, content, "verify", "--game", GAME, str(pipe), limit=20, inside=[pipe])
    else:
        printed = attack(capsys, content, "validate", GAME, limit=20)
    assert "pipe.yaml" in printed and "not a regular file" in printed


def test_a_backtracking_pattern_in_a_schema_of_its_own_is_refused(capsys, content, out):
    edit(content / "schema" / "common.schema.json", '"pattern": "^#[0-9a-fA-F]{6}$"', '"pattern": "^(a+)+$"')
    edit(content / GAME / "game.yaml", "#", "#" + "a" * 40 + "!", count=-1)
    printed = attack(capsys, content, "validate", GAME, limit=20)
    assert "common.schema.json" in printed and "^(a+)+$" in printed and "exponential" in printed


def test_a_board_needing_thousands_of_pages_is_refused_before_drawing(capsys, tmp_path, out):
    content = copy_game(tmp_path, "spectral-rails")
    (content / "schema").mkdir()
    (content / "schema" / "spectral-rails.schema.json").write_text('{"type": "object"}', "utf-8")
    edit(content / "spectral-rails" / "map.yaml", "size_mm: [560, 400]", "size_mm: [30000, 30000]")
    printed = attack(capsys, content, "build", "spectral-rails", "--paper", "a4", "--out", str(out), limit=30)
    assert "map.yaml:7:" in printed and "size_mm" in printed


def test_cards_naming_twenty_thousand_ranges_is_refused_quickly(capsys, content, out):
    printed = attack(capsys, content, "build", GAME, "--cards", ",".join(["1-88"] * 20_000), "--out", str(out),
                     status=2, limit=20)
    assert "--cards" in printed and len(printed) < 2000


def test_a_param_that_is_an_alias_bomb_is_refused_quickly(capsys, content, out):
    bomb = "{" + _alias_bomb("a").replace("\n", ", ").rstrip(", ") + "}"
    printed = attack(capsys, content, "simulate", GAME, "--games", "1", "--param", f"draft={bomb}", status=2, limit=20)
    assert "--param draft" in printed and "more than" in printed


def test_a_scenario_of_a_million_values_stops_at_the_limit_quickly(capsys, content, out):
    values = ", ".join(["1"] * 1_000_000)
    (content / GAME / "scenarios" / "huge.yaml").write_text(
        f"title: huge\nplayers: 2\nsetup:\n  market: [{values}]\nsteps: []\n", "utf-8")
    printed = attack(capsys, content, "validate", GAME, limit=15)
    assert "huge.yaml:4:" in printed and "more than 200000 values" in printed


# --- clear messages ----------------------------------------------------------------------------------

def test_a_replay_failure_is_located_by_line_column_and_path(capsys, content, out):
    scenario = content / GAME / "scenarios" / "ability-1-couple.yaml"
    edit(scenario, "train.P1: [5, 15, 20, 30, 45, 35, 60]", "train.P1: [5, 20, 15, 30, 45, 35, 60]")
    printed = attack(capsys, content, "verify", str(scenario))
    assert re.search(r"ability-1-couple\.yaml:\d+:\d+: \$\.steps\[\d+\]\.expect: step \d+: train\.P1: expected", printed)


def test_a_huge_action_text_is_cut_when_echoed(capsys, content, out):
    scenario = content / GAME / "scenarios" / "zz-long.yaml"
    scenario.write_text("title: long\nplayers: 2\nsteps:\n  - P1: use " + "9" * (1 << 20) + "\n", "utf-8")
    printed = attack(capsys, content, "verify", "--game", GAME, str(scenario))
    assert "zz-long.yaml:4:" in printed and "more characters" in printed and len(printed) < 20_000


@pytest.mark.parametrize("line, message", [
    ("1: one", "unknown key 1"), ("null: x", "a key must be a text or a whole number"),
    ('x: "a\0b"', "not allowed"),
])
def test_non_text_keys_and_a_nul_byte_are_reported_at_their_line(capsys, content, out, line, message):
    path = content / GAME / "game.yaml"
    text = path.read_text("utf-8")
    path.write_text(text + line + "\n", "utf-8")
    at = text.count("\n") + 1
    printed = attack(capsys, content, "validate", GAME)
    assert f"game.yaml:{at}:" in printed and message in printed


def test_compare_with_an_unknown_rule_is_a_compare_error(capsys, content, out):
    printed = attack(capsys, content, "simulate", GAME, "--games", "1", "--compare", "no_such_rule=a,b", status=2)
    assert "--compare" in printed and "--param" not in printed and "no_such_rule" in printed
