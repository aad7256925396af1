"""Cross-file checks for Game of Trains that a schema cannot express."""

from __future__ import annotations

from cardgen.errors import ContentError

CARRIAGES = 84
ABILITIES = range(1, 9)


def check(content) -> list[ContentError]:
    errors = []
    abilities = content.files["abilities"]["abilities"]
    seen_abilities: dict[int, int] = {}
    for i, ability in enumerate(abilities):
        if ability["id"] in seen_abilities:
            errors.append(content.error("abilities", ["abilities", i, "id"], f"ability {ability['id']} defined twice"))
        seen_abilities[ability["id"]] = i
    for missing in sorted(set(ABILITIES) - set(seen_abilities)):
        errors.append(content.error("abilities", ["abilities"], f"ability {missing} is not defined"))
    numbers: dict[int, int] = {}
    for i, card in enumerate(content.cards):
        if card["deck"] != "carriages":
            continue
        if card["ability"] not in seen_abilities:
            errors.append(content.error("cards", ["cards", i, "ability"], f"unknown ability {card['ability']}"))
        if card["number"] in numbers:
            errors.append(content.error(
                "cards", ["cards", i, "number"],
                f"carriage number {card['number']} appears twice (first at cards[{numbers[card['number']]}])",
            ))
        numbers.setdefault(card["number"], i)
    for missing in sorted(set(range(1, CARRIAGES + 1)) - set(numbers)):
        errors.append(content.error("cards", ["cards"], f"carriage number {missing} is missing"))
    return errors


def facts(content) -> dict:
    counts: dict[int, int] = {}
    for card in content.cards:
        if card["deck"] == "carriages":
            counts[card["ability"]] = counts.get(card["ability"], 0) + 1
    return {f"ability_{k}_cards": v for k, v in sorted(counts.items())}
