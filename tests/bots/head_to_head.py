"""Heuristic bot against random bot, head to head, in-process.

Two seats, the heuristic bot first in even matches and second in odd ones;
each match seeded from its index. A shared win counts a half. The result
carries the win rate and its 95 % Wilson interval, which the bot tests and
`make tournament` compare with 60 %.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from croupier.inprocess import InProcess
from croupier_client import playout
from croupier_client.bots import Bot, RandomBot, heuristic_bot


@dataclass(frozen=True)
class HeadToHead:
    game: str
    preset: str
    matches: int
    points: float  # the heuristic bot's: 1 a win, 0.5 a shared win

    @property
    def rate(self) -> float:
        return self.points / self.matches

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson score interval of the win rate."""
        z, n, p = 1.959964, self.matches, self.rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half


def head_to_head(game: str, preset: str, matches: int, *, first_seed: int = 0) -> HeadToHead:
    backend = InProcess()
    points = 0.0
    for index in range(first_seed, first_seed + matches):
        heuristic_seat = index % 2
        bots: list[Bot] = [RandomBot(seed=index * 2 + seat, game=game) for seat in range(2)]
        bots[heuristic_seat] = heuristic_bot(game, index)
        final, _ = playout.play_match(
            backend, game, preset, 2, index, playout.seat_bots(bots, backend.view)
        )
        winners = list(final.match.winners)
        if heuristic_seat in winners:
            points += 1 / len(winners)
    return HeadToHead(game, preset, matches, points)
