"""House style of the texts that end up printed: Chinese sentences use full-width punctuation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.content import PROJECT_CONTENT, iter_texts
from cardgen.yamlio import load_yaml

YAML_FILES = sorted(PROJECT_CONTENT.glob("*/*.yaml")) + sorted(PROJECT_CONTENT.glob("*/scenarios/*.yaml"))
# An ASCII mark right after a Chinese character, where a full-width one belongs.
HALF_WIDTH_AFTER_CJK = re.compile(r"[\u3400-\u9fff][,;:?!()]")


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(Path(p).relative_to(PROJECT_CONTENT)))
def test_chinese_texts_use_full_width_punctuation(path):
    data, locator = load_yaml(path)
    offenders = []
    for json_path, text in iter_texts(data):
        if json_path[-1] == "zh-Hant":
            for match in HALF_WIDTH_AFTER_CJK.finditer(text):
                line, _ = locator.where(json_path)
                offenders.append(f"line {line}: ...{text[max(0, match.start() - 6):match.end() + 2]}...")
    assert not offenders, offenders


def test_simplified_only_characters_come_from_opencc_tables_with_taiwan_forms_allowed():
    from cardgen.static_checks import simplified_only

    table = simplified_only()
    assert {"车", "这", "们", "规", "戏"} <= table
    assert not {"群", "秘", "車", "遊", "戲", "規"} & table


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(Path(p).relative_to(PROJECT_CONTENT)))
def test_traditional_chinese_texts_hold_no_simplified_character(path):
    from cardgen.static_checks import simplified_only

    data, locator = load_yaml(path)
    offenders = [f"line {locator.where(json_path)[0]}: {''.join(sorted(set(text) & simplified_only()))}"
                 for json_path, text in iter_texts(data) if json_path[-1] == "zh-Hant" and set(text) & simplified_only()]
    assert not offenders, offenders
