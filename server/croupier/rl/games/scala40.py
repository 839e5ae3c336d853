"""Scala 40 for learners: its observation (actions are the listing's: rl/games/__init__.py).

Two packs and four jokers: every card value comes twice, the table's melds
are counted card by card (and what their jokers stand for), with each
seat's meld count and meld value.
"""

from __future__ import annotations

import numpy as np

from croupier.engine.cards import BLACK_JOKER
from croupier.rl.encoder import Encoder
from croupier.rl.layout import UNBOUNDED, Layout, add_counts, set_one_hot
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb

CARDS = BLACK_JOKER  # FrenchCard values 1..54
COPIES = 2  # two packs; two red and two black jokers
DECK = 108
PHASES = len(pb.Scala40Phase.values())


class Scala40Encoder(Encoder):
    """Scala40View -> vector: the hand and discard pile as counts, the
    discard's top card, the table (cards, joker identities, melds and their
    value per owner), who has opened, the turn's phase and duties."""

    def game_segments(self, layout: Layout) -> None:
        n = self.seats
        self.hand_and_pile_segments(layout, CARDS, COPIES, DECK)
        self._table = layout.add("table_cards", CARDS, 0, COPIES)
        self._joker_as = layout.add("table_joker_identities", CARDS, 0, 2 * COPIES)
        self._melds = layout.add("melds_by_owner", n, 0, DECK)
        self._values = layout.add("meld_value_by_owner", n, 0, UNBOUNDED)
        self._opened = layout.add("opened", n)
        self._turns = layout.add("turns_started", n, 0, UNBOUNDED)
        self._phase = layout.add("phase", PHASES)
        self._dealer = layout.add("dealer", n)
        self._drawn = layout.add("drawn_card", CARDS)
        self._taken = layout.add("taken_card", CARDS)
        self._taken_placed = layout.add("taken_must_be_placed", 1)
        self._jokers_owed = layout.add("jokers_owed", 1, 0, 4)
        self._opened_now = layout.add("opened_this_turn", 1)
        self._must_close = layout.add("must_close", 1)
        self._restocks = layout.add("restocks_without_play", 1, 0, UNBOUNDED)

    def encode_game(self, view: game_pb2.View, out: np.ndarray) -> None:
        v = view.scala40
        me = view.seat
        self.encode_hand_and_pile(out, v, me)
        for meld in v.melds:
            add_counts(out, self._table, meld.cards)
            add_counts(out, self._joker_as, meld.joker_as)
            owner = self._melds + (meld.owner - me) % self.seats
            out[owner] += 1.0
            out[self._values + (meld.owner - me) % self.seats] += meld.value
        self.seat_flags(out, self._opened, (s for s, o in enumerate(v.opened) if o), me)
        self.seat_values(out, self._turns, v.turns_started, me)
        set_one_hot(out, self._phase, v.phase)
        self.seat_one_hot(out, self._dealer, v.dealer, me)
        if v.drawn_card:
            add_counts(out, self._drawn, (v.drawn_card,))
        if v.taken_card:
            add_counts(out, self._taken, (v.taken_card,))
        out[self._taken_placed] = float(v.taken_must_be_placed)
        out[self._jokers_owed] = v.jokers_owed
        out[self._opened_now] = float(v.opened_this_turn)
        out[self._must_close] = float(v.must_close)
        out[self._restocks] = v.restocks_without_play
