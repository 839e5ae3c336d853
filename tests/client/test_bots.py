"""RandomBot: uniform over the offered moves, reproducible from its seed."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.v1 import game_pb2, service_pb2
from croupier_client.bots import RandomBot

VIEW = game_pb2.View(seat=0, game="hundred_and_one")


def _moves(n: int) -> list[service_pb2.LegalMove]:
    return [service_pb2.LegalMove(notation=f"M{i}") for i in range(n)]


def test_the_same_seed_chooses_the_same_moves() -> None:
    moves = _moves(7)
    a, b = RandomBot(42), RandomBot(42)
    picks = [a.choose(VIEW, moves).notation for _ in range(50)]
    assert picks == [b.choose(VIEW, moves).notation for _ in range(50)]
    assert picks != [RandomBot(43).choose(VIEW, moves).notation for _ in range(50)]


def test_choices_are_roughly_uniform() -> None:
    bot = RandomBot(1)
    moves = _moves(4)
    counts = Counter(bot.choose(VIEW, moves).notation for _ in range(4000))
    assert set(counts) == {"M0", "M1", "M2", "M3"}
    assert all(800 < n < 1200 for n in counts.values())


def test_no_move_to_choose_is_an_error() -> None:
    with pytest.raises(ValueError):
        RandomBot(1).choose(VIEW, [])
