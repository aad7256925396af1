"""The one rectangle every print planner uses: card sheets (in points), tiles and board panels (in
millimetres). Planning is pure geometry: functions return rectangles and draw nothing, so they can be
tested without a PDF. `scaled(mm)` turns a rectangle planned in millimetres into points."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle; (x, y) is its lower-left corner, as in PDF."""

    x: float
    y: float
    w: float
    h: float

    @classmethod
    def from_corners(cls, x0: float, y0: float, x1: float, y1: float) -> "Rect":
        return cls(x0, y0, x1 - x0, y1 - y0)

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    # Corner names, for planners that think in corners.
    x0 = property(lambda self: self.x)
    y0 = property(lambda self: self.y)
    x1 = right
    y1 = top

    def grow(self, d: float) -> "Rect":
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def union(self, other: "Rect") -> "Rect":
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.right, other.right) - x, max(self.top, other.top) - y)

    def contains(self, other: "Rect", tolerance: float = 1e-6) -> bool:
        return (other.x >= self.x - tolerance and other.y >= self.y - tolerance
                and other.right <= self.right + tolerance and other.top <= self.top + tolerance)

    def contains_point(self, px: float, py: float, tolerance: float = 1e-6) -> bool:
        return self.x - tolerance <= px <= self.right + tolerance and self.y - tolerance <= py <= self.top + tolerance

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def scaled(self, k: float) -> "Rect":
        """The same rectangle in another unit (`scaled(mm)`: millimetres to points)."""
        return Rect(self.x * k, self.y * k, self.w * k, self.h * k)

    def box(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top), as PDF page boxes are written."""
        return (self.x, self.y, self.right, self.top)


__all__ = ["Rect"]
