"""The Spectral Rails engine: each rule by name, scoring, hidden hands, setup refusals and the
invariants random games keep."""

from __future__ import annotations

import random

import pytest

from verify.engine import IllegalAction, SetupError
from verify.games.spectral_rails.rules import COIN, PASS, Board_, Deliver, Go, Play, Remove, parse_action


def act(state, player, text):
    state.apply(player, parse_action(text))


def refused(state, player, text, rule):
    before = (state.key(), state.fields())
    with pytest.raises(IllegalAction) as err:
        act(state, player, text)
    assert err.value.rule == rule, err.value
    assert (state.key(), state.fields()) == before


def test_boarding_takes_one_waiting_soul_at_the_trains_town(ring):
    s = ring(waiting={"ash": ["d-coal-1", "d-dune-1"]})
    refused(s, "P1", "board d-elm-1", "boarding")
    act(s, "P1", "board d-coal-1")
    refused(s, "P1", "board d-dune-1", "boarding")
    assert s.aboard[0] == ["d-coal-1"]


def test_fourth_soul_costs_a_card_which_goes_to_the_row(ring):
    s = ring(aboard={"P1": ["d-bell-1", "d-dune-1", "d-elm-1"]}, waiting={"ash": ["d-coal-1"]})
    refused(s, "P1", "board d-coal-1", "fourth soul")
    act(s, "P1", "board d-coal-1 paying 3")
    assert s.rows[0] == ["G3"] and len(s.aboard[0]) == 4


def test_second_card_costs_a_coin(ring):
    s = ring(coins={"P1": 0})
    refused(s, "P1", "play 2+2", "second card")
    s = ring()
    act(s, "P1", "play 2+2")
    assert len(s.coins[0]) == 1 and s.taken == 4


def test_taking_trail_needs_the_whole_value_in_supply(ring):
    trail = {f"s{k}": "P1" for k in range(3, 13)}
    s = ring(trail=trail)
    assert len(s.supply[0]) == 3
    refused(s, "P1", "play 4", "taking trail")


def test_placing_trail_never_goes_through_your_own_old_trail(ring):
    s = ring(trail={"s1": "P1"})
    act(s, "P1", "play 2")
    refused(s, "P1", "go s1 s2 bell", "own trail")
    act(s, "P1", "go s12 s11 fort")
    assert s.trains[0] == "fort" and s.track["s12"] == 0


def test_reading_others_rides_over_other_players_trail_for_free(ring):
    s = ring(trail={"s1": "P2", "s2": "P2"})
    act(s, "P1", "play 1")
    act(s, "P1", "go s1 s2 bell")
    assert s.trains[0] == "bell" and len(s.supply[0]) == 13


def test_reading_literal_rides_only_this_turns_trail(game):
    from tests.games.spectral_rails.conftest import RING
    s = game.with_params(move="literal").new_state(3, seed=1, setup={
        "map": RING, "trains": {"P1": "ash", "P2": "coal", "P3": "elm"}, "trail": {"s1": "P2", "s2": "P2"}})
    act(s, "P1", "play 2")
    refused(s, "P1", "go s1 s2 bell", "trail of this turn")


def test_a_train_must_leave_its_town(ring):
    s = ring()
    act(s, "P1", "play 4")
    refused(s, "P1", "go s1 s2", "route")
    refused(s, "P1", "go s1 s2 bell s2 s1 ash", "route")


def test_removal_takes_only_pieces_not_joined_to_the_train_and_all_of_them(ring):
    s = ring(trail={"s12": "P1", "s11": "P1", "s5": "P1", "s6": "P1"})
    act(s, "P1", "remove 4")
    refused(s, "P1", "drop s12", "removing trail")
    refused(s, "P1", "drop s11", "removing trail")
    refused(s, "P1", "stop", "removing trail")
    act(s, "P1", "drop s5")
    act(s, "P1", "drop s6")
    assert s.current == 1 and set(s.track) == {"s12", "s11"}


def test_removal_is_free_choice_when_the_train_touches_no_trail(ring):
    s = ring(trail={"s5": "P1", "s6": "P1"})
    act(s, "P1", "remove 3")
    act(s, "P1", "drop s5")
    act(s, "P1", "stop")
    assert set(s.track) == {"s6"}


def test_coin_move_rides_only_other_players_trail(ring):
    s = ring()
    assert COIN not in s.legal_actions("P1")
    s = ring(trail={"s1": "P3", "s2": "P3"})
    act(s, "P1", "coin")
    act(s, "P1", "go s1 s2 bell")
    assert s.trains[0] == "bell" and len(s.coins[0]) == 1


def test_delivery_only_where_the_train_stops(ring):
    s = ring(aboard={"P1": ["d-bell-1", "d-coal-1"]})
    act(s, "P1", "play 4")
    act(s, "P1", "go s1 s2 bell s3 s4 coal")
    assert Deliver("d-bell-1") not in s.legal_actions("P1")
    act(s, "P1", "deliver d-coal-1")
    assert s.delivered1[0] == ["d-coal-1"] and s.aboard[0] == ["d-bell-1"]


def test_passing_ends_your_round_and_the_last_pass_recovers_half_the_row_from_the_left(ring):
    s = ring(hands={"P1": [1, 1, 2, 2]}, rows={"P1": [4, 4, 3, 3, 2]}, coins={"P1": 0}, passed=["P2", "P3"])
    act(s, "P1", "pass")
    assert s.round == 2 and s.phase == "auction"
    assert sorted(s.hands[0]) == ["G1", "G1", "G2", "G2", "G4", "G4"]
    assert s.rows[0] == ["G3", "G3", "G2"] and len(s.coins[0]) == 2


def test_auction_winner_clears_any_trail_and_names_the_start_player(ring):
    s = ring(round=2, phase="auction", trail={"s3": "P2", "s4": "P3"})
    act(s, "P1", "bid 2")
    refused(s, "P2", "bid 1", "auction")
    act(s, "P2", "pass")
    act(s, "P3", "pass")
    assert s.phase == "clear"
    act(s, "P1", "clear s3")
    act(s, "P1", "clear s4")
    refused(s, "P1", "clear s4", "auction")
    act(s, "P1", "leader P3")
    assert s.phase == "turn" and s.current == 2 and len(s.supply[1]) == len(s.supply[2]) == 13


@pytest.mark.parametrize("reading, keep, back, row", [("choice", "pass keep 1", "G1", "G3"),
                                                      ("choice", "pass keep 3", "G3", "G1"),
                                                      ("highest", "pass", "G3", "G1")])
def test_a_bidder_who_passes_takes_back_the_card_the_reading_says(game, reading, keep, back, row):
    from tests.games.spectral_rails.conftest import RING

    s = game.with_params(auction_keep=reading).new_state(
        3, seed=1, setup={"map": RING, "trains": {"P1": "ash", "P2": "coal", "P3": "elm"}, "round": 2, "phase": "auction"})
    refused(s, "P1", "bid 1+3", "auction")  # the 3 alone beats no bid: the 1 is a card to spare
    act(s, "P1", "bid 1")
    act(s, "P2", "bid 2")
    act(s, "P3", "pass")
    act(s, "P1", "bid 3")  # 1 + 3 beats 2
    refused(s, "P2", "bid 3+1", "auction")  # 2 + 3 beats 4 already
    act(s, "P2", "bid 3")
    offered = [str(a) for a in s.legal_actions("P1") if str(a).startswith("pass")]
    assert offered == (["pass keep 3", "pass keep 1"] if reading == "choice" else ["pass"])
    refused(s, "P1", "pass" if reading == "choice" else "pass keep 3", "auction")
    refused(s, "P1", "pass keep 2", "auction")
    hand = sorted(s.hands[0])
    act(s, "P1", keep)
    assert sorted(s.hands[0]) == sorted(hand + [back]) and s.rows[0] == [row]


def test_a_card_is_kept_only_when_leaving_the_auction(ring):
    s = ring()
    refused(s, "P1", "pass keep 2", "passing")


def test_the_second_half_lays_light_souls_and_restarts_at_red_towns(ring):
    s = ring(round=3, passed=["P2", "P3"], aboard={"P2": ["d-ash-1"]})
    act(s, "P1", "pass")
    assert s.round == 4 and all(t is None for t in s.trains)
    assert all(len(v) == 1 and v[0].startswith("l-") for v in s.waiting.values())
    assert s.aboard[1] == ["d-ash-1"] and s.bag
    for p in ("P1", "P2", "P3"):
        act(s, p, "pass")
    assert s.phase == "start"
    refused(s, "P1", "start ash", "start towns")


def test_scoring_region_bonuses_and_souls_left_aboard(ring):
    s = ring(round=6, passed=["P2", "P3"], waiting={},
             delivered={"P1": {"one": ["d-ash-1", "d-bell-1", "l-coal"], "two": ["d-dune-1"]}},
             aboard={"P1": ["d-elm-1", "d-fort-1"]})
    total, parts = s.final_score(0)
    assert parts == {"souls": 5, "every_region": 6, "whole_regions": 3, "aboard": -2, "total": 12}
    act(s, "P1", "pass")
    assert s.is_terminal() and s.result()["winner"] == "P1"


def test_hands_are_hidden_from_other_players(ring):
    s = ring()
    seen = s.observation("P2")
    assert seen["hand"]["P1"] == {"hidden": 9} and seen["hand"]["P2"][0].startswith("P")
    other = s.clone()
    other.hands[0][:] = ["G4"] * 9
    assert other.observation("P2") == seen
    assert other.observation("P1") != s.observation("P1")


def test_setup_refusals_name_the_field(game):
    from tests.games.spectral_rails.conftest import RING
    cases = [({"map": RING, "trains": {"P1": "nowhere"}}, "trains.P1"),
             ({"map": RING, "round": 9}, "round"),
             ({"map": RING, "trail": {"s99": "P1"}}, "trail.s99"),
             ({"map": RING, "waiting": {"ash": ["d-ash-1"]}}, "waiting.ash"),
             ({"map": {**RING, "routes": RING["routes"][:2]}}, "map"),
             ({"bogus": 1}, "bogus")]
    for setup, field in cases:
        with pytest.raises(SetupError) as err:
            game.new_state(3, seed=1, setup=setup)
        assert err.value.field == field, (setup, err.value)


def play_to_the_end(state, rng, invariants=False):
    """Random legal actions to the end; every legal action must read back from its text."""
    while not state.is_terminal():
        player = state.to_move()[0]
        actions = state.legal_actions(player)
        for action in actions:
            assert parse_action(str(action)) == action
        state.apply(player, rng.choice(actions))
        if invariants:
            assert state.check_invariants() == []


def test_every_legal_action_parses_back(game):
    play_to_the_end(game.new_state(4, seed=2), random.Random(2))


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_keep_trail_cards_and_souls_and_end_after_round_six(game, players):
    rng = random.Random(players)
    for n in range(5):
        state = game.new_state(players, seed=n)
        while not state.is_terminal():
            player = state.to_move()[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
            assert state.check_invariants() == []
        assert state.round == 6 and not state.round_track and len(state.wrecks_off) == 6
        souls = sum(len(z.cards) for z in state.zones() if z.name in ("aboard", "delivered_one", "delivered_two", "bag",
                                                                         "light_pile", "box") or z.name.startswith("at."))
        assert souls == 54


def test_the_fast_greedy_estimate_equals_the_score_after_playing_the_action(game):
    rng = random.Random(5)
    state = game.new_state(3, seed=5)
    checked = 0
    while not state.is_terminal():
        player = state.to_move()[0]
        actions = state.legal_actions(player)
        for action in actions:
            trial = state.clone()
            trial.apply(player, action)
            assert state.score_action(player, action) == pytest.approx(trial.score(player), abs=1e-9), str(action)
            checked += 1
        # the whole choice scored at once: the very same numbers, to the last bit
        assert state.score_actions(player, actions) == [state.score_action(player, a) for a in actions]
        state.apply(player, rng.choice(actions))
    assert checked > 500


@pytest.mark.parametrize("params", [{}, {"light": 2, "auction_keep": "highest"}, {"board_stay": True, "seats": 4},
                                    {"move_end": "anywhere", "lay": "reach"}])
def test_a_whole_choice_scores_as_each_action_alone(game, params):
    """Greedy play scores every legal action at once; bids, starts, deliveries and the pass that
    ends a round are worked out without a copy, and must still equal `score_action`."""
    configured = game.with_params(**params)
    rng = random.Random(3)
    kinds = set()
    for players in (3, 4):
        state = configured.new_state(players, seed=players)
        while not state.is_terminal():
            player = state.to_move()[0]
            actions = state.legal_actions(player)
            scores = state.score_actions(player, actions)
            assert scores == [state.score_action(player, a) for a in actions], state.phase
            kinds.update((state.phase, type(a).__name__) for a in actions)
            best = max(scores)
            # mostly greedy, so games reach the later rounds with souls delivered and aboard
            pick = [a for a, s in zip(actions, scores) if s == best] if rng.random() < 0.7 else actions
            state.apply(player, rng.choice(pick))
    assert {("start", "Start"), ("auction", "Bid"), ("auction", "Pass"), ("clear", "Clear"), ("clear", "Leader"),
            ("turn", "Deliver"), ("turn", "End"), ("turn", "Pass")} <= kinds


def with_reading(game, **params):
    from tests.games.spectral_rails.conftest import RING

    def make(**setup):
        return game.with_params(**params).new_state(
            3, seed=1, setup={"map": RING, "trains": {"P1": "ash", "P2": "coal", "P3": "elm"}, **setup})
    return make


@pytest.mark.parametrize("seats, boards", [(6, False), (7, True), ("none", True)])
def test_the_seat_limit_is_a_reading(game, seats, boards):
    s = with_reading(game, seats=seats)(aboard={"P1": ["d-bell-1", "d-bell-2", "d-coal-2", "d-dune-1", "d-elm-1", "d-fort-1"]},
                                        waiting={"ash": ["d-coal-1"]})
    assert any(str(a).startswith("board") for a in s.legal_actions("P1")) == boards
    if boards:
        act(s, "P1", "board d-coal-1 paying 1")
        assert len(s.aboard[0]) == 7
    else:
        refused(s, "P1", "board d-coal-1 paying 1", "seats")


@pytest.mark.parametrize("reading, allowed", [("anyone", {"s1", "s5", "s9"}), ("own", {"s1"}), ("others", {"s5", "s9"})])
def test_whose_trail_the_auction_winner_removes_is_a_reading(game, reading, allowed):
    s = with_reading(game, auction_clear=reading)(round=2, phase="auction", trail={"s1": "P1", "s5": "P2", "s9": "P3"})
    act(s, "P1", "bid 3")
    act(s, "P2", "pass")
    act(s, "P3", "pass")
    assert {str(a)[6:] for a in s.legal_actions("P1") if str(a).startswith("clear")} == allowed
    for space in {"s1", "s5", "s9"} - allowed:
        refused(s, "P1", f"clear {space}", "auction")


def test_remove_exactly_needs_and_takes_the_whole_value(game):
    make = with_reading(game, remove_count="exactly")
    s = make(trail={"s5": "P1", "s6": "P1", "s8": "P1"})
    assert {str(a) for a in s.legal_actions("P1") if str(a).startswith("remove")} == {"remove 1", "remove 2", "remove 3", "remove 2+1", "remove 1+1"}
    refused(s, "P1", "remove 4", "removing trail")
    act(s, "P1", "remove 2")
    act(s, "P1", "drop s8")
    assert "stop" not in {str(a) for a in s.legal_actions("P1")}
    refused(s, "P1", "stop", "removing trail")
    act(s, "P1", "drop s6")
    assert s.current == 1 and s.track == {"s5": 0}


@pytest.mark.parametrize("stay", [False, True])
def test_after_boarding_the_train_moves_or_by_the_reading_may_stay(game, stay):
    s = with_reading(game, board_stay=stay)(hands={"P1": [1]}, coins={"P1": 0}, waiting={"ash": ["d-coal-1"]})
    if not stay:
        refused(s, "P1", "board d-coal-1", "moving")
        assert [str(a) for a in s.legal_actions("P1")] == ["pass"]
        return
    act(s, "P1", "board d-coal-1")
    assert [str(a) for a in s.legal_actions("P1")] == ["stay"]
    act(s, "P1", "stay")
    assert s.trains[0] == "ash" and s.aboard[0] == ["d-coal-1"] and s.current == 1


@pytest.mark.parametrize("params", [{"auction_keep": "highest", "auction_clear": "own", "remove_count": "exactly"},
                                    {"seats": "none", "board_stay": True, "auction_clear": "others"},
                                    {"short_supply": "remove-then-take", "seats": 4},
                                    {"move_end": "anywhere", "move": "literal"}, {"move_end": "anywhere"},
                                    {"lay": "reach", "move": "literal"}, {"lay": "reach", "move_end": "anywhere"}])
def test_random_games_keep_every_invariant_under_the_other_readings(game, params):
    rng = random.Random(7)
    configured = game.with_params(**params)
    for n in range(3):
        play_to_the_end(configured.new_state(3, seed=n), rng, invariants=True)


@pytest.mark.parametrize("reading", ["no-move", "remove-then-take"])
def test_a_card_worth_more_than_the_supply_moves_only_under_remove_then_take(game, reading):
    trail = {f"s{k}": "P1" for k in range(3, 13)}  # 3 pieces left; s11 and s12 are joined to the train
    s = with_reading(game, short_supply=reading)(trail=trail)
    plays = {str(a) for a in s.legal_actions("P1") if str(a).startswith("play")}
    if reading == "no-move":
        assert "play 4" not in plays
        refused(s, "P1", "play 4", "taking trail")
        return
    assert "play 4" in plays
    act(s, "P1", "play 4")
    assert [str(a) for a in s.legal_actions("P1")] == [f"drop s{k}" for k in range(3, 11)]
    refused(s, "P1", "stop", "taking trail")
    act(s, "P1", "drop s5")
    assert s.step == "go" and s.taken == 4 and len(s.supply[0]) == 4
    act(s, "P1", "go s1 s2 bell")
    assert s.trains[0] == "bell" and len(s.supply[0]) == 2


def test_a_train_stands_on_the_track_only_when_a_move_may_end_there(game):
    with pytest.raises(SetupError, match="only when a move may end there"):
        with_reading(game)(trains={"P1": "s2", "P2": "coal", "P3": "elm"})
    s = with_reading(game, move_end="anywhere")(trains={"P1": "s2", "P2": "coal", "P3": "elm"}, trail={"s2": "P1"})
    assert "s2" in s._connected(0)  # the piece under the train is joined to it and cannot be taken back
    act(s, "P1", "play 2")
    assert {"go s1", "go bell", "stay"} <= {str(a) for a in s.legal_actions("P1")}
    act(s, "P1", "go s1")
    assert s.trains[0] == "s1" and s.track == {"s1": 0, "s2": 0}


def test_with_lay_reach_a_piece_goes_anywhere_within_reach_and_may_be_ridden_this_turn(game):
    s = with_reading(game, lay="reach", move="literal")(trail={"s3": "P2"})
    act(s, "P1", "play 3")
    lays = {str(a) for a in s.legal_actions("P1") if str(a).startswith("lay")}
    assert lays == {"lay s1", "lay s12"}  # next to ash; beyond them only once they are laid
    act(s, "P1", "lay s1")
    assert "lay s2" in {str(a) for a in s.legal_actions("P1")}
    act(s, "P1", "lay s12")
    act(s, "P1", "go s1 s2 bell")  # s1 was laid this turn: ridden for nothing, s2 gets the last piece
    assert s.trains[0] == "bell" and s.track == {"s1": 0, "s2": 0, "s3": 1, "s12": 0} and len(s.supply[0]) == 10
    refused(with_reading(game)(), "P1", "lay s1", "laying trail")


def test_a_scenario_may_start_in_an_auction_under_way(game):
    make = with_reading(game)
    s = make(round=2, phase="auction", bids={"P1": [2, 3], "P2": [4]}, passed=["P3"], turn="P2")
    assert s.high == 5 and s.high_player == 0 and s.current == 1 and s.out == [False, False, True]
    assert sorted(s.bids[0]) == ["G2", "G3"] and s.hands[0].count("G2") == 2
    act(s, "P2", "pass keep 4")
    assert s.phase == "clear" and s.current == 0 and s.hands[1].count("P4") == 2 and s.clear_left == 5
    for setup, field in (({"bids": {"P1": [2]}}, "bids"),
                         ({"phase": "auction", "round": 2, "bids": {"P1": [3], "P2": [3]}}, "bids"),
                         ({"phase": "auction", "round": 2, "bids": {"P1": [5]}}, "bids.P1"),
                         ({"phase": "auction", "round": 2, "passed": ["P2"], "turn": "P2"}, "turn"),
                         ({"phase": "auction", "round": 2, "bids": {"P1": [3]}, "turn": "P1"}, "turn")):
        with pytest.raises(SetupError) as err:
            make(**setup)
        assert err.value.field == field


def test_with_moves_ending_anywhere_a_coin_move_may_stop_on_the_trail_it_rides(game):
    s = with_reading(game, move_end="anywhere")(trail={"s1": "P2", "s2": "P2"})
    act(s, "P1", "coin")
    assert {str(a) for a in s.legal_actions("P1")} == {"go s1", "go s1 s2", "go s1 s2 bell"}
    act(s, "P1", "go s1 s2")
    assert s.trains[0] == "s2" and s.track == {"s1": 1, "s2": 1}


def _plant_own_town_soul(s):
    soul = s.light.pop()  # the light souls wait in their pile during the first half
    s.waiting[s.soul_town(soul)].append(soul)


def _plant_trail_of_another_colour(s):
    s.supply[0].pop()
    s.supply[1].append("trail-green")  # P1's piece in P2's supply: every piece is there, the counts are not


FAULTS = {
    "a card lost": lambda s: s.hands[0].pop(),
    "a card duplicated": lambda s: s.rows[1].append(s.hands[1][0]),
    "a card turned into another": lambda s: s.hands[0].__setitem__(0, "G4" if s.hands[0][0] != "G4" else "G1"),
    "a soul lost": lambda s: s.light.pop(),
    "a wreck lost": lambda s: s.round_track.pop(),
    "a coin lost from the bank": lambda s: s.bank.pop(),
    "a soul in two places": lambda s: s.delivered1[2].append(s.light[0]),
    "a trail piece lost": lambda s: s.supply[2].pop(),
    "a trail piece laid without leaving the supply": lambda s: s.track.__setitem__(
        next(x for x in s.board.spaces if x not in s.track), 1),
    "a trail piece in another player's supply": _plant_trail_of_another_colour,
    "a third coin": lambda s: s.coins[0].append(s.bank.pop()),
    "a seventh soul aboard": lambda s: s.aboard[0].extend(s.light.pop() for _ in range(7 - len(s.aboard[0]))),
    "a soul waiting at its own town": _plant_own_town_soul,
    "a seventh round": lambda s: setattr(s, "round", 7),
    "the end before the sixth round": lambda s: setattr(s, "phase", "over"),
    "a train off the map during a round": lambda s: s.trains.__setitem__(1, None),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_the_fast_invariant_check_finds_every_planted_fault(game, fault):
    """`check_invariants` looks again only where a zone changed since the last check; a fault
    planted after a few checked actions is still found, and named as the full check names it."""
    rng = random.Random(4)
    state = game.new_state(3, seed=4)
    while state.phase != "turn" or state.round < 2 or len(state.track) < 4:
        player = state.to_move()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
        assert state.check_invariants() == []
    FAULTS[fault](state)
    found = state.check_invariants()
    assert found, fault
    assert found == state.full_check()
    assert state.check_invariants() == found  # and again, with nothing changed since


def test_the_fast_invariant_check_agrees_with_the_full_check_over_whole_games(game):
    """After every action of random and greedy games, the fast check and the full check give the
    same answer: nothing amiss."""
    from verify.simulate import chooser
    for players, policy, seed in ((3, "random", 1), (4, "greedy", 2), (4, "random", 3)):
        state = game.new_state(players, seed=seed)
        pick = chooser(state, policy, random.Random(seed))
        while not state.is_terminal():
            player = state.to_move()[0]
            state.apply(player, pick(player, state.legal_actions(player)))
            assert state.check_invariants() == state.full_check() == []


def _other_piece(s, p):
    return f"trail-{s.colours[(p + 1) % len(s.players)]}"


def _third_coin(s, p):
    needed = 3 - len(s.coins[p])
    if len(s.bank) < needed:
        raise IndexError("the bank holds too few coins")
    s.coins[p] += [s.bank.pop() for _ in range(needed)]


# Faults planted in the very zones an action of each kind has just changed, before the check.
FAULTS_WHERE_PLAYED = {
    "Play": [lambda s, p: s.rows[p].append(s.rows[p][0]), lambda s, p: s.hands[(p + 1) % len(s.players)].append(s.rows[p].pop(0)),
             lambda s, p: s.rows[p].__setitem__(0, s.rows[(p + 1) % len(s.players)][0] if s.rows[(p + 1) % len(s.players)]
                                                 else s.light[0])],
    "Remove": [lambda s, p: s.rows[p].pop(0)],
    "Go": [lambda s, p: s.supply[p].pop(), lambda s, p: s.supply[p].__setitem__(0, _other_piece(s, p)),
           lambda s, p: s.track.__setitem__(next(x for x, o in s.track.items() if o == p), (p + 1) % len(s.players)),
           lambda s, p: s.track.__setitem__(next(x for x in s.board.spaces if x not in s.track), p)],
    "Drop": [lambda s, p: s.supply[p].append(s.supply[p][0]), lambda s, p: s.supply[p].__setitem__(-1, _other_piece(s, p)),
             lambda s, p: s.track.__setitem__(next(x for x in s.board.spaces if x not in s.track), (p + 1) % len(s.players))],
    "Board_": [lambda s, p: s.aboard[p].append(s.aboard[p][0]),
               lambda s, p: s.waiting[s.trains[p]].append(s.aboard[p][-1]),
               lambda s, p: s.aboard[p].extend((s.bag + s.light)[:s.game.seats + 1 - len(s.aboard[p])])],
    "Deliver": [lambda s, p: s.aboard[p].append((s.delivered1[p] + s.delivered2[p])[-1])],
    "Coin": [lambda s, p: s.bank.append("coin"), lambda s, p: _third_coin(s, p)],
    "Bid": [lambda s, p: s.bids[p].append(s.bids[p][0]), lambda s, p: s.bids[p].__setitem__(0, s.light[0])],
    "Start": [lambda s, p: s.waiting[s.trains[p]].append(next(x for x in s.bag + s.light
                                                               if s.soul_town(x) == s.trains[p]))],
}


@pytest.mark.parametrize("kind,which", [(kind, i) for kind, faults in FAULTS_WHERE_PLAYED.items()
                                        for i in range(len(faults))])
def test_a_fault_planted_where_the_last_action_played_is_found(game, kind, which):
    """A fault planted in a zone the last action changed, before the check that follows it, is
    found, and named as the full check names it; and found again by the next check."""
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_state(4, seed=seed)
        while not state.is_terminal():
            player = state.to_move()[0]
            action = rng.choice(state.legal_actions(player))
            state.apply(player, action)
            if type(action).__name__ == kind and (kind != "Start" or state.bag or state.light):
                try:
                    FAULTS_WHERE_PLAYED[kind][which](state, state.index[player])
                except (IndexError, StopIteration):  # nothing of the kind to plant here: play on
                    assert state.check_invariants() == []
                    continue
                found = state.check_invariants()
                assert found and found == state.full_check(), (kind, which)
                assert state.check_invariants() == found
                return
            assert state.check_invariants() == []
    pytest.fail(f"no {kind} played")
