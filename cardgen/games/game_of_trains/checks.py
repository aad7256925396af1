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


SETUP_SEED = 7  # the shuffle pictured in the rule sheet's setup picture


def setup_game(content, players: int = 2):
    """The opening pictured in the rule sheet, played by the engine from a real shuffle: each
    player keeps their lowest drawn card and puts it next to the locomotive. Returns the state,
    the kept card and the replaced carriage of each player."""
    from verify.games.game_of_trains.rules import GameOfTrains

    state = GameOfTrains(content).new_state(players, seed=SETUP_SEED)
    kept, replaced = {}, {}
    for p in state.players:
        kept[p] = min(state.draft_hands[p])
        replaced[p] = state.trains[p][0]
    for p in state.players:
        state.apply(p, state.parse_action(f"draft {kept[p]} at 1"))
    return state, kept, replaced


def facts(content) -> dict:
    counts: dict[int, int] = {}
    for card in content.cards:
        if card["deck"] == "carriages":
            counts[card["ability"]] = counts.get(card["ability"], 0) + 1
    result = {f"ability_{k}_cards": v for k, v in sorted(counts.items())}
    # What the setup picture shows, so that its caption says what the picture holds. Only a sound
    # deck can be dealt; with a broken one these stay unknown and the deck's errors are reported.
    names = ("setup_p1_kept", "setup_p2_kept", "setup_p1_replaced", "setup_p2_replaced", "setup_market",
             "setup_discarded")
    result.update(dict.fromkeys(names, "?"))
    if not check(content):
        state, kept, replaced = setup_game(content)
        result.update(setup_p1_kept=kept["P1"], setup_p2_kept=kept["P2"],
                      setup_p1_replaced=replaced["P1"], setup_p2_replaced=replaced["P2"],
                      setup_market=len(state.market), setup_discarded=len(state.discard))
    return result
