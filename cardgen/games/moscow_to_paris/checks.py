"""Cross-file checks for Moscow to Paris that a schema cannot express, and the facts its rule texts
quote (counts of kinds, cities, capitals, countries, and exact odds of a deal)."""

from __future__ import annotations

from collections import Counter

from cardgen.errors import ContentError

EFFECTS = ("swap", "clear-two", "clear-three", "trade", "close-line")
SPECIALS = ("istanbul", "homeland")
FRONT_MAX = 4
HAND = 5


def check(content) -> list[ContentError]:
    errors = []
    countries = {c["id"]: i for i, c in enumerate(content.files["countries"]["countries"])}
    for i, country in enumerate(content.files["countries"]["countries"]):
        if countries[country["id"]] != i:
            errors.append(content.error("countries", ["countries", i, "id"], f"country {country['id']!r} is listed twice"))
        if country["flag"]["layout"] != "blank" and not country["flag"]["stripes"]:
            errors.append(content.error("countries", ["countries", i, "flag", "stripes"], "a flag needs at least one stripe"))
    letters: dict[str, int] = {}
    colours: dict[str, int] = {}
    effects: dict[str, int] = {}
    numbers: dict[int, int] = {}
    specials: dict[str, int] = {}
    used_countries: set[str] = set()
    for i, card in enumerate(content.cards):
        deck = card["deck"]
        if deck == "trains":
            for table, key, what in ((letters, "letter", "letter"), (colours, "colour", "colour")):
                value = card[key].lower()
                if value in table:
                    errors.append(content.error("cards", ["cards", i, key],
                                                f"train card kinds need their own {what}: {card[key]!r} is also at cards[{table[value]}]"))
                table.setdefault(value, i)
        elif deck == "actions":
            if card["id"] != card["effect"]:
                errors.append(content.error("cards", ["cards", i, "id"],
                                            f"an action card's id is its effect: {card['effect']!r}, not {card['id']!r}"))
            if card["effect"] in effects:
                errors.append(content.error("cards", ["cards", i, "effect"],
                                            f"effect {card['effect']!r} is listed twice (first at cards[{effects[card['effect']]}]); raise its copies instead"))
            effects.setdefault(card["effect"], i)
            if card["number"] != EFFECTS.index(card["effect"]) + 1:
                errors.append(content.error("cards", ["cards", i, "number"],
                                            f"the rules number effect {card['effect']!r} {EFFECTS.index(card['effect']) + 1}, not {card['number']}"))
            numbers.setdefault(card["number"], i)
        else:
            country = card.get("country")
            if deck == "special-cities":
                if card["special"] in specials:
                    errors.append(content.error("cards", ["cards", i, "special"], f"{card['special']!r} is listed twice"))
                specials.setdefault(card["special"], i)
                if card["special"] == "istanbul" and country is not None:
                    errors.append(content.error("cards", ["cards", i, "country"],
                                                "Istanbul counts for no country: it scores its points and no flag row"))
                if card["special"] == "homeland" and country is None:
                    errors.append(content.error("cards", ["cards", i], "Homeland plays as a city of its own country: give it one"))
                own = content.files.get("homeland", {}).get("homeland", {})
                if card["special"] == "homeland" and "flag" in own:
                    from cardgen.images import image_problem

                    problem = image_problem(content.root, own["flag"])
                    if problem:
                        errors.append(content.error("homeland", ["homeland", "flag"], problem))
            if country is not None:
                used_countries.add(country)
                if country not in countries:
                    errors.append(content.error("cards", ["cards", i, "country"],
                                                f"unknown country {country!r}; known: {', '.join(sorted(countries))}"))
            if card["line"] > FRONT_MAX:
                errors.append(content.error("cards", ["cards", i, "line"],
                                            f"a line of {card['line']} could never be matched by the {FRONT_MAX} cards in front of a player"))
    for effect in EFFECTS:
        if effect not in effects:
            errors.append(content.error("cards", ["cards"], f"no action card has effect {effect!r}; the rules have five kinds"))
    for special in SPECIALS:
        if special not in specials:
            errors.append(content.error("cards", ["cards"], f"the special city {special!r} is missing"))
    if len(letters) < 2:
        errors.append(content.error("cards", ["cards"], "at least two train card kinds are needed"))
    for i, country in enumerate(content.files["countries"]["countries"]):
        if country["id"] not in used_countries:
            errors.append(content.error("countries", ["countries", i, "id"], f"no city belongs to {country['id']!r}"))
    return errors


def cities(content, deck: str = "cities") -> list[dict]:
    return [c for c in content.cards if c["deck"] == deck]


def facts(content) -> dict:
    trains = [c for c in content.cards if c["deck"] == "trains"]
    actions = [c for c in content.cards if c["deck"] == "actions"]
    regular = cities(content)
    result: dict = {
        "train_kinds": len(trains),
        "train_copies": trains[0]["copies"] if trains and len({c["copies"] for c in trains}) == 1 else "various",
        "action_kinds": len(actions),
        "city_count": len(regular),
        "capitals": sum(1 for c in regular if c["capital"]),
        "countries": len({c["country"] for c in regular}),
        "city_points": sum(c["points"] for c in regular),
        "cities_in_deck": len(regular) - 4,
        "cities_left_at_end": 3,
        "hand_size": HAND,
        "travel_cards": sum(c.get("copies", 1) for c in trains + actions),
        "front_max": FRONT_MAX,
    }
    for card in actions:
        result[f"action_{card['effect'].replace('-', '_')}_cards"] = card["copies"]
    for card in content.cards:
        if card["deck"] == "special-cities":
            result[f"{card['special']}_points"] = card["points"]
    for n in range(1, 5):
        result[f"line_{n}_cities"] = sum(1 for c in regular if c["line"] == n)
    odds = deal_odds(content)
    result["odds_kind_in_hand"] = percent(odds["kind_in_hand"])
    result["odds_action_in_hand"] = percent(odds["action_in_hand"])
    result["odds_kind_next_draw"] = percent(odds["kind_next_draw"])
    return result


def deal_odds(content) -> dict[str, Rational]:
    """Exact chances for a fresh shuffle of the train and action cards: that five cards hold at
    least one card of a given train kind, at least one action card, and that one draw is that kind."""
    from sympy import Rational, binomial  # loaded only when odds are printed

    trains = [c for c in content.cards if c["deck"] == "trains"]
    total = sum(c.get("copies", 1) for c in content.cards if c["deck"] in ("trains", "actions"))
    kind = trains[0]["copies"]
    actions = sum(c["copies"] for c in content.cards if c["deck"] == "actions")
    return {
        "kind_in_hand": 1 - binomial(total - kind, HAND) / binomial(total, HAND),
        "action_in_hand": 1 - binomial(total - actions, HAND) / binomial(total, HAND),
        "kind_next_draw": Rational(kind, total),
    }


def odds_events(content) -> list:
    """The figures `deal_odds` gives, read off games the rules engine deals: P1's five cards and
    the top card of the draw pile after the deal."""
    from verify.oddscheck import OddsEvent, zone_cards

    odds = deal_odds(content)
    kind = next(c["id"] for c in content.cards if c["deck"] == "trains")
    actions = {c["id"] for c in content.cards if c["deck"] == "actions"}
    players = content.game["players"]["min"]
    return [
        OddsEvent("kind_in_hand", odds["kind_in_hand"], players, lambda s: kind in zone_cards(s, "hand", "P1")),
        OddsEvent("action_in_hand", odds["action_in_hand"], players,
                  lambda s: any(card in actions for card in zone_cards(s, "hand", "P1"))),
        OddsEvent("kind_next_draw", odds["kind_next_draw"], players, lambda s: zone_cards(s, "deck")[0] == kind),
    ]


def percent(value: Rational) -> str:
    return f"{float(value) * 100:.0f}%"


def odds_rows(content) -> list[dict]:
    odds = deal_odds(content)
    return [{"name": name, "value": value, "percent": percent(value)} for name, value in odds.items()]


def kind_counts(content) -> Counter:
    return Counter({c["id"]: c.get("copies", 1) for c in content.cards})
