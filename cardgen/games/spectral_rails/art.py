"""Small drawings that Spectral Rails prints in many places: region shapes (each region has one,
so a soul tile tells its region without colour), trail pieces, the ghost train, coins, and the
colours and letters of the players. Everything draws around a given centre in the canvas's
current units (points), so the board, the tiles, the cards and the rule sheet share them."""

from __future__ import annotations

from math import cos, pi, sin

from reportlab.lib.colors import Color, HexColor

from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, mm

INK = HexColor("#1f1f1f")
PAPER = HexColor("#fbf6ea")
SAND = HexColor("#ecdcb8")
RAIL = HexColor("#7b6a58")
DARK_SOUL = HexColor("#37304a")
LIGHT_SOUL = HexColor("#f3f0ff")
BLUE_START = HexColor("#1e5aa8")
RED_START = HexColor("#b3261e")
GOLD = HexColor("#d4a017")


def polygon(canvas, points, stroke=1, fill=1) -> None:
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for p in points[1:]:
        path.lineTo(*p)
    path.close()
    canvas.drawPath(path, stroke=stroke, fill=fill)


def region_shape(canvas, shape: str, cx: float, cy: float, r: float) -> None:
    """The region's shape, filled with the current fill colour, about `r` in radius."""
    if shape == "circle":
        canvas.circle(cx, cy, r * 0.9, stroke=1, fill=1)
    elif shape == "square":
        canvas.rect(cx - r * 0.8, cy - r * 0.8, r * 1.6, r * 1.6, stroke=1, fill=1)
    elif shape == "triangle":
        polygon(canvas, [(cx + r * cos(pi / 2 + k * 2 * pi / 3), cy - r * 0.15 + r * sin(pi / 2 + k * 2 * pi / 3)) for k in range(3)])
    elif shape == "diamond":
        polygon(canvas, [(cx, cy + r), (cx + r * 0.75, cy), (cx, cy - r), (cx - r * 0.75, cy)])
    elif shape == "hexagon":
        polygon(canvas, [(cx + r * cos(k * pi / 3), cy + r * sin(k * pi / 3)) for k in range(6)])
    else:  # star
        pts = []
        for k in range(10):
            rr = r if k % 2 == 0 else r * 0.45
            a = pi / 2 + k * pi / 5
            pts.append((cx + rr * cos(a), cy + rr * sin(a)))
        polygon(canvas, pts)


def ghost_train(canvas, cx: float, cy: float, w: float, body: Color, ink: Color = INK) -> None:
    """A locomotive seen from the side with a wisp of smoke, `w` wide, centred on (cx, cy)."""
    h = w * 0.55
    x0, y0 = cx - w / 2, cy - h / 2
    canvas.setFillColor(body)
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(max(w / 60, 0.4))
    canvas.roundRect(x0 + w * 0.05, y0 + h * 0.25, w * 0.6, h * 0.45, w * 0.03, stroke=1, fill=1)  # boiler
    canvas.roundRect(x0 + w * 0.6, y0 + h * 0.25, w * 0.32, h * 0.7, w * 0.03, stroke=1, fill=1)  # cab
    canvas.rect(x0 + w * 0.12, y0 + h * 0.7, w * 0.1, h * 0.22, stroke=1, fill=1)  # chimney
    canvas.setFillColor(ink)
    for fx in (0.2, 0.42, 0.75):
        canvas.circle(x0 + w * fx, y0 + h * 0.2, w * 0.085, stroke=0, fill=1)
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(max(w / 80, 0.3))
    path = canvas.beginPath()
    path.moveTo(x0 + w * 0.17, y0 + h * 0.95)
    path.curveTo(x0 + w * 0.05, y0 + h * 1.15, x0 + w * 0.3, y0 + h * 1.2, x0 + w * 0.2, y0 + h * 1.4)
    canvas.drawPath(path, stroke=1, fill=0)


def trail_piece(canvas, cx: float, cy: float, size: float, colour: Color, letter: str) -> None:
    """One ether-trail piece: a rounded square of the player's colour with the colour's letter."""
    canvas.setFillColor(colour)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(max(size / 40, 0.3))
    canvas.roundRect(cx - size / 2, cy - size / 2, size, size, size * 0.25, stroke=1, fill=1)
    canvas.setFillColor(HexColor("#ffffff"))
    canvas.setFont(SANS_BOLD, size * 0.55)
    canvas.drawCentredString(cx, cy - size * 0.2, letter)


def player_colours(content) -> dict[str, dict]:
    return content.game["player_colours"]


def colour_of(content, colour: str) -> Color:
    return HexColor(player_colours(content)[colour]["hex"])


def letter_of(content, colour: str) -> str:
    return player_colours(content)[colour]["letter"]


def region_table(content) -> dict[str, dict]:
    return {r["id"]: r for r in content.files["map"]["regions"]}


def town_table(content) -> dict[str, dict]:
    return {t["id"]: t for t in content.files["map"]["towns"]}


def term(content, key: str, lang: str, **values) -> str:
    """A word from rules.yaml's terms; a "#" in it stands for `n`."""
    text = content.files["rules"]["terms"][key][lang]
    return text.replace("#", str(values["n"])) if "n" in values else text


def font(lang: str, bold: bool = False) -> str:
    if lang.startswith("zh"):
        return CJK
    return SANS_BOLD if bold else SANS


__all__ = ["INK", "PAPER", "region_shape", "ghost_train", "trail_piece", "colour_of", "letter_of", "term", "mm"]
