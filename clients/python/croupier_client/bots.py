"""Bots that pick a move from ListLegalMoves' answer.

A bot never sees the full state: it chooses among the legal moves the server
lists for its seat. Its randomness is its own (`random.Random(seed)`), so a
seeded bot plays the same way against the same positions on any replica.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from croupier.v1 import service_pb2


class Bot(Protocol):
    """Anything that picks one of the legal moves it is offered."""

    def choose(self, moves: Sequence[service_pb2.LegalMove]) -> service_pb2.LegalMove:
        """One of `moves` (never empty)."""
        ...


class RandomBot:
    """Chooses uniformly among the legal moves, with its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def choose(self, moves: Sequence[service_pb2.LegalMove]) -> service_pb2.LegalMove:
        """A uniformly random move of `moves`; ValueError when there is none."""
        if not moves:
            raise ValueError("no legal move to choose from")
        return moves[self._random.randrange(len(moves))]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"
