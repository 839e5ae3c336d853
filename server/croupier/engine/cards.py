"""The French deck as plain integers (the FrenchCard enum's values).

value = 1 + 13 * suit_index + rank_index (cards.proto), so suit and rank are
table look-ups here; the tables are built once at import.
"""

from __future__ import annotations

from croupier.v1 import cards_pb2

RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_LETTERS = ("C", "D", "H", "S")  # index = Suit enum value - 1

CLUBS = cards_pb2.SUIT_CLUBS
DIAMONDS = cards_pb2.SUIT_DIAMONDS
HEARTS = cards_pb2.SUIT_HEARTS
SPADES = cards_pb2.SUIT_SPADES
SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)

JACK, QUEEN, KING, ACE = 11, 12, 13, 14
RED_JOKER = cards_pb2.FRENCH_CARD_RED_JOKER
BLACK_JOKER = cards_pb2.FRENCH_CARD_BLACK_JOKER
LAST_SUITED = 52

# Indexed by card value; index 0 and jokers hold 0.
SUIT_OF: tuple[int, ...] = (0,) + tuple(1 + (v - 1) // 13 for v in range(1, 53)) + (0, 0)
RANK_OF: tuple[int, ...] = (0,) + tuple(2 + (v - 1) % 13 for v in range(1, 53)) + (0, 0)


def card(rank: int, suit: int) -> int:
    """The FrenchCard value of a rank (2..14) and a Suit enum value."""
    return 1 + 13 * (suit - 1) + (rank - 2)


KING_OF_SPADES = card(KING, SPADES)


def is_suited(value: int) -> bool:
    """Whether `value` is one of the 52 suited cards."""
    return 1 <= value <= LAST_SUITED


def deck(lowest_rank: int = 2, copies: int = 1, jokers: int = 0) -> list[int]:
    """A sorted deck: every suit's ranks from `lowest_rank` to ace, `copies`
    times, plus `jokers` jokers (alternately red and black)."""
    cards = [card(r, s) for s in SUITS for r in range(lowest_rank, ACE + 1)] * copies
    cards += [RED_JOKER if i % 2 == 0 else BLACK_JOKER for i in range(jokers)]
    return sorted(cards)


def card_text(value: int) -> str:
    """Canonical short text: rank then suit letter, e.g. "10H", "QS"; jokers "RJ", "BJ"."""
    if value == RED_JOKER:
        return "RJ"
    if value == BLACK_JOKER:
        return "BJ"
    if not is_suited(value):
        return "?"
    return RANK_NAMES[RANK_OF[value] - 2] + SUIT_LETTERS[SUIT_OF[value] - 1]


_BY_TEXT = {card_text(v): v for v in range(1, BLACK_JOKER + 1)}


def parse_card(text: str) -> int:
    """The inverse of `card_text` (case-insensitive); ValueError when unknown."""
    try:
        return _BY_TEXT[text.strip().upper()]
    except KeyError:
        raise ValueError(f"not a card: {text!r}") from None


def suit_text(suit: int) -> str:
    """One letter for a Suit enum value."""
    return SUIT_LETTERS[suit - 1]


def parse_suit(text: str) -> int:
    """The Suit enum value of a suit letter (C, D, H, S)."""
    letter = text.strip().upper()
    if letter not in SUIT_LETTERS:
        raise ValueError(f"not a suit: {text!r}")
    return SUITS[SUIT_LETTERS.index(letter)]
