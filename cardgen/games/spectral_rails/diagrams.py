"""Spectral Rails rule-sheet pictures: the corner of the board with a town, its souls and the
round track; a route showing which trail a train may ride; the row of used cards and what comes
back at the end of a round; the odds table; and each worked example's ring of six towns before
and after."""

from __future__ import annotations

from math import cos, pi, sin

from reportlab.lib import colors
from reportlab.lib.colors import HexColor
from reportlab.platypus import Spacer, Table, TableStyle

from cardgen.diagrams import Picture
from cardgen.markup import bold, para
from cardgen.games.spectral_rails.art import (DARK_SOUL, INK, LIGHT_SOUL, PAPER, RAIL, SAND, colour_of, font,
                                              ghost_train, letter_of, term, trail_piece)
from cardgen.games.spectral_rails.board import draw_board, layout
from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, mm

MUTED = HexColor("#616161")
COLOURS = ("green", "purple", "orange", "grey")


def _label(c, x, y, text, lang, size=8, colour=MUTED, bold=False):
    c.setFillColor(colour)
    c.setFont(font(lang, bold), size)
    c.drawCentredString(x, y, text)


def board_diagram(content, lang):
    """The whole 4-player side at a small scale."""
    lay = layout(content, "four-players")
    scale = 165 / lay.width
    width, height = lay.width * scale * mm, lay.height * scale * mm

    def paint(c):
        draw_board(c, content, "four-players", scale=scale, labels=False)
        c.setStrokeColor(INK)
        c.setLineWidth(0.5)
        c.rect(0, 0, width, height, stroke=1, fill=0)

    return Picture(width, height, paint)


def _space(c, x, y, s=9 * mm):
    c.setFillColor(HexColor("#fffdf6"))
    c.setStrokeColor(RAIL)
    c.setLineWidth(0.8)
    c.roundRect(x - s / 2, y - s / 2, s, s, 1.5 * mm, stroke=1, fill=1)


def _town(c, x, y, name, r=6 * mm):
    c.setFillColor(PAPER)
    c.setStrokeColor(INK)
    c.setLineWidth(1.2)
    c.circle(x, y, r, stroke=1, fill=1)
    c.setFillColor(INK)
    c.setFont(SANS_BOLD, 8)
    c.drawCentredString(x, y - 3, name)


def route_diagram(content, lang):
    """A line of towns and spaces: the train's town, this turn's trail, another player's trail,
    your own older trail that blocks."""
    width, height = 165 * mm, 46 * mm
    me, other = colour_of(content, "green"), colour_of(content, "purple")
    gl, pl = letter_of(content, "green"), letter_of(content, "purple")

    def paint(c):
        y = 26 * mm
        xs = [10 * mm + k * 18.5 * mm for k in range(9)]
        c.setStrokeColor(RAIL)
        c.setLineWidth(1.6)
        c.line(xs[0], y, xs[-1], y)
        kinds = ["town", "new", "new", "town", "other", "other", "town", "old", "town"]
        for x, kind in zip(xs, kinds):
            if kind == "town":
                _town(c, x, y, "")
            else:
                _space(c, x, y)
                colour, letter = (other, pl) if kind == "other" else (me, gl)
                trail_piece(c, x, y, 7 * mm, colour, letter)
                if kind == "old":
                    c.setStrokeColor(HexColor("#c62828"))
                    c.setLineWidth(2)
                    c.line(x - 5 * mm, y - 5 * mm, x + 5 * mm, y + 5 * mm)
                    c.line(x - 5 * mm, y + 5 * mm, x + 5 * mm, y - 5 * mm)
        ghost_train(c, xs[0], y + 10 * mm, 11 * mm, me, INK)
        _label(c, xs[0], y + 15.5 * mm, term(content, "train", lang), lang, bold=True, colour=INK)
        _label(c, (xs[1] + xs[2]) / 2, y - 10 * mm, term(content, "new-trail", lang), lang)
        _label(c, (xs[4] + xs[5]) / 2, y - 10 * mm, term(content, "other-trail", lang), lang)
        _label(c, xs[7], y - 10 * mm, term(content, "old-trail", lang), lang, colour=HexColor("#c62828"))
        # the ride: an arrow over the allowed part
        c.setStrokeColor(INK)
        c.setFillColor(INK)
        c.setLineWidth(1.2)
        c.line(xs[0], y + 7 * mm, xs[6] - 3 * mm, y + 7 * mm)
        p = c.beginPath()
        p.moveTo(xs[6], y + 7 * mm)
        p.lineTo(xs[6] - 3 * mm, y + 8.5 * mm)
        p.lineTo(xs[6] - 3 * mm, y + 5.5 * mm)
        p.close()
        c.drawPath(p, stroke=0, fill=1)

    return Picture(width, height, paint)


def _card(c, x, y, value, colour, letter, w=11 * mm, h=15 * mm, faded=False):
    c.setFillColor(HexColor("#eeeeee") if faded else PAPER)
    c.setStrokeColor(colour)
    c.setLineWidth(1.4)
    c.roundRect(x, y, w, h, 1.5 * mm, stroke=1, fill=1)
    c.setFillColor(colour)
    c.setFont(SANS_BOLD, 14)
    c.drawCentredString(x + w / 2, y + h / 2 - 4, str(value))
    c.setFont(SANS_BOLD, 7)
    c.drawString(x + 1.2 * mm, y + h - 3.2 * mm, letter)


def row_diagram(content, lang):
    """A row of five used cards, the last laid on the left; half (2) come back from the left."""
    width, height = 150 * mm, 42 * mm
    colour, letter = colour_of(content, "green"), letter_of(content, "green")

    def paint(c):
        values = [4, 3, 2, 2, 1]
        y = 12 * mm
        for k, v in enumerate(values):
            x = 30 * mm + k * 14 * mm
            _card(c, x, y, v, colour, letter, faded=k >= 2)
        c.setStrokeColor(INK)
        c.setLineWidth(0.8)
        c.line(30 * mm, y + 19 * mm, 57 * mm, y + 19 * mm)
        _label(c, 43.5 * mm, y + 21 * mm, term(content, "row-back", lang), lang, bold=True, colour=INK)
        c.line(58 * mm, y + 19 * mm, 99 * mm, y + 19 * mm)
        _label(c, 78.5 * mm, y + 21 * mm, term(content, "row-stays", lang), lang)
        _label(c, 45 * mm, y - 6 * mm, term(content, "row-left", lang), lang)

    return Picture(width, height, paint)


# --- the ring of the worked examples -----------------------------------------------------------

RING_R = 24 * mm


def _ring_positions(towns: list[str]) -> dict[str, tuple[float, float]]:
    n = len(towns)
    return {t: (RING_R * cos(pi / 2 - 2 * pi * k / n), RING_R * sin(pi / 2 - 2 * pi * k / n)) for k, t in enumerate(towns)}


def _ring(c, content, data, fields, cx, cy):
    towns = [t["id"] for t in data["towns"]]
    pos = {t: (cx + x, cy + y) for t, (x, y) in _ring_positions(towns).items()}
    number = 0
    players = sorted(fields["trains"])
    for route in data["routes"]:
        a, b, n = route["from"], route["to"], route["spaces"]
        (ax, ay), (bx, by) = pos[a], pos[b]
        c.setStrokeColor(RAIL)
        c.setLineWidth(1)
        c.line(ax, ay, bx, by)
        for k in range(1, n + 1):
            number += 1
            s = f"s{number}"
            t = k / (n + 1)
            x, y = ax + (bx - ax) * t, ay + (by - ay) * t
            _space(c, x, y, 5 * mm)
            owner = fields["track"].get(s)
            if owner:
                colour = COLOURS[players.index(owner)]
                trail_piece(c, x, y, 4 * mm, colour_of(content, colour), letter_of(content, colour))
            else:
                c.setFillColor(MUTED)
                c.setFont(SANS, 5)
                c.drawCentredString(x, y - 1.5, s)
    for t, (x, y) in pos.items():
        _town(c, x, y, t[0].upper(), r=4 * mm)
    for k, player in enumerate(players):
        town = fields["trains"][player]
        if town is None:
            continue
        x, y = pos[town]
        dx = (k - (len(players) - 1) / 2) * 6 * mm
        colour = COLOURS[k]
        ghost_train(c, x + dx, y + 6.5 * mm, 5.5 * mm, colour_of(content, colour), INK)
        c.setFillColor(INK)
        c.setFont(SANS_BOLD, 5.5)
        c.drawCentredString(x + dx, y + 10.5 * mm, player)


def example_diagram(content, lang, example):
    """The ring before and after an example, with trains and trail; None for other maps."""
    setup = example.data.get("setup") or {}
    data = setup.get("map")
    if not data or "trains" not in example.before or "track" not in example.before:
        return None
    if any(v is None for v in example.before["trains"].values()) and any(v is None for v in example.after["trains"].values()):
        return None
    width, height = 150 * mm, 66 * mm

    def paint(c):
        for k, (fields, key) in enumerate(((example.before, "before"), (example.after, "after"))):
            cx = 38 * mm + k * 74 * mm
            _ring(c, content, data, fields, cx, 33 * mm)
            _label(c, cx, 2 * mm, term(content, key, lang), lang, size=9, bold=True, colour=INK)

    return Picture(width, height, paint)


# --- odds ------------------------------------------------------------------------------------------

def odds_part(content, lang, styles):
    from verify.games.spectral_rails.odds import setup_odds

    header = [term(content, key, lang) for key in ("odds-side", "odds-own", "odds-one")]
    cell = styles.small
    data = [[para(bold(h), cell) for h in header]]
    for row in setup_odds(content):
        side = term(content, row["side"], lang)
        cells = [side]
        for key in ("own_region", "one_region"):
            p = row[key]
            cells.append(f"{p.p}/{p.q} ≈ {float(p) * 100:.1f} %")
        data.append([para(text, cell) for text in cells])
    table = Table(data, colWidths=[40 * mm, 62 * mm, 62 * mm], hAlign="LEFT")
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), font(lang)),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, styles.accent),
        ("LINEBELOW", (0, 1), (-1, -2), 0.3, colors.HexColor("#c8c8c8")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]))
    return [table, Spacer(1, 4)]


DIAGRAMS = {"board": board_diagram, "route": route_diagram, "row": row_diagram}
GENERATED = {"odds": odds_part}
