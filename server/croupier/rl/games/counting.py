"""The counting games («Сто», One Hundred, 101 with chips) for learners.

Actions (stable): every card of the table's deck with every choice its
effect takes under these options (an ace's 1 or 11, a ten's +10 or -10, a
black ace's total 0 to 100: the game's own effect table, games/counting/
effects.py), then CONCEDE (101 with chips): 33 actions for «Сто», 57 to
61 for 101 with chips, 253 for One Hundred, whose two black aces set any
total from 0 to 100.
"""

from __future__ import annotations

import numpy as np

from croupier.games.counting.legal import concede, play
from croupier.games.counting.rules import rules_for
from croupier.rl.actions import Vocabulary
from croupier.rl.encoder import Encoder
from croupier.rl.layout import UNBOUNDED, Layout, add_counts
from croupier.v1 import game_pb2

CARDS = 52  # FrenchCard values 1..52: the counting games play without jokers
COPIES = 2  # One Hundred with 7 seats or more plays two packs (C-C-1)


def vocabulary_of(state: game_pb2.GameState) -> Vocabulary:
    """The vocabulary of a counting table (its game and options)."""
    game = state.game
    effects = rules_for(state).effects

    def vocabulary(seat: int, seats: int) -> list[game_pb2.Move]:
        moves = []
        for card in sorted(effects):
            effect = effects[card]
            if effect.choice is None:
                moves.append(play(game, seat, card))
            else:
                moves += [play(game, seat, card, effect.choice, v) for v in effect.choices]
        moves.append(concede(game, seat))
        return moves

    return vocabulary


class CountingEncoder(Encoder):
    """CountingView -> vector: the hand as counts, the play pile (counts and
    top card), the leftovers, hand sizes, the stock, the running total, the
    direction, the dealer and who made exactly 100."""

    def game_segments(self, layout: Layout) -> None:
        n = self.seats
        deck = CARDS * COPIES
        self._hand = layout.add("hand", CARDS, 0, COPIES)
        self._hand_sizes = layout.add("hand_sizes", n, 0, deck)
        self._stock = layout.add("stock_size", 1, 0, deck)
        self._top = layout.add("pile_top", CARDS)
        self._pile = layout.add("pile", CARDS, 0, COPIES)
        self._leftovers = layout.add("leftovers", CARDS)
        self._leftovers_size = layout.add("leftovers_size", 1, 0, deck)
        self._total = layout.add("total", 1, -UNBOUNDED, UNBOUNDED)
        self._reversed = layout.add("reversed", 1)
        self._dealer = layout.add("dealer", n)
        self._exact = layout.add("exact_hundred_seat", n + 1)

    def encode_game(self, view: game_pb2.View, out: np.ndarray) -> None:
        v = getattr(view, view.game)
        me = view.seat
        add_counts(out, self._hand, v.hand)
        self.seat_values(out, self._hand_sizes, v.hand_sizes, me)
        out[self._stock] = v.stock_size
        pile = v.pile[:]
        if pile:
            add_counts(out, self._top, pile[-1:])
        add_counts(out, self._pile, pile)
        add_counts(out, self._leftovers, v.leftovers)
        out[self._leftovers_size] = v.leftovers_size
        out[self._total] = v.total
        out[self._reversed] = float(v.reversed)
        self.seat_one_hot(out, self._dealer, v.dealer, me)
        exact = v.exact_hundred_seat if v.HasField("exact_hundred_seat") else None
        self.optional_seat(out, self._exact, exact, me)
