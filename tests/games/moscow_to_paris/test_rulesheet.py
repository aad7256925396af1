"""The Moscow to Paris rule sheet read as a new player reads it: every worked example pictures the
engine's position right around the steps its text narrates and holds every card and city the
text names; each example stands on the page of the rule it shows; labels are never cut; the sheet
speaks a player's words only, in both languages; the pages leave no large blank; the cover, the
legend and the turn summary are there."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from cardgen.content import LANGUAGES, PROJECT_CONTENT, iter_texts, load_game
from cardgen.games.moscow_to_paris import diagrams
from cardgen.pdfdoc import SANS, register_fonts
from cardgen.rulesheet import LAST_PAGE_FILL, render_rule_sheet, replay_examples, worked_example
from cardgen.yamlio import load_yaml
from verify.scenario import load_scenario

PAPERS = ("a4", "letter")


@pytest.fixture(scope="module")
def content():
    register_fonts()
    return load_game(PROJECT_CONTENT, "moscow-to-paris")


@pytest.fixture(scope="module")
def sheets(content, tmp_path_factory):
    """Every rule sheet of the game: {(paper, lang): (path, page texts, page fill)}."""
    folder = tmp_path_factory.mktemp("rules")
    built = {}
    for paper in PAPERS:
        for lang in LANGUAGES:
            path = render_rule_sheet(content, lang, folder / f"rules-{paper}-{lang}.pdf", paper)
            texts = [page.extract_text() for page in PdfReader(path).pages]
            built[paper, lang] = (path, texts, LAST_PAGE_FILL[path])
    return built


def example_stems(content) -> list[str]:
    return [path.stem for path in content.scenario_paths if "example" in load_scenario(path)[0]]


def painted(picture):
    """Draw a picture on a throwaway canvas, so its painter records what it drew."""
    canvas = Canvas(io.BytesIO(), pagesize=(picture.width, picture.height))
    picture.paint(canvas)
    return picture


def card_names(content, lang) -> dict[str, str]:
    """The name a text uses for each train card, action card and city: name -> the id a picture
    draws it by (an action card by its effect)."""
    names = {}
    for card in content.cards:
        key = card.get("effect", card["id"])
        names[card["name"][lang]] = key
    return names


def named_cards(content, lang, text) -> set[str]:
    found = set()
    for name, key in card_names(content, lang).items():
        pattern = re.escape(name) if lang.startswith("zh") else rf"\b{re.escape(name)}\b"
        if re.search(pattern, text):
            found.add(key)
    return found


def line_cards(position, i) -> list[str]:
    return list(position[f"line{i}"])


# --- the pictures of the worked examples ---------------------------------------------------------

def test_every_example_names_the_steps_it_narrates(content):
    stems = example_stems(content)
    assert len(stems) >= 5
    missing = [stem for stem in stems if "steps" not in load_scenario(content.root / "scenarios" / f"{stem}.yaml")[0]["example"]]
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_example_picture_shows_the_engines_position_right_around_its_steps(content, lang):
    for example in replay_examples(content):
        wanted = example.data["example"]["steps"]
        first, last = (wanted, wanted) if isinstance(wanted, int) else wanted
        sides = {"before": example.positions[first - 1], "after": example.positions[last]}
        picture = painted(diagrams.example_diagram(content, lang, example))
        zones = picture.painter.by_zone
        assert picture.shows["lines"] or picture.shows["players"], example.path.stem
        assert picture.width <= diagrams.EXAMPLE_WIDTH, example.path.stem  # it fits the text column
        for which, position in sides.items():
            for i in picture.shows["lines"]:
                assert Counter(zones.get((which, f"line{i}"), [])) == Counter(line_cards(position, i)), \
                    f"{example.path.stem}: {which}, line {i}"
            for player in picture.shows["players"]:
                for key in ("front", "hand", "taken"):
                    drawn = zones.get((which, key, player), [])
                    assert Counter(drawn) == Counter(position[key][player]), f"{example.path.stem}: {which} {key} of {player}"
        if picture.shows["final"]:
            for player, cities in sides["after"]["taken"].items():
                assert Counter(zones[("score", player)]) == Counter(cities)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_example_picture_holds_every_card_city_and_player_its_text_names(content, lang):
    problems = []
    for example in replay_examples(content):
        text = example.data["example"][lang]
        picture = painted(diagrams.example_diagram(content, lang, example))
        missing = named_cards(content, lang, text) - set(picture.painter.drawn)
        players = set(re.findall(r"P\d", text)) - set(picture.shows["players"])
        if missing or players:
            problems.append(f"{example.path.stem}: {sorted(missing | players)} named but not drawn")
    assert problems == []


def test_the_final_count_in_a_picture_agrees_with_the_engines_scores(content):
    example = worked_example(content, "end-three-cities")
    cards = {c["id"]: c for c in content.cards}
    for player, cities in example.after["taken"].items():
        rows = diagrams.flag_rows(content, cities)
        total = sum(cards[city]["points"] for row, _ in rows for city in row) + sum(bonus for _, bonus in rows)
        assert total == example.after["breakdown"][player]["total"], player


def test_the_legend_shows_every_train_card_and_every_action_card(content):
    picture = painted(diagrams.legend_diagram(content, "en"))
    expected = [c["id"] for c in content.cards if c["deck"] == "trains"] + \
               [c["effect"] for c in content.cards if c["deck"] == "actions"]
    assert picture.painter.drawn == expected


# --- labels ---------------------------------------------------------------------------------------

def test_a_label_too_wide_for_its_room_is_set_smaller_or_wrapped_never_cut():
    text = "line limit: the most train cards beside it"
    lines, size = diagrams.fitted_lines(text, SANS, 8, 30, smallest=8)
    assert " ".join(lines) == text and len(lines) > 1 and size == 8
    assert all(stringWidth(line, SANS, size) <= 30 for line in lines)
    lines, size = diagrams.fitted_lines("Smolensk", SANS, 8, 25, smallest=4)
    assert lines == ["Smolensk"] and size < 8 and stringWidth("Smolensk", SANS, size) <= 25


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_city_a_picture_draws_is_named_whole(content, lang, tmp_path):
    pictures = [diagrams.example_diagram(content, lang, example) for example in replay_examples(content)]
    pictures += [diagrams.DIAGRAMS[name](content, lang) for name in ("table", "setup", "legend")]
    cities = {c["id"]: c["name"][lang] for c in content.cards if c["deck"] in ("cities", "special-cities")}
    problems = []
    for n, picture in enumerate(pictures):
        path = tmp_path / f"picture-{n}.pdf"
        canvas = Canvas(str(path), pagesize=(picture.width, picture.height))
        picture.paint(canvas)
        canvas.save()
        text = re.sub(r"\s+", "", PdfReader(path).pages[0].extract_text())
        drawn = getattr(picture, "painter", None)
        for city in set(drawn.drawn if drawn else []) & set(cities):
            if cities[city].replace(" ", "") not in text:
                problems.append(f"picture {n}: {cities[city]}")
    assert problems == []


# --- the sheet as a whole -------------------------------------------------------------------------

FORBIDDEN = {
    "en": ["--", "cardgen", "engine", "scenario", "replay", "refuse", "parameter", "simulat", "claim=", "Rulings"],
    "zh-Hant": ["--", "cardgen", "引擎", "參數", "模擬", "重新演算", "規則裁定", "路線"],
}


def test_the_sheets_speak_a_players_words_only(sheets):
    problems = []
    for (paper, lang), (_, texts, _) in sheets.items():
        for n, text in enumerate(texts, 1):
            problems += [f"{paper} {lang} page {n}: {word!r}" for word in FORBIDDEN[lang] if word.lower() in text.lower()]
        title = "Questions and answers" if lang == "en" else "問與答"
        assert any(title in text for text in texts), (paper, lang)
    assert problems == []


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\xa0", " "))


def test_each_example_stands_on_the_page_of_the_rule_it_shows(content, sheets):
    sections = content.files["rules"]["sections"]
    for (paper, lang), (_, texts, _) in sheets.items():
        pages = [_flat(text) for text in texts]
        shown = 0
        for number, section in enumerate(sections, 1):
            heading = f"{number} {section['title'][lang]}"
            at = [n for n, page in enumerate(pages) if heading in page]
            assert at, (paper, lang, heading)
            for _ in section.get("examples", []):
                shown += 1
                label = rf"(Example|範例) {shown}(?!\d)"
                assert re.search(label, pages[at[0]]), f"{paper} {lang}: example {shown} is not on the page of {heading!r}"


def test_no_page_but_the_last_is_more_than_a_quarter_blank(sheets):
    blank = [f"{paper} {lang} page {n}: {gap:.0%}" for (paper, lang), (_, _, fill) in sheets.items()
             for n, (gap, _) in enumerate(fill[:-1], 1) if gap > 0.25]
    assert blank == []


def test_the_cover_gives_players_and_play_time(content, sheets):
    assert content.game["play_time"] == 30
    first = {lang: _flat(sheets["a4", lang][1][0]) for lang in LANGUAGES}
    assert "2–4 players" in first["en"] and "30 minutes" in first["en"]
    assert "2–4 人" in first["zh-Hant"] and "30 分鐘" in first["zh-Hant"]


def test_the_turn_summary_stays_whole_on_one_page(content, sheets):
    terms = content.files["rules"]["terms"]
    for (paper, lang), (_, texts, _) in sheets.items():
        pages = [_flat(text).replace(" ", "") for text in texts]
        first, last = (terms[key][lang].replace(" ", "") for key in ("summary-turn", "summary-end-head"))
        holding = [n for n, page in enumerate(pages) if first in page]
        assert holding and last in pages[holding[0]], (paper, lang)


def test_no_chinese_line_ends_with_an_opening_bracket(sheets):
    offenders = [f"{paper} page {n}: {line[-12:]}" for (paper, lang), (_, texts, _) in sheets.items() if lang == "zh-Hant"
                 for n, text in enumerate(texts, 1) for line in text.splitlines() if line.rstrip()[-1:] in "（「『"]
    assert offenders == []


def test_chinese_texts_use_full_width_brackets_no_english_words_and_one_term_for_a_line(content):
    files = [content.root / name for name in ("rules.yaml", "rulings.yaml", "cards.yaml")]
    files += [content.root / "scenarios" / f"{stem}.yaml" for stem in example_stems(content)]
    problems = []
    for path in files:
        data, _ = load_yaml(Path(path))
        for json_path, text in iter_texts(data):
            if json_path[-1] != "zh-Hant":
                continue
            plain = re.sub(r"\{[a-z_-]+\}", "", text)
            for pattern in (r"[()]", r"[A-Za-z]{2,}", "路線"):
                if re.search(pattern, plain):
                    problems.append(f"{Path(path).name} {list(json_path)}: {re.search(pattern, plain).group()!r}")
    assert problems == []


def test_the_city_table_breaks_no_english_word(content, sheets):
    terms = content.files["rules"]["terms"]
    words = {word for key in ("col-city", "col-country", "col-points", "col-capital", "col-line")
             for word in terms[key]["en"].split()}
    for paper in PAPERS:
        texts = sheets[paper, "en"][1]
        page = next(text for text in texts if terms["reconstructed-cities"]["en"] in _flat(text))
        tokens = set(page.split())
        assert words <= tokens, (paper, sorted(words - tokens))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_city_in_an_example_picture_shows_its_line_limit(content, lang):
    limits = {c["id"]: c["line"] for c in content.cards if c["deck"] in ("cities", "special-cities")}
    for example in replay_examples(content):
        painter = painted(diagrams.example_diagram(content, lang, example)).painter
        drawn = set(painter.drawn) & set(limits)
        assert {city: painter.limits_shown.get(city) for city in drawn} == {city: limits[city] for city in drawn}, \
            example.path.stem


def test_a_section_naming_a_scenario_that_is_no_example_is_refused_with_its_place(content, tmp_path):
    import shutil

    from cardgen.errors import ContentErrors

    copy = tmp_path / "content"
    shutil.copytree(PROJECT_CONTENT, copy)
    rules_path = copy / "moscow-to-paris" / "rules.yaml"
    text = rules_path.read_text(encoding="utf-8")
    assert "  - id: overview\n" in text
    rules_path.write_text(text.replace("  - id: overview\n", "  - id: overview\n    examples: [deal]\n"), encoding="utf-8")
    with pytest.raises(ContentErrors) as caught:
        render_rule_sheet(load_game(copy, "moscow-to-paris"), "en", tmp_path / "rules.pdf")
    assert "scenarios/deal.yaml has no example: text" in str(caught.value.errors[0])
    assert "rules.yaml" in str(caught.value.errors[0]) and not (tmp_path / "rules.pdf").exists()
