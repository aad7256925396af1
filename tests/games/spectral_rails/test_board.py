"""The Spectral Rails map's route search and the shortcuts the rules take around it: each must
give what the plain search gives, in the same order, on trail laid at random."""

from __future__ import annotations

import random

import pytest


def random_tracks(board, players, rng, count):
    for _ in range(count):
        density = rng.random()
        track = {s: rng.randrange(players) for s in board.spaces if rng.random() < density}
        yield track, rng.choice(board.towns), rng.randrange(players)


@pytest.mark.parametrize("players", [3, 4])
def test_riding_without_placing_lists_what_the_search_lists(game, players):
    board, rng = game.board(players), random.Random(players)
    for track, start, me in random_tracks(board, players, rng, 300):
        for ride_others in (True, False):
            for first_only in (False, True):
                rides = board._rides(start, track, me, ride_others, first_only)
                search = board._search(start, track, me, ride_others, False, first_only, False, frozenset(), None)
                assert list(rides.items()) == list(search.items())


@pytest.mark.parametrize("players", [3, 4])
def test_the_cheapest_way_out_of_a_town_is_its_cheapest_route_out(game, players):
    board, rng = game.board(players), random.Random(10 + players)
    for track, start, me in random_tracks(board, players, rng, 300):
        for ride_others, place in ((True, True), (False, True), (True, False)):
            first = board._search(start, track, me, ride_others, place, True, False, frozenset(), None)
            legs = board.first_legs(start, track, me, ride_others, place)
            assert min(legs, default=None) == min((cost for cost, _ in first.values()), default=None)


@pytest.mark.parametrize("players", [3, 4])
def test_a_search_with_a_limit_lists_the_places_within_it_in_the_same_order(game, players):
    board, rng = game.board(players), random.Random(20 + players)
    for track, start, me in random_tracks(board, players, rng, 100):
        whole = board.cheapest(start, track, me, True, True)
        for limit in range(5):
            within = board.cheapest(start, track, me, True, True, limit=limit)
            assert list(within.items()) == [(town, found) for town, found in whole.items() if found[0] <= limit]


def test_the_pieces_joined_to_a_train_in_a_town_are_those_a_search_over_them_finds(game):
    state = game.new_state(4, seed=1)
    board, rng = state.board, random.Random(5)
    for track, start, me in random_tracks(board, 4, rng, 200):
        state.track, state.trains[me] = track, start
        found, todo = set(), [s for s in board.adj[start] if track.get(s) == me]
        while todo:
            space = todo.pop()
            if space not in found:
                found.add(space)
                todo += [s for s in board.adj[space] if track.get(s) == me]
        assert state._connected(me) == found


@pytest.mark.parametrize("players", [3, 4])
def test_the_distances_between_towns_are_those_the_search_finds_on_an_empty_map(game, players):
    board = game.board(players)
    for start in board.towns:
        found = {town: cost for town, (cost, _) in board.cheapest(start, {}, -1, False, True).items()}
        assert board.distance[start] == {**found, start: 0}
