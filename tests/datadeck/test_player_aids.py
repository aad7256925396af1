"""Reference cards (player aids) of Game of Trains, Ticket to Ride, Moscow to Paris and Spectral
Rails: drawn with the data layouts from each game's aids.yaml, printed beside the card sheets, one
per player, English on the front and Traditional Chinese on the back."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from cardgen.aids import aid_content, aid_outputs
from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.preflight import preflight
from cardgen.sheets import DEFAULT_OPTIONS
from tests.datadeck.conftest import cardgen
from tests.pdfcheck import pdf_problems

# game -> what its aids must name, in English and in Chinese
AIDS = {
    "game-of-trains": (["Swap", "Leapfrog", "Push back", "Pull forward", "Uncouple", "Lock"],
                       ["相鄰互換", "隔一互換", "右移", "左移", "拆最前", "上鎖"]),
    "ticket-to-ride-card-game": (["Phase 1", "Phase 2", "Draw train cards", "Play train cards", "Draw tickets"],
                                 ["階段1", "階段2", "拿火車牌", "打出火車牌", "拿車票"]),
    "moscow-to-paris": (["Take back", "Swap", "Clear two", "Clear three", "Trade", "Close a line"],
                        ["拿回", "交換", "清除兩張", "清除三張", "換牌", "關閉路線"]),
    "spectral-rails": (["Board", "Move", "Deliver", "wreck marker"], ["上車", "移動", "歸靈", "列車事故"]),
}


@pytest.mark.parametrize("game", sorted(AIDS))
def test_each_player_gets_a_reference_card_in_both_languages(game, tmp_path):
    content = load_game(PROJECT_CONTENT, game)
    aids = aid_content(content)
    players = content.game["players"]["max"]
    assert len(aids.physical_cards()) == players * len(content.files["aids"]["cards"])
    ((path, render),) = aid_outputs(content, tmp_path, ["a4"], ["home"], "long", DEFAULT_OPTIONS)
    assert path.name == "aids-a4-home.pdf"
    render(path)
    assert pdf_problems(path) == []
    pages = PdfReader(path).pages
    fronts = " ".join(page.extract_text() for page in pages[0::2])
    backs = " ".join(page.extract_text() for page in pages[1::2])
    english, chinese = AIDS[game]
    for word in english:
        assert fronts.count(word) >= players, word
    for word in chinese:
        assert backs.replace("\n", "").count(word) >= players, word
    assert not re.search(r"[\u4e00-\u9fff]", fronts) and "{" not in fronts + backs
    assert [f for f in preflight(aids) if f.level == "error" or f.check != "bleed"] == []


def test_an_english_build_leaves_the_chinese_backs_plain(tmp_path):
    content = load_game(PROJECT_CONTENT, "spectral-rails")
    content.languages = ("en",)
    ((path, render),) = aid_outputs(content, tmp_path, ["a4"], ["butted"], "long", DEFAULT_OPTIONS)
    render(path)
    backs = " ".join(page.extract_text() for page in PdfReader(path).pages[1::2])
    assert not re.search(r"[\u4e00-\u9fff]", backs)


def test_the_aids_are_listed_with_the_card_sheets(capsys, tmp_path):
    code, out, err = cardgen(capsys, PROJECT_CONTENT, "build", "moscow-to-paris", "--paper", "a4", "--layout", "fold",
                             "--lang", "en", "--out", str(tmp_path))
    assert code == 0, err
    assembly = " ".join(p.extract_text() for p in PdfReader(tmp_path / "moscow-to-paris" / "assembly-a4-en.pdf").pages)
    assert "aids-a4-fold.pdf" in assembly.replace("\n", "")


def test_an_unknown_fact_in_an_aid_is_located(capsys, content_copy):
    aids = content_copy / "game-of-trains" / "aids.yaml"
    aids.write_text(aids.read_text("utf-8").replace("Draw, or take", "Draw {carriage_count}, or take", 1), "utf-8")
    code, out, err = cardgen(capsys, content_copy, "validate", "game-of-trains")
    assert code == 1 and f"{aids}:" in err and "$.cards[0].body.en: unknown fact {carriage_count}" in err, err
