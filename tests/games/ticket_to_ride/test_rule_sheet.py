"""The Ticket to Ride rule sheet as a new player reads it: every worked example stands under the
rule it shows, on that rule's page, and its picture draws every card, city and ticket its text
names, from the rules engine's own positions right around the steps the text narrates; the sheet
speaks a player's words only; the cover and the turn summary say what a player needs."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from cardgen.games.ticket_to_ride import faces, parts
from cardgen.pdfdoc import register_fonts
from cardgen.registry import engine_for
from cardgen.rulesheet import narrated_steps, render_rule_sheet, worked_example
from verify.scenario import load_scenario, run_scenario

EXAMPLES = list(parts.EXAMPLES.items())


@pytest.fixture(scope="module")
def sheets(ttr, tmp_path_factory):
    """Both languages built once: the text of each page, per language."""
    folder = tmp_path_factory.mktemp("ttr-rules")
    pages = {}
    for lang in ("en", "zh-Hant"):
        path = render_rule_sheet(ttr, lang, folder / f"rules-{lang}.pdf")
        pages[lang] = [page.extract_text() for page in PdfReader(path).pages]
    return pages


class RecordingCanvas(Canvas):
    """A canvas that keeps every string drawn on it."""

    def __init__(self):
        super().__init__(io.BytesIO())
        self.strings: list[str] = []

    def drawString(self, x, y, text, *args, **kwargs):
        self.strings.append(text)
        return super().drawString(x, y, text, *args, **kwargs)

    def drawCentredString(self, x, y, text, *args, **kwargs):
        self.strings.append(text)
        return super().drawCentredString(x, y, text, *args, **kwargs)

    def drawRightString(self, x, y, text, *args, **kwargs):
        self.strings.append(text)
        return super().drawRightString(x, y, text, *args, **kwargs)


def drawn(ttr, monkeypatch, name: str, lang: str = "en"):
    """The cards an example's picture draws (train colours, tickets, big cities) and its labels."""
    stem, draw = parts.EXAMPLES[name]
    cards: list = []
    face = faces.draw_face

    def recording_face(canvas, content, card, rect, bleed):
        cards.append(card.get("colour") or card.get("number") or
                     ("loco" if card["deck"] == "locomotives" else f"city:{card['city']}"))
        face(canvas, content, card, rect, bleed)

    monkeypatch.setattr(faces, "draw_face", recording_face)
    register_fonts()
    canvas = RecordingCanvas()
    picture = draw(ttr, lang, worked_example(ttr, stem))
    picture.paint(canvas)
    monkeypatch.undo()
    return cards, canvas.strings


def named_in(ttr, text: str) -> dict[str, set]:
    """The train colours, cities and tickets an English example text names."""
    colours = {c["id"] for c in ttr.files["colours"]["colours"] if re.search(rf"\b{c['name']['en']}\b", text)}
    if re.search(r"\blocomotives?\b", text):
        colours.add("loco")
    cities = {c["id"] for c in ttr.files["cities"]["cities"] if c["name"]["en"] in text}
    tickets = {card["number"] for card in ttr.cards if card["deck"] == "tickets"
               and parts.ticket_name(ttr, card["number"], "en") in text}
    return {"colours": colours, "cities": cities, "tickets": tickets}


def example_text(ttr, stem: str, lang: str) -> str:
    data, _ = load_scenario(ttr.root / "scenarios" / f"{stem}.yaml")
    return " ".join(data["example"][lang].split())


@pytest.mark.parametrize("name, spec", EXAMPLES, ids=[name for name, _ in EXAMPLES])
def test_an_example_picture_draws_every_card_city_and_ticket_its_text_names(ttr, monkeypatch, name, spec):
    stem, _ = spec
    named = named_in(ttr, example_text(ttr, stem, "en"))
    cards, labels = drawn(ttr, monkeypatch, name)
    tickets_drawn = [card for card in cards if isinstance(card, int)]
    cities_shown = {city for number in tickets_drawn for city in (parts.card_for(ttr, number)["from"], parts.card_for(ttr, number)["to"])}
    cities_shown |= {card[5:] for card in cards if isinstance(card, str) and card.startswith("city:")}
    assert named["colours"] <= set(cards), f"{stem}: named but not drawn: {named['colours'] - set(cards)}"
    assert named["cities"] <= cities_shown, f"{stem}: cities named but not drawn: {named['cities'] - cities_shown}"
    assert named["tickets"] <= set(tickets_drawn), f"{stem}: tickets named but not drawn"
    for number in named["tickets"]:
        assert parts.ticket_name(ttr, number, "en") in " ".join(labels)  # its cities written out legibly


# Zones each example's picture shows, to be drawn exactly as the engine has them at the moments
# the text narrates: the position right before its first step and right after its last.
SHOWN = {
    "phase-one": ["columns.P1", "tracks.P1"],
    "draw-face-up": ["faceup", "hand.P1"],
    "take-over-a-colour": ["columns.P1", "columns.P2", "hand.P1"],
    "end-of-deck": [],
    "scoring-best-allocation": ["tickets.P1", "tickets.P2"],
    "four-player-second-deck": ["tickets.P1", "tickets.P2", "tickets.P3", "tickets.P4"],
}


def zone_cards(position: dict, zone: str) -> list:
    value = position
    for part in zone.split("."):
        value = value[part]
    if isinstance(value, dict):  # rail-yard columns
        return [card for column in value.values() for card in column]
    return list(value)


@pytest.mark.parametrize("name, spec", EXAMPLES, ids=[name for name, _ in EXAMPLES])
def test_an_example_picture_shows_the_engines_positions_around_its_steps(ttr, monkeypatch, name, spec):
    stem, _ = spec
    path = ttr.root / "scenarios" / f"{stem}.yaml"
    data, _ = load_scenario(path)
    assert isinstance(data["example"], dict) and "steps" in data["example"], f"{stem} names no steps"
    first, last = narrated_steps(data)
    result = run_scenario(path, engine_for(ttr), record=True)
    assert result.ok, result.failures
    before, after = result.positions[first - 1], result.positions[last]
    cards, _ = drawn(ttr, monkeypatch, name)
    counted = Counter(cards)
    for zone in SHOWN[stem]:
        for moment in (before, after):
            needed = Counter(zone_cards(moment, zone))
            assert not needed - counted, f"{stem}: {zone} as the engine has it is not all drawn: {needed - counted}"
    if stem == "end-of-deck":  # every card drawn from the deck, turn by turn
        for player in before["hand"]:
            assert not Counter(after["hand"][player]) - counted


def test_a_picture_from_a_later_position_would_fail_the_step_check(ttr):
    """The four-player example narrates the end of the first deck: its tracks piles are only there
    before the reshuffle, so a picture of the scenario's last position could not pass."""
    example = worked_example(ttr, "four-player-second-deck")
    assert zone_cards(example.before, "tracks.P1") and not zone_cards(example.positions[-1], "tracks.P1")


def test_the_text_of_the_end_example_says_what_p3_does(ttr):
    text = example_text(ttr, "end-of-deck", "en")
    assert "P3 draws four tickets" in text and "plays cards" not in text


FORBIDDEN = re.compile(r"--\w|\w+=\w+|cardgen|engine|scenario|replay|refus|parameter|simulated|winner changed"
                       r"|劇本|引擎|重播|參數|模擬", re.IGNORECASE)


def test_the_sheet_speaks_a_players_words_only(sheets):
    found = [f"{lang} page {n}: {hit}" for lang, pages in sheets.items() for n, text in enumerate(pages, 1)
             for hit in FORBIDDEN.findall(text)]
    assert not found, found


def test_the_questions_and_answers_carry_their_shared_name_and_no_engine_question(sheets):
    assert any("Questions and answers" in text for text in sheets["en"])
    assert any("問與答" in text for text in sheets["zh-Hant"])
    assert not any("given back go under" in text or "In what order" in text for text in sheets["en"])


def heading_page(ttr, pages: list[str], section_id: str, lang: str) -> int:
    """The page of a section's numbered heading (every section of rules.yaml is printed, in order)."""
    sections = ttr.files["rules"]["sections"]
    number = next(n for n, s in enumerate(sections, 1) if s["id"] == section_id)
    return page_of(pages, f"{number} {next(s for s in sections if s['id'] == section_id)['title'][lang]}")


def on_page(page: str, words: str) -> bool:
    return re.sub(r"\s+", "", words) in re.sub(r"\s+", "", page)


def page_of(pages: list[str], words: str) -> int:
    squeeze = re.sub(r"\s+", "", words)
    found = [n for n, text in enumerate(pages) if squeeze in re.sub(r"\s+", "", text)]
    assert found, f"{words!r} not on the sheet"
    return found[0]


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_each_example_is_on_the_page_of_its_rule_heading(ttr, sheets, monkeypatch, lang):
    sections = {s["generated"]: s for s in ttr.files["rules"]["sections"] if str(s.get("generated", "")).startswith("example-")}
    assert set(sections) == set(parts.EXAMPLES)
    pages = sheets[lang]
    for name, (stem, _) in parts.EXAMPLES.items():
        heading = heading_page(ttr, pages, sections[name]["id"], lang)
        text = example_text(ttr, stem, lang)
        assert page_of(pages, text[:40]) == heading, f"{name}: text leaves its rule's page"
        assert page_of(pages, text[-30:]) == heading, f"{name}: text runs over a page"
        _, labels = drawn(ttr, monkeypatch, name, lang)
        page = re.sub(r"\s+", "", pages[heading])
        missing = [label for label in labels if re.sub(r"\s+", "", label) not in page]
        assert not missing, f"{name}: picture leaves its rule's page: {missing}"


def test_no_worked_examples_section_is_left_at_the_end(sheets):
    assert not any("Worked examples" in text for text in sheets["en"])
    assert not any("實例解說" in text for text in sheets["zh-Hant"])


def test_the_cover_gives_players_play_time_and_age(sheets):
    assert "2–4 players" in sheets["en"][0] and "30 minutes" in sheets["en"][0] and "ages 8+" in sheets["en"][0]
    assert "30 分鐘" in sheets["zh-Hant"][0] and "8 歲以上" in sheets["zh-Hant"][0]


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_the_turn_summary_stays_whole_on_one_page(ttr, sheets, lang):
    terms = ttr.files["rules"]["terms"]
    page = sheets[lang][heading_page(ttr, sheets[lang], "summary", lang)]
    for row in parts.SUMMARY_ROWS:
        assert on_page(page, terms[f"sum-{row}-head"][lang]) and on_page(page, terms[f"sum-{row}"][lang][-12:]), row


def test_the_best_matching_reading_is_marked_at_its_rule(ttr):
    scoring = next(s for s in ttr.files["rules"]["sections"] if s["id"] == "scoring")
    assert "Questions and answers" in scoring["body"]["en"] and "問與答" in scoring["body"]["zh-Hant"]


def chinese_texts(ttr) -> list[str]:
    """Every Chinese text of the sheet's own: rules, terms, answers and example texts (the card
    faces in the pictures are bilingual, as printed)."""
    rules = ttr.files["rules"]
    texts = [s[key]["zh-Hant"] for s in rules["sections"] for key in ("title", "body")]
    texts += [t["zh-Hant"] for t in rules["terms"].values()]
    texts += [r[key]["zh-Hant"] for r in ttr.files["rulings"]["rulings"] for key in ("question", "ruling")]
    texts += [example_text(ttr, stem, "zh-Hant") for stem, _ in parts.EXAMPLES.values()]
    return [re.sub(r"\{\w+\}|<\w+>", "", text) for text in texts]  # blanks the build fills in


def test_chinese_texts_hold_no_latin_words_and_one_dash(ttr):
    words = {word for text in chinese_texts(ttr) for word in re.findall(r"[A-Za-z]{2,}", text)}
    assert not words, words
    dashes = {dash for text in chinese_texts(ttr) for dash in re.findall(r"[–—－]", text)}
    assert dashes <= {"－"}, dashes


def test_chinese_lines_never_end_on_an_opening_bracket_nor_start_with_a_closing_mark(sheets):
    offenders = []
    for n, text in enumerate(sheets["zh-Hant"], 1):
        for line in text.splitlines():
            if line.rstrip().endswith(("（", "「", "『")):
                offenders.append(f"page {n}: ends on an opening bracket: {line[-12:]}")
            if line.strip()[:1] in tuple("，。、；：！？）」』"):
                offenders.append(f"page {n}: starts with a closing mark: {line[:12]}")
            if re.search(r"[\u3400-\u9fff][()]|[()][\u3400-\u9fff]", line):
                offenders.append(f"page {n}: half-width bracket: {line[:30]}")
    assert not offenders, offenders
