"""Ticket to Ride: The Card Game rule-sheet parts that show the game as it lies on the table: the
table at the start, the anatomy of a ticket and a big-city card, each worked example under the
rule it shows, and the turn summary.

Every card in these pictures is drawn by the card-face code (`faces.draw_face`) at its printed
size and shrunk (`cardgen.faces.draw_shrunk`), so the sheet shows the cards the players hold. A
worked example is a scenario that the rules engine replays; its picture is drawn from the
engine's positions right around the steps its text narrates (`example.steps` in the scenario),
and names only what its text names. Labels wrap to the room they have and are never cut short.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import atan2

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Table, TableStyle

from cardgen.diagrams import Picture, term
from cardgen.faces import INK, arrow_head, draw_shrunk, wrap
from cardgen.games.ticket_to_ride import faces
from cardgen.layout import Rect
from cardgen.markup import inline, para
from cardgen.pdfdoc import SANS, font_for, mm

MUTED = colors.HexColor("#666666")
CARD_RATIO = faces.DESIGN_H / faces.DESIGN_W
PRINTED = (faces.DESIGN_W * mm, faces.DESIGN_H * mm)  # a card as printed, which a picture shrinks
TRAIN_W = 8 * mm  # a train card in a picture
TICKET_W = 17 * mm  # a ticket or big-city card in a picture, wide enough to read its points
LABEL = 7.5  # points: the smallest text a picture prints
WIDTH = 170 * mm  # the text column


# --- drawing cards ----------------------------------------------------------------------------------

def card_for(content, token) -> dict:
    """The card a picture token names: a colour id or "loco" (a train card), a ticket number, or
    "city:<id>" (a big-city card)."""
    for card in content.cards:
        if isinstance(token, int):
            if card["deck"] == "tickets" and card["number"] == token:
                return card
        elif token.startswith("city:"):
            if card["deck"] == "big-cities" and card["city"] == token[5:]:
                return card
        elif token == "loco":
            if card["deck"] == "locomotives":
                return card
        elif card["deck"] == "trains" and card["colour"] == token:
            return card
    raise KeyError(f"no card {token!r}")


def card_size(token) -> tuple[float, float]:
    width = TICKET_W if isinstance(token, int) or str(token).startswith(("city:", "back:ticket", "back:city")) else TRAIN_W
    return width, width * CARD_RATIO


def draw_card(canvas, content, token, x: float, y: float) -> None:
    """One card, face up as printed, or a back (`back:train-back`), with its lower-left at (x, y)."""
    w, h = card_size(token)
    rect = Rect(x, y, w, h)
    if isinstance(token, str) and token.startswith("back:"):
        draw_shrunk(canvas, rect, PRINTED, lambda trim: faces.draw_back(canvas, content, token[5:], trim, 0))
    else:
        card = {**card_for(content, token), "copy": 1}
        draw_shrunk(canvas, rect, PRINTED, lambda trim: faces.draw_face(canvas, content, card, trim, 0))
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.5)
    canvas.roundRect(x, y, w, h, 1.2 * mm, stroke=1, fill=0)


def draw_row(canvas, content, tokens, x: float, y: float, step: float | None = None) -> float:
    """Cards side by side (overlapping when `step` is less than a card's width); returns the right edge."""
    right = x
    for token in tokens:
        w, _ = card_size(token)
        draw_card(canvas, content, token, x, y)
        right = x + w
        x += step if step is not None else w + 1.2 * mm
    return right


def draw_column(canvas, content, tokens, x: float, top: float, step: float = 4 * mm) -> float:
    """A rail-yard column, its first card at the top and each next one laid over it lower down,
    so the count shows and the last card played lies on top; returns its bottom."""
    y = top
    for k, token in enumerate(tokens):
        _, h = card_size(token)
        y = top - h - k * step
        draw_card(canvas, content, token, x, y)
    return y


def column_height(count: int, step: float = 4 * mm) -> float:
    return TRAIN_W * CARD_RATIO + max(count - 1, 0) * step


# --- labels -----------------------------------------------------------------------------------------

CLOSERS = "，。、；：！？）」』"
OPENERS = "（「『"


def label_lines(text: str, lang: str, width: float, size: float = LABEL, bold: bool = False) -> list[str]:
    """`text` wrapped into `width`; in Chinese no line starts with a closing mark or ends with an
    opening one (the mark moves across the break, as Chinese typesetting does)."""
    lines = wrap(text, font_for(lang, bold=bold), size, width)
    for k in range(1, len(lines)):
        while lines[k][:1] in CLOSERS and lines[k]:
            lines[k - 1], lines[k] = lines[k - 1] + lines[k][0], lines[k][1:]
        while lines[k - 1][-1:] in OPENERS and lines[k - 1]:
            lines[k - 1], lines[k] = lines[k - 1][:-1], lines[k - 1][-1] + lines[k]
    return [line for line in lines if line]


def draw_label(canvas, text: str, x: float, top: float, width: float, lang: str, size: float = LABEL,
               bold: bool = False, align: str = "centre", colour=INK) -> float:
    """`text` wrapped into `width` with its first line's top at `top`; returns the bottom of the
    last line. `x` is the centre (align centre) or the left edge (align left)."""
    font = font_for(lang, bold=bold)
    canvas.setFillColor(colour)
    canvas.setFont(font, size)
    y = top - size
    for line in label_lines(text, lang, width, size, bold):
        if align == "centre":
            canvas.drawCentredString(x, y, line)
        else:
            canvas.drawString(x, y, line)
        y -= size * 1.25
    return y + size * 1.25 - size * 0.3


def draw_arrow(canvas, x0: float, y0: float, x1: float, y1: float, colour=INK, width: float = 1.0) -> None:
    canvas.setStrokeColor(colour)
    canvas.setFillColor(colour)
    canvas.setLineWidth(width)
    canvas.line(x0, y0, x1, y1)
    arrow_head(canvas, x1, y1, atan2(y1 - y0, x1 - x0), 4.5, spread=0.5)


def draw_zone(canvas, x: float, y: float, w: float, h: float) -> None:
    """A dashed outline: a place on the table that may be empty."""
    canvas.setStrokeColor(colors.HexColor("#9a9a9a"))
    canvas.setLineWidth(0.6)
    canvas.setDash(2, 2)
    canvas.roundRect(x, y, w, h, 1.5 * mm, stroke=1, fill=0)
    canvas.setDash()


def city_name(content, city: str, lang: str) -> str:
    return next(c["name"][lang] for c in content.files["cities"]["cities"] if c["id"] == city)


def ticket_name(content, number: int, lang: str) -> str:
    card = card_for(content, number)
    return f"{city_name(content, card['from'], lang)}－{city_name(content, card['to'], lang)}" if lang.startswith("zh") \
        else f"{city_name(content, card['from'], lang)} – {city_name(content, card['to'], lang)}"


def draw_ticket(canvas, content, number: int, x: float, y: float, lang: str, caption: bool = True) -> float:
    """A ticket face with its two cities written under it in the sheet's language; returns the
    bottom of the caption."""
    draw_card(canvas, content, number, x, y)
    if not caption:
        return y
    return draw_label(canvas, ticket_name(content, number, lang), x + TICKET_W / 2, y - 1 * mm, TICKET_W + 5 * mm, lang)


# --- a panel: one moment of an example ----------------------------------------------------------------

@dataclass
class Group:
    """Cards that lie together, with the word for where they lie: `kind` row (side by side),
    fan (overlapping, a hand), columns (a rail yard: a list of columns) or tickets."""

    label: str
    cards: list
    kind: str = "row"
    note: str = ""


def group_size(group: Group) -> tuple[float, float]:
    """Width and height of a group's cards (without its label)."""
    if group.kind == "columns":
        if not group.cards:
            return TRAIN_W, TRAIN_W * CARD_RATIO
        width = len(group.cards) * (TRAIN_W + 1.5 * mm) - 1.5 * mm
        return width, max(column_height(len(c)) for c in group.cards)
    if group.kind == "text":
        return 0, -1 * mm
    if not group.cards:
        return TRAIN_W, TRAIN_W * CARD_RATIO
    if group.kind == "tickets":
        return len(group.cards) * (TICKET_W + 5 * mm) - 5 * mm, TICKET_W * CARD_RATIO + 9 * mm
    w, h = card_size(group.cards[0])
    return fan_step(group) * (len(group.cards) - 1) + w, h


def fan_step(group: Group) -> float:
    """How far apart the cards of a row or fan lie: a fan of tickets shows only their edges."""
    w, _ = card_size(group.cards[0])
    if group.kind != "fan":
        return w + 1.2 * mm
    return 0.6 * w if w == TRAIN_W else 0.15 * w


def group_box(group: Group, lang: str, room: float) -> tuple[float, float]:
    """Width and height of a group with its label and note, given at most `room` across."""
    cards_w, cards_h = group_size(group)
    texts = [(group.label, True)] + ([(group.note, False)] if group.note else [])
    natural = max(stringWidth(text, font_for(lang, bold=bold), LABEL) for text, bold in texts)
    width = min(room, max(cards_w, natural))
    height = len(label_lines(group.label, lang, width, bold=True)) * LABEL * 1.25 + 1 * mm + cards_h
    if group.note:
        height += 1 * mm + len(label_lines(group.note, lang, width)) * LABEL * 1.25
    return width, height


def draw_group(canvas, content, group: Group, x: float, top: float, width: float, lang: str) -> float:
    """A group's label then its cards, from `top` down, left-aligned at `x`; returns its bottom."""
    y = draw_label(canvas, group.label, x, top, width, lang, bold=True, align="left") - 1 * mm
    w, h = group_size(group)
    if group.kind == "text":
        pass
    elif not group.cards:
        draw_zone(canvas, x, y - h, w, h)
    elif group.kind == "columns":
        for k, column in enumerate(group.cards):
            draw_column(canvas, content, column, x + k * (TRAIN_W + 1.5 * mm), y)
    elif group.kind == "tickets":
        for k, number in enumerate(group.cards):
            draw_ticket(canvas, content, number, x + k * (TICKET_W + 5 * mm) + 2.5 * mm, y - TICKET_W * CARD_RATIO, lang)
    else:
        _, ch = card_size(group.cards[0])
        draw_row(canvas, content, group.cards, x, y - ch, fan_step(group))
    y -= h
    if group.note:
        y = draw_label(canvas, group.note, x, y - 1 * mm, width, lang, colour=MUTED, align="left")
    return y


GROUP_GAP = 4 * mm


@dataclass
class Panel:
    """One moment: a title and groups of cards under it, side by side while they fit."""

    title: str
    groups: list[Group]

    def width(self, lang: str) -> float:
        """The narrowest width that holds its widest group."""
        return max([group_size(g)[0] for g in self.groups] + [22 * mm])

    def line_width(self, lang: str) -> float:
        """The width that holds its title and all its groups side by side on one line."""
        groups = sum(group_box(g, lang, WIDTH)[0] for g in self.groups) + GROUP_GAP * (len(self.groups) - 1)
        return max(groups, stringWidth(self.title, font_for(lang, bold=True), 8.5))

    def layout(self, lang: str, width: float) -> tuple[list[tuple[Group, float, float, float]], float]:
        """(group, x, top, width) of each group, `top` measured down from the panel's top, and the
        panel's height."""
        placed = []
        x, top = 0.0, len(label_lines(self.title, lang, width, 8.5, True)) * 8.5 * 1.25 + 2 * mm
        line_height = 0.0
        for group in self.groups:
            w, h = group_box(group, lang, width)
            if x > 0 and x + w > width:
                x, top, line_height = 0.0, top + line_height + 3 * mm, 0.0
            placed.append((group, x, top, w))
            x += w + GROUP_GAP
            line_height = max(line_height, h)
        return placed, top + line_height


def panels_picture(content, lang: str, panels: list[Panel], arrows: bool = True) -> Picture:
    """Panels side by side, in order of play, an arrow between each two."""
    gap = 7 * mm if arrows else 6 * mm
    room = WIDTH - gap * (len(panels) - 1)
    widths = [p.line_width(lang) for p in panels]
    if max(widths) <= room / len(panels):  # moments in equal columns read as one strip
        widths = [room / len(panels)] * len(panels)
    elif sum(widths) > room:  # too wide for one line each: groups stack inside each moment
        widths = [p.width(lang) for p in panels]
    spare = room - sum(widths)
    widths = [w + max(spare, 0) / len(panels) for w in widths]
    height = max(p.layout(lang, w)[1] for p, w in zip(panels, widths)) + 2 * mm

    def paint(canvas):
        x = 0
        for k, (panel, w) in enumerate(zip(panels, widths)):
            top = height - 1 * mm
            draw_label(canvas, panel.title, x, top, w, lang, 8.5, bold=True, align="left", colour=colors.HexColor("#2b4c7e"))
            for group, gx, gtop, gw in panel.layout(lang, w)[0]:
                draw_group(canvas, content, group, x + gx, top - gtop, gw, lang)
            if arrows and k < len(panels) - 1:
                mid = x + w + gap / 2
                level = height - 16 * mm  # beside the first cards of each moment
                draw_arrow(canvas, mid - 2.5 * mm, level, mid + 2.5 * mm, level, MUTED)
            x += w + gap

    return Picture(WIDTH, height, paint)


# --- worked examples beside their rules -----------------------------------------------------------

def _t(content, key: str, lang: str, **values) -> str:
    """A term of rules.yaml with its <name> blanks filled in (braces there are the content's facts)."""
    text = term(content, key, lang)
    for name, value in values.items():
        text = text.replace(f"<{name}>", str(value))
    return text


def _yard(position, player) -> list:
    return [list(column) for column in position["columns"][player].values()]


def example_phase_one(content, lang: str, example) -> Picture:
    before, after = example.before, example.after
    panels = []
    for title, position in ((_t(content, "before", lang), before), (_t(content, "after", lang), after)):
        groups = [Group(_t(content, "yard-of", lang, player="P1"), _yard(position, "P1"), "columns"),
                  Group(_t(content, "tracks-of", lang, player="P1"), list(reversed(position["tracks"]["P1"])), "fan",
                        _t(content, "face-down", lang) if position["tracks"]["P1"] else "")]
        if position["columns"]["P2"]:
            groups.append(Group(_t(content, "yard-of", lang, player="P2"), _yard(position, "P2"), "columns"))
        else:
            groups.append(Group(_t(content, "hand-of", lang, player="P2"), sorted(position["hand"]["P2"]), "fan"))
        panels.append(Panel(title, groups))
    return panels_picture(content, lang, panels)


def example_draw_face_up(content, lang: str, example) -> Picture:
    first, last = example.steps
    moments = [(_t(content, "start", lang), example.before), (_t(content, "first-card", lang), example.at(first)),
               (_t(content, "second-card", lang), example.after)]
    panels = []
    for title, position in moments:
        panels.append(Panel(title, [Group(_t(content, "face-up-row", lang), list(position["faceup"]), "row"),
                                    Group(_t(content, "hand-of", lang, player="P1"), list(position["hand"]["P1"]), "fan")]))
    return panels_picture(content, lang, panels)


def example_take_over(content, lang: str, example) -> Picture:
    panels = []
    for title, position in ((_t(content, "before", lang), example.before), (_t(content, "after", lang), example.after)):
        groups = [Group(_t(content, "yard-of", lang, player="P2"), _yard(position, "P2"), "columns")]
        if position["discard"] != example.before["discard"]:
            groups.append(Group(_t(content, "discards", lang), _new_cards(example.before["discard"], position["discard"]), "row"))
        groups += [Group(_t(content, "hand-of", lang, player="P1"), list(position["hand"]["P1"]), "fan"),
                   Group(_t(content, "yard-of", lang, player="P1"), _yard(position, "P1"), "columns")]
        panels.append(Panel(title, groups))
    return panels_picture(content, lang, panels)


def _new_cards(before: list, after: list) -> list:
    """The cards in `after` that `before` did not hold (counting copies)."""
    left = list(before)
    new = []
    for card in after:
        if card in left:
            left.remove(card)
        else:
            new.append(card)
    return new


def _turns(example) -> list[tuple[str, int, int]]:
    """(player, first position, last position) of each turn within the narrated steps."""
    first, last = example.steps
    turns = []
    start = first - 1
    for n in range(first, last + 1):
        mover = example.at(start)["to_move"]
        if example.at(n)["to_move"] != mover or n == last:
            turns.append((mover[0], start, n))
            start = n
    return turns


def example_end_of_deck(content, lang: str, example) -> Picture:
    panels = []
    for player, a, b in _turns(example):
        before, after = example.at(a), example.at(b)
        drawn = _new_cards(before["hand"][player], after["hand"][player])
        kept = _new_cards(before["tickets"][player], after["tickets"][player])
        offered = max(len(example.at(n)["offered"][player]) for n in range(a, b + 1))
        groups = []
        if drawn:
            groups.append(Group(_t(content, "draws", lang), drawn, "row"))
        if offered:
            groups.append(Group(_t(content, "draws-tickets", lang, n=offered), ["back:ticket-back"] * offered, "fan"))
            groups.append(Group(_t(content, "keeps", lang), kept, "tickets") if kept
                          else Group(_t(content, "keeps-none", lang), [], "text"))
        title = (_t(content, "turn-deck", lang, player=player, before=len(before["deck"]), after=len(after["deck"]))
                 if before["deck"] else _t(content, "turn-empty", lang, player=player))
        panels.append(Panel(title, groups))
    return panels_picture(content, lang, panels)


def example_four_players(content, lang: str, example) -> Picture:
    """The first deck's end for four players, two by two: each player's tickets, what became of
    each, the tracks pile turned over, and the hand after the new deal; then the new face-up row."""
    before, after = example.before, example.after
    players = list(before["hand"])
    cell_w = WIDTH / 2
    ticket_w = 14 * mm
    ticket_h = ticket_w * CARD_RATIO
    slot = ticket_w + 11 * mm

    def cell_height(player) -> float:
        lines = max([len(label_lines(ticket_name(content, n, lang), lang, slot - 2 * mm))
                     + len(label_lines(_t(content, "completed-aside", lang), lang, slot - 2 * mm)) for n in before["tickets"][player]]
                    + [0])
        return 5 * mm + ticket_h + 1.5 * mm + lines * LABEL * 1.25 + 6 * mm

    rows = [players[k:k + 2] for k in range(0, len(players), 2)]
    row_heights = [max(cell_height(p) for p in row) for row in rows]
    height = sum(row_heights) + 4 * mm + 12 * mm + TRAIN_W * CARD_RATIO

    def paint(canvas):
        top = height
        for row, row_h in zip(rows, row_heights):
            for c, player in enumerate(row):
                x0 = c * cell_w
                draw_label(canvas, player, x0, top, 10 * mm, "en", 9, bold=True, align="left")
                draw_label(canvas, _t(content, "cards-in-hand", lang, n=len(after["hand"][player])), x0 + 8 * mm, top,
                           cell_w - 10 * mm, lang, colour=MUTED, align="left")
                x = x0
                for number in before["tickets"][player]:
                    y = top - 5 * mm - ticket_h
                    card = {**card_for(content, number), "copy": 1}
                    draw_shrunk(canvas, Rect(x, y, ticket_w, ticket_h), PRINTED,
                                lambda trim: faces.draw_face(canvas, content, card, trim, 0))
                    canvas.setStrokeColor(INK)
                    canvas.setLineWidth(0.5)
                    canvas.roundRect(x, y, ticket_w, ticket_h, 1.2 * mm, stroke=1, fill=0)
                    bottom = draw_label(canvas, ticket_name(content, number, lang), x, y - 1.5 * mm, slot - 2 * mm, lang, align="left")
                    done = number in after["done"][player]
                    draw_label(canvas, _t(content, "completed-aside" if done else "back-to-hand", lang), x, bottom - 0.5 * mm,
                               slot - 2 * mm, lang, colour=colors.HexColor("#1d7a34") if done else MUTED, align="left")
                    x += slot
                tracks = sorted(before["tracks"][player])
                draw_label(canvas, _t(content, "tracks-turned", lang), x, top - 5 * mm, x0 + cell_w - x - 2 * mm, lang,
                           bold=True, align="left")
                card_y = top - 5 * mm - 2 * LABEL * 1.25 - TRAIN_W * CARD_RATIO
                if tracks:
                    draw_row(canvas, content, tracks, x, card_y, TRAIN_W + 0.8 * mm)
                else:
                    draw_zone(canvas, x, card_y, TRAIN_W, TRAIN_W * CARD_RATIO)
            top -= row_h
        top -= 4 * mm
        draw_label(canvas, _t(content, "new-face-up", lang), 0, top, 45 * mm, lang, bold=True, align="left")
        draw_row(canvas, content, after["faceup"], 0, top - 4 * mm - TRAIN_W * CARD_RATIO)
        draw_label(canvas, _t(content, "starts-next", lang, player=after["to_move"][0]), cell_w, top - 6 * mm,
                   cell_w, lang, 9, bold=True, align="left")

    return Picture(WIDTH, height, paint)


def final_scores(content, example):
    """The engine's score breakdown of an example that ends the game."""
    from cardgen.errors import ContentError, ContentErrors
    from cardgen.registry import engine_for
    from verify.scenario import run_scenario

    result = run_scenario(example.path, engine_for(content))
    if not result.ok or result.state is None or not result.state.is_terminal():
        raise ContentErrors([ContentError(str(example.path), 0, 0, "scoring", "; ".join(result.failures) or "the game is not over")])
    return result.state


def example_scoring(content, lang: str, example) -> Picture:
    """Each player's tickets with the cards of the tracks pile matched to each, the failed ones
    and the big cities won."""
    state = final_scores(content, example)
    per = state.scores()
    players = list(per)
    ticket_h = TICKET_W * CARD_RATIO
    slot = TICKET_W + 6 * mm
    row_h = ticket_h + 9 * mm + TRAIN_W * CARD_RATIO + 10 * mm
    height = row_h * len(players) + 2 * mm

    def paint(canvas):
        for k, player in enumerate(players):
            line = per[player]
            top = height - 1 * mm - k * row_h
            draw_label(canvas, player, 0, top, 10 * mm, "en", 9, bold=True, align="left")
            x = 10 * mm
            for number in list(line["completed"]) + list(line["failed"]):
                done = number in line["completed"]
                ticket = state.game.tickets[number]
                draw_ticket(canvas, content, number, x, top - ticket_h, lang)
                cards = line["cards"].get(number, [])
                card_top = top - ticket_h - 9 * mm
                if cards:
                    draw_row(canvas, content, cards, x, card_top - TRAIN_W * CARD_RATIO, TRAIN_W + 0.8 * mm)
                mark = _signed(ticket.points if done else -ticket.points, "en")
                draw_label(canvas, mark, x + TICKET_W / 2, card_top - TRAIN_W * CARD_RATIO - 1 * mm, slot, "en", 9, bold=True,
                           colour=colors.HexColor("#1d7a34") if done else colors.HexColor("#b3261e"))
                x += slot
            unused = line.get("unused", [])
            if unused:
                draw_label(canvas, _t(content, "unused", lang), x, top, 20 * mm, lang, bold=True, align="left")
                draw_row(canvas, content, unused, x, top - 6 * mm - TRAIN_W * CARD_RATIO)
                x += 22 * mm
            cities = [f"city:{c}" for c in line["cities"]]
            if cities:
                draw_label(canvas, _t(content, "cities-won", lang), x, top, WIDTH - x, lang, bold=True, align="left")
                draw_row(canvas, content, cities, x, top - 6 * mm - ticket_h)
                draw_label(canvas, _t(content, "total-is", lang, tickets=_signed(line["tickets"], lang),
                                      cities=_signed(line["city_points"], lang), n=line["total"]),
                           x, top - 8 * mm - ticket_h, WIDTH - x, lang, 9, bold=True, align="left")

    return Picture(WIDTH, height, paint)


def _signed(points: int, lang: str) -> str:
    """Points with their sign; the Chinese font has no minus sign, so Chinese text takes a hyphen."""
    minus = "−" if lang == "en" else "-"
    return f"+{points}" if points > 0 else f"{minus}{-points}" if points < 0 else "0"


# The scenario each example part replays and the picture it draws; the text is the scenario's own.
EXAMPLES = {
    "example-phase-one": ("phase-one", example_phase_one),
    "example-draw-face-up": ("draw-face-up", example_draw_face_up),
    "example-take-over": ("take-over-a-colour", example_take_over),
    "example-end-of-deck": ("end-of-deck", example_end_of_deck),
    "example-scoring": ("scoring-best-allocation", example_scoring),
    "example-four-players": ("four-player-second-deck", example_four_players),
}

EXAMPLE_TITLE = {"en": "Example.", "zh-Hant": "範例："}


def example_part(name: str):
    """A part printing a worked example under its rule: its text (the scenario's), then its picture."""
    stem, draw = EXAMPLES[name]

    def part(content, lang: str, styles) -> list:
        from cardgen.rulesheet import WithRule, body_flowables, example_beside_rule, tidy, worked_example

        if not (content.root / "scenarios" / f"{stem}.yaml").is_file():
            return []  # a trimmed copy of the content without this scenario prints the rule alone
        text = tidy(worked_example(content, stem).data["example"][lang])
        example = example_beside_rule(content, stem, lang, text, draw)
        blocks = body_flowables(f"**{EXAMPLE_TITLE[lang]}** {text}" if lang == "en" else f"**{EXAMPLE_TITLE[lang]}**{text}",
                                styles)
        flowables = blocks + [draw(content, lang, example)]
        # The example's words and its picture stay on one page, with the rule they show.
        return [WithRule(flowables)]

    return part


# --- the table at the start, and the anatomy of a ticket and a big-city card ---------------------

def setup_picture(content, lang: str) -> Picture:
    """The table after setup: the big cities, the ticket deck, the train deck and the face-up row
    in the middle, and what lies in front of each player (hand, tickets, rail yard, tracks pile)."""
    city_h = TICKET_W * CARD_RATIO
    train_h = TRAIN_W * CARD_RATIO
    zone_h = 22 * mm
    head = 8 * mm  # room for a label of two lines above the cards
    height = head + city_h + 4 * mm + 8 * mm + 9 * mm + max(city_h, zone_h) + 1 * mm  # the middle, then each player's area

    def pile(canvas, token, x, y):
        for k in range(3):
            draw_card(canvas, content, token, x + k * 0.7, y + k * 0.7)

    def paint(canvas):
        top = height
        cities = [f"city:{c['city']}" for c in content.cards if c["deck"] == "big-cities"]
        # The middle of the table in one row; each big-city card shows its name beside the next.
        city_step = TICKET_W * 0.8
        cities_w = city_step * (len(cities) - 1) + TICKET_W
        ticket_x = cities_w + 3 * mm
        train_x = ticket_x + TICKET_W + 4 * mm
        row_x = train_x + TRAIN_W + 4 * mm
        places = [("big-cities", 0, cities_w), ("ticket-deck", ticket_x, TICKET_W + 3 * mm),
                  ("train-deck", train_x, TRAIN_W + 3.5 * mm), ("face-up-row", row_x, WIDTH - row_x)]
        for key, x, room in places:
            draw_label(canvas, _t(content, key, lang), x, top, room, lang, bold=True, align="left")
        draw_row(canvas, content, cities, 0, top - head - city_h, city_step)
        pile(canvas, "back:ticket-back", ticket_x, top - head - city_h)
        pile(canvas, "back:train-back", train_x, top - head - train_h)
        draw_row(canvas, content, ["blue", "loco", "red", "green", "white"], row_x, top - head - train_h)
        mine = top - head - city_h - 4 * mm
        canvas.setStrokeColor(colors.HexColor("#c8c8c8"))
        canvas.setLineWidth(0.6)
        canvas.line(0, mine, WIDTH, mine)
        draw_label(canvas, _t(content, "your-area", lang), 0, mine - 2 * mm, WIDTH, lang, 8.5, bold=True, align="left",
                   colour=colors.HexColor("#2b4c7e"))
        row = mine - 8 * mm
        hand = ["loco", "red", "red", "blue", "yellow", "green", "black", "orange"]
        draw_label(canvas, _t(content, "hand-setup", lang), 0, row, 44 * mm, lang, bold=True, align="left")
        draw_row(canvas, content, hand, 0, row - 9 * mm - train_h, 0.6 * TRAIN_W)
        draw_label(canvas, _t(content, "tickets-kept", lang), 50 * mm, row, 38 * mm, lang, bold=True, align="left")
        draw_row(canvas, content, [12, 1], 50 * mm, row - 9 * mm - city_h)
        draw_label(canvas, _t(content, "rail-yard", lang), 92 * mm, row, 38 * mm, lang, bold=True, align="left")
        draw_zone(canvas, 92 * mm, row - 9 * mm - zone_h, 36 * mm, zone_h)
        draw_label(canvas, _t(content, "rail-yard-note", lang), 93.5 * mm, row - 11 * mm, 33 * mm, lang, colour=MUTED, align="left")
        draw_label(canvas, _t(content, "tracks-pile", lang), 134 * mm, row, 36 * mm, lang, bold=True, align="left")
        draw_zone(canvas, 134 * mm, row - 9 * mm - train_h, TRAIN_W * 1.6, train_h)
        draw_label(canvas, _t(content, "face-down", lang), 134 * mm, row - 11 * mm - train_h, 36 * mm, lang,
                   colour=MUTED, align="left")

    return Picture(WIDTH, height, paint)


# Four tickets as Action C draws them: the player keeps the first two, the others go under the deck.
TICKETS_DRAWN = (3, 14, 20, 27)
TICKETS_KEPT = 2


def tickets_picture(content, lang: str) -> Picture:
    """Action C: the top four tickets drawn, some kept, the rest put under the ticket deck."""
    ticket_h = TICKET_W * CARD_RATIO
    height = 5 * mm + ticket_h + 16 * mm
    slot = TICKET_W + 12 * mm

    def paint(canvas):
        top = height
        draw_label(canvas, _t(content, "ticket-deck", lang), 0, top, 28 * mm, lang, bold=True, align="left")
        for k in range(3):
            draw_card(canvas, content, "back:ticket-back", k * 0.7, top - 5 * mm - ticket_h + k * 0.7)
        draw_arrow(canvas, TICKET_W + 3 * mm, top - 5 * mm - ticket_h / 2, 36 * mm, top - 5 * mm - ticket_h / 2, MUTED)
        draw_label(canvas, _t(content, "draw-four", lang), 40 * mm, top, 4 * slot, lang, bold=True, align="left")
        for k, number in enumerate(TICKETS_DRAWN):
            x = 40 * mm + k * slot
            bottom = draw_ticket(canvas, content, number, x, top - 5 * mm - ticket_h, lang, caption=False)
            bottom = draw_label(canvas, ticket_name(content, number, lang), x + TICKET_W / 2, bottom - 1 * mm, slot - 2 * mm, lang)
            kept = k < TICKETS_KEPT
            draw_label(canvas, _t(content, "kept" if kept else "under-deck", lang), x + TICKET_W / 2, bottom - 0.5 * mm,
                       slot - 2 * mm, lang, bold=True, colour=colors.HexColor("#1d7a34") if kept else MUTED)

    return Picture(WIDTH, height, paint)


def _callout(canvas, text: str, lang: str, tip: tuple[float, float], at: tuple[float, float], side: str, width: float) -> None:
    """A label at `at` with a pointer line that ends on the element's edge at `tip`."""
    x, y = at
    lines = label_lines(text, lang, width)
    canvas.setStrokeColor(MUTED)
    canvas.setLineWidth(0.6)
    canvas.line(x, y, tip[0], tip[1])
    canvas.setFillColor(INK)
    canvas.circle(tip[0], tip[1], 0.6, stroke=0, fill=1)
    canvas.setFont(font_for(lang), LABEL)
    first = y - LABEL * 0.35 + (len(lines) - 1) * LABEL * 1.25 / 2
    for k, line in enumerate(lines):
        baseline = first - k * LABEL * 1.25
        if side == "left":
            canvas.drawRightString(x - 1.5 * mm, baseline, line)
        else:
            canvas.drawString(x + 1.5 * mm, baseline, line)


ANATOMY_TICKET = 12  # Chicago - Miami: a big city at each end, two discs


def anatomy_picture(content, lang: str) -> Picture:
    """A ticket and a big-city card as printed, each part named, the pointer ending at its edge."""
    from cardgen.pdfdoc import SANS_BOLD

    scale = 0.45
    w, h = faces.DESIGN_W * mm * scale, faces.DESIGN_H * mm * scale
    height = h + 4 * mm
    bottom = 2 * mm
    ticket_x, city_x = 31 * mm, 138 * mm
    ticket = card_for(content, ANATOMY_TICKET)
    city = next(c for c in content.cards if c["deck"] == "big-cities")
    W, H, SAFE = faces.DESIGN_W, faces.DESIGN_H, faces.SAFE

    def at(x0, dx, dy):
        """A point of a card drawn at x0, given in the card's own design millimetres."""
        return x0 + dx * mm * scale, bottom + dy * mm * scale

    def text_half(text, font, points):
        return stringWidth(text, font, points / mm) / 2  # in design millimetres

    first = city_name(content, ticket["from"], "en")
    words = faces.colour_table(content)
    counts = {}
    for colour in ticket["colours"]:
        counts[colour] = counts.get(colour, 0) + 1
    colour_line = ", ".join(f"{words[c][0]['en']} ×{n}" for c, n in counts.items())
    city_title = city_name(content, city["city"], "en")
    most = term(content, "most-tickets", "en")
    gap = 2 * 4.6 + 1.6  # the ticket's disc spacing
    first_disc = W / 2 - gap * (len(ticket["colours"]) - 1) / 2

    def paint(canvas):
        for x0, card in ((ticket_x, ticket), (city_x, city)):
            draw_shrunk(canvas, Rect(x0, bottom, w, h), PRINTED,
                        lambda trim, card=card: faces.draw_face(canvas, content, {**card, "copy": 1}, trim, 0))
            canvas.setStrokeColor(INK)
            canvas.setLineWidth(0.5)
            canvas.roundRect(x0, bottom, w, h, 2 * mm, stroke=1, fill=0)
        left, right = ticket_x - 3 * mm, ticket_x + w + 3 * mm
        callouts = [
            ("part-number", at(ticket_x, SAFE + 2.2, H - SAFE - 4.2), left, "left"),
            ("part-star", at(ticket_x, SAFE + 5 - 2.4, H - 27 + 1.8), left, "left"),
            ("part-discs", at(ticket_x, first_disc - 4.6, 19), left, "left"),
            ("part-points", at(ticket_x, W - SAFE - 8 + 6.2, H - SAFE - 8), right, "right"),
            ("part-cities", at(ticket_x, W / 2 + 2 + text_half(first, SANS_BOLD, 11) + 0.6, H - 27 + 1.4), right, "right"),
            ("part-colours", at(ticket_x, W / 2 + text_half(colour_line, SANS, 7) + 0.6, 11.2), right, "right"),
            ("part-bonus", at(city_x, W / 2 - 12.6, H / 2 + 8), city_x - 3 * mm, "left"),
            ("part-city", at(city_x, W / 2 - text_half(city_title, SANS_BOLD, 14) - 0.6, 24.6), city_x - 3 * mm, "left"),
            ("part-most", at(city_x, W / 2 - text_half(most, SANS, 7) - 0.6, 10.8), city_x - 3 * mm, "left"),
        ]
        for key, tip, x, side in callouts:
            room = 27 * mm if side == "left" else 32 * mm
            _callout(canvas, _t(content, key, lang), lang, tip, (x, tip[1]), side, room)

    return Picture(WIDTH, height, paint)


# --- the turn summary ------------------------------------------------------------------------------

SUMMARY_ROWS = ("phase-1", "action-a", "action-b", "action-c", "end", "scoring")


def summary_part(content, lang: str, styles) -> list:
    """The turn in one box: phase 1, the three actions of phase 2, the end and the scoring, kept
    whole on one page. Its words are the `sum-...` terms of rules.yaml."""
    cells = []
    for row in SUMMARY_ROWS:
        cells.append([para(inline(f"**{_t(content, f'sum-{row}-head', lang)}**", styles.accent_hex), styles.small),
                      para(inline(_t(content, f"sum-{row}", lang), styles.accent_hex), styles.small)])
    table = Table(cells, colWidths=["24%", "76%"])
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS),  # reportlab's cell default is Helvetica, which is not embedded
        ("BOX", (0, 0), (-1, -1), 1.2, styles.accent),
        ("LINEBELOW", (0, 0), (-1, -2), 0.4, colors.HexColor("#c8c8c8")),
        ("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#f3efe4")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 4), ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
        ("LEFTPADDING", (0, 0), (-1, -1), 6), ("RIGHTPADDING", (0, 0), (-1, -1), 6),
    ]))
    from cardgen.rulesheet import WithRule

    return [WithRule([table])]


PARTS = {name: example_part(name) for name in EXAMPLES}
PARTS["summary"] = summary_part
DIAGRAMS = {"setup": setup_picture, "anatomy": anatomy_picture, "tickets": tickets_picture}
