"""The turn order for several acting seats (croupier/rl/turns.py)."""

from __future__ import annotations

import pytest

from croupier.rl.turns import asking_order, movers_of


def test_one_seat_is_asked_alone() -> None:
    assert asking_order({2}, 2, 4) == [2]


def test_out_of_turn_seats_come_first_clockwise_after_the_turn_seat() -> None:
    # Seat 1's turn; 0, 2 and 3 may catch a missed "UNO!".
    assert asking_order({0, 1, 2, 3}, 1, 4) == [2, 3, 0, 1]
    assert asking_order({0, 3}, 3, 5) == [0, 3]


def test_without_the_seat_to_play_the_first_acting_seat_clockwise_is_the_turn_seat() -> None:
    # An H6 exchange waits for seat 0 while seat 3 is to play.
    assert asking_order({0}, 3, 4) == [0]
    # H8's slap window without the seat to play: 4 and 1 slap, seat 4 first from 3.
    assert asking_order({1, 4}, 3, 5) == [1, 4]


def test_nobody_to_ask_is_an_error() -> None:
    with pytest.raises(ValueError, match="no acting seat has a legal move"):
        asking_order(set(), 0, 2)


def test_movers_are_the_seats_with_a_move() -> None:
    assert movers_of({0: ["R7"], 1: [], 2: ["CATCH 0"]}) == {0, 2}
