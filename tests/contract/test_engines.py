"""What every rules engine promises, checked the same way for every game in content/: scenarios
replay, random and finishing play keep every invariant, legal actions are accepted and refusals
change nothing, action texts parse back, clones are independent, observations hide what they must,
and a recorded game replays to the same position."""

from __future__ import annotations

import random

import pytest

from verify.engine import IllegalAction, NotationError
from verify.kit import Visibility
from verify.scenario import run_scenario
from verify.simulate import play_one, scenario_text, simulate


def sample_states(game, players: int, seed: int, every: int = 7, limit: int = 12, cap: int = 400):
    """Positions met along one random game: the start, then one every `every` actions."""
    rng = random.Random(seed)
    state = game.new_state(players, seed=seed)
    found = [state.clone()]
    for step in range(cap):
        if state.is_terminal() or len(found) >= limit:
            break
        movers = state.to_move()
        actions = state.legal_actions(movers[0])
        state.apply(movers[0], rng.choice(actions))
        if step % every == every - 1:
            found.append(state.clone())
    return found


def player_counts(game):
    return range(game.min_players, game.max_players + 1)


def test_every_scenario_replays(content, engine):
    assert content.scenario_paths, f"{content.id} has no scenarios"
    for path in content.scenario_paths:
        result = run_scenario(path, engine)
        assert result.ok, result.failures


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_seeded_playouts_keep_every_invariant(engine, policy, tmp_path):
    for players in player_counts(engine):
        report = simulate(engine, players=players, games=6, seed=players, policy=policy, turn_cap=3000,
                          failure_path=tmp_path / f"{policy}-{players}.yaml")
        assert report.failures == [], report.failures
        again = simulate(engine, players=players, games=6, seed=players, policy=policy, turn_cap=3000)
        assert again.fingerprint == report.fingerprint, "the same seed must give the same games"


def test_the_finishing_policy_finishes_games(engine):
    for players in player_counts(engine):
        report = simulate(engine, players=players, games=6, seed=11, policy="greedy", turn_cap=3000)
        assert report.capped == 0, f"{players} players: {report.capped} of 6 greedy games hit the cap"
        assert report.finished == report.games and report.no_winner == 0


def test_legal_actions_are_accepted_and_parse_back(engine):
    for players in player_counts(engine):
        for state in sample_states(engine, players, seed=3):
            for player in state.to_move():
                actions = state.legal_actions(player)
                assert actions, f"{player} must act but has no legal action"
                for action in actions:
                    assert state.parse_action(str(action)) == action, str(action)
                    trial = state.clone()
                    trial.apply(player, action)  # raises if a listed action is refused


def test_a_refusal_changes_nothing(engine):
    refused = 0
    for players in player_counts(engine):
        for state in sample_states(engine, players, seed=5):
            movers = state.to_move()
            idle = [p for p in state.players if p not in movers]
            # An action that is legal for the player to move, tried by someone who is not to move.
            for player in idle[:2]:
                for action in state.legal_actions(movers[0])[:5]:
                    before_key, before_fields = state.key(), state.fields()
                    try:
                        state.apply(player, action)
                    except IllegalAction:
                        refused += 1
                        assert state.key() == before_key and state.fields() == before_fields, str(action)
                    else:
                        pytest.fail(f"{player} is not to move ({movers}) but {action} was accepted")
    assert refused, "no refusal was tried"


def test_unreadable_action_text_is_a_notation_error(engine):
    state = engine.new_state(engine.min_players, seed=1)
    for text in ("", "   ", "no-such-action 1 2 3", "\u0661\u0662", "draw draw draw draw"):
        with pytest.raises((NotationError, IllegalAction)):
            action = state.parse_action(text)
            state.apply(state.to_move()[0], action)


def test_a_clone_is_independent(engine):
    for players in player_counts(engine):
        for state in sample_states(engine, players, seed=9, limit=5):
            if state.is_terminal():
                continue
            key, fields = state.key(), state.fields()
            other = state.clone()
            player = other.to_move()[0]
            other.apply(player, other.legal_actions(player)[0])
            assert state.key() == key and state.fields() == fields
            hash(other.key())


def scramble_hidden(state, viewer: str, rng: random.Random) -> bool:
    """Deal the components of every zone `viewer` may not see among those zones at random, sizes
    kept. True when something could move."""
    zones = [z for z in state.zones() if not z.visible_to(viewer) and z.visibility is not Visibility.EVERYONE]
    pool = [c for z in zones for c in z.cards]
    if len(set(map(repr, pool))) < 2:
        return False
    for _ in range(5):
        rng.shuffle(pool)
        if any(z.cards for z in zones):
            break
    at = 0
    for zone in zones:
        zone.cards[:] = pool[at:at + len(zone.cards)]
        at += len(zone.cards)
    return True


def test_observations_hide_what_they_must(engine):
    rng = random.Random(1)
    checked = 0
    for players in player_counts(engine):
        for state in sample_states(engine, players, seed=13):
            for viewer in state.players:
                seen = state.observation(viewer)
                trial = state.clone()
                if scramble_hidden(trial, viewer, rng):
                    checked += 1
                    assert trial.observation(viewer) == seen, f"{viewer} sees a change in cards hidden from them"
    assert checked, "no position had hidden cards to scramble"


def test_a_recorded_game_replays_to_the_same_position(engine, tmp_path):
    rng = random.Random(21)
    players = engine.max_players
    state, record, actions, problem = play_one(engine, players, 21, "greedy", 3000, rng)
    assert problem is None, problem
    path = tmp_path / "recorded.yaml"
    path.write_text(scenario_text(engine, state, players, 21, record, "recorded"), "utf-8")
    result = run_scenario(path, engine)
    assert result.ok, result.failures
    assert result.state.key() == state.key() and result.state.fields() == state.fields()
