"""--margin keeps card sheets clear of a wider unprinted edge, for inkjets that leave one when
printing double-sided: nothing (cards, bleed, crop marks, label, ruler) prints inside it, on
fronts and backs and on fold-over sheets; a margin that leaves no room for a card is a usage error."""

from __future__ import annotations

import pypdfium2
import pytest

from cardgen.cli import main
from cardgen.pdfdoc import mm
from cardgen.sheets import SheetOptions, render_card_sheets
from cardgen.errors import UsageError


def _ink_within(path, margin_mm: float) -> list[tuple[int, int]]:
    """(page, darkest grey) of every page that has ink within `margin_mm` of the paper's edge."""
    pdf = pypdfium2.PdfDocument(str(path))
    found = []
    scale = 2
    band = int(margin_mm * mm * scale) - 1
    for index in range(len(pdf)):
        image = pdf[index].render(scale=scale).to_pil().convert("L")
        w, h = image.size
        strips = [image.crop((0, 0, w, band)), image.crop((0, h - band, w, h)),
                  image.crop((0, 0, band, h)), image.crop((w - band, 0, w, h))]
        darkest = min(strip.getextrema()[0] for strip in strips)
        if darkest < 250:
            found.append((index, darkest))
    return found


@pytest.mark.parametrize("layout", ["home", "butted", "fold"])
def test_nothing_prints_inside_a_wide_margin(tiny, tmp_path, layout):
    wide = tmp_path / "wide.pdf"
    render_card_sheets(tiny, wide, "a4", layout, "long", SheetOptions(margin_mm=12))
    assert _ink_within(wide, 12) == []
    usual = tmp_path / "usual.pdf"
    render_card_sheets(tiny, usual, "a4", layout, "long")
    assert _ink_within(usual, 12) != []  # the measurement sees ink where the usual margin allows it


def test_a_margin_out_of_range_is_refused():
    for value in (4.9, 40.5, float("nan")):
        with pytest.raises(UsageError):
            SheetOptions(margin_mm=value)


def _run(capsys, *args):
    with pytest.raises(SystemExit) as exit_:
        main(list(args))
    return exit_.value.code, capsys.readouterr()


def test_a_margin_that_leaves_no_room_for_a_card_is_a_usage_error_naming_the_option(capsys, tmp_path):
    code, (out, err) = _run(capsys, "build", "game-of-trains", "--paper", "a4", "--layout", "home", "--lang", "en",
                            "--margin", "40", "--card-size", "125x160", "--out", str(tmp_path / "out"))
    assert code == 2 and "--margin 40" in err and "125 x 160" in err
    assert not (tmp_path / "out").exists()


def test_a_wider_margin_builds_and_the_cards_still_fit(capsys, tmp_path):
    code, (out, err) = _run(capsys, "build", "game-of-trains", "--paper", "a4", "--layout", "home", "--lang", "en",
                            "--margin", "8", "--out", str(tmp_path))
    assert code == 0, err
    assert _ink_within(tmp_path / "game-of-trains" / "cards-a4-home.pdf", 8) == []
