"""A plain deck made with protograf, the yardstick for cardgen's card PDFs: 88 poker-size cards
(63 x 88 mm), a number on each, fronts only (no backs, bleed or crop marks), on A4.

Run inside the comparison environment: `.bench-venv/bin/python bench/protograf_deck.py -d DIR`
writes DIR/protograf-deck.pdf (protograf reads its own command-line options, `-d` among them).
"""

from protograf import Card, Create, Deck, Save, text

CARDS = 88

Create(filename="protograf-deck.pdf", paper="A4", units="mm", margin=10)
Deck(cards=CARDS, width=63, height=88)
for number in range(1, CARDS + 1):
    Card(number, text(text=str(number), x=31.5, y=44, font_size=36))
Save()
