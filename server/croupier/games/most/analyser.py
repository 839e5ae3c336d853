"""Melds read under «Мост»'s rules (R-M-10 to R-M-12), with every broken rule
named as a «Мост» rejection.

The game-independent rules of sets and sequences live in `engine/melds.py`
(cyclic sequences: `MeldRules.wrap`); here are the reason each fault is
refused with and the one spelling of a meld (K-M-1).
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import caches
from croupier.engine.cards import RANK_OF
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import (
    SEQUENCE,
    Meld,
    MeldError,
    MeldFault,
    MeldRules,
    analyse,
    meld_text,
)
from croupier.v1 import most_pb2 as pb

Why = pb.MostRejectionReason

# Each meld fault, as the rejection it is and the rule it breaks. Cyclic
# sequences have no ace in the middle nor two natural aces, and any number of
# jokers is allowed: those three faults cannot occur, and are mapped anyway.
FAULTS: dict[MeldFault, tuple[int, str]] = {
    MeldFault.TOO_SHORT: (Why.MOST_REJECTION_REASON_MELD_TOO_SHORT, "R-M-10"),
    MeldFault.NO_NATURAL: (Why.MOST_REJECTION_REASON_MELD_WITHOUT_NATURAL, "A-M-05"),
    MeldFault.TOO_MANY_JOKERS: (Why.MOST_REJECTION_REASON_MELD_WITHOUT_NATURAL, "A-M-05"),
    MeldFault.SET_RANKS_DIFFER: (Why.MOST_REJECTION_REASON_NOT_A_SET_OR_SEQUENCE, "R-M-11"),
    MeldFault.SET_SUITS_REPEAT: (Why.MOST_REJECTION_REASON_SET_SUITS_MUST_DIFFER, "R-M-11"),
    MeldFault.SET_TOO_LARGE: (Why.MOST_REJECTION_REASON_SET_OF_MORE_THAN_4, "R-M-11"),
    MeldFault.SEQUENCE_NOT_CONSECUTIVE: (
        Why.MOST_REJECTION_REASON_SEQUENCE_NOT_CONSECUTIVE,
        "R-M-10",
    ),
    MeldFault.ACE_IN_MIDDLE: (Why.MOST_REJECTION_REASON_SEQUENCE_NOT_CONSECUTIVE, "R-M-10"),
    MeldFault.TWO_NATURAL_ACES: (Why.MOST_REJECTION_REASON_SEQUENCE_TOO_LONG, "R-M-10"),
    MeldFault.SEQUENCE_TOO_LONG: (Why.MOST_REJECTION_REASON_SEQUENCE_TOO_LONG, "R-M-10"),
    MeldFault.JOKER_UNDECLARED: (Why.MOST_REJECTION_REASON_JOKER_MUST_BE_DECLARED, "R-M-12"),
    MeldFault.JOKER_IDENTITY_WRONG: (
        Why.MOST_REJECTION_REASON_JOKER_IDENTITY_DOES_NOT_FIT,
        "R-M-12",
    ),
    MeldFault.NOT_IN_ORDER: (Why.MOST_REJECTION_REASON_MELD_NOT_IN_ORDER, "K-M-1"),
    MeldFault.DOES_NOT_FIT: (Why.MOST_REJECTION_REASON_LAY_OFF_DOES_NOT_FIT, "R-M-31"),
    MeldFault.NO_SUCH_JOKER: (Why.MOST_REJECTION_REASON_NO_JOKER_STANDS_FOR_CARD, "R-M-32"),
}


def refusal(error: MeldError) -> IllegalMove:
    """The rejection a meld fault is."""
    reason, rule = FAULTS[error.fault]
    return IllegalMove(reason, error.message, rule)


@caches.lru("most.analyser.analysed", 1536, 420)
def analysed(cards: tuple[int, ...], joker_as: tuple[int, ...], rules: MeldRules) -> Meld:
    """`analyse`, remembered: the melds of a table are read again at every call."""
    return analyse(cards, joker_as, rules)


def read_meld(cards: Sequence[int], joker_as: Sequence[int], rules: MeldRules) -> Meld:
    """The meld a move lays, or IllegalMove naming the rule it breaks. One
    spelling per meld (K-M-1): a set naturals by suit then jokers by identity;
    a sequence from its first rank, and a whole suit from its 2."""
    try:
        meld = analysed(tuple(cards), tuple(joker_as), rules)
    except MeldError as error:
        raise refusal(error) from None
    if meld.kind == SEQUENCE and len(meld.cards) == 13 and RANK_OF[meld.identities[0]] != 2:
        raise IllegalMove(
            Why.MOST_REJECTION_REASON_MELD_NOT_IN_ORDER,
            f"{meld_text(meld.cards, meld.joker_as)}: a whole suit is written from its 2",
            "K-M-1",
        )
    return meld
