"""Without any Chinese font, `cardgen build --lang en` still builds every game in English (Chinese
characters left out, never printed as empty boxes), and asking for Chinese says how to get a font."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader

from tests.pdfcheck import pdf_problems

NO_FONT = "import cardgen.pdfdoc as p; p.cjk_candidates = lambda: []; from cardgen.cli import main; main({args!r})"


def run_without_chinese_font(*args: str, cwd: Path):
    code = NO_FONT.format(args=list(args))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_an_english_build_needs_no_chinese_font(tmp_path):
    out = tmp_path / "out"
    done = run_without_chinese_font("build", "game-of-trains", "flamme-rouge", "--lang", "en", "--paper", "a4", "--layout", "home",
                                    "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Chinese" not in done.stdout + done.stderr  # English was asked for: nothing was left out
    pdfs = sorted(out.rglob("*.pdf"))
    assert pdfs and not any("zh-Hant" in p.name for p in pdfs)
    for pdf in pdfs:
        assert pdf_problems(pdf) == [], pdf.name
        text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
        assert not re.search(r"[\u2e80-\u9fff\uff01-\uff60]", text), pdf.name


def test_a_default_build_without_a_font_builds_english_and_says_what_was_left_out(tmp_path):
    done = run_without_chinese_font("build", "game-of-trains", "--paper", "a4", "--layout", "home",
                                    "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if "Chinese left out" in line]
    assert len(notes) == 1 and "--font" in notes[0]
    names = sorted(p.name for p in (tmp_path / "out" / "game-of-trains").iterdir())
    assert "rules-a4-en.pdf" in names and not any("zh-Hant" in name for name in names)


def test_asking_for_chinese_without_a_font_says_how_to_get_one(tmp_path):
    for lang in ("all", "zh-Hant", "ZH-HANT"):
        done = run_without_chinese_font("build", "game-of-trains", "--paper", "a4", "--lang", lang,
                                        "--out", str(tmp_path / "out"), cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "no Chinese font was found" in done.stderr and "--lang en" in done.stderr
        assert "make setup" in done.stderr and "--font" in done.stderr
        assert not (tmp_path / "out" / "game-of-trains").exists()


def test_preflight_takes_a_language_and_needs_no_chinese_font_for_english(tmp_path):
    done = run_without_chinese_font("preflight", "game-of-trains", "--lang", "en", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Chinese left out" not in done.stderr and "preflight" in done.stdout
    done = run_without_chinese_font("preflight", "game-of-trains", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr.count("Chinese left out") == 1
    done = run_without_chinese_font("preflight", "game-of-trains", "--lang", "zh-Hant", cwd=tmp_path)
    assert done.returncode == 2 and "no Chinese font was found" in done.stderr
