"""Cross-file checks for Flamme Rouge that a schema cannot express, and the numbers its rule text quotes.

The decks must hold exactly the published values, the tiles must be the published set, and every
stage must be a course that can be laid on a table: each tile once, from the start tile to the
finish tile, never running over itself.
"""

from __future__ import annotations

from collections import Counter

from cardgen.games.flamme_rouge import course
from cardgen.errors import ContentError

COLOURS = ("green", "red", "blue", "black")
RIDERS = ("rouleur", "sprinteur")
# Values of one team's deck for each rider type, as published (three cards of each value).
ENERGY_VALUES = {
    "rouleur": [3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7],
    "sprinteur": [2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 9, 9, 9],
}
EXHAUSTION_CARDS = 30
EXHAUSTION_VALUE = 2
TILE_KINDS = {"start": 1, "finish": 1, "straight": 7, "soft_curve": 6, "sharp_curve": 6}


def check(content) -> list[ContentError]:
    errors = check_energy(content)
    errors += check_exhaustion(content)
    errors += check_tiles(content)
    if not errors:
        errors += check_stages(content)
    return errors


def check_energy(content) -> list[ContentError]:
    errors = []
    values: dict[tuple[str, str], list[int]] = {(c, r): [] for c in COLOURS for r in RIDERS}
    for i, card in enumerate(content.cards):
        if not card["deck"].startswith("energy-"):
            continue
        if card["deck"] != f"energy-{card['rider']}":
            errors.append(content.error("cards", ["cards", i, "rider"],
                                        f"a {card['rider']} card cannot be in deck {card['deck']!r}"))
            continue
        values[card["colour"], card["rider"]].extend([card["value"]] * card["copies"])
    for (colour, rider), found in values.items():
        if sorted(found) != ENERGY_VALUES[rider]:
            errors.append(content.error(
                "cards", ["cards"],
                f"the {colour} {rider} deck has values {sorted(found)}; the published deck is {ENERGY_VALUES[rider]}",
            ))
    return errors


def check_exhaustion(content) -> list[ContentError]:
    errors = []
    counts = Counter()
    for i, card in enumerate(content.cards):
        if not card["deck"].startswith("exhaustion-"):
            continue
        if card["deck"] != f"exhaustion-{card['rider']}":
            errors.append(content.error("cards", ["cards", i, "rider"],
                                        f"a {card['rider']} card cannot be in deck {card['deck']!r}"))
        if card["value"] != EXHAUSTION_VALUE:
            errors.append(content.error("cards", ["cards", i, "value"],
                                        f"exhaustion cards are worth {EXHAUSTION_VALUE}, not {card['value']}"))
        counts[card["rider"]] += card["copies"]
    for rider in RIDERS:
        if counts[rider] != EXHAUSTION_CARDS:
            errors.append(content.error(
                "cards", ["cards"], f"{counts[rider]} {rider} exhaustion cards; the game has {EXHAUSTION_CARDS}"))
    return errors


def check_tiles(content) -> list[ContentError]:
    errors = []
    geometry = content.files["tiles"]["geometry"]
    seen: dict[str, int] = {}
    kinds = Counter()
    for i, tile in enumerate(content.files["tiles"]["tiles"]):
        if tile["id"] in seen:
            errors.append(content.error("tiles", ["tiles", i, "id"],
                                        f"tile {tile['id']!r} defined twice (first at tiles[{seen[tile['id']]}])"))
        seen.setdefault(tile["id"], i)
        kinds[tile["kind"]] += 1
        expected = geometry["squares"][tile["kind"]]
        for side in ("lower", "upper"):
            if len(tile[side]) != expected:
                errors.append(content.error(
                    "tiles", ["tiles", i, side],
                    f"a {tile['kind']} tile has {expected} squares, this side lists {len(tile[side])}"))
            errors += _check_side_terrain(content, i, tile, side)
    for kind, count in TILE_KINDS.items():
        if kinds[kind] != count:
            errors.append(content.error("tiles", ["tiles"], f"{kinds[kind]} {kind} tiles; the game has {count}"))
    return errors


def _check_side_terrain(content, i: int, tile: dict, side: str) -> list[ContentError]:
    """Start squares belong to the start tile only, finish squares to the finish tile only."""
    errors = []
    for code, kind in (("S", "start"), ("F", "finish")):
        if (code in tile[side]) != (tile["kind"] == kind):
            problem = "lacks" if tile["kind"] == kind else "must not have"
            errors.append(content.error("tiles", ["tiles", i, side],
                                        f"a {tile['kind']} tile {problem} {course.TERRAIN[code]} squares ({code})"))
    return errors


def check_stages(content) -> list[ContentError]:
    errors = []
    tiles = course.tiles_by_id(content)
    start = next(t["id"] for t in tiles.values() if t["kind"] == "start")
    finish = next(t["id"] for t in tiles.values() if t["kind"] == "finish")
    stage_ids: dict[str, int] = {}
    for i, entry in enumerate(content.files["stages"]["stages"]):
        where = ["stages", i, "course"]
        if entry["id"] in stage_ids:
            errors.append(content.error("stages", ["stages", i, "id"], f"stage {entry['id']!r} defined twice"))
        stage_ids.setdefault(entry["id"], i)
        try:
            laid = course.parse_course(entry["course"])
        except course.CourseError as exc:
            errors.append(content.error("stages", where, str(exc)))
            continue
        problems = course_problems(laid, tiles, start, finish)
        if not problems:
            problems = [crossing_message(pair, laid) for pair in course.overlaps(course.place_course(content, laid))]
        errors += [content.error("stages", where, f"stage {entry['id']!r}: {p}") for p in problems]
    errors += check_stage_cards(content, stage_ids)
    return errors


def course_problems(laid: list[course.CourseTile], tiles: dict, start: str, finish: str) -> list[str]:
    """What keeps a row of tile letters from being a stage of the base game."""
    problems = []
    used = Counter(t.tile_id for t in laid)
    for entry in laid:
        if entry.tile_id not in tiles:
            problems.append(f"unknown tile {entry.letter!r}")
    for tile_id, count in sorted(used.items()):
        if count > 1 and tile_id in tiles:
            problems.append(f"tile {tile_id!r} is used {count} times")
    missing = sorted(set(tiles) - set(used))
    if missing:
        problems.append(f"tiles not used: {' '.join(missing)}")
    if laid[0].tile_id != start:
        problems.append(f"the course must begin with the start tile {start!r}, not {laid[0].letter!r}")
    if laid[-1].tile_id != finish:
        problems.append(f"the course must end with the finish tile {finish!r}, not {laid[-1].letter!r}")
    return problems


def crossing_message(pair: tuple[int, int], laid: list[course.CourseTile]) -> str:
    i, j = pair
    return (f"the course runs over itself: tile {i + 1} ({laid[i].letter}) "
            f"and tile {j + 1} ({laid[j].letter}) lie on the same ground")


def check_stage_cards(content, stage_ids: dict[str, int]) -> list[ContentError]:
    errors = []
    carded: set[str] = set()
    for i, card in enumerate(content.cards):
        if card["deck"] != "stages":
            continue
        if card["stage"] not in stage_ids:
            errors.append(content.error("cards", ["cards", i, "stage"], f"unknown stage {card['stage']!r}"))
        elif card["stage"] in carded:
            errors.append(content.error("cards", ["cards", i, "stage"], f"stage {card['stage']!r} has two cards"))
        carded.add(card["stage"])
    for stage_id, i in stage_ids.items():
        if stage_id not in carded:
            errors.append(content.error("stages", ["stages", i, "id"], f"stage {stage_id!r} has no stage card"))
    return errors


def facts(content) -> dict:
    energy = sum(c["copies"] for c in content.cards if c["deck"].startswith("energy-"))
    exhaustion = sum(c["copies"] for c in content.cards if c["deck"].startswith("exhaustion-"))
    stages = content.files["stages"]["stages"]
    squares = set()
    for entry in stages:
        try:
            squares.add(len(course.stage_squares(content, entry["id"])))
        except course.CourseError:
            pass  # reported by check_stages; the rule text cannot quote a broken stage's length
    geometry = course.geometry_of(content)
    result = {
        "energy_cards": energy,
        "energy_cards_per_team": energy // len(COLOURS),
        "energy_cards_per_rider": len(ENERGY_VALUES["rouleur"]),
        "exhaustion_cards": exhaustion,
        "exhaustion_cards_per_rider": exhaustion // len(RIDERS),
        "exhaustion_value": EXHAUSTION_VALUE,
        "teams": len(COLOURS),
        "tiles": len(content.files["tiles"]["tiles"]),
        "stages": len(stages),
        "lane_width_mm": _plain(geometry.lane_width),
        "square_length_mm": _plain(geometry.square_length),
    }
    for kind, count in Counter(t["kind"] for t in content.files["tiles"]["tiles"]).items():
        result[f"{kind}_tiles"] = count
    # Every base stage uses all tiles, so they share one length; a custom stage of another length
    # would make the number ambiguous, and a rule text may then not quote it.
    if len(squares) == 1:
        result["squares_per_stage"] = squares.pop()
    return result


def _plain(value: float) -> float | int:
    """22.0 reads better as 22 in a rule sheet."""
    return int(value) if float(value).is_integer() else value
