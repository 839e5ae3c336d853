"""The observation encoder every game's builds on: the envelope's features.

An encoder turns one seat's `View` — and nothing else: never the state — into
the fixed-size vector of `layout.Layout`. This base writes what every game's
view shares (whose turn it is, who may act, scores, the match); a game's
encoder adds its own segments in `game_segments` and fills them in
`encode_game`. Seat-indexed segments are relative to the observer
(layout.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np
from google.protobuf.message import Message

from croupier.rl.layout import UNBOUNDED, Layout, add_counts, relative, set_one_hot
from croupier.v1 import game_pb2

_PHASES = (
    game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS,
    game_pb2.MATCH_PHASE_DEAL_OVER,
    game_pb2.MATCH_PHASE_MATCH_OVER,
)


class HandAndPileView(Protocol):
    """The fields a game view with a hand and a discard pile shares."""

    @property
    def hand(self) -> Sequence[int]: ...

    @property
    def hand_sizes(self) -> Sequence[int]: ...

    @property
    def stock_size(self) -> int: ...

    @property
    def discard(self) -> Sequence[int]: ...  # bottom first


class Encoder:
    """A view -> observation vector, for one table size and rule set."""

    def __init__(self, seats: int, options: Message) -> None:
        self.seats = seats
        self.options = options
        layout = self.layout = Layout()
        n = seats
        self._asked = layout.add("asked_out_of_turn", 1)
        self._my_turn = layout.add("my_turn", 1)
        self._current = layout.add("current_seat", n)
        self._acting = layout.add("acting_seats", n)
        self._scores = layout.add("scores", n, -UNBOUNDED, UNBOUNDED)
        self._eliminated = layout.add("eliminated", n)
        self._deal_points = layout.add("last_deal_points", n, -UNBOUNDED, UNBOUNDED)
        self._deal_winners = layout.add("last_deal_winners", n)
        self._deal_number = layout.add("deal_number", 1, 0, UNBOUNDED)
        self._phase = layout.add("match_phase", len(_PHASES))
        self.game_segments(layout)
        self.low, self.high = layout.bounds()

    @property
    def size(self) -> int:
        return self.layout.size

    def game_segments(self, layout: Layout) -> None:
        """Declare the game's own segments (a subclass's business)."""
        raise NotImplementedError

    def encode_game(self, view: game_pb2.View, out: np.ndarray) -> None:
        """Write the game's own segments of `view` into `out` (zeroed)."""
        raise NotImplementedError

    def encode(self, view: game_pb2.View, asked_out_of_turn: bool) -> np.ndarray:
        """The observation of `view`'s seat. `asked_out_of_turn` is the one
        fact not in the view: the environment is offering this seat a chance
        to act out of turn (turns.py), where it may also decline."""
        out = np.zeros(self.layout.size, dtype=np.float32)
        n = self.seats
        me = view.seat
        out[self._asked] = float(asked_out_of_turn)
        out[self._my_turn] = float(view.current_seat == me)
        set_one_hot(out, self._current, relative(view.current_seat, me, n))
        for seat in view.acting_seats:
            out[self._acting + relative(seat, me, n)] = 1.0
        match = view.match
        for seat, entry in enumerate(view.seats):
            rel = relative(seat, me, n)
            out[self._scores + rel] = entry.score
            out[self._eliminated + rel] = float(entry.eliminated)
        for seat, points in enumerate(match.deal_points):
            out[self._deal_points + relative(seat, me, n)] = points
        for seat in match.deal_winners:
            out[self._deal_winners + relative(seat, me, n)] = 1.0
        out[self._deal_number] = match.deal_number
        if match.phase in _PHASES:
            set_one_hot(out, self._phase, _PHASES.index(match.phase))
        self.encode_game(view, out)
        return out

    # -- helpers for the games' encoders ------------------------------------------

    def hand_and_pile_segments(self, layout: Layout, cards: int, copies: int, deck: int) -> None:
        """The segments of a game with a hand, hand sizes, a stock and a
        face-up discard pile (101, UNO, Scala 40), in this order: `cards`
        card values, at most `copies` of each, `deck` cards in all."""
        self._hand = layout.add("hand", cards, 0, copies)
        self._hand_sizes = layout.add("hand_sizes", self.seats, 0, deck)
        self._stock = layout.add("stock_size", 1, 0, deck)
        self._top = layout.add("discard_top", cards)
        self._discard = layout.add("discard", cards, 0, copies)

    def encode_hand_and_pile(self, out: np.ndarray, v: HandAndPileView, viewer: int) -> None:
        """Fill the segments of `hand_and_pile_segments` from a game view."""
        add_counts(out, self._hand, v.hand)
        self.seat_values(out, self._hand_sizes, v.hand_sizes, viewer)
        out[self._stock] = v.stock_size
        discard = v.discard[:]
        if discard:
            add_counts(out, self._top, discard[-1:])
        add_counts(out, self._discard, discard)

    def seat_one_hot(self, out: np.ndarray, start: int, seat: int, viewer: int) -> None:
        """A relative seat one-hot over `seats` values."""
        out[start + relative(seat, viewer, self.seats)] = 1.0

    def optional_seat(self, out: np.ndarray, start: int, seat: int | None, viewer: int) -> None:
        """A relative seat one-hot over `seats + 1` values, the last one for
        "none" (an optional field that is absent)."""
        index = self.seats if seat is None else relative(seat, viewer, self.seats)
        out[start + index] = 1.0

    def seat_values(
        self, out: np.ndarray, start: int, values: Iterable[float], viewer: int
    ) -> None:
        """A per-seat list of numbers, relative to the viewer."""
        for seat, value in enumerate(values):
            out[start + relative(seat, viewer, self.seats)] = value

    def seat_flags(self, out: np.ndarray, start: int, seats: Iterable[int], viewer: int) -> None:
        """A set of seats as relative flags."""
        for seat in seats:
            out[start + relative(seat, viewer, self.seats)] = 1.0
