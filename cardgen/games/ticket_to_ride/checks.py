"""Cross-file checks for Ticket to Ride: The Card Game that a schema cannot express, and the
numbers its rule sheet quotes."""

from __future__ import annotations

from collections import Counter

from cardgen.errors import ContentError

TICKETS = 46
PER_COLOUR = 10  # train cards of each colour in the published game


def check(content) -> list[ContentError]:
    errors = []
    colours = content.files["colours"]["colours"]
    for key in ("id", "hue", "symbol"):
        seen: dict = {}
        for i, colour in enumerate(colours):
            value = colour[key].lower() if key == "hue" else colour[key]
            if value in seen:
                errors.append(content.error("colours", ["colours", i, key],
                                            f"{key} {colour[key]!r} is also used by {seen[value]}"))
            seen[value] = colour["id"]
    loco_symbol = content.files["colours"]["locomotive"]["symbol"]
    for i, colour in enumerate(colours):
        if colour["symbol"] == loco_symbol:
            errors.append(content.error("colours", ["colours", i, "symbol"], "the locomotive already uses this symbol"))
    known_colours = {c["id"] for c in colours}
    cities = {c["id"] for c in content.files["cities"]["cities"]}
    sources = content.files["cards"].get("sources", {})
    trains: dict[str, int] = {}
    numbers: dict[int, int] = {}
    big: dict[str, int] = {}
    for i, card in enumerate(content.cards):
        at = ["cards", i]
        if card["source"] not in sources:
            errors.append(content.error("cards", at + ["source"], f"unknown source {card['source']!r}; "
                                                                  f"known: {', '.join(sorted(sources))}"))
        deck = card["deck"]
        if deck == "trains":
            if card["colour"] in trains:
                errors.append(content.error("cards", at + ["colour"], f"colour {card['colour']} is listed twice"))
            trains[card["colour"]] = i
            if card.get("copies", 1) != PER_COLOUR:
                errors.append(content.error("cards", at + ["copies"], f"the game has {PER_COLOUR} {card['colour']} "
                                                                      f"train cards, not {card.get('copies', 1)}"))
        elif deck == "tickets":
            if card["number"] in numbers:
                errors.append(content.error("cards", at + ["number"],
                                            f"ticket {card['number']} appears twice (first at cards[{numbers[card['number']]}])"))
            numbers.setdefault(card["number"], i)
            for end in ("from", "to"):
                if card[end] not in cities:
                    errors.append(content.error("cards", at + [end], f"unknown city {card[end]!r} (not in cities.yaml)"))
            if card["from"] == card["to"]:
                errors.append(content.error("cards", at + ["to"], "a ticket joins two different cities"))
            if card["id"] != f"t{card['number']:02d}":
                errors.append(content.error("cards", at + ["id"], f"ticket {card['number']} should have id t{card['number']:02d}"))
        elif deck == "big-cities":
            if card["city"] not in cities:
                errors.append(content.error("cards", at + ["city"], f"unknown city {card['city']!r} (not in cities.yaml)"))
            if card["city"] in big:
                errors.append(content.error("cards", at + ["city"], f"big city {card['city']} appears twice"))
            big[card["city"]] = i
    for missing in sorted(known_colours - set(trains)):
        errors.append(content.error("cards", ["cards"], f"no train cards of colour {missing}"))
    for missing in sorted(set(range(1, TICKETS + 1)) - set(numbers)):
        errors.append(content.error("cards", ["cards"], f"ticket {missing} is missing"))
    return errors


def facts(content) -> dict:
    trains = [c for c in content.cards if c["deck"] == "trains"]
    tickets = [c for c in content.cards if c["deck"] == "tickets"]
    cities = [c for c in content.cards if c["deck"] == "big-cities"]
    locomotives = sum(c.get("copies", 1) for c in content.cards if c["deck"] == "locomotives")
    per_colour = sorted({c.get("copies", 1) for c in trains})
    train_cards = sum(c.get("copies", 1) for c in trains) + locomotives
    lengths = Counter(len(t["colours"]) for t in tickets)
    facts = {
        "colours": len(trains),
        "per_colour": per_colour[0] if len(per_colour) == 1 else "/".join(map(str, per_colour)),
        "train_cards": train_cards,
        "big_cities": len(cities),
        # A deck left empty is reported by the checks; its facts read 0 meanwhile.
        "ticket_min_points": min((t["points"] for t in tickets), default=0),
        "ticket_max_points": max((t["points"] for t in tickets), default=0),
        "ticket_min_cards": min(lengths, default=0),
        "ticket_max_cards": max(lengths, default=0),
        "city_min_points": min((c["points"] for c in cities), default=0),
        "city_max_points": max((c["points"] for c in cities), default=0),
    }
    for n in (2, 3, 4):
        # Each player holds a locomotive and seven cards; five lie face up.
        facts[f"deck_after_deal_{n}"] = train_cards - n * 8 - 5
    return facts
