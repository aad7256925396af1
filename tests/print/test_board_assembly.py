"""Spectral Rails' board, printed over several pages: its outer edge bleeds and has crop marks,
and the assembly page gives the real steps for joining it (which page on top, cut on the seam,
match the crosses, tape), in English and Traditional Chinese."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.build import build_game
from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.pdfdoc import mm


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    content = load_game(PROJECT_CONTENT, "spectral-rails")
    out = tmp_path_factory.mktemp("board")
    build_game(content, out, papers=("a4",), layouts=("home",))
    return out / content.id


def test_the_board_bleeds_past_its_outer_edge_only(built):
    from cardgen.games.spectral_rails.pieces import BOARD_BLEED_MM

    reader = PdfReader(built / "board-4p-a4.pdf")
    outer_sides = 0
    for page in reader.pages:
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        reach = [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]]
        for value in reach:
            assert value == pytest.approx(0, abs=0.01) or value == pytest.approx(BOARD_BLEED_MM * mm, abs=0.01)
        outer_sides += sum(1 for value in reach if value > 1)
    # A board of r rows and c columns has 2 (r + c) outer sides of pages.
    from cardgen.panels import plan_panels
    from cardgen.games.spectral_rails import board

    content = load_game(PROJECT_CONTENT, "spectral-rails")
    lay = board.layout(content, "four-players")
    plan = plan_panels(lay.width, lay.height, "a4", bleed_mm=BOARD_BLEED_MM)
    assert outer_sides == 2 * (plan.rows + plan.columns)


def test_the_assembly_page_says_how_to_join_the_board_in_both_languages(built):
    english = " ".join(" ".join(p.extract_text() for p in PdfReader(built / "assembly-a4-en.pdf").pages).split())
    for words in ("Join the pages of board-3p-a4.pdf", "Join the pages of board-4p-a4.pdf",
                  "the page to the right or below goes on top", "cut it on its dashed seam line",
                  "tips of the crosses", "tape the pages together", "outer edge on the crop marks"):
        assert words in english
    assert "Cut out the parts of board-" not in english
    chinese = "".join("".join(p.extract_text() for p in PdfReader(built / "assembly-a4-zh-Hant.pdf").pages).split())
    for words in ("拼接board-4p-a4.pdf", "疊在上面", "虛線接縫", "十字記號", "膠帶"):
        assert words in chinese
