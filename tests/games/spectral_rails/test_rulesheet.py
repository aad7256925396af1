"""The Spectral Rails rule sheet as a new player reads it: every worked example pictures the
engine's own positions right around the steps its words narrate and draws everything those words
name, trains stand inside their towns, no label is cut short, the examples sit under their rules,
the words are a player's (no tool, option or process named; Traditional Chinese only), and the
pages hold together (summary whole, no page left mostly blank in the middle of a part)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.content import LANGUAGES, PROJECT_CONTENT, load_game
from cardgen.games.spectral_rails import examples as ex
from cardgen.pdfdoc import register_fonts
from cardgen.rulesheet import LAST_PAGE_FILL, render_rule_sheet, worked_example
from verify.scenario import load_scenario, run_scenario

STEMS = [stem for stems in ex.EXAMPLES.values() for stem in stems]


@pytest.fixture(scope="module")
def content():
    register_fonts()
    return load_game(PROJECT_CONTENT, "spectral-rails")


@pytest.fixture(scope="module")
def sheets(content, tmp_path_factory):
    folder = tmp_path_factory.mktemp("sr-rules")
    paths = {lang: render_rule_sheet(content, lang, folder / f"rules-{lang}.pdf") for lang in LANGUAGES}
    return {lang: [page.extract_text() for page in PdfReader(path).pages] for lang, path in paths.items()}, paths


def term(content, key, lang):
    return content.files["rules"]["terms"][key][lang]


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


# --- pictures at the narrated steps --------------------------------------------------------------


def test_every_scenario_marked_as_an_example_is_placed_under_a_rule(content):
    marked = []
    for path in content.scenario_paths:
        data, _ = load_scenario(path)
        if "example" in data:
            marked.append(path.stem)
            assert "steps" in data["example"], f"{path.name} names no steps for its example"
    assert sorted(marked) == sorted(STEMS)
    placed = {s.get("generated") for s in content.files["rules"]["sections"]}
    assert set(ex.EXAMPLES) <= placed


def _scene_position(scene, view_x: float, players) -> dict:
    """What one view of a scene shows, read back from the items drawn in it."""
    inside = [i for i in scene.items if view_x - 1 <= i.x < view_x + ex.VIEW_W]
    shown = {"trains": {}, "track": {}, "waiting": {}}
    for item in inside:
        if item.kind == "train" and item.where != "mat":
            shown["trains"][item.owner] = item.where
        elif item.kind == "trail":
            shown["track"][item.key] = item.owner
        elif item.kind == "soul":
            shown.setdefault(item.where, []).append(item.key)
        elif item.kind == "card":
            shown.setdefault(item.where, []).append(item.key)
        elif item.kind == "coin":
            shown[f"coins.{item.owner}"] = shown.get(f"coins.{item.owner}", 0) + 1
        elif item.kind == "supply":
            shown[f"pieces.{item.owner}"] = int(item.key)
    return shown


@pytest.mark.parametrize("stem", STEMS)
def test_each_picture_is_the_engines_position_right_before_and_after_the_narrated_steps(content, stem):
    example = worked_example(content, stem)
    data, _ = load_scenario(example.path)
    steps = data["example"]["steps"]
    first, last = (steps, steps) if isinstance(steps, int) else steps
    positions = run_scenario(example.path, _engine(content), record=True).positions
    scene = ex.scene(content, "en", example)
    players = ex.SHOWN[stem]["players"]
    views = dict(ex.views(example))
    expected = {"before": positions[first - 1], "after": positions[last]}
    for k, key in enumerate(views):
        fields = expected[key]
        shown = _scene_position(scene, k * (ex.VIEW_W + ex.VIEW_GAP), players)
        if ex.SHOWN[stem].get("ring", True):
            assert shown["trains"] == {p: t for p, t in fields["trains"].items() if t is not None}, (stem, key)
            assert shown["track"] == fields["track"], (stem, key)
            for town in {t["id"] for t in data["setup"]["map"]["towns"]}:
                assert shown.get(f"waiting.{town}", []) == fields[f"at.{town}"], (stem, key, town)
        for player in players:
            for zone in ("aboard", "delivered_one", "delivered_two"):
                assert shown.get(f"{zone}.{player}", []) == fields[f"{zone}.{player}"], (stem, key, zone)
            for zone in ("hand", "row", "bid"):
                assert shown.get(f"{zone}.{player}", []) == fields[f"{zone}.{player}"], (stem, key, zone)
            assert shown.get(f"coins.{player}", 0) == len(fields[f"coins.{player}"]), (stem, key)
            assert shown[f"pieces.{player}"] == fields[f"pieces.{player}"], (stem, key)


def _engine(content):
    from verify.games.spectral_rails.rules import SpectralRails

    return SpectralRails(content)


def test_a_picture_changes_when_the_narrated_steps_change(content, tmp_path):
    """The picture follows `steps`: narrating only the boarding leaves the train at Ash."""
    import shutil

    from cardgen.content import load_game as load

    copy = tmp_path / "content"
    shutil.copytree(PROJECT_CONTENT, copy)
    scenario = copy / "spectral-rails" / "scenarios" / "boarding-and-delivery.yaml"
    scenario.write_text(scenario.read_text("utf-8").replace("steps: [3, 10]", "steps: 3"), "utf-8")
    example = worked_example(load(copy, "spectral-rails"), "boarding-and-delivery")
    shown = _scene_position(ex.scene(content, "en", example), ex.VIEW_W + ex.VIEW_GAP, ("P1",))
    assert shown["trains"]["P1"] == "ash" and shown["aboard.P1"] == ["d-coal-1"] and shown["track"] == {}


# Words in an example's text that name a thing the picture must hold.
CARD_WORDS = {
    "en": re.compile(r"\b(?:a|the|another|both) ([1-4])s?\b|\b([1-4]) and (?:the |a )?([1-4])\b"),
    "zh-Hant": re.compile(r"(?:一張|張|那張|這張)([1-4])|([1-4])和([1-4])"),
}
SOUL_WORDS = {"en": r"souls? (?:bound )?for {town}|{town} soul", "zh-Hant": r"前往{town}的"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("stem", STEMS)
def test_every_town_card_soul_and_player_the_text_names_is_drawn(content, stem, lang):
    example = worked_example(content, stem)
    text = term(content, f"example-{stem}", lang)
    scene = ex.scene(content, lang, example)
    labels = [i.text for i in scene.of("label")]
    towns = [t["id"] for t in example.data["setup"]["map"]["towns"]]
    ring = ex.SHOWN[stem].get("ring", True)
    for town in towns:
        name = term(content, f"town-{town}", lang)
        if name in text and ring:
            assert any(i.key == town for i in scene.of("town")) and name in labels, (stem, name)
        if re.search(SOUL_WORDS[lang].format(town=re.escape(name)), text):
            assert any(i.key[2:].startswith(town) for i in scene.of("soul")), (stem, lang, "soul", town)
    cards = {i.key[1:] for i in scene.of("card")}
    for found in CARD_WORDS[lang].finditer(text):
        for value in filter(None, found.groups()):
            assert value in cards, (stem, lang, "card", value)
    drawn = {i.owner for i in scene.items if i.kind in ("train", "player")}
    for player in set(re.findall(r"P[1-4]", text)):
        assert player in drawn, (stem, lang, player)


@pytest.mark.parametrize("stem", STEMS)
def test_a_train_stands_inside_its_towns_circle(content, stem):
    scene = ex.scene(content, "en", worked_example(content, stem))
    towns = {}
    for item in scene.of("town"):
        towns.setdefault(item.key, []).append(item)
    for train in scene.of("train"):
        if train.where == "mat":
            continue
        circle = min(towns[train.where], key=lambda t: abs(t.centre[0] - train.centre[0]))
        cx, cy = circle.centre
        for x in (train.x, train.x + train.w):
            for y in (train.y, train.y + train.h):
                assert (x - cx) ** 2 + (y - cy) ** 2 <= (circle.w / 2) ** 2, (stem, train.owner, train.where)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_label_is_cut_short(content, lang):
    for stem in STEMS:
        scene = ex.scene(content, lang, worked_example(content, stem))
        for label in scene.of("label"):
            assert 0 <= label.x and label.x + stringWidth(label.text, label.font, label.size) <= scene.width + 0.01, \
                (stem, label.text)
        names = {term(content, f"town-{t}", lang) for t in ("ash", "bell", "coal", "dune", "elm", "fort")}
        printed = {i.text for i in scene.of("label")}
        if ex.SHOWN[stem].get("ring", True):
            assert names <= printed, (stem, names - printed)  # every town's whole name, never a stub


def test_a_label_too_wide_wraps_rather_than_being_cut(content):
    scene = ex.Scene(100, 100)
    lines = ex.fit_label(scene, "a very long label that cannot fit in a narrow box", "en", 0, 50, 40, 8)
    assert len(lines) > 1 and " ".join(i.text for i in lines) == "a very long label that cannot fit in a narrow box"
    assert all(stringWidth(i.text, i.font, i.size) <= 40 for i in lines)


# --- the sheet as printed --------------------------------------------------------------------------

FORBIDDEN = re.compile(r"cardgen|\bengine|scenario|replay|refused|parameter|simulat|\boptions?\b|--|[A-Za-z_]=[A-Za-z0-9]|house rule",
                       re.IGNORECASE)
SEED_STEPS = re.compile(r"(?<![A-Za-z])[ABC]-\d")
# Characters written only in Simplified Chinese, each with a Traditional form the sheet uses.
SIMPLIFIED = set("这个们说时车从为会后过发对开门间还进边样长见动东无与关实现两种点类给经将让应该设计图计划数选择场张")


def test_the_sheet_speaks_a_players_words_only(sheets):
    texts, _ = sheets
    for lang, pages in texts.items():
        text = "\n".join(pages)
        found = FORBIDDEN.search(text)
        assert not found, (lang, text[max(0, found.start() - 60):found.end() + 20])
        assert not SEED_STEPS.search(text), (lang, SEED_STEPS.search(text).group())
    zh = "\n".join(texts["zh-Hant"])
    assert not set(zh) & SIMPLIFIED, set(zh) & SIMPLIFIED
    assert "PASS" not in zh and "(publisher)" not in zh
    for line in zh.splitlines():
        assert not line.rstrip().endswith(("（", "「", "『")), line


def _chinese_texts(content):
    """Every Chinese sentence the sheet prints from rules.yaml and rulings.yaml."""
    rules = content.files["rules"]
    texts = [s["body"]["zh-Hant"] for s in rules["sections"]] + [s["title"]["zh-Hant"] for s in rules["sections"]]
    texts += [t["zh-Hant"] for t in rules["terms"].values()]
    for ruling in content.files["rulings"]["rulings"]:
        texts += [ruling["question"]["zh-Hant"], ruling["ruling"]["zh-Hant"]]
        texts += [a["text"]["zh-Hant"] for a in ruling.get("alternatives", [])]
    return texts


def test_chinese_text_has_no_english_words_half_width_brackets_or_turns_called_rounds(content):
    allowed = {"R.I.P.", "DARK", "LIGHT"}  # printed on the tokens themselves, as the English edition reads
    for text in _chinese_texts(content):
        if text in allowed:
            continue
        assert not re.search(r"[A-Za-z]{2,}", re.sub(r"\bP[1-4]\b|\{[a-z_-]+\}|（I+）", "", text)), text
        assert "(" not in text and ")" not in text, text
        # 回合 is a round; a player's turn is 行動 (這次行動, 輪到你時)
        assert not re.search(r"(本回合|這個回合)(鋪設|火車|行駛)|(道路|移動|上車|歸靈)的回合|你的回合", text), text
        assert "—" not in text and "－" not in text, text  # one dash style: none in running text


def test_cover_gives_players_play_time_and_publisher(sheets):
    texts, _ = sheets
    en, zh = flat(texts["en"][0]), flat(texts["zh-Hant"][0])
    assert "3–4players·about75minutes" in en and "PublishedbyZ-ManGames(2011)" in en
    assert "75分鐘" in zh and "出版：Z-ManGames（2011）" in zh
    assert "publisher" not in en.lower() and "Designed" not in en


def test_readings_of_open_sentences_are_noted_at_their_rules_and_answered(sheets, content):
    texts, _ = sheets
    for lang, note, qa in (("en", "Ourreading.", "SeeQuestionsandanswers."), ("zh-Hant", "本版的解讀。", "見「問與答」。")):
        text = flat("".join(texts[lang]))
        assert text.count(note) == 2 and text.count(qa) == 2
        assert flat(term(content, "anatomy-seats", lang)) in text  # the six seats are marked as ours
    assert "Questionsandanswers" in flat("".join(texts["en"])) and "問與答" in flat("".join(texts["zh-Hant"]))


def _page_of(pages: list[str], needle: str) -> int:
    hits = [n for n, page in enumerate(pages) if flat(needle) in flat(page)]
    assert hits, needle
    return hits[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_examples_sit_under_their_rule_with_text_and_picture_on_one_page(sheets, content, lang):
    texts, _ = sheets
    pages = texts[lang]
    sections = content.files["rules"]["sections"]
    headings = [_page_of(pages, f"{n}{s['title'][lang]}") for n, s in enumerate(sections, 1)]
    for n, section in enumerate(sections):
        for stem in ex.EXAMPLES.get(section.get("generated"), ()):
            words = re.sub(r"\*", "", term(content, f"example-{stem}", lang))
            title = term(content, f"example-{stem}-title", lang)
            page = _page_of(pages, title + words[:30])
            # under its own rule: after the rule's heading, before the next section's heading
            assert headings[n] <= page and (n + 1 == len(sections) or page <= headings[n + 1]), (stem, page)
            # its words end on the same page, and so does its picture (the views' captions)
            assert flat(words[-25:]) in flat(pages[page]), (stem, lang)
            assert flat(term(content, "after", lang)) in flat(pages[page]), (stem, lang)


def test_the_round_at_a_glance_stays_whole_on_one_page(sheets, content):
    texts, _ = sheets
    for lang, pages in texts.items():
        summary = re.sub(r"\*", "", term(content, "summary", lang)).splitlines()
        first, last = summary[0], [line for line in summary if line.strip()][-1]
        assert _page_of(pages, first) == _page_of(pages, last[-12:]), lang


def test_no_page_is_more_than_a_quarter_blank_inside_a_part(sheets):
    _, paths = sheets
    for lang, path in paths.items():
        fill = LAST_PAGE_FILL[Path(path)]
        for n, (blank, part_ended) in enumerate(fill[:-1], 1):
            assert blank <= 0.25 or part_ended, f"{lang} page {n} is {blank:.0%} blank in the middle of a part"


def test_odds_are_percentages_with_exact_fractions_in_the_appendix(sheets, content):
    from verify.games.spectral_rails.odds import setup_odds

    texts, _ = sheets
    text = flat("".join(texts["en"]))
    odds, appendix = text.index("Oddsworthknowing"), text.index("Appendix:theexactodds")
    for row in setup_odds(content):
        for p in (row["own_region"], row["one_region"]):
            assert f"{float(p) * 100:.0f}%" in text[odds:appendix]
            assert f"{p.p}/{p.q}" in text[appendix:] and f"{p.p}/{p.q}" not in text[odds:appendix]


def test_the_scoring_example_states_the_engines_scores(content):
    example = worked_example(content, "scoring")
    for lang in LANGUAGES:
        said = [int(v) for v in re.findall(r"\*\*(-?\d+)\*\*", term(content, "example-scoring", lang))]
        assert said == [example.after["score"][p] for p in ("P1", "P2", "P3")], lang
