"""The heuristic bot against random bots at a table of any size, in-process.

head_to_head.py plays two seats; «Сто» and One Hundred are played by 3 seats
or more (RULES.md of the counting games), so their bot is measured here:
the heuristic bot at seat `index % seats` of match `index` (each seat in
turn), a random bot at every other seat, every match seeded from its index.
A shared win counts its share. The result is head_to_head's, with its Wilson
interval; with `seats` 2 it plays exactly the matches head_to_head plays.
"""

from __future__ import annotations

from tests.bots.head_to_head import HeadToHead

from croupier.inprocess import InProcess
from croupier_client import playout
from croupier_client.bots import Bot, RandomBot, heuristic_bot


def heuristic_at_table(
    game: str, preset: str, matches: int, seats: int, *, first_seed: int = 0
) -> HeadToHead:
    """`matches` matches of the heuristic bot against `seats - 1` random bots."""
    if seats < 2:
        raise ValueError(f"a table needs at least 2 seats, got {seats}")
    backend = InProcess()
    points = 0.0
    for index in range(first_seed, first_seed + matches):
        heuristic_seat = index % seats
        bots: list[Bot] = [RandomBot(seed=index * seats + seat, game=game) for seat in range(seats)]
        bots[heuristic_seat] = heuristic_bot(game, index)
        final, _ = playout.play_match(
            backend, game, preset, seats, index, playout.seat_bots(bots, backend.view)
        )
        winners = list(final.match.winners)
        if heuristic_seat in winners:
            points += 1 / len(winners)
    return HeadToHead(game, preset, matches, points)
