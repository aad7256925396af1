"""Ability icons read as the same ability from either side of the table: no icon turned half a
turn looks like another ability's icon (printing: a card in a train or in the market is read
upside down by the players across the table)."""

from __future__ import annotations

import io
from itertools import permutations

import pypdfium2
import pytest
from reportlab.pdfgen.canvas import Canvas

from cardgen.games.game_of_trains.faces import ICONS, draw_ability_icon

SIZE = 120  # points; rendered at 1 pixel per point
INK_LEVEL = 200  # a pixel darker than this in any channel is ink


def render(icon: str, turned: bool) -> list[bool]:
    """The icon as a mask of ink pixels, drawn upright or turned half a turn."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(SIZE, SIZE), invariant=1)
    if turned:
        canvas.translate(SIZE, SIZE)
        canvas.rotate(180)
    draw_ability_icon(canvas, icon, 0, 0, SIZE)
    canvas.showPage()
    canvas.save()
    page = pypdfium2.PdfDocument(buffer.getvalue())[0]
    pixels = page.render(scale=1).to_pil().convert("RGB").tobytes()
    return [min(pixels[i:i + 3]) < INK_LEVEL for i in range(0, len(pixels), 3)]


@pytest.fixture(scope="module")
def masks():
    return {(icon, turned): render(icon, turned) for icon in ICONS for turned in (False, True)}


def difference(a: list[bool], b: list[bool]) -> float:
    """The share of ink pixels that are ink in only one of the two pictures."""
    union = sum(1 for x, y in zip(a, b) if x or y)
    only_one = sum(1 for x, y in zip(a, b) if x != y)
    return only_one / union if union else 0.0


def test_no_icon_turned_half_a_turn_looks_like_another_abilitys_icon(masks):
    for first, second in permutations(ICONS, 2):
        turned, upright = masks[(first, True)], masks[(second, False)]
        assert difference(turned, upright) > 0.3, f"{first} turned half a turn looks like {second}"


def test_icons_that_point_along_the_train_carry_the_locomotive(masks):
    # Without its locomotive, Push back turned would be Pull forward; the locomotive adds ink at
    # the left end of every directional icon.
    for icon in ("shift-right", "shift-left", "remove-first", "remove-last"):
        mask = masks[(icon, False)]
        left_end = sum(mask[row * SIZE + col] for row in range(SIZE) for col in range(0, SIZE // 4))
        right_end = sum(mask[row * SIZE + col] for row in range(SIZE) for col in range(SIZE * 3 // 4, SIZE))
        assert left_end > 0 and left_end != right_end, icon


def test_the_check_catches_icons_without_a_reference_of_their_own(monkeypatch):
    # The earlier Push back and Pull forward icons (a card and two arrows, mirrored): turned half a
    # turn, one was the other, and the check above must see it.
    from cardgen.games.game_of_trains import faces

    def old_push_back(canvas):
        faces._mini_card(canvas, 5, 27, 26, 46)
        faces._straight_arrow(canvas, 39, 64, 50)
        faces._straight_arrow(canvas, 70, 95, 50)

    def old_pull_forward(canvas):
        faces._mini_card(canvas, 69, 27, 26, 46)
        faces._straight_arrow(canvas, 61, 36, 50)
        faces._straight_arrow(canvas, 30, 5, 50)

    monkeypatch.setitem(faces._ICONS, "shift-right", old_push_back)
    monkeypatch.setitem(faces._ICONS, "shift-left", old_pull_forward)
    assert difference(render("shift-right", True), render("shift-left", False)) < 0.3
