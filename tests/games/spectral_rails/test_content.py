"""Spectral Rails content: the reconstructed map (connected, counts per side), soul tiles and
cards, broken data refused at file:line:col, exact odds against simulated setups, and the printed
parts (card size, boxes, fonts, the board over several pages)."""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.errors import ContentErrors
from cardgen.games.spectral_rails.pieces import plan_tokens, render_board, render_tokens, tokens
from cardgen.pdfdoc import mm
from cardgen.sheets import render_card_sheets
from tests.pdfcheck import pdf_problems
from verify.games.spectral_rails.board import Board
from verify.games.spectral_rails.odds import setup_odds


def test_both_sides_are_connected_with_three_towns_per_region(content):
    data = content.files["map"]
    for players, regions in ((3, 5), (4, 6)):
        board = Board(data, players=players)
        assert len(board.regions) == regions
        assert all(len(t) == 3 for t in board.region_towns.values())
        assert len(board.blue_starts) == len(board.red_starts) == players
        assert board.check() == []
        every = set(board.adj)
        seen, todo = {board.towns[0]}, [board.towns[0]]
        while todo:
            for nxt in board.adj[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert seen == every


def test_tiles_and_cards_match_the_published_counts(content):
    tiles = content.files["tiles"]["tiles"]
    assert Counter(t["kind"] for t in tiles) == {"dark": 36, "light": 18}
    assert len(content.cards) == 36
    assert Counter(c["colour"] for c in content.cards) == {c: 9 for c in ("green", "purple", "orange", "grey")}
    assert all(c["provenance"] == "reconstructed" for c in content.cards)
    assert content.files["map"]["provenance"] == "reconstructed"
    assert sum(c["count"] for c in content.game["components"] if c["id"] == "trail-pieces") == 52


def test_every_ether_card_shares_one_back(content):
    backs = {d["back"] for d in content.decks if d["shuffle_group"] == "ether"}
    assert backs == {"ether-back"}


def _broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    root = tmp_path / "content"
    shutil.copytree(PROJECT_CONTENT, root)
    path = root / "spectral-rails" / file
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")
    return root


@pytest.mark.parametrize("file,old,new,message", [
    ("map.yaml", "{from: bodie, to: ballarat, spaces: 3}", "{from: bodie, to: ballarat, spaces: 5}", "spaces"),
    ("map.yaml", "region: utah, at: [290, 255]", "region: nevada, at: [290, 255]", "has 4 towns"),
    ("map.yaml", "red_starts: [calico, goldfield, grafton, independence]", "red_starts: [calico, goldfield, grafton]",
     "start towns"),
    ("tiles.yaml", "{id: l-ruby, kind: light, town: ruby", "{id: l-ruby, kind: light, town: kelly", "light tiles"),
    ("cards.yaml", "{deck: ether, id: grey-4b, colour: grey", "{deck: ether, id: grey-4b, colour: green", "ether cards"),
])
def test_broken_data_is_refused_with_a_position(tmp_path, file, old, new, message):
    root = _broken_copy(tmp_path, file, old, new)
    with pytest.raises(ContentErrors) as err:
        load_game(root, "spectral-rails")
    text = str(err.value)
    assert message in text and f"{file}:" in text
    first = err.value.errors[0]
    assert first.line > 0


def test_odds_of_a_towns_pair_match_simulated_setups(content, game):
    rows = {r["players"]: r for r in setup_odds(content)}
    from sympy import Rational
    assert rows[4]["own_region"] == Rational(42, 187) and rows[4]["one_region"] == Rational(27, 187)
    board = Board(content.files["map"], players=4)
    town = board.towns[0]
    region = board.town_region[town]
    own = same = 0
    n = 1500
    for seed in range(n):
        state = game.new_state(4, seed=seed)
        pair = [board.town_region[state.soul_town(s)] for s in state.waiting[town]]
        own += region in pair
        same += pair[0] == pair[1]
    for hits, p in ((own, rows[4]["own_region"]), (same, rows[4]["one_region"])):
        sigma = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(hits / n - float(p)) < 4 * sigma


def test_card_sheets_print_poker_cards_with_boxes(content, tmp_path):
    path = tmp_path / "cards.pdf"
    render_card_sheets(content, path, "a4", "home", "long")
    reader = PdfReader(path)
    assert pdf_problems(reader) == []
    assert len(reader.pages) % 2 == 0 and len(reader.pages) >= 8  # every fronts page has its backs page
    from cardgen.layout import plan_sheet
    sheet = plan_sheet("a4", *content.card_size_mm(content.deck("ether")), "home")
    assert sheet.slots[0].trim.w == pytest.approx(63 * mm) and sheet.slots[0].trim.h == pytest.approx(88 * mm)


def test_tokens_fit_their_pages_and_backs_land_behind_fronts(content, tmp_path):
    from cardgen.games.spectral_rails.board import SOUL
    from cardgen.games.spectral_rails.pieces import SOUL_MM, TOKEN_BLEED_MM

    for paper in ("a4", "letter"):
        for flip in ("long", "short"):
            pages = plan_tokens(tokens(content), paper, flip)
            placed = [p for page in pages for p in page]
            assert len(placed) == 54 + 52 + 8 + 1 + 6 + 4
            for page in pages:
                for a in page:
                    for b in page:
                        if a is not b:  # bleeds may meet, never overlap
                            ga, gb = a.rect.grow(TOKEN_BLEED_MM * mm), b.rect.grow(TOKEN_BLEED_MM * mm)
                            assert (ga.right <= gb.x + 1e-6 or gb.right <= ga.x + 1e-6 or
                                    ga.top <= gb.y + 1e-6 or gb.top <= ga.y + 1e-6)
    soul = next(p for p in plan_tokens(tokens(content), "a4", "long")[0] if p.token.kind == "soul")
    assert soul.rect.w == pytest.approx(SOUL_MM * mm)
    assert SOUL > SOUL_MM  # the board's soul slots hold a tile
    assert soul.back.x == pytest.approx(210 * mm - soul.rect.x - soul.rect.w)
    path = tmp_path / "tokens.pdf"
    render_tokens(content, "letter", "long", path)
    assert pdf_problems(PdfReader(path)) == []


def test_the_board_prints_over_several_pages_at_full_size(content, tmp_path):
    path = tmp_path / "board.pdf"
    render_board(content, "four-players", "a4", path)
    reader = PdfReader(path)
    assert len(reader.pages) > 4 and pdf_problems(reader) == []
    widths = {round(float(p.trimbox.width) / mm) for p in reader.pages}
    assert max(widths) <= 190
