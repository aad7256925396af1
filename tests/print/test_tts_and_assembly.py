"""Tabletop Simulator deck sheets and the assembly page."""

from __future__ import annotations

import json
import re

import pytest
from PIL import Image
from pypdf import PdfReader

from cardgen.build import build_game
from cardgen.sheets import sheet_count
from cardgen.tts import MAX_PIXELS, card_pixels, deck_groups


@pytest.mark.parametrize("size", [(63, 88), (44, 68), (88, 63), (70, 120)])
def test_a_full_ten_by_seven_sheet_stays_within_4096_pixels(size):
    w, h = card_pixels(*size)
    assert 10 * w <= MAX_PIXELS and 7 * h <= MAX_PIXELS
    assert abs(w / h - size[0] / size[1]) < 0.01


def test_deck_sheets_back_images_and_a_saved_object(tiny, tmp_path):
    written = build_game(tiny, tmp_path, papers=("a4",), layouts=("tts",), langs=("en",))
    folder = tmp_path / tiny.id / "tts"
    saved = json.loads((folder / f"{tiny.id}.json").read_text("utf-8"))
    decks = saved["ObjectStates"]
    assert len(decks) == len(deck_groups(tiny))
    total = 0
    for deck in decks:
        assert deck["Name"] == "DeckCustom"
        assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"])
        total += len(deck["DeckIDs"])
        for number, custom in deck["CustomDeck"].items():
            assert custom["NumWidth"] <= 10 and custom["NumHeight"] <= 7
            # Addresses are relative to the saved object: the images lie beside it.
            assert "/" not in custom["FaceURL"] and "/" not in custom["BackURL"]
            face = Image.open(folder / custom["FaceURL"])
            back = Image.open(folder / custom["BackURL"])
            assert face.size[0] <= MAX_PIXELS and face.size[1] <= MAX_PIXELS
            cw, ch = card_pixels(*tiny.card_size_mm(tiny.decks[0]))
            assert face.size == (custom["NumWidth"] * cw, custom["NumHeight"] * ch)
            assert back.size == (cw, ch)
    assert total == len(tiny.physical_cards())
    assert any(p.suffix == ".png" for p in written)


def test_assembly_page_counts_come_from_the_files(trains, tmp_path):
    written = build_game(trains, tmp_path, papers=("a4",), layouts=("home", "fold"))
    english = PdfReader(next(p for p in written if p.name == "assembly-a4-en.pdf"))
    text = " ".join(page.extract_text() for page in english.pages)
    home = sheet_count(trains, "a4", "home")
    fold = sheet_count(trains, "a4", "fold")
    assert f"{home} sheets ({2 * home} pages), double-sided, flip on the long edge" in text
    assert f"{fold} sheets, one side only" in text
    rules = len(PdfReader(tmp_path / trains.id / "rules-a4-en.pdf").pages)
    assert f"{rules} sheets, one side only" in text
    for name in ("cards-a4-home.pdf", "cards-a4-fold.pdf", "rules-a4-en.pdf", "calibration-a4-landscape.pdf",
                 "a complete set has 88", "Print one of them, not all"):
        assert name in " ".join(text.split())
    # A count of one takes the singular: the aids and the calibration sheets are one sheet each.
    assert "1 sheet (2 pages)" in text and not re.search(r"\b1 (sheet|page|file)s\b", text)
    chinese = " ".join(page.extract_text() for page in
                       PdfReader(tmp_path / trains.id / "assembly-a4-zh-Hant.pdf").pages)
    assert f"{home} 張" in chinese and "裁切" in chinese


def test_the_proof_sheet_shows_every_distinct_face_and_back_once(trains, tmp_path):
    from cardgen.proof import MIN_CARD_WIDTH, proof_items, render_proof

    path = render_proof(trains, tmp_path / "proof.pdf")
    reader = PdfReader(path)
    text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    items = proof_items(trains)
    faces = [i for i in items if i[0] == "face"]
    assert len(faces) == len({(c["deck"], str(c["id"])) for c in trains.physical_cards()})
    assert len(items) - len(faces) == len({d["back"] for d in trains.decks})
    for _, card, _, _ in faces:
        assert f"#{card['position']} · {card['id']}" in text
    assert f"{len(faces)} different faces, {len(trains.physical_cards())} cards" in text
    # As few pages as keep each face readable.
    assert len(reader.pages) <= 2 and MIN_CARD_WIDTH > 0
    assert render_proof(trains, tmp_path / "again.pdf").read_bytes() == path.read_bytes()
