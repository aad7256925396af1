"""Rule-sheet parts computed from the Moscow to Paris content: the five action cards with their
counts, the table of cities, and the exact odds of a deal. Every word comes from the content (the
cards and the `terms` of rules.yaml)."""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from cardgen.content import exact_odds
from cardgen.diagrams import term
from cardgen.markup import SPACE, bold, inline, join, para, styled
from cardgen.pdfdoc import SANS, mm
from cardgen.rulesheet import RULE_LINE, tidy

ODDS_TERMS = {"kind_in_hand": "odds-kind-in-hand", "action_in_hand": "odds-action-in-hand",
              "kind_next_draw": "odds-kind-next-draw"}


def _table(rows, widths) -> Table:
    table = Table(rows, colWidths=widths)
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS),  # reportlab's cell default is Helvetica, which is not embedded
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, -2), 0.4, RULE_LINE),
        ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ("LEFTPADDING", (0, 0), (0, -1), 0),
    ]))
    return table


def actions_part(content, lang: str, styles) -> list[Flowable]:
    rows = []
    for card in content.cards:
        if card["deck"] != "actions":
            continue
        label = term(content, "cards-count", lang).replace("#", str(card["copies"]))
        name = join(bold(join(str(card["number"]), SPACE, SPACE, card["name"][lang])), SPACE, SPACE,
                    styled(label, colour="#666666", size=8.5))
        rows.append([para(name, styles.body), para(inline(tidy(card["text"][lang]), styles.accent_hex), styles.small)])
    return [_table(rows, [58 * mm, None])] if rows else []


def cities_part(content, lang: str, styles) -> list[Flowable]:
    countries = {c["id"]: c for c in content.files["countries"]["countries"]}
    cell = styles.small
    head = [para(bold(term(content, k, lang)), cell) for k in ("col-city", "col-country", "col-points", "col-capital", "col-line")]
    rows = []
    for card in content.cards:
        if card["deck"] not in ("cities", "special-cities"):
            continue
        country = countries.get(card.get("country"))
        rows.append([para(card["name"][lang], cell),
                     para(country["name"][lang] if country else term(content, "none", lang), cell),
                     para(str(card["points"]), cell),
                     para(term(content, "yes" if card["capital"] else "no", lang), cell),
                     para(str(card["line"]), cell)])
    # Two halves side by side, so the table takes half the height of the page.
    half = -(-len(rows) // 2)
    widths = [21.5 * mm, 17.5 * mm, 13.5 * mm, 14 * mm, 15 * mm]
    blank = [""] * len(head)
    joined = [head + [""] + head] + [(rows[k] + [""] + (rows[half + k] if half + k < len(rows) else blank))
                                    for k in range(half)]
    table = _table(joined, widths + [5 * mm] + widths)
    table.setStyle(TableStyle([("LEFTPADDING", (1, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2)]))
    table.repeatRows = 1
    note = para(inline(term(content, "reconstructed-cities", lang), styles.accent_hex), styles.small)
    intro = para(inline(term(content, "all-cities", lang), styles.accent_hex), styles.body)
    # The table stays whole, with the sentence that leads into it and the note under it.
    return [KeepTogether([intro, table, Spacer(1, 3), note])]


def odds_part(content, lang: str, styles) -> list[Flowable]:
    cell = styles.small
    rows = [[para(bold(term(content, "col-chance", lang)), cell), para(bold(term(content, "col-exact", lang)), cell),
             para(bold("%"), cell)]]
    for row in exact_odds(content):
        rows.append([para(term(content, ODDS_TERMS[row["name"]], lang), cell), para(str(row["value"]), cell),
                     para(row["percent"], cell)])
    return [_table(rows, [100 * mm, 35 * mm, 15 * mm])]
