"""The abilities part of the Game of Trains rule sheet: each ability with the icon its cards carry,
how many cards have it, and what it does."""

from __future__ import annotations

from typing import Callable

from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from cardgen.games.game_of_trains.faces import draw_ability_icon
from cardgen.pdfdoc import SANS, mm
from cardgen.markup import SPACE, bold, inline, join, para, styled
from cardgen.rulesheet import RULE_LINE, tidy

CARDS_OF_ABILITY = {"en": "{n} cards", "zh-Hant": "共 {n} 張"}


class Icon(Flowable):
    """An ability icon drawn by the card-face code, so the sheet shows what the cards show."""

    def __init__(self, draw: Callable, icon: str, size: float):
        super().__init__()
        self.draw_icon = draw
        self.icon = icon
        self.size = size

    def wrap(self, available_width, available_height):
        return self.size, self.size

    def draw(self):
        self.draw_icon(self.canv, self.icon, 0, 0, self.size)


def abilities_part(content, lang: str, styles) -> list[Flowable]:
    rows = []
    for ability in content.files["abilities"]["abilities"]:
        count = sum(1 for card in content.cards if card.get("ability") == ability["id"])
        name = bold(join(str(ability["id"]), SPACE, SPACE, ability["name"][lang]))
        if count:
            label = CARDS_OF_ABILITY[lang].format(n=count)
            name = join(name, SPACE, SPACE, styled(label, colour="#666666", size=8.5))
        text = tidy(content.render_text(ability["text"][lang], lang))
        cell = [para(name, styles.h2), para(inline(text, styles.accent_hex), styles.small)]
        icon = Icon(draw_ability_icon, ability["icon"], 14 * mm) if "icon" in ability else Spacer(1, 1)
        rows.append([icon, cell])
    if not rows:
        return []
    table = Table(rows, colWidths=[20 * mm, None])
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS),  # reportlab's cell default is Helvetica, which is not embedded
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, -2), 0.4, RULE_LINE),
        ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
        ("LEFTPADDING", (0, 0), (0, -1), 0),
    ]))
    return [table]
