"""Random playouts: invariants hold over many games, seeds repeat games exactly, and a broken
invariant is written out as a scenario that replays the game."""

from __future__ import annotations

import pytest
import yaml

from verify.games.game_of_trains.rules import GameOfTrains, GameOfTrainsState
from verify.scenario import run_scenario
from verify.simulate import simulate


@pytest.fixture(scope="module")
def game(trains):
    return GameOfTrains(trains)


def test_random_playouts_keep_every_invariant(game):
    for players in (2, 3, 4):
        report = simulate(game, players, games=70, seed=players, policy="random", turn_cap=150)
        assert report.failures == []
        assert report.games == 70 and report.actions == sum(report.lengths)
        assert sum(report.wins.values()) + report.capped == 70
        assert report.max_length <= 150


def test_greedy_playouts_finish_without_the_cap(game):
    report = simulate(game, 3, games=15, seed=1, policy="greedy", turn_cap=2000)
    assert report.failures == [] and report.capped == 0
    assert sum(report.wins.values()) == 15


def test_same_seed_same_games(game):
    first = simulate(game, 3, games=10, seed=42, turn_cap=200)
    again = simulate(game, 3, games=10, seed=42, turn_cap=200)
    other = simulate(game, 3, games=10, seed=43, turn_cap=200)
    assert first.fingerprint == again.fingerprint and first.lengths == again.lengths
    assert first.fingerprint != other.fingerprint


def test_unknown_policy_is_refused(game):
    with pytest.raises(ValueError, match="unknown policy"):
        simulate(game, 2, games=1, policy="clever")


class BrokenAfterReshuffle(GameOfTrainsState):
    """Reports a broken invariant once the discard pile has been reshuffled, to test the write-back."""

    __slots__ = ()  # the engine's own fields: a state becomes one of these in place

    def check_invariants(self):
        if any(kind == "reshuffle" for kind, _ in self.chance.log):
            return ["pretend breakage after a reshuffle"]
        return super().check_invariants()


class BrokenGame(GameOfTrains):
    def new_state(self, players, seed=None, setup=None):
        state = super().new_state(players, seed=seed, setup=setup)
        state.__class__ = BrokenAfterReshuffle
        return state


def test_a_broken_invariant_is_written_as_a_replayable_scenario(game, trains, tmp_path):
    path = tmp_path / "failures" / "game.yaml"
    report = simulate(BrokenGame(trains), 2, games=3, seed=5, turn_cap=2000, failure_path=path)
    assert report.failure_file == path and len(report.failures) >= 1
    assert "pretend breakage" in report.failures[0] and str(path) in report.summary()
    data = yaml.safe_load(path.read_text("utf-8"))
    assert len(data["setup"]["deck"]) == 84
    assert any("chance" in step and "reshuffle" in step["chance"] for step in data["steps"])
    # With the real engine, the written game replays to the very state where it broke.
    result = run_scenario(path, game)
    assert result.ok, result.failures
    assert any(kind == "reshuffle" for kind, _ in result.state.chance.log)
    assert result.state.turns == sum(1 for step in data["steps"] if "chance" not in step) - 2


class StuckAfterTenTurns(GameOfTrainsState):
    """Offers no action after ten turns although the game goes on: an engine bug a playout must catch."""

    __slots__ = ()  # the engine's own fields: a state becomes one of these in place

    def legal_actions(self, player):
        return [] if self.turns >= 10 else super().legal_actions(player)


class StuckGame(GameOfTrains):
    def new_state(self, players, seed=None, setup=None):
        state = super().new_state(players, seed=seed, setup=setup)
        state.__class__ = StuckAfterTenTurns
        return state


def test_a_game_with_no_legal_action_before_its_end_is_reported(trains):
    report = simulate(StuckGame(trains), 2, games=2, seed=3, policy="random", turn_cap=500)
    assert len(report.failures) == 2
    assert "has no legal action" in report.failures[0]


def test_the_policys_uniform_choice_picks_as_random_choice_does():
    """The same picks, and the generator left in the same state, for lists of every length from one
    up (a one-item list still draws its bit), so the same seed gives the same games."""
    import random

    from verify.simulate import uniform_choice

    for seed in range(20):
        mine, theirs = random.Random(seed), random.Random(seed)
        choice = uniform_choice(mine)
        for n in [1, 2, 3, 5, 8, 13, 64, 65, 1000] * 5:
            items = list(range(n))
            assert choice(items) == theirs.choice(items)
        assert mine.getstate() == theirs.getstate()


def test_the_greedy_policy_picks_among_the_best_as_a_plain_tie_list_would():
    """One of the best-scoring actions, picked at random from the list of them, the generator left
    as that pick leaves it, whether one action scores best or several tie."""
    import random

    from verify.simulate import chooser

    class Scored:
        def __init__(self, scores):
            self.scores = scores

        def score_actions(self, player, actions):
            return self.scores[:len(actions)]

    for seed in range(30):
        draw = random.Random(seed)
        scores = [draw.choice([0, 1, 2, 3, 3.5]) for _ in range(draw.randint(1, 12))]
        actions = [f"action {k}" for k in range(len(scores))]
        mine, theirs = random.Random(seed), random.Random(seed)
        pick = chooser(Scored(scores), "greedy", mine)
        for _ in range(5):
            best = [a for a, s in zip(actions, scores) if s == max(scores)]
            assert pick("P1", actions) == theirs.choice(best)
        assert mine.getstate() == theirs.getstate()
