"""Flamme Rouge print: every card face and back, the boards and riders PDF, and the rule sheet's
numbers, checked against the content they are drawn from."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.games.flamme_rouge import diagrams as diagrams
from cardgen.games.flamme_rouge import faces as faces
from cardgen.games.flamme_rouge import boards as boards
from cardgen.layout import Rect
from cardgen.pdfdoc import mm, new_canvas
from cardgen.rulesheet import render_rule_sheet
from tests.pdfcheck import fonts, page_count, pdf_problems, render_page

GAME = "flamme-rouge"
PAGE = (120 * mm, 130 * mm)
CARD = Rect(28.5 * mm, 21 * mm, 63 * mm, 88 * mm)
BLEED = 3 * mm


@pytest.fixture(scope="module")
def flamme():
    return load_game(PROJECT_CONTENT, GAME)


def distinct_cards(content) -> list[dict]:
    """One physical card per card entry: copies look alike."""
    return [{**card, "copy": 1} for card in content.cards]


@pytest.fixture(scope="module")
def one_card_per_page(flamme, tmp_path_factory) -> Path:
    """Every distinct face, then every back, each alone on a page with room around it."""
    path = tmp_path_factory.mktemp("faces") / "faces.pdf"
    canvas = new_canvas(str(path), PAGE, "faces")
    for card in distinct_cards(flamme):
        faces.draw_face(canvas, flamme, card, CARD, BLEED)
        canvas.showPage()
    for back_id in flamme.game["backs"]:
        faces.draw_back(canvas, flamme, back_id, CARD, BLEED)
        canvas.showPage()
    canvas.save()
    return path


def page_texts(path: Path) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(str(path)).pages]


def test_every_card_face_shows_what_the_card_is(flamme, one_card_per_page):
    texts = page_texts(one_card_per_page)
    cards = distinct_cards(flamme)
    stages = {s["id"]: s for s in flamme.files["stages"]["stages"]}
    assert len(texts) == len(cards) + len(flamme.game["backs"])
    for card, text in zip(cards, texts):
        if card["deck"].startswith("energy-"):
            assert str(card["value"]) in text and card["rider"].upper() in text, card["id"]
            assert faces.team_label(flamme, card["colour"], "en") in text, card["id"]
        elif card["deck"].startswith("exhaustion-"):
            assert "EXHAUSTION" in text and str(card["value"]) in text, card["id"]
            assert faces.rider_label(flamme, card["rider"], "en") in text, card["id"]
        elif card["deck"] == "stages":
            stage = stages[card["stage"]]
            assert stage["name"]["en"] in text, card["id"]
            assert stage["name"]["zh-Hant"] in text, card["id"]
            for letter in stage["course"].split():
                assert letter in text
        else:
            assert "Energy" in text and "Movement" in text and "End" in text


def test_stage_cards_count_climb_and_descent_squares(flamme, one_card_per_page):
    texts = page_texts(one_card_per_page)
    for card, text in zip(distinct_cards(flamme), texts):
        if card["deck"] != "stages":
            continue
        terrain = Counter(faces.course.stage_squares(flamme, card["stage"]))
        assert f"{terrain['A']} climb" in text and f"{terrain['D']} descent" in text, card["id"]


def test_the_reference_back_is_the_chinese_side(flamme, one_card_per_page):
    texts = page_texts(one_card_per_page)
    back_ids = list(flamme.game["backs"])
    reference = texts[len(distinct_cards(flamme)) + back_ids.index("reference-back")]
    assert "精力階段" in reference and "移動階段" in reference and "結束階段" in reference


def ink_outside(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels that are not white outside `box` (left, top, right, bottom in pixels)."""
    grey = image.convert("L")
    width, height = grey.size
    pixels = grey.load()
    left, top, right, bottom = box
    return sum(1 for x in range(width) for y in range(height)
               if not (left <= x < right and top <= y < bottom) and pixels[x, y] < 250)


def test_art_fills_the_bleed_and_never_spills_past_it(one_card_per_page, tmp_path):
    dpi = 36
    scale = dpi / 72
    page_h = PAGE[1]
    bleed = CARD.grow(BLEED)
    # A pixel of slack for anti-aliasing at the edges.
    box = (int(bleed.x * scale) - 1, int((page_h - bleed.top) * scale) - 1,
           int(bleed.right * scale) + 2, int((page_h - bleed.y) * scale) + 2)
    pages = page_count(one_card_per_page)
    assert pages
    for index in range(pages):
        image = render_page(one_card_per_page, index, dpi)
        name = f"page {index + 1}"
        assert ink_outside(image, box) == 0, name
        grey = image.convert("L")
        inset = 1
        for x, y in ((box[0] + inset + 1, box[1] + inset + 1), (box[2] - inset - 3, box[3] - inset - 3)):
            assert grey.getpixel((x, y)) < 250, f"{name}: the bleed corner at {(x, y)} is blank"


def test_rider_types_have_different_backs_and_shuffled_decks_share_one(flamme, tmp_path):
    def back_stream(back_id: str) -> bytes:
        path = tmp_path / f"{back_id}.pdf"
        canvas = new_canvas(str(path), PAGE, back_id)
        faces.draw_back(canvas, flamme, back_id, CARD, BLEED)
        canvas.save()
        return PdfReader(str(path)).pages[0].get_contents().get_data()

    assert back_stream("rouleur-back") != back_stream("sprinteur-back")
    backs = {d["id"]: d["back"] for d in flamme.decks}
    assert backs["energy-rouleur"] == backs["exhaustion-rouleur"] == "rouleur-back"
    assert backs["energy-sprinteur"] == backs["exhaustion-sprinteur"] == "sprinteur-back"


# --- boards and riders ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def boards_pdf(flamme, tmp_path_factory) -> Path:
    return boards.render_boards(flamme, tmp_path_factory.mktemp("boards") / "boards-a4.pdf", "a4")


def test_boards_pdf_has_a_board_per_team_then_the_riders(flamme, boards_pdf):
    reader = PdfReader(str(boards_pdf))
    teams = list(flamme.game["team_colours"])
    assert len(reader.pages) == len(teams) + 1
    for page, team in zip(reader.pages, teams):
        trim, bleed = page.trimbox, page.bleedbox
        assert float(trim.width) == pytest.approx(boards.BOARD_W_MM * mm, abs=0.01)
        assert float(trim.height) == pytest.approx(boards.BOARD_H_MM * mm, abs=0.01)
        assert float(bleed.width) == pytest.approx(float(trim.width) + 2 * boards.BLEED, abs=0.01)
        text = page.extract_text()
        assert faces.team_label(flamme, team, "en").upper() in text
        assert "SPRINTEUR" in text and "ROULEUR" in text
        # The sprinteur deck is on the left of the board, the rouleur deck on the right.
        assert text.index("SPRINTEUR") < text.index("ROULEUR")
    riders = reader.pages[-1]
    assert float(riders.bleedbox.width) > float(riders.trimbox.width)


def test_every_rider_piece_fits_its_page_and_a_lane(flamme):
    for paper in ("a4", "letter"):
        page_w, page_h = boards.page_size(paper)
        places = boards.token_places(paper, list(flamme.game["team_colours"]))
        assert len(places) == 8
        assert Counter(p.rider for p in places) == {"rouleur": 4, "sprinteur": 4}
        slots = [p.standee for p in places] + [p.counter for p in places]
        page = Rect(5 * mm, 5 * mm, page_w - 10 * mm, page_h - 10 * mm)
        for i, slot in enumerate(slots):
            assert page.contains(slot.bleed), (paper, i)
            for other in slots[i + 1:]:
                apart = (slot.bleed.right <= other.bleed.x or other.bleed.right <= slot.bleed.x
                         or slot.bleed.top <= other.bleed.y or other.bleed.top <= slot.bleed.y)
                assert apart, (paper, i)
        lane = flamme.files["tiles"]["geometry"]["lane_width_mm"]
        assert boards.STANDEE_W_MM < lane and boards.COUNTER_MM < lane
        board = boards.board_slot(paper)
        assert page.contains(board.bleed), paper


def test_boards_embed_every_font_and_are_byte_identical(flamme, boards_pdf, tmp_path):
    assert fonts(boards_pdf) and not pdf_problems(boards_pdf)
    again = boards.render_boards(flamme, tmp_path / "again.pdf", "a4")
    assert again.read_bytes() == boards_pdf.read_bytes()


def test_extra_outputs_add_tiles_and_boards_for_each_paper(flamme, tmp_path):
    names = [path.name for path, _ in faces.extra_outputs(flamme, tmp_path, "letter", "short")]
    assert names == ["tiles-letter.pdf", "boards-letter.pdf"]


# --- the rule sheet ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def rules_text(flamme, tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("rules")
    texts = {}
    for lang in ("en", "zh-Hant"):
        path = render_rule_sheet(flamme, lang, folder / f"rules-{lang}.pdf")
        texts[lang] = re.sub(r"\s+", " ", " ".join(page_texts(path)))
    return texts


def test_component_counts_come_from_the_data(flamme, rules_text):
    cards = flamme.physical_cards()
    energy = sum(1 for c in cards if c["deck"].startswith("energy-"))
    exhaustion = sum(1 for c in cards if c["deck"].startswith("exhaustion-"))
    stages = sum(1 for c in cards if c["deck"] == "stages")
    tiles = len(flamme.files["tiles"]["tiles"])
    text = rules_text["en"]
    for phrase in (f"{energy} energy cards", f"{exhaustion} exhaustion cards", f"{stages} stage cards",
                   f"{tiles} double-sided track tiles", f"{len(flamme.game['team_colours'])} player boards"):
        assert phrase in text, phrase
    assert f"精力卡{energy}張" in rules_text["zh-Hant"].replace(" ", "")
    assert f"疲勞卡{exhaustion}張" in rules_text["zh-Hant"].replace(" ", "")
    # The counts are written as placeholders, so the text cannot drift from the data.
    components = next(s for s in flamme.files["rules"]["sections"] if s["id"] == "components")
    for lang in ("en", "zh-Hant"):
        assert "{energy_cards}" in components["body"][lang] and "{tiles}" in components["body"][lang]


def test_rule_sheet_prints_the_exact_deck_odds(rules_text):
    # Rouleur: 1 - C(12,4)/C(15,4) = 58/91; sprinteur mean 69/15 = 23/5.
    assert "58/91" in rules_text["en"] and "23/5" in rules_text["en"]
    assert "58/91" in rules_text["zh-Hant"]


def test_rule_sheet_covers_every_phase_and_variant(rules_text):
    for words in ("Energy phase", "Movement phase", "End phase", "Exhaustion", "Finish and winner",
                  "Handicap", "Climbs and descents", "Slipstream"):
        assert words in rules_text["en"], words
    for words in ("精力階段", "移動階段", "結束階段", "疲勞", "讓步", "上坡與下坡", "跟風"):
        assert words in rules_text["zh-Hant"], words


def test_every_diagram_draws_in_both_languages(flamme, tmp_path):
    canvas = new_canvas(str(tmp_path / "d.pdf"), (210 * mm, 297 * mm), "diagrams")
    for name, draw in diagrams.DIAGRAMS.items():
        for lang in ("en", "zh-Hant"):
            picture = draw(flamme, lang)
            width, height = picture.wrap(170 * mm, 250 * mm)
            assert 0 < width <= 170 * mm and 0 < height < 120 * mm, name
            picture.canv = canvas
            picture.draw()
            canvas.showPage()
    canvas.save()


def test_slipstream_picture_agrees_with_the_engine(flamme):
    """The picture's before and after rows are what the engine's end phase makes of them."""
    from verify.games.flamme_rouge.rules import FlammeRouge

    game = FlammeRouge(flamme, course="S" + "N" * 11 + "FF")
    state = game.new_state(2, seed=0, setup={
        "riders": {"P1": {"rouleur": [4, "right"], "sprinteur": [6, "right"]},
                   "P2": {"rouleur": [4, "left"], "sprinteur": [2, "right"]}},
    })
    state._slipstream()
    after = sorted(state.fields()[f"rider.{p}.{r}"][0] for p in ("P1", "P2") for r in ("rouleur", "sprinteur"))
    assert after == [4, 5, 5, 6]


def test_board_card_spaces_stay_clear_of_the_band_the_phase_strip_and_each_other():
    # The recycled space once ran 13 mm under the phase strip, hiding its Chinese caption.
    for paper in ("a4", "letter"):
        trim = boards.board_slot(paper).trim
        plan = boards.board_plan(trim)
        spaces = list(plan.energy) + list(plan.recycled)
        for space in spaces:
            assert trim.contains(space)
            assert space.y >= plan.strip.top and space.top <= plan.band.y
            assert (space.w, space.h) == pytest.approx((boards.CARD_SPACE_MM[0] * mm, boards.CARD_SPACE_MM[1] * mm))
        for column, energy, recycled in zip(plan.columns, plan.energy, plan.recycled):
            assert recycled.top < energy.y and column.contains(energy) and column.contains(recycled)


def test_board_phase_strip_holds_its_text_inside_the_safe_area(flamme):
    from reportlab.lib.styles import ParagraphStyle

    from cardgen.markup import para
    from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, register_fonts

    register_fonts()
    trim = boards.board_slot("a4").trim
    strip = boards.board_plan(trim).strip
    width = (trim.w - 12 * mm - 2 * 4 * mm) / 3
    styles = (ParagraphStyle("h", fontName=SANS_BOLD, fontSize=9.5, leading=12),
              ParagraphStyle("b", fontName=SANS, fontSize=7.6, leading=9.4),
              ParagraphStyle("z", fontName=CJK, fontSize=7.6, leading=10, wordWrap="CJK"))
    for phase in boards.PHASES:
        title, zh_title = (faces.words(flamme, f"board-{phase}-head", lang) for lang in ("en", "zh-Hant"))
        text, zh_text = (faces.words(flamme, f"board-{phase}", lang) for lang in ("en", "zh-Hant"))
        used = sum(para(t, s).wrap(width, strip.h)[1] + 1 * mm
                   for t, s in zip((title + " · " + zh_title, text, zh_text), styles))
        assert 3.5 * mm + used <= strip.h - 3 * mm, title
