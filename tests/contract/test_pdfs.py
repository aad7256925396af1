"""Every PDF of every game, checked by one helper: fonts embedded, TrimBox and BleedBox on every
page; and the same content builds byte-identical files."""

from __future__ import annotations

import pytest

from cardgen.build import build_game, planned_outputs
from tests.pdfcheck import pdf_problems


@pytest.fixture(scope="session")
def builds() -> dict:
    return {}


@pytest.fixture
def built(content, builds, tmp_path_factory):
    """Every PDF of the game on both papers, built once for all the checks below."""
    if content.id not in builds:
        out = tmp_path_factory.mktemp(f"pdf-{content.id}")
        builds[content.id] = out, build_game(content, out, papers=("a4", "letter"))
    return builds[content.id]


def test_every_pdf_embeds_its_fonts_and_carries_its_boxes(built):
    _, paths = built
    assert paths
    problems = {path.name: pdf_problems(path) for path in paths}
    assert not any(problems.values()), problems


def test_a_second_build_is_byte_identical(content, built, tmp_path):
    out, paths = built
    first = {path.relative_to(out): path.read_bytes() for path in paths}
    # One file of each kind again (every card layout and rule sheet language is checked elsewhere).
    kinds = {}
    # The same layouts as the first build: the assembly page lists every file of the build.
    for path, render in planned_outputs(content, tmp_path, papers=("a4",)):
        kinds.setdefault(path.name.split("-")[0], (path, render))
    for path, render in kinds.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        render(path)
        assert path.read_bytes() == first[path.relative_to(tmp_path)], path.name


def test_no_line_of_a_chinese_rule_sheet_starts_with_a_closing_mark(built):
    from pypdf import PdfReader

    _, paths = built
    offenders = []
    for path in paths:
        if path.name.startswith("rules-") and "zh" in path.name:
            for n, page in enumerate(PdfReader(path).pages, 1):
                for line in page.extract_text().splitlines():
                    if line.strip()[:1] in tuple("，。、；：！？）」』"):
                        offenders.append(f"{path.name} page {n}: {line.strip()[:20]}")
    assert not offenders, offenders


def test_rule_sheet_pages_leave_no_big_blank_except_where_a_part_ends(built):
    from cardgen.rulesheet import LAST_PAGE_FILL

    _, paths = built
    gaps = []
    for path in paths:
        if path.name.startswith("rules-"):
            pages = LAST_PAGE_FILL[path]
            for n, (blank, part_ends) in enumerate(pages[:-1], 1):
                # A tall picture moves to the next page with the sentence that introduces it; that
                # is the one cause of a gap left, which stays under two fifths of the page.
                if blank > 0.40 and not part_ends:
                    gaps.append(f"{path.name} page {n}: {blank:.0%} blank")
    assert not gaps, gaps


def test_every_group_kept_together_that_fits_on_a_page_is_printed_on_one(built):
    """A worked example with its picture, a picture with the sentence that leads to it, a heading
    with the block under it: each on one page, also inside a part taller than a page."""
    from cardgen.rulesheet import LAST_TORN_GROUPS

    _, paths = built
    torn = {path.name: LAST_TORN_GROUPS[path] for path in paths if path.name.startswith("rules-")}
    assert torn and not any(torn.values()), torn


def _story(content, lang: str) -> list:
    """The rule sheet's flowables in `lang`, as its rendering builds them."""
    from cardgen import rulesheet
    from cardgen.pdfdoc import register_fonts
    from cardgen.registry import definition_for

    register_fonts()
    sheet = rulesheet.Sheet(content, lang, rulesheet.Styles(lang, rulesheet.accent_colour(content)),
                            rulesheet.replay_examples(content), definition_for(content.id))
    return rulesheet.build_story(sheet)


def _pictures(flowables) -> list:
    """Every picture in a rule sheet's story: alone, inside kept groups, or inside a game's own block."""
    from cardgen.diagrams import Picture

    found = []
    for flowable in flowables:
        if isinstance(flowable, Picture):
            found.append(flowable)
        elif isinstance(getattr(flowable, "picture", None), Picture):
            found.append(flowable.picture)
        else:
            found += _pictures(getattr(flowable, "_content", []))
    return found


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_picture_of_a_rule_sheet_draws_inside_its_own_box(content, lang):
    """Nothing a picture draws covers the text above or below it or leaves the text column: each
    picture is drawn alone with room around it, rendered, and its inked area measured. (A card
    drawn small by code made for a full-size card spills far outside.)"""
    import io

    import pypdfium2
    from PIL import ImageOps
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.pdfdoc import PAPER_MM, mm
    from cardgen.rulesheet import MARGIN

    column = min(w for w, _ in PAPER_MM.values()) * mm - 2 * MARGIN
    room, scale, spills = 40 * mm, 2, []
    for n, picture in enumerate(_pictures(_story(content, lang)), 1):
        width, height = picture.wrap(column, 1000 * mm)
        pdf = io.BytesIO()
        canvas = Canvas(pdf, pagesize=(width + 2 * room, height + 2 * room))
        picture.canv = canvas
        canvas.translate(room, room)
        picture.draw()
        canvas.save()
        page = pypdfium2.PdfDocument(pdf.getvalue())[0].render(scale=scale, grayscale=True).to_pil().convert("L")
        left, top, right, bottom = (v / scale for v in ImageOps.invert(page).point(lambda v: 255 * (v > 40)).getbbox())
        above, below = room - top, bottom - room - height
        side = (column - width) / 2 + 0.5 * mm  # a picture stands centred in the column
        outside = {"above": above, "below": below, "left": room - left, "right": right - room - width}
        if above > 1 * mm or below > 1 * mm or outside["left"] > side or outside["right"] > side:
            spills.append(f"picture {n} ({width / mm:.0f} x {height / mm:.0f} mm), ink outside its box: "
                          + ", ".join(f"{v / mm:.1f} mm {k}" for k, v in outside.items()))
    assert not spills, spills


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_card_a_rule_sheet_picture_shows_is_drawn_at_its_printed_size(content, lang, monkeypatch):
    """A card's face code places its texts for the size the card is printed at, so a picture shows
    a card smaller by drawing it at that size on a shrunk canvas, never by asking the face code for
    a small card (whose texts then spill over the card and the picture)."""
    import io
    import sys

    from reportlab.pdfgen.canvas import Canvas

    from cardgen.pdfdoc import mm
    from cardgen.registry import definition_for

    definition = definition_for(content.id)
    package = type(definition).__module__
    faces = sys.modules.get(f"{package}.faces")
    if faces is None:
        pytest.skip(f"{content.id} draws its cards with no faces module of its own")
    drawn: list[tuple[float, float]] = []

    def recording(original):
        def draw(canvas, content_, item, rect, bleed):
            drawn.append((round(rect.w / mm, 2), round(rect.h / mm, 2)))
            return original(canvas, content_, item, rect, bleed)
        return draw

    originals = {faces.draw_face: recording(faces.draw_face), faces.draw_back: recording(faces.draw_back)}
    for name, module in list(sys.modules.items()):
        if name == package or name.startswith(package + "."):
            for attribute, value in list(vars(module).items()):
                if callable(value) and value in originals:
                    monkeypatch.setattr(module, attribute, originals[value])
    for picture in _pictures(_story(content, lang)):
        picture.canv = Canvas(io.BytesIO())
        picture.wrap(170 * mm, 1000 * mm)
        picture.draw()
    if not drawn:
        pytest.skip(f"{content.id}'s rule-sheet pictures show no card")
    printed = {tuple(round(v, 2) for v in content.card_size_mm(deck)) for deck in content.decks}
    assert {size for size in drawn if size not in printed} == set(), f"printed sizes: {printed}"
