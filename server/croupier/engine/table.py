"""What every game's `Table` starts from.

A game applies a move to a GameState in place through a Table: the state
(already a copy, or a live session's own), the game's part of it (`deal`),
its compiled rules and the events the move produces. Reading a seat's hand,
naming a seat and recording an event are the same in every game, so they are
stated here once; each game's Table adds its own primitives (drawing, passing
the turn, its EVENT_KIND_GAME_RULE detail).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from croupier.engine.events import EventLog
from croupier.v1 import game_pb2

Deal = TypeVar("Deal")
Rules = TypeVar("Rules")


class GameTable(Generic[Deal, Rules]):
    """One deal of a game, changed in place by the move being applied."""

    def __init__(self, state: game_pb2.GameState, deal: Deal, rules: Rules) -> None:
        self.state = state
        self.deal = deal
        self.rules = rules
        self.events = EventLog(state.seats)  # built into messages only when read
        # Fetched once: every fetch of a protobuf field builds a Python wrapper.
        self.seats = state.seats
        self._hands: dict[int, Any] = {}
        self._names: dict[int, str] = {}

    def hand(self, seat: int) -> Any:
        """The seat's cards (the repeated field itself: changes go to the deal)."""
        cards = self._hands.get(seat)
        if cards is None:
            cards = self._hands[seat] = self.deal.hands[seat].cards  # type: ignore[attr-defined]
        return cards

    def name(self, seat: int) -> str:
        """The seat's display name, for the sentences of events."""
        name = self._names.get(seat)
        if name is None:
            name = self._names[seat] = self.seats[seat].name or f"P{seat}"
        return name

    def emit(self, kind: int, seat: int, says: str, **fields: Any) -> None:
        """Record an event; `says` completes the sentence "<seat name> ...".
        It never names a hidden card: those go to the event's card fields,
        with `visible_to` naming the seats that may see them."""
        self.events.say(kind, seat, says, **fields)
