"""«Мост» for learners: its observation (actions are the listing's: rl/games/__init__.py).

The bridge is ordered — taking a card takes every newer one — so besides
which cards lie there the observation says how deep each lies (1 for the
newest card).
"""

from __future__ import annotations

import numpy as np

from croupier.engine.cards import BLACK_JOKER
from croupier.rl.encoder import Encoder
from croupier.rl.layout import UNBOUNDED, Layout, add_counts, set_one_hot
from croupier.v1 import game_pb2
from croupier.v1 import most_pb2 as pb

CARDS = BLACK_JOKER  # FrenchCard values 1..54: one pack and two jokers, every card unique
PHASES = len(pb.MostPhase.values())


class MostEncoder(Encoder):
    """MostView -> vector: the hand as counts, the bridge (its cards and the
    depth of each), the table (cards, joker identities, melds per owner),
    who has melded, table points, the turn's phase and duties."""

    def game_segments(self, layout: Layout) -> None:
        n = self.seats
        self._hand = layout.add("hand", CARDS)
        self._hand_sizes = layout.add("hand_sizes", n, 0, CARDS)
        self._stock = layout.add("stock_size", 1, 0, CARDS)
        self._bridge = layout.add("bridge", CARDS)
        self._depth = layout.add("bridge_depth", CARDS, 0, CARDS)
        self._table = layout.add("table_cards", CARDS)
        self._joker_as = layout.add("table_joker_identities", CARDS)
        self._melds = layout.add("melds_by_owner", n, 0, CARDS)
        self._melded = layout.add("melded", n)
        self._points = layout.add("table_points", n, -UNBOUNDED, UNBOUNDED)
        self._phase = layout.add("phase", PHASES)
        self._dealer = layout.add("dealer", n)
        self._drawn = layout.add("drawn_card", CARDS)
        self._bridge_card = layout.add("bridge_card", CARDS)
        self._owed = layout.add("bridge_card_owed", 1)
        self._at_reshuffle = layout.add("table_cards_at_reshuffle", 1, 0, CARDS)
        self._exchanged = layout.add("exchanged_since_reshuffle", 1)
        self._reshuffled = layout.add("reshuffled", 1)

    def encode_game(self, view: game_pb2.View, out: np.ndarray) -> None:
        v = view.most
        me = view.seat
        add_counts(out, self._hand, v.hand)
        self.seat_values(out, self._hand_sizes, v.hand_sizes, me)
        out[self._stock] = v.stock_size
        bridge = v.bridge[:]
        add_counts(out, self._bridge, bridge)
        for depth, card in enumerate(reversed(bridge), start=1):
            out[self._depth + card - 1] = depth
        for meld in v.melds:
            add_counts(out, self._table, meld.cards)
            add_counts(out, self._joker_as, meld.joker_as)
            out[self._melds + (meld.owner - me) % self.seats] += 1.0
        self.seat_flags(out, self._melded, (s for s, m in enumerate(v.melded) if m), me)
        self.seat_values(out, self._points, v.table_points, me)
        set_one_hot(out, self._phase, v.phase)
        self.seat_one_hot(out, self._dealer, v.dealer, me)
        if v.drawn_card:
            add_counts(out, self._drawn, (v.drawn_card,))
        if v.bridge_card:
            add_counts(out, self._bridge_card, (v.bridge_card,))
        out[self._owed] = float(v.bridge_card_owed)
        out[self._at_reshuffle] = v.table_cards_at_reshuffle
        out[self._exchanged] = float(v.exchanged_since_reshuffle)
        out[self._reshuffled] = float(v.reshuffled)
