"""Bots that misbehave, for the fault tests (entered as `tournament.faulty_bots:Class`)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from croupier.v1 import game_pb2, service_pb2
from croupier_client.bots import RandomBot


class OutOfRangeBot:
    """Answers a move it was not offered: a copy of an offered one, for another seat."""

    wants_view = False

    def __init__(self, game: str, seed: int) -> None:
        self.game = game

    def choose(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        stray = service_pb2.LegalMove()
        stray.CopyFrom(moves[0])
        stray.move.seat = view.seat + 100
        return stray


class OddRaisingBot(RandomBot):
    """Plays at random, but raises on every other call it gets."""

    def __init__(self, game: str, seed: int) -> None:
        super().__init__(seed=seed, game=game)
        self.calls = 0

    def choose(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        self.calls += 1
        if self.calls % 2:
            raise RuntimeError(f"bot bug on call {self.calls}")
        return super().choose(view, moves)


class ViewCheckingBot(RandomBot):
    """Plays at random, and raises unless its view is a real one of its seat."""

    wants_view = True

    def __init__(self, game: str, seed: int) -> None:
        super().__init__(seed=seed, game=game)

    def choose(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        if view.game != self.game or not view.seats or moves[0].move.seat != view.seat:
            raise AssertionError(f"not a view of its seat: {view}")
        return super().choose(view, moves)


class SlowBot(RandomBot):
    """Plays at random after sleeping: slower than any test's time budget."""

    SECONDS = 0.03

    def __init__(self, game: str, seed: int) -> None:
        super().__init__(seed=seed, game=game)

    def choose(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        time.sleep(self.SECONDS)
        return super().choose(view, moves)
