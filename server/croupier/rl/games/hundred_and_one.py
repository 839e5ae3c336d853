"""101 («Сто одно») for learners: its observation and its action vocabulary.

Actions (stable, 71 + DECLINE): a play of each of the 52 cards, a Queen once
per suit it names (a Queen always names one), then DRAW, PASS, ACCEPT and
NAME of each suit — every move 101's listing can hold (legal.py builds the
same moves).
"""

from __future__ import annotations

import numpy as np

from croupier.engine.cards import QUEEN, RANK_OF, SUITS, pack_52
from croupier.games.hundred_and_one.legal import action, name_suit, play
from croupier.rl.encoder import Encoder
from croupier.rl.layout import UNBOUNDED, Layout, add_counts, set_one_hot
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb

CARDS = 52  # FrenchCard values 1..52: 101 plays without jokers
PHASES = len(pb.HundredAndOnePhase.values())
SUIT_VALUES = 5  # Suit enum: unspecified and the four suits


def vocabulary(seat: int, seats: int) -> list[game_pb2.Move]:
    """Every move a 101 seat can be offered, in the action order."""
    moves = []
    for card in pack_52():
        for suit in SUITS if RANK_OF[card] == QUEEN else (0,):
            moves.append(play(seat, card, suit))
    moves += [action(seat, name) for name in ("draw", "pass", "accept")]
    moves += [name_suit(seat, suit) for suit in SUITS]
    return moves


class HundredAndOneEncoder(Encoder):
    """HundredAndOneView -> vector: the hand as counts over the 52 cards, the
    whole discard pile as counts and its top card, hand sizes, the stock,
    the active suit, the direction, the phase and its duties."""

    def game_segments(self, layout: Layout) -> None:
        n = self.seats
        self.hand_and_pile_segments(layout, CARDS, 1, CARDS)
        self._suit = layout.add("active_suit", SUIT_VALUES)
        self._reversed = layout.add("reversed", 1)
        self._phase = layout.add("phase", PHASES)
        self._pending = layout.add("pending_draw", 1, 0, UNBOUNDED)
        self._drawn = layout.add("drawn_card", CARDS)
        self._cover_drawn = layout.add("cover_batch_drawn", 1)
        self._cover_restocked = layout.add("cover_restocked", 1)
        self._dealer = layout.add("dealer", n)

    def encode_game(self, view: game_pb2.View, out: np.ndarray) -> None:
        v = view.hundred_and_one
        me = view.seat
        self.encode_hand_and_pile(out, v, me)
        set_one_hot(out, self._suit, v.active_suit)
        out[self._reversed] = float(v.reversed)
        set_one_hot(out, self._phase, v.phase)
        out[self._pending] = v.pending_draw
        if v.drawn_card:
            add_counts(out, self._drawn, (v.drawn_card,))
        out[self._cover_drawn] = float(v.cover_batch_drawn)
        out[self._cover_restocked] = float(v.cover_restocked)
        self.seat_one_hot(out, self._dealer, v.dealer, me)
