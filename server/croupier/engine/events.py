"""Events as each seat may see them (game.proto, `Event.visible_to`).

A game puts hidden cards only in the card fields of an event that names the
seats allowed to see them; every other seat gets a copy without those cards.
Redaction is therefore the same for every game and lives here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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


class EventLog(Sequence[game_pb2.Event]):
    """The events of one move, recorded as their fields and built into Event
    messages only when first read.

    Building a message costs more than most rules of a move; an RPC reads
    every event (into its answer), but an in-process session (engine/session.py)
    whose caller never looks at them should not pay for them on every move.
    A game's table records into one and returns it as its events.
    """

    __slots__ = ("_seats", "_entries", "_built")

    def __init__(self, seats: Sequence[game_pb2.Seat] = ()) -> None:
        # The table's seats, whose names begin the sentences of `say`.
        self._seats = seats
        # Each event's fields, and the rest of its sentence when `say` made it.
        self._entries: list[tuple[dict[str, Any], str | None]] = []
        self._built: list[game_pb2.Event] | None = None

    def record(self, **fields: Any) -> None:
        """Add an event with these Event fields (checked when it is built)."""
        self._entries.append((fields, None))
        self._built = None

    def say(self, kind: int, seat: int, says: str, **fields: Any) -> None:
        """Add an event of `seat` whose sentence is "<seat's name> <says>"
        (written when the event is built: names do not change in a match)."""
        fields["kind"] = kind
        fields["seat"] = seat
        self._entries.append((fields, says))
        self._built = None

    def _events(self) -> list[game_pb2.Event]:
        built = self._built
        if built is None:
            built = self._built = [self._build(*entry) for entry in self._entries]
        return built

    def _build(self, fields: dict[str, Any], says: str | None) -> game_pb2.Event:
        if says is None:
            return game_pb2.Event(**fields)
        seat = fields["seat"]
        name = self._seats[seat].name or f"P{seat}"
        return game_pb2.Event(text=f"{name} {says}", **fields)

    def __getitem__(self, index: Any) -> Any:
        return self._events()[index]

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[game_pb2.Event]:
        return iter(self._events())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EventLog, list)):
            return self._events() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __add__(self, other: Sequence[game_pb2.Event]) -> list[game_pb2.Event]:
        return [*self._events(), *other]

    def __repr__(self) -> str:
        return f"EventLog({self._events()!r})"
