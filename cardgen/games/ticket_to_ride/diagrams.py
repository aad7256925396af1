"""Ticket to Ride: The Card Game rule-sheet pictures and parts: the colour key, a player's area
(hand, rail yard, tracks pile) through the two phases of a turn, the take-over of a colour, the
exact odds table, and each worked example's final score breakdown.

Odds are exact (sympy Rationals from `verify.odds`-style counting); the rule texts quote them as
facts (`{loco_faceup_2}` ...), and a test checks them against dealt games.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.platypus import Table, TableStyle

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


def takeover_picture(content, lang: str) -> Picture:
    """Playing more cards of a colour than an opponent shows discards theirs."""
    width, height = 160 * mm, 50 * mm

    def paint(canvas):
        _label(canvas, term(content, "opponent", lang), 22 * mm, height - 4 * mm, lang, 9, bold=True)
        _column(canvas, content, ["blue"], 16 * mm, 20 * mm)
        _label(canvas, term(content, "you-play", lang), 78 * mm, height - 4 * mm, lang, 9, bold=True)
        _column(canvas, content, ["blue", "blue", "loco"], 72 * mm, 24 * mm)
        _label(canvas, "3 > 1", 100 * mm, 27 * mm, "en", 10, bold=True)
        _arrow(canvas, 30 * mm, 27 * mm, 66 * mm, 27 * mm)
        _label(canvas, term(content, "discard", lang), 130 * mm, height - 4 * mm, lang, 9, bold=True)
        _mini_card(canvas, content, "blue", 124 * mm, 20 * mm)
        _arrow(canvas, 22 * mm, 18 * mm, 22 * mm, 8 * mm)
        _arrow(canvas, 22 * mm, 8 * mm, 120 * mm, 8 * mm)

    return Picture(width, height, paint)


DIAGRAMS = {"colours": colours_picture, "turn": turn_picture, "takeover": takeover_picture}


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


def scoring_part(content, lang: str, styles) -> list:
    """The score breakdown of the worked game at the end: which cards went to which ticket."""
    from cardgen.registry import engine_for
    from verify.scenario import run_scenario

    game = engine_for(content)
    flowables = []
    path = content.root / "scenarios" / "scoring-best-allocation.yaml"
    result = run_scenario(path, game)
    if not result.ok or result.state is None or not result.state.is_terminal():
        from cardgen.errors import ContentError, ContentErrors

        raise ContentErrors([ContentError(str(path), 0, 0, "scoring", "; ".join(result.failures) or "the game is not over")])
    table = colour_table(content)
    per = result.state.scores()
    tickets = result.state.game.tickets
    names = {c["id"]: c["name"][lang] for c in content.files["cities"]["cities"]}
    rows = [[term(content, key, lang) for key in ("player", "ticket", "cards-used", "points")]]
    for player, line in per.items():
        for t in line["completed"]:
            cards = " ".join(table[c][0][lang] for c in line["cards"].get(t, []))
            rows.append([player, _ticket_name(tickets[t], names, lang), cards, f"+{tickets[t].points}"])
        for t in line["failed"]:
            rows.append([player, _ticket_name(tickets[t], names, lang), "—", f"-{tickets[t].points}"])
        for city in line["cities"]:
            rows.append([player, names[city], term(content, "big-city-bonus", lang),
                         f"+{result.state.game.city_points[city]}"])
        rows.append([player, term(content, "total", lang), "", str(line["total"])])
    cells = [[para(text, styles.small) for text in row] for row in rows]
    grid = Table(cells, colWidths=["10%", "38%", "38%", "14%"])
    grid.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, styles.accent),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]))
    flowables.append(grid)
    return flowables


def _ticket_name(ticket, names: dict, lang: str) -> str:
    a, b = ticket.cities
    return f"#{ticket.id} {names[a]} – {names[b]}"


PARTS = {"odds": odds_part, "scoring": scoring_part}


# --- worked examples, before and after ------------------------------------------------------------

SMALL_W, SMALL_H = 6 * mm, 8.5 * mm
ROW = 14 * mm  # one player's line: cards and the size written under a pile
HEAD = 6 * mm  # the before / after titles


def _stack(canvas, content, count: int, x: float, y: float, lang: str) -> None:
    """A face-down pile with its size written under it (nothing drawn for an empty one)."""
    for k in range(min(count, 3)):
        _mini_card(canvas, content, None, x + k * 0.8, y + k * 0.8, SMALL_W, SMALL_H)
    _label(canvas, str(count), x + SMALL_W / 2, y - 3 * mm, lang, 7)


def _panel(canvas, content, fields: dict, players: list, x: float, top: float, width: float, lang: str) -> None:
    """One moment of an example, drawn down from `top`: the face-up row, then each player's hand
    size, rail-yard columns and tracks pile (face up once the game is over)."""
    row_y = top - SMALL_H
    _label(canvas, term(content, "face-up-row", lang), x, row_y + 3 * mm, lang, 7, centre=False)
    for k, card in enumerate(fields.get("faceup", [])[:5]):
        _mini_card(canvas, content, card, x + 16 * mm + k * (SMALL_W + 1), row_y, SMALL_W, SMALL_H)
    over = fields.get("phase") == "over"
    heading_y = row_y - 5 * mm
    hand_x = x + 8 * mm
    tracks_x = x + width - SMALL_W - 2 * mm
    _label(canvas, term(content, "hand", lang), hand_x + SMALL_W / 2, heading_y, lang, 7)
    _label(canvas, term(content, "tracks-short", lang), tracks_x + SMALL_W / 2, heading_y, lang, 7)
    for n, player in enumerate(players):
        card_y = heading_y - 2 * mm - SMALL_H - n * ROW
        _label(canvas, player, x, card_y + 3 * mm, "en", 8, bold=True, centre=False)
        _stack(canvas, content, len(fields["hand"][player]), hand_x, card_y, lang)
        cx = x + 17 * mm
        limit = tracks_x - (22 * mm if over else 3 * mm)
        for colour, column in fields["columns"][player].items():
            shown = column[:6]
            if cx + (len(shown) - 1) * 2.4 * mm + SMALL_W > limit:
                break
            for k, card in enumerate(shown):
                _mini_card(canvas, content, card, cx + k * 2.4 * mm, card_y, SMALL_W, SMALL_H)
            cx += SMALL_W + (len(shown) - 1) * 2.4 * mm + 1.5 * mm
        tracks = fields["tracks"][player]
        if over:
            shown = tracks[:8]
            for k, card in enumerate(shown):
                _mini_card(canvas, content, card, tracks_x - (len(shown) - 1 - k) * 2.4 * mm, card_y, SMALL_W, SMALL_H)
        else:
            _stack(canvas, content, len(tracks), tracks_x, card_y, lang)


def example_picture(content, lang: str, example) -> Picture:
    """A worked example before and after its steps."""
    players = list(example.before.get("hand", {}))
    width = 170 * mm
    half = 82 * mm
    height = HEAD + SMALL_H + 7 * mm + len(players) * ROW

    def paint(canvas):
        _label(canvas, term(content, "before", lang), half / 2, height - 3.5 * mm, lang, 8, bold=True)
        _label(canvas, term(content, "after", lang), width - half / 2, height - 3.5 * mm, lang, 8, bold=True)
        _panel(canvas, content, example.before, players, 0, height - HEAD, half, lang)
        _panel(canvas, content, example.after, players, width - half, height - HEAD, half, lang)
        canvas.setStrokeColor(colors.HexColor("#bbbbbb"))
        canvas.setLineWidth(0.6)
        canvas.line(width / 2, 2 * mm, width / 2, height - 2 * mm)

    return Picture(width, height, paint)
