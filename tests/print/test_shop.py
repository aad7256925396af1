"""The print-shop export: one card per page at the shop's size with 1/8 in bleed, TrimBox and
BleedBox per card, pages in the shop's order, PNGs at 300 dpi cut from our own PDF; shop profiles
are data checked against a schema."""

from __future__ import annotations

import csv
import io

import pytest
from PIL import Image
from pypdf import PdfReader

from cardgen.build import BuildOptions, build_game
from cardgen.errors import ContentErrors, UsageError
from cardgen.pdfdoc import mm
from cardgen.printdata import _load_checked, shop_profile
from cardgen.sheets import select_cards
from cardgen.shop import render_shop_pdf, shop_pages
from tests.pdfcheck import pdf_problems


def test_profiles_are_data_and_the_us_poker_profile_is_two_and_a_half_by_three_and_a_half_inches():
    poker, us = shop_profile("poker-63x88"), shop_profile("us-poker")
    assert poker.bleed_mm == pytest.approx(3.175) and us.bleed_mm == pytest.approx(25.4 / 8)
    assert us.trim_mm == pytest.approx((2.5 * 25.4, 3.5 * 25.4))
    assert poker.pixels_for(63, 88) == (819, 1114)
    assert shop_profile(None) == poker
    with pytest.raises(UsageError, match="no such profile"):
        shop_profile("nowhere")


def test_a_broken_profile_is_reported_at_its_line(tmp_path):
    bad = tmp_path / "shops.yaml"
    bad.write_text("shops:\n  mine:\n    name: x\n    trim_mm: [63, 88]\n    bleed_mm: 3\n    safe_mm: 3\n"
                   "    dpi: 300\n    pixels: [800, 1100]\n    page_order: sideways\n", "utf-8")
    with pytest.raises(ContentErrors) as caught:
        _load_checked(bad)
    assert "shops.yaml:9:" in str(caught.value) and "sideways" in str(caught.value)


# The shops' published figures for poker-size cards: trim (mm), bleed (mm), image pixels, page order.
PUBLISHED = {
    "makeplayingcards-poker": ((63.5, 88.9), 3.048, (822, 1122), "fronts-then-backs"),
    "drivethrucards-poker": ((63.5, 88.9), 3.175, (825, 1125), "pairs"),
    "us-poker": ((63.5, 88.9), 3.175, (825, 1125), "pairs"),
    "poker-63x88": ((63, 88), 3.175, (819, 1114), "fronts-then-backs"),
    "per-component-poker": ((63, 88), 3.175, (819, 1114), "fronts-then-backs"),
}


@pytest.mark.parametrize("profile_id", sorted(PUBLISHED))
def test_each_profile_holds_its_shops_published_size(profile_id):
    profile = shop_profile(profile_id)
    trim, bleed, pixels, order = PUBLISHED[profile_id]
    assert profile.trim_mm == pytest.approx(trim) and profile.bleed_mm == pytest.approx(bleed)
    assert profile.pixels == pixels == profile.pixels_for(*trim) and profile.page_order == order


def test_a_per_component_profile_writes_one_pdf_per_deck_and_every_png_is_srgb(trains, tmp_path):
    options = BuildOptions(shop="per-component-poker", cards="1-2")
    written = build_game(trains, tmp_path, papers=("a4",), layouts=("shop",), options=options)
    folder = tmp_path / trains.id / "shop-per-component-poker-replacements"
    decks = {card["deck"] for card in select_cards(trains, "1-2")}
    for deck in decks:
        per_deck = PdfReader(folder / f"cards-{deck}.pdf")
        assert len(per_deck.pages) == 2 * sum(1 for c in select_cards(trains, "1-2") if c["deck"] == deck)
    pngs = [p for p in written if p.suffix == ".png"]
    assert pngs
    for path in pngs:
        data = path.read_bytes()
        assert b"sRGB" in data[:200] and Image.open(io.BytesIO(data)).size == (819, 1114)


@pytest.mark.parametrize("profile_id", sorted(PUBLISHED))
def test_one_card_per_page_at_the_shops_size_in_the_shops_order(trains, tmp_path, profile_id):
    profile = shop_profile(profile_id)
    order = PUBLISHED[profile_id][3]
    cards = select_cards(trains, "1-3")
    path = render_shop_pdf(trains, tmp_path / "shop.pdf", profile, cards)
    reader = PdfReader(path)
    assert not pdf_problems(reader)
    assert len(reader.pages) == 6
    w, h = profile.trim_mm
    b = profile.bleed_mm
    for page in reader.pages:
        media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
        assert (float(media.width) / mm, float(media.height) / mm) == pytest.approx((w + 2 * b, h + 2 * b), abs=0.01)
        assert (float(trim.width) / mm, float(trim.height) / mm) == pytest.approx((w, h), abs=0.01)
        assert float(trim.left) / mm == pytest.approx(b, abs=0.01)
        assert list(bleed) == list(media)
    sides = [side for side, _ in shop_pages(trains, profile, cards)]
    expected = ["front"] * 3 + ["back"] * 3 if order == "fronts-then-backs" else ["front", "back"] * 3
    assert sides == expected
    texts = [page.extract_text() for page in reader.pages]
    front_pages = [i for i, side in enumerate(sides) if side == "front"]
    assert all("Couple" in texts[i] or "Push" in texts[i] or "Lock" in texts[i] or "Pull" in texts[i]
               for i in front_pages)


def test_pngs_at_300_dpi_rasterised_from_the_shop_pdf(trains, tmp_path):
    options = BuildOptions(cards="1,2,c01")
    written = build_game(trains, tmp_path, papers=("a4",), layouts=("shop",), options=options)
    folder = tmp_path / "game-of-trains" / "shop-poker-63x88-replacements"
    names = sorted(p.name for p in written)
    assert names == ["back-carriage-back.png", "cards.csv", "cards.pdf", "front-001-c01.png", "front-002-c02.png"]
    image = Image.open(folder / "front-001-c01.png")
    assert image.size == (819, 1114)
    assert round(image.info["dpi"][0]) == 300
    rows = list(csv.DictReader(io.StringIO((folder / "cards.csv").read_text("utf-8"))))
    assert [(r["front"], r["copies"], r["back"]) for r in rows] == [
        ("front-001-c01.png", "2", "back-carriage-back.png"), ("front-002-c02.png", "1", "back-carriage-back.png")]
    # The PNG is the PDF page: its corner pixel is the card's own bleed colour, not white.
    assert image.getpixel((2, 2)) != (255, 255, 255)


def _colour_operators(reader) -> set[str]:
    """Every colour-setting operator in the pages and the forms they draw."""
    import re

    found = set()
    streams = []
    for page in reader.pages:
        streams.append(page.get_contents().get_data())
        for xobject in page["/Resources"].get("/XObject", {}).values():
            streams.append(xobject.get_object().get_data())
    for data in streams:
        found |= set(re.findall(r"(?<![A-Za-z/])(rg|RG|k|K|sc|SC|scn|SCN|cs|CS)(?![A-Za-z])", data.decode("latin-1")))
    return found


def test_a_cmyk_profile_writes_a_pdf_x_file_whose_every_colour_is_cmyk(trains, tmp_path):
    from cardgen.cmyk import find_profile

    if find_profile() is None:
        pytest.fail("no CMYK profile: `make setup` unpacks one into .icc/")
    options = BuildOptions(shop="drivethrucards-poker", cards="1-3")
    build_game(trains, tmp_path, papers=("a4",), layouts=("shop",), options=options)
    folder = tmp_path / trains.id / "shop-drivethrucards-poker-replacements"
    rgb, cmyk = PdfReader(folder / "cards.pdf"), PdfReader(folder / "cards-cmyk.pdf")
    assert len(cmyk.pages) == len(rgb.pages) == 6
    assert _colour_operators(cmyk) <= {"k", "K"} and "rg" in _colour_operators(rgb)
    intent = cmyk.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/DestOutputProfile"].get_object()["/N"] == 4
    assert cmyk.metadata["/GTS_PDFXVersion"] == "PDF/X-1:2001" and cmyk.metadata["/Trapped"] == "/False"
    # PDF/X-1a:2001 is PDF 1.3: the opaque colours the faces set do not mark the file as using transparency.
    assert (folder / "cards-cmyk.pdf").read_bytes()[:8] == b"%PDF-1.3"
    # And what PDF/X-1a asks besides: every font embedded, trim inside bleed on every page, no
    # annotation, form or action, no encryption.
    assert pdf_problems(cmyk) == []
    assert not any("/Annots" in page for page in cmyk.pages) and not cmyk.is_encrypted
    assert not {"/AcroForm", "/OpenAction", "/Names"} & set(cmyk.trailer["/Root"])
    for a, b in zip(rgb.pages, cmyk.pages):
        assert list(a.trimbox) == list(b.trimbox) and list(a.bleedbox) == list(b.bleedbox)


@pytest.mark.parametrize("drawn", ["shape", "text"])
def test_anything_drawn_see_through_stops_the_pdf_x_file(trains, tmp_path, monkeypatch, drawn):
    from reportlab.lib.colors import Color

    from cardgen.cmyk import Converter, find_profile
    from cardgen.registry import definition_for
    from cardgen.shop import render_shop_pdf

    definition = definition_for(trains.id)
    face = definition.draw_face

    def see_through_face(canvas, content, card, rect, bleed):
        face(canvas, content, card, rect, bleed)
        if drawn == "shape":
            canvas.setFillColor(Color(1, 0, 0, alpha=0.5))
            canvas.rect(rect.x, rect.y, 5, 5, stroke=0, fill=1)
        else:
            text = canvas.beginText(rect.x, rect.y)
            text.setFillColor(Color(0, 0, 1, alpha=0.5))
            text.textLine("see-through")
            canvas.drawText(text)

    monkeypatch.setattr(definition, "draw_face", see_through_face)
    with pytest.raises(ContentErrors, match="drawn see-through .opacity 0.5.; a PDF/X-1a file allows no transparency"):
        render_shop_pdf(trains, tmp_path / "cmyk.pdf", shop_profile("drivethrucards-poker"),
                        select_cards(trains, "1"), Converter(find_profile(), 300))
    assert not (tmp_path / "cmyk.pdf").exists()


def test_a_colour_needing_more_ink_than_the_profile_allows_stops_the_file(trains, tmp_path, monkeypatch):
    from reportlab.lib.colors import CMYKColor

    from cardgen.cmyk import Converter, find_profile
    from cardgen.registry import definition_for
    from cardgen.shop import render_shop_pdf

    definition = definition_for(trains.id)
    drawn = definition.draw_face

    def rich_black_face(canvas, content, card, rect, bleed):
        drawn(canvas, content, card, rect, bleed)
        canvas.setFillColor(CMYKColor(1, 1, 1, 1))  # 400 % ink
        canvas.rect(rect.x, rect.y, 5, 5, stroke=0, fill=1)

    monkeypatch.setattr(definition, "draw_face", rich_black_face)
    converter = Converter(find_profile(), 300)
    with pytest.raises(ContentErrors, match="400 % ink; the profile allows 300 %"):
        render_shop_pdf(trains, tmp_path / "cmyk.pdf", shop_profile("drivethrucards-poker"),
                        select_cards(trains, "1"), converter)
    assert not (tmp_path / "cmyk.pdf").exists()
    # Through the profile, the darkest colour the games draw stays within the limit.
    assert 250 < sum(converter((0.0, 0.0, 0.0)).cmyk()) * 100 <= 300.5
