"""The shared engine types: chance events, refusals, player names and the methods every State shares."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from verify.engine import Action, Chance, Game, IllegalAction, NotationError, SetupError, State, player_names


@dataclass(frozen=True)
class Add(Action):
    amount: int

    def __str__(self) -> str:
        return f"add {self.amount}"


class CounterState(State):
    """A tiny game: players take turns adding 1 or 2 to a shared total; reaching 5 ends it."""

    def __init__(self, players: int, seed=None):
        self.players = player_names(players)
        self.chance = Chance(seed)
        self.total = 0
        self.current = "P1"

    def to_move(self):
        return [] if self.total >= 5 else [self.current]

    def parse_action(self, text):
        words = text.split()
        if len(words) != 2 or words[0] != "add" or not words[1].isdigit():
            raise NotationError(f"cannot read {text!r}")
        return Add(int(words[1]))

    def apply(self, player, action):
        if player != self.current:
            raise IllegalAction("turn order", "not your turn")
        if action.amount not in (1, 2):
            raise IllegalAction("adding", "add 1 or 2")
        self.total += action.amount
        self.current = self.next_player(player)


def test_player_names_are_p1_to_pn_in_seat_order():
    assert player_names(3) == ["P1", "P2", "P3"]


def test_illegal_action_message_names_the_rule():
    exc = IllegalAction("ability 3", "cannot move there")
    assert exc.rule == "ability 3" and exc.reason == "cannot move there"
    assert str(exc) == "cannot move there (rule: ability 3)"


def test_setup_error_keeps_the_field():
    exc = SetupError("trains.P1", "a train has 7 carriages")
    assert exc.field == "trains.P1" and exc.message == "a train has 7 carriages"


def test_chance_same_seed_same_shuffle():
    assert Chance(5).shuffle("deal", range(20)) == Chance(5).shuffle("deal", range(20))
    assert Chance(5).shuffle("deal", range(20)) != Chance(6).shuffle("deal", range(20))


def test_chance_shuffles_as_the_standard_library_does():
    """Seeded games stay the games they were: a shuffle gives the order `random.shuffle` gives from
    the same generator state, for every length, and leaves the generator at the same point."""
    import random

    for seed in range(40):
        for length in (0, 1, 2, 3, 7, 16, 33, 64, 130):
            chance, reference = Chance(seed=seed), random.Random(seed)
            items = list(range(length))
            expected = items[:]
            reference.shuffle(expected)
            assert chance.shuffle("deck", items) == expected
            assert chance.rng.random() == reference.random()


def test_chance_uses_a_queued_outcome_of_its_kind_and_logs_it():
    chance = Chance(1)
    chance.queue("reshuffle", [3, 1, 2])
    assert chance.shuffle("deal", [1, 2]) in ([1, 2], [2, 1])  # another kind: not the queued one
    assert chance.shuffle("reshuffle", [1, 2, 3]) == [3, 1, 2]
    assert [kind for kind, _ in chance.log] == ["deal", "reshuffle"]
    assert chance.log[1] == ("reshuffle", [3, 1, 2])
    assert chance.queued == []


def test_chance_refuses_a_queued_outcome_that_is_not_a_reordering():
    chance = Chance(1)
    chance.queue("reshuffle", [1, 2, 4])
    with pytest.raises(IllegalAction) as info:
        chance.shuffle("reshuffle", [1, 2, 3])
    assert info.value.rule == "chance"


def test_next_player_wraps_around_the_table():
    state = CounterState(3)
    assert state.next_player("P3") == "P1"
    assert state.next_player("P1", 2) == "P3"


def test_apply_text_parses_then_applies():
    state = CounterState(2)
    assert state.apply_text("P1", "add 2") == Add(2)
    assert state.total == 2 and state.current == "P2"
    with pytest.raises(NotationError):
        state.apply_text("P2", "plus two")


def test_base_clone_is_independent():
    state = CounterState(2)
    copy = state.clone()
    copy.apply("P1", Add(1))
    assert state.total == 0 and copy.total == 1


def test_with_params_keeps_content_and_merges_parameters():
    game = Game("content", a=1)
    other = game.with_params(b=2)
    assert other.content == "content" and other.params == {"a": 1, "b": 2}
    assert game.params == {"a": 1}


def test_with_params_makes_each_variant_once():
    """A game is configuration: the same parameters give the same game, made once (a content
    folder's scenarios ask for the same variants many times); other parameters, another game."""
    game = Game("content", a=1)
    assert game.with_params() is game and game.with_params(a=1) is game
    variant = game.with_params(b=[2, 3])
    assert game.with_params(b=[2, 3]) is variant and variant.params == {"a": 1, "b": [2, 3]}
    assert game.with_params(b=[2, 4]) is not variant and game.with_params(a=2, b=[2, 3]) is not variant
