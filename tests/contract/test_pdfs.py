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
