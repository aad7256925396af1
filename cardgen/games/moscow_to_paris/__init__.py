"""Moscow to Paris: what it prints (train, action and city cards with their two backs, rule-sheet
pictures, the action-card and city parts) and the checks its content needs. Its rules engine is
`verify.games.moscow_to_paris`."""

from __future__ import annotations

from cardgen.games.moscow_to_paris import checks, faces
from cardgen.registry import GameDefinition, SheetTable, sheet_function
from cardgen.words import counted
from verify.games.moscow_to_paris.rules import MoscowToParis

PICTURES, PARTS = "cardgen.games.moscow_to_paris.diagrams", "cardgen.games.moscow_to_paris.parts"


class MoscowToParisDefinition(GameDefinition):
    id = "moscow-to-paris"
    engine = MoscowToParis
    diagrams = SheetTable(PICTURES, "DIAGRAMS")
    parts = {"action-cards": sheet_function(PARTS, "actions_part"), "cities": sheet_function(PARTS, "cities_part"),
             "odds": sheet_function(PARTS, "odds_part")}
    example_diagram = staticmethod(sheet_function(PICTURES, "example_diagram"))

    def check(self, content):
        return checks.check(content)

    def facts(self, content):
        return checks.facts(content)

    def odds(self, content):
        return checks.odds_rows(content)

    def odds_events(self, content):
        return checks.odds_events(content)

    def manifest_lines(self, content, deck):
        rows = [c for c in content.cards if c["deck"] == deck["id"]]
        if deck["id"] in ("trains", "actions"):
            return [f"{c['id']}: {counted(c.get('copies', 1), 'card')}" for c in rows]
        return [f"{c['id']}: {c['points']} points, line {c['line']}{', capital' if c['capital'] else ''}"
                f"{', ' + c['country'] if c.get('country') else ''}" for c in rows]

    def draw_face(self, canvas, content, card, rect, bleed):
        faces.draw_face(canvas, content, card, rect, bleed)

    def draw_back(self, canvas, content, back_id, rect, bleed):
        faces.draw_back(canvas, content, back_id, rect, bleed)


GAME = MoscowToParisDefinition()
