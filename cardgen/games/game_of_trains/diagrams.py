"""Pictures for the Game of Trains rule sheet: a labelled card, a train, the table at setup, the
Push back shift, and the trains before and after each worked example.

Cards are drawn as small versions of the printed ones: the number, the ability icon the card face
uses (when the card-face module is present) and the back colours from game.yaml. Every word
printed comes from the `terms` of rules.yaml.
"""

from __future__ import annotations

from reportlab.lib import colors

from cardgen.diagrams import Picture, term
from cardgen.games.game_of_trains.checks import setup_game
from cardgen.games.game_of_trains.faces import ABILITY_COLOURS, draw_ability_icon
from cardgen.pdfdoc import font_for, mm

INK = colors.HexColor("#222222")
MUTED = colors.HexColor("#666666")
HIGHLIGHT_FILL = colors.HexColor("#fff3c4")
HIGHLIGHT_LINE = colors.HexColor("#c98a00")
MOVE_LINE = colors.HexColor("#b3261e")
LOCK_COLOUR = ABILITY_COLOURS["lock"]

CARD_W, CARD_H, GAP = 13 * mm, 18 * mm, 2.5 * mm
SMALL_W, SMALL_H, SMALL_GAP = 7 * mm, 9.8 * mm, 1 * mm


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
            self._lock(c, x, y)
        c.setLineWidth(1.2 if highlight else 0.6)
        c.setStrokeColor(HIGHLIGHT_LINE if highlight else MUTED)
        c.setFillColor(HIGHLIGHT_FILL if highlight else colors.white)
        c.roundRect(x, y, w, h, min(w, h) * 0.09, stroke=1, fill=1)
        c.setFillColor(INK)
        c.setFont(font_for("en", bold=True), h * 0.36)
        c.drawCentredString(x + w / 2, y + h * 0.55, str(number))
        # The icon is small and inside the card, so a carriage whose ability is Lock never looks
        # like a locked one (whose Lock card shows below it).
        size = w * 0.36
        draw_ability_icon(c, self.icons[number], x + (w - size) / 2, y + h * 0.12, size)

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

    TAB = 0.3  # how much of a Lock card shows below the carriage it lies under, as a share of its height

    def _lock(self, c, x, y):
        """The Lock card lies under the carriage it protects: only its lock shows, as a tab below."""
        w, h = self.width, self.height
        tab = h * self.TAB
        c.setLineWidth(0.6)
        c.setStrokeColor(MUTED)
        c.setFillColor(LOCK_COLOUR)
        c.roundRect(x, y - tab, w, h, min(w, h) * 0.09, stroke=1, fill=1)
        size = tab * 0.9
        draw_ability_icon(c, "lock", x + (w - size) / 2, y - tab + (tab - size) / 2, size)

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
        return GAP if self.width >= CARD_W else SMALL_GAP if self.width <= SMALL_W else 2 * mm

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


def _caption(content, lang: str, key: str):
    """A caption under a picture, in the words of rules.yaml's terms."""
    from reportlab.lib.enums import TA_CENTER
    from reportlab.lib.styles import ParagraphStyle

    from cardgen.markup import para

    style = ParagraphStyle("caption", fontName=font_for(lang), fontSize=8.5, leading=12, textColor=MUTED,
                           alignment=TA_CENTER, wordWrap="CJK" if lang.startswith("zh") else None)
    return para(content.render_text(term(content, key, lang), lang), style)


def _with_caption(picture, caption, width: float):
    """A picture and its caption as one block that stays on one page."""
    from reportlab.platypus import Table, TableStyle

    from cardgen.pdfdoc import SANS

    block = Table([[picture], [caption]], colWidths=[width])
    block.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS),  # reportlab's cell default is Helvetica, which is not embedded
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]))
    return block


TABLE_W, TABLE_H = 9.2 * mm, 12.9 * mm  # cards in the setup picture, a little smaller than in the others


def table_diagram(content, lang):
    """The table for two players after setup: trains facing each other, draw pile, market and
    the discard pile laid crosswise beside the draw pile, with a caption saying what happened."""
    painter = CardPainter(content, TABLE_W, TABLE_H)
    state, kept, _ = setup_game(content)
    market = sorted(state.market)
    gap = painter._gap()
    width = painter.train_width() + 24 * mm
    height = 3 * TABLE_H + 15 * mm

    def paint(c):
        left = 22 * mm
        rows = [(5 * mm, "P1"), (height - TABLE_H - 0.5 * mm, "P2")]
        for y, name in rows:
            painter.train(c, left, y, state.trains[name], highlights=[kept[name]])
            _label(c, left - 3 * mm, y + TABLE_H / 2 - 1.5 * mm, name, lang, size=10, colour=INK, bold=True,
                   align="right")
        middle = 5 * mm + TABLE_H + 5 * mm
        x = left + 6 * mm
        for k in range(3):  # a little stack
            painter.back(c, x + k * 0.6 * mm, middle + k * 0.6 * mm)
        _label(c, x + TABLE_W / 2, middle - 4 * mm, term(content, "draw-pile", lang), lang)
        mx = x + TABLE_W + 10 * mm
        for i, number in enumerate(market):
            painter.carriage(c, mx + i * (TABLE_W + gap), middle, number)
        market_w = max(len(market), 1) * TABLE_W + max(len(market) - 1, 0) * gap
        _label(c, mx + market_w / 2, middle - 4 * mm, term(content, "market", lang), lang)
        dx = mx + market_w + 14 * mm
        painter.back(c, dx, middle + (TABLE_H - TABLE_W) / 2, rotated=True)
        _label(c, dx + TABLE_H / 2, middle - 4 * mm, term(content, "discard-pile", lang), lang)

    caption = _caption(content, lang, "setup-caption")
    return _with_caption(Picture(width, height, paint, space=2), caption, 170 * mm)


ANATOMY_CARD = 7  # the carriage card pictured in the card anatomy: Uncouple front


def anatomy_diagram(content, lang):
    """A carriage card as printed, with its parts named around it."""
    from cardgen.games.game_of_trains.faces import DESIGN_H, DESIGN_W, draw_face
    from cardgen.layout import Rect

    card = next(c for c in content.cards if c["deck"] == "carriages" and c["number"] == ANATOMY_CARD)
    scale = 0.78
    card_w, card_h = DESIGN_W * mm * scale, DESIGN_H * mm * scale
    width = 160 * mm
    height = card_h + 6 * mm
    left = (width - card_w) / 2
    bottom = 3 * mm

    def at(x, y):
        """A point of the card in design millimetres, on the page."""
        return left + x * mm * scale, bottom + y * mm * scale

    # (term, where the leader line ends in design mm, side, label height as a share of the picture):
    # each line stops at the edge of its element that faces the label, so it never covers it.
    callouts = [
        ("anatomy-corner-number", (5.2, 78.6), "left", 0.92),
        ("anatomy-number", (27.2, 54.2), "left", 0.62),
        ("anatomy-ability-number", (6.9, 35.3), "left", 0.40),
        ("anatomy-icon", (7.6, 25.3), "left", 0.18),
        ("anatomy-corner-icon", (57.3, 79.4), "right", 0.92),
        ("anatomy-colour", (62.6, 62), "right", 0.66),
        ("anatomy-text", (50.4, 33.2), "right", 0.40),
        ("anatomy-turned", (57.9, 10.4), "right", 0.12),
    ]

    def paint(c):
        # The card is drawn at its printed size and the picture scaled, so it shows the card as printed.
        c.saveState()
        c.translate(left, bottom)
        c.scale(scale, scale)
        draw_face(c, content, card, Rect(0, 0, DESIGN_W * mm, DESIGN_H * mm), 0)
        c.restoreState()
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.5)
        c.rect(left, bottom, card_w, card_h, stroke=1, fill=0)
        for key, (x, y), side, level in callouts:
            px, py = at(x, y)
            ly = bottom + level * card_h
            if side == "left":
                lx = left - 4 * mm
                c.setStrokeColor(MOVE_LINE)
                c.line(lx, ly, px, py)
                c.setFillColor(MOVE_LINE)
                c.circle(px, py, 0.6 * mm, stroke=0, fill=1)
                _label_lines(c, lx - 1.5 * mm, ly, term(content, key, lang), lang, "right", left - 6 * mm)
            else:
                lx = left + card_w + 4 * mm
                c.setStrokeColor(MOVE_LINE)
                c.line(px, py, lx, ly)
                c.setFillColor(MOVE_LINE)
                c.circle(px, py, 0.6 * mm, stroke=0, fill=1)
                _label_lines(c, lx + 1.5 * mm, ly, term(content, key, lang), lang, "left",
                             width - (left + card_w + 6 * mm))

    return Picture(width, height, paint)


def _label_lines(c, x, y, text, lang, align, max_width, size=7.5):
    """A callout label wrapped to `max_width`, its first line level with the leader line."""
    from cardgen.faces import wrap

    font = font_for(lang)
    lines = wrap(text, font, size, max_width)
    c.setFillColor(INK)
    c.setFont(font, size)
    top = y - size * 0.35 + (len(lines) - 1) * size * 1.25 / 2
    for i, line in enumerate(lines):
        baseline = top - i * size * 1.25
        (c.drawRightString if align == "right" else c.drawString)(x, baseline, line)


def shift_diagram(content, lang):
    """Push back on carriage 2: it jumps two places to the right and the two it passes slide left."""
    painter = CardPainter(content, CARD_W, CARD_H)
    before = [12, 47, 20, 33, 55, 61, 70]
    moved, start, end = before[1], 1, 3
    after = before[:start] + before[start + 1:end + 1] + [moved] + before[end + 1:]
    width = painter.train_width() + 24 * mm
    height = 2 * CARD_H + 22 * mm

    def paint(c):
        left = 22 * mm
        top_y = height - CARD_H - 10.5 * mm
        xs = painter.train(c, left, top_y, before, highlights=[moved])
        _label(c, left - 3 * mm, top_y + CARD_H / 2, term(content, "before", lang), lang, size=9, colour=INK,
               bold=True, align="right")
        _hop(c, xs[start] + CARD_W / 2, xs[end] + CARD_W / 2, top_y + CARD_H + 1 * mm, 10 * mm)
        low_y = 2 * mm
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
    row = SMALL_H + 4 * mm  # room for a Lock card's tab under a train
    has_market = "market" in example.before and "market" in example.after
    column = painter.train_width() + 8 * mm
    width = 2 * column + 8 * mm
    top = 9 * mm  # the heading, and the positions 1 to 7 over the trains
    height = top + row * (len(players) + (1 if has_market else 0))

    def side(c, x, fields, heading, changed_from=None):
        _label(c, x + column / 2, height - 4 * mm, heading, lang, size=9, colour=INK, bold=True)
        _label(c, x + 8 * mm + SMALL_W, height - 7.6 * mm, term(content, "position", lang), lang, size=6, align="right")
        for k in range(7):
            _label(c, x + 8 * mm + (k + 1) * (SMALL_W + SMALL_GAP) + SMALL_W / 2, height - 7.6 * mm, str(k + 1),
                   lang, size=6)
        for i, name in enumerate(players):
            y = height - top - (i + 1) * row + 2 * mm
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
            y = height - top - (len(players) + 1) * row + 2 * mm
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
    "anatomy": anatomy_diagram,
    "train": train_diagram,
    "table": table_diagram,
    "shift": shift_diagram,
}
EXAMPLE_DIAGRAM = example_diagram


def summary_diagram(content, lang):
    """The turn summary (summary.yaml) in a framed box that stays on one page."""
    from reportlab.platypus import Table, TableStyle

    from cardgen.pdfdoc import SANS
    from cardgen.rulesheet import NOTE_FILL, Styles, accent_colour, body_flowables, tidy

    styles = Styles(lang, accent_colour(content))
    text = tidy(content.render_text(content.files["summary"]["body"][lang], lang))
    box = Table([[body_flowables(text, styles)]], colWidths=[170 * mm])
    box.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS),  # reportlab's cell default is Helvetica, which is not embedded
        ("BOX", (0, 0), (-1, -1), 1.2, styles.accent),
        ("BACKGROUND", (0, 0), (-1, -1), colors.white),
        ("LEFTPADDING", (0, 0), (-1, -1), 10), ("RIGHTPADDING", (0, 0), (-1, -1), 10),
        ("TOPPADDING", (0, 0), (-1, -1), 8), ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
    ]))
    return box


DIAGRAMS["summary"] = summary_diagram
