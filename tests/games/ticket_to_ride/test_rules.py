"""Ticket to Ride: The Card Game rules: every scenario replays, each rule named in a test, the
hidden-information property, the four-player two-deck game, and playouts that keep every
invariant and finish."""

from __future__ import annotations

import random

import pytest

from verify.engine import IllegalAction
from verify.games.ticket_to_ride.rules import DrawBlind, Keep, Play, Take
from verify.kit import Visibility
from verify.scenario import run_scenario
from verify.simulate import simulate


def position(game, players=2, **setup):
    setup.setdefault("hands", {p: [] for p in [f"P{i}" for i in range(1, players + 1)]})
    setup.setdefault("tickets", {f"P{i}": [i] for i in range(1, players + 1)})
    setup.setdefault("faceup", ["white"] * 5)
    return game.new_state(players, setup=setup)


def test_every_scenario_replays(ttr, game):
    for path in ttr.scenario_paths:
        result = run_scenario(path, game)
        assert result.ok, result.failures


def test_setup_deals_a_locomotive_seven_cards_five_face_up_and_six_tickets(game):
    for players in (2, 3, 4):
        state = game.new_state(players, seed=players)
        for p in state.players:
            assert len(state.hands[p]) == 8 and "loco" in state.hands[p]
            assert len(state.pending[p]) == 6
        assert len(state.faceup) == 5
        assert len(state.deck) == 96 - 8 * players - 5


def test_setup_keeps_at_least_one_ticket(game):
    state = game.new_state(2, seed=1)
    with pytest.raises(IllegalAction, match="at least one"):
        state.apply("P1", Keep(()))


def test_phase_one_moves_the_top_card_of_each_column_to_the_tracks_pile(game):
    state = position(game, turn="P2", columns={"P1": {"red": ["red", "red", "loco"], "blue": ["blue"]}},
                     hands={"P1": [], "P2": ["green", "green"]})
    state.apply("P2", Play(("green", "green")))
    assert sorted(state.tracks["P1"]) == ["blue", "loco"]
    assert state.yards["P1"] == {"red": ["red", "red"]}


def test_face_up_locomotive_only_as_first_card_and_ends_the_draw(game):
    state = position(game, faceup=["loco", "loco", "red", "red", "red"], deck=["blue", "green"])
    state.apply("P1", Take("red"))
    with pytest.raises(IllegalAction, match="face-up locomotive"):
        state.apply("P1", Take("loco"))
    state.apply("P1", DrawBlind())
    state.apply("P2", Take("loco"))
    assert state.mover == "P1"


def test_blind_locomotive_counts_as_one_card(game):
    state = position(game, deck=["loco", "red"])
    state.apply("P1", DrawBlind())
    assert state.step == "draw2" and state.hands["P1"] == ["loco"]


def test_taking_over_a_colour_needs_more_cards_and_discards_the_column(game):
    state = position(game, hands={"P1": ["red", "red", "red"], "P2": []}, columns={"P2": {"red": ["red", "loco"]}})
    with pytest.raises(IllegalAction, match="shows red"):
        state.apply("P1", Play(("red", "red")))
    state.apply("P1", Play(("red", "red", "red")))
    assert sorted(state.discard) == ["loco", "red"] and "red" not in state.yards["P2"]


def test_three_colours_without_locomotives(game):
    state = position(game, hands={"P1": ["red", "blue", "loco"], "P2": []})
    with pytest.raises(IllegalAction):
        state.apply("P1", Play(("blue", "red", "loco")))


def test_end_trigger_gives_every_player_one_more_turn_the_trigger_last(game):
    state = position(game, players=3, hands={"P1": [], "P2": [], "P3": []}, deck=["red", "blue", "green"], rest="discard")
    state.apply("P1", DrawBlind())
    state.apply("P1", DrawBlind())
    movers = []
    while not state.is_terminal():
        player = state.mover
        movers.append(player)
        state.apply(player, state.legal_actions(player)[0])
        while state.step != "start" and not state.is_terminal():
            state.apply(player, state.legal_actions(player)[0])
    assert movers == ["P2", "P3", "P1"]


def test_four_players_play_two_decks(game):
    state = game.new_state(4, seed=5)
    rng = random.Random(5)
    seen_second = False
    while not state.is_terminal():
        player = state.to_move()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
        seen_second |= state.deck_number == 2
    assert seen_second and state.deck_number == 2


def test_observation_shows_exactly_what_each_player_may_see(game):
    """Hands, offered and kept tickets: owner only; tracks piles: nobody, not even the owner
    (unless beginners); decks: nobody; everything else: everyone. At the end tracks and tickets
    are shown."""
    for beginners in (False, True):
        variant = game.with_params(beginners=beginners)
        rng = random.Random(3)
        state = variant.new_state(3, seed=3)
        for step in range(400):
            if state.is_terminal():
                break
            for viewer in state.players:
                seen = state.observation(viewer)
                for zone in state.zones():
                    shown = zone.shown()
                    value = seen[zone.name] if zone.owner is None else seen[zone.name][zone.owner]
                    if zone.name in ("deck", "ticket_deck"):
                        may = False
                    elif zone.name in ("hand", "offered", "tickets"):
                        may = zone.owner == viewer
                    elif zone.name == "tracks":
                        may = beginners and zone.owner == viewer
                    else:
                        may = True
                    expected = shown if may else {"hidden": len(zone.cards)}
                    assert value == expected, (step, viewer, zone.name, zone.owner)
            player = state.to_move()[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
        assert state.is_terminal()
        for zone in state.zones():
            if zone.name in ("tracks", "tickets"):
                assert zone.visibility is Visibility.EVERYONE


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_playouts_keep_every_invariant_and_finish(game, policy):
    for players in (2, 3, 4):
        report = simulate(game, players=players, games=3, seed=players, policy=policy)
        assert report.failures == [] and report.capped == 0


def test_every_card_and_ticket_is_accounted_for(game):
    state = game.new_state(2, seed=9)
    assert state.check_invariants() == []
    assert sum(n for c, n in game.components.items() if c in game.train_cards) == 96
    assert sum(1 for c in game.components if isinstance(c, int)) == 46


def test_a_lost_or_doubled_card_breaks_the_invariant(game):
    state = game.new_state(3, seed=4)
    state.hands["P1"].append(state.deck.pop())
    assert state.check_invariants() == []
    lost = state.clone()
    lost.deck.pop()
    assert any("missing" in problem for problem in lost.check_invariants())
    doubled = state.clone()
    doubled.tickets["P2"].append(doubled.ticket_deck[-1])
    assert any("in 2 places" in problem for problem in doubled.check_invariants())


@pytest.mark.parametrize("gathered", [9, 14, 21])
@pytest.mark.parametrize("deal, short", [("one-at-a-time", "at-once"), ("four-at-a-time", "after-first-turn")])
def test_a_short_second_deal_goes_by_the_readings_and_the_final_round_follows_them(game, gathered, deal, short):
    # Everything but `gathered` locomotives sits in the hands; P3 plays the last turn of the first
    # deck with two purple cards, which are gathered too.
    colours = ["red", "orange", "blue", "black", "purple", "white", "yellow", "green"]
    hands = {f"P{i + 1}": [c for c in colours[2 * i:2 * i + 2] for _ in range(10)] for i in range(4)}
    hands["P1"] += ["loco"] * (16 - gathered + 2)
    state = game.with_params(second_deal=deal, short_second_deck=short).new_state(
        4, setup={"hands": hands, "faceup": [], "deck": [], "rest": "discard", "turn": "P3", "final_turns": 1})
    before = {p: len(h) for p, h in state.hands.items()}
    state.apply("P3", Play(("purple", "purple")))
    before["P3"] -= 2
    got = [len(state.hands[p]) - before[p] for p in ("P4", "P1", "P2", "P3")]
    if deal == "one-at-a-time":
        assert got == [min(4, gathered // 4 + (k < gathered % 4)) for k in range(4)]
    else:
        assert got == [max(0, min(4, gathered - 4 * k)) for k in range(4)]
    # At most 21 cards are gathered: 16 to deal and 5 to turn up leave the deck empty.
    assert state.deck_number == 2 and state.to_move() == ["P4"] and not state.deck
    rng = random.Random(gathered)
    for _ in range(60):
        if state.is_terminal():
            break
        player = state.to_move()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    # One turn each from P4, and a second one for P4 under the other reading (P3's turn ended deck 1).
    assert state.is_terminal() and state.turns - 1 == (4 if short == "at-once" else 5)
