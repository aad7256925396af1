"""A game's card PDF with backs, bleed, marks, labels and rulers stays quick: 88 cards took about
0.3 s before the gutter layout, the labels and the rulers, and about the same after."""

from __future__ import annotations

import time

from cardgen.sheets import render_card_sheets


def test_eighty_eight_cards_with_backs_bleed_and_marks_build_in_well_under_a_second(trains, tmp_path):
    render_card_sheets(trains, tmp_path / "warm.pdf", "a4", "home")  # fonts and shared art loaded once
    best = float("inf")
    for n in range(3):
        start = time.perf_counter()
        render_card_sheets(trains, tmp_path / f"{n}.pdf", "a4", "home")
        best = min(best, time.perf_counter() - start)
    assert best < 1.2, f"{best:.2f} s"
