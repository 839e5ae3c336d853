"""Turn order over the seats of a table: who is next, who was before.

Seats out of the match (`Seat.eliminated`) are passed over by every helper.
Direction is +1 (clockwise) or -1.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.v1 import game_pb2


def active_seats(state: game_pb2.GameState) -> list[int]:
    """The seats still in the match, in seat order."""
    return [i for i, seat in enumerate(state.seats) if not seat.eliminated]


def next_seat(seats: Sequence[game_pb2.Seat], seat: int, direction: int = 1) -> int:
    """The first seat after `seat` in `direction` that is still in the match
    (`seat` itself when it is the only one)."""
    n = len(seats)
    probe = seat
    for _ in range(n):
        probe = (probe + direction) % n
        if not seats[probe].eliminated:
            return probe
    return seat


def previous_seat(seats: Sequence[game_pb2.Seat], seat: int, direction: int = 1) -> int:
    """The seat that plays just before `seat` in `direction`."""
    return next_seat(seats, seat, -direction)
