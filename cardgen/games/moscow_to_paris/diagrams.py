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

W, H, GAP = 8.5 * mm, 12 * mm, 1.2 * mm


def _label(c, x, y, text, lang, size=8, colour=MUTED, bold=False, align="centre"):
    c.setFillColor(colour)
    c.setFont(font_for(lang, bold=bold), size)
    {"centre": c.drawCentredString, "left": c.drawString, "right": c.drawRightString}[align](x, y, text)


class Painter:
    """Miniature cards, so every picture draws them alike."""

    def __init__(self, content):
        self.trains = {c["id"]: c for c in content.cards if c["deck"] == "trains"}
        self.cities = {c["id"]: c for c in content.cards if c["deck"] in ("cities", "special-cities")}
        self.flags = {c["id"]: c["flag"] for c in content.files["countries"]["countries"]}

    def card(self, c, x, y, card: str, highlight: bool = False):
        if card in self.cities:
            self.city(c, x, y, card, highlight)
            return
        info = self.trains.get(card)
        fill = colors.HexColor(info["colour"]) if info else colors.HexColor("#9e9e9e")
        letter = info["letter"] if info else card[:1].upper()
        c.setLineWidth(1.4 if highlight else 0.5)
        c.setStrokeColor(CHANGED if highlight else INK)
        c.setFillColor(fill)
        c.roundRect(x, y, W, H, 1.2, stroke=1, fill=1)
        c.setFillColor(colors.white)
        c.circle(x + W / 2, y + H / 2, W * 0.32, stroke=0, fill=1)
        c.setFillColor(INK)
        c.setFont(font_for("en", bold=True), 9)
        c.drawCentredString(x + W / 2, y + H / 2 - 3.2, letter)

    def city(self, c, x, y, card: str, highlight: bool = False):
        info = self.cities.get(card, {})
        c.setLineWidth(1.4 if highlight else 0.7)
        c.setStrokeColor(CHANGED if highlight else CITY)
        c.setFillColor(colors.HexColor("#fbf6ea"))
        c.roundRect(x, y, W, H, 1.2, stroke=1, fill=1)
        flag = self.flags.get(info.get("country"))
        if flag:
            draw_flag(c, flag, x + 1.2 * mm, y + H - 5.2 * mm, W - 2.4 * mm, 3.8 * mm)
        c.setFillColor(INK)
        c.setFont(font_for("en", bold=True), 7)
        c.drawCentredString(x + W / 2, y + 3.6 * mm, str(info.get("points", "")))
        c.setFont(font_for("en"), 5.5)
        c.drawCentredString(x + W / 2, y + 1.0 * mm, card[:6])
        if info.get("capital"):
            c.setFillColor(colors.HexColor("#c9a227"))
            star(c, x + W - 1.6 * mm, y + 4.2 * mm, 1.3 * mm)

    def empty(self, c, x, y):
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.4)
        c.setDash(1.5, 1.5)
        c.roundRect(x, y, W, H, 1.2, stroke=1, fill=0)
        c.setDash()


def _row_cards(row: list, painter: Painter, city: str | None = None) -> tuple[list, str | None, list]:
    """A line as printed by the engine (left cards, city, right cards) split at its city."""
    cities = [k for k, card in enumerate(row) if card == city or (city is None and card in painter.cities)]
    if not cities:
        return [], None, list(row)
    k = cities[0]
    return list(row[:k]), row[k], list(row[k + 1:])


def _draw_lines(c, painter: Painter, rows: list[list], x_city: float, top: float, lang, changed=None, label=True,
                cities=None):
    """Four lines, cities in one column; returns the y under the last line."""
    y = top
    for i, row in enumerate(rows):
        y -= H + GAP * 2
        left, city, right = _row_cards(row, painter, None if cities is None else cities[i])
        old = None if changed is None else changed[i]
        if label:
            _label(c, x_city - (5 * (W + GAP)) - 2 * mm, y + H / 2 - 1 * mm, str(i + 1), lang, size=8, colour=INK, bold=True)
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
    painter = Painter(content)
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
    painter = Painter(content)
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
        _label(c, 4 * mm, 2 * mm, f"{term(content, 'total', lang)} {total}", lang, size=9, colour=INK, bold=True, align="left")

    return Picture(width, height, paint)


def example_diagram(content, lang, example):
    """The four lines and the cards in front of each player before and after the example;
    cards that arrived are outlined."""
    painter = Painter(content)
    players = sorted(example.before.get("front", {}), key=lambda name: int(name[1:]))
    column = 11 * (W + GAP) + 6 * mm
    rows_h = 4 * (H + 2 * GAP)
    fronts_h = len(players) * (H + 2 * GAP)
    width = column
    height = 2 * (rows_h + fronts_h + 12 * mm)

    def side(c, top, fields, heading, before=None):
        _label(c, 2 * mm, top - 4 * mm, heading, lang, size=9, colour=INK, bold=True, align="left")
        rows = [list(fields[f"line{i}"]) for i in range(1, 5)]
        old_rows = None if before is None else [list(before[f"line{i}"]) for i in range(1, 5)]
        x_city = column / 2 - W / 2
        y = _draw_lines(c, painter, rows, x_city, top - 5 * mm, lang, changed=old_rows, cities=fields.get("line_cities"))
        for p in players:
            y -= H + 2 * GAP
            _label(c, x_city - 2 * mm, y + H / 2 - 1 * mm, f"{p} {term(content, 'front', lang)}", lang, size=7, colour=INK, bold=True, align="right")
            front = sorted(fields["front"][p])
            old = None if before is None else list(before["front"][p])
            for k, card in enumerate(front):
                is_new = old is not None and front.count(card) > old.count(card)
                painter.card(c, x_city + k * (W + GAP), y, card, highlight=is_new)
            taken = list(fields.get("taken", {}).get(p, []))
            for k, city in enumerate(taken[-3:]):
                painter.city(c, x_city + (5 + k) * (W + GAP), y, city,
                             highlight=before is not None and city not in before.get("taken", {}).get(p, []))

    def paint(c):
        side(c, height, example.before, term(content, "before", lang))
        side(c, height / 2, example.after, term(content, "after", lang), before=example.before)
        c.setStrokeColor(colors.HexColor("#c8c8c8"))
        c.setLineWidth(0.5)
        c.line(0, height / 2 + 1 * mm, width, height / 2 + 1 * mm)

    return Picture(width, height, paint)


DIAGRAMS = {"table": table_diagram, "scoring": scoring_diagram}
