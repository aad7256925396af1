"""What makes a build fast must not change what it makes: files drawn by several processes are the
bytes one process draws, a rebuild skips only when nothing it was made from changed, and the
Chinese font is parsed once at most, and never for a file without Chinese text."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.build import build_all, reads_other_outputs
from cardgen.buildcache import build_key, remember_build, unchanged_files
from cardgen.cli import main
from cardgen.content import PROJECT_CONTENT
from tests.conftest import edit

ROOT = Path(__file__).resolve().parents[2]
SMALL_BUILD = dict(papers=("a4",), layouts=("butted",), langs=("en",))


def digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_workers_write_the_bytes_one_writes(trains, tmp_path):
    one = build_all([trains], tmp_path / "one", workers=1, calibration=True, **SMALL_BUILD)
    two = build_all([trains], tmp_path / "two", workers=2, calibration=True, **SMALL_BUILD)
    assert [p.relative_to(tmp_path / "one") for p in one] == [p.relative_to(tmp_path / "two") for p in two]
    assert any(reads_other_outputs(p) for p in one)  # the assembly page, made from the other files
    assert digests(tmp_path / "one") == digests(tmp_path / "two")


def test_a_failing_file_in_a_worker_stops_the_build_and_writes_nothing(trains, tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("drawing failed")

    monkeypatch.setattr("cardgen.build.render_card_sheets", broken)
    with pytest.raises(RuntimeError, match="drawing failed"):
        build_all([trains], tmp_path / "out", workers=2, **SMALL_BUILD)
    assert not (tmp_path / "out").exists()


def test_the_build_key_follows_content_options_and_named_files(content_copy, tmp_path):
    printer = tmp_path / "printer.yaml"
    printer.write_text("printer: {back_offset_mm: {portrait: [1, 0]}}\n", "utf-8")
    first = build_key(content_copy, {"paper": "a4"}, (printer,))
    assert build_key(content_copy, {"paper": "a4"}, (printer,)) == first
    assert build_key(content_copy, {"paper": "letter"}, (printer,)) != first
    printer.write_text("printer: {back_offset_mm: {portrait: [2, 0]}}\n", "utf-8")
    assert build_key(content_copy, {"paper": "a4"}, (printer,)) != first
    second = build_key(content_copy, {"paper": "a4"}, (printer,))
    edit(content_copy / "game-of-trains" / "cards.yaml", "number: 3, ability: 4", "number: 3, ability: 5")
    assert build_key(content_copy, {"paper": "a4"}, (printer,)) != second


def test_a_remembered_build_counts_only_while_every_file_is_as_written(tmp_path):
    out = tmp_path / "out"
    (out / "game").mkdir(parents=True)
    files = [out / "game" / "a.pdf", out / "game" / "b.pdf"]
    for path in files:
        path.write_bytes(b"%PDF-1.4 " + path.name.encode())
    remember_build(out, "key-1", files)
    assert unchanged_files(out, "key-1") == files
    assert unchanged_files(out, "key-2") is None
    files[1].write_bytes(b"%PDF-1.4 changed")
    assert unchanged_files(out, "key-1") is None
    files[1].unlink()
    assert unchanged_files(out, "key-1") is None


def build(capsys, *args) -> str:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    assert info.value.code == 0, err
    return out


def test_a_rebuild_with_nothing_changed_writes_nothing_and_a_changed_file_builds_again(capsys, content_copy, tmp_path):
    out = tmp_path / "out"
    args = ["--content", str(content_copy), "build", "game-of-trains", "--paper", "a4", "--layout", "butted",
            "--lang", "en", "--workers", "1", "--out", str(out)]
    first = build(capsys, *args)
    assert "files in" in first
    made = digests(out)
    again = build(capsys, *args)
    assert "nothing changed since the last build" in again and f"{len(made)} files kept" in again
    assert digests(out) == made
    edit(content_copy / "game-of-trains" / "game.yaml", "Game of Trains", "Game of Trains!", count=1)
    changed = build(capsys, *args)
    assert "files in" in changed and "nothing changed" not in changed
    other_paper = build(capsys, *args[:5], "letter", *args[6:])
    assert "nothing changed" not in other_paper


# Run in a process of its own, so no font is registered yet: builds one English deck and prints,
# as JSON, every (file, face) reportlab parsed, in order, with the Chinese font's file.
FONT_PARSES = """
import json, sys
from reportlab.pdfbase import ttfonts
parsed = []
original = ttfonts.TTFontFace.__init__
def noting(self, filename, validate=0, subfontIndex=0):
    parsed.append((str(filename), subfontIndex))
    original(self, filename, validate, subfontIndex)
ttfonts.TTFontFace.__init__ = noting
from cardgen import pdfdoc
from cardgen.calibration import render_calibration
from cardgen.cli import main
from pathlib import Path
render_calibration(Path(sys.argv[1]) / "calibration.pdf", paper="a4", flip="long", orientation="portrait")
before_build = list(parsed)
try:
    main(["build", "game-of-trains", "--paper", "a4", "--layout", "butted", "--lang", "en",
          "--workers", "1", "--out", sys.argv[1]])
except SystemExit as done:
    assert done.code == 0
print(json.dumps({"calibration": before_build, "build": parsed, "chinese": str(pdfdoc.find_cjk_font()[0])}))
"""


def test_each_font_face_is_parsed_once_and_only_for_text_that_needs_it(tmp_path):
    from cardgen.pdfdoc import NoChineseFont, find_cjk_font

    try:
        find_cjk_font()
    except NoChineseFont:
        pytest.skip("no Chinese font on this machine")
    done = subprocess.run([sys.executable, "-c", FONT_PARSES, str(tmp_path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    chinese = report["chinese"]
    assert not [face for face in report["calibration"] if face[0] == chinese]  # an English sheet
    build_parses = report["build"]
    assert len(build_parses) == len({tuple(face) for face in build_parses})  # each face once
    # The card faces print Chinese names, so the regular face is parsed; the fixed-width face,
    # which no page of the deck uses, never is.
    assert [face for face in build_parses if face[0] == chinese] == [[chinese, 0]]


def test_the_project_content_key_is_stable_within_a_run():
    assert build_key(PROJECT_CONTENT, {}) == build_key(PROJECT_CONTENT, {})


def test_the_versions_a_build_depends_on_are_those_python_reports():
    from importlib import metadata

    from cardgen.buildcache import CHECKING_LIBRARIES, DRAWING_LIBRARIES, installed_versions

    names = DRAWING_LIBRARIES + CHECKING_LIBRARIES + ("no-such-library",)
    expected = {}
    for name in names:
        try:
            expected[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    assert "reportlab" in expected and "no-such-library" not in expected
    assert installed_versions(names) == expected


def test_worker_processes_take_a_games_files_of_one_kind_together_rule_sheets_first(tmp_path):
    from cardgen.build import _groups

    names = ["a/cards-a4-home.pdf", "a/rules-a4-en.pdf", "a/cards-a4-fold.pdf", "b/cards-a4-home.pdf",
             "b/rules-a4-en.pdf", "a/rules-letter-en.pdf", "calibration-a4.pdf", "a/shop-poker/front-001.png",
             "a/shop-poker/front-002.png"]
    jobs = [(tmp_path / name, None) for name in names]
    groups = _groups(jobs, list(range(len(jobs))))
    assert sorted(i for group in groups for i in group) == list(range(len(jobs)))  # each job once
    assert [[names[i] for i in group] for group in groups] == [
        ["a/rules-a4-en.pdf", "a/rules-letter-en.pdf"], ["b/rules-a4-en.pdf"],
        ["a/cards-a4-home.pdf", "a/cards-a4-fold.pdf"], ["b/cards-a4-home.pdf"], ["calibration-a4.pdf"],
        ["a/shop-poker/front-001.png"], ["a/shop-poker/front-002.png"]]  # pictures, many to a game, one by one
