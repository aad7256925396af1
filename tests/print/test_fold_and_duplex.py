"""Fold-over sheets for single-sided printers, the duplex calibration sheets (one per page
orientation), and the back offset that every two-sided part's backs pages take, in the frame of
their own orientation (from --back-offset, --back-offset-landscape or a --printer file)."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.build import build_options
from cardgen.calibration import ORIENTATIONS, page_size, render_calibration, scale_points, targets
from cardgen.errors import ContentErrors, UsageError
from cardgen.layout import FOLD_TAB, mirror, plan_fold
from cardgen.pdfdoc import mm
from cardgen.printdata import printer_offsets
from cardgen.sheets import SheetOptions, parse_offset, render_card_sheets
from tests.pdfcheck import page_count, pdf_problems, render_page


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [(63, 88), (44, 68), (88, 63)])
def test_each_back_lies_where_folding_puts_it_behind_its_front(paper, size):
    plan = plan_fold(paper, *size)
    assert plan.per_page >= 1
    for front, back in zip(plan.sheet.slots, plan.backs):
        assert front.trim.y > plan.fold_y and back.trim.top < plan.fold_y
        assert back.trim.x == front.trim.x and back.trim.w == front.trim.w
        assert (front.trim.y - plan.fold_y) == pytest.approx(plan.fold_y - back.trim.top)
    assert plan.tab.h == pytest.approx(2 * FOLD_TAB)
    assert plan.tab.y + plan.tab.h / 2 == pytest.approx(plan.fold_y)


def test_fold_over_pdf_puts_fronts_and_turned_backs_on_one_side(trains, tmp_path):
    path = render_card_sheets(trains, tmp_path / "fold.pdf", "a4", "fold")
    reader = PdfReader(path)
    assert not pdf_problems(reader)
    per_page = plan_fold("a4", 63, 88).per_page
    assert len(reader.pages) == -(-88 // per_page)
    assert "/Duplex" not in reader.trailer["/Root"].get("/ViewerPreferences", {})
    text = reader.pages[0].extract_text()
    assert "fold here" in text and "glue" in text and "Push back" in text
    # The back of the first card is drawn half a turn round: its top is towards the fold.
    image = render_page(path, 0, dpi=40)
    assert image.size[0] > image.size[1]


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("flip", ["long", "short"])
def test_calibration_sheet_puts_a_scale_behind_each_of_four_targets(tmp_path, flip, orientation):
    path = render_calibration(tmp_path / f"cal-{flip}.pdf", "a4", flip, orientation)
    reader = PdfReader(path)
    assert len(reader.pages) == 2 and not pdf_problems(reader)
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == ("/DuplexFlipLongEdge" if flip == "long" else "/DuplexFlipShortEdge")
    w, h = page_size("a4", orientation)
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx((w, h))
    assert (w > h) == (orientation == "landscape")
    option = "--back-offset-landscape" if orientation == "landscape" else "--back-offset "
    assert option in reader.pages[0].extract_text().replace("\n", " ") + " "
    back = reader.pages[1].extract_text()
    pairs = targets(w, h)
    assert len(pairs) == 4
    for n, (upright, level) in enumerate(pairs, 1):
        assert f"{n}: X (mm" in back and f"{n}: Y (mm" in back
        (xx, xy), (yx, yy) = scale_points(upright, level, w, h, flip)
        # Each scale's zero lies on the mirrored line, so a perfect printer reads 0 at every target.
        assert xx == pytest.approx(mirror(upright, w, h, flip).x)
        assert yy == pytest.approx(mirror(level, w, h, flip).y)
        behind = mirror(upright, w, h, flip)
        assert behind.y <= xy <= behind.top and 10 * mm < xx < w - 10 * mm
    # The four targets sit in the four quarters of the page, to catch a turned or scaled back.
    quarters = {(u.x < w / 2, u.y < h / 2) for u, _ in pairs}
    assert len(quarters) == 4


def _shifts(plain, moved):
    """Per page: (landscape?, dx mm, dy mm) of the TrimBox between two builds."""
    out = []
    for a, b in zip(plain.pages, moved.pages):
        out.append((float(a.mediabox.width) > float(a.mediabox.height),
                    (float(b.trimbox.left) - float(a.trimbox.left)) / mm,
                    (float(b.trimbox.bottom) - float(a.trimbox.bottom)) / mm))
    return out


@pytest.mark.parametrize("layout", ["home", "butted"])
def test_each_backs_page_moves_by_the_offset_of_its_own_orientation(trains, tmp_path, layout):
    options = SheetOptions(back_offset=(0.7, 0.2), back_offset_landscape=(1.0, -0.5))
    plain = PdfReader(render_card_sheets(trains, tmp_path / "plain.pdf", "a4", layout))
    moved = PdfReader(render_card_sheets(trains, tmp_path / "moved.pdf", "a4", layout, options=options))
    for n, (landscape, dx, dy) in enumerate(_shifts(plain, moved)):
        want = (0, 0) if n % 2 == 0 else (1.0, -0.5) if landscape else (0.7, 0.2)
        assert (dx, dy) == pytest.approx(want, abs=1e-3)


def test_a_portrait_reading_never_moves_a_landscape_page(trains, tmp_path):
    plain = PdfReader(render_card_sheets(trains, tmp_path / "plain.pdf", "a4", "home"))
    moved = PdfReader(render_card_sheets(trains, tmp_path / "moved.pdf", "a4", "home",
                                         options=SheetOptions(back_offset=(1.0, -0.5))))
    shifts = _shifts(plain, moved)
    assert all(landscape for landscape, _, _ in shifts)  # the home sheets of 63 x 88 cards lie landscape
    assert all((dx, dy) == pytest.approx((0, 0), abs=1e-6) for _, dx, dy in shifts)


def test_tiles_and_tokens_backs_move_with_the_offset(tmp_path):
    from cardgen.content import PROJECT_CONTENT, load_game
    from cardgen.games.flamme_rouge.tiles import render_tiles
    from cardgen.games.spectral_rails.pieces import render_tokens

    options = SheetOptions(back_offset=(1.0, 0.5), back_offset_landscape=(-0.6, 0.9))
    fr, sr = load_game(PROJECT_CONTENT, "flamme-rouge"), load_game(PROJECT_CONTENT, "spectral-rails")
    render_tiles(fr, tmp_path / "tiles.pdf", "a4", "long")
    render_tiles(fr, tmp_path / "tiles-moved.pdf", "a4", "long", options)
    render_tokens(sr, "a4", "long", tmp_path / "tokens.pdf")
    render_tokens(sr, "a4", "long", tmp_path / "tokens-moved.pdf", options)
    for name in ("tiles", "tokens"):
        shifts = _shifts(PdfReader(tmp_path / f"{name}.pdf"), PdfReader(tmp_path / f"{name}-moved.pdf"))
        assert len(shifts) >= 2
        for n, (landscape, dx, dy) in enumerate(shifts):
            want = (0, 0) if n % 2 == 0 else (-0.6, 0.9) if landscape else (1.0, 0.5)
            assert (dx, dy) == pytest.approx(want, abs=1e-3), (name, n)


def test_back_offset_comes_from_the_options_or_a_printer_file_the_user_names(tmp_path):
    assert parse_offset("0.5,-1") == (0.5, -1.0)
    with pytest.raises(UsageError, match="X,Y"):
        parse_offset("left")
    with pytest.raises(UsageError, match="within 5 mm"):
        parse_offset("9,0")
    with pytest.raises(UsageError, match="--back-offset-landscape"):
        parse_offset("nan,0", "--back-offset-landscape")
    printer = tmp_path / "my-printer.yaml"
    printer.write_text("printer:\n  name: office laser\n  back_offset_mm: [0.4, -0.8]\n", "utf-8")
    assert printer_offsets(printer) == {"portrait": (0.4, -0.8)}
    _, options = build_options("home", None, None, printer, None, None, "both", ["g"])
    assert options.sheet.back_offset == (0.4, -0.8) and options.sheet.back_offset_landscape == (0, 0)
    printer.write_text("printer:\n  back_offset_mm: {portrait: [0.4, -0.8], landscape: [1, 0.25]}\n", "utf-8")
    _, options = build_options("home", None, None, printer, None, None, "both", ["g"])
    assert (options.sheet.back_offset, options.sheet.back_offset_landscape) == ((0.4, -0.8), (1.0, 0.25))
    _, options = build_options("home", None, "0.1,0.2", None, None, None, "both", ["g"], "0.3,0.4")
    assert (options.sheet.back_offset, options.sheet.back_offset_landscape) == ((0.1, 0.2), (0.3, 0.4))
    with pytest.raises(UsageError, match="not both"):
        build_options("home", None, "1,1", printer, None, None, "both", ["g"])
    printer.write_text("printer:\n  back_offset_mm: [0.4, -0.8]\n  colour: red\n", "utf-8")
    with pytest.raises(ContentErrors, match=r"my-printer.yaml:2:3: .*colour"):
        printer_offsets(printer)
    with pytest.raises(UsageError, match="no file"):
        printer_offsets(tmp_path / "missing.yaml")
