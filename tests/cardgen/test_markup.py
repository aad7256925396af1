"""Content is plain text: markup, entities and image tags in any text print as themselves and
fetch nothing; only cardgen.markup builds paragraph markup."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from reportlab.lib.styles import ParagraphStyle
from pypdf import PdfReader
from reportlab.platypus import SimpleDocTemplate

from cardgen.markup import Markup, bold, inline, join, para, plain, styled
from cardgen.pdfdoc import SANS, register_fonts

HOSTILE = ['Deck <img src="http://127.0.0.1:9/x.png"/>', "<b", "a & b", "&amp; &#60;", '<font name="x">',
           "<img src='/etc/hostname'/>", "**<b>term</b>**"]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_prints_as_itself(text, tmp_path):
    register_fonts()
    style = ParagraphStyle("s", fontName=SANS)
    SimpleDocTemplate(str(tmp_path / "p.pdf")).build([para(inline(text), style)])
    printed = PdfReader(tmp_path / "p.pdf").pages[0].extract_text().strip()
    assert printed == text.replace("**", "")


def test_plain_strings_are_escaped_and_markup_passes():
    assert plain("<b>") == "&lt;b&gt;"
    assert plain(bold("x")) == "<b>x</b>"
    assert join(bold("a"), "<b>") == "<b>a</b>&lt;b&gt;"
    assert isinstance(join("a"), Markup)


def test_attributes_accept_only_their_kind_of_value():
    with pytest.raises(ValueError):
        styled("x", colour='red" onload="x')
    with pytest.raises(ValueError):
        styled("x", font="a b")


def test_no_module_but_markup_builds_a_paragraph():
    root = Path(__file__).resolve().parents[2]
    offenders = []
    for path in sorted((root / "cardgen").rglob("*.py")) + sorted((root / "verify").rglob("*.py")):
        if path.name == "markup.py" and path.parent.name == "cardgen":
            continue
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if re.search(r"\b(Paragraph|XPreformatted|Preformatted)\(", line):
                offenders.append(f"{path.relative_to(root)}:{n}")
    assert not offenders, offenders


def _lines(text: str, width: float, size: float = 10) -> list[str]:
    from cardgen.pdfdoc import CJK

    register_fonts()
    style = ParagraphStyle("zh", fontName=CJK, fontSize=size, leading=size * 1.4, wordWrap="CJK")
    paragraph = para(text, style)
    paragraph.wrap(width, 1000)
    blocks = paragraph.blPara
    if blocks.kind == 0:
        return ["".join(line[1]) for line in blocks.lines]
    return ["".join(word.text for word in line.words) for line in blocks.lines]


@pytest.mark.parametrize("mark", list("，。；：！？、）」"))
def test_no_chinese_line_starts_with_a_closing_mark(mark):
    for width in range(60, 200, 10):
        text = f"甲乙丙丁戊己庚辛壬癸{mark}子丑寅卯辰巳午未申酉{mark}戌亥天地玄黃"
        for line in _lines(text, width)[1:]:
            assert not line.startswith(mark), (width, line)


def test_a_chinese_paragraph_never_ends_with_one_character_alone():
    for width in range(60, 300, 7):
        text = "騎士在上坡區塊時最多只能移動五格，而且不會獲得跟風效能。"
        lines = _lines(text, width)
        if len(lines) > 1:
            assert len(lines[-1].strip()) > 1, (width, lines)


def test_two_closing_marks_in_a_row_never_start_a_line():
    for width in range(60, 220, 5):
        text = "甲乙丙丁戊己庚辛（壬癸）：子丑寅卯辰巳午未申酉（戌亥）。天地玄黃宇宙洪荒"
        for line in _lines(text, width)[1:]:
            assert line[:1] not in "：。）", (width, line)


@pytest.mark.parametrize("word_wrap", [None, "CJK"])
def test_a_paragraph_wrapped_again_at_the_same_width_keeps_its_lines_without_breaking_them_again(word_wrap,
                                                                                                monkeypatch):
    register_fonts()
    style = ParagraphStyle("s", fontName=SANS, fontSize=9, leading=11, wordWrap=word_wrap)
    text = "Each rider plays one card a turn and moves that many squares along the road. " * 6
    paragraph, fresh = para(text, style), para(text, style)
    breaks = []
    kind = type(paragraph)
    for name in ("breakLines", "breakLinesCJK"):
        original = getattr(kind, name)
        monkeypatch.setattr(kind, name, lambda self, widths, _original=original: breaks.append(widths) or
                            _original(self, widths))
    wide = paragraph.wrap(300, 500)
    assert paragraph.wrap(300, 200) == wide and len(breaks) == 1
    narrow = paragraph.wrap(150, 500)
    assert narrow[1] > wide[1] and len(breaks) == 2
    # Back to the first width: worked out again, and as a paragraph seen for the first time.
    assert paragraph.wrap(300, 500) == fresh.wrap(300, 500) == wide and len(breaks) == 4
    assert [line.words if hasattr(line, "words") else line for line in paragraph.blPara.lines] == \
        [line.words if hasattr(line, "words") else line for line in fresh.blPara.lines]
