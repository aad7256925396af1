"""Ticket to Ride: The Card Game printed output: card size in millimetres, page boxes, embedded
fonts, one back for the cards shuffled together, and no text under 7 points."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.games.ticket_to_ride import faces
from cardgen.layout import Rect
from cardgen.pdfdoc import mm, new_canvas
from cardgen.rulesheet import render_rule_sheet
from cardgen.sheets import render_card_sheets
from tests.pdfcheck import pdf_problems, text_sizes

PAGE = (120 * mm, 130 * mm)
CARD = Rect(28.5 * mm, 21 * mm, 63 * mm, 88 * mm)


@pytest.fixture(scope="module")
def sheet(ttr, tmp_path_factory):
    return render_card_sheets(ttr, tmp_path_factory.mktemp("cards") / "a4.pdf", "a4", "home")


def test_card_sheets_carry_boxes_and_embedded_fonts(sheet):
    assert pdf_problems(sheet) == []


def test_every_deck_prints_poker_size_cards(ttr):
    assert {ttr.card_size_mm(deck) for deck in ttr.decks} == {(63.0, 88.0)}


def test_one_face_page_in_mm(ttr, tmp_path):
    path = tmp_path / "one.pdf"
    canvas = new_canvas(str(path), PAGE, "one")
    canvas.setTrimBox((CARD.x, CARD.y, CARD.x + CARD.w, CARD.y + CARD.h))
    canvas.setBleedBox((CARD.x - 3 * mm, CARD.y - 3 * mm, CARD.x + CARD.w + 3 * mm, CARD.y + CARD.h + 3 * mm))
    faces.draw_face(canvas, ttr, {**ttr.cards[0], "copy": 1}, CARD, 3 * mm)
    canvas.showPage()
    canvas.save()
    trim = PdfReader(path).pages[0].trimbox
    assert round(float(trim.width) / mm, 3) == 63 and round(float(trim.height) / mm, 3) == 88
    assert pdf_problems(path) == []


def test_train_cards_and_locomotives_share_one_back(ttr):
    trains = ttr.deck("trains")
    locos = ttr.deck("locomotives")
    assert trains["shuffle_group"] == locos["shuffle_group"] and trains["back"] == locos["back"]


def test_no_text_on_any_face_or_back_is_smaller_than_7_points(ttr, tmp_path):
    path = tmp_path / "faces.pdf"
    canvas = new_canvas(str(path), PAGE, "faces")
    for card in ttr.cards:
        faces.draw_face(canvas, ttr, {**card, "copy": 1}, CARD, 3 * mm)
        canvas.showPage()
    for back in ttr.game["backs"]:
        faces.draw_back(canvas, ttr, back, CARD, 3 * mm)
        canvas.showPage()
    canvas.save()
    for page in PdfReader(path).pages:
        for size, text in text_sizes(page):
            assert size >= 6.99, (size, text)


def test_rule_sheet_quotes_the_computed_counts_and_odds(ttr, tmp_path):
    path = render_rule_sheet(ttr, "en", tmp_path / "rules.pdf")
    text = " ".join(page.extract_text() for page in PdfReader(path).pages)
    assert "96 train cards" in text and "46 destination tickets" in text
    assert "75 cards with two players" in text
    assert pdf_problems(path) == []
