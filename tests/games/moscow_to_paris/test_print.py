"""Moscow to Paris printed output: card size in millimetres, page boxes, embedded fonts, and the
smallest text on any face."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.games.moscow_to_paris import faces
from cardgen.layout import Rect
from cardgen.pdfdoc import mm, new_canvas
from cardgen.sheets import render_card_sheets
from tests.pdfcheck import pdf_problems, text_sizes

PAGE = (120 * mm, 130 * mm)
CARD = Rect(28.5 * mm, 21 * mm, 63 * mm, 88 * mm)


@pytest.fixture(scope="module")
def content():
    return load_game(PROJECT_CONTENT, "moscow-to-paris")


@pytest.fixture(scope="module")
def sheet(content, tmp_path_factory):
    return render_card_sheets(content, tmp_path_factory.mktemp("cards") / "a4.pdf", "a4", "home")


def test_card_sheet_pages_carry_boxes_and_embedded_fonts(sheet):
    assert pdf_problems(sheet) == []


def test_every_deck_prints_poker_size_cards(content, sheet):
    assert {content.card_size_mm(deck) for deck in content.decks} == {(63.0, 88.0)}
    page = PdfReader(sheet).pages[0]
    assert float(page.trimbox.width) >= 63 * mm and float(page.trimbox.height) >= 63 * mm


def test_no_text_on_any_face_or_back_is_smaller_than_7_points(content, tmp_path):
    path = tmp_path / "faces.pdf"
    canvas = new_canvas(str(path), PAGE, "faces")
    for card in content.cards:
        faces.draw_face(canvas, content, {**card, "copy": 1}, CARD, 3 * mm)
        canvas.showPage()
    for back in content.game["backs"]:
        faces.draw_back(canvas, content, back, CARD, 3 * mm)
        canvas.showPage()
    canvas.save()
    small = []
    for n, page in enumerate(PdfReader(path).pages, 1):
        sizes = text_sizes(page)
        assert sizes, f"page {n} shows no text"
        small += [f"page {n}: {size:.1f} pt {text[:20]!r}" for size, text in sizes if size < 7 - 0.01]
    assert small == []
