"""Preflight finds what a prepress check finds: text below 7 pt, characters no font has, text past
the trim or in the safe zone, text running into other text, art that stops at the trim; each
finding names the card and its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.lib.colors import HexColor

import cardgen.registry
from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.faces import fill_bleed, stamp
from cardgen.pdfdoc import SANS, mm
from cardgen.preflight import preflight
from cardgen.registry import register, registered
from tests.tinygame.game import TinyRaceDefinition

TINY = Path(__file__).resolve().parents[1] / "tinygame" / "content"


def faulty(draw):
    """The made-up game with a card face drawn by `draw(canvas, card, rect, bleed)`."""

    class Faulty(TinyRaceDefinition):
        def draw_face(self, canvas, content, card, rect, bleed):
            draw(canvas, card, rect, bleed)

    return Faulty()


@pytest.fixture
def check(monkeypatch):
    def run(draw, **options):
        monkeypatch.setattr(cardgen.registry, "_GAMES", registered())
        register(faulty(draw))
        return preflight(load_game(TINY, "tiny-race"), **options)
    return run


def full_card(canvas, rect, bleed):
    fill_bleed(canvas, rect, bleed, HexColor("#f4efe1"))


def test_a_clean_card_has_no_findings(check):
    def draw(canvas, card, rect, bleed):
        full_card(canvas, rect, bleed)
        canvas.setFont(SANS, 9)
        canvas.drawCentredString(rect.x + rect.w / 2, rect.y + rect.h / 2, "Step 3")
    assert check(draw) == []


def test_text_below_seven_points_is_an_error_naming_the_card_and_its_line(check):
    def draw(canvas, card, rect, bleed):
        full_card(canvas, rect, bleed)
        canvas.setFont(SANS, 6.5)
        canvas.drawString(rect.x + 10 * mm, rect.y + 20 * mm, f"tiny {card['id']}")
    findings = check(draw)
    assert len([f for f in findings if f.check == "min-size"]) == 9
    first = next(f for f in findings if f.card == "card 1")
    assert first.level == "error" and "6.5 pt" in first.message and "cards.yaml:2:" in first.where


def test_shrinking_the_drawing_counts_too(check):
    def draw(canvas, card, rect, bleed):
        full_card(canvas, rect, bleed)
        canvas.saveState()
        canvas.translate(rect.x + 10 * mm, rect.y + 20 * mm)
        canvas.scale(0.5, 0.5)
        canvas.setFont(SANS, 10)
        canvas.drawString(0, 0, "half size")
        canvas.restoreState()
    assert {f.check for f in check(draw)} == {"min-size"}


def test_text_in_shared_art_forms_is_found_where_the_form_is_placed(check):
    def draw(canvas, card, rect, bleed):
        def art(origin):
            fill_bleed(canvas, origin, bleed, HexColor("#f4efe1"))
            canvas.setFont(SANS, 9)
            canvas.drawString(origin.x + 1 * mm, origin.y + 20 * mm, "near the edge")
        stamp(canvas, ("faulty", card["id"]), rect, bleed, art)
    findings = check(draw)
    assert {f.check for f in findings} == {"safe-zone"} and all(f.level == "warning" for f in findings)
    assert {f.level for f in check(draw, strict=True)} == {"error"}


def test_text_past_the_trim_and_missing_glyphs_are_errors(check):
    def draw(canvas, card, rect, bleed):
        full_card(canvas, rect, bleed)
        canvas.setFont(SANS, 9)
        canvas.drawString(rect.right - 5 * mm, rect.y + 30 * mm, "runs off the card")
        canvas.drawString(rect.x + 8 * mm, rect.y + 40 * mm, "中")
    checks = {f.check for f in check(draw)}
    assert {"overflow", "glyph"} <= checks


def test_art_that_stops_at_the_trim_is_found(check):
    def draw(canvas, card, rect, bleed):
        fill_bleed(canvas, rect, 0, HexColor("#203040"))
    findings = check(draw)
    assert {f.check for f in findings} == {"bleed"} and "left" in findings[0].message


def test_game_of_trains_at_44_by_68_mm_keeps_its_text_size_and_is_told_what_no_longer_fits():
    """Faces are laid out at the card's size with text at its point size: on a card too small for
    them, the preflight finds text that runs past the trim, never text shrunk below 7 pt."""
    content = load_game(PROJECT_CONTENT, "game-of-trains")
    for declared in content.game["card_sizes"].values():
        declared["width_mm"], declared["height_mm"] = 44, 68
    findings = preflight(content, bleed_check=False)
    assert not any(f.check == "min-size" for f in findings)
    assert any(f.level == "error" and f.check == "overflow" and f.where.startswith("content/game-of-trains/cards.yaml:")
               for f in findings)


def test_each_text_run_is_noted_once_where_it_is_drawn():
    import io

    from cardgen.preflight import RecordingCanvas
    from cardgen.pdfdoc import register_fonts

    register_fonts()
    canvas = RecordingCanvas(io.BytesIO())
    canvas.setFont(SANS, 10)
    canvas.drawString(10, 20, "abc")
    canvas.drawRightString(200, 80, "z")
    text = canvas.beginText(5, 5)
    text.setFont(SANS, 8)
    text.textOut("ab")
    text.textLine("cd")
    text.textLine("ef")
    canvas.drawText(text)
    starts = {run.text: tuple(round(v) for v in min(run.corners)) for run in canvas.runs}
    assert [run.text for run in canvas.runs] == ["abc", "z", "ab", "cd", "ef"]
    assert starts["abc"][0] == 10 and 17 <= starts["abc"][1] <= 18
    assert starts["ab"][0] == 5 and starts["cd"][0] == 15 and starts["ef"][0] == 5
    assert starts["ef"][1] < starts["cd"][1]


def test_a_paragraphs_later_lines_are_checked_where_they_are_printed(check):
    """A paragraph writes its lines and the pieces of a line one after another with the PDF's own
    moves; its third line, past the card's bottom, is found there, and a second font on one line
    is placed after the first piece, not over it."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    def draw(canvas, card, rect, bleed):
        full_card(canvas, rect, bleed)
        style = ParagraphStyle("p", fontName=SANS, fontSize=9, leading=11)
        text = Paragraph("one two three four five six seven eight nine ten eleven twelve", style)
        _, height = text.wrap(rect.w - 12 * mm, 200)
        text.drawOn(canvas, rect.x + 6 * mm, rect.y + 13 - height)  # the first line just inside the bottom edge
        mixed = Paragraph("Step <b>3</b> and <b>4</b>", style)
        mixed.wrap(rect.w - 12 * mm, 200)
        mixed.drawOn(canvas, rect.x + 6 * mm, rect.y + rect.h / 2)

    findings = check(draw)
    assert {f.check for f in findings} == {"overflow", "safe-zone"}, findings
    assert not [f for f in findings if f.check == "overlap"]


def test_text_running_into_other_text_is_found(check):
    def draw(canvas, card, rect, bleed):
        full_card(canvas, rect, bleed)
        canvas.setFont(SANS, 9)
        canvas.drawString(rect.x + 6 * mm, rect.y + rect.h / 2, "Move two spaces")
        canvas.drawString(rect.x + 14 * mm, rect.y + rect.h / 2 + 2, "then stop")  # over the words above
        canvas.drawString(rect.x + 6 * mm, rect.y + rect.h / 2 - 11, "A line below")  # a leading apart: fine
    findings = check(draw)
    overlaps = [f for f in findings if f.check == "overlap"]
    assert len(overlaps) == 9 and "'Move two spaces' runs into 'then stop'" in overlaps[0].message, findings
    assert check(draw, strict=True)[0].level == "error"
