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


def energy_events(content, draw: int = 4) -> list:
    """The figures `energy_odds` gives, read off games the rules engine deals: each rider type's
    freshly shuffled energy deck of P1, top card first."""
    from verify.oddscheck import OddsEvent, zone_cards

    events = []
    for row in energy_odds(content, draw=draw):
        deck = f"deck.{row['rider']}"
        top = row["top"]
        events += [
            OddsEvent(f"{row['rider']}: mean card", row["mean"], 2, lambda s, d=deck: zone_cards(s, d, "P1")[0],
                      chance=False),
            OddsEvent(f"{row['rider']}: top card in a draw of {draw}", row["top_in_draw"], 2,
                      lambda s, d=deck, t=top: t in zone_cards(s, d, "P1")[:draw]),
            OddsEvent(f"{row['rider']}: best card of a draw of {draw}", row["expected_best"], 2,
                      lambda s, d=deck: max(zone_cards(s, d, "P1")[:draw]), chance=False),
        ]
    return events
