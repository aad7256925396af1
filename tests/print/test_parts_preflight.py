"""Every printed part is held to the card standard: tokens have art past their cut on both sides,
their text is 7 pt or more and inside the safe zone, and the preflight checks tokens, tiles, mats
and boards of every game, naming the part, the piece and the game."""

from __future__ import annotations

import pypdfium2
import pytest
from pypdf import PdfReader
from reportlab.lib.colors import HexColor

import cardgen.registry
from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.faces import MIN_TEXT_PT
from cardgen.pdfdoc import SANS, mm
from cardgen.preflight import preflight
from cardgen.registry import PrintedPiece, register, registered
from tests.pdfcheck import part_text_sizes
from tests.print.conftest import TINY_CONTENT
from tests.tinygame.game import TinyRaceDefinition

GAMES = ("game-of-trains", "ticket-to-ride-card-game", "moscow-to-paris", "spectral-rails", "flamme-rouge")


@pytest.fixture(scope="module")
def spectral():
    return load_game(PROJECT_CONTENT, "spectral-rails")


@pytest.fixture(scope="module")
def token_pdf(spectral, tmp_path_factory):
    from cardgen.games.spectral_rails.pieces import render_tokens

    path = tmp_path_factory.mktemp("tokens") / "tokens.pdf"
    render_tokens(spectral, "a4", "long", path)
    return path


def _grey(image, x_pt: float, y_pt: float, page_h_pt: float, scale: float) -> int:
    return image.getpixel((int(x_pt * scale), int((page_h_pt - y_pt) * scale)))


def test_soul_tiles_are_coloured_past_their_cut_on_fronts_and_backs(spectral, token_pdf):
    from cardgen.games.spectral_rails.pieces import TOKEN_BLEED_MM, plan_tokens, tokens

    plan = plan_tokens(tokens(spectral), "a4", "long")
    pdf = pypdfium2.PdfDocument(str(token_pdf))
    scale = 4
    page_h = pdf[0].get_height()
    front = pdf[0].render(scale=scale).to_pil().convert("L")
    back = pdf[1].render(scale=scale).to_pil().convert("L")
    outside = (TOKEN_BLEED_MM - 0.5) * mm  # inside the bleed, past the cut line
    souls = [p for p in plan[0] if p.token.kind == "soul"]
    assert souls
    for placed in souls:
        for image, r in ((front, placed.rect), (back, placed.back)):
            cx, cy, inside = r.x + r.w / 2, r.y + r.h / 2, 1 * mm
            for (x, y), (ix, iy) in ((((r.x - outside, cy)), (r.x + inside, cy)),
                                     ((r.right + outside, cy), (r.right - inside, cy)),
                                     ((cx, r.y - outside), (cx, r.y + inside)),
                                     ((cx, r.top + outside), (cx, r.top - inside))):
                past, within = _grey(image, x, y, page_h, scale), _grey(image, ix, iy, page_h, scale)
                # past the cut: the tile's own colour, never the paper's white
                assert past < 250 and abs(past - within) <= 3, (placed.token.key, x / mm, y / mm)


def test_token_text_is_at_least_seven_points(token_pdf):
    """Every run of text on the token sheets, fronts and backs (the ruler beside them is a
    measuring aid with its own small figures)."""
    reader = PdfReader(token_pdf)
    sizes = [size for page in reader.pages for size in part_text_sizes(page)]
    assert len(sizes) > 100 and min(sizes) >= MIN_TEXT_PT - 0.01


@pytest.mark.parametrize("game", GAMES)
def test_every_part_of_every_game_passes_the_preflight(game):
    content = load_game(PROJECT_CONTENT, game)
    findings = preflight(content, strict=True)
    assert findings == [], "\n".join(map(str, findings))


def test_the_preflight_walks_every_part_of_the_games_that_print_parts(spectral):
    parts = {piece.part for piece in cardgen.registry.definition_for("spectral-rails").parts_to_check(spectral)}
    assert parts == {"tokens", "mats", "board"}
    flamme = load_game(PROJECT_CONTENT, "flamme-rouge")
    parts = {piece.part for piece in cardgen.registry.definition_for("flamme-rouge").parts_to_check(flamme)}
    assert parts == {"tiles", "boards"}


def _with_piece(monkeypatch, piece):
    class WithPart(TinyRaceDefinition):
        def parts_to_check(self, content):
            return [piece]

    monkeypatch.setattr(cardgen.registry, "_GAMES", registered())
    register(WithPart())
    return preflight(load_game(TINY_CONTENT, "tiny-race"))


def _fill(colour, grow=0.0):
    def draw(canvas, trim):
        canvas.setFillColor(HexColor(colour))
        r = trim.grow(grow)
        canvas.rect(r.x, r.y, r.w, r.h, stroke=0, fill=1)
    return draw


def test_a_token_whose_art_stops_at_its_cut_is_reported_with_its_part_and_game(monkeypatch):
    findings = _with_piece(monkeypatch, PrintedPiece("tokens", "soul x", 18 * mm, 18 * mm, _fill("#333344"), 0.0, 3 * mm))
    assert [(f.game, f.card, f.check) for f in findings] == [("tiny-race", "tokens: soul x", "bleed")]


def test_small_text_and_text_near_the_cut_of_a_part_are_found(monkeypatch):
    def draw(canvas, trim):
        _fill("#333344", 2 * mm)(canvas, trim)
        canvas.setFillColor(HexColor("#ffffff"))
        canvas.setFont(SANS, 6)
        canvas.drawString(trim.x + 1.3 * mm, trim.y + 1.3 * mm, "Bodie")
    findings = _with_piece(monkeypatch, PrintedPiece("tokens", "soul y", 18 * mm, 18 * mm, draw, 2 * mm, 3 * mm))
    assert {f.check for f in findings} == {"min-size", "safe-zone"}
    assert all(f.card == "tokens: soul y" for f in findings)


def test_a_round_piece_is_checked_around_its_circle(monkeypatch):
    def coin(grow):
        def draw(canvas, trim):
            canvas.setFillColor(HexColor("#c9a227"))
            canvas.circle(trim.x + trim.w / 2, trim.y + trim.h / 2, trim.w / 2 + grow, stroke=0, fill=1)
        return draw
    assert _with_piece(monkeypatch, PrintedPiece("tokens", "coin", 18 * mm, 18 * mm, coin(2 * mm), 2 * mm, 3 * mm, "round")) == []
    short = _with_piece(monkeypatch, PrintedPiece("tokens", "coin", 18 * mm, 18 * mm, coin(0), 2 * mm, 3 * mm, "round"))
    assert [f.check for f in short] == ["bleed"]
