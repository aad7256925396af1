"""Flamme Rouge player boards and rider tokens: the printed parts of the game that are not cards.

One PDF per paper (`boards-<paper>.pdf`): a page per team with its player board, then a page of
the eight riders, each as a fold-over standee and as a flat square counter, in the team colours.
A board holds a team's two decks as the seed describes them, the sprinteur on the left and the
rouleur on the right, each with a face-down energy deck space and a face-up recycled space, under
a short summary of the round. Places are computed first (pure geometry, in points) and drawn
afterwards; each piece has a 3 mm bleed, crop marks clear of it, and page TrimBox and BleedBox.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Paragraph

from cardgen.faces import INK, SAFE_ZONE_MM, clip_to_bleed
from cardgen.games.flamme_rouge.faces import (
    PAPER, draw_drop, draw_fitted, draw_flag, draw_rider_badge, mix, rider_label, team_colour, team_label, words,
)
from cardgen.markup import join, para, plain, styled
from cardgen.layout import Rect, Sheet, Slot, crop_marks, page_boxes
from cardgen.pdfdoc import CJK, PAPER_MM, SANS, SANS_BOLD, atomic_output, mm, new_canvas
from cardgen.errors import UsageError

BLEED = 3 * mm
# The board: two card columns side by side with the round's summary underneath; sized so that
# with its bleed and crop marks it fits inside the printable part of both A4 and Letter.
BOARD_W_MM, BOARD_H_MM = 186.0, 250.0
CARD_SPACE_MM = (63.0, 88.0)  # a space exactly the size of a card, drawn as a dashed outline
# A standee is one strip folded into a tent: foot, face, face, foot. The feet fold inwards and
# meet under the tent, so it stands on 2 feet x the strip's width (24 x 20 mm): one lane (22 mm)
# of one square (33 mm), with room for the riders around it.
STANDEE_W_MM = 20.0
STANDEE_FOOT_MM = 12.0
STANDEE_FACE_MM = 26.0


def standee_footprint_mm() -> tuple[float, float]:
    """(along the road, across it) of a folded standee: the feet meet under the tent."""
    return 2 * STANDEE_FOOT_MM, STANDEE_W_MM
COUNTER_MM = 18.0  # a flat square counter, for those who would rather not fold
PIECE_GAP = 4 * mm  # between neighbouring bleeds, leaving room for crop marks
# The board from top to foot: head band, gap, each column's rider heading, the energy deck space,
# a gap, the recycled space, a gap, the phase strip. Two card spaces take 176 of the 250 mm, so
# the rest is budgeted to the millimetre; the strip holds three lines of English and two of Chinese.
BAND_MM = 20.0
BAND_GAP_MM = 2.0
COLUMN_HEAD_MM = 14.0
SPACE_GAP_MM = 3.0
STRIP_MM = 33.0

# The round in brief, per phase, in both languages (terms of rules.yaml); the board shows all three
# under the decks.
PHASES = ("energy", "movement", "end")


@dataclass(frozen=True)
class TokenPlace:
    """Where one rider's standee and counter go on the tokens page."""

    team: str
    rider: str
    standee: Slot
    counter: Slot


def page_size(paper: str) -> tuple[float, float]:
    if paper not in PAPER_MM:
        raise UsageError(f"unknown paper {paper!r}; choose one of {', '.join(PAPER_MM)}")
    width, height = PAPER_MM[paper]
    return width * mm, height * mm


@dataclass(frozen=True)
class BoardPlan:
    """Where the parts of a player board go, in points: the head band, the phase strip along the
    foot, and per column (sprinteur, rouleur) its area under the band and its two card spaces."""

    band: Rect
    strip: Rect
    columns: tuple[Rect, Rect]
    energy: tuple[Rect, Rect]
    recycled: tuple[Rect, Rect]


def board_plan(trim: Rect) -> BoardPlan:
    """Lay out a board inside its trim; pure geometry, so a test can check that nothing overlaps."""
    band = Rect(trim.x, trim.top - BAND_MM * mm, trim.w, BAND_MM * mm)
    strip = Rect(trim.x, trim.y, trim.w, STRIP_MM * mm)
    column_w = (trim.w - 18 * mm) / 2
    top = band.y - BAND_GAP_MM * mm
    card_w, card_h = CARD_SPACE_MM[0] * mm, CARD_SPACE_MM[1] * mm
    columns, energy, recycled = [], [], []
    for x in (trim.x + 6 * mm, trim.x + 12 * mm + column_w):
        columns.append(Rect(x, strip.top, column_w, top - strip.top))
        sx = x + (column_w - card_w) / 2
        energy_y = top - COLUMN_HEAD_MM * mm - card_h
        energy.append(Rect(sx, energy_y, card_w, card_h))
        recycled.append(Rect(sx, energy_y - SPACE_GAP_MM * mm - card_h, card_w, card_h))
    return BoardPlan(band, strip, tuple(columns), tuple(energy), tuple(recycled))


def _slot(x: float, y: float, w: float, h: float) -> Slot:
    trim = Rect(x, y, w, h)
    return Slot(trim=trim, bleed=trim.grow(BLEED))


def board_slot(paper: str) -> Slot:
    """The board's place on a portrait page: centred."""
    page_w, page_h = page_size(paper)
    w, h = BOARD_W_MM * mm, BOARD_H_MM * mm
    return _slot((page_w - w) / 2, (page_h - h) / 2, w, h)


def token_places(paper: str, teams: list[str]) -> list[TokenPlace]:
    """Standees in rows of four (two teams a row, a team's sprinteur then its rouleur), the
    counters in a block of two columns to their right; the whole group centred on the page."""
    page_w, page_h = page_size(paper)
    sw, sh = STANDEE_W_MM * mm, (2 * STANDEE_FOOT_MM + 2 * STANDEE_FACE_MM) * mm
    cd = COUNTER_MM * mm
    per_row = 4
    rows = -(-len(teams) * 2 // per_row)
    standee_pitch_x = sw + 2 * BLEED + PIECE_GAP
    standee_pitch_y = sh + 2 * BLEED + PIECE_GAP
    counter_pitch = cd + 2 * BLEED + PIECE_GAP
    counter_rows = -(-len(teams) * 2 // 2)
    block_w = per_row * standee_pitch_x + 2 * counter_pitch + 2 * mm
    block_h = max(rows * standee_pitch_y, counter_rows * counter_pitch) - PIECE_GAP
    left = (page_w - block_w) / 2 + BLEED
    counter_left = left + per_row * standee_pitch_x + 2 * mm
    top = (page_h + block_h) / 2 - BLEED - 24 * mm  # room above for how to make them
    places = []
    for i, (team, rider) in enumerate((t, r) for t in teams for r in ("sprinteur", "rouleur")):
        row, column = divmod(i, per_row)
        standee = _slot(left + column * standee_pitch_x, top - sh - row * standee_pitch_y, sw, sh)
        c_row, c_column = divmod(i, 2)
        counter = _slot(counter_left + c_column * counter_pitch, top - cd - c_row * counter_pitch, cd, cd)
        places.append(TokenPlace(team, rider, standee, counter))
    return places


def _sheet(paper: str, slots: list[Slot]) -> Sheet:
    """A layout Sheet for crop marks: only the page size and the pieces' slots matter."""
    page_w, page_h = page_size(paper)
    return Sheet(paper, "shop", page_w, page_h, 1, len(slots), BLEED, tuple(slots))


def _finish_page(canvas, paper: str, slots: list[Slot]) -> None:
    trim, bleed = page_boxes(slots)
    canvas.setTrimBox(trim.box())
    canvas.setBleedBox(bleed.box())
    canvas.saveState()
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.3)
    for line in crop_marks(_sheet(paper, slots), slots):
        canvas.line(line.x0, line.y0, line.x1, line.y1)
    canvas.restoreState()
    canvas.showPage()


# --- the player board ----------------------------------------------------------------------------

def _dashed_space(canvas, x: float, y: float, w: float, h: float, colour: Color, fill: Color) -> None:
    canvas.saveState()
    canvas.setFillColor(fill)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(1.0)
    canvas.setDash(4, 3)
    canvas.roundRect(x, y, w, h, 3 * mm, stroke=1, fill=1)
    canvas.restoreState()


def _card_icon(canvas, x: float, y: float, colour: Color, face_up: bool) -> None:
    """A tiny card: striped when face down, with a number when face up."""
    w, h = 7 * mm, 9.5 * mm
    canvas.saveState()
    canvas.setFillColor(colour if not face_up else white)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(0.8)
    canvas.roundRect(x, y, w, h, 1 * mm, stroke=1, fill=1)
    if face_up:
        canvas.setFillColor(colour)
        canvas.setFont(SANS_BOLD, 13)
        canvas.drawCentredString(x + w / 2, y + h / 2 - 4.5, "4")
    else:
        canvas.setStrokeColor(white)
        canvas.setLineWidth(0.6)
        for k in range(1, 4):
            canvas.line(x + 1 * mm, y + k * h / 4, x + w - 1 * mm, y + k * h / 4)
    canvas.restoreState()


def _deck_column(canvas, content, team: str, rider: str, column: Rect, energy: Rect, recycled: Rect) -> None:
    """One rider's half of the board: heading, energy deck space above, recycled space below."""
    colour = team_colour(content, team)
    tint = mix(colour, PAPER, 0.9)
    x, y_top, width = column.x, column.top, column.w
    cx = x + width / 2
    draw_rider_badge(canvas, rider, x + 8 * mm, y_top - 7 * mm, 12 * mm, colour, white)
    canvas.setFillColor(INK)
    draw_fitted(canvas, rider_label(content, rider, "en").upper(), SANS_BOLD, 14, x + 16 * mm, y_top - 6.5 * mm,
                width - 16 * mm, align="left")
    draw_fitted(canvas, rider_label(content, rider, "zh-Hant"), CJK, 11, x + 16 * mm, y_top - 12 * mm,
                width - 16 * mm, align="left")
    card_w, card_h = energy.w, energy.h
    spaces = [
        (energy, False) + tuple(words(content, k, lang) for k in ("energy-deck", "face-down") for lang in ("en", "zh-Hant")),
        (recycled, True) + tuple(words(content, k, lang) for k in ("recycled", "face-up") for lang in ("en", "zh-Hant")),
    ]
    for space, face_up, en, zh, en_note, zh_note in spaces:
        sx, sy = space.x, space.y
        _dashed_space(canvas, sx, sy, card_w, card_h, colour, tint if not face_up else white)
        if not face_up:
            draw_rider_badge(canvas, rider, cx, sy + card_h * 0.56, 30 * mm, mix(colour, PAPER, 0.75), tint)
        else:
            _recycle_arrows(canvas, cx, sy + card_h * 0.56, 13 * mm, mix(colour, PAPER, 0.6))
        _card_icon(canvas, cx - 3.5 * mm, sy + card_h - 15 * mm, colour, face_up)
        canvas.setFillColor(colour)
        draw_fitted(canvas, en, SANS_BOLD, 11, cx, sy + 20 * mm, card_w - 8 * mm)
        canvas.setFillColor(INK)
        draw_fitted(canvas, en_note, SANS, 8.5, cx, sy + 15.5 * mm, card_w - 8 * mm)
        draw_fitted(canvas, f"{zh} · {zh_note}", CJK, 9, cx, sy + 9 * mm, card_w - 8 * mm)


def _recycle_arrows(canvas, cx: float, cy: float, size: float, colour: Color) -> None:
    """Two arrows chasing each other round a circle: used cards come back to the deck."""
    r = size / 2
    canvas.saveState()
    canvas.setStrokeColor(colour)
    canvas.setFillColor(colour)
    canvas.setLineWidth(size * 0.12)
    canvas.setLineCap(1)
    for start in (20, 200):
        path = canvas.beginPath()
        path.arc(cx - r, cy - r, cx + r, cy + r, startAng=start, extent=130)
        canvas.drawPath(path, stroke=1, fill=0)
    for end in (150, 330):
        a = math.radians(end)
        tip_x, tip_y = cx + r * math.cos(a), cy + r * math.sin(a)
        tangent = a + math.pi / 2
        head = canvas.beginPath()
        head.moveTo(tip_x + 0.35 * size * math.cos(tangent), tip_y + 0.35 * size * math.sin(tangent))
        head.lineTo(tip_x + 0.2 * size * math.cos(a), tip_y + 0.2 * size * math.sin(a))
        head.lineTo(tip_x - 0.2 * size * math.cos(a), tip_y - 0.2 * size * math.sin(a))
        head.close()
        canvas.drawPath(head, stroke=0, fill=1)
    canvas.restoreState()


def draw_board(canvas, content, team: str, slot: Slot) -> None:
    """One team's player board, art reaching the bleed, text inside a 6 mm safe margin."""
    colour = team_colour(content, team)
    ink = white
    trim, bleed = slot.trim, slot.bleed
    plan = board_plan(trim)
    canvas.saveState()
    clip_to_bleed(canvas, trim, trim.x - bleed.x)
    canvas.setFillColor(PAPER)
    canvas.rect(bleed.x, bleed.y, bleed.w, bleed.h, stroke=0, fill=1)
    # Head band: the team, the game and the red kite.
    band_h = plan.band.h
    canvas.setFillColor(colour)
    canvas.rect(bleed.x, trim.top - band_h, bleed.w, band_h + BLEED, stroke=0, fill=1)
    draw_flag(canvas, trim.x + 8 * mm, trim.top - band_h + 4 * mm, 13 * mm, ink, HexColor("#e53935"))
    canvas.setFillColor(ink)
    draw_fitted(canvas, team_label(content, team, "en").upper(), SANS_BOLD, 22, trim.x + 22 * mm, trim.top - 10.5 * mm,
                90 * mm, align="left")
    draw_fitted(canvas, team_label(content, team, "zh-Hant"), CJK, 13, trim.x + 22 * mm, trim.top - 16.5 * mm,
                60 * mm, align="left")
    draw_fitted(canvas, content.title["en"], SANS_BOLD, 12, trim.right - 6 * mm, trim.top - 9.5 * mm, 70 * mm,
                align="right")
    draw_fitted(canvas, content.title["zh-Hant"], CJK, 10, trim.right - 6 * mm, trim.top - 15.5 * mm, 70 * mm,
                align="right")
    # The two decks: sprinteur left, rouleur right, as the rules place them.
    for rider, column, energy, recycled in zip(("sprinteur", "rouleur"), plan.columns, plan.energy, plan.recycled):
        _deck_column(canvas, content, team, rider, column, energy, recycled)
    canvas.setStrokeColor(mix(colour, PAPER, 0.6))
    canvas.setLineWidth(0.8)
    mid = trim.x + trim.w / 2
    canvas.line(mid, plan.columns[0].top - 2 * mm, mid, plan.strip.top + 4 * mm)
    _phase_strip(canvas, content, trim, colour, plan.strip.h)
    canvas.restoreState()


def _phase_strip(canvas, content, trim: Rect, colour: Color, strip_h: float) -> None:
    """The round in three phases along the foot of the board, English above Chinese."""
    canvas.setFillColor(mix(colour, PAPER, 0.85))
    canvas.rect(trim.x - BLEED, trim.y - BLEED, trim.w + 2 * BLEED, strip_h + BLEED, stroke=0, fill=1)
    gap = 4 * mm
    width = (trim.w - 12 * mm - 2 * gap) / 3
    heading = ParagraphStyle("h", fontName=SANS_BOLD, fontSize=9.5, leading=12, textColor=colour)
    body = ParagraphStyle("b", fontName=SANS, fontSize=7.6, leading=9.4, textColor=INK)
    zh_body = ParagraphStyle("z", fontName=CJK, fontSize=7.6, leading=10, textColor=INK, wordWrap="CJK")
    for i, phase in enumerate(PHASES):
        title, zh_title = (words(content, f"board-{phase}-head", lang) for lang in ("en", "zh-Hant"))
        text, zh_text = (words(content, f"board-{phase}", lang) for lang in ("en", "zh-Hant"))
        x = trim.x + 6 * mm + i * (width + gap)
        top = trim.y + strip_h - 3.5 * mm
        if i == len(PHASES) - 1:
            # The drop (an exhaustion card) follows the End heading, clear of the text under it.
            heading_w = (pdfmetrics.stringWidth(f"{title} · ", SANS_BOLD, 9.5)
                         + pdfmetrics.stringWidth(zh_title, CJK, 9.5))
            draw_drop(canvas, x + heading_w + 4 * mm, top - 2 * mm, 4.5 * mm, HexColor("#4fa3d9"))
        for paragraph in (para(join(plain(f"{title} · "), styled(zh_title, font=CJK)), heading),
                          para(text, body), para(zh_text, zh_body)):
            _, used = paragraph.wrap(width, strip_h)
            paragraph.drawOn(canvas, x, top - used)
            top -= used + 1 * mm


# --- the riders ----------------------------------------------------------------------------------

def team_pips(content, team: str) -> int:
    """How many pips mark a team's riders (1 for the first team in game.yaml, 2 for the next...):
    teams told apart without their colours."""
    return teams_of(content).index(team) + 1


def _draw_pips(canvas, count: int, cx: float, cy: float, size: float) -> None:
    """`count` white pips in a row centred on (cx, cy)."""
    gap = size * 1.6
    canvas.setFillColor(white)
    for k in range(count):
        canvas.circle(cx + (k - (count - 1) / 2) * gap, cy, size / 2, stroke=0, fill=1)


def _rider_panel(canvas, content, team: str, rider: str, x: float, y: float, w: float, h: float) -> None:
    """One face of a standee: the team colour, the rider badge, a big R or S and the team's pips."""
    colour = team_colour(content, team)
    canvas.setFillColor(colour)
    canvas.rect(x, y, w, h, stroke=0, fill=1)
    draw_rider_badge(canvas, rider, x + w / 2, y + h * 0.6, w * 0.6, white, colour)
    _draw_pips(canvas, team_pips(content, team), x + w / 2, y + h * 0.93, 1.6 * mm)
    canvas.setFillColor(white)
    canvas.setFont(SANS_BOLD, 15)
    canvas.drawCentredString(x + w / 2, y + h * 0.2, rider[0].upper())
    draw_fitted(canvas, rider_label(content, rider, "zh-Hant"), CJK, 7, x + w / 2, y + h * 0.05, w - 2 * mm)


def draw_standee(canvas, content, team: str, rider: str, slot: Slot) -> None:
    """A strip that folds into a tent: foot, face, face turned upside down, foot. Folded at the
    dashed lines, both faces stand upright and the feet keep it on its lane."""
    colour = team_colour(content, team)
    trim, bleed = slot.trim, slot.bleed
    foot, face = STANDEE_FOOT_MM * mm, STANDEE_FACE_MM * mm
    canvas.saveState()
    clip_to_bleed(canvas, trim, trim.x - bleed.x)
    canvas.setFillColor(colour)
    canvas.rect(bleed.x, bleed.y, bleed.w, bleed.h, stroke=0, fill=1)
    # The feet are a lighter shade, so it is plain which ends fold outwards and stay on the table.
    canvas.setFillColor(mix(colour, white, 0.35))
    canvas.rect(bleed.x, bleed.y, bleed.w, BLEED + foot, stroke=0, fill=1)
    canvas.rect(bleed.x, trim.top - foot, bleed.w, BLEED + foot, stroke=0, fill=1)
    _rider_panel(canvas, content, team, rider, trim.x, trim.y + foot, trim.w, face)
    canvas.saveState()
    canvas.translate(trim.x + trim.w, trim.y + foot + 2 * face)
    canvas.rotate(180)
    _rider_panel(canvas, content, team, rider, 0, 0, trim.w, face)
    canvas.restoreState()
    canvas.setStrokeColor(white)
    canvas.setLineWidth(0.5)
    canvas.setDash(2, 1.5)
    for fy in (foot, foot + face, foot + 2 * face):
        canvas.line(trim.x, trim.y + fy, trim.right, trim.y + fy)
    canvas.restoreState()


def draw_counter(canvas, content, team: str, rider: str, slot: Slot) -> None:
    """A flat square counter, for players who would rather not fold; art bleeds past its trim."""
    colour = team_colour(content, team)
    trim, bleed = slot.trim, slot.bleed
    canvas.saveState()
    canvas.setFillColor(colour)
    canvas.rect(bleed.x, bleed.y, bleed.w, bleed.h, stroke=0, fill=1)
    cx, cy = trim.x + trim.w / 2, trim.y + trim.h / 2
    draw_rider_badge(canvas, rider, cx, cy + 1.2 * mm, trim.w * 0.4, white, colour)
    canvas.setFillColor(white)
    canvas.setFont(SANS_BOLD, 8)
    # the letter's descent stays outside the 3 mm safe zone along the cut
    canvas.drawCentredString(cx, trim.y + SAFE_ZONE_MM * mm + 2, rider[0].upper())
    _draw_pips(canvas, team_pips(content, team), cx, trim.top - 2.0 * mm, 1.3 * mm)
    canvas.restoreState()


# --- the file ------------------------------------------------------------------------------------

def teams_of(content) -> list[str]:
    return list(content.game["team_colours"])


def render_boards(content, path: Path, paper: str) -> Path:
    """Write the boards and tokens PDF for `paper`: one page per team board, then the riders."""
    width, height = page_size(paper)
    title = f"{content.title['en']} – player boards and riders ({paper})"
    with atomic_output(Path(path)) as buffer:
        canvas = new_canvas(buffer, (width, height), title)
        slot = board_slot(paper)
        for team in teams_of(content):
            draw_board(canvas, content, team, slot)
            _finish_page(canvas, paper, [slot])
        places = token_places(paper, teams_of(content))
        for place in places:
            draw_standee(canvas, content, place.team, place.rider, place.standee)
            draw_counter(canvas, content, place.team, place.rider, place.counter)
        _token_notes(canvas, content, paper, places)
        _finish_page(canvas, paper, [p.standee for p in places] + [p.counter for p in places])
        canvas.save()
    return Path(path)


def _token_notes(canvas, content, paper: str, places: list[TokenPlace]) -> None:
    """How to make the riders, printed above the pieces (outside every bleed)."""
    page_w, _ = page_size(paper)
    top = max(p.standee.bleed.top for p in places)
    canvas.setFillColor(INK)
    canvas.setFont(SANS_BOLD, 11)
    canvas.drawRightString(page_w / 2 - 1 * mm, top + 48 * mm, words(content, "riders", "en"))
    canvas.setFont(CJK, 11)
    canvas.drawString(page_w / 2 + 1 * mm, top + 48 * mm, words(content, "riders", "zh-Hant"))
    width = page_w - 40 * mm
    y = top + 44 * mm
    for key in ("riders-fold", "riders-counters"):
        for lang, font in (("en", SANS), ("zh-Hant", CJK)):
            paragraph = para(words(content, key, lang), ParagraphStyle(
                "note", fontName=font, fontSize=8, leading=10, textColor=INK, alignment=1,
                wordWrap="CJK" if lang != "en" else None))
            _, used = paragraph.wrap(width, 40 * mm)
            paragraph.drawOn(canvas, 20 * mm, y - used)
            y -= used + 0.8 * mm


__all__ = ["render_boards", "board_slot", "board_plan", "BoardPlan", "token_places", "draw_board", "draw_standee", "draw_counter",
           "BOARD_W_MM", "BOARD_H_MM", "BLEED", "TokenPlace", "standee_footprint_mm"]
