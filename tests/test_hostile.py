"""Hostile or broken content, options and faults: one case per class. Each asserts the exit status,
a message that names the place, no traceback, a time limit, no network access (a local server
fails the test if contacted) and no file changed outside --out."""

from __future__ import annotations

import hashlib
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
    process = subprocess.Popen([sys.executable, "-m", "cardgen.cli", "--content", str(content), "build", GAME, "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=LIMIT_S)
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
