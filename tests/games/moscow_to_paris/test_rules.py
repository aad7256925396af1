"""Moscow to Paris rules, each test named after the rule it checks: the four actions and their
limits, claiming, lines closing up, the five action cards, the trade's hidden offer, the dead end,
the end, scoring with flag rows, ties and teams, random playouts keeping every invariant, and the
greedy scores of a whole choice equal to those of playing each action."""

from __future__ import annotations

import random

import pytest

from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.registry import engine_for
from verify.engine import IllegalAction, SetupError
from verify.kit import conservation_problems
from verify.games.moscow_to_paris.rules import PlayLine
from verify.simulate import chooser, simulate

CITIES = [{"id": c, "country": k, "points": p, "capital": cap, "line": n} for c, k, p, cap, n in (
    ("a", "north", 2, True, 3), ("b", "north", 1, False, 2), ("c", "south", 1, False, 2),
    ("d", "south", 2, True, 3), ("e", "east", 3, False, 4), ("f", "west", 1, False, 2))]
DATA = {"trains": {"red": 10, "blue": 10, "green": 10, "grey": 12}, "actions": {"swap": 1, "clear-two": 1, "trade": 1,
                                                                           "close-line": 1}, "cities": CITIES}


@pytest.fixture(scope="module")
def game():
    return engine_for(load_game(PROJECT_CONTENT, "moscow-to-paris"))


def start(game, players=2, params=None, **setup):
    setup.setdefault("data", DATA)
    setup.setdefault("lines", [["a"], ["b"], ["c"], ["d"]])
    return game.with_params(**(params or {})).new_state(players, seed=1, setup=setup)


def act(state, player, text):
    state.apply(player, state.parse_action(text))


def test_action_1_refuses_a_second_card_of_a_kind_in_a_line(game):
    state = start(game, hands={"P1": ["red", "red", "blue", "blue", "green"], "P2": ["grey"] * 5},
                  lines=[["red", "a"], ["b"], ["c"], ["d"]])
    with pytest.raises(IllegalAction, match="already holds a red"):
        act(state, "P1", "line 1 right red")


def test_action_1_refuses_a_line_beyond_its_city_limit(game):
    state = start(game, hands={"P1": ["red", "red", "blue", "blue", "green"], "P2": ["grey"] * 5},
                  lines=[["a"], ["red", "b", "blue"], ["c"], ["d"]])
    with pytest.raises(IllegalAction, match="is full"):
        act(state, "P1", "line 2 left green")


def test_action_1_draws_a_card_and_actions_3_and_4_do_not(game):
    # Four turns without progress: the repeated-position reading keeps the dead end out of the way.
    state = start(game, params={"dead_end": "repeat"}, hands={"P1": ["red", "red", "blue", "blue", "green"], "P2": ["grey"] * 5})
    size = len(state.deck)
    act(state, "P1", "line 1 left red")
    assert len(state.deck) == size - 1 and len(state.hands["P1"]) == 5
    act(state, "P2", "front grey")
    act(state, "P1", "front blue")
    act(state, "P2", "back grey")
    assert len(state.deck) == size - 1


def test_hand_and_front_always_hold_five_and_front_at_most_four(game):
    with pytest.raises(SetupError):
        start(game, hands={"P1": ["red"] * 5, "P2": ["grey"] * 4})
    state = start(game, hands={"P1": ["red"], "P2": ["grey"] * 5}, fronts={"P1": ["blue"] * 4})
    with pytest.raises(IllegalAction, match="at most 4"):
        act(state, "P1", "front red")


def test_claiming_needs_every_line_card_covered_by_the_front(game):
    state = start(game, hands={"P1": ["green", "grey", "grey"], "P2": ["grey"] * 5}, fronts={"P1": ["red", "blue"]},
                  lines=[["red", "a", "green"], ["b"], ["c"], ["d"]])
    act(state, "P1", "front grey")
    assert state.phase == "act" and state.to_move() == ["P2"]
    act(state, "P2", "line 2 left grey")
    act(state, "P1", "front green")
    assert state.phase == "claim"
    act(state, "P1", "claim 1")
    assert state.taken["P1"] == ["a"] and sorted(state.fronts["P1"]) == ["blue", "grey"]
    assert len(state.hands["P1"]) + len(state.fronts["P1"]) == 5


@pytest.mark.parametrize("mode, claimable", [("cover", False), ("within", True), ("exact", False)])
def test_claim_readings_of_partly_or_wholly_the_same(game, mode, claimable):
    state = start(game, 2, {"claim": mode}, hands={"P1": ["grey"] * 4, "P2": ["grey"] * 5},
                  fronts={"P1": ["red"]}, lines=[["red", "a", "green"], ["b"], ["c"], ["d"]])
    assert (state.claimable("P1") == [0]) is claimable


def test_lines_close_up_towards_the_city_when_a_card_is_discarded(game):
    state = start(game, hands={"P1": ["clear-two", "red", "red", "red", "red"], "P2": ["grey"] * 5},
                  lines=[["green", "blue", "a"], ["red", "b"], ["c"], ["d"]])
    act(state, "P1", "play clear-two L1 1 2")
    assert state.row(0) == ["green", "a"] and state.row(1) == ["b"]


def test_action_card_1_swap_keeps_lines_free_of_duplicates(game):
    state = start(game, hands={"P1": ["swap", "red", "red", "red"], "P2": ["grey"] * 5}, fronts={"P1": ["blue"]},
                  lines=[["green", "a", "blue"], ["green", "b"], ["c"], ["d"]])
    with pytest.raises(IllegalAction, match="two blue"):
        act(state, "P1", "play swap 1:green P1:blue")
    act(state, "P1", "play swap 2:green P1:blue")
    assert state.row(1) == ["blue", "b"] and state.fronts["P1"] == ["green"]


def test_action_card_5_closed_city_leaves_the_game(game):
    state = start(game, hands={"P1": ["close-line", "red", "red", "red", "red"], "P2": ["grey"] * 5},
                  lines=[["green", "a"], ["b"], ["c"], ["d"]], city_deck=["e"])
    act(state, "P1", "play close-line 1")
    assert state.removed == ["a"] and state.city_at[0] == "e" and "a" not in state.city_deck


def test_action_card_4_offer_is_hidden_from_the_player_asked(game):
    state = start(game, 3, hands={"P1": ["trade", "red", "red", "blue", "blue"], "P2": ["grey"] * 5,
                                  "P3": ["green"] * 5})
    act(state, "P1", "play trade left red")
    assert state.to_move() == ["P2"]
    seen = state.observation("P2")
    other = state.clone()
    other.offers["P1"][:] = ["blue"]
    other.hands["P1"][:] = ["red", "red", "blue"]
    assert other.observation("P2") == seen
    assert state.observation("P1")["offer"]["P1"] == ["red"]


def test_action_card_4_trade_stops_when_anyone_declines(game):
    state = start(game, 3, hands={"P1": ["trade", "red", "red", "blue", "blue"], "P2": ["grey"] * 5,
                                  "P3": ["green"] * 5})
    act(state, "P1", "play trade left red")
    act(state, "P2", "give grey")
    assert state.phase == "continue" and state.to_move() == ["P2"]
    act(state, "P2", "decline")
    assert state.phase == "act" and state.to_move() == ["P2"] and state.hands["P3"] == ["green"] * 5


@pytest.mark.parametrize("reading", ["no-progress", "repeat"])
def test_dead_end_resets_hands_fronts_and_lines(game, reading):
    # Four turns that go round in a loop: under both readings the fourth reaches the dead end.
    state = start(game, params={"dead_end": reading}, hands={"P1": ["red", "red", "blue", "blue"], "P2": ["grey"] * 4},
                  fronts={"P1": ["green"], "P2": ["green"]}, lines=[["blue", "a"], ["b"], ["c"], ["d"]])
    for player, text in (("P1", "front red"), ("P2", "front grey"), ("P1", "back red")):
        act(state, player, text)
        assert state.dead_ends == 0
    act(state, "P2", "back grey")
    assert state.dead_ends == 1
    assert state.row(0) == ["a"] and all(len(state.hands[p]) == 5 and not state.fronts[p] for p in state.players)


def test_dead_end_by_default_comes_after_two_rounds_without_progress_even_with_no_position_repeated(game):
    hands = {"P1": ["red", "blue", "green", "grey", "clear-two"], "P2": ["grey", "grey", "red", "blue", "green"]}
    for players, reading, resets in ((2, "no-progress", 1), (2, "repeat", 0)):
        state = start(game, params={"dead_end": reading}, hands=hands, deck=["red"] * 8)
        for player, text in (("P1", "line 1 left red"), ("P2", "line 2 left grey"), ("P1", "line 3 left blue")):
            act(state, player, text)
        assert (state.quiet_turns, state.dead_ends) == (3, 0)
        act(state, "P2", "line 4 left red")
        assert state.dead_ends == resets
        assert state.quiet_turns == (0 if resets else 4)


def test_a_card_discarded_from_a_line_is_progress_and_starts_the_count_again(game):
    state = start(game, hands={"P1": ["red", "blue", "green", "grey", "clear-two"], "P2": ["grey", "grey", "red", "blue", "green"]},
                  lines=[["blue", "a"], ["green", "b"], ["c"], ["d"]])
    act(state, "P1", "front red")
    act(state, "P2", "front grey")
    assert state.quiet_turns == 2
    act(state, "P1", "play clear-two L1 1 2")
    assert state.quiet_turns == 0 and state.dead_ends == 0


def test_a_player_with_no_action_discards_or_passes_by_the_reading(game):
    hands = {"P1": ["swap", "swap", "clear-two", "clear-two", "swap"], "P2": ["grey"] * 5}
    discarding = start(game, hands=hands, data={**DATA, "actions": {"swap": 3, "clear-two": 2}})
    assert {str(a) for a in discarding.legal_actions("P1")} == {"discard swap", "discard clear-two"}
    passing = start(game, params={"no_action": "pass"}, hands=hands, data={**DATA, "actions": {"swap": 3, "clear-two": 2}})
    assert [str(a) for a in passing.legal_actions("P1")] == ["pass"]
    act(passing, "P1", "pass")
    assert passing.hands["P1"] == hands["P1"] and passing.to_move() == ["P2"]
    with pytest.raises(IllegalAction, match="only a player who can take none"):
        act(passing, "P2", "pass")


def test_trade_with_no_train_card_is_refused_or_spent_for_nothing_by_the_reading(game):
    hands = {"P1": ["trade", "swap", "clear-two", "close-line", "swap"], "P2": ["grey"] * 5}
    data = {**DATA, "actions": {"swap": 2, "clear-two": 1, "trade": 1, "close-line": 1}}
    refused = start(game, hands=hands, data=data)
    assert "play trade" not in {str(a) for a in refused.legal_actions("P1")}
    with pytest.raises(IllegalAction, match="need a train card"):
        act(refused, "P1", "play trade")
    allowed = start(game, params={"empty_trade": True}, hands=hands, data=data, deck=["red"])
    assert "play trade" in {str(a) for a in allowed.legal_actions("P1")}
    act(allowed, "P1", "play trade")
    assert allowed.discard == ["trade"] and "red" in allowed.hands["P1"] and allowed.to_move() == ["P2"]
    with_train = start(game, params={"empty_trade": True}, hands={**hands, "P1": ["trade", "red", "swap", "swap", "clear-two"]},
                       data=data)
    with pytest.raises(IllegalAction, match="you hold a train card"):
        act(with_train, "P1", "play trade")


def test_homeland_counts_in_the_flag_row_of_the_country_written_on_it(game):
    own = game.with_params(homeland=True)
    joined = game.with_params(homeland=True, homeland_row="russia")
    assert own.data.cities["homeland"].country == "homeland"
    assert joined.data.cities["homeland"].country == "russia"
    with pytest.raises(ValueError, match="params.homeland_row"):
        game.with_params(homeland_row="atlantis")


@pytest.mark.parametrize("players", [2, 3])
def test_the_team_game_with_fewer_than_four_players_is_refused(game, players):
    with pytest.raises(ValueError, match="params.teams: the team game is for 4 players"):
        game.with_params(teams=True).new_state(players, seed=1)


def test_game_ends_when_a_line_empties_and_the_city_deck_is_empty(game):
    state = start(game, hands={"P1": ["close-line", "red", "red", "red", "red"], "P2": ["grey"] * 5},
                  city_deck=[], city_rest="removed")
    act(state, "P1", "play close-line 4")
    assert state.is_terminal() and sum(c is not None for c in state.city_at) == 3


def test_scoring_adds_one_point_per_flag_row(game):
    state = start(game, hands={"P1": ["close-line", "red", "red", "red", "red"], "P2": ["grey"] * 5},
                  lines=[["e"], ["b"], ["c"], ["f"]], taken={"P1": ["a", "d"], "P2": []},
                  city_deck=[], city_rest="removed")
    assert state.breakdown(["a", "b", "d"]) == {"cities": 3, "points": 5, "flags": 2, "capitals": 2, "total": 7}
    act(state, "P1", "play close-line 1")
    assert state.result()["scores"] == {"P1": 6, "P2": 0}


def test_team_game_pools_cities_before_counting_flag_rows(game):
    state = start(game, 4, {"teams": True}, hands={p: ["red", "blue", "green", "grey", "grey"] for p in ("P1", "P2", "P3", "P4")},
                  lines=[["e"], ["b"], ["c"], ["f"]], taken={"P1": ["a"], "P3": ["d"]})
    assert state.scores() == {"P1+P3": 6, "P2+P4": 0}


def walk(state, steps, choose):
    """Play up to `steps` actions of a game, each the one `choose(player, legal actions)` returns."""
    for _ in range(steps):
        if state.is_terminal():
            break
        player = state.to_move()[0]
        state.apply(player, choose(player, state.legal_actions(player)))


def test_parse_action_reads_back_every_legal_action(game):
    state = game.new_state(3, seed=4)
    rng = random.Random(4)

    def choose(player, actions):
        for action in actions:
            assert state.parse_action(str(action)) == action
        return rng.choice(actions)

    walk(state, 120, choose)


@pytest.mark.parametrize("players, params", [(2, {}), (3, {"istanbul": True, "homeland": True}), (4, {"teams": True}),
                                             (2, {"dead_end": "repeat", "no_action": "pass", "empty_trade": True}),
                                             (3, {"homeland": True, "homeland_row": "france"})])
def test_random_and_greedy_playouts_keep_every_invariant_and_greedy_games_end(game, players, params):
    configured = game.with_params(**params)
    for policy in ("random", "greedy"):
        report = simulate(configured, players=players, games=4, seed=players, policy=policy, turn_cap=3000)
        assert report.failures == []
        if policy == "greedy":
            assert report.capped == 0 and report.finished == report.games


@pytest.mark.parametrize("players, params", [(2, {}), (3, {"claim": "within"}), (4, {"teams": True}),
                                             (2, {"dead_end": "repeat", "no_action": "pass", "empty_trade": True,
                                                  "claim": "exact"})])
def test_scores_of_a_whole_choice_equal_the_scores_after_playing_each_action(game, players, params):
    # Half the moves at random, half the best scored, so that the positions include claims, trades,
    # action cards and turns just before a dead-end reset.
    state = game.with_params(**params).new_state(players, seed=11)
    rng = random.Random(11)

    def choose(player, actions):
        scores = scores_as_played(state, player, actions)
        return rng.choice(actions) if rng.random() < 0.5 else actions[scores.index(max(scores))]

    walk(state, 150, choose)


@pytest.mark.parametrize("params", [{}, {"no_action": "pass"}, {"dead_end": "repeat"}])
def test_scores_of_discarding_or_passing_with_no_action_equal_those_of_playing_them(game, params):
    state = start(game, params=params, hands={"P1": ["swap", "swap", "clear-two", "clear-two", "swap"], "P2": ["grey"] * 5},
                  data={**DATA, "actions": {"swap": 3, "clear-two": 2}}, taken={"P1": ["e"]})
    state.quiet_turns = 3  # the turn ending now is the fourth in a row without progress: the table resets
    assert scores_as_played(state, "P1", state.legal_actions("P1"))


def scores_as_played(state, player, actions):
    """The scores `score_actions` gives `actions`, checked against playing each on a copy."""
    scores = state.score_actions(player, actions)
    played = []
    for action in actions:
        trial = state.clone()
        trial.apply(player, action)
        played.append(trial.score(player))
    assert scores == played, [str(a) for a, s, p in zip(actions, scores, played) if s != p]
    return scores


def lose_a_drawn_card(state):
    state.deck.pop(0)  # drawn from the top, but into no hand: what the deck holds is still known


def swap_a_deck_card_for_another_kind(state):
    state.deck[3] = next(c for c in state.data.trains if c != state.deck[3])


def double_a_card_in_the_deck(state):
    # Every copy of a kind into the deck, then one more: the places outside the deck hold none of
    # it, as the components less the deck would say if the extra copy were not counted.
    kind = state.deck[0]
    for place in (state.discard, *state.left, *state.right, *state.hands.values(), *state.fronts.values()):
        while kind in place:
            place.remove(kind)
            state.deck.append(kind)
    state.deck.append(kind)


def put_a_second_alike_in_a_line(state):
    card = state.left[0][0] if state.left[0] else state.right[0][0]
    state.deck.remove(card)
    state.right[0].append(card)


def crowd_a_line(state):
    while len(state.left[1]) + len(state.right[1]) <= state.data.cities[state.city_at[1]].line:
        card = next(c for c in state.deck if c in state.data.trains and c not in state.left[1] + state.right[1])
        state.deck.remove(card)
        state.left[1].append(card)


def lift_a_city(state, i=0):
    state.city_deck.append(state.city_at[i])
    state.city_at[i] = None


FAULTS = {
    "a card lost from the deck": lambda state: state.deck.pop(7),
    "a card drawn into no hand": lose_a_drawn_card,
    "a card lost from a hand": lambda state: state.hands["P2"].pop(),
    "a card in two places": lambda state: state.discard.append(state.deck[0]),
    "a deck card of another kind": swap_a_deck_card_for_another_kind,
    "a card doubled in the deck": double_a_card_in_the_deck,
    "a city lost": lambda state: state.city_deck.pop(),
    "a card drawn twice": lambda state: state.hands["P1"].append(state.deck[0]),
    "five cards in front": lambda state: state.fronts["P3"].extend(state.hands["P3"][:5 - len(state.fronts["P3"])]),
    "an action card in front": lambda state: state.fronts["P1"].append(state.deck.pop(state.deck.index("trade"))),
    "two alike in a line": put_a_second_alike_in_a_line,
    "a line beyond its limit": crowd_a_line,
    "an offer with no trade": lambda state: state.offers["P2"].append(state.hands["P2"].pop()),
    "an action card in a line": lambda state: state.right[2].append(state.deck.pop(state.deck.index("swap"))),
    "a line without its city": lift_a_city,
}


@pytest.mark.parametrize("fault", FAULTS)
def test_the_fast_invariant_check_reports_every_planted_fault_as_the_full_check_does(game, fault):
    state = game.new_state(3, seed=0)
    rng = random.Random(0)
    walk(state, 20, lambda player, actions: rng.choice(actions))
    assert not state.is_terminal() and state.check_invariants() == []
    assert state.left[0] or state.right[0]
    state.apply(state.to_move()[0], state.legal_actions(state.to_move()[0])[0])
    assert state.check_invariants() == []
    assert state._checked is not None  # the next check starts from what this one found
    FAULTS[fault](state)
    problems = state.check_invariants()
    assert problems, fault
    assert problems == conservation_problems(state.zones(), state.components()) + state.rule_problems()

def test_a_scenario_data_set_with_an_unknown_effect_is_refused_naming_the_field(game):
    with pytest.raises(SetupError) as err:
        game.new_state(2, seed=1, setup={"data": {**DATA, "actions": {"teleport": 1}}})
    assert err.value.field == "data.actions"


def test_a_bad_scenario_setup_is_reported_at_its_line(game, tmp_path):
    from verify.scenario import run_scenario

    path = tmp_path / "bad.yaml"
    path.write_text("title: bad\nplayers: 2\nsetup:\n  hands: {P1: [red], P2: [grey]}\n  lines: [[a, a], [b], [c], [d]]\n"
                    "  data: {trains: {red: 5, grey: 5}, actions: {}, cities: [{id: a}, {id: b}, {id: c}, {id: d}]}\n"
                    "steps: []\n", "utf-8")
    result = run_scenario(path, game)
    assert not result.ok and "bad.yaml:5:" in result.failures[0] and "setup.lines.0" in result.failures[0]


def full_check(state):
    """The invariants as the kit and `rule_problems` state them, with nothing taken from earlier checks."""
    return conservation_problems(state.zones(), state.components()) + state.rule_problems()


@pytest.mark.parametrize("players, params", [(2, {}), (3, {"claim": "within", "istanbul": True}), (4, {"teams": True}),
                                             (4, {"dead_end": "repeat", "no_action": "pass", "empty_trade": True})])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_the_check_after_every_action_agrees_with_the_full_check_over_whole_games(game, players, params, policy):
    configured = game.with_params(**params)
    for seed in range(3):
        state = configured.new_state(players, seed=seed)
        pick = chooser(state, policy, random.Random(seed))
        for _ in range(400):
            if state.is_terminal():
                break
            player = state.to_move()[0]
            state.apply(player, pick(player, state.legal_actions(player)))
            assert state.check_invariants() == full_check(state) == []


def after_a_line_play(game):
    """A game under way whose last action, after a check, put a train card beside a city."""
    state = game.new_state(3, seed=2)
    rng = random.Random(2)
    walk(state, 15, lambda player, actions: rng.choice(actions))
    while True:
        player = state.to_move()[0]
        actions = state.legal_actions(player)
        assert state.check_invariants() == []
        plays = [action for action in actions if isinstance(action, PlayLine)]
        state.apply(player, plays[0] if plays else rng.choice(actions))
        if plays:
            return state, player, plays[0]


def played_side(state, action):
    return (state.left if action.side == "left" else state.right)[action.line - 1]


def other_side(state, action):
    return (state.right if action.side == "left" else state.left)[action.line - 1]


def take_from_deck(state, wanted):
    return state.deck.pop(next(k for k, card in enumerate(state.deck) if wanted(card)))


def crowd_the_line(state, player, action):
    i = action.line - 1
    while len(state.left[i]) + len(state.right[i]) <= state.data.cities[state.city_at[i]].line:
        cards = state.left[i] + state.right[i]
        played_side(state, action).append(take_from_deck(state, lambda c: c in state.data.trains and c not in cards))


TOUCHED_FAULTS = {
    "the card played also still in the hand": lambda state, player, action: state.hands[player].append(action.card),
    "the card played lost": lambda state, player, action: played_side(state, action).pop(),
    "the card played doubled in its line": lambda state, player, action: other_side(state, action).append(
        take_from_deck(state, lambda card: card == action.card)),
    "the card drawn lost": lambda state, player, action: state.hands[player].pop(),
    "the card drawn of another kind": lambda state, player, action: state.hands[player].__setitem__(
        -1, next(c for c in state.data.trains if c != state.hands[player][-1])),
    "the line crowded": crowd_the_line,
    "an action card in the line": lambda state, player, action: played_side(state, action).append(
        take_from_deck(state, lambda card: card in state.data.actions)),
    "an action card in front of the player": lambda state, player, action: state.fronts[player].append(
        take_from_deck(state, lambda card: card in state.data.actions)),
    "five cards in front of the player": lambda state, player, action: state.fronts[player].extend(
        [state.hands[player].pop() for _ in range(5 - len(state.fronts[player]))]),
    "an offer with no trade": lambda state, player, action: state.offers[player].append(state.hands[player].pop()),
    "the line's city lifted": lambda state, player, action: lift_a_city(state, action.line - 1),
}


@pytest.mark.parametrize("fault", TOUCHED_FAULTS)
def test_a_fault_planted_where_the_last_action_played_is_reported_as_the_full_check_does(game, fault):
    state, player, action = after_a_line_play(game)
    TOUCHED_FAULTS[fault](state, player, action)
    problems = state.check_invariants()
    assert problems, fault
    assert problems == full_check(state)
