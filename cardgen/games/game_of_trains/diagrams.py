"""Pictures for the Game of Trains rule sheet: a train, the table at setup, the Push back shift,
and the trains before and after each worked example.

Cards are drawn as small versions of the printed ones: the number, the ability icon the card face
uses (when the card-face module is present) and the back colours from game.yaml. Every word
printed comes from the `terms` of rules.yaml.
"""

from __future__ import annotations

import random

from reportlab.lib import colors

from cardgen.diagrams import Picture, term
from cardgen.games.game_of_trains.faces import draw_ability_icon
from cardgen.pdfdoc import font_for, mm

INK = colors.HexColor("#222222")
MUTED = colors.HexColor("#666666")
HIGHLIGHT_FILL = colors.HexColor("#fff3c4")
HIGHLIGHT_LINE = colors.HexColor("#c98a00")
MOVE_LINE = colors.HexColor("#b3261e")

CARD_W, CARD_H, GAP = 13 * mm, 18 * mm, 2.5 * mm
SMALL_W, SMALL_H, SMALL_GAP = 7.4 * mm, 10.4 * mm, 1.1 * mm


def _abilities(content) -> dict[int, str]:
    """Carriage number -> icon name of its ability, as printed on the card."""
    icons = {a["id"]: a["icon"] for a in content.files["abilities"]["abilities"]}
    return {card["number"]: icons[card["ability"]] for card in content.cards if card["deck"] == "carriages"}


def _back_colour(content, deck_id: str) -> colors.Color:
    return colors.HexColor(content.game["backs"][content.deck(deck_id)["back"]]["colour"])


class CardPainter:
    """Draws miniature cards of one size; shared by every picture so all cards look alike."""

    def __init__(self, content, width: float, height: float):
        self.content = content
        self.width = width
        self.height = height
        self.icons = _abilities(content)
        self.carriage_back = _back_colour(content, "carriages")
        self.loco_colour = _back_colour(content, "locomotives")

    def carriage(self, c, x, y, number: int, highlight: bool = False, locked: bool = False):
        w, h = self.width, self.height
        if locked:
            self._lock(c, x + w / 2, y)
        c.setLineWidth(1.2 if highlight else 0.6)
        c.setStrokeColor(HIGHLIGHT_LINE if highlight else MUTED)
        c.setFillColor(HIGHLIGHT_FILL if highlight else colors.white)
        c.roundRect(x, y, w, h, min(w, h) * 0.09, stroke=1, fill=1)
        c.setFillColor(INK)
        c.setFont(font_for("en", bold=True), h * 0.36)
        c.drawCentredString(x + w / 2, y + h * 0.55, str(number))
        size = w * 0.5
        draw_ability_icon(c, self.icons[number], x + (w - size) / 2, y + h * 0.1, size)

    def gap(self, c, x, y):
        """An empty place in a train, waiting for its refill."""
        c.setLineWidth(0.6)
        c.setStrokeColor(MUTED)
        c.setDash(2, 2)
        c.roundRect(x, y, self.width, self.height, min(self.width, self.height) * 0.09, stroke=1, fill=0)
        c.setDash()

    def back(self, c, x, y, rotated: bool = False):
        w, h = (self.height, self.width) if rotated else (self.width, self.height)
        c.setLineWidth(0.6)
        c.setStrokeColor(colors.white)
        c.setFillColor(self.carriage_back)
        c.roundRect(x, y, w, h, min(w, h) * 0.09, stroke=1, fill=1)
        c.setStrokeColor(colors.Color(1, 1, 1, alpha=0.5))
        inset = min(w, h) * 0.12
        c.roundRect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, inset * 0.6, stroke=1, fill=0)

    def locomotive(self, c, x, y):
        w, h = self.width, self.height
        c.setLineWidth(0.6)
        c.setStrokeColor(self.loco_colour)
        c.setFillColor(self.loco_colour)
        c.roundRect(x, y, w, h, min(w, h) * 0.09, stroke=1, fill=1)
        # A plain engine facing right, towards its carriages.
        c.setFillColor(colors.white)
        base = y + h * 0.3
        c.rect(x + w * 0.15, base, w * 0.7, h * 0.18, stroke=0, fill=1)
        c.rect(x + w * 0.15, base, w * 0.28, h * 0.36, stroke=0, fill=1)
        c.rect(x + w * 0.66, base + h * 0.18, w * 0.1, h * 0.13, stroke=0, fill=1)
        for cx in (0.3, 0.7):
            c.circle(x + w * cx, base - h * 0.02, w * 0.09, stroke=0, fill=1)

    def _lock(self, c, cx, y):
        """The lock card peeks out below the carriage it protects."""
        size = self.width * 0.5
        c.setFillColor(HIGHLIGHT_LINE)
        c.setStrokeColor(HIGHLIGHT_LINE)
        c.roundRect(cx - size / 2, y - size * 0.55, size, size * 0.7, size * 0.1, stroke=0, fill=1)
        draw_ability_icon(c, "lock", cx - size * 0.35, y - size * 0.5, size * 0.6)

    def train(self, c, x, y, numbers, highlights=(), locks=()):
        """A locomotive and its carriages left to right; returns the x of each carriage."""
        self.locomotive(c, x, y)
        xs = []
        for i, number in enumerate(numbers):
            cx = x + (i + 1) * (self.width + self._gap())
            xs.append(cx)
            if number is None:
                self.gap(c, cx, y)
            else:
                self.carriage(c, cx, y, number, highlight=number in highlights, locked=number in locks)
        return xs

    def _gap(self):
        return GAP if self.width >= CARD_W else SMALL_GAP

    def train_width(self, carriages: int = 7) -> float:
        return (carriages + 1) * self.width + carriages * self._gap()


def _label(c, x, y, text, lang, size=8, colour=MUTED, bold=False, align="centre"):
    c.setFillColor(colour)
    c.setFont(font_for(lang, bold=bold), size)
    {"centre": c.drawCentredString, "left": c.drawString, "right": c.drawRightString}[align](x, y, text)


def _arrow(c, x1, y1, x2, y2, colour=INK, width=0.9, head=1.8 * mm):
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(width)
    c.line(x1, y1, x2, y2)
    direction = 1 if x2 >= x1 else -1
    path = c.beginPath()
    path.moveTo(x2, y2)
    path.lineTo(x2 - direction * head, y2 + head * 0.5)
    path.lineTo(x2 - direction * head, y2 - head * 0.5)
    path.close()
    c.drawPath(path, stroke=0, fill=1)


def _hop(c, x1, x2, y, rise, colour=MOVE_LINE):
    """An arched arrow from x1 to x2 above y: a card lifted out and set down further along."""
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(1.2)
    path = c.beginPath()
    path.moveTo(x1, y)
    path.curveTo(x1, y + rise, x2, y + rise, x2, y + 1.5 * mm)
    c.drawPath(path, stroke=1, fill=0)
    head = 1.8 * mm
    tip = c.beginPath()
    tip.moveTo(x2, y)
    tip.lineTo(x2 - head * 0.5, y + head)
    tip.lineTo(x2 + head * 0.5, y + head)
    tip.close()
    c.drawPath(tip, stroke=0, fill=1)


# --- the pictures ---------------------------------------------------------------------------------

def train_diagram(content, lang):
    """A finished train: the locomotive, then carriages 1 to 7 with numbers rising."""
    painter = CardPainter(content, CARD_W, CARD_H)
    numbers = [6, 19, 27, 40, 58, 63, 81]
    width, height = painter.train_width() + 4 * mm, CARD_H + 24 * mm

    def paint(c):
        base = 11 * mm
        xs = painter.train(c, 2 * mm, base, numbers)
        _label(c, 2 * mm + CARD_W / 2, base - 5 * mm, term(content, "locomotive", lang), lang)
        for i, x in enumerate(xs, 1):
            _label(c, x + CARD_W / 2, base - 5 * mm, str(i), lang, bold=True, colour=INK)
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.5)
        c.line(xs[0], base - 6.5 * mm, xs[-1] + CARD_W, base - 6.5 * mm)
        _label(c, (xs[0] + xs[-1] + CARD_W) / 2, base - 9.5 * mm, term(content, "position", lang), lang)
        top = base + CARD_H + 5 * mm
        _arrow(c, xs[0] + 1 * mm, top, xs[-1] + CARD_W - 1 * mm, top, colour=MOVE_LINE)
        _label(c, (xs[0] + xs[-1] + CARD_W) / 2, top + 2.5 * mm, term(content, "ascending", lang), lang,
               colour=MOVE_LINE, bold=True)

    return Picture(width, height, paint)


def _setup_deal(content, players: int = 2, seed: int = 7):
    """A fixed but genuine opening for the setup picture: deal, sort high to low, draft, market."""
    numbers = sorted(card["number"] for card in content.cards if card["deck"] == "carriages")
    deck = numbers[:]
    random.Random(seed).shuffle(deck)
    trains = [sorted(deck[i * 7:(i + 1) * 7], reverse=True) for i in range(players)]
    deck = deck[players * 7:]
    market = []
    for seat, train in enumerate(trains):
        drawn, deck = deck[:seat + 1], deck[seat + 1:]
        kept = min(drawn)  # a low card is the easiest to place near the locomotive
        market.append(train[0])
        train[0] = kept
    return trains, market


def table_diagram(content, lang):
    """The table for two players after setup: trains facing each other, draw pile, market and
    the discard pile laid crosswise beside the draw pile."""
    painter = CardPainter(content, CARD_W, CARD_H)
    trains, market = _setup_deal(content)
    width = painter.train_width() + 24 * mm
    height = 3 * CARD_H + 40 * mm

    def paint(c):
        left = 22 * mm
        rows = [(8 * mm, trains[0], "P1"), (height - CARD_H - 4 * mm, trains[1], "P2")]
        for y, train, name in rows:
            painter.train(c, left, y, train)
            _label(c, left - 3 * mm, y + CARD_H / 2 - 1.5 * mm, name, lang, size=10, colour=INK, bold=True,
                   align="right")
        middle = 8 * mm + CARD_H + 13 * mm
        x = left + 6 * mm
        for k in range(3):  # a little stack
            painter.back(c, x + k * 0.6 * mm, middle + k * 0.6 * mm)
        _label(c, x + CARD_W / 2, middle - 5 * mm, term(content, "draw-pile", lang), lang)
        mx = x + CARD_W + 8 * mm
        for i, number in enumerate(market):
            painter.carriage(c, mx + i * (CARD_W + GAP), middle, number)
        market_w = len(market) * CARD_W + (len(market) - 1) * GAP
        _label(c, mx + market_w / 2, middle - 5 * mm, term(content, "market", lang), lang)
        dx = mx + market_w + 12 * mm
        painter.back(c, dx, middle + (CARD_H - CARD_W) / 2, rotated=True)
        _label(c, dx + CARD_H / 2, middle - 5 * mm, term(content, "discard-pile", lang), lang)

    return Picture(width, height, paint)


def shift_diagram(content, lang):
    """Push back on carriage 2: it jumps two places to the right and the two it passes slide left."""
    painter = CardPainter(content, CARD_W, CARD_H)
    before = [12, 47, 20, 33, 55, 61, 70]
    moved, start, end = before[1], 1, 3
    after = before[:start] + before[start + 1:end + 1] + [moved] + before[end + 1:]
    width = painter.train_width() + 24 * mm
    height = 2 * CARD_H + 30 * mm

    def paint(c):
        left = 22 * mm
        top_y = height - CARD_H - 12 * mm
        xs = painter.train(c, left, top_y, before, highlights=[moved])
        _label(c, left - 3 * mm, top_y + CARD_H / 2, term(content, "before", lang), lang, size=9, colour=INK,
               bold=True, align="right")
        _hop(c, xs[start] + CARD_W / 2, xs[end] + CARD_W / 2, top_y + CARD_H + 1 * mm, 10 * mm)
        low_y = 6 * mm
        xs_after = painter.train(c, left, low_y, after, highlights=[moved])
        _label(c, left - 3 * mm, low_y + CARD_H / 2, term(content, "after", lang), lang, size=9, colour=INK,
               bold=True, align="right")
        for number in before[start + 1:end + 1]:
            old, new = before.index(number), after.index(number)
            y = (top_y + low_y + CARD_H) / 2
            _arrow(c, xs[old] + CARD_W / 2, y, xs_after[new] + CARD_W / 2, y, colour=MUTED, width=0.8)

    return Picture(width, height, paint)


def example_diagram(content, lang, example):
    """Every player's train before and after the example; carriages that changed are highlighted,
    the market is shown under each side."""
    painter = CardPainter(content, SMALL_W, SMALL_H)
    players = sorted((key.split(".", 1)[1] for key in example.before if key.startswith("train.")),
                     key=lambda name: int(name[1:]))
    row = SMALL_H + 5 * mm
    has_market = "market" in example.before and "market" in example.after
    column = painter.train_width() + 8 * mm
    width = 2 * column + 8 * mm
    height = 6 * mm + row * (len(players) + (1 if has_market else 0))

    def side(c, x, fields, heading, changed_from=None):
        _label(c, x + column / 2, height - 4 * mm, heading, lang, size=9, colour=INK, bold=True)
        for i, name in enumerate(players):
            y = height - 6 * mm - (i + 1) * row + 2 * mm
            train = list(fields[f"train.{name}"])
            locks = _locked_numbers(fields, name, train)
            changed = []
            if changed_from is not None:
                old = list(changed_from[f"train.{name}"])
                changed = [n for k, n in enumerate(train) if k >= len(old) or old[k] != n]
            winner = changed_from is not None and fields.get("winner") == name
            _label(c, x + 6 * mm, y + SMALL_H / 2 - 1.2 * mm, name, lang, size=8, bold=True,
                   colour=MOVE_LINE if winner else INK, align="right")
            if winner:
                _label(c, x + 6 * mm, y + SMALL_H / 2 - 4.6 * mm, term(content, "winner", lang), lang, size=6,
                       colour=MOVE_LINE, align="right")
            painter.train(c, x + 8 * mm, y, train, highlights=changed, locks=locks)
        if has_market:
            y = height - 6 * mm - (len(players) + 1) * row + 2 * mm
            _label(c, x + 6 * mm, y + SMALL_H / 2 - 1.2 * mm, term(content, "market", lang), lang, size=7,
                   align="right")
            for k, number in enumerate(fields["market"]):
                painter.carriage(c, x + 8 * mm + k * (SMALL_W + SMALL_GAP), y, number)

    def paint(c):
        side(c, 0, example.before, term(content, "before", lang))
        side(c, column + 8 * mm, example.after, term(content, "after", lang), changed_from=example.before)
        c.setStrokeColor(colors.HexColor("#c8c8c8"))
        c.setLineWidth(0.5)
        c.line(column + 4 * mm, 2 * mm, column + 4 * mm, height - 2 * mm)

    return Picture(width, height, paint)


def _locked_numbers(fields, player, train) -> list[int]:
    """The carriages of `player` that carry a lock (the engine lists locked positions, 1 to 7)."""
    return [train[p - 1] for p in fields.get(f"locks.{player}", []) if 1 <= p <= len(train)]


DIAGRAMS = {
    "train": train_diagram,
    "table": table_diagram,
    "shift": shift_diagram,
}
EXAMPLE_DIAGRAM = example_diagram
