"""Ticket to Ride: The Card Game rule-sheet pictures and parts: the colour key, a player's area
(hand, rail yard, tracks pile) through phase 1 of a turn, and the exact odds table. The table at
the start, the card anatomy, the worked examples and the turn summary are in `parts`.

Odds are exact (sympy Rationals from `verify.odds`-style counting); the rule texts quote them as
facts (`{loco_faceup_2}` ...), and a test checks them against dealt games.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.platypus import Table, TableStyle
from sympy import Rational, binomial

from cardgen.diagrams import Picture, term
from cardgen.faces import INK, ink_for
from cardgen.markup import para
from cardgen.games.ticket_to_ride.faces import colour_table, draw_symbol
from cardgen.pdfdoc import SANS, SANS_BOLD, font_for, mm

CARD_W, CARD_H = 11 * mm, 15.5 * mm
BACK = colors.HexColor("#2b4c7e")


def _mini_card(canvas, content, card: str | None, x: float, y: float, w: float = CARD_W, h: float = CARD_H) -> None:
    """A small train card: its colour and symbol, a locomotive's stripes, or a face-down back."""
    canvas.saveState()
    path = canvas.beginPath()
    path.roundRect(x, y, w, h, 1.5 * mm)
    canvas.clipPath(path, stroke=0, fill=0)
    if card is None:
        canvas.setFillColor(BACK)
        canvas.rect(x, y, w, h, stroke=0, fill=1)
        canvas.setStrokeColor(colors.HexColor("#9fb3d1"))
        canvas.setLineWidth(0.6)
        canvas.line(x + 2, y + h / 2 - 2, x + w - 2, y + h / 2 - 2)
        canvas.line(x + 2, y + h / 2 + 2, x + w - 2, y + h / 2 + 2)
    else:
        table = colour_table(content)
        name, hue, symbol = table[card]
        if hue is None:
            hues = [c[1] for c in table.values() if c[1] is not None]
            band = h / len(hues)
            for k, stripe in enumerate(hues):
                canvas.setFillColor(stripe)
                canvas.rect(x, y + k * band, w, band + 0.2, stroke=0, fill=1)
            draw_symbol(canvas, symbol, x + w / 2, y + h / 2, w * 0.3, colors.HexColor("#f5c518"), INK, 0.5)
        else:
            canvas.setFillColor(hue)
            canvas.rect(x, y, w, h, stroke=0, fill=1)
            draw_symbol(canvas, symbol, x + w / 2, y + h / 2, w * 0.28, ink_for(hue))
    canvas.restoreState()
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.6)
    canvas.roundRect(x, y, w, h, 1.5 * mm, stroke=1, fill=0)


def _label(canvas, text: str, x: float, y: float, lang: str, size: float = 8, bold: bool = False, centre: bool = True) -> None:
    canvas.setFillColor(INK)
    canvas.setFont(font_for(lang, bold=bold), size)
    (canvas.drawCentredString if centre else canvas.drawString)(x, y, text)


def _arrow(canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    from math import atan2, cos, sin

    canvas.setStrokeColor(INK)
    canvas.setFillColor(INK)
    canvas.setLineWidth(1.2)
    canvas.line(x0, y0, x1, y1)
    a = atan2(y1 - y0, x1 - x0)
    size = 5
    path = canvas.beginPath()
    path.moveTo(x1, y1)
    path.lineTo(x1 - size * cos(a) + size * 0.5 * sin(a), y1 - size * sin(a) - size * 0.5 * cos(a))
    path.lineTo(x1 - size * cos(a) - size * 0.5 * sin(a), y1 - size * sin(a) + size * 0.5 * cos(a))
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _column(canvas, content, cards: list, x: float, y: float, step: float = 4.2 * mm) -> float:
    """A rail-yard column, bottom card first, each card overlapping the one before; returns its top."""
    for k, card in enumerate(cards):
        _mini_card(canvas, content, card, x, y - k * step)
    return y + CARD_H


def colours_picture(content, lang: str) -> Picture:
    """The colour key: every train card with its colour, symbol and name."""
    table = colour_table(content)
    ids = list(table)
    width = len(ids) * 17 * mm

    def paint(canvas):
        for k, colour in enumerate(ids):
            x = k * 17 * mm + 3 * mm
            _mini_card(canvas, content, colour, x, 7 * mm)
            _label(canvas, table[colour][0][lang], x + CARD_W / 2, 2 * mm, lang, 8)

    return Picture(width, 24 * mm, paint)


def turn_picture(content, lang: str) -> Picture:
    """Phase 1: the top card of each column of the rail yard goes face down to the tracks pile."""
    width, height = 160 * mm, 52 * mm

    def paint(canvas):
        top = 25 * mm
        _label(canvas, term(content, "rail-yard", lang), 32 * mm, height - 4 * mm, lang, 9, bold=True)
        columns = [["red", "red", "loco"], ["blue", "blue"], ["green"]]
        for k, column in enumerate(columns):
            _column(canvas, content, column, 6 * mm + k * 16 * mm, top)
        for k, column in enumerate(columns):
            x = 6 * mm + k * 16 * mm + CARD_W
            y = top - (len(column) - 1) * 4.2 * mm + CARD_H / 2
            _arrow(canvas, x + 1 * mm, y, 102 * mm, 18 * mm + k * 4 * mm)
        for k in range(4):
            _mini_card(canvas, content, None, 104 * mm + k * 1.2 * mm, 12 * mm + k * 1.2 * mm)
        _label(canvas, term(content, "tracks-pile", lang), 112 * mm, height - 4 * mm, lang, 9, bold=True)
        _label(canvas, term(content, "face-down", lang), 112 * mm, 6 * mm, lang, 8)
        _label(canvas, term(content, "phase-1", lang), 30 * mm, 3 * mm, lang, 8)

    return Picture(width, height, paint)


DIAGRAMS = {"colours": colours_picture, "turn": turn_picture}


# --- exact odds ---------------------------------------------------------------------------------


def _pools(content, players: int) -> tuple[int, int, int]:
    """Cards shuffled at the start (every train card but one locomotive per player), the
    locomotives among them, and the cards of one colour."""
    trains = [c for c in content.cards if c["deck"] == "trains"]
    locos = sum(c.get("copies", 1) for c in content.cards if c["deck"] == "locomotives")
    total = sum(c.get("copies", 1) for c in trains) + locos
    return total - players, locos - players, trains[0].get("copies", 1)


def loco_in_faceup(content, players: int) -> Rational:
    """Chance that the five cards turned up at the start show at least one locomotive."""
    pool, locos, _ = _pools(content, players)
    return 1 - Rational(binomial(pool - locos, 5), binomial(pool, 5))


def blind_pair_helps(content, players: int) -> Rational:
    """Chance that two cards drawn blind from a fresh shuffle hold at least one card of a
    given colour or a locomotive."""
    pool, locos, per = _pools(content, players)
    return 1 - Rational(binomial(pool - locos - per, 2), binomial(pool, 2))


def blind_loco(content, players: int) -> Rational:
    pool, locos, _ = _pools(content, players)
    return Rational(locos, pool)


def odds_rows(content) -> list[dict]:
    rows = []
    for n in range(content.game["players"]["min"], content.game["players"]["max"] + 1):
        rows.append({"players": n, "loco_faceup": loco_in_faceup(content, n), "blind_loco": blind_loco(content, n),
                     "blind_pair_helps": blind_pair_helps(content, n)})
    return rows


def _percent(value: Rational) -> str:
    return f"{float(value) * 100:.0f}%"


def odds_facts(content) -> dict:
    facts = {}
    for row in odds_rows(content):
        n = row["players"]
        facts[f"loco_faceup_{n}"] = _percent(row["loco_faceup"])
        facts[f"blind_loco_{n}"] = _percent(row["blind_loco"])
        facts[f"blind_pair_helps_{n}"] = _percent(row["blind_pair_helps"])
    return facts


def odds_part(content, lang: str, styles) -> list:
    header = [term(content, key, lang) for key in ("odds-players", "odds-faceup", "odds-blind-loco", "odds-pair")]
    rows = [header]
    for row in odds_rows(content):
        rows.append([str(row["players"]), _percent(row["loco_faceup"]), _percent(row["blind_loco"]),
                     _percent(row["blind_pair_helps"])])
    cells = [[para(text, styles.small) for text in row] for row in rows]
    table = Table(cells, colWidths=["16%", "28%", "28%", "28%"])
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, styles.accent),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]))
    return [table]


PARTS = {"odds": odds_part}
