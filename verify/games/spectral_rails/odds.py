"""Exact odds of the Spectral Rails setup for the rule sheet: what the two dark souls laid by a
town are likely to offer. The first town laid out takes the first two tiles of a fair shuffle
that do not name it, so its pair is a fair draw of 2 from every tile but its own town's two;
the figures hold exactly for that town and closely for the others (checked by simulation)."""

from __future__ import annotations

from sympy import Rational, binomial

from verify.games.spectral_rails.board import Board

DARK_PER_TOWN = 2


def pair_odds(board: Board, town: str) -> dict[str, Rational]:
    """For the two dark souls laid by `town`: the chance that at least one is bound for its own
    region, and the chance that both are bound for one region (one trip may deliver both)."""
    region = board.town_region[town]
    eligible = DARK_PER_TOWN * (len(board.towns) - 1)
    same_region = DARK_PER_TOWN * (len(board.region_towns[region]) - 1)
    own = 1 - binomial(eligible - same_region, 2) / binomial(eligible, 2)
    pairs = 0
    for r, towns in board.region_towns.items():
        tiles = DARK_PER_TOWN * len([t for t in towns if t != town])
        pairs += binomial(tiles, 2)
    return {"own_region": Rational(own), "one_region": Rational(pairs, binomial(eligible, 2))}


def setup_odds(content) -> list[dict]:
    """One row per side of the board, for its first town in map order (every town of a side has
    the same counts, since every region has three towns)."""
    rows = []
    for side in content.files["map"]["sides"]:
        board = Board(content.files["map"], side=side["id"])
        rows.append({"side": side["id"], "players": side["players"], **pair_odds(board, board.towns[0])})
    return rows


def setup_events(content) -> list:
    """The figures `setup_odds` gives, read off games the rules engine sets up for each side: the
    two dark souls laid by the side's first town, and the regions the dealt game's own board says
    they are bound for."""
    from verify.oddscheck import OddsEvent, zone_cards

    def regions(state, town):
        where = state.board.town_region
        return [where[state.soul_town(soul)] for soul in zone_cards(state, f"at.{town}")]

    events = []
    for row in setup_odds(content):
        town = Board(content.files["map"], side=row["side"]).towns[0]
        events += [
            OddsEvent(f"{row['side']}: own_region", row["own_region"], row["players"],
                      lambda s, t=town: s.board.town_region[t] in regions(s, t)),
            OddsEvent(f"{row['side']}: one_region", row["one_region"], row["players"],
                      lambda s, t=town: len(set(regions(s, t))) == 1),
        ]
    return events
