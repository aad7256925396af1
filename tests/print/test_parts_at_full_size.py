"""Every part printed at 1:1 (tiles, tokens, mats, board panels) carries a 100 mm ruler where its
page has room; mats come two to a page with crop marks; riders can be told apart without colour;
curved tiles have their arcs drawn as cut lines."""

from __future__ import annotations

import math

import pypdfium2
import pytest
from pypdf import PdfReader

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.pdfdoc import mm


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    from cardgen.games.flamme_rouge.tiles import render_tiles
    from cardgen.games.spectral_rails.pieces import render_board, render_mats, render_tokens

    out = tmp_path_factory.mktemp("parts")
    fr, sr = load_game(PROJECT_CONTENT, "flamme-rouge"), load_game(PROJECT_CONTENT, "spectral-rails")
    render_tiles(fr, out / "tiles.pdf", "a4", "long")
    render_tokens(sr, "a4", "long", out / "tokens.pdf")
    render_mats(sr, "a4", out / "mats.pdf")
    side = sr.files["map"]["sides"][0]["id"]
    render_board(sr, side, "a4", out / "board.pdf")
    return out, fr, sr


def _page_texts(path) -> list[str]:
    pdf = pypdfium2.PdfDocument(str(path))
    return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]


@pytest.mark.parametrize("name, pages", [("tiles.pdf", "fronts"), ("tokens.pdf", "fronts"),
                                         ("mats.pdf", "all"), ("board.pdf", "all")])
def test_every_full_size_part_carries_a_ruler(parts, name, pages):
    out, _, _ = parts
    texts = _page_texts(out / name)
    checked = texts[::2] if pages == "fronts" else texts
    assert checked and all("10 cm" in text for text in checked), name


def test_two_mats_share_a_page_and_have_crop_marks(parts):
    from cardgen.games.spectral_rails.pieces import MAT_H, MAT_W, plan_mats

    out, _, sr = parts
    reader = PdfReader(out / "mats.pdf")
    assert len(reader.pages) == math.ceil(len(sr.game["player_colours"]) / 2)
    page_w, page_h, slots = plan_mats("a4")
    assert len(slots) == 2 and page_h > page_w
    a, b = (s.trim for s in slots)
    assert a.y >= b.top  # one above the other, not overlapping
    for slot in slots:
        assert (slot.trim.w / mm, slot.trim.h / mm) == pytest.approx((MAT_W, MAT_H))
    trim = reader.pages[0].trimbox
    assert float(trim.height) == pytest.approx(a.top - b.y, abs=0.01)
    # The crop marks are strokes outside both mats, at their corners.
    from cardgen.games.spectral_rails.pieces import crop_marks, Sheet

    marks = crop_marks(Sheet("a4", "mats", page_w, page_h, 1, 2, 0.0, tuple(slots)), slots)
    assert len(marks) >= 8
    for m in marks:
        inside = any(s.trim.x + 1e-6 < (m.x0 + m.x1) / 2 < s.trim.right - 1e-6 and
                     s.trim.y + 1e-6 < (m.y0 + m.y1) / 2 < s.trim.top - 1e-6 for s in slots)
        assert not inside


def test_each_team_has_its_own_number_of_pips(parts):
    from cardgen.games.flamme_rouge.boards import team_pips, teams_of

    _, fr, _ = parts
    pips = [team_pips(fr, team) for team in teams_of(fr)]
    assert sorted(pips) == list(range(1, len(pips) + 1))


def test_curved_tiles_have_both_arcs_drawn_as_cut_lines(parts):
    from cardgen.games.flamme_rouge.tiles import arc_cut_lines, tile_shape

    _, fr, _ = parts
    curved = straight = 0
    for tile in fr.files["tiles"]["tiles"]:
        shape = tile_shape(fr, tile["id"], "lower")
        arcs = arc_cut_lines(shape)
        if shape.turn:
            curved += 1
            assert len(arcs) == 2
            # Each arc keeps its distance from the tile's centre line: it is the trim edge.
            for arc, offset in zip(arcs, (shape.width / 2, -shape.width / 2)):
                assert arc[0] == pytest.approx(shape.point(0.0, offset))
                assert arc[-1] == pytest.approx(shape.point(shape.length, offset))
        else:
            straight += 1
            assert arcs == []
    assert curved and straight
