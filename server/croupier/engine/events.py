"""Events as each seat may see them (game.proto, `Event.visible_to`).

A game puts hidden cards only in the card fields of an event that names the
seats allowed to see them; every other seat gets a copy without those cards.
Redaction is therefore the same for every game and lives here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.v1 import game_pb2


def redacted(event: game_pb2.Event, seat: int) -> game_pb2.Event:
    """`event` as `seat` may see it (the event itself when nothing is hidden)."""
    if not event.visible_to or seat in event.visible_to:
        return event
    copy = game_pb2.Event()
    copy.CopyFrom(event)
    copy.ClearField("cards")
    copy.ClearField("uno_cards")
    return copy


def fill_seat_events(
    out: Any,
    events: Sequence[game_pb2.Event],
    seat_count: int,
) -> None:
    """Add one SeatEvents per seat to `out`, a repeated SeatEvents field."""
    for seat in range(seat_count):
        entry = out.add(seat=seat)
        entry.events.extend(redacted(event, seat) for event in events)
