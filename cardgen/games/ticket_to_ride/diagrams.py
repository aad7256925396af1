"""Ticket to Ride: The Card Game rule-sheet pictures and parts: the colour key and the exact odds
table. The table at the start, the card anatomy, the worked examples and the turn summary are in
`parts`.

Odds are exact (sympy Rationals from `verify.odds`-style counting); the rule texts quote them as
facts (`{loco_faceup_2}` ...), and a test checks them against dealt games.
"""

from __future__ import annotations

from reportlab.platypus import Table, TableStyle

from cardgen.content import exact_odds
from cardgen.diagrams import Picture, term
from cardgen.faces import INK, draw_shrunk
from cardgen.games.ticket_to_ride.faces import colour_table, draw_face
from cardgen.layout import Rect
from cardgen.markup import para
from cardgen.pdfdoc import SANS, font_for, mm

CARD_W, CARD_H = 11 * mm, 11 * mm * 88 / 63  # a train card of the colour key, in the card's proportions


def colours_picture(content, lang: str) -> Picture:
    """The colour key: every train card as printed, with its colour's name under it."""
    from cardgen.games.ticket_to_ride.parts import PRINTED, card_for

    table = colour_table(content)
    ids = list(table)
    width = len(ids) * 17 * mm

    def paint(canvas):
        for k, colour in enumerate(ids):
            x = k * 17 * mm + 3 * mm
            card = {**card_for(content, colour), "copy": 1}
            draw_shrunk(canvas, Rect(x, 7 * mm, CARD_W, CARD_H), PRINTED,
                        lambda trim: draw_face(canvas, content, card, trim, 0))
            canvas.setStrokeColor(INK)
            canvas.setLineWidth(0.6)
            canvas.roundRect(x, 7 * mm, CARD_W, CARD_H, 1.5 * mm, stroke=1, fill=0)
            canvas.setFillColor(INK)
            canvas.setFont(font_for(lang), 8)
            canvas.drawCentredString(x + CARD_W / 2, 2 * mm, table[colour][0][lang])

    return Picture(width, 24 * mm, paint)


DIAGRAMS = {"colours": colours_picture}


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
    from sympy import Rational, binomial  # loaded only when odds are printed

    pool, locos, _ = _pools(content, players)
    return 1 - Rational(binomial(pool - locos, 5), binomial(pool, 5))


def blind_pair_helps(content, players: int) -> Rational:
    """Chance that two cards drawn blind from a fresh shuffle hold at least one card of a
    given colour or a locomotive."""
    from sympy import Rational, binomial  # loaded only when odds are printed

    pool, locos, per = _pools(content, players)
    return 1 - Rational(binomial(pool - locos - per, 2), binomial(pool, 2))


def blind_loco(content, players: int) -> Rational:
    from sympy import Rational, binomial  # loaded only when odds are printed

    pool, locos, _ = _pools(content, players)
    return Rational(locos, pool)


def odds_rows(content) -> list[dict]:
    rows = []
    for n in range(content.game["players"]["min"], content.game["players"]["max"] + 1):
        rows.append({"players": n, "loco_faceup": loco_in_faceup(content, n), "blind_loco": blind_loco(content, n),
                     "blind_pair_helps": blind_pair_helps(content, n)})
    return rows


def odds_events(content) -> list:
    """The figures `odds_rows` gives, read off games the rules engine deals for each player count:
    the five face-up cards, and the first two cards of the draw pile after the deal."""
    from verify.oddscheck import OddsEvent, zone_cards

    colour = next(c["id"] for c in content.cards if c["deck"] == "trains")
    events = []
    for row in odds_rows(content):
        n = row["players"]
        events += [
            OddsEvent("loco_faceup", row["loco_faceup"], n, lambda s: "loco" in zone_cards(s, "faceup")),
            OddsEvent("blind_loco", row["blind_loco"], n, lambda s: zone_cards(s, "deck")[0] == "loco"),
            OddsEvent("blind_pair_helps", row["blind_pair_helps"], n,
                      lambda s: bool({"loco", colour} & set(zone_cards(s, "deck")[:2]))),
        ]
    return events


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
    for row in exact_odds(content):
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
