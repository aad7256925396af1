"""Pictures for the Moscow to Paris rule sheet: a legend of the cards, the anatomy of a city card,
the table at setup, the lines with their columns, the trade around the table, the lines and
players before and after each worked example, and the flag rows of a finished game.

Cards are small versions of the printed ones: a train card in its kind's colour with its letter, an
action card with its number, a city card (twice as wide) with its points, flag, name and line limit.
Kinds the content does not know are drawn grey with their initial. Every word printed comes from
the content (card names, the `terms` of rules.yaml) and is printed whole: a label that does not fit
is set smaller or on two lines, never cut.
"""

from __future__ import annotations

import re

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from cardgen.diagrams import Picture, term
from cardgen.faces import draw_shrunk, wrap
from cardgen.games.moscow_to_paris.faces import DESIGN_H, DESIGN_W, draw_face, draw_flag, star
from cardgen.layout import Rect
from cardgen.markup import bold, inline, para
from cardgen.pdfdoc import SANS, font_for, mm

INK = colors.HexColor("#222222")
MUTED = colors.HexColor("#666666")
CHANGED = colors.HexColor("#d81b60")  # cards that arrived: a colour no card kind uses
CITY = colors.HexColor("#8c2f39")
ACTION = colors.HexColor("#23395b")
CREAM = colors.HexColor("#fbf6ea")

W, H, GAP = 8.5 * mm, 12 * mm, 1.2 * mm
SMALLEST = 4.0  # points: a label is set no smaller than this before it goes onto two lines


def _label(c, x, y, text, lang, size=8, colour=MUTED, bold=False, align="centre"):
    c.setFillColor(colour)
    c.setFont(font_for(lang, bold=bold), size)
    {"centre": c.drawCentredString, "left": c.drawString, "right": c.drawRightString}[align](x, y, text)


def fitted_lines(text: str, font: str, size: float, width: float, smallest: float = SMALLEST) -> tuple[list[str], float]:
    """`text` set to fit `width`: at `size` if it fits, else smaller down to `smallest`, else
    wrapped onto as many lines as it needs. Nothing is ever cut."""
    while size > smallest and stringWidth(text, font, size) > width:
        size = max(smallest, size - 0.25)
    if stringWidth(text, font, size) <= width:
        return [text], size
    return wrap(text, font, size, width), size


def _fit_label(c, x, y, text, lang, width, size=8, colour=MUTED, bold=False, align="centre", leading=1.15,
               shrink=False):
    """A label fitted into `width`: wrapped at its size, or with `shrink` set smaller first (see
    fitted_lines); further lines go below the first. Returns the number of lines."""
    font = font_for(lang, bold=bold)
    lines, size = fitted_lines(text, font, size, width, SMALLEST if shrink else size)
    for k, line in enumerate(lines):
        _label(c, x, y - k * size * leading, line, lang, size, colour, bold, align)
    return len(lines)


class Painter:
    """Miniature cards, so every picture draws them alike. `drawn` lists every card drawn, in
    order, and `by_zone` the cards drawn while `zone` named a place of the picture (an example's
    ("after", "hand", "P1"), say), so that a test can see what a picture holds and where."""

    def __init__(self, content, w: float = W, h: float = H, gap: float = GAP, lang: str = "en"):
        self.w, self.h, self.gap, self.lang = w, h, gap, lang
        self.trains = {c["id"]: c for c in content.cards if c["deck"] == "trains"}
        self.actions = {c["effect"]: c["number"] for c in content.cards if c["deck"] == "actions"}
        self.cities = {c["id"]: c for c in content.cards if c["deck"] in ("cities", "special-cities")}
        self.flags = {c["id"]: c["flag"] for c in content.files["countries"]["countries"]}
        self.drawn: list[str] = []
        self.zone = None
        self.by_zone: dict = {}
        self.limits_shown: dict[str, int] = {}  # city -> the line limit its miniature shows

    def _record(self, card: str) -> None:
        self.drawn.append(card)
        self.by_zone.setdefault(self.zone, []).append(card)

    @property
    def city_w(self) -> float:
        """A city card is drawn as wide as two train cards, so its name fits whole."""
        return 2 * self.w + self.gap

    def width_of(self, card: str) -> float:
        return self.city_w if card in self.cities else self.w

    def card(self, c, x, y, card: str, highlight: bool = False):
        if card in self.cities:
            self.city(c, x, y, card, highlight)
            return
        self._record(card)
        info = self.trains.get(card)
        fill = colors.HexColor(info["colour"]) if info else colors.HexColor("#9e9e9e")
        letter = info["letter"] if info else card[:1].upper()
        if card in self.actions:  # an action card shows its number on the action cards' navy
            fill, letter = ACTION, str(self.actions[card])
        if highlight:
            self.mark_new(c, x, y, self.w)
        c.setLineWidth(0.5)
        c.setStrokeColor(INK)
        c.setFillColor(fill)
        c.roundRect(x, y, self.w, self.h, 1.2, stroke=1, fill=1)
        c.setFillColor(colors.white)
        c.circle(x + self.w / 2, y + self.h / 2, self.w * 0.32, stroke=0, fill=1)
        c.setFillColor(INK)
        size = self.h / mm * 0.75
        c.setFont(font_for("en", bold=True), size)
        c.drawCentredString(x + self.w / 2, y + self.h / 2 - size * 0.36, letter)

    def city(self, c, x, y, card: str, highlight: bool = False):
        """Points and flag on top, the name, and the line limit as that many small card outlines."""
        self._record(card)
        info = self.cities.get(card, {})
        w, h = self.city_w, self.h
        if highlight:
            self.mark_new(c, x, y, w)
        c.setLineWidth(0.7)
        c.setStrokeColor(CITY)
        c.setFillColor(CREAM)
        c.roundRect(x, y, w, h, 1.2, stroke=1, fill=1)
        flag = self.flags.get(info.get("country"))
        if flag:
            draw_flag(c, flag, x + w * 0.5, y + h * 0.6, w * 0.4, h * 0.3)
        c.setFillColor(INK)
        size = h / mm * 0.5
        c.setFont(font_for("en", bold=True), size)
        c.drawCentredString(x + w * 0.22, y + h * 0.62, str(info.get("points", "")))
        if info.get("capital"):
            c.setFillColor(colors.HexColor("#c9a227"))
            star(c, x + w * 0.38, y + h * 0.8, h * 0.08)
        name = info["name"][self.lang] if info else card
        lines = _fit_label(c, x + w / 2, y + h * 0.38, name, self.lang, w - 1.2, size=h / mm * 0.55, colour=INK,
                           shrink=True)
        limit = info.get("line")
        if limit and lines == 1:
            pip, pip_gap = w * 0.07, w * 0.04
            x0 = x + w / 2 - (limit * pip + (limit - 1) * pip_gap) / 2
            c.setStrokeColor(CITY)
            c.setFillColor(colors.HexColor("#e8d5d7"))
            c.setLineWidth(0.3)
            for k in range(limit):
                c.rect(x0 + k * (pip + pip_gap), y + h * 0.08, pip, h * 0.2, stroke=1, fill=1)
            self.limits_shown[card] = limit

    def mark_new(self, c, x, y, width):
        """A frame just outside a card that arrived, clear of its own colour whatever that is."""
        c.setStrokeColor(CHANGED)
        c.setLineWidth(1.1)
        c.roundRect(x - 0.9, y - 0.9, width + 1.8, self.h + 1.8, 1.8, stroke=1, fill=0)

    def empty(self, c, x, y, width=None):
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.4)
        c.setDash(1.5, 1.5)
        c.roundRect(x, y, width or self.w, self.h, 1.2, stroke=1, fill=0)
        c.setDash()


def _row_cards(row: list, painter: Painter, city: str | None = None) -> tuple[list, str | None, list]:
    """A line as printed by the engine (left cards, city, right cards) split at its city."""
    cities = [k for k, card in enumerate(row) if card == city or (city is None and card in painter.cities)]
    if not cities:
        return [], None, list(row)
    k = cities[0]
    return list(row[:k]), row[k], list(row[k + 1:])


def _draw_line(c, painter: Painter, row: list, x_city: float, y: float, lang, number=None, old=None,
               city_hint=None, x_number=None):
    """One line at height y, its city at x_city; cards not in `old` are outlined."""
    step = painter.w + painter.gap
    left, city, right = _row_cards(row, painter, city_hint)
    if number is not None:
        _label(c, x_number, y + painter.h / 2 - 1 * mm, str(number), lang, size=8, colour=INK, bold=True)
    if city is None:
        painter.empty(c, x_city, y, painter.city_w)
    else:
        painter.card(c, x_city, y, city, highlight=old is not None and city not in old)
    for k, card in enumerate(reversed(left)):
        painter.card(c, x_city - (k + 1) * step, y, card, highlight=old is not None and card not in old)
    for k, card in enumerate(right):
        painter.card(c, x_city + painter.city_w + painter.gap + k * step, y, card,
                     highlight=old is not None and card not in old)


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
    step = W + GAP
    width = 150 * mm
    height = 4 * (H + 2 * GAP) + H + 12 * mm
    x_city = width / 2 - painter.city_w / 2

    def paint(c):
        top = height - 4 * mm
        for k, name in ((-2, "L2"), (-1, "L1")):
            _label(c, x_city + k * step + W / 2, top + 1 * mm, name, lang, size=7, colour=INK, bold=True)
        for k, name in ((0, "R1"), (1, "R2")):
            _label(c, x_city + painter.city_w + GAP + k * step + W / 2, top + 1 * mm, name, lang, size=7, colour=INK, bold=True)
        _label(c, x_city + painter.city_w / 2, top + 1 * mm, term(content, "city", lang), lang, size=7, colour=CITY, bold=True)
        x_number = x_city - 4 * step
        _label(c, x_number - 2 * mm, top + 1 * mm, term(content, "line", lang), lang, size=7, colour=INK, bold=True, align="left")
        y = top
        for i, row in enumerate(rows):
            y -= H + GAP * 2
            _draw_line(c, painter, row, x_city, y, lang, number=i + 1, x_number=x_number)
        y -= H + 4 * mm
        front = [t(1), t(2), t(3)]
        _label(c, x_city - 2 * mm, y + H / 2 - 1 * mm, term(content, "front", lang), lang, size=8, colour=INK, bold=True, align="right")
        for k, card in enumerate(front):
            painter.card(c, x_city + k * step, y, card)
        _label(c, x_city + 3 * step + 2 * mm, y + H / 2 - 1 * mm, term(content, "matches-line-1", lang), lang, size=7, align="left")

    return Picture(width, height, paint)


# --- the legend, the city card, the table at setup ---------------------------------------------

def legend_diagram(content, lang):
    """The eight train cards (letter, colour, name) and the five action cards (number, name)."""
    painter = Painter(content, lang=lang)
    trains = [c for c in content.cards if c["deck"] == "trains"]
    actions = [c for c in content.cards if c["deck"] == "actions"]
    width = 170 * mm
    train_cols, action_cols = 4, 5
    row = H + 3 * mm
    train_rows = -(-len(trains) // train_cols)
    action_rows = -(-len(actions) // action_cols)
    height = 2 * 6 * mm + (train_rows + action_rows) * row + 6 * mm
    copies = trains[0].get("copies", 1) if trains else 0

    def entries(c, cards, cols, top, key):
        cell = width / cols
        for k, card in enumerate(cards):
            x, y = (k % cols) * cell, top - (k // cols + 1) * row
            painter.card(c, x, y, card["id"] if card["deck"] == "trains" else card["effect"])
            _fit_label(c, x + W + 2 * mm, y + H / 2 - 1 * mm, card["name"][lang], lang, cell - W - 3 * mm,
                       size=8.5, colour=INK, align="left", shrink=True)

    def paint(c):
        top = height
        _label(c, 0, top - 4 * mm, term(content, "train-cards", lang).replace("#", str(copies)), lang, 9, INK, True, "left")
        entries(c, trains, train_cols, top - 6 * mm, "trains")
        top -= 10 * mm + train_rows * row
        _label(c, 0, top - 4 * mm, term(content, "action-cards", lang), lang, 9, INK, True, "left")
        entries(c, actions, action_cols, top - 6 * mm, "actions")

    picture = Picture(width, height, paint)
    picture.painter = painter
    return picture


def anatomy_points(content, card: dict) -> list[tuple[str, tuple[float, float], str]]:
    """Where each part of a city face begins, in the face's design millimetres (the layout of
    faces._city_art): the point a pointer ends at, on the part's edge, and the side of its label."""
    from cardgen.games.moscow_to_paris.faces import DESIGN_W, country_label
    from cardgen.pdfdoc import CJK, SANS_BOLD

    def left_edge(text, font, points):
        return DESIGN_W / 2 - stringWidth(text, font, points / mm) / 2 - 0.8

    limit = card["line"]
    pips_right = DESIGN_W / 2 + (limit * 5.0 + (limit - 1) * 1.6) / 2 + 0.8
    return [
        ("anatomy-points", (6.5, 75.0), "left"),
        ("anatomy-flag", (16.5, 53.5), "left"),
        ("anatomy-country", (left_edge(country_label(content, card), CJK, 7.5), 40.5), "left"),
        ("anatomy-name", (left_edge(card["name"]["en"], SANS_BOLD, 14), 32.5), "left"),
        ("anatomy-capital", (56.0, 76.0), "right"),
        ("anatomy-line", (pips_right, 15.5), "right"),
    ]


def city_anatomy_diagram(content, lang):
    """A capital's card as printed, its parts named by pointers that end at each part's edge."""
    card = next((c for c in content.cards if c["deck"] == "cities" and c.get("capital")), None)
    if card is None:
        return Spacer(0, 0)
    card_w, card_h = 42 * mm, 42 * mm * 88 / 63
    width, height = 170 * mm, card_h + 4 * mm
    x0, y0 = width / 2 - card_w / 2, 2 * mm
    unit = card_w / 63  # one design millimetre

    def paint(c):
        draw_shrunk(c, Rect(x0, y0, card_w, card_h), (DESIGN_W * mm, DESIGN_H * mm),
                    lambda trim: draw_face(c, content, {**card, "copy": 1}, trim, 0))
        c.setStrokeColor(INK)
        c.setLineWidth(0.5)
        for key, (dx, dy), side in anatomy_points(content, card):
            px, py = x0 + dx * unit, y0 + dy * unit
            end = x0 - 6 * mm if side == "left" else x0 + card_w + 6 * mm
            c.line(end, py, px, py)
            c.circle(px, py, 0.5, stroke=0, fill=1)
            space = x0 - 8 * mm
            _fit_label(c, end - 1.5 * mm if side == "left" else end + 1.5 * mm, py - 1 * mm,
                       term(content, key, lang), lang, space, size=8.5, colour=INK,
                       align="right" if side == "left" else "left")

    return Picture(width, height, paint)


def _back(c, x, y, w, h, colour, stack=1):
    """A face-down card (or a small stack of them) in its back's colour."""
    for k in reversed(range(stack)):
        c.setFillColor(colors.HexColor(colour))
        c.setStrokeColor(colors.white)
        c.setLineWidth(0.6)
        c.roundRect(x + k * 0.7, y + k * 0.7, w, h, 1.2, stroke=1, fill=1)
    c.setStrokeColor(CREAM)
    c.setLineWidth(0.5)
    c.line(x + 1, y + h * 0.45, x + w - 1, y + h * 0.45)
    c.line(x + 1, y + h * 0.55, x + w - 1, y + h * 0.55)


def setup_diagram(content, lang):
    """The table as a game starts: the deck and its discard pile, the city deck, four cities in
    a column with room for their lines, and your hand and the room in front of you."""
    painter = Painter(content, lang=lang)
    backs = content.game["backs"]
    travel = next(iter(backs.values()))["colour"]
    city_back = list(backs.values())[-1]["colour"]
    cities = [c["id"] for c in content.cards if c["deck"] == "cities"][:4]
    step = W + GAP
    width, height = 170 * mm, 4 * (H + 2 * GAP) + H + 20 * mm
    x_city = 70 * mm
    top = height - 4 * mm

    def pointer(c, x1, y1, x2, y2, key, align):
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.4)
        c.line(x1, y1, x2, y2)
        offset = -1.5 * mm if align == "right" else 1.5 * mm
        _fit_label(c, x2 + offset, y2 - 1 * mm, term(content, key, lang), lang, 48 * mm, size=8, colour=INK, align=align)

    def paint(c):
        y = top
        for city in cities:
            y -= H + 2 * GAP
            for k in range(2):
                painter.empty(c, x_city - (k + 1) * step, y)
                painter.empty(c, x_city + painter.city_w + GAP + k * step, y)
            painter.city(c, x_city, y, city)
        lines_mid = (top + y) / 2
        pointer(c, x_city + painter.city_w + GAP + 2 * step, lines_mid, x_city + painter.city_w + 2 * step + 10 * mm,
                lines_mid, "setup-lines", "left")
        # the three piles, to the left of the column
        piles_y = top - 2 * (H + 2 * GAP)
        x_deck, x_discard = 4 * mm, 4 * mm + W + 5 * mm
        _back(c, x_deck, piles_y, W, H, travel, stack=3)
        painter.empty(c, x_discard, piles_y)
        _back(c, x_deck, piles_y - H - 10 * mm, W, H, city_back, stack=3)
        _fit_label(c, x_deck, piles_y + H + 3 * mm, term(content, "setup-deck", lang), lang, 44 * mm, size=8,
                   colour=INK, align="left")
        _fit_label(c, x_discard + W + 1.5 * mm, piles_y + H / 2 - 1 * mm, term(content, "setup-discard", lang), lang,
                   x_city - x_discard - W - 2 * step - 4 * mm, size=8, colour=INK, align="left")
        _fit_label(c, x_deck + W + 2.5 * mm, piles_y - H / 2 - 11 * mm, term(content, "setup-city-deck", lang), lang,
                   30 * mm, size=8, colour=INK, align="left")
        # your place at the table
        y_you = 4 * mm
        _label(c, 4 * mm, y_you + H / 2 - 1 * mm, term(content, "setup-player", lang), lang, 9, INK, True, "left")
        x_hand = 16 * mm
        for k in range(5):
            _back(c, x_hand + k * (W * 0.6), y_you, W, H, travel)
        _fit_label(c, x_hand, y_you + H + 3 * mm, term(content, "setup-hand", lang), lang, 45 * mm, size=8,
                   colour=INK, align="left")
        x_front = x_city
        for k in range(4):
            painter.empty(c, x_front + k * step, y_you)
        _fit_label(c, x_front, y_you + H + 3 * mm, term(content, "setup-front", lang), lang, 80 * mm, size=8,
                   colour=INK, align="left")

    return Picture(width, height, paint)


def summary_diagram(content, lang):
    """The turn summary: the four actions, claiming, the line rules, the action cards and the end,
    one table that stays on one page."""
    from cardgen.rulesheet import RULE_LINE, Styles

    styles = Styles(lang, ACTION)
    cell = styles.small
    head = lambda key: para(bold(term(content, key, lang)), cell)  # noqa: E731
    text = lambda key: para(inline(term(content, key, lang)), cell)  # noqa: E731
    rows = [[head("summary-turn"), ""]]
    rows += [[para(bold(str(n)), cell), text(f"summary-{n}")] for n in range(1, 5)]
    for key in ("claim", "lines", "actions", "end"):
        rows.append([head(f"summary-{key}-head"), text(f"summary-{key}")])
    table = Table(rows, colWidths=[42 * mm, 120 * mm])
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS),  # reportlab's cell default is Helvetica, which is not embedded
        ("SPAN", (0, 0), (1, 0)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("BOX", (0, 0), (-1, -1), 1, ACTION),
        ("BACKGROUND", (0, 0), (-1, 0), CREAM),
        ("LINEBELOW", (0, 4), (-1, -2), 0.4, RULE_LINE),
        ("LEFTPADDING", (0, 0), (-1, -1), 6), ("RIGHTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ]))
    return table


# --- the flag rows of a finished game ------------------------------------------------------------

def flag_rows(content, cities: list[str]) -> list[tuple[list[str], int]]:
    """A player's cities sorted by flag, one row per country, each with its one point (a city of
    no country, such as Istanbul, stands in a row of its own worth nothing more)."""
    cards = {c["id"]: c for c in content.cards if c["deck"] in ("cities", "special-cities")}
    rows: dict = {}
    for city in cities:
        rows.setdefault(cards[city].get("country") or f"-{city}", []).append(city)
    return [(row, 0 if country.startswith("-") else 1) for country, row in rows.items()]


def _score_rows(c, painter: Painter, content, lang, taken: dict, players: list[str], top: float, col_w: float):
    """Each player's flag rows side by side from `top` down: the cities, the sum, the total."""
    cards = painter.cities
    row_h = painter.h + 2 * painter.gap
    gap = "" if lang.startswith("zh") else " "
    flag_row = term(content, "flag-row", lang)
    for n, p in enumerate(players):
        painter.zone = ("score", p)
        x0 = n * col_w
        widest = max([len(row) for row, _ in flag_rows(content, taken[p])] or [1])
        _label(c, x0, top - 4 * mm, p, lang, 8, INK, True, "left")
        y = top - 5 * mm
        total = 0
        for row, bonus in flag_rows(content, sorted(taken[p])):
            y -= row_h
            for k, city in enumerate(row):
                painter.city(c, x0 + k * (painter.city_w + painter.gap), y, city)
            points = [cards[city]["points"] for city in row]
            total += sum(points) + bonus
            text = " + ".join(str(v) for v in points) + (f" + 1 {flag_row}" if bonus else "")
            x_text = x0 + widest * (painter.city_w + painter.gap) + 2 * mm
            _fit_label(c, x_text, y + painter.h / 2 - 1 * mm, text, lang, col_w - (x_text - x0) - 2 * mm, size=7.5,
                       colour=INK, align="left")
        _label(c, x0, y - 5 * mm, f"{term(content, 'total', lang)}{gap}{total}", lang, 8.5, INK, True, "left")


def score_block_height(content, painter: Painter, taken: dict) -> float:
    rows = max([len(flag_rows(content, cities)) for cities in taken.values()] or [0])
    return 5 * mm + rows * (painter.h + 2 * painter.gap) + 8 * mm


# --- worked examples -----------------------------------------------------------------------------

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


def named_in_text(content, text: str) -> tuple[set[int], set[str]]:
    """The lines (by number or by the city at their head) and players a text names."""
    lines = {int(n) for n in re.findall(r"(?:line|第)\s*(\d)", text)}
    players = set(re.findall(r"\bP\d\b|P\d(?=\D|$)", text))
    return lines, players


def shown_parts(content, example, lang) -> tuple[list[int], list[str]]:
    """The lines and players an example's picture shows: those that changed between before and
    after, and those its text names (a city named is shown with its line)."""
    before, after = example.before, example.after
    text = example.data["example"][lang]
    named_lines, named_players = named_in_text(content, text)
    cities = {c["id"]: c["name"][lang] for c in content.cards if c["deck"] in ("cities", "special-cities")}
    lines = []
    for i in range(1, 5):
        rows = list(before[f"line{i}"]), list(after[f"line{i}"])
        if rows[0] != rows[1] or i in named_lines or any(cities.get(card, "\0") in text for row in rows for card in row):
            lines.append(i)
    keys = ("front", "hand", "taken")
    players = sorted(before.get("front", {}), key=lambda name: int(name[1:]))
    players = [p for p in players if p in named_players
               or any(sorted(before[k][p]) != sorted(after[k][p]) for k in keys)]
    return lines, players


EXAMPLE_WIDTH = 172 * mm  # the narrower of the A4 and letter text columns, less a margin
BETWEEN = 7 * mm  # between before and after when they stand side by side
KEY_SIZE = 7.0  # points: the names in an example's key


def key_entries(content, lang, cards, text: str) -> list[tuple[str, str, str]]:
    """The key under an example's picture: (kind, card or country id, name) for every train kind,
    action card and country flag among `cards` that `text` names, in the order the content lists
    them, so a reader who does not yet know the letters, numbers and flags finds in the picture
    each card the example speaks of."""
    cards = set(cards)
    countries = {card.get("country") for card in content.cards
                 if card["deck"] in ("cities", "special-cities") and card["id"] in cards}
    entries = [("card", c["id"] if c["deck"] == "trains" else c["effect"], c["name"][lang]) for c in content.cards
               if (c["deck"] == "trains" and c["id"] in cards) or (c["deck"] == "actions" and c["effect"] in cards)]
    entries += [("flag", country["id"], country["name"][lang]) for country in content.files["countries"]["countries"]
                if country["id"] in countries]
    return [entry for entry in entries if entry[2].lower() in text.lower()]


def key_layout(painter, lang, entries, width) -> list[tuple[float, int, tuple]]:
    """Where each key entry goes: (x, row, entry), entries flowing left to right in rows of `width`."""
    placed, x, row = [], 0.0, 0
    for entry in entries:
        needed = painter.w + 1.2 * mm + stringWidth(entry[2], font_for(lang), KEY_SIZE) + 3 * mm
        if x and x + needed > width:
            x, row = 0.0, row + 1
        placed.append((x, row, entry))
        x += needed
    return placed


def draw_key(c, painter, lang, placed, top, left=0.0):
    """The key's entries from `top` down, from `left` on: a small card or flag, then its name."""
    for x, row, (kind, key, name) in placed:
        x, y = left + x, top - (row + 1) * (painter.h + 1 * mm)
        if kind == "card":
            painter.card(c, x, y, key)
        else:
            draw_flag(c, painter.flags[key], x, y + painter.h * 0.275, painter.w, painter.h * 0.45)
        _label(c, x + painter.w + 1.2 * mm, y + painter.h / 2 - KEY_SIZE * 0.35, name, lang, KEY_SIZE, INK, align="left")


def example_diagram(content, lang, example):
    """The position right before the steps an example narrates (above, or on the left) and right
    after them (below, or on the right): the lines and players that changed or that the text names, each line with its city,
    each player's cards in front, hand and cities. Cards that arrived are outlined."""
    w, h, gap = 6.2 * mm, 8.8 * mm, 0.9 * mm
    painter = Painter(content, w, h, gap, lang)
    before, after = example.before, example.after
    lines, players = shown_parts(content, example, lang)
    step = w + gap
    row = h + 2 * gap
    positions = (before, after)

    def split(position, i):
        city = (position.get("line_cities") or [None] * 4)[i - 1]
        return _row_cards(list(position[f"line{i}"]), painter, city)

    left = max([len(split(p, i)[0]) for p in positions for i in lines] or [0])
    right = max([len(split(p, i)[2]) for p in positions for i in lines] or [0])
    counts = {key: max([len(p[key][q]) for p in positions for q in players] or [0]) for key in ("front", "hand", "taken")}
    x_number = 2 * mm
    x_city = x_number + 3 * mm + left * step
    lines_w = (x_city + painter.city_w + gap + right * step) if lines else 0
    title_w = max(stringWidth(term(content, key, lang), font_for(lang, bold=True), 9) for key in ("before", "after"))
    x_players = max(lines_w + 6 * mm if lines else 0, title_w + 8 * mm)
    heading = {"front": term(content, "front", lang), "hand": term(content, "hand", lang),
               "taken": term(content, "cities", lang)}
    xs, x = {}, x_players + 2 * mm
    for key in ("front", "hand", "taken"):
        if not counts[key]:
            continue  # no shown player has a card there, before or after
        unit = painter.city_w + gap if key == "taken" else step
        xs[key] = x
        width_needed = max(counts[key] * unit, stringWidth(heading[key], font_for(lang), 7) + 2 * mm, step)
        x += width_needed + 3 * mm
    side_w = x
    rows = max(len(lines), len(players), 1)
    block = 5.5 * mm + rows * row
    # A narrow picture sets before and after side by side, a wide one one above the other.
    beside = 2 * side_w + BETWEEN <= EXAMPLE_WIDTH
    width = 2 * side_w + BETWEEN if beside else side_w
    # At the end of the game the picture adds up everyone's cities, as the text does.
    final = after.get("phase") == "over"
    everyone = sorted(after.get("taken", {}), key=lambda name: int(name[1:]))
    score_h = score_block_height(content, painter, after["taken"]) + 4 * mm if final else 0
    score_col = max(width / max(len(everyone), 1), 60 * mm)
    width = max(width, score_col * len(everyone)) if final else width
    # The key names every kind, action card and flag drawn; its painter is its own, so what the
    # positions draw stays apart from the key.
    shown_cards = [card for p in positions for i in lines for card in p[f"line{i}"]]
    shown_cards += [card for p in positions for key in xs for q in players for card in p[key][q]]
    shown_cards += [card for q in everyone for card in after["taken"][q]] if final else []
    key_painter = Painter(content, w * 0.5, h * 0.5, gap, lang)
    entries = key_entries(content, lang, shown_cards, example.data["example"][lang])
    column_w = max([key_painter.w + 1.2 * mm + stringWidth(name, font_for(lang), KEY_SIZE) for _, _, name in entries] or [0])
    # Before above after leaves room on the right: the key stands there as a column if it fits,
    # so the picture grows no taller; otherwise it runs in rows under the picture.
    positions_w = width
    key_left = width + 5 * mm
    if not beside and entries and key_left + column_w <= EXAMPLE_WIDTH \
            and len(entries) * (key_painter.h + 1 * mm) <= 2 * block - 6 * mm:
        key, key_h = [(0.0, k, entry) for k, entry in enumerate(entries)], 0
        width = key_left + column_w
    else:
        key, key_left = key_layout(key_painter, lang, entries, EXAMPLE_WIDTH), 0.0
        key_h = (max(row for _, row, _ in key) + 1) * (key_painter.h + 1 * mm) + 2 * mm if key else 0
    # A narrow picture widens to hold its key in fewer rows; the positions stay centred over it.
    key_w = max([x + key_painter.w + 1.2 * mm + stringWidth(name, font_for(lang), KEY_SIZE) for x, _, (_, _, name) in key] or [0])
    shift = max(0.0, (key_w - width) / 2)
    width = max(width, key_w)
    if final and key_h:
        score_h -= 4 * mm  # the key under the totals takes the place of the space that closed the scores
    height = (block if beside else 2 * block + 2 * mm) + score_h + key_h

    def side(c, top, fields, which, old=None):
        _label(c, 0, top - 4 * mm, term(content, which, lang), lang, size=9, colour=INK, bold=True, align="left")
        if players:
            for key, x in xs.items():
                _label(c, x, top - 4 * mm, heading[key], lang, size=7, align="left")
        cities = fields.get("line_cities") or [None] * 4
        for n, i in enumerate(lines):
            y = top - 5 * mm - (n + 1) * row
            painter.zone = (which, f"line{i}")
            _draw_line(c, painter, list(fields[f"line{i}"]), x_city, y, lang, number=i,
                       old=None if old is None else list(old[f"line{i}"]), city_hint=cities[i - 1], x_number=x_number)
        for n, p in enumerate(players):
            y = top - 5 * mm - (n + 1) * row
            _label(c, x_players, y + h / 2 - 1 * mm, p, lang, size=7, colour=INK, bold=True, align="right")
            for key, x in xs.items():
                now = sorted(fields.get(key, {}).get(p, []))
                then = None if old is None else list(old.get(key, {}).get(p, []))
                unit = painter.city_w + gap if key == "taken" else step
                painter.zone = (which, key, p)
                for k, (card, new) in enumerate(zip(now, _new_cards(now, then))):
                    painter.card(c, x + k * unit, y, card, highlight=new)

    def paint(c):
        c.saveState()
        c.translate(shift, 0)
        side(c, height, before, "before")
        c.setStrokeColor(colors.HexColor("#c8c8c8"))
        c.setLineWidth(0.5)
        if beside:
            c.line(side_w + BETWEEN / 2, height - block, side_w + BETWEEN / 2, height)
            c.saveState()
            c.translate(side_w + BETWEEN, 0)
            side(c, height, after, "after", old=before)
            c.restoreState()
        else:
            c.line(0, height - block, positions_w, height - block)
            side(c, height - block - 2 * mm, after, "after", old=before)
        c.restoreState()
        c.setStrokeColor(colors.HexColor("#c8c8c8"))
        if final:
            c.line(0, score_h + key_h, width, score_h + key_h)
            _score_rows(c, painter, content, lang, after["taken"], everyone, score_h + key_h - 2 * mm, score_col)
        if key and key_h:
            c.line(0, key_h, width, key_h)
            draw_key(c, key_painter, lang, key, key_h - 1 * mm)
        elif key:
            draw_key(c, key_painter, lang, key, height - 6 * mm, key_left)

    picture = Picture(width, height, paint)
    picture.painter = painter
    picture.shows = {"lines": lines, "players": players, "final": final}
    return picture


def _double_arrow(c, x1, y1, x2, y2, colour, head=1.6 * mm):
    """A two-headed arrow: one trade, a card each way."""
    from math import atan2, pi

    from cardgen.faces import arrow_head

    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(1.1)
    c.line(x1, y1, x2, y2)
    angle = atan2(y2 - y1, x2 - x1)
    for (x, y, a) in ((x2, y2, angle), (x1, y1, angle + pi)):
        arrow_head(c, x, y, a, head, spread=0.5)


def trade_diagram(content, lang):
    """Four players round a table: P1 plays Trade to the left; three trades follow one another
    clockwise until P4, P1's other neighbour, has traded."""
    width, height = 130 * mm, 74 * mm
    seats = {"P1": (65 * mm, 10 * mm), "P2": (16 * mm, 38 * mm), "P3": (65 * mm, 66 * mm), "P4": (114 * mm, 38 * mm)}
    trades = [("P1", "P2"), ("P2", "P3"), ("P3", "P4")]
    colour = colors.HexColor("#23395b")

    def paint(c):
        c.setFillColor(colors.HexColor("#f3efe4"))
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.5)
        c.roundRect(40 * mm, 25 * mm, 50 * mm, 26 * mm, 3 * mm, stroke=1, fill=1)
        _label(c, 65 * mm, 37 * mm, term(content, "table", lang), lang, size=8)
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
        _fit_label(c, 65 * mm, 1 * mm, term(content, "trade-order", lang), lang, width, size=7.5)

    return Picture(width, height, paint)


DIAGRAMS = {"table": table_diagram, "trade": trade_diagram, "legend": legend_diagram,
            "city-anatomy": city_anatomy_diagram, "setup": setup_diagram, "summary": summary_diagram}
