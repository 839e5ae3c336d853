"""A table's options compiled once into plain attributes (like Scala 40's
rules.py): the meld limits, the card values, the turn rules."""

from __future__ import annotations

from croupier.engine import caches, cards
from croupier.engine.melds import UNLIMITED, MeldRules
from croupier.v1 import most_pb2 as pb

HAND_SIZE = 6  # R-M-05
DECK = tuple(cards.pack_54())  # R-M-01
JOKER_IN_HAND = 100  # R-M-03: a joker left in hand counts 100 against
# R-M-03, by rank (index 2..14): 2-9 are 5, 10 J Q K 10, the ace 15 wherever it lies.
RANK_VALUES = (0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 15)


def card_value(value: int) -> int:
    """What a natural card is worth (R-M-03); a joker on the table 0."""
    return RANK_VALUES[cards.RANK_OF[value]]


def hand_value(value: int) -> int:
    """What a card left in hand costs (R-M-41): its value, a joker 100."""
    return JOKER_IN_HAND if cards.is_joker(value) else RANK_VALUES[cards.RANK_OF[value]]


class Rules:
    """The options of one table, resolved."""

    def __init__(self, o: pb.MostOptions) -> None:
        # A copy, not `o`: `o` is part of a request, and any part of a parsed
        # request keeps all of it alive (upb parses it into one arena), while
        # compiled rules stay cached (rules_for): 4 MiB per option set (F4).
        self.options = pb.MostOptions()
        self.options.CopyFrom(o)
        self.bridge_lay_off = o.bridge_card_may_be_laid_off
        self.top_free = o.top_bridge_card_free
        self.reshuffle = o.stock_exhausted == pb.MOST_STOCK_EXHAUSTED_RESHUFFLE_BRIDGE
        self.exchange_requires_meld = o.exchange_requires_meld
        self.credit_exchanger = o.exchanged_card_credit != pb.MOST_EXCHANGED_CARD_CREDIT_MELD_OWNER
        self.min_naturals = o.min_naturals_per_meld
        self.go_out_without_discard = o.go_out_without_discard
        self.target = o.target_score
        self.max_deals = o.max_deals
        # R-M-10 to R-M-14: any number of jokers, sequences round the corner,
        # each rank once. A meld always holds a natural whatever
        # min_naturals_per_meld says: the pack has two jokers (C-M-3). A
        # joker on the table is worth nothing (R-M-03).
        self.melds = MeldRules(
            max_jokers=UNLIMITED,
            max_sequence_length=13,
            values=RANK_VALUES,
            wrap=True,
            joker_value=0,
        )


# The compiled rules of an option set (options already validated), cached
# by the options' bytes within a bound (engine/caches.py).
rules_for: caches.CompiledRules[pb.MostOptions, Rules] = caches.CompiledRules(
    "most.rules.compiled", Rules, 1000
)
