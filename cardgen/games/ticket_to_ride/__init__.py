"""Ticket to Ride: The Card Game: what it prints (train, locomotive, ticket and big-city cards,
rule-sheet pictures) and the checks its content needs. Its rules engine is
`verify.games.ticket_to_ride`."""

from __future__ import annotations

from cardgen.games.ticket_to_ride import checks, faces, parts as sheet_parts
from cardgen.games.ticket_to_ride import diagrams as pictures
from cardgen.registry import GameDefinition
from verify.games.ticket_to_ride.rules import TicketToRide


class TicketToRideDefinition(GameDefinition):
    id = "ticket-to-ride-card-game"
    engine = TicketToRide
    diagrams = {**pictures.DIAGRAMS, **sheet_parts.DIAGRAMS}
    parts = {**pictures.PARTS, **sheet_parts.PARTS}

    def check(self, content):
        return checks.check(content)

    def facts(self, content):
        return {**checks.facts(content), **pictures.odds_facts(content)}

    def odds(self, content):
        return pictures.odds_rows(content)

    def odds_events(self, content):
        return pictures.odds_events(content)

    def manifest_lines(self, content, deck):
        if deck["id"] == "tickets":
            points = sorted(c["points"] for c in content.cards if c["deck"] == "tickets")
            return [f"points {points[0]} to {points[-1]}, {sum(points)} in all"]
        return []

    def draw_face(self, canvas, content, card, rect, bleed):
        faces.draw_face(canvas, content, card, rect, bleed)

    def draw_back(self, canvas, content, back_id, rect, bleed):
        faces.draw_back(canvas, content, back_id, rect, bleed)


GAME = TicketToRideDefinition()
