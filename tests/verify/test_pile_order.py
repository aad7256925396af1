"""Every pile reads one way in a scenario: its top card first, in `setup:` and in `expect:` alike,
whatever order an engine keeps it in."""

from __future__ import annotations

import pytest

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.registry import engine_for

# game, setup naming a pile top first, the expect field of that pile, the setup key of that pile
CASES = [
    ("game-of-trains", {"trains": {"P1": [10, 20, 30, 40, 50, 60, 5], "P2": [81, 75, 66, 61, 54, 47, 39]},
                        "market": [12], "deck": [70, 3, 44], "rest": "discard"}, "draw_top", "deck"),
    ("ticket-to-ride-card-game", {"hands": {"P1": [], "P2": []}, "tickets": {"P1": [1], "P2": [2]},
                                  "faceup": ["white"] * 5, "deck": ["loco", "red", "orange", "blue"]}, "deck", "deck"),
    ("ticket-to-ride-card-game", {"hands": {"P1": [], "P2": []}, "tickets": {"P1": [1], "P2": [2]},
                                  "faceup": ["white"] * 5, "ticket_deck": [30, 4, 17]}, "ticket_deck", "ticket_deck"),
    ("moscow-to-paris", {"hands": {"P1": ["swap"] * 1 + ["sleeper"] * 4, "P2": ["coach"] * 5},
                         "lines": [["moscow"], ["warsaw"], ["berlin"], ["paris"]], "deck": ["tank", "mail", "swap"]},
     "deck", "deck"),
]


@pytest.mark.parametrize("game_id, setup, field, key", CASES)
def test_a_pile_reads_top_first_in_setup_and_in_expect(game_id, setup, field, key):
    engine = engine_for(load_game(PROJECT_CONTENT, game_id))
    state = engine.new_state(2, seed=1, setup=setup)
    named = setup[key]
    assert state.fields()[field][:len(named)] == named
