"""Who sits where in each match, and the seeds of the match and its bots.

Everything is a function of the tournament seed and the match index, never
of the order in which matches happen to finish: match i plays the same way
whether it runs first or last, alone or beside 500 others.
"""

from __future__ import annotations

import hashlib
import random


def match_seed(seed: int, index: int) -> int:
    """Match `index` uses seed S + i (the shuffles of the deal)."""
    return seed + index


def bot_seed(seed_of_match: int, seat: int) -> int:
    """The seed of the bot at `seat` in the match seeded `seed_of_match`:
    stable across processes (SHA-256, not Python's salted hash)."""
    digest = hashlib.sha256(f"croupier-tournament/{seed_of_match}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seating(seed: int, index: int, entrants: int, seats: int, *, rotation: bool) -> tuple[int, ...]:
    """The entrant (an index) at each seat of match `index`.

    With as many entrants as seats every match seats them all: in entry order
    rotated by one seat per match when `rotation` is on (with two, the first
    seat alternates), else always in entry order. With more entrants than
    seats, each match draws its seats from the entrants, seeded by the
    tournament seed and the match index (the draw also orders them)."""
    if entrants < seats:
        raise ValueError(f"{seats} seats need at least {seats} entrants; got {entrants}")
    if entrants == seats:
        shift = index % seats if rotation else 0
        return tuple((seat + shift) % seats for seat in range(seats))
    draw = random.Random(f"croupier-tournament/{seed}/{index}/seating")
    return tuple(draw.sample(range(entrants), seats))
