"""The balance lab's report: a PDF a designer reads to see whether a game is fair and how much each
reading of an open rule matters. For every player count: win rate by seat with 95 % intervals, the
spread of game lengths, the games stopped by the cap, and each ruling's other reading played on the
same seeded games (how often the winner, the finishing order and the length changed).

Charts are drawn with reportlab's own graphics; the measurements come from `verify.lab`.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import KeepTogether, SimpleDocTemplate, Spacer, Table, TableStyle

from cardgen.markup import para
from cardgen.pdfdoc import PAPER_MM, SANS, SANS_BOLD, atomic_output, mm, register_latin_fonts
from cardgen.words import counted
from verify.compare import wilson
from verify.lab import DEFAULT, LabReport
from verify.oddscheck import Z_LIMIT

INK = colors.HexColor("#222222")
BAR = colors.HexColor("#4a7ab5")
WHISKER = colors.HexColor("#1d2f47")
GRID = colors.HexColor("#d0d0d0")

BODY = ParagraphStyle("body", fontName=SANS, fontSize=9.5, leading=13, textColor=INK)
SMALL = ParagraphStyle("small", parent=BODY, fontSize=8.5, leading=11)
SMALL_BOLD = ParagraphStyle("small-bold", parent=SMALL, fontName=SANS_BOLD)
HEADING = ParagraphStyle("heading", parent=BODY, fontName=SANS_BOLD, fontSize=13, leading=17, spaceBefore=8, spaceAfter=4)
TITLE = ParagraphStyle("title", parent=BODY, fontName=SANS_BOLD, fontSize=18, leading=23, spaceAfter=6)


def _percent(value: float) -> str:
    return f"{100 * value:.1f} %"


def win_rate_chart(rates: list[tuple[str, float, float, float]], width: float, height: float = 55 * mm) -> Drawing:
    """Bars of each seat's win rate, with its 95 % interval as a whisker, on a 0-100 % scale."""
    drawing = Drawing(width, height)
    left, bottom, top = 12 * mm, 8 * mm, height - 4 * mm
    span = top - bottom
    for tick in range(0, 101, 25):
        y = bottom + span * tick / 100
        drawing.add(Line(left, y, width, y, strokeColor=GRID, strokeWidth=0.5))
        drawing.add(String(left - 2, y - 3, f"{tick} %", fontName=SANS, fontSize=7, textAnchor="end"))
    slot = (width - left) / max(1, len(rates))
    for i, (seat, rate, low, high) in enumerate(rates):
        x = left + slot * i + slot * 0.2
        drawing.add(Rect(x, bottom, slot * 0.6, span * rate, fillColor=BAR, strokeColor=None))
        centre = x + slot * 0.3
        drawing.add(Line(centre, bottom + span * low, centre, bottom + span * high, strokeColor=WHISKER, strokeWidth=1))
        for y in (low, high):
            drawing.add(Line(centre - 4, bottom + span * y, centre + 4, bottom + span * y, strokeColor=WHISKER, strokeWidth=1))
        drawing.add(String(centre, bottom - 7, seat, fontName=SANS, fontSize=8, textAnchor="middle"))
    return drawing


def length_chart(lengths: list[int], width: float, height: float = 50 * mm, bins: int = 20) -> Drawing:
    """A histogram of game lengths in actions."""
    drawing = Drawing(width, height)
    if not lengths:
        return drawing
    left, bottom, top = 12 * mm, 8 * mm, height - 4 * mm
    low, high = min(lengths), max(lengths)
    # Lengths often come in steps (a round of four actions): bins never finer than the values seen.
    bins = max(1, min(bins, len(set(lengths))))
    size = max(1, -(-(high - low + 1) // bins))
    counts = Counter((n - low) // size for n in lengths)
    most = max(counts.values())
    slots = (high - low) // size + 1
    slot = (width - left) / slots
    for k, count in counts.items():
        h = (top - bottom) * count / most
        drawing.add(Rect(left + k * slot + 0.5, bottom, max(0.5, slot - 1), h, fillColor=BAR, strokeColor=None))
    drawing.add(Line(left, bottom, width, bottom, strokeColor=INK, strokeWidth=0.5))
    # The first length of every few bins under the bin's left edge, at least 12 mm apart; the last
    # length seen at the right end.
    every = max(1, math.ceil(12 * mm / slot))
    for k in range(0, slots, every):
        x = left + k * slot
        if width - x > 24 * mm:  # clear of the last label
            drawing.add(Line(x, bottom, x, bottom - 2, strokeColor=INK, strokeWidth=0.5))
            drawing.add(String(x, bottom - 9, str(low + k * size), fontName=SANS, fontSize=7, textAnchor="middle"))
    drawing.add(String(width, bottom - 9, f"longest {high} actions", fontName=SANS, fontSize=7, textAnchor="end"))
    drawing.add(String(left - 2, top - 6, str(most), fontName=SANS, fontSize=7, textAnchor="end"))
    drawing.add(String(left - 2, bottom, "0", fontName=SANS, fontSize=7, textAnchor="end"))
    return drawing


def _table(rows: list[list], widths: list[float], extra: list | None = None) -> Table:
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS), ("FONTNAME", (0, 0), (-1, 0), SANS_BOLD),
        ("FONTSIZE", (0, 0), (-1, -1), 8.5), ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f2f2f2")]),
        ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3), *(extra or []),
    ]))
    return table


def _changed(count: int, games: int) -> str:
    low, high = wilson(count, games)
    return f"{count} ({100 * low:.0f}-{100 * high:.0f} %)"


def _policy_note(report: LabReport) -> str:
    if report.policy == "greedy" and not report.scored:
        return ("This game's rules engine scores no position, so greedy play is random play here: every "
                "player picks any legal action. The figures show how the rules behave under random play, "
                "not under consistent play.")
    if report.policy == "greedy":
        return ("Greedy play is the strongest single-move choice for each player; it shows how the rules "
                "behave under consistent play, not how people play.")
    return "Random play: every player picks any legal action; it shows what the rules allow, not how people play."


def story(report: LabReport, width: float) -> list:
    flow = [para(f"Balance report: {report.name}", TITLE),
            para(f"{counted(report.games, 'game')} of {report.game} for each player count and for each reading, "
                 f"{report.policy} play, seed {report.seed}, stopped after {report.turn_cap} actions. Intervals "
                 f"are 95 % Wilson intervals. {_policy_note(report)}", BODY)]
    for players, sim in report.by_players.items():
        rows = [["Seat", "Wins", "Win rate", "95 % interval"]]
        rows += [[seat, sim.wins[seat], _percent(rate), f"{_percent(low)} - {_percent(high)}"]
                 for seat, rate, low, high in report.win_rates(players)]
        capped_low, capped_high = wilson(sim.capped, sim.games)
        facts = (f"Shared first places: {sim.shared}. Games stopped by the cap: {sim.capped} of {sim.games} "
                 f"({_percent(capped_low)} - {_percent(capped_high)}). Broken invariants: {len(sim.failures)}. "
                 f"Length: mean {sim.mean_length:.1f} actions, shortest {sim.min_length}, longest {sim.max_length}.")
        flow += [KeepTogether([para(f"{players} players", HEADING), para("Win rate by seat", SMALL),
                               win_rate_chart(report.win_rates(players), width),
                               _table(rows, [25 * mm, 25 * mm, 30 * mm, 50 * mm]), Spacer(1, 4),
                               para(facts, SMALL)]),
                 KeepTogether([Spacer(1, 6), para("Game length (actions per game)", SMALL),
                               length_chart(sim.lengths, width)])]
        comparisons = report.readings.get(players, [])
        if comparisons:
            # The figures' headings wrap in their narrow columns; a reading's parameters get a line
            # of their own; a reading some player counts cannot play says so across the figures.
            rows = [[para(text, SMALL_BOLD) for text in
                     ("Ruling", "Other reading", "Winner changed", "Order changed", "Length changed")]]
            spans = []
            for reading, comparison in comparisons:
                if not isinstance(comparison, str) and not comparison.differed:
                    comparison = (f"never came into play: every game went action for action as under the rule "
                                  f"{DEFAULT}")
                if isinstance(comparison, str):
                    spans.append(("SPAN", (2, len(rows)), (4, len(rows))))
                    rows.append([para(reading.ruling, SMALL), para(reading.label, SMALL),
                                 para(comparison, SMALL), "", ""])
                    continue
                rows.append([para(reading.ruling, SMALL), para(reading.label, SMALL),
                             _changed(comparison.winner_changed, comparison.games),
                             _changed(comparison.order_changed, comparison.games),
                             _changed(comparison.length_changed, comparison.games)])
            flow += [Spacer(1, 6), para(f"Each ruling's other reading against the rule {DEFAULT}, "
                                        f"on the same {report.games} seeded games", SMALL),
                     _table(rows, [41 * mm, 55 * mm, 26 * mm, 26 * mm, 26 * mm], spans)]
    if report.odds:
        flow += odds_part(report.odds)
    return flow


def odds_part(checks: list) -> list:
    """The exact odds the rule sheet prints beside what freshly dealt games showed."""
    rows = [["Figure", "Players", "Printed", "Dealt (95 % interval)", "Standard errors"]]
    for check in checks:
        low, high = check.observed - 1.96 * check.stderr, check.observed + 1.96 * check.stderr
        rows.append([para(check.event.name, SMALL), check.event.players, f"{float(check.event.exact):.4f}",
                     f"{check.observed:.4f} ({low:.4f} - {high:.4f})",
                     f"{check.z:+.1f}" + ("" if check.agrees else " (disagrees)")])
    deals = checks[0].deals
    return [KeepTogether([para("The rule sheet's odds against dealt games", HEADING),
            para(f"Each figure the rule sheet prints, exactly, beside what {deals} games set up by the rules "
                 "showed (a share for a chance, an average for an expected card). A figure more than "
                 f"{Z_LIMIT:.0f} standard errors from the deals is marked as disagreeing.", SMALL),
            _table(rows, [62 * mm, 16 * mm, 20 * mm, 46 * mm, 30 * mm])])]


def render_balance_report(report: LabReport, path: Path, paper: str = "a4") -> Path:
    """Write the report to `path` (whole or not at all; byte-identical for the same figures)."""
    register_latin_fonts()
    page = tuple(v * mm for v in PAPER_MM[paper])
    margin = 16 * mm
    with atomic_output(Path(path)) as buffer:
        document = SimpleDocTemplate(buffer, pagesize=page, leftMargin=margin, rightMargin=margin,
                                     topMargin=margin, bottomMargin=margin, invariant=1,
                                     title=f"Balance report: {report.name}", author="cardgen", creator="cardgen")
        document.build(story(report, page[0] - 2 * margin), canvasmaker=_canvas)
    return Path(path)


def _canvas(*args, **kwargs):
    from reportlab.pdfgen.canvas import Canvas

    kwargs.setdefault("initialFontName", SANS)
    return Canvas(*args, **kwargs)


__all__ = ["render_balance_report", "win_rate_chart", "length_chart"]
