"""Card texts for transcripts, from the FrenchCard numbering of cards.proto.

value = 1 + 13 * suit_index + rank_index, so a client needs no table to print
a card; the texts are the server's notation ("10H", "QS", "RJ").
"""

from __future__ import annotations

from croupier_client.v1 import cards_pb2

_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_SUIT_LETTERS = ("C", "D", "H", "S")  # index = Suit enum value - 1
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_LAST_SUITED = cards_pb2.FRENCH_CARD_SPADES_ACE


def card_text(value: int) -> str:
    """The short text of a FrenchCard value: "10H", "QS"; jokers "RJ", "BJ"; "?" otherwise."""
    if value == cards_pb2.FRENCH_CARD_RED_JOKER:
        return "RJ"
    if value == cards_pb2.FRENCH_CARD_BLACK_JOKER:
        return "BJ"
    if not 1 <= value <= _LAST_SUITED:
        return "?"
    suit_index, rank_index = divmod(value - 1, 13)
    return _RANKS[rank_index] + _SUIT_LETTERS[suit_index]


def suit_name(suit: int) -> str:
    """The English name of a Suit enum value ("spades"); "?" when unset."""
    return _SUIT_NAMES[suit - 1] if 1 <= suit <= len(_SUIT_NAMES) else "?"
