"""Who is asked to move, and in what order, when several seats may act.

Most positions have one acting seat. UNO opens windows where others may act
out of turn too: catching a missed "UNO!", a jump-in, H5's silence, H8's
slap. The engine only says *who may* move (`acting_seats`); a harness that
asks one seat at a time has to decide who is asked first, because the first
move made changes the position and usually closes the window.

The order used by the PettingZoo environments (croupier.rl) and by
`croupier play`:

1. Only acting seats that have at least one legal move are asked (a seat in a
   jump-in window holding no identical card has none).
2. The *turn seat* is `current_seat` when it is among them; otherwise (an
   exchange or a slap window the seat to play is not part of) the first of
   them clockwise from `current_seat`. It is asked last and must move: its
   move ends the position.
3. Every other such seat gets its chance first, clockwise from the seat after
   the turn seat; each may make one of its moves or decline ("pass, let play
   go on"). A move made out of turn changes the position, and the order is
   worked out again for the new one (so everybody gets a fresh chance).

Asking the out-of-turn seats before the turn seat is what gives them a chance
at all: once the turn seat moves, the window they could act in is gone.
Clockwise order from the turn seat is the order in which the seats would have
noticed the card on a real table; it is deterministic, which the
environments' seeded replays need.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence


def asking_order(movers: Collection[int], current_seat: int, seat_count: int) -> list[int]:
    """The seats to ask in this position, in order: the out-of-turn seats
    clockwise after the turn seat, then the turn seat (the last element).
    `movers` are the acting seats with at least one legal move; ValueError
    when there is none (a position where nobody can move is an engine bug)."""
    if not movers:
        raise ValueError("no acting seat has a legal move in this position")
    clockwise = [(current_seat + step) % seat_count for step in range(seat_count)]
    turn = next(seat for seat in clockwise if seat in movers)
    after = [(turn + step) % seat_count for step in range(1, seat_count)]
    return [seat for seat in after if seat in movers] + [turn]


def movers_of(legal: Mapping[int, Sequence[object]]) -> set[int]:
    """The seats of an acting-seat -> legal-moves mapping that have a move."""
    return {seat for seat, moves in legal.items() if moves}
