"""Print only what you need: --cards picks physical cards by position in print order or by id,
and --sides makes fronts-only or backs-only files."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.build import BuildOptions, SheetOptions, build_game
from cardgen.errors import UsageError
from cardgen.sheets import print_order, select_cards
from tests.pdfcheck import pdf_problems


def test_positions_ranges_and_ids_pick_physical_cards(trains):
    order = print_order(trains)
    chosen = select_cards(trains, "12,17,40-44")
    assert [c["position"] for c in chosen] == [12, 17, 40, 41, 42, 43, 44]
    assert [c["id"] for c in chosen] == [order[i - 1]["id"] for i in (12, 17, 40, 41, 42, 43, 44)]
    twice = select_cards(trains, "locomotive,locomotive")
    assert [c["copy"] for c in twice] == [1, 2]


@pytest.mark.parametrize("spec, message", [
    ("0", "positions run from 1 to 88"), ("80-95", "positions run from 1 to 88"),
    ("c1", "did you mean"), (",", "names no card"),
])
def test_a_selection_that_names_no_card_is_a_usage_error(trains, spec, message):
    with pytest.raises(UsageError, match=message):
        select_cards(trains, spec)


def test_replacement_sheets_hold_only_the_chosen_cards(trains, tmp_path):
    options = BuildOptions(cards="12,17,40-44")
    written = build_game(trains, tmp_path, papers=("a4",), layouts=("home",), options=options)
    assert [p.name for p in written] == ["replacements-a4-home.pdf"]
    reader = PdfReader(written[0])
    assert not pdf_problems(reader)
    assert len(reader.pages) == 2  # seven cards: one fronts page and its backs page
    text = reader.pages[0].extract_text()
    assert "cards 12, 17, 40-44" in text and "sheet 1 of 1" in text


@pytest.mark.parametrize("sides", ["fronts", "backs"])
def test_one_side_only(trains, tmp_path, sides):
    options = BuildOptions(sheet=SheetOptions(sides=sides))
    written = build_game(trains, tmp_path, papers=("a4",), layouts=("home",), langs=("en",), options=options)
    cards = [p for p in written if p.name.startswith("cards-")]
    assert [p.name for p in cards] == [f"cards-a4-home-{sides}.pdf"]
    reader = PdfReader(cards[0])
    assert len(reader.pages) == 11
    texts = " ".join(page.extract_text() for page in reader.pages[:2])
    assert (sides in texts) and ({"fronts": "backs", "backs": "fronts"}[sides] + " ·" not in texts)
    assert "/Duplex" not in reader.trailer["/Root"].get("/ViewerPreferences", {})
