"""Cross-file checks for Spectral Rails that a schema cannot express (the map: connected, every
space reachable, three towns a region, the start towns of each side; soul tiles naming every town
equally often; nine ether cards a colour), and the facts its rule texts quote."""

from __future__ import annotations

from collections import Counter

from cardgen.errors import ContentError
from verify.games.spectral_rails.board import Board, MapError

TOWNS_PER_REGION = 3
CARDS_PER_COLOUR = 9
DARK_PER_TOWN = 2
SIDES = {3: 5, 4: 6}  # players -> regions on that side of the board


def check(content) -> list[ContentError]:
    errors: list[ContentError] = []
    data = content.files["map"]
    region_ids = [r["id"] for r in data["regions"]]
    town_ids = [t["id"] for t in data["towns"]]
    for i, region in enumerate(data["regions"]):
        if region_ids.count(region["id"]) > 1:
            errors.append(content.error("map", ["regions", i, "id"], f"region {region['id']!r} is listed twice"))
    for i, town in enumerate(data["towns"]):
        if town["region"] not in region_ids:
            errors.append(content.error("map", ["towns", i, "region"], f"unknown region {town['region']!r}"))
        if town_ids.count(town["id"]) > 1:
            errors.append(content.error("map", ["towns", i, "id"], f"town {town['id']!r} is listed twice"))
        w, h = data["size_mm"]
        if not (0 <= town["at"][0] <= w and 0 <= town["at"][1] <= h):
            errors.append(content.error("map", ["towns", i, "at"], f"outside the {w} x {h} mm board"))
    for region in region_ids:
        n = sum(1 for t in data["towns"] if t["region"] == region)
        if n != TOWNS_PER_REGION:
            errors.append(content.error("map", ["regions", region_ids.index(region)],
                                        f"region {region!r} has {n} towns, not {TOWNS_PER_REGION}"))
    pairs: dict[frozenset, int] = {}
    for i, route in enumerate(data["routes"]):
        for end in ("from", "to"):
            if route[end] not in town_ids:
                errors.append(content.error("map", ["routes", i, end], f"unknown town {route[end]!r}"))
        key = frozenset((route["from"], route["to"]))
        if key in pairs:
            errors.append(content.error("map", ["routes", i], f"a second route between the same towns (first: routes[{pairs[key]}])"))
        pairs.setdefault(key, i)
    for players in SIDES:
        listed = [i for i, side in enumerate(data["sides"]) if side["players"] == players]
        if len(listed) != 1:
            at = ["sides", listed[1]] if len(listed) > 1 else ["sides"]
            errors.append(content.error("map", at, f"the board has one side for {players} players, not {len(listed)}"))
    if errors:
        return errors
    for i, side in enumerate(data["sides"]):
        players = side["players"]
        if len(side["regions"]) != SIDES[players]:
            errors.append(content.error("map", ["sides", i, "regions"],
                                        f"the {players}-player side has {SIDES[players]} regions, not {len(side['regions'])}"))
        for key in ("blue_starts", "red_starts"):
            starts = side[key]
            if len(starts) != players or len(set(starts)) != players:
                errors.append(content.error("map", ["sides", i, key], f"needs {players} different start towns, one per player"))
        try:
            Board(data, side=side["id"])
        except MapError as exc:
            errors.append(content.error("map", ["sides", i], exc.message))
    four = [s for s in data["sides"] if s["players"] == 4]
    if four and set(four[0]["regions"]) != set(region_ids):
        errors.append(content.error("map", ["sides"], "the 4-player side shows every region"))
    # soul tiles: two dark and one light per town of the 4-player side
    tiles = content.files["tiles"]["tiles"]
    seen: dict[str, int] = {}
    for i, tile in enumerate(tiles):
        if tile["town"] not in town_ids:
            errors.append(content.error("tiles", ["tiles", i, "town"], f"unknown town {tile['town']!r}"))
        expected = f"{tile['kind'][0]}-{tile['town']}"
        if not (tile["id"] == expected or tile["id"].startswith(expected + "-")):
            errors.append(content.error("tiles", ["tiles", i, "id"], f"a {tile['kind']} tile for {tile['town']} is named {expected}..."))
        if tile["id"] in seen:
            errors.append(content.error("tiles", ["tiles", i, "id"], f"duplicate tile {tile['id']!r}"))
        seen[tile["id"]] = i
    counts = Counter((t["kind"], t["town"]) for t in tiles)
    for town in town_ids:
        for kind, want in (("dark", DARK_PER_TOWN), ("light", 1)):
            if counts[(kind, town)] != want:
                errors.append(content.error("tiles", ["tiles"], f"{town} is named on {counts[(kind, town)]} {kind} tiles, not {want}"))
    colours = Counter(card["colour"] for card in content.cards)
    for colour in content.game["player_colours"]:
        if colours[colour] != CARDS_PER_COLOUR:
            errors.append(content.error("cards", ["cards"], f"{colour} has {colours[colour]} ether cards, not {CARDS_PER_COLOUR}"))
    return errors


def facts(content) -> dict:
    data = content.files["map"]
    tiles = content.files["tiles"]["tiles"]
    values = sorted(c["value"] for c in content.cards if c["colour"] == "green")
    # A side missing is reported by the checks; its facts read 0 meanwhile.
    four = next((s for s in data["sides"] if s["players"] == 4), {"regions": []})
    three = next((s for s in data["sides"] if s["players"] == 3), {"regions": []})
    facts = {
        "towns": len(data["towns"]),
        "towns_three": sum(1 for t in data["towns"] if t["region"] in three["regions"]),
        "regions_four": len(four["regions"]),
        "regions_three": len(three["regions"]),
        "spaces": sum(r["spaces"] for r in data["routes"]),
        "routes": len(data["routes"]),
        "dark_souls": sum(1 for t in tiles if t["kind"] == "dark"),
        "light_souls": sum(1 for t in tiles if t["kind"] == "light"),
        "cards_per_colour": len(values),
        "card_values": "+".join(map(str, values)),
        "card_total": sum(values),
    }
    for v in range(1, 5):
        facts[f"cards_of_{v}"] = values.count(v)
    return facts


