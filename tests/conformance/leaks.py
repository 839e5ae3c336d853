"""The suite's leak check: what a seat is shown holds no card it may not see.

Generic by construction: the cards are found by walking the message
descriptors (every field typed FrenchCard or UnoCard, at any depth), and what
a seat may see comes from the game's own hook, `Game.visible_cards(state,
seat)`, a multiset. A view or a redacted event is compared field by field
(the same field of every element of a repeated message counts as one field,
e.g. the cards of every meld on the table), so a card shown twice in one
place counts twice, while the drawn card a 101 view shows beside the hand
it is in is fine.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from google.protobuf.message import Message

from croupier.engine.cards import FRENCH, CardFamily
from croupier.engine.registry import Game
from croupier.engine.uno_cards import UNO
from croupier.v1 import game_pb2

CARD_ENUMS = {"croupier.v1.FrenchCard": FRENCH, "croupier.v1.UnoCard": UNO}

# Cards found in a message: field path -> (the deck they belong to, the cards).
CardFields = dict[str, tuple[CardFamily, Counter[int]]]


def cards_by_field(message: Message, path: str = "") -> CardFields:
    """Every card value in `message`, per field path (indices left out)."""
    found: CardFields = {}
    _walk(message, path, found)
    return found


def _walk(message: Message, path: str, found: CardFields) -> None:
    for field, value_field in _card_fields(message.DESCRIPTOR):
        value = getattr(message, field.name)
        if value_field is not field:  # a map: its values (keys hold no cards)
            values = list(value.values())
        elif field.is_repeated:
            values = list(value)
        elif field.message_type is not None and not message.HasField(field.name):
            continue
        else:
            values = [value]
        here = f"{path}.{field.name}" if path else field.name
        if value_field.message_type is not None:
            for item in values:
                _walk(item, here, found)
        else:
            family = CARD_ENUMS[value_field.enum_type.full_name]
            found.setdefault(here, (family, Counter()))[1].update(v for v in values if v)


# Per message type, the fields that are cards or may hold some, each with the
# field that holds its values (itself, or a map entry's `value`): a view's
# options, seats and scores are never walked.
_CARD_FIELDS: dict[str, tuple[tuple[Any, Any], ...]] = {}


def _card_fields(descriptor: Any) -> tuple[tuple[Any, Any], ...]:
    known = _CARD_FIELDS.get(descriptor.full_name)
    if known is not None:
        return known
    _CARD_FIELDS[descriptor.full_name] = ()  # a type that contains itself adds nothing new
    fields = []
    for field in descriptor.fields:
        value_field = field
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            value_field = field.message_type.fields_by_name["value"]
        if value_field.message_type is not None:
            holds_cards = bool(_card_fields(value_field.message_type))
        else:
            enum = value_field.enum_type
            holds_cards = enum is not None and enum.full_name in CARD_ENUMS
        if holds_cards:
            fields.append((field, value_field))
    _CARD_FIELDS[descriptor.full_name] = tuple(fields)
    return _CARD_FIELDS[descriptor.full_name]


def assert_no_leak(shown: CardFields, visible: Counter[int], who: str) -> None:
    """Assert that no field of `shown` holds a card beyond `visible`."""
    for path, (family, cards) in shown.items():
        beyond = cards - visible
        if beyond:
            names = ", ".join(family.text(card) for card in sorted(beyond.elements()))
            raise AssertionError(f"LEAK: {who} shows {names} at {path}, which it may not see")


def check_view(game: Game, state: game_pb2.GameState, seat: int, view: game_pb2.View) -> None:
    """A seat's view: no card it may not see, and the envelope as the state has it."""
    assert view.seat == seat, f"GetView({seat}) answers the view of seat {view.seat}"
    assert list(view.acting_seats) == list(state.acting_seats), (
        f"ACTING SEATS: the view of seat {seat} says {list(view.acting_seats)}, "
        f"the state {list(state.acting_seats)}"
    )
    assert view.move_number == state.move_number
    assert_no_leak(
        cards_by_field(view), game.visible_cards(state, seat), f"the view of seat {seat}"
    )
    assert game.view_text(view), f"{game.name}.view_text gives no line for seat {seat}"


def check_seat_events(
    game: Game,
    before: game_pb2.GameState | None,
    after: game_pb2.GameState,
    events: Iterable[game_pb2.Event],
    seat_events: Iterable[object],
    call: str,
) -> None:
    """The events of one answer, as each seat gets them: one list per seat in
    seat order, the same events as the full list, each with a sentence, and
    no card the seat may see neither before nor after the call."""
    full = list(events)
    per_seat = list(seat_events)
    seats = len(after.seats)
    assert [entry.seat for entry in per_seat] == list(range(seats)), (  # type: ignore[attr-defined]
        f"{call}: seat_events must hold one entry per seat, in seat order"
    )
    for event in full:
        assert event.kind != game_pb2.EVENT_KIND_UNSPECIFIED, f"{call}: an event without a kind"
        assert event.text, f"{call}: an event of kind {event.kind} without a sentence"
        _check_text_hides_cards(event, call)
    for entry in per_seat:
        seat = entry.seat  # type: ignore[attr-defined]
        mine = list(entry.events)  # type: ignore[attr-defined]
        assert [(e.kind, e.text) for e in mine] == [(e.kind, e.text) for e in full], (
            f"{call}: seat {seat} gets other events than the full list"
        )
        visible = game.visible_cards(after, seat)
        if before is not None:
            visible |= game.visible_cards(before, seat)  # the larger count of each card
        for event in mine:
            assert_no_leak(
                cards_by_field(event), visible, f"{call}'s event {event.text!r} for seat {seat}"
            )


def _check_text_hides_cards(event: game_pb2.Event, call: str) -> None:
    """The sentence of an event with hidden cards names none of them (in
    their canonical text: a partial check, but the one every game shares)."""
    if not event.visible_to:
        return
    hidden = [FRENCH.text(c) for c in event.cards] + [UNO.text(c) for c in event.uno_cards]
    for text in hidden:
        assert not re.search(rf"(?<!\w){re.escape(text)}(?!\w)", event.text), (
            f"LEAK: {call}'s event sentence {event.text!r} names the hidden card {text}"
        )
