"""Exact odds of the Flamme Rouge energy decks for the rule sheet, from the shared draw odds."""

from __future__ import annotations

from verify.odds import best_of_draw, chance_of_value, deck_mean, expected


def energy_odds(content, colour: str | None = None, draw: int = 4) -> list[dict]:
    """One row per rider type for the rule sheet: its deck's size, mean card, top card, the chance
    that a fresh draw holds a top card, and the expected best card of that draw.

    Every colour's decks are alike; the first colour found (or `colour`) is the one counted.
    """
    decks: dict[str, list[int]] = {}
    for card in content.cards:
        kind, _, deck_rider = card["deck"].partition("-")
        if kind != "energy":
            continue
        if colour is None:
            colour = card["colour"]
        if card["colour"] == colour:
            decks.setdefault(card.get("rider", deck_rider), []).extend([card["value"]] * card.get("copies", 1))
    rows = []
    for rider, values in decks.items():
        top = max(values)
        best = best_of_draw(values, draw)
        rows.append({
            "rider": rider,
            "cards": len(values),
            "mean": deck_mean(values),
            "top": top,
            "draw": draw,
            "top_in_draw": chance_of_value(values, top, draw),
            "best_of_draw": best,
            "expected_best": expected(best),
        })
    return rows
