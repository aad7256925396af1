"""Pictures for the Moscow to Paris rule sheet: the table (four city lines with their columns and
the cards in front of a player), a flag-row scoring example, and the lines and fronts before and
after each worked example.

Cards are small versions of the printed ones: a train card in its kind's colour with its letter, a
city card with its points and flag. A worked example may bring its own cards; kinds the content
does not know are drawn grey with their initial. Every word printed comes from the `terms` of
rules.yaml.
"""

from __future__ import annotations

from reportlab.lib import colors

from cardgen.diagrams import Picture, term
from cardgen.games.moscow_to_paris.faces import draw_flag, star
from cardgen.pdfdoc import font_for, mm

INK = colors.HexColor("#222222")
MUTED = colors.HexColor("#666666")
CHANGED = colors.HexColor("#c98a00")
CITY = colors.HexColor("#8c2f39")
ACTION = colors.HexColor("#23395b")

W, H, GAP = 8.5 * mm, 12 * mm, 1.2 * mm


def _label(c, x, y, text, lang, size=8, colour=MUTED, bold=False, align="centre"):
    c.setFillColor(colour)
    c.setFont(font_for(lang, bold=bold), size)
    {"centre": c.drawCentredString, "left": c.drawString, "right": c.drawRightString}[align](x, y, text)


class Painter:
    """Miniature cards, so every picture draws them alike."""

    def __init__(self, content, w: float = W, h: float = H, gap: float = GAP, lang: str = "en"):
        self.w, self.h, self.gap, self.lang = w, h, gap, lang
        self.trains = {c["id"]: c for c in content.cards if c["deck"] == "trains"}
        self.actions = {c["effect"]: c["number"] for c in content.cards if c["deck"] == "actions"}
        self.cities = {c["id"]: c for c in content.cards if c["deck"] in ("cities", "special-cities")}
        self.flags = {c["id"]: c["flag"] for c in content.files["countries"]["countries"]}

    def card(self, c, x, y, card: str, highlight: bool = False):
        if card in self.cities:
            self.city(c, x, y, card, highlight)
            return
        info = self.trains.get(card)
        fill = colors.HexColor(info["colour"]) if info else colors.HexColor("#9e9e9e")
        letter = info["letter"] if info else card[:1].upper()
        if card in self.actions:  # an action card shows its number on the action cards' navy
            fill, letter = ACTION, str(self.actions[card])
        c.setLineWidth(1.4 if highlight else 0.5)
        c.setStrokeColor(CHANGED if highlight else INK)
        c.setFillColor(fill)
        c.roundRect(x, y, self.w, self.h, 1.2, stroke=1, fill=1)
        c.setFillColor(colors.white)
        c.circle(x + self.w / 2, y + self.h / 2, self.w * 0.32, stroke=0, fill=1)
        c.setFillColor(INK)
        c.setFont(font_for("en", bold=True), self.h / mm * 0.75)
        c.drawCentredString(x + self.w / 2, y + self.h / 2 - 3.2, letter)

    def city(self, c, x, y, card: str, highlight: bool = False):
        info = self.cities.get(card, {})
        w, h = self.w, self.h
        c.setLineWidth(1.4 if highlight else 0.7)
        c.setStrokeColor(CHANGED if highlight else CITY)
        c.setFillColor(colors.HexColor("#fbf6ea"))
        c.roundRect(x, y, w, h, 1.2, stroke=1, fill=1)
        flag = self.flags.get(info.get("country"))
        if flag:
            draw_flag(c, flag, x + w * 0.14, y + h * 0.56, w * 0.72, h * 0.3)
        c.setFillColor(INK)
        c.setFont(font_for("en", bold=True), h / mm * 0.62)
        c.drawCentredString(x + w / 2, y + h * 0.3, str(info.get("points", "")))
        c.setFont(font_for(self.lang), 4.5)
        name = info.get("name", {}).get(self.lang, card) if info else card
        c.drawCentredString(x + w / 2, y + h * 0.08, name[:7])
        if info.get("capital"):
            c.setFillColor(colors.HexColor("#c9a227"))
            star(c, x + w * 0.82, y + h * 0.36, h * 0.1)

    def empty(self, c, x, y):
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.4)
        c.setDash(1.5, 1.5)
        c.roundRect(x, y, self.w, self.h, 1.2, stroke=1, fill=0)
        c.setDash()


def _row_cards(row: list, painter: Painter, city: str | None = None) -> tuple[list, str | None, list]:
    """A line as printed by the engine (left cards, city, right cards) split at its city."""
    cities = [k for k, card in enumerate(row) if card == city or (city is None and card in painter.cities)]
    if not cities:
        return [], None, list(row)
    k = cities[0]
    return list(row[:k]), row[k], list(row[k + 1:])


def _draw_lines(c, painter: Painter, rows: list[list], x_city: float, top: float, lang, changed=None, label=True,
                cities=None, numbers=None):
    """Four lines, cities in one column; returns the y under the last line."""
    W, H, GAP = painter.w, painter.h, painter.gap
    y = top
    for i, row in enumerate(rows):
        y -= H + GAP * 2
        left, city, right = _row_cards(row, painter, None if cities is None else cities[i])
        old = None if changed is None else changed[i]
        if label:
            number = i + 1 if numbers is None else numbers[i]
            _label(c, x_city - (5 * (W + GAP)) + GAP, y + H / 2 - 1 * mm, str(number), lang, size=8, colour=INK, bold=True)
        if city is None:
            painter.empty(c, x_city, y)
        else:
            painter.card(c, x_city, y, city, highlight=old is not None and city not in old)
        for k, card in enumerate(reversed(left)):
            painter.card(c, x_city - (k + 1) * (W + GAP), y, card, highlight=old is not None and card not in old)
        for k, card in enumerate(right):
            painter.card(c, x_city + (k + 1) * (W + GAP), y, card, highlight=old is not None and card not in old)
    return y


def table_diagram(content, lang):
    """Four lines with their columns named, and the cards in front of a player below."""
    painter = Painter(content, lang=lang)
    trains = [c["id"] for c in content.cards if c["deck"] == "trains"]
    cities = [c["id"] for c in content.cards if c["deck"] == "cities"]
    t = lambda k: trains[k % len(trains)]  # noqa: E731
    rows = [
        [t(1), cities[0], t(2), t(3)],
        [cities[4], t(0)],
        [t(4), t(2), cities[7], t(5)],
        [t(6), cities[10]],
    ]
    width = 11 * (W + GAP) + 24 * mm
    height = 4 * (H + 2 * GAP) + H + 22 * mm
    x_city = width / 2 - W / 2

    def paint(c):
        top = height - 6 * mm
        for k, name in ((-2, "L2"), (-1, "L1"), (1, "R1"), (2, "R2")):
            _label(c, x_city + k * (W + GAP) + W / 2, top + 1 * mm, name, lang, size=7, colour=INK, bold=True)
        _label(c, x_city + W / 2, top + 1 * mm, term(content, "city", lang), lang, size=7, colour=CITY, bold=True)
        y = _draw_lines(c, painter, rows, x_city, top, lang)
        _label(c, x_city - 5 * (W + GAP), top + 1 * mm, term(content, "line", lang), lang, size=7, colour=INK, bold=True, align="left")
        y -= H + 8 * mm
        front = [t(1), t(2), t(3)]
        _label(c, x_city - 2 * mm, y + H / 2 - 1 * mm, term(content, "front", lang), lang, size=8, colour=INK, bold=True, align="right")
        for k, card in enumerate(front):
            painter.card(c, x_city + k * (W + GAP), y, card)
        _label(c, x_city + 3 * (W + GAP) + 2 * mm, y + H / 2 - 1 * mm, term(content, "matches-line-1", lang), lang, size=7, align="left")

    return Picture(width, height, paint)


def scoring_diagram(content, lang):
    """A player's cities sorted into flag rows: the points on the cards and one point per row."""
    painter = Painter(content, lang=lang)
    by_country: dict[str, list[str]] = {}
    for card in content.cards:
        if card["deck"] == "cities":
            by_country.setdefault(card["country"], []).append(card["id"])
    countries = list(by_country)[:3]
    rows = [by_country[countries[0]][:2], by_country[countries[1]][:1], by_country[countries[2]][:3]]
    points = {c["id"]: c["points"] for c in content.cards if c["deck"] == "cities"}
    width = 120 * mm
    height = 3 * (H + 2 * GAP) + 10 * mm

    def paint(c):
        y = height - 2 * mm
        for k, row in enumerate(rows):
            y -= H + 2 * GAP
            for j, city in enumerate(row):
                painter.city(c, 4 * mm + j * (W + GAP), y, city)
            text = f"{' + '.join(str(points[x]) for x in row)}  +1 {term(content, 'flag-row', lang)}"
            _label(c, 4 * mm + 3 * (W + GAP) + 3 * mm, y + H / 2 - 1 * mm, text, lang, size=8, colour=INK, align="left")
        total = sum(points[x] for row in rows for x in row) + len(rows)
        gap = "" if lang.startswith("zh") else " "
        _label(c, 4 * mm, 2 * mm, f"{term(content, 'total', lang)}{gap}{total}", lang, size=9, colour=INK, bold=True, align="left")

    return Picture(width, height, paint)


def _new_cards(now: list, then: list | None) -> list[bool]:
    """Which cards of `now` were not there before (by count, so a second copy counts as new)."""
    if then is None:
        return [False] * len(now)
    seen: dict = {}
    flags = []
    for card in now:
        seen[card] = seen.get(card, 0) + 1
        flags.append(seen[card] > then.count(card))
    return flags


def example_diagram(content, lang, example):
    """The position before the example (above) and after it (below), showing only what changed:
    the lines that changed on the left, and on the right the cards in front, hand and cities of each
    player whose cards changed. Cards that arrived are outlined."""
    w, h, gap = 6.2 * mm, 8.8 * mm, 0.9 * mm
    painter = Painter(content, w, h, gap, lang)
    before, after = example.before, example.after
    players = sorted(before.get("front", {}), key=lambda name: int(name[1:]))
    lines = [i for i in range(1, 5) if list(before[f"line{i}"]) != list(after[f"line{i}"])]
    keys = ("front", "hand", "taken")
    players = [p for p in players if any(sorted(before[k][p]) != sorted(after[k][p]) for k in keys)]
    step = w + gap
    row = h + 2 * gap
    rows = max(len(lines), len(players), 1)
    x_city = 5 * step + 4 * mm
    x_players = (x_city + 5 * step + 8 * mm) if lines else 20 * mm
    x_front, x_hand, x_taken = x_players + 2 * mm, x_players + 2 * mm + 4 * step + 3 * mm, x_players + 2 * mm + 9 * step + 6 * mm
    width = x_taken + 3 * step + 2 * mm
    block = 7 * mm + rows * row
    height = 2 * block + 2 * mm

    def cards(c, x, y, now, then, city=False):
        for k, (card, new) in enumerate(zip(now, _new_cards(now, then))):
            (painter.city if city else painter.card)(c, x + k * step, y, card, highlight=new)

    def side(c, top, fields, heading, old=None):
        _label(c, 0, top - 4 * mm, heading, lang, size=9, colour=INK, bold=True, align="left")
        if players:
            for x, key in ((x_front, "front"), (x_hand, "hand"), (x_taken, "cities")):
                _label(c, x, top - 4 * mm, term(content, key, lang), lang, size=7, align="left")
        cities = fields.get("line_cities") or [None] * 4
        for n, i in enumerate(lines):
            _draw_lines(c, painter, [list(fields[f"line{i}"])], x_city, top - 5 * mm - n * row, lang,
                        changed=None if old is None else [list(old[f"line{i}"])], cities=[cities[i - 1]],
                        numbers=[i])
        for n, p in enumerate(players):
            y = top - 5 * mm - (n + 1) * row
            _label(c, x_players, y + h / 2 - 1 * mm, p, lang, size=7, colour=INK, bold=True, align="right")
            for x, key, city in ((x_front, "front", False), (x_hand, "hand", False), (x_taken, "taken", True)):
                now = sorted(fields.get(key, {}).get(p, []))
                then = None if old is None else list(old.get(key, {}).get(p, []))
                cards(c, x, y, now[-3:] if city else now, then, city)

    def paint(c):
        side(c, height, before, term(content, "before", lang))
        side(c, height - block - 2 * mm, after, term(content, "after", lang), old=before)
        c.setStrokeColor(colors.HexColor("#c8c8c8"))
        c.setLineWidth(0.5)
        c.line(0, height - block, width, height - block)

    return Picture(width, height, paint)


def _double_arrow(c, x1, y1, x2, y2, colour, head=1.6 * mm):
    """A two-headed arrow: one trade, a card each way."""
    from math import atan2, cos, sin

    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(1.1)
    c.line(x1, y1, x2, y2)
    angle = atan2(y2 - y1, x2 - x1)
    for (x, y, a) in ((x2, y2, angle), (x1, y1, angle + 3.14159265)):
        path = c.beginPath()
        path.moveTo(x, y)
        path.lineTo(x - head * cos(a) + head * 0.5 * sin(a), y - head * sin(a) - head * 0.5 * cos(a))
        path.lineTo(x - head * cos(a) - head * 0.5 * sin(a), y - head * sin(a) + head * 0.5 * cos(a))
        path.close()
        c.drawPath(path, stroke=0, fill=1)


def trade_diagram(content, lang):
    """Four players round a table: P1 plays Trade to the left; three trades follow one another
    clockwise until P4, P1's other neighbour, has traded."""
    width, height = 120 * mm, 62 * mm
    seats = {"P1": (60 * mm, 8 * mm), "P2": (18 * mm, 31 * mm), "P3": (60 * mm, 54 * mm), "P4": (102 * mm, 31 * mm)}
    trades = [("P1", "P2"), ("P2", "P3"), ("P3", "P4")]
    colour = colors.HexColor("#23395b")

    def paint(c):
        c.setFillColor(colors.HexColor("#f3efe4"))
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.5)
        c.roundRect(38 * mm, 20 * mm, 44 * mm, 22 * mm, 3 * mm, stroke=1, fill=1)
        _label(c, 60 * mm, 30 * mm, term(content, "table", lang), lang, size=8)
        for name, (x, y) in seats.items():
            c.setFillColor(colors.white)
            c.setStrokeColor(INK)
            c.setLineWidth(0.8)
            c.roundRect(x - 7 * mm, y - 4 * mm, 14 * mm, 8 * mm, 1.5 * mm, stroke=1, fill=1)
            _label(c, x, y - 1.2 * mm, name, lang, size=9, colour=INK, bold=True)
        for n, (a, b) in enumerate(trades, 1):
            (x1, y1), (x2, y2) = seats[a], seats[b]
            # Shorten the arrow so it stops at the boxes' edges.
            dx, dy = x2 - x1, y2 - y1
            length = (dx * dx + dy * dy) ** 0.5
            ux, uy = dx / length, dy / length
            sx, sy, ex, ey = x1 + ux * 9 * mm, y1 + uy * 6 * mm, x2 - ux * 9 * mm, y2 - uy * 6 * mm
            _double_arrow(c, sx, sy, ex, ey, colour)
            mx, my = (sx + ex) / 2, (sy + ey) / 2
            c.setFillColor(CHANGED)
            c.circle(mx - uy * 4 * mm, my + ux * 4 * mm, 2.6 * mm, stroke=0, fill=1)
            _label(c, mx - uy * 4 * mm, my + ux * 4 * mm - 1.1 * mm, str(n), lang, size=8, colour=colors.white, bold=True)
        _label(c, 60 * mm, 1 * mm, term(content, "trade-order", lang), lang, size=7)

    return Picture(width, height, paint)


DIAGRAMS = {"table": table_diagram, "scoring": scoring_diagram, "trade": trade_diagram}
