"""Details of the Game of Trains faces that a player relies on at the table."""

from __future__ import annotations

from cardgen.games.game_of_trains.faces import reads_as_another_number


def test_corner_numbers_that_read_as_another_number_upside_down_are_marked():
    assert reads_as_another_number(6) and reads_as_another_number(9)
    assert reads_as_another_number(16) and reads_as_another_number(61)  # 16 turned reads 91
    assert reads_as_another_number(68)  # turned: 89


def test_numbers_that_look_the_same_or_like_nothing_when_turned_are_not_marked():
    assert not reads_as_another_number(8)
    assert not reads_as_another_number(69)  # turned, still 69
    assert not reads_as_another_number(11)
    assert not reads_as_another_number(7)  # a turned 7 is no digit
    assert not reads_as_another_number(26)
