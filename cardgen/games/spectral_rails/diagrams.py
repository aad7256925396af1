"""Spectral Rails rule-sheet pictures and parts: the anatomy of a soul tile and a mat, the table
at the start of a game, a route showing which trail a train may ride, the row of used cards and
what comes back at the end of a round, the turn at a glance and the odds (in percentages, and as
exact fractions for the appendix). The worked examples are in `examples.py`.

Pictures with many parts name them by numbered callouts and a legend under the drawing, in the
sheet's language, so no label has to squeeze between the parts."""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.colors import HexColor
from reportlab.platypus import KeepTogether, Spacer, Table, TableStyle

from cardgen.content import exact_odds
from cardgen.diagrams import Picture
from cardgen.markup import bold, para
from cardgen.games.spectral_rails.art import (DARK_SOUL, INK, PAPER, RAIL, colour_of, font, ghost_train, letter_of,
                                              term, trail_piece)
from cardgen.games.spectral_rails.board import draw_board, layout
from cardgen.pdfdoc import SANS_BOLD, mm

MUTED = HexColor("#616161")


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
    width, height = 165 * mm, 38 * mm
    me, other = colour_of(content, "green"), colour_of(content, "purple")
    gl, pl = letter_of(content, "green"), letter_of(content, "purple")

    def paint(c):
        y = 19 * mm
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
        ghost_train(c, xs[0], y - 0.8 * mm, 8 * mm, me, INK)  # a train stands inside its town's circle
        _label(c, xs[0], y + 8 * mm, term(content, "train", lang), lang, bold=True, colour=INK)
        _label(c, (xs[1] + xs[2]) / 2, y - 10 * mm, term(content, "new-trail", lang), lang)
        _label(c, (xs[4] + xs[5]) / 2, y - 10 * mm, term(content, "other-trail", lang), lang)
        _label(c, xs[7], y - 10 * mm, term(content, "old-trail", lang), lang, colour=HexColor("#c62828"))
        # the ride: an arrow over the allowed part
        c.setStrokeColor(INK)
        c.setFillColor(INK)
        c.setLineWidth(1.2)
        c.line(xs[0] + 7 * mm, y + 7 * mm, xs[6] - 3 * mm, y + 7 * mm)
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
    width, height = 150 * mm, 29 * mm
    colour, letter = colour_of(content, "green"), letter_of(content, "green")

    def paint(c):
        values = [4, 3, 2, 2, 1]
        y = 2.5 * mm
        for k, v in enumerate(values):
            x = 30 * mm + k * 14 * mm
            _card(c, x, y, v, colour, letter, faded=k >= 2)
        c.setStrokeColor(INK)
        c.setLineWidth(0.8)
        c.line(30 * mm, y + 19 * mm, 57 * mm, y + 19 * mm)
        _label(c, 43.5 * mm, y + 21 * mm, term(content, "row-back", lang), lang, bold=True, colour=INK)
        c.line(58 * mm, y + 19 * mm, 99 * mm, y + 19 * mm)
        _label(c, 78.5 * mm, y + 21 * mm, term(content, "row-stays", lang), lang)
        # the left end explained beside the row, with an arrow back to it
        c.setFillColor(MUTED)
        c.setFont(font(lang), 8)
        c.drawString(104 * mm, y + 6.5 * mm, term(content, "row-left", lang))
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.6)
        c.line(30 * mm, y - 0.8 * mm, 102 * mm, y - 0.8 * mm)
        c.line(102 * mm, y - 0.8 * mm, 102 * mm, y + 7.5 * mm)
        c.line(30 * mm, y - 0.8 * mm, 31.8 * mm, y + 0.4 * mm)  # the arrow points to the left end
        c.line(30 * mm, y - 0.8 * mm, 31.8 * mm, y - 2.0 * mm)

    return Picture(width, height, paint)


# --- callouts and their legend --------------------------------------------------------------------

CALLOUT = HexColor("#b3261e")
CALLOUT_R = 2.2 * mm


def _callout(c, n: int, x: float, y: float, to: tuple[float, float] | None = None) -> None:
    """A numbered disc at (x, y), with a thin line to the part it names ending at that part's edge."""
    if to is not None:
        c.setStrokeColor(CALLOUT)
        c.setLineWidth(0.6)
        c.line(x, y, *to)
    c.setFillColor(CALLOUT)
    c.setStrokeColor(HexColor("#ffffff"))
    c.setLineWidth(0.6)
    c.circle(x, y, CALLOUT_R, stroke=1, fill=1)
    c.setFillColor(HexColor("#ffffff"))
    c.setFont(SANS_BOLD, 6.5)
    c.drawCentredString(x, y - 2.3, str(n))


def _legend(content, lang: str, keys: list[str], width: float, columns: int = 2):
    """The legend of numbered callouts as scene labels, `columns` side by side; returns the scene
    and its height. Entries wrap rather than shrink below the smallest label size."""
    from cardgen.games.spectral_rails.examples import Scene, fit_label

    scene = Scene(width, 0)
    column_w = width / columns
    rows = (len(keys) + columns - 1) // columns
    line = 3.4 * mm
    heights = []
    for k, key in enumerate(keys):
        col, row = k // rows, k % rows
        items = fit_label(scene, term(content, key, lang), lang, col * column_w + 6 * mm, 0, column_w - 8 * mm, 7.5)
        heights.append((col, row, len(items)))
    # lay the rows out top to bottom, each as tall as its tallest entry
    row_lines = [max(n for c_, r, n in heights if r == row) for row in range(rows)]
    height = sum(row_lines) * line + 1 * mm
    tops = [height - sum(row_lines[:row]) * line for row in range(rows)]
    placed = []
    index = 0
    for k, key in enumerate(keys):
        col, row = k // rows, k % rows
        n = heights[k][2]
        mine = scene.items[index:index + n]
        index += n
        for j, item in enumerate(mine):
            y = tops[row] - 2.6 * mm - j * line
            placed.append((item, y))
        placed.append((("callout", k + 1), (col * column_w + 2.5 * mm, tops[row] - 1.9 * mm)))
    return placed, height


def _paint_legend(c, placed, y0: float) -> None:
    for item, where in placed:
        if isinstance(item, tuple):
            _callout(c, item[1], where[0], where[1] + y0)
            continue
        c.setFillColor(INK)
        c.setFont(item.font, item.size)
        c.drawString(item.x, where + y0, item.text)


# --- the anatomy of a soul tile and a mat -----------------------------------------------------------

def anatomy_diagram(content, lang):
    """A soul tile (front and back) and a player mat, their parts named by callouts."""
    from cardgen.games.spectral_rails.pieces import MAT_W, SOUL_MM, _soul, _soul_back, draw_mat
    from cardgen.layout import Rect

    keys = ["anatomy-region-letter", "anatomy-region-shape", "anatomy-town", "anatomy-back",
            "anatomy-seats", "anatomy-paid", "anatomy-left", "anatomy-right"]
    width = 170 * mm
    legend, legend_h = _legend(content, lang, keys, width)
    art_h = 64 * mm
    height = art_h + legend_h + 2 * mm
    tile = next(t for t in content.files["tiles"]["tiles"] if t["kind"] == "dark")
    scale = 0.5
    mat_x, mat_y = 68 * mm, legend_h + 3 * mm  # the callout right of the mat ends inside the picture

    def paint(c):
        base = legend_h + 2 * mm
        # the soul tile, front, drawn by the token sheet's own code and enlarged
        size, x, y = 30 * mm, 6 * mm, base + 30 * mm
        k = size / (SOUL_MM * mm)
        c.saveState()
        c.translate(x, y)
        c.scale(k, k)
        _soul(c, content, tile["id"], Rect(0, 0, SOUL_MM * mm, SOUL_MM * mm), 0.0)
        c.restoreState()
        _callout(c, 1, x - 3.5 * mm, y + size - 2 * mm, (x, y + size - 2 * mm))
        _callout(c, 2, x + size + 4 * mm, y + size * 0.62, (x + size * 0.5 + 6.5 * mm, y + size * 0.62))
        _callout(c, 3, x + size + 4 * mm, y + size * 0.22, (x + size - 1 * mm, y + size * 0.22))
        # its back
        bx, by, bs = 44 * mm, base + 4 * mm, 20 * mm
        c.saveState()
        c.translate(bx, by)
        c.scale(bs / (SOUL_MM * mm), bs / (SOUL_MM * mm))
        _soul_back(c, content, tile["id"], Rect(0, 0, SOUL_MM * mm, SOUL_MM * mm), 0.0)
        c.restoreState()
        _callout(c, 4, bx - 4 * mm, by + bs / 2, (bx, by + bs / 2))
        # the mat, as printed
        draw_mat(c, content, "green", mat_x, mat_y, scale=scale)
        u = mm * scale
        # the seats' row (seats of 22 with gaps of 4, centred), pointed at from either side
        seat_y = mat_y + 67 * u
        first_seat = mat_x + (MAT_W - 6 * 22 - 5 * 4) / 2 * u
        _callout(c, 5, mat_x - 4 * mm, seat_y, (first_seat, seat_y))
        last_seat = first_seat + (5 * 26 + 22) * u
        _callout(c, 6, mat_x + MAT_W * u + 4 * mm, seat_y, (last_seat, seat_y))
        _callout(c, 7, mat_x + 50 * u, mat_y - 1 * mm, (mat_x + 50 * u, mat_y + 6 * u))
        _callout(c, 8, mat_x + 139 * u, mat_y - 1 * mm, (mat_x + 139 * u, mat_y + 6 * u))
        _paint_legend(c, legend, 0)

    return Picture(width, height, paint)


# --- the table at the start of a game ---------------------------------------------------------------

def table_diagram(content, lang):
    """The 4-player side after setup, with two dark souls by every town and the wreck markers on
    the round track, and one player's things beside it; parts named by callouts."""
    from cardgen.games.spectral_rails.board import SOUL, TRACK_BOX
    from cardgen.games.spectral_rails.pieces import _leader, _wreck, draw_mat
    from cardgen.layout import Rect

    keys = ["table-board", "table-souls", "table-blue", "table-red", "table-track", "table-mat",
            "table-trail", "table-coins", "table-hand", "table-row", "table-leader"]
    width = 170 * mm
    legend, legend_h = _legend(content, lang, keys, width, columns=3)
    lay = layout(content, "four-players")
    scale = 104 / lay.width
    board_w, board_h = lay.width * scale * mm, lay.height * scale * mm
    height = board_h + legend_h + 4 * mm
    green, gl = colour_of(content, "green"), letter_of(content, "green")

    def paint(c):
        base = legend_h + 3 * mm
        u = mm * scale
        c.saveState()
        c.translate(0, base)
        draw_board(c, content, "four-players", scale=scale, labels=False)
        c.setStrokeColor(INK)
        c.setLineWidth(0.5)
        c.rect(0, 0, board_w, board_h, stroke=1, fill=0)
        # two dark soul tiles on every town's slots
        for slots in lay.soul_slots.values():
            for x, y in slots:
                c.setFillColor(DARK_SOUL)
                c.setStrokeColor(INK)
                c.setLineWidth(0.3)
                c.rect((x - SOUL / 2 + 1) * u, (y - SOUL / 2 + 1) * u, (SOUL - 2) * u, (SOUL - 2) * u, stroke=1, fill=1)
        for i, (x, y) in enumerate(lay.round_track):
            box = (TRACK_BOX - 2) * u
            _wreck(c, content, "blue" if i < 3 else "red", Rect((x - TRACK_BOX / 2 + 1) * u, (y - TRACK_BOX / 2 + 1) * u, box, box), 0.0)
        c.restoreState()
        # callouts on the board
        towns = lay.towns
        _callout(c, 1, board_w - 4 * mm, base + board_h - 4 * mm)
        sx, sy = lay.soul_slots["rhyolite"][0]
        _callout(c, 2, sx * u - 5 * mm, base + sy * u, (sx * u - (SOUL / 2) * u, base + sy * u))
        for n, key, sign in ((3, "blue_starts", -1), (4, "red_starts", 1)):
            town = lay.side[key][1]
            x, y = towns[town]
            mx, my = (x + sign * 14) * u, (y + 13) * u
            _callout(c, n, mx + sign * 5 * mm, base + my + 3 * mm, (mx + sign * 1.5 * mm, base + my + 1 * mm))
        tx, ty = lay.round_track[2]
        _callout(c, 5, (tx + TRACK_BOX / 2) * u + 4 * mm, base + ty * u, ((tx + TRACK_BOX / 2) * u, base + ty * u))
        # one player's things
        px = board_w + 5 * mm
        mat_scale = 0.24
        mat_y = base + board_h - 120 * mat_scale * mm
        draw_mat(c, content, "green", px, mat_y, scale=mat_scale)
        _callout(c, 6, px + 190 * mat_scale * mm + 2.5 * mm, mat_y + 110 * mat_scale * mm)
        # the supply: 13 trail pieces in two rows, and the coins beside them
        ty0 = mat_y - 5 * mm
        for k in range(13):
            trail_piece(c, px + 2 * mm + (k % 7) * 3.9 * mm, ty0 - (k // 7) * 3.9 * mm, 3.4 * mm, green, gl)
        _callout(c, 7, px + 2 * mm + 3.9 * mm * 6.5, ty0 - 4.6 * mm)
        cy = ty0 - 1.8 * mm
        for k in range(2):
            c.setFillColor(HexColor("#d4a017"))
            c.setStrokeColor(INK)
            c.setLineWidth(0.4)
            c.circle(px + 33 * mm + k * 5.5 * mm, cy, 2.3 * mm, stroke=1, fill=1)
        _callout(c, 8, px + 47 * mm, cy)
        # the hand: nine cards fanned
        hy = ty0 - 16 * mm
        for k, value in enumerate(sorted(card["value"] for card in content.cards if card["colour"] == "green")):
            x = px + k * 3.2 * mm
            c.setFillColor(PAPER)
            c.setStrokeColor(green)
            c.setLineWidth(0.6)
            c.roundRect(x, hy, 6 * mm, 8.5 * mm, 0.8 * mm, stroke=1, fill=1)
            c.setFillColor(green)
            c.setFont(SANS_BOLD, 6)
            c.drawString(x + 0.7 * mm, hy + 6.3 * mm, str(value))
        _callout(c, 9, px + 9 * 3.2 * mm + 6 * mm, hy + 4 * mm)
        # the row: room for used cards, left of the mat's foot
        ry = hy - 12 * mm
        c.setStrokeColor(MUTED)
        c.setDash(1.5, 1.5)
        c.setLineWidth(0.6)
        c.roundRect(px, ry, 30 * mm, 9 * mm, 1 * mm, stroke=1, fill=0)
        c.setDash()
        c.setStrokeColor(MUTED)
        c.line(px + 26 * mm, ry + 4.5 * mm, px + 4 * mm, ry + 4.5 * mm)
        c.line(px + 4 * mm, ry + 4.5 * mm, px + 6 * mm, ry + 5.8 * mm)
        c.line(px + 4 * mm, ry + 4.5 * mm, px + 6 * mm, ry + 3.2 * mm)
        _callout(c, 10, px + 33 * mm, ry + 4.5 * mm)
        # the spirit-leader marker
        lx = px + 40 * mm
        c.saveState()
        c.translate(lx, ry - 1 * mm)
        c.scale(0.45, 0.45)  # the token sheet's own drawing, at a smaller size
        _leader(c, content, "leader", Rect(0, 0, 24 * mm, 30 * mm), 0.0)
        c.restoreState()
        _callout(c, 11, lx + 13 * mm, ry + 6 * mm)
        _paint_legend(c, legend, 0)

    return Picture(width, height, paint)


# --- the turn at a glance ---------------------------------------------------------------------------

def summary_part(content, lang, styles):
    """The turn and the end of a round on one framed card, which never breaks across pages."""
    from cardgen.rulesheet import NOTE_FILL, body_flowables, tidy

    text = body_flowables(tidy(content.render_text(term(content, "summary", lang), lang)), styles)
    box = Table([[text]], colWidths=["100%"])
    box.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), font(lang)),  # an embedded font, so Helvetica stays out
        ("BACKGROUND", (0, 0), (-1, -1), NOTE_FILL),
        ("BOX", (0, 0), (-1, -1), 1.2, styles.accent),
        ("LEFTPADDING", (0, 0), (-1, -1), 10), ("RIGHTPADDING", (0, 0), (-1, -1), 10),
        ("TOPPADDING", (0, 0), (-1, -1), 8), ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
    ]))
    return [box, Spacer(1, 4)]


# --- odds ------------------------------------------------------------------------------------------

def _odds_table(content, lang, styles, cell_text):
    header = [term(content, key, lang) for key in ("odds-side", "odds-own", "odds-one")]
    cell = styles.small
    data = [[para(bold(h), cell) for h in header]]
    for row in exact_odds(content):
        data.append([para(text, cell) for text in [term(content, row["side"], lang)]
                     + [cell_text(row[key]) for key in ("own_region", "one_region")]])
    table = Table(data, colWidths=[40 * mm, 62 * mm, 62 * mm], hAlign="LEFT")
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), font(lang)),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, styles.accent),
        ("LINEBELOW", (0, 1), (-1, -2), 0.3, colors.HexColor("#c8c8c8")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]))
    return [KeepTogether([table, Spacer(1, 4)])]  # a table of two rows never splits


def odds_part(content, lang, styles):
    """The odds as whole percentages; the appendix gives them exactly."""
    return _odds_table(content, lang, styles, lambda p: f"{float(p) * 100:.0f} %")


def exact_odds_part(content, lang, styles):
    return _odds_table(content, lang, styles, lambda p: f"{p.numerator}/{p.denominator} ≈ {float(p) * 100:.1f} %")


def _fitting(draw):
    """The diagram as a picture that may shrink a little to finish a page (see FitPicture)."""
    def diagram(content, lang):
        from cardgen.games.spectral_rails.examples import FitPicture

        return FitPicture(draw(content, lang))
    return diagram


DIAGRAMS = {name: _fitting(draw) for name, draw in
            {"anatomy": anatomy_diagram, "table": table_diagram, "route": route_diagram, "row": row_diagram}.items()}
GENERATED = {"odds": odds_part, "odds-exact": exact_odds_part, "summary": summary_part}
