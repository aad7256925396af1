"""What every game's rule sheet owes a new player, checked on the built PDFs of all games in both
languages: a player's words only, pages laid out as a rulebook is (no heading left at a page's
foot, no page left a quarter blank inside a part, no example parted from its picture), pictures
that show the very positions and components their example speaks of, and Chinese that is
Traditional and typeset the Chinese way.

Everything is measured from the PDFs (pypdf, pypdfium2) or from the content through the game
registry, so a new game is checked by the same rules without a line here."""

from __future__ import annotations

import re
from functools import lru_cache
from io import BytesIO
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from cardgen.content import LANGUAGES, PROJECT_CONTENT, load_game
from cardgen.pdfdoc import register_fonts
from cardgen.registry import definition_for, engine_for, registered
from cardgen.rulesheet import example_picture, example_words, narrated_steps, render_rule_sheet, worked_example
from cardgen.static_checks import simplified_only

GAMES = sorted(game for game in registered() if (PROJECT_CONTENT / game).is_dir())

MM = 72 / 25.4
MARGIN = 18 * MM  # the rule sheet's page margin (cardgen.rulesheet.MARGIN)
H1_SIZE = 14.5    # section headings are set at 15 pt, example titles at 11 pt, body text at 10 pt


@pytest.fixture(scope="module", params=GAMES)
def built(request, tmp_path_factory):
    """One game's content and its rule sheet in each language, built once for this module."""
    content = load_game(PROJECT_CONTENT, request.param)
    folder = tmp_path_factory.mktemp(request.param)
    return content, {lang: render_rule_sheet(content, lang, folder / f"rules-{lang}.pdf") for lang in LANGUAGES}


# --- reading a PDF ---------------------------------------------------------------------------------

def text_runs(page) -> list[tuple[float, float, float, str, str]]:
    """(size in points, x, y, font name, text) of every run of text on a pypdf page."""
    runs = []

    def visit(text, cm, tm, font, size):
        if not text.strip():
            return
        a, b, c, d, e, f = tm
        A, B, C, D, E, F = cm
        scale = abs((a * A + b * C) * (c * B + d * D) - (a * B + b * D) * (c * A + d * C)) ** 0.5
        x, y = e * A + f * C + E, e * B + f * D + F
        name = str(font.get("/BaseFont", "")) if font else ""
        runs.append((size * scale, x, y, name, text.strip()))

    page.extract_text(visitor_text=visit)
    return runs


@lru_cache(maxsize=None)
def pages_text(path: Path) -> list[str]:
    """The extracted text of each page (each sheet is read once for all the tests)."""
    return [page.extract_text() for page in PdfReader(path).pages]


@lru_cache(maxsize=None)
def pages_runs(path: Path) -> list[tuple[float, list]]:
    """(page height, text runs) of each page."""
    return [(float(page.mediabox.height), text_runs(page)) for page in PdfReader(path).pages]


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def is_heading(run) -> bool:
    """A section heading (15 pt) or an example's title (11 pt), which start at the text column's
    left edge; a picture's large numbers do not."""
    size, x, _, font, _ = run
    at_margin = abs(x - MARGIN) < 1.5
    return at_margin and (abs(size - 15) < 0.3 or (abs(size - 11) < 0.3 and ("Bold" in font or "Zen" in font)))


def lowest_ink(path: Path, index: int) -> float:
    """The height above the page's foot of the lowest thing printed in the text column (the page
    number under it left out)."""
    document = pypdfium2.PdfDocument(str(path))
    try:
        page = document[index]
        boxes = [obj.get_bounds() for obj in page.get_objects(max_depth=1)]
        bottoms = [box[1] for box in boxes if box[3] > MARGIN - 1]
        return min(bottoms) if bottoms else page.get_height()
    finally:
        document.close()


# --- a. a player's words ---------------------------------------------------------------------------

TOOL_WORDS = re.compile(r"cardgen|engine|scenario|replay|refused|parameter|param|simulated|--|引擎|模擬|參數|劇本", re.I)
OPTION = re.compile(r"\b[a-z][a-z_]*=[\w,.-]+")


def test_the_sheet_speaks_only_a_players_words(built):
    content, paths = built
    found = []
    for lang, path in paths.items():
        for n, text in enumerate(pages_text(path), 1):
            found += [f"{lang} p.{n}: {m.group(0)!r} in …{text[max(0, m.start() - 30):m.end() + 30]!r}…"
                      for pattern in (TOOL_WORDS, OPTION) for m in pattern.finditer(text)]
    assert not found, "\n".join(found)


def test_the_question_and_answer_part_has_one_name_in_every_game(built):
    content, paths = built
    if not content.files.get("rulings", {}).get("rulings"):
        pytest.skip("no rulings")
    assert "Questions and answers" in " ".join(" ".join(pages_text(paths["en"])).split())
    assert "問與答" in flat("".join(pages_text(paths["zh-Hant"])))


# --- b. page layout --------------------------------------------------------------------------------

def test_no_heading_is_left_at_the_foot_of_a_page(built):
    _, paths = built
    problems = []
    for lang, path in paths.items():
        for n, (height, runs) in enumerate(pages_runs(path), 1):
            runs = [run for run in runs if run[2] > MARGIN]  # the page number left out
            for run in runs:
                if not is_heading(run) or run[2] > height / 3:
                    continue
                below = [other for other in runs if other[2] < run[2] - 2 and not is_heading(other)]
                if len(below) < 2:
                    problems.append(f"{lang} p.{n}: heading {run[4]!r} at the page's foot")
    assert not problems, problems


def part_ends(path: Path) -> set[int]:
    """Indexes of the pages after which a new part starts: the next page opens with a section
    heading, or there is no next page."""
    pages = pages_runs(path)
    ends = {len(pages) - 1}
    for n, (height, runs) in enumerate(pages[1:], 1):
        runs = sorted((run for run in runs if run[2] < height - MARGIN - 1), key=lambda run: -run[2])
        if runs and is_heading(runs[0]) and runs[0][0] >= H1_SIZE:
            ends.add(n - 1)
    return ends


def test_no_page_is_a_quarter_blank_inside_a_part(built):
    _, paths = built
    problems = []
    for lang, path in paths.items():
        ends = part_ends(path)
        for n, (height, _) in enumerate(pages_runs(path)):
            if n in ends:
                continue
            column = height - 2 * MARGIN - 9 * MM
            blank = (lowest_ink(path, n) - MARGIN) / column
            if blank > 0.25:
                problems.append(f"{lang} p.{n + 1}: {blank:.0%} of the text column left blank")
    assert not problems, problems


def example_scenarios(content) -> list[str]:
    return [path.stem for path in content.scenario_paths if "example:" in path.read_text("utf-8")]


def picture_of(content, lang, stem):
    """The texts the picture of an example draws, as the sheet prints it, drawn alone on a page."""
    key = (content.root, lang, stem)
    if key not in _PICTURES:
        _PICTURES[key] = _picture_runs(content, lang, stem)
    return _PICTURES[key]


_PICTURES: dict[tuple, list[str]] = {}


def _picture_runs(content, lang: str, stem: str) -> list[str]:
    # The picture a game part drew beside its rule, else the game's picture of every example.
    picture = example_picture(content, stem, lang)
    assert picture is not None, f"{content.id} has worked examples but no picture for them"
    register_fonts()
    width, height = picture.wrap(1000, 1000)
    buffer = BytesIO()
    canvas = Canvas(buffer, pagesize=(width + 10, height + 10), invariant=1)
    picture.drawOn(canvas, 5, 5)
    canvas.showPage()
    canvas.save()
    page = PdfReader(BytesIO(buffer.getvalue())).pages[0]
    return [run[4] for run in text_runs(page)]


def test_no_example_is_parted_from_its_picture(built):
    content, paths = built
    problems = []
    for lang, path in paths.items():
        pages = [flat(text) for text in pages_text(path)]
        for stem in example_scenarios(content):
            text = flat(re.sub(r"\*\*", "", example_words(content, stem, lang)))  # bold markup prints no mark
            start, end = text[:24], text[-24:]
            on = [n for n, page in enumerate(pages) if start in page]
            if not on:
                problems.append(f"{lang}: example {stem} is not on the sheet")
                continue
            page = pages[on[0]]
            if end not in page:
                problems.append(f"{lang}: example {stem} runs over from page {on[0] + 1}")
            missing = [run for run in picture_of(content, lang, stem) if flat(run) not in page]
            if missing:
                problems.append(f"{lang}: example {stem} on page {on[0] + 1}, its picture's {missing[:4]} not")
    assert not problems, "\n".join(problems)


def test_a_player_aid_stays_whole_on_one_page(built):
    content, paths = built
    aids = [section for section in content.files["rules"]["sections"] if section.get("one_page")]
    assert aids, "no section is a turn or round summary kept on one page (one_page: true)"
    for lang, path in paths.items():
        pages = [flat(text) for text in pages_text(path)]
        for section in aids:
            title = flat(section["title"][lang])
            last = flat(re.sub(r"\*\*", "", section["body"][lang].strip().splitlines()[-1]))[-16:]
            on = [n for n, page in enumerate(pages) if title in page]
            assert on, (lang, section["id"])
            assert last in pages[on[-1]], f"{lang}: {section['id']} runs over from page {on[-1] + 1}"


def test_every_printed_example_is_a_scenario_the_engine_replays(built):
    # An example whose words live anywhere but in its scenario escapes every check below.
    content, paths = built
    label = {"en": r"Example\b", "zh-Hant": r"範例"}
    for lang, path in paths.items():
        titles = [line for text in pages_text(path) for line in text.splitlines() if re.match(label[lang], line.strip())]
        assert len(titles) == len(example_scenarios(content)), (lang, titles)


# --- c. the picture shows the step -----------------------------------------------------------------

def named_in(text: str, names: set[str]) -> set[str]:
    """The names that `text` mentions: numbers as whole numbers, words regardless of case."""
    found = set()
    for name in names:
        if name.isdigit():
            if re.search(rf"(?<!\d){name}(?!\d)", text):
                found.add(name)
        elif re.search(rf"(?<![A-Za-z]){re.escape(name.lower())}", text.lower()):
            found.add(name)
    return found | set(re.findall(r"\bP\d\b|(?<![A-Za-z])P\d(?!\d)", text))


def test_every_example_names_the_steps_it_narrates_and_is_pictured_there(built):
    content, _ = built
    from verify.scenario import run_scenario

    problems = []
    for stem in example_scenarios(content):
        example = worked_example(content, stem)
        if "steps" not in example.data["example"]:
            problems.append(f"{stem}: the example does not name the steps it narrates")
            continue
        first, last = narrated_steps(example.data)
        fresh = run_scenario(example.path, engine_for(content), record=True)
        assert fresh.ok, fresh.failures
        if example.before != fresh.positions[first - 1] or example.after != fresh.positions[last]:
            problems.append(f"{stem}: the picture's positions are not the engine's around steps {first}-{last}")
    assert not problems, "\n".join(problems)


def test_every_component_an_example_names_is_drawn_in_its_picture(built):
    content, _ = built
    game = definition_for(content.id)
    problems = []
    for lang in LANGUAGES:
        names = game.component_names(content, lang)
        for stem in example_scenarios(content):
            text = example_words(content, stem, lang)
            drawn = " ".join(picture_of(content, lang, stem))
            missing = sorted(named_in(text, names) - named_in(drawn, names))
            if missing:
                problems.append(f"{lang} {stem}: the text names {missing}, the picture does not show them")
    assert not problems, "\n".join(problems)


def test_no_label_in_a_picture_is_cut_short(built):
    content, _ = built
    game = definition_for(content.id)
    problems = []
    for lang in LANGUAGES:
        names = {name for name in game.component_names(content, lang) if not name.isdigit()}
        for stem in example_scenarios(content):
            runs = picture_of(content, lang, stem)
            for k, run in enumerate(runs):
                following = runs[k + 1] if k + 1 < len(runs) else ""
                for name in names:
                    wrapped = flat(run + following).startswith(flat(name))
                    if len(run) >= 2 and run != name and name.startswith(run) and not wrapped:
                        problems.append(f"{lang} {stem}: {run!r} is {name!r} cut short")
    assert not problems, "\n".join(problems)


# --- d. Chinese ------------------------------------------------------------------------------------

CJK = re.compile(r"[\u3400-\u9fff]")
OPENING = "（「『"
ALLOWED_LATIN = re.compile(r"^(P\d|[A-Z]|[A-Z]\d*)$")


def chinese_lines(path: Path) -> list[tuple[int, str]]:
    return [(n, line) for n, text in enumerate(pages_text(path), 1) for line in text.splitlines()]


def test_the_chinese_sheet_holds_no_simplified_character(built):
    _, paths = built
    simplified = simplified_only()
    found = {char for _, line in chinese_lines(paths["zh-Hant"]) for char in line if char in simplified}
    assert not found, sorted(found)


def test_no_chinese_line_ends_on_an_opening_bracket(built):
    _, paths = built
    found = [f"p.{n}: {line[-20:]!r}" for n, line in chinese_lines(paths["zh-Hant"])
             if line.rstrip() and line.rstrip()[-1] in OPENING]
    assert not found, found


def test_chinese_text_has_no_half_width_brackets_or_latin_words(built):
    content, paths = built
    # Body text is set at 9 and 10 pt; pictures of printed components may carry the cards' own
    # Latin words, and the cover the designers' names.
    problems = []
    for n, (_, runs) in enumerate(pages_runs(paths["zh-Hant"]), 1):
        for size, _, _, _, text in runs:
            if not 8.9 < size < 10.3 or not CJK.search(text):
                continue
            if re.search(r"[()]", text):
                problems.append(f"p.{n}: half-width bracket in {text[:40]!r}")
            words = [w for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", text) if not ALLOWED_LATIN.match(w)]
            if words:
                problems.append(f"p.{n}: Latin words {words} in {text[:40]!r}")
    assert not problems, "\n".join(problems)
