"""The Flamme Rouge rule sheet as players read it: the parts a first game needs, in a sensible
order, each worked example beside its rule, pictures that agree with the engine, and Chinese text
with one word for one thing."""

from __future__ import annotations

import re

import pytest
import yaml

from cardgen.content import PROJECT_CONTENT, iter_texts, load_game
from cardgen.games.flamme_rouge import diagrams
from tests.verify.test_flamme_rouge import play_round, where


@pytest.fixture(scope="module")
def flamme():
    return load_game(PROJECT_CONTENT, "flamme-rouge")


def section_ids(flamme):
    return [s["id"] for s in flamme.files["rules"]["sections"]]


def test_climbs_and_descents_come_before_the_variants(flamme):
    ids = section_ids(flamme)
    assert ids.index("mountains") < ids.index("variants")


def test_the_sheet_has_what_a_first_game_needs(flamme):
    sections = {s["id"]: s for s in flamme.files["rules"]["sections"]}
    assert sections["components"]["diagram"] == "card-anatomy"
    assert sections["player-board"]["diagram"] == "player-board"
    assert "first" in sections["setup"]["title"]["en"].lower()
    assert "Avenue Corso Paseo" in sections["setup"]["body"]["en"]
    for needed in ("tips", "round-summary"):
        assert needed in sections
    ids = section_ids(flamme)
    assert ids.index("setup") < ids.index("energy") < ids.index("round-summary")


def test_every_example_stands_beside_its_rule(flamme):
    sections = {stem: s["id"] for s in flamme.files["rules"]["sections"] for stem in s.get("examples", [])}
    with_text = {path.stem for path in flamme.scenario_paths
                 if "example" in yaml.safe_load(path.read_text("utf-8"))}
    assert with_text == set(sections), "an example no rule shows would be gathered at the end"
    for stem in sections:
        data = yaml.safe_load((flamme.root / "scenarios" / f"{stem}.yaml").read_text("utf-8"))
        assert data["example"]["title"] and data["example"]["steps"], stem
    assert sections["climb-entry"] == "mountains" and sections["finish-tie"] == "finish"
    assert sections["slipstream-chain"] == "end-phase" and sections["exhaustion"] == "exhaustion"


def test_an_end_phase_example_shows_the_riders_after_movement_as_the_engine_moves_them(flamme):
    from cardgen.rulesheet import worked_example

    example = worked_example(flamme, "slipstream-chain")
    moved = diagrams.after_movement(flamme, example)
    squares = sorted(where[0] for key, where in moved.items() if key.startswith("rider."))
    assert squares == [10, 12, 14, 15]  # what the example's text says
    assert diagrams.after_movement(flamme, worked_example(flamme, "exhaustion")) is None  # nobody slipstreams


@pytest.mark.parametrize("case", diagrams.CLIMB_CASES, ids=lambda c: c[3])
def test_the_climb_picture_shows_what_the_engine_does(case):
    start, card, end, _ = case
    # The picture's road, from square 1, after a start area and with road and a finish after it.
    course = "SSSS" + diagrams.CLIMB_ROAD + "N" * 10 + "FFFF"
    shift = 4
    rider = "P1.sprinteur" if card == 9 else "P1.rouleur"
    other = "P1.rouleur" if card == 9 else "P1.sprinteur"
    state = play_round({rider: [start + shift], other: [1], "P2.rouleur": [2], "P2.sprinteur": [3]},
                       {rider: card, other: 3 if other == "P1.rouleur" else 2, "P2.rouleur": 3, "P2.sprinteur": 2},
                       course=course)
    assert where(state, rider)[0] == end + shift


def chinese_texts(flamme):
    for name in ("rules", "rulings", "game", "stages"):
        for path, text in iter_texts(flamme.files[name]):
            if path[-1] == "zh-Hant":
                yield f"{name}: {'.'.join(map(str, path))}", text


def test_chinese_uses_one_word_for_one_thing(flamme):
    # 區塊 for a square (not 格), 正面朝下/上 (not 面朝下), 回收區 (not 回收卡), 疲勞卡牌組 (not 卡堆).
    wrong = re.compile(r"(?<!正)面朝[上下]|[0-9一二兩幾]格|第\d+格|前\d+格|回收卡|回收牌|卡堆")
    offenders = [f"{where}: {m.group(0)}" for where, text in chinese_texts(flamme) for m in wrong.finditer(text)]
    assert not offenders, offenders


def test_no_space_after_full_width_punctuation(flamme):
    # As printed: folded YAML lines are joined the way the rule sheet joins them.
    from cardgen.rulesheet import tidy

    offenders = [where for where, text in chinese_texts(flamme)
                 if re.search(r"[，。；：！？、）」] +\S", tidy(text))
                 # a wrapped line of a body that starts with a Latin letter or digit after such a mark
                 or re.search(r"[，。；：！？、）」]\n[ \t]*(?!\d+\. )[A-Za-z0-9]", text)]
    assert not offenders, offenders


def test_rulings_read_as_plain_questions_and_answers(flamme):
    for ruling in flamme.files["rulings"]["rulings"]:
        for text in (ruling["question"]["en"], ruling["ruling"]["en"]):
            assert not re.search(r"refus|replay|invariant|scenario", text, re.I), ruling["id"]
        assert ruling.get("source"), ruling["id"]
