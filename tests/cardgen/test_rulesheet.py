"""The rule sheet: a complete rulebook in each language, its numbers taken from the data, its
worked examples replayed before anything is written, and its PDF deterministic and print-ready."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.pdfcheck import fonts

import cardgen.registry
import cardgen.rulesheet
from cardgen.registry import GameDefinition, register, registered
from cardgen.content import LANGUAGES, GameContent, load_game
from cardgen.errors import ContentErrors
from cardgen.rulesheet import Block, parse_blocks, render_rule_sheet, tidy
from tests.conftest import edit
from verify.engine import Game, IllegalAction, NotationError, State

# --- a small stand-in engine, so example handling is tested apart from the real rules engine ----


class SwapState(State):
    """Trains that only know `swap i j` (positions from the locomotive); enough to replay examples."""

    def __init__(self, trains: dict[str, list[int]], market: list[int]):
        self.players = sorted(trains)
        self.trains = trains
        self.market = market

    def to_move(self):
        return self.players

    def parse_action(self, text):
        found = re.fullmatch(r"swap (\d) (\d)", text)
        if not found:
            raise NotationError(f"cannot read {text!r}")
        return tuple(int(g) for g in found.groups())

    def apply(self, player, action):
        i, j = action
        if not (1 <= i <= 7 and 1 <= j <= 7):
            raise IllegalAction("positions", "positions run from 1 to 7")
        train = self.trains[player]
        train[i - 1], train[j - 1] = train[j - 1], train[i - 1]

    def fields(self):
        return {**{f"train.{p}": list(t) for p, t in self.trains.items()}, "market": list(self.market)}

    def is_terminal(self):
        return False


class SwapGame(Game):
    id = "swap"

    def new_state(self, players, seed=None, setup=None):
        trains = {p: list(setup["trains"][p]) for p in setup["trains"]}
        return SwapState(trains, list(setup.get("market", [])))

    def notation_help(self):
        return "swap I J     exchange the carriages at positions I and J\nexpect: train.P1, market"


EXAMPLE = """\
title: Swapping the ends of a train
rule: "test swap"
players: 2
example:
  en: Player one swaps the first and the last carriage.
  zh-Hant: 第一位玩家交換第一節與最後一節車廂。
setup:
  trains:
    P1: [70, 20, 30, 40, 50, 60, 10]
    P2: [1, 2, 3, 4, 5, 6, 7]
  market: [11, 12]
steps:
  - P1: swap 1 7
  - expect: {{train.P1: {after}}}
"""


@pytest.fixture
def stand_in_engine(monkeypatch):
    monkeypatch.setattr(cardgen.rulesheet, "engine_for", lambda content: SwapGame(content))


def write_example(content_dir: Path, after: str) -> Path:
    path = content_dir / "game-of-trains" / "scenarios" / "example-swap.yaml"
    path.parent.mkdir(exist_ok=True)
    for old in path.parent.glob("*.yaml"):
        old.unlink()  # the real scenarios belong to the real engine, not to the stand-in
    (content_dir / "game-of-trains" / "rulings.yaml").write_text("rulings: []\n", "utf-8")
    rules = content_dir / "game-of-trains" / "rules.yaml"
    # The sections' own examples went with the real scenarios.
    rules.write_text(re.sub(r"(?m)^    examples: \[.*\]\n", "", rules.read_text("utf-8")), "utf-8")
    path.write_text(EXAMPLE.format(after=after), "utf-8")
    return path


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def flat(text: str) -> str:
    """Extracted text with line breaks and spaces removed, so wrapped phrases can be found."""
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    """Both languages of the real sheet, rendered once for the read-only tests."""
    from cardgen.content import PROJECT_CONTENT
    content = load_game(PROJECT_CONTENT, "game-of-trains")
    folder = tmp_path_factory.mktemp("sheets")
    return content, {lang: render_rule_sheet(content, lang, folder / f"rules-{lang}.pdf") for lang in LANGUAGES}


# --- the rulebook ------------------------------------------------------------------------------------


def test_text_is_extractable_in_english_and_chinese(sheets):
    content, paths = sheets
    english, chinese = pdf_text(paths["en"]), pdf_text(paths["zh-Hant"])
    assert "Game of Trains" in english and "Setup" in english
    assert "車廂" in chinese and "遊戲準備" in chinese and "火車遊戲" in chinese
    # The English sheet holds no Chinese but what the printed cards themselves carry (its card
    # pictures show real, bilingual cards).
    on_cards = {"火車遊戲"} | {text for a in content.files["abilities"]["abilities"]
                              for text in (a["name"]["zh-Hant"], a["short"]["zh-Hant"])}
    on_cards |= {back["title"]["zh-Hant"] for back in content.game["backs"].values()}
    for text in sorted(on_cards, key=len, reverse=True):
        english = english.replace(text, "")
    assert not re.search(r"[\u4e00-\u9fff]{2}", english), re.search(r".{0,20}[\u4e00-\u9fff]{2}.{0,20}", english)


def test_every_section_title_appears_in_its_language(sheets):
    content, paths = sheets
    for lang in LANGUAGES:
        text = flat(pdf_text(paths[lang]))
        for section in content.files["rules"]["sections"]:
            if section.get("generated") in (None, "abilities"):
                assert flat(section["title"][lang]) in text, (lang, section["id"])


def test_abilities_section_lists_every_ability_with_name_text_and_card_count(sheets):
    content, paths = sheets
    for lang in LANGUAGES:
        text = flat(pdf_text(paths[lang]))
        for ability in content.files["abilities"]["abilities"]:
            count = content.facts()[f"ability_{ability['id']}_cards"]
            label = f"{count}cards" if lang == "en" else f"共{count}張"
            assert flat(f"{ability['id']} {ability['name'][lang]}") + label in text
            assert flat(ability["text"][lang]) in text


def test_counts_printed_in_the_sheet_equal_the_data(sheets):
    content, paths = sheets
    facts = content.facts()
    english = " ".join(pdf_text(paths["en"]).split())
    assert f"{facts['locomotives']} locomotive cards" in english
    assert f"{facts['carriages']} carriage cards, numbered 1 to {facts['carriages']}" in english
    assert f"{facts['cards']} cards in all" in english
    assert f"{facts['players_min']}–{facts['players_max']} players" in english
    for ability in content.files["abilities"]["abilities"]:
        assert f"{facts['ability_%d_cards' % ability['id']]} {ability['name']['en']}" in english
    chinese = flat(pdf_text(paths["zh-Hant"]))
    assert f"車廂卡{facts['carriages']}張" in chinese
    assert f"全部共{facts['cards']}張卡牌" in chinese


def test_changed_card_data_changes_the_printed_counts(content_copy, tmp_path):
    # Card 1 moves from Push back (3) to Couple (1): both printed counts must follow.
    edit(content_copy / "game-of-trains" / "cards.yaml", "number: 1, ability: 3", "number: 1, ability: 1")
    content = load_game(content_copy, "game-of-trains")
    text = " ".join(pdf_text(render_rule_sheet(content, "en", tmp_path / "r.pdf")).split())
    assert "11 Swap" in text and "10 Push back" in text


def test_components_name_the_abilities_exactly_as_abilities_yaml(trains):
    sections = {s["id"]: s for s in trains.files["rules"]["sections"]}
    for lang in LANGUAGES:
        body = flat(sections["components"]["body"][lang])
        for ability in trains.files["abilities"]["abilities"]:
            assert flat(ability["name"][lang]) in body, (lang, ability["name"][lang])


def test_both_languages_have_the_same_structure(trains):
    # A section whose translations differ in paragraphs, bullets or steps has lost or gained a rule.
    for section in trains.files["rules"]["sections"]:
        shapes = {lang: [(b.kind, len(b.items)) for b in parse_blocks(section["body"][lang])] for lang in LANGUAGES}
        assert shapes["en"] == shapes["zh-Hant"], section["id"]


def test_rules_text_states_the_fixed_decisions(trains):
    text = " ".join(" ".join(s["body"]["en"].split()) for s in trains.files["rules"]["sections"])
    assert "Positions are counted from the locomotive" in text.replace("**", "")
    assert "protects the carriage card it lies under, not the position" in text.replace("**", "")
    assert "locks do not stack" in text
    assert "An ability that would change nothing cannot be used" in text
    assert "leaves it before its ability takes effect" in text
    assert "the first of those players in refill order" in text


# --- the PDF -----------------------------------------------------------------------------------------


def test_every_font_is_embedded(sheets):
    _, paths = sheets
    for path in paths.values():
        found = fonts(path)
        assert found and all(found.values()), found


def test_every_page_has_trim_and_bleed_boxes_equal_to_the_page(sheets):
    _, paths = sheets
    for path in paths.values():
        for page in PdfReader(path).pages:
            assert [round(float(v), 1) for v in page.mediabox] == [0, 0, 595.3, 841.9]
            assert list(page.trimbox) == list(page.mediabox) == list(page.bleedbox)


def test_pages_are_numbered_and_carry_the_title(sheets):
    _, paths = sheets
    pages = PdfReader(paths["en"]).pages
    assert len(pages) >= 3
    for n, page in enumerate(pages, 1):
        text = page.extract_text()
        assert f"Page {n}" in text
        if n > 1:
            assert "Game of Trains" in text


def test_same_content_gives_byte_identical_pdfs(trains, tmp_path):
    for lang in LANGUAGES:
        first = render_rule_sheet(trains, lang, tmp_path / "a.pdf").read_bytes()
        second = render_rule_sheet(trains, lang, tmp_path / "b.pdf").read_bytes()
        assert first == second


# --- worked examples -----------------------------------------------------------------------------------


def test_worked_example_is_printed_with_its_trains_but_not_the_scenario_notation(content_copy, tmp_path, stand_in_engine):
    write_example(content_copy, "[10, 20, 30, 40, 50, 60, 70]")
    content = load_game(content_copy, "game-of-trains")
    for lang in LANGUAGES:
        text = pdf_text(render_rule_sheet(content, lang, tmp_path / f"r-{lang}.pdf"))
        assert flat(EXAMPLE.split(f"{lang}: ")[1].splitlines()[0]) in flat(text)
        assert "swap I J" not in text  # the notation is for scenario writers: docs/scenarios.md
    # Both sides of the example picture: the train as set up, and as the replay left it.
    words = " ".join(text.split())
    assert "P1 70 20 30 40 50 60 10" in words
    assert "P1 10 20 30 40 50 60 70" in words


def test_failing_example_aborts_the_render_and_writes_nothing(content_copy, tmp_path, stand_in_engine):
    scenario = write_example(content_copy, "[70, 20, 30, 40, 50, 60, 10]")
    content = load_game(content_copy, "game-of-trains")
    target = tmp_path / "rules.pdf"
    with pytest.raises(ContentErrors) as info:
        render_rule_sheet(content, "en", target)
    (message,) = [str(e) for e in info.value.errors]
    assert message.startswith(f"{scenario}:14:")  # the expect step
    assert "train.P1: expected [70, 20, 30, 40, 50, 60, 10], actual [10, 20, 30, 40, 50, 60, 70]" in message
    assert not target.exists()
    assert list(tmp_path.glob("*.pdf")) == [] and list(tmp_path.glob(".*tmp")) == []


def test_example_without_both_languages_is_refused(content_copy, tmp_path, stand_in_engine):
    scenario = write_example(content_copy, "[10, 20, 30, 40, 50, 60, 70]")
    edit(scenario, "  zh-Hant: 第一位玩家交換第一節與最後一節車廂。\n", "")
    content = load_game(content_copy, "game-of-trains")
    with pytest.raises(ContentErrors) as info:
        render_rule_sheet(content, "en", tmp_path / "r.pdf")
    assert "$.example: needs a text in each of en, zh-Hant" in str(info.value)


# --- generic typesetting ---------------------------------------------------------------------------


def sole_error_after_editing_rules(content_copy, tmp_path, old: str, new: str) -> str:
    """The one content error a sheet build reports after `old` becomes `new` in rules.yaml; the
    build writes nothing."""
    edit(content_copy / "game-of-trains" / "rules.yaml", old, new)
    content = load_game(content_copy, "game-of-trains")
    with pytest.raises(ContentErrors) as info:
        render_rule_sheet(content, "en", tmp_path / "r.pdf")
    assert not (tmp_path / "r.pdf").exists()
    (message,) = [str(e) for e in info.value.errors]
    return message


def test_unknown_diagram_is_a_content_error_naming_the_line(content_copy, tmp_path):
    rules = content_copy / "game-of-trains" / "rules.yaml"
    message = sole_error_after_editing_rules(content_copy, tmp_path, "diagram: shift", "diagram: turntable")
    assert re.match(rf"{re.escape(str(rules))}:\d+:\d+: \$\.sections\[\d+\]\.diagram: unknown diagram 'turntable'", message)


class PlainGame(GameDefinition):
    """A registered game with no rules engine and no parts of its own."""

    id = "plain-game"

    def draw_face(self, canvas, content, card, rect, bleed):
        pass

    def draw_back(self, canvas, content, back_id, rect, bleed):
        pass


def test_a_game_without_abilities_or_engine_gets_only_its_sections(tmp_path, monkeypatch):
    monkeypatch.setattr(cardgen.registry, "_GAMES", registered())  # a copy: the game leaves with the test
    register(PlainGame())
    game = {
        "id": "plain-game", "title": {"en": "Plain Game", "zh-Hant": "平凡遊戲"},
        "published": {"year": 2001, "designers": ["A. Person"]}, "players": {"min": 2, "max": 5},
        "backs": {"b": {"title": {"en": "x", "zh-Hant": "x"}, "colour": "#335533"}}, "decks": [],
    }
    rules = {"sections": [{"id": "goal", "title": {"en": "Goal", "zh-Hant": "目標"},
                           "body": {"en": "Win with {players_max} at most.", "zh-Hant": "最多 {players_max} 人。"}}]}
    content = GameContent("plain-game", tmp_path, files={"game": game, "rules": rules})
    text = pdf_text(render_rule_sheet(content, "en", tmp_path / "plain.pdf"))
    assert "1 Goal" in " ".join(text.split()) and "Win with 5 at most." in text
    assert "Abilities" not in text and "Rulings" not in text and "notation" not in text


def test_body_markup_splits_paragraphs_bullets_steps_and_notes():
    text = "First line\ncontinues.\n\n- one\n  more\n- two\n\n1. a\n2. b\n\n> **Note:** this"
    assert parse_blocks(text) == [
        Block("paragraph", ("First line continues.",)),
        Block("bullets", ("one more", "two")),
        Block("steps", ("a", "b")),
        Block("note", ("**Note:** this",)),
    ]
    assert parse_blocks("中文第一行\n第二行") == [Block("paragraph", ("中文第一行第二行",))]


def test_rulings_are_printed_as_question_and_answer(content_copy, tmp_path, stand_in_engine):
    write_example(content_copy, "[10, 20, 30, 40, 50, 60, 70]")
    (content_copy / "game-of-trains" / "rulings.yaml").write_text(
        "rulings:\n"
        "  - id: ends-swap\n"
        "    question: {en: 'May the two end carriages be swapped?', zh-Hant: 可以交換頭尾兩節嗎？}\n"
        "    ruling: {en: 'Only with the stand-in engine of this test.', zh-Hant: 只限本測試的替身引擎。}\n"
        "    scenario: scenarios/example-swap.yaml\n", "utf-8")
    content = load_game(content_copy, "game-of-trains")
    english = pdf_text(render_rule_sheet(content, "en", tmp_path / "en.pdf"))
    chinese = flat(pdf_text(render_rule_sheet(content, "zh-Hant", tmp_path / "zh.pdf")))
    assert "Q. May the two end carriages be swapped?" in english
    assert "A. Only with the stand-in engine of this test." in english
    assert "問：可以交換頭尾兩節嗎？" in chinese and "答：只限本測試的替身引擎。" in chinese


def test_diagrams_print_the_terms_of_rules_yaml(sheets):
    content, paths = sheets
    for lang in LANGUAGES:
        text = flat(pdf_text(paths[lang]))
        for key in ("locomotive", "draw-pile", "market", "discard-pile", "before", "after"):
            assert flat(content.files["rules"]["terms"][key][lang]) in text, (lang, key)


def test_chinese_sentences_from_folded_yaml_lose_the_joining_space(sheets):
    _, paths = sheets
    # abilities.yaml folds ability 3's Chinese text over two lines; the sheet must not show the seam.
    assert "挪一格。最右邊兩節" in flat(pdf_text(paths["zh-Hant"]))
    assert "挪一格。 最右邊" not in pdf_text(paths["zh-Hant"])


def test_a_section_opening_with_a_kept_together_block_is_not_pushed_to_a_new_page():
    # Rulings and worked examples are each kept together; a section that opens with one must
    # still start on the current page when there is room for its heading and that block.
    from io import BytesIO

    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer

    from cardgen.rulesheet import with_heading

    style = getSampleStyleSheet()["Normal"]
    head = [Spacer(1, 1), Paragraph("14 Rulings", style), Spacer(1, 3)]
    ruling = KeepTogether([Paragraph("Q. Short question?", style), Paragraph("A. Short answer.", style)])
    doc = SimpleDocTemplate(BytesIO(), invariant=1)
    doc.build([Paragraph("Text before the section.", style)] + with_heading(head, [ruling]))
    assert doc.page == 1


def test_a_part_taller_than_a_page_keeps_each_group_inside_it_on_one_page():
    # A rule with its worked example, together taller than a page: the part flows on from where
    # it starts, its heading stays with its first paragraph, and the example with its picture.
    from io import BytesIO

    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer

    from cardgen.rulesheet import KeepGroups, Rule, with_heading

    class Recording(SimpleDocTemplate):
        def afterFlowable(self, flowable):
            pages[id(flowable)] = self.page

    pages: dict[int, int] = {}
    style = getSampleStyleSheet()["Normal"]
    heading = Paragraph("11 Climbs", getSampleStyleSheet()["Heading1"])
    rule = [Paragraph(f"Rule text, paragraph {n}. " * 14, style) for n in range(10)]
    title, picture = Paragraph("Example: at the foot of a climb", style), Spacer(1, 300)
    doc = Recording(BytesIO(), invariant=1)
    story = [Paragraph("The part before.", style)]
    part = KeepGroups(rule + [KeepTogether([title, picture])])
    story += with_heading([Spacer(1, 1), heading, Rule("#000000")], [part])
    doc.build(story)
    assert pages[id(heading)] == pages[id(rule[0])] == 1  # no new page for a part no page could hold
    assert pages[id(title)] == pages[id(picture)] == 2


def test_no_space_is_left_where_a_bold_chinese_term_meets_a_folded_line():
    assert parse_blocks("穩定出力的\n**破風手**,以及") == [Block("paragraph", ("穩定出力的**破風手**,以及",))]
    assert tidy("**打出的卡。** 本回合") == "**打出的卡。**本回合"
    assert tidy("**Played cards.** The cards") == "**Played cards.** The cards"


def test_a_section_places_its_examples_and_a_missing_one_is_a_content_error(content_copy, tmp_path):
    message = sole_error_after_editing_rules(content_copy, tmp_path, "examples: [win-by-draw]", "examples: [win-by-lottery]")
    assert "$.sections[5].examples[0]: no scenario scenarios/win-by-lottery.yaml" in message


def test_examples_stand_under_their_rules_with_their_titles(sheets):
    content, paths = sheets
    text = " ".join(pdf_text(paths["en"]).split())
    # Under "A turn", before the market's section; no generic part gathers them at the end.
    assert text.index("Example: a draw that wins") < text.index("The market and the pair rule")
    assert "Worked examples" not in text


def test_the_cover_prints_what_game_yaml_gives(content_copy, tmp_path):
    game = content_copy / "game-of-trains" / "game.yaml"
    edit(game, "players: {min: 2, max: 4}\n",
         "players: {min: 2, max: 4}\nplay_time: 20\nage: 8\nbest_players: 3\npublisher: {en: Lifestyle Boardgames, zh-Hant: 生活方式桌遊}\n")
    content = load_game(content_copy, "game-of-trains")
    english = " ".join(pdf_text(render_rule_sheet(content, "en", tmp_path / "en.pdf")).split())
    chinese = flat(pdf_text(render_rule_sheet(content, "zh-Hant", tmp_path / "zh.pdf")))
    assert "2–4 players · best with 3 · about 20 minutes · ages 8+" in english
    assert "Published by Lifestyle Boardgames" in english
    assert "3人最佳" in chinese and "約20分鐘" in chinese and "8歲以上" in chinese and "出版：生活方式桌遊" in chinese


def test_another_reading_is_a_variant_in_words_without_measured_figures(sheets):
    content, paths = sheets
    english = " ".join(pdf_text(paths["en"]).split())
    chinese = flat(pdf_text(paths["zh-Hant"]))
    assert "Variant: In turn: starting with the first player" in english and "變體：" in chinese
    assert "House rule" not in english and "simulated" not in english and "家規" not in chinese


def test_a_one_page_section_is_kept_whole():
    from cardgen.rulesheet import Sheet, Styles, accent_colour, build_story
    from cardgen.content import PROJECT_CONTENT
    from cardgen.pdfdoc import register_fonts
    from cardgen.registry import definition_for
    from reportlab.platypus import KeepTogether

    content = load_game(PROJECT_CONTENT, "game-of-trains")
    register_fonts()  # as the sheet's own rendering does first (a test run alone has none yet)
    sheet = Sheet(content, "en", Styles("en", accent_colour(content)), cardgen.rulesheet.replay_examples(content),
                  definition_for(content.id))
    story = build_story(sheet)
    kept = [f for f in story if isinstance(f, KeepTogether)
            and any(getattr(g, "text", "").endswith("Turn summary") for g in f._content)]
    assert kept, "the turn summary is not kept together with its heading"
    assert not any(isinstance(g, KeepTogether) for g in kept[0]._content)


@pytest.mark.parametrize("game", ["flamme-rouge", "game-of-trains", "moscow-to-paris", "spectral-rails",
                                  "ticket-to-ride-card-game"])
def test_the_scenarios_left_unread_for_examples_hold_none(game):
    """The replay reads only scenario files that can carry `example:`; every file it passes over,
    read in full, carries none."""
    from cardgen.content import PROJECT_CONTENT
    from verify.scenario import load_scenario

    content = load_game(PROJECT_CONTENT, game)
    skipped = [p for p in content.scenario_paths if not cardgen.rulesheet._may_hold_example(p)]
    assert skipped, "every scenario file was read"
    assert not [p.name for p in skipped if "example" in load_scenario(p)[0]]


def test_a_scenario_that_spells_example_through_an_escape_is_read(tmp_path):
    plain, escaped, other = tmp_path / "plain.yaml", tmp_path / "escaped.yaml", tmp_path / "other.yaml"
    plain.write_text("title: t\nplayers: 2\nsteps: []\nexample: {en: a, zh-Hant: b}\n", "utf-8")
    escaped.write_text('title: t\nplayers: 2\nsteps: []\n"\\x65xample": {en: a, zh-Hant: b}\n', "utf-8")
    other.write_text("title: t\nplayers: 2\nsteps: []\n", "utf-8")
    assert [cardgen.rulesheet._may_hold_example(p) for p in (plain, escaped, other, tmp_path / "gone.yaml")] == \
        [True, True, False, True]
