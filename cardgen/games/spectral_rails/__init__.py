"""Spectral Rails: what it prints (ether cards, the double-sided map board in panels over several
pages, soul tiles, trail pieces and tokens, player mats, rule-sheet pictures) and the checks its
content needs. Its rules engine is `verify.games.spectral_rails`."""

from __future__ import annotations

from cardgen.games.spectral_rails import checks, faces, pieces
from cardgen.games.spectral_rails import diagrams as pictures
from cardgen.games.spectral_rails import examples
from cardgen.registry import GameDefinition
from verify.games.spectral_rails.rules import SpectralRails


class SpectralRailsDefinition(GameDefinition):
    id = "spectral-rails"
    engine = SpectralRails
    diagrams = pictures.DIAGRAMS
    parts = {**pictures.GENERATED, **examples.PARTS}
    example_diagram = staticmethod(examples.example_picture)

    def check(self, content):
        return checks.check(content)

    def facts(self, content):
        return checks.facts(content)

    def component_names(self, content, lang):
        # The box list names pieces in full ("ferryman coins"); the examples speak of them by the
        # words their pictures print, in both languages alike.
        from cardgen.diagrams import term

        return super().component_names(content, lang) | {term(content, key, lang) for key in examples.KIND_TERMS}

    def odds(self, content):
        from verify.games.spectral_rails.odds import setup_odds

        return setup_odds(content)

    def odds_events(self, content):
        from verify.games.spectral_rails.odds import setup_events

        return setup_events(content)

    def draw_face(self, canvas, content, card, rect, bleed):
        faces.draw_face(canvas, content, card, rect, bleed)

    def draw_back(self, canvas, content, back_id, rect, bleed):
        faces.draw_back(canvas, content, back_id, rect, bleed)

    def extra_outputs(self, content, game_dir, paper, flip, options=None):
        return pieces.extra_outputs(content, game_dir, paper, flip, options)

    def parts_to_check(self, content):
        return pieces.parts_to_check(content)


GAME = SpectralRailsDefinition()
