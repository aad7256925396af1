"""The Game of Trains rule sheet as players read it: plain answers, one term for one thing, Chinese
punctuation, and every worked example, picture and caption built from the content."""

from __future__ import annotations

import re

import pytest

from cardgen.content import LANGUAGES
from cardgen.rulesheet import tidy

FULL_WIDTH_PUNCTUATION = "，。、；：！？）」』"
CJK = r"[\u3400-\u9fff]"


def texts(value, path=""):
    """Every (path, language, text) held in a YAML value: texts are mappings with en and zh-Hant."""
    if isinstance(value, dict):
        if set(LANGUAGES) <= set(value) and all(isinstance(value[lang], str) for lang in LANGUAGES):
            for lang in LANGUAGES:
                yield path, lang, value[lang]
        for key, item in value.items():
            if key != "source":  # the rules' own sentences, quoted as written
                yield from texts(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from texts(item, f"{path}[{i}]")


@pytest.fixture(scope="module")
def player_texts(trains):
    found = []
    for name in ("rules", "rulings", "abilities", "summary"):
        found += [(f"{name}{path}", lang, text) for path, lang, text in texts(trains.files[name])]
    return found


def test_answers_are_in_players_words(player_texts):
    for path, lang, text in player_texts:
        if ".rulings" in path and lang == "en":
            for word in ("refused", "replay", "invariant", "at least 39", "engine"):
                assert word not in text.lower(), f"{path}: {word!r}"


def test_chinese_has_no_space_after_full_width_punctuation(player_texts, trains):
    for path, lang, text in player_texts:
        if lang == "zh-Hant":
            # As printed: facts filled in, and the spaces a folded YAML line leaves between two
            # Chinese characters dropped, as the rule sheet does.
            shown = " ".join(line.strip() for line in tidy(trains.render_text(text, lang)).splitlines())
            shown = tidy(shown)
            assert not re.search(f"[{FULL_WIDTH_PUNCTUATION}] ", shown), f"{path}: {shown}"
            assert not re.search(f"{CJK}[,;:!?]|[,;:!?]{CJK}", shown), f"{path}: half-width punctuation in {shown}"


def test_chinese_uses_one_term_for_one_thing(player_texts):
    # 補牌 (not 補位) for a refill, 正面朝下 (not 面朝下) for face down, 位置 for a position and
    # 格 only as the length of a move (移兩格, 挪一格); the rules' own 效能 (not 能力) for an ability.
    for path, lang, text in player_texts:
        if lang == "zh-Hant":
            assert "能力" not in text, path
            assert "補位" not in text, path
            assert not re.search("(?<!正)面朝下", text), path
            assert not re.search("(?<![一兩])格", text), path


def test_the_swap_ability_is_called_swap_on_cards_and_in_the_rules(trains, player_texts):
    names = {a["id"]: a["name"] for a in trains.files["abilities"]["abilities"]}
    assert names[1] == {"en": "Swap", "zh-Hant": "相鄰互換"}
    for path, lang, text in player_texts:
        assert "Couple" not in text and "Move one two" not in text, path


def test_setup_caption_says_what_the_setup_picture_shows(trains):
    facts = trains.facts()
    # Both replaced carriages lie in the market, and one card (P2's second draft card) was discarded.
    assert facts["setup_market"] == 2 and facts["setup_discarded"] == 1
    caption = trains.render_text(trains.files["rules"]["terms"]["setup-caption"]["en"], "en")
    assert f"P1 kept {facts['setup_p1_kept']}" in caption and str(facts["setup_p2_replaced"]) in caption


def test_the_turn_summary_and_the_first_game_are_on_the_sheet(trains):
    sections = {s["id"]: s for s in trains.files["rules"]["sections"]}
    assert sections["summary"]["diagram"] == "summary" and "first-game" in sections
    assert sections["components"]["diagram"] == "anatomy"
