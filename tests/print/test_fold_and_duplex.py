"""Fold-over sheets for single-sided printers, the duplex calibration sheet, and the back offset
that every backs page takes (from --back-offset or a --printer file the user names)."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.build import build_options
from cardgen.calibration import render_calibration, targets
from cardgen.errors import ContentErrors, UsageError
from cardgen.layout import FOLD_TAB, mirror, plan_fold
from cardgen.pdfdoc import mm
from cardgen.printdata import printer_offset
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


def test_calibration_sheet_puts_a_scale_behind_each_line_for_both_flips(tmp_path):
    for flip in ("long", "short"):
        path = render_calibration(tmp_path / f"cal-{flip}.pdf", "a4", flip)
        reader = PdfReader(path)
        assert len(reader.pages) == 2 and not pdf_problems(reader)
        prefs = reader.trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/Duplex"] == ("/DuplexFlipLongEdge" if flip == "long" else "/DuplexFlipShortEdge")
        assert "X (mm" in reader.pages[1].extract_text() and "--back-offset" in reader.pages[0].extract_text()
        w, h = 210 * mm, 297 * mm
        upright, level = targets(w, h)
        behind = mirror(upright, w, h, flip)
        # Printed as planned, the front's upright line crosses its scale at 0.
        assert 0 < behind.x < w and 0 < behind.y < h


def test_back_offset_moves_every_backs_page_and_nothing_else(trains, tmp_path):
    plain = PdfReader(render_card_sheets(trains, tmp_path / "plain.pdf", "a4", "home"))
    moved = PdfReader(render_card_sheets(trains, tmp_path / "moved.pdf", "a4", "home",
                                         options=SheetOptions(back_offset=(1.0, -0.5))))
    for n, (a, b) in enumerate(zip(plain.pages, moved.pages)):
        dx = float(b.trimbox.left) - float(a.trimbox.left)
        dy = float(b.trimbox.bottom) - float(a.trimbox.bottom)
        if n % 2 == 0:
            assert (dx, dy) == (0, 0)
        else:
            assert (dx / mm, dy / mm) == pytest.approx((1.0, -0.5), abs=1e-3)


def test_back_offset_comes_from_the_option_or_a_printer_file_the_user_names(tmp_path):
    assert parse_offset("0.5,-1") == (0.5, -1.0)
    with pytest.raises(UsageError, match="X,Y"):
        parse_offset("left")
    with pytest.raises(UsageError, match="within 5 mm"):
        parse_offset("9,0")
    printer = tmp_path / "my-printer.yaml"
    printer.write_text("printer:\n  name: office laser\n  back_offset_mm: [0.4, -0.8]\n", "utf-8")
    assert printer_offset(printer) == (0.4, -0.8)
    _, options = build_options("home", None, None, printer, None, None, "both", ["g"])
    assert options.sheet.back_offset == (0.4, -0.8)
    with pytest.raises(UsageError, match="not both"):
        build_options("home", None, "1,1", printer, None, None, "both", ["g"])
    printer.write_text("printer:\n  back_offset_mm: [0.4, -0.8]\n  colour: red\n", "utf-8")
    with pytest.raises(ContentErrors, match=r"my-printer.yaml:2:3: .*colour"):
        printer_offset(printer)
    with pytest.raises(UsageError, match="no file"):
        printer_offset(tmp_path / "missing.yaml")
