"""What the games' rule-sheet pictures share: a flowable that reserves a box and draws into it,
and the rules' terms. Each game declares its pictures through its `GameDefinition`."""

from __future__ import annotations

from typing import Callable

from reportlab.platypus import Flowable

from cardgen.content import term  # the rules' words, which pictures share with the cards

__all__ = ["Picture", "term"]


class Picture(Flowable):
    """A fixed-size drawing centred in the text column; `paint(canvas)` draws with (0, 0) at its
    lower-left corner. Pictures stay whole on one page."""

    def __init__(self, width: float, height: float, paint: Callable, space: float = 6):
        super().__init__()
        self.width = width
        self.height = height
        self.paint = paint
        self.spaceBefore = space
        self.spaceAfter = space
        self.hAlign = "CENTER"

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        self.paint(self.canv)
