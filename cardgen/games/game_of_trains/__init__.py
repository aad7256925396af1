"""Game of Trains: what it prints (carriage and locomotive cards, rule-sheet pictures and the
abilities part) and the checks its content needs. Its rules engine is `verify.games.game_of_trains`."""

from __future__ import annotations

from cardgen.games.game_of_trains import checks, faces
from cardgen.registry import GameDefinition, SheetTable, sheet_function
from verify.games.game_of_trains.rules import GameOfTrains

PICTURES = "cardgen.games.game_of_trains.diagrams"


class GameOfTrainsDefinition(GameDefinition):
    id = "game-of-trains"
    engine = GameOfTrains
    diagrams = SheetTable(PICTURES, "DIAGRAMS")
    parts = {"abilities": sheet_function("cardgen.games.game_of_trains.parts", "abilities_part")}
    example_diagram = staticmethod(sheet_function(PICTURES, "example_diagram"))

    def check(self, content):
        return checks.check(content)

    def facts(self, content):
        return checks.facts(content)

    def component_names(self, content, lang):
        # A carriage is told apart by its number.
        return {str(card["number"]) for card in content.cards if card["deck"] == "carriages"}

    def manifest_lines(self, content, deck):
        if deck["id"] != "carriages":
            return []
        by_ability: dict[int, list[int]] = {}
        for card in content.cards:
            if card["deck"] == "carriages":
                by_ability.setdefault(card["ability"], []).append(card["number"])
        return [f"ability {ability}: {len(numbers):2} cards  {', '.join(map(str, numbers))}"
                for ability, numbers in sorted(by_ability.items())]

    def draw_face(self, canvas, content, card, rect, bleed):
        faces.draw_face(canvas, content, card, rect, bleed)

    def draw_back(self, canvas, content, back_id, rect, bleed):
        faces.draw_back(canvas, content, back_id, rect, bleed)


GAME = GameOfTrainsDefinition()
