"""Everything of Spectral Rails that is not a card: the two sides of the board in panels over
several pages, the soul tiles (two-sided: each back shows only dark or light, so tiles drawn
from the bag stay secret), the trail pieces, coins, the spirit-leader marker, the wreck
markers and the trains on token sheets with cut lines, and the four player mats.

`plan_tokens` is pure geometry (which token goes where on which page, and where its back lands
after a duplex flip); the render functions only draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from math import floor
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.games.spectral_rails import board as board_art
from cardgen.games.spectral_rails.art import (BLUE_START, DARK_SOUL, GOLD, INK, LIGHT_SOUL, PAPER, RED_START, colour_of,
                                              ghost_train, letter_of, polygon, region_shape, region_table, term,
                                              town_table, trail_piece)
from cardgen.layout import Rect, Sheet, Slot, crop_marks, flip_axis, line_box, mirror
from cardgen.panels import plan_panels, render_panels
from cardgen.pdfdoc import CJK, PAPER_MM, SANS, SANS_BOLD, atomic_output, mm, new_canvas
from cardgen.registry import PrintedPiece
from cardgen.sheets import ruler_beside

MARGIN_MM = 10.0
TOKEN_BLEED_MM = 2.0  # art past every token's cut, fronts and backs, so a duplex error shows no white
GAP_MM = 2 * TOKEN_BLEED_MM  # neighbours' bleeds meet and never overlap
TOKEN_SAFE_MM = 3.0  # text keeps the cards' safe zone
TOKEN_TEXT_PT = 7.0
CUT_GREY = HexColor("#8a8a8a")
DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}
SOUL_MM = 26.0  # the longest town name fits inside the safe zone at 7 pt (the board's slots fit it)


@dataclass(frozen=True)
class Token:
    kind: str  # soul, trail, coin, leader, wreck, train
    key: str  # tile id, colour, "blue"/"red", ...
    w: float  # mm
    h: float
    two_sided: bool


@dataclass(frozen=True)
class Placed:
    token: Token
    rect: Rect  # points, on the front page
    back: Rect  # points, where its back lands on the backs page


def tokens(content) -> list[Token]:
    """Every token of the box, in print order."""
    out = [Token("soul", t["id"], SOUL_MM, SOUL_MM, True) for t in content.files["tiles"]["tiles"]]
    for colour in content.game["player_colours"]:
        out += [Token("trail", colour, 14, 14, False)] * 13
    out += [Token("coin", "coin", 18, 18, False)] * 8
    out.append(Token("leader", "leader", 24, 30, False))
    out += [Token("wreck", "blue", 17, 17, False)] * 3 + [Token("wreck", "red", 17, 17, False)] * 3
    out += [Token("train", colour, 28, 17, False) for colour in content.game["player_colours"]]
    return out


def plan_tokens(items: list[Token], paper: str, flip: str) -> list[list[Placed]]:
    """Shelf packing: tokens in rows left to right, a new row when one is full, a new page when
    the page is; the page is portrait. Every token keeps its bleed inside the margin. Backs are
    mirrored for the flip."""
    page_w, page_h = PAPER_MM[paper]
    edge = MARGIN_MM + TOKEN_BLEED_MM
    pages: list[list[Placed]] = [[]]
    x, y, row_h = edge, page_h - edge, 0.0
    for token in items:
        if x + token.w > page_w - edge:
            x, y, row_h = edge, y - row_h - GAP_MM, 0.0
        if y - token.h < edge:
            pages.append([])
            x, y, row_h = edge, page_h - edge, 0.0
        rect = Rect(x * mm, (y - token.h) * mm, token.w * mm, token.h * mm)
        back = mirror(rect, page_w * mm, page_h * mm, flip)
        pages[-1].append(Placed(token, rect, back))
        x += token.w + GAP_MM
        row_h = max(row_h, token.h)
    return [p for p in pages if p]


# --- token drawings (each fills its rect and its bleed `b`, in points) -----------------------------

def _centred_line(canvas, text: str, font_name: str, cx: float, y: float) -> None:
    """A line of token text at 7 pt: a text too long for its token is reported by the preflight,
    never shrunk below the print minimum."""
    canvas.setFont(font_name, TOKEN_TEXT_PT)
    canvas.drawCentredString(cx, y, text)


def _soul(canvas, content, tile_id: str, r: Rect, b: float) -> None:
    tile = next(t for t in content.files["tiles"]["tiles"] if t["id"] == tile_id)
    town = town_table(content)[tile["town"]]
    region = region_table(content)[town["region"]]
    dark = tile["kind"] == "dark"
    bleed = r.grow(b)
    canvas.setFillColor(DARK_SOUL if dark else LIGHT_SOUL)
    canvas.rect(bleed.x, bleed.y, bleed.w, bleed.h, stroke=0, fill=1)
    ink = HexColor("#ffffff") if dark else INK
    safe = TOKEN_SAFE_MM * mm
    canvas.setFillColor(HexColor(region["colour"]))
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(0.5)
    region_shape(canvas, region["shape"], r.x + r.w / 2, r.y + r.h * 0.6, 3.8 * mm)
    canvas.setFillColor(ink)
    canvas.setFont(SANS_BOLD, 8)
    canvas.drawString(r.x + safe, r.top - safe - 6, region["letter"])
    cx = r.x + r.w / 2
    _centred_line(canvas, town["name"]["en"], SANS_BOLD, cx, r.y + safe + 10)
    _centred_line(canvas, town["name"]["zh-Hant"], CJK, cx, r.y + safe + 2)


def _soul_back(canvas, content, tile_id: str, r: Rect, b: float) -> None:
    dark = tile_id.startswith("d-")
    bleed = r.grow(b)
    canvas.setFillColor(DARK_SOUL if dark else LIGHT_SOUL)
    canvas.rect(bleed.x, bleed.y, bleed.w, bleed.h, stroke=0, fill=1)
    ink = HexColor("#ffffff") if dark else INK
    canvas.setFillColor(ink)
    # a small ghost: a rounded head and a wavy hem
    cx, cy = r.x + r.w / 2, r.y + r.h / 2 + 2 * mm
    path = canvas.beginPath()
    path.moveTo(cx - 4 * mm, cy - 4 * mm)
    path.lineTo(cx - 4 * mm, cy + 1 * mm)
    path.curveTo(cx - 4 * mm, cy + 6.5 * mm, cx + 4 * mm, cy + 6.5 * mm, cx + 4 * mm, cy + 1 * mm)
    path.lineTo(cx + 4 * mm, cy - 4 * mm)
    for k in range(4):
        x1 = cx + 4 * mm - (k + 1) * 2 * mm
        path.curveTo(x1 + 1.5 * mm, cy - 2.5 * mm, x1 + 0.5 * mm, cy - 2.5 * mm, x1, cy - 4 * mm)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    _centred_line(canvas, term(content, "dark-soul" if dark else "light-soul", "en"), SANS_BOLD, cx, r.y + TOKEN_SAFE_MM * mm + 2)


def _coin(canvas, content, key, r: Rect, b: float) -> None:
    cx, cy = r.x + r.w / 2, r.y + r.h / 2
    canvas.setFillColor(GOLD)
    canvas.circle(cx, cy, r.w / 2 + b, stroke=0, fill=1)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.6)
    canvas.circle(cx, cy, r.w / 2 - 2 * mm, stroke=1, fill=0)
    canvas.setFillColor(INK)
    canvas.setFont(SANS_BOLD, 12)
    canvas.drawCentredString(cx, cy - 4, "1")


def _leader(canvas, content, key, r: Rect, b: float) -> None:
    bleed = r.grow(b)
    canvas.setFillColor(PAPER)
    canvas.rect(bleed.x, bleed.y, bleed.w, bleed.h, stroke=0, fill=1)
    inset = 2 * mm  # the stone stands inside the cut, clear of a drifting blade
    stone = Rect(r.x + inset, r.y + inset, r.w - 2 * inset, r.h - 2 * inset)
    canvas.setFillColor(HexColor("#9e9e9e"))
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.7)
    path = canvas.beginPath()
    path.moveTo(stone.x, stone.y)
    path.lineTo(stone.x, stone.top - stone.w / 2)
    path.arcTo(stone.x, stone.top - stone.w, stone.right, stone.top, 180, -180)
    path.lineTo(stone.right, stone.y)
    path.close()
    canvas.drawPath(path, stroke=1, fill=1)
    canvas.setFillColor(INK)
    cx = r.x + r.w / 2
    _centred_line(canvas, term(content, "tombstone", "en"), SANS_BOLD, cx, r.y + r.h * 0.55)
    _centred_line(canvas, term(content, "leader", "en"), SANS, cx, r.y + r.h * 0.35)
    _centred_line(canvas, term(content, "leader", "zh-Hant"), CJK, cx, r.y + r.h * 0.35 - 9)


def _wreck(canvas, content, key, r: Rect, b: float) -> None:
    colour, mark = (BLUE_START, "I") if key == "blue" else (RED_START, "II")
    bleed = r.grow(b)
    canvas.setFillColor(PAPER)
    canvas.rect(bleed.x, bleed.y, bleed.w, bleed.h, stroke=0, fill=1)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(1.2)
    canvas.rect(r.x + 1.5 * mm, r.y + 1.5 * mm, r.w - 3 * mm, r.h - 3 * mm, stroke=1, fill=0)
    ghost_train(canvas, r.x + r.w / 2, r.y + r.h * 0.58, r.w * 0.55, colour, INK)
    canvas.setStrokeColor(RED_START)
    canvas.setLineWidth(1.4)
    canvas.line(r.x + 3 * mm, r.y + 3 * mm, r.right - 3 * mm, r.top - 3 * mm)
    canvas.setFillColor(colour)
    _centred_line(canvas, mark, SANS_BOLD, r.x + r.w / 2, r.y + TOKEN_SAFE_MM * mm + 2)


def _train(canvas, content, colour, r: Rect, b: float) -> None:
    bleed = r.grow(b)
    canvas.setFillColor(PAPER)
    canvas.rect(bleed.x, bleed.y, bleed.w, bleed.h, stroke=0, fill=1)
    ghost_train(canvas, r.x + r.w * 0.4, r.y + r.h * 0.45, r.w * 0.55, colour_of(content, colour), INK)
    canvas.setFillColor(INK)
    canvas.setFont(SANS_BOLD, 9)
    canvas.drawCentredString(r.right - TOKEN_SAFE_MM * mm - 5, r.y + r.h / 2 - 3, letter_of(content, colour))


def _trail(canvas, content, colour, r: Rect, b: float) -> None:
    bleed = r.grow(b)
    canvas.setFillColor(colour_of(content, colour))
    canvas.rect(bleed.x, bleed.y, bleed.w, bleed.h, stroke=0, fill=1)
    trail_piece(canvas, r.x + r.w / 2, r.y + r.h / 2, r.w - 2 * mm, colour_of(content, colour), letter_of(content, colour))


FRONTS = {"soul": _soul, "coin": _coin, "leader": _leader, "wreck": _wreck, "train": _train, "trail": _trail}


def _cut(canvas, r: Rect, round_: bool = False) -> None:
    canvas.setStrokeColor(CUT_GREY)
    canvas.setLineWidth(0.3)
    if round_:
        canvas.circle(r.x + r.w / 2, r.y + r.h / 2, r.w / 2, stroke=1, fill=0)
    else:
        canvas.rect(r.x, r.y, r.w, r.h, stroke=1, fill=0)


def _boxes(canvas, rects: list[Rect]) -> None:
    x0 = min(r.x for r in rects)
    y0 = min(r.y for r in rects)
    x1 = max(r.right for r in rects)
    y1 = max(r.top for r in rects)
    box = tuple(round(v, 4) for v in (x0, y0, x1, y1))
    canvas.setTrimBox(box)
    canvas.setBleedBox(box)


def render_tokens(content, paper: str, flip: str, path: Path, options=None) -> None:
    """Tokens at their real size, each page of fronts followed by its backs page, the backs moved
    by the duplex correction of `options` (cardgen.sheets.SheetOptions) for a portrait page."""
    plan = plan_tokens(tokens(content), paper, flip)
    page = tuple(v * mm for v in PAPER_MM[paper])
    dx, dy = options.back_shift(*page) if options is not None else (0.0, 0.0)
    with atomic_output(path) as out:
        canvas = new_canvas(out, page, f"{content.title['en']}: tiles and tokens", DUPLEX[flip])
        for placed in plan:
            _boxes(canvas, [p.rect for p in placed])
            bleed = TOKEN_BLEED_MM * mm
            for p in placed:
                canvas.saveState()
                FRONTS[p.token.kind](canvas, content, p.token.key, p.rect, bleed)
                canvas.restoreState()
            for p in placed:  # after every front: a neighbour's bleed never covers a cut line
                _cut(canvas, p.rect, p.token.kind == "coin")
            ruler_beside(canvas, *page, [p.rect.grow(bleed) for p in placed] + [_footer_box(page)])
            _footer(canvas, content, page, "tokens-front")
            canvas.showPage()
            # the backs page: soul tiles get their backs; one-sided tokens leave their place blank
            _boxes(canvas, [p.back.moved(dx, dy) for p in placed])
            for p in placed:
                if p.token.two_sided:
                    canvas.saveState()
                    canvas.translate(dx, dy)
                    _soul_back(canvas, content, p.token.key, p.back, TOKEN_BLEED_MM * mm)
                    canvas.restoreState()
            _footer(canvas, content, page, "tokens-back")
            canvas.showPage()
        canvas.save()


def _footer_box(page) -> Rect:
    return Rect(0, 0, page[0], 7 * mm)


def _footer(canvas, content, page, key: str) -> None:
    canvas.setFillColor(HexColor("#616161"))
    canvas.setFont(SANS, 7)
    canvas.drawString(MARGIN_MM * mm, 4 * mm, term(content, key, "en"))
    canvas.setFont(CJK, 7)
    canvas.drawRightString(page[0] - MARGIN_MM * mm, 4 * mm, term(content, key, "zh-Hant"))


# --- player mats ---------------------------------------------------------------------------------

MAT_W, MAT_H = 190.0, 120.0
MAT_BLEED_MM = 3.0
BOARD_BLEED_MM = 3.0
SEATS = 6


MAT_GAP = 12.0  # mm between two mats on a page: room for both mats' crop marks


def plan_mats(paper: str) -> tuple[float, float, list[Slot]]:
    """(page width, page height, slots) in points: two mats one above the other on a portrait page."""
    page_w, page_h = PAPER_MM[paper]
    x0 = (page_w - MAT_W) / 2
    y_top = (page_h + MAT_GAP) / 2
    y_bottom = (page_h - MAT_GAP) / 2 - MAT_H
    trims = [Rect(x0 * mm, y * mm, MAT_W * mm, MAT_H * mm) for y in (y_top, y_bottom)]
    slots = [Slot(trim, trim.grow(MAT_BLEED_MM * mm)) for trim in trims]
    return page_w * mm, page_h * mm, slots


def render_mats(content, paper: str, path: Path) -> None:
    """The player mats, two to a page, with crop marks at their corners and a 100 mm ruler."""
    page_w, page_h, slots = plan_mats(paper)
    colours = list(content.game["player_colours"])
    sheet = Sheet(paper, "mats", page_w, page_h, 1, len(slots), 0.0, tuple(slots))
    with atomic_output(path) as out:
        canvas = new_canvas(out, (page_w, page_h), f"{content.title['en']}: player mats")
        for first in range(0, len(colours), len(slots)):
            on_page = list(zip(colours[first:first + len(slots)], slots))
            _boxes(canvas, [slot.trim for _, slot in on_page])
            for colour, slot in on_page:
                draw_mat(canvas, content, colour, slot.trim.x, slot.trim.y)
            marks = crop_marks(sheet, [slot for _, slot in on_page])
            canvas.setStrokeColor(INK)
            canvas.setLineWidth(0.3)
            for mark in marks:
                canvas.line(mark.x0, mark.y0, mark.x1, mark.y1)
            ruler_beside(canvas, page_w, page_h, [slot.trim for _, slot in on_page] + [line_box(m) for m in marks])
            canvas.showPage()
        canvas.save()


def draw_mat(canvas, content, colour: str, x0: float, y0: float, scale: float = 1.0) -> None:
    """A player's mat with its trim's lower-left corner at (x0, y0): a border of the player's
    colour runs from 3 mm inside the trim out over the bleed, so the cut may drift either way."""
    u = mm * scale
    hue = colour_of(content, colour)
    canvas.saveState()
    canvas.setFillColor(hue)
    b = MAT_BLEED_MM * u
    canvas.rect(x0 - b, y0 - b, MAT_W * u + 2 * b, MAT_H * u + 2 * b, stroke=0, fill=1)
    canvas.setFillColor(PAPER)
    canvas.roundRect(x0 + 3 * u, y0 + 3 * u, (MAT_W - 6) * u, (MAT_H - 6) * u, 3 * u, stroke=0, fill=1)
    ghost_train(canvas, x0 + 22 * u, y0 + 98 * u, 28 * u, hue, INK)
    canvas.setFillColor(INK)
    canvas.setFont(SANS_BOLD, 14 * scale)
    name = content.game["player_colours"][colour]["name"]
    canvas.drawString(x0 + 42 * u, y0 + 100 * u, f"{term(content, 'mat', 'en')} ({letter_of(content, colour)}: {name['en']})")
    canvas.setFont(CJK, 12 * scale)
    canvas.drawString(x0 + 42 * u, y0 + 92 * u, f"{term(content, 'mat', 'zh-Hant')}（{name['zh-Hant']}）")
    # seats
    seat, gap = 22.0, 4.0
    sx = x0 + (MAT_W - SEATS * seat - (SEATS - 1) * gap) / 2 * u
    for k in range(SEATS):
        x = sx + k * (seat + gap) * u
        canvas.setFillColor(HexColor("#ffffff"))
        canvas.setStrokeColor(hue)
        canvas.setLineWidth(1.2 * scale)
        canvas.rect(x, y0 + 56 * u, seat * u, seat * u, stroke=1, fill=1)
        canvas.setFillColor(HexColor("#9e9e9e"))
        canvas.setFont(SANS_BOLD, 14 * scale)
        canvas.drawCentredString(x + seat / 2 * u, y0 + 64 * u, str(k + 1))
        if k >= 3:
            canvas.setFillColor(INK)
            canvas.setFont(SANS, 7 * scale)
            canvas.drawCentredString(x + seat / 2 * u, y0 + 52 * u, term(content, "seat-cost", "en"))
            canvas.setFont(CJK, 7 * scale)
            canvas.drawCentredString(x + seat / 2 * u, y0 + 48.5 * u, term(content, "seat-cost", "zh-Hant"))
    canvas.setFillColor(INK)
    canvas.setFont(SANS_BOLD, 8 * scale)
    canvas.drawString(sx, y0 + 83 * u, term(content, "seats", "en"))
    canvas.setFont(CJK, 8 * scale)
    canvas.drawString(sx, y0 + 79 * u, term(content, "seats", "zh-Hant"))
    # delivered souls: left half worth 1, right half worth 2
    for k, (key, points) in enumerate((("delivered-one", "1"), ("delivered-two", "2"))):
        x = x0 + (8 + k * 89) * u
        canvas.setFillColor(HexColor("#f1ead8"))
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.8 * scale)
        canvas.roundRect(x, y0 + 6 * u, 85 * u, 36 * u, 3 * u, stroke=1, fill=1)
        canvas.setFillColor(INK)
        canvas.setFont(SANS_BOLD, 22 * scale)
        canvas.drawString(x + 4 * u, y0 + 30 * u, points)
        canvas.setFont(SANS, 8 * scale)
        canvas.drawString(x + 14 * u, y0 + 35 * u, term(content, key, "en"))
        canvas.setFont(CJK, 8 * scale)
        canvas.drawString(x + 14 * u, y0 + 30.5 * u, term(content, key, "zh-Hant"))
    canvas.restoreState()


# --- the board -----------------------------------------------------------------------------------

def render_board(content, side_id: str, paper: str, path: Path) -> None:
    lay = board_art.layout(content, side_id)
    plan = plan_panels(lay.width, lay.height, paper, bleed_mm=BOARD_BLEED_MM)
    draw = partial(board_art.draw_board, content=content, side_id=side_id, bleed=BOARD_BLEED_MM)
    title = f"{content.title['en']}: {term(content, side_id, 'en')}"
    render_panels(path, plan, lambda canvas: draw(canvas), title,
                  caption=lambda panel: f"{content.title['en']} · {term(content, side_id, 'en')} · 1:1")


def parts_to_check(content) -> list[PrintedPiece]:
    """Each distinct token (soul tiles front and back), each player's mat and each side of the
    board, as the preflight draws them."""
    pieces: list[PrintedPiece] = []
    token_bleed, seen = TOKEN_BLEED_MM * mm, set()
    for token in tokens(content):
        if (token.kind, token.key) in seen:
            continue
        seen.add((token.kind, token.key))
        shape = "round" if token.kind == "coin" else "rect"
        name = f"{token.kind} {token.key}"
        pieces.append(PrintedPiece("tokens", name + (" (front)" if token.two_sided else ""), token.w * mm, token.h * mm,
                                   partial(_draw_token, FRONTS[token.kind], content, token.key, bleed=token_bleed),
                                   token_bleed, TOKEN_SAFE_MM * mm, shape))
        if token.two_sided:
            pieces.append(PrintedPiece("tokens", name + " (back)", token.w * mm, token.h * mm,
                                       partial(_draw_token, _soul_back, content, token.key, bleed=token_bleed),
                                       token_bleed, TOKEN_SAFE_MM * mm, shape))
    for colour in content.game["player_colours"]:
        pieces.append(PrintedPiece("mats", f"mat {colour}", MAT_W * mm, MAT_H * mm,
                                   lambda canvas, trim, colour=colour: draw_mat(canvas, content, colour, trim.x, trim.y),
                                   MAT_BLEED_MM * mm, TOKEN_SAFE_MM * mm))
    for side in content.files["map"]["sides"]:
        lay = board_art.layout(content, side["id"])
        pieces.append(PrintedPiece("board", f"board {side['players']}p", lay.width * mm, lay.height * mm,
                                   partial(_draw_board_at, content, side["id"]), BOARD_BLEED_MM * mm, TOKEN_SAFE_MM * mm))
    return pieces


def _draw_token(draw, content, key: str, canvas, trim: Rect, bleed: float) -> None:
    draw(canvas, content, key, trim, bleed)


def _draw_board_at(content, side_id: str, canvas, trim: Rect) -> None:
    canvas.translate(trim.x, trim.y)
    board_art.draw_board(canvas, content, side_id, bleed=BOARD_BLEED_MM)


def extra_outputs(content, game_dir: Path, paper: str, flip: str, options=None):
    outputs = []
    for side in content.files["map"]["sides"]:
        players = side["players"]
        outputs.append((game_dir / f"board-{players}p-{paper}.pdf", partial(render_board, content, side["id"], paper)))
    outputs.append((game_dir / f"tokens-{paper}.pdf", partial(render_tokens, content, paper, flip, options=options)))
    outputs.append((game_dir / f"mats-{paper}.pdf", partial(render_mats, content, paper)))
    return outputs
