"""Card sheet PDFs read back: sizes, page boxes, embedded fonts, viewer settings, text, order,
determinism and atomic writes."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from tests.pdfcheck import fonts

from cardgen.build import build_game, planned_outputs
from cardgen.content import load_game
from cardgen.errors import ContentErrors, UsageError
from cardgen.faces import wrap
from cardgen.registry import definition_for
from cardgen.games.game_of_trains import faces as trains_faces
from cardgen.layout import plan_sheet
from cardgen.pdfdoc import CJK, SANS, mm, register_fonts
from cardgen.sheets import render_card_sheets
from tests.conftest import edit

CARDS = 88  # 84 carriages and 4 locomotives


@pytest.fixture(scope="module")
def sheets(tmp_path_factory, trains):
    """Every card PDF of Game of Trains, rendered once for this module."""
    folder = tmp_path_factory.mktemp("cards")
    paths = {}
    for paper in ("a4", "letter"):
        for layout in ("home", "butted"):
            paths[paper, layout] = render_card_sheets(trains, folder / f"{paper}-{layout}.pdf", paper, layout)
    paths["short"] = render_card_sheets(trains, folder / "short.pdf", "a4", "home", flip="short")
    return {key: PdfReader(path) for key, path in paths.items()}


def lines(page) -> list[str]:
    return [line.strip() for line in page.extract_text().splitlines() if line.strip()]


@pytest.mark.parametrize("paper, layout, size_mm", [
    ("a4", "butted", (210, 297)), ("letter", "butted", (215.9, 279.4)),
    ("a4", "home", (297, 210)), ("letter", "home", (279.4, 215.9)),
])
def test_pages_have_the_exact_paper_size(sheets, paper, layout, size_mm):
    for page in sheets[paper, layout].pages:
        assert (float(page.mediabox.width) / mm, float(page.mediabox.height) / mm) == pytest.approx(size_mm, abs=0.01)


@pytest.mark.parametrize("paper, layout", [("a4", "home"), ("letter", "home"), ("a4", "butted"), ("letter", "butted")])
def test_every_fronts_page_is_followed_by_its_backs_page(sheets, paper, layout, trains):
    reader = sheets[paper, layout]
    per_page = plan_sheet(paper, 63, 88, layout).per_page
    assert len(reader.pages) == 2 * -(-CARDS // per_page)
    for index in range(0, len(reader.pages), 2):
        back_text = " ".join(lines(reader.pages[index + 1]))
        assert "Game of Trains" in back_text or "Locomotive" in back_text
        assert "Couple" not in back_text and "Uncouple" not in back_text


@pytest.mark.parametrize("paper, layout", [("a4", "home"), ("letter", "home"), ("a4", "butted"), ("letter", "butted")])
def test_trim_and_bleed_boxes_lie_inside_the_media_box(sheets, paper, layout):
    for page in sheets[paper, layout].pages:
        media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
        assert media.left <= bleed.left <= trim.left and trim.right <= bleed.right <= media.right
        assert media.bottom <= bleed.bottom <= trim.bottom and trim.top <= bleed.top <= media.top
        grow = float(bleed.left) - float(trim.left)
        if layout == "butted":
            assert list(trim) == list(bleed)
        else:
            assert grow == pytest.approx(-plan_sheet(paper, 63, 88, layout).bleed, abs=1e-3)


def test_first_page_trim_box_is_the_card_grid(sheets):
    sheet = plan_sheet("a4", 63, 88, "butted")
    trim = sheets["a4", "butted"].pages[0].trimbox
    width, height = float(trim.width) / mm, float(trim.height) / mm
    assert (width, height) == pytest.approx((3 * 63, 3 * 88), abs=0.01)
    assert float(trim.left) == pytest.approx(sheet.slots[0].trim.x, abs=1e-3)


@pytest.mark.parametrize("key", [("a4", "home"), ("letter", "butted")])
def test_every_font_is_embedded(sheets, key):
    found = fonts(sheets[key])
    assert found and all(found.values()), found
    assert any("Vera" in name for name in found) and any("ZenHei" in name for name in found)


def test_viewer_prints_at_actual_size_and_duplex_on_the_chosen_edge(sheets):
    long_prefs = sheets["a4", "home"].trailer["/Root"]["/ViewerPreferences"]
    short_prefs = sheets["short"].trailer["/Root"]["/ViewerPreferences"]
    assert long_prefs["/PrintScaling"] == "/None"
    assert long_prefs["/Duplex"] == "/DuplexFlipLongEdge"
    assert short_prefs["/Duplex"] == "/DuplexFlipShortEdge"


def test_every_carriage_number_is_printed_three_times_in_content_order(sheets):
    reader = sheets["a4", "butted"]
    for page_number, index in enumerate(range(0, len(reader.pages), 2)):
        counts = Counter(lines(reader.pages[index]))
        counts.subtract(str(n) for n in range(10))  # the 100 mm ruler numbers its centimetres once
        # A number on the carriage and in two corners; the ability number appears at most twice
        # per card, so three or more is the card's own number.
        printed = sorted(int(text) for text, n in counts.items() if text.isdigit() and n >= 3)
        expected = list(range(9 * page_number + 1, min(9 * page_number + 9, 84) + 1))
        assert printed == expected, f"fronts page {page_number + 1}"


def test_ability_text_is_printed_in_english_and_chinese(sheets, trains):
    text = " ".join(lines(sheets["a4", "home"].pages[0]))
    card = trains.cards[0]  # carriage 1
    ability = next(a for a in trains.files["abilities"]["abilities"] if a["id"] == card["ability"])
    assert ability["name"]["en"] in text
    assert ability["name"]["zh-Hant"] in text


def test_locomotive_cards_follow_the_carriages(sheets):
    reader = sheets["a4", "home"]
    last_fronts = " ".join(lines(reader.pages[-2]))
    assert last_fronts.count("Locomotive") == 4
    assert "84" in last_fronts


def test_same_content_gives_byte_identical_pdfs(trains, tmp_path):
    first = render_card_sheets(trains, tmp_path / "one.pdf", "letter", "home")
    second = render_card_sheets(trains, tmp_path / "two.pdf", "letter", "home")
    assert hashlib.sha256(first.read_bytes()).digest() == hashlib.sha256(second.read_bytes()).digest()


def test_build_writes_every_file_under_the_game_folder_and_reports_each(trains, tmp_path):
    reported = []
    written = build_game(trains, tmp_path, papers=("a4",), layouts=("home", "butted"), progress=reported.append)
    assert written == reported
    names = [p.name for p in written]
    assert names[:2] == ["cards-a4-home.pdf", "cards-a4-butted.pdf"]
    assert all(p.parent == tmp_path / "game-of-trains" and p.stat().st_size > 0 for p in written)
    assert not [p for p in (tmp_path / "game-of-trains").iterdir() if p.name.startswith(".")]


def test_a_failed_drawing_leaves_no_partial_file_and_keeps_the_old_one(trains, tmp_path, monkeypatch):
    target = tmp_path / "game-of-trains" / "cards-a4-home.pdf"
    target.parent.mkdir()
    target.write_bytes(b"previous build")
    drawn = []

    def failing_face(canvas, content, card, rect, bleed):
        drawn.append(card["id"])
        if len(drawn) == 20:
            raise RuntimeError("ink ran out")

    monkeypatch.setattr(trains_faces, "draw_face", failing_face)
    with pytest.raises(RuntimeError, match="ink ran out"):
        build_game(trains, tmp_path, papers=("a4",), layouts=("home",))
    assert target.read_bytes() == b"previous build"
    assert [p.name for p in target.parent.iterdir()] == ["cards-a4-home.pdf"]


def test_a_game_adds_its_own_outputs_through_its_definition(trains, tmp_path, monkeypatch):
    def extra_outputs(content, out_dir, paper, flip, options=None):
        return [(out_dir / f"tiles-{paper}.pdf", lambda path: path.write_bytes(f"{paper} {flip}".encode()))]

    monkeypatch.setattr(definition_for("game-of-trains"), "extra_outputs", extra_outputs)
    planned = planned_outputs(trains, tmp_path, papers=("a4", "letter"), layouts=("home",), flip="short")
    names = [p.name for p, _ in planned if not p.name.startswith("assembly-")]
    # Files made for short-edge flipping carry their own names.
    assert names[-2:] == ["tiles-a4-short.pdf", "tiles-letter-short.pdf"]
    written = build_game(trains, tmp_path, papers=("letter",), layouts=("home",), flip="short", langs=("en",))
    assert (tmp_path / "game-of-trains" / "tiles-letter-short.pdf").read_bytes() == b"letter short"
    assert [p.name for p in written][-2:] == ["tiles-letter-short.pdf", "assembly-letter-en.pdf"]


def test_a_card_larger_than_the_paper_is_reported_at_its_size_in_game_yaml(content_copy, tmp_path):
    edit(content_copy / "game-of-trains" / "game.yaml", "height_mm: 88", "height_mm: 280")
    content = load_game(content_copy, "game-of-trains")
    with pytest.raises(ContentErrors) as caught:
        render_card_sheets(content, tmp_path / "cards.pdf", "letter", "home")
    message = str(caught.value)
    assert "game.yaml:11:" in message and "$.card_sizes.poker" in message and "does not fit on letter" in message
    assert not (tmp_path / "cards.pdf").exists()


def test_unknown_flip_and_unknown_game_are_usage_errors(trains, tmp_path):
    with pytest.raises(UsageError, match="unknown flip"):
        build_game(trains, tmp_path, flip="sideways")
    with pytest.raises(UsageError, match="no game 'no-such-game' is registered"):
        definition_for("no-such-game")


def test_every_ability_has_an_icon_and_a_colour(trains):
    for ability in trains.files["abilities"]["abilities"]:
        assert ability["icon"] in trains_faces.ICONS
        assert ability["icon"] in trains_faces.ABILITY_COLOURS
    with pytest.raises(ValueError, match="unknown ability icon"):
        trains_faces.draw_ability_icon(None, "teleport", 0, 0, 10)


def test_wrapped_lines_are_balanced_and_chinese_breaks_between_characters():
    register_fonts()
    assert wrap("Everyone loses carriage 4", SANS, 10, 120) == ["Everyone loses", "carriage 4"]
    assert wrap("Couple", SANS, 10, 120) == ["Couple"]
    zh = wrap("所有人移除第1節所有人移除第1節", CJK, 10, 60)
    assert len(zh) > 1 and "".join(zh) == "所有人移除第1節所有人移除第1節"


def test_balancing_lines_measures_each_candidate_line_once(monkeypatch):
    """Balancing tries narrower and narrower widths; each candidate line is measured once."""
    from cardgen import faces

    register_fonts()
    measured = []

    def counting(text, font, size):
        measured.append(text)
        return stringWidth(text, font, size)

    monkeypatch.setattr(faces, "stringWidth", counting)
    text = "所有人移除第1節，然後輪到下一位玩家。" * 3
    lines = faces._even_wrap.__wrapped__(text, CJK, 10, 80)
    assert len(lines) > 2 and "".join(lines) == text
    assert len(measured) == len(set(measured))


def test_artwork_shared_by_cards_is_stored_once_per_document(sheets, trains):
    forms = set()
    for page in sheets["a4", "home"].pages:
        for name, ref in page["/Resources"].get("/XObject", {}).items():
            forms.add(ref.idnum)
    abilities = {card["ability"] for card in trains.cards if card["deck"] == "carriages"}
    # One per ability, one for the locomotive face, one per back, and the sheets' 100 mm ruler.
    assert len(forms) == len(abilities) + 1 + len(trains.game["backs"]) + 1
