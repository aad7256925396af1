"""Flamme Rouge: what it prints (energy, exhaustion, reference and stage cards, track tiles,
player boards and riders, rule-sheet pictures and the odds table) and the checks its content
needs. Its rules engine is `verify.games.flamme_rouge`."""

from __future__ import annotations

from cardgen.games.flamme_rouge import checks, faces
from cardgen.games.flamme_rouge import diagrams as pictures
from cardgen.registry import GameDefinition
from verify.games.flamme_rouge.rules import FlammeRouge


class FlammeRougeDefinition(GameDefinition):
    id = "flamme-rouge"
    engine = FlammeRouge
    diagrams = pictures.DIAGRAMS
    parts = pictures.GENERATED
    example_diagram = staticmethod(pictures.example_diagram)

    def check(self, content):
        return checks.check(content)

    def facts(self, content):
        return checks.facts(content)

    def component_names(self, content, lang):
        # Besides the stages, the two kinds of rider every example speaks of.
        return super().component_names(content, lang) | {pictures.term(content, kind, lang) for kind in ("rouleur", "sprinteur")}

    def odds(self, content):
        from verify.games.flamme_rouge.odds import energy_odds  # sympy loads only when odds are printed

        return energy_odds(content)

    def odds_events(self, content):
        from verify.games.flamme_rouge.odds import energy_events

        return energy_events(content)

    def draw_face(self, canvas, content, card, rect, bleed):
        faces.draw_face(canvas, content, card, rect, bleed)

    def draw_back(self, canvas, content, back_id, rect, bleed):
        faces.draw_back(canvas, content, back_id, rect, bleed)

    def extra_outputs(self, content, game_dir, paper, flip, options=None):
        return faces.extra_outputs(content, game_dir, paper, flip, options)

    def parts_to_check(self, content):
        return faces.parts_to_check(content)


GAME = FlammeRougeDefinition()
