"""Cards as plain integers (their protobuf enum values); the French deck.

A *card family* is one card enum of cards.proto as the engine speaks of it:
how each card is written and read back. There are two: `FRENCH` here and
`uno_cards.UNO`. Whatever names a card in a message (conservation, notation,
rejections) takes the game's family, so a UNO card is never written as a
French one: the numbers of the two enums overlap.

French numbering (cards.proto): value = 1 + 13 * suit_index + rank_index,
jokers 53 (red) and 54 (black), so suit and rank are table look-ups here; the
tables are built once at import.

Canonical text: the rank (2–10, J, Q, K, A) then the suit letter (C, D, H,
S): "10H", "QS", "7C"; jokers "RJ" and "BJ"; "?" for a value outside the
enum. Parsing is case-insensitive.

The packs of our games, each a sorted list (`french_deck` builds any other):

    builder            cards  composition               games
    pack_52()             52  2..A in four suits       101, «Сто» (52), 101 with chips
    pack_36()             36  6..A in four suits       101 (deck_size 36)
    pack_32()             32  7..A in four suits       «Сто» (counting RULES.md R-C1-01)
    pack_54()             54  52 + a red, a black joker «Мост» (R-M-01)
    double_pack_108()    108  2 × 52 + 2 red, 2 black  Scala 40 (R-S40-01)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from croupier.v1 import cards_pb2


@dataclass(frozen=True, slots=True)
class CardFamily:
    """The cards of one enum: its values, and how each is written and read.

    `text` never fails: a value outside the enum is "?", so an error message
    about a foreign card can still be written. `parse` is its inverse on
    `values` and raises ValueError for any other text.
    """

    name: str
    values: range
    text: Callable[[int], str]
    parse: Callable[[str], int]


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
JOKERS = (RED_JOKER, BLACK_JOKER)
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


def is_joker(value: int) -> bool:
    """Whether `value` is one of the two jokers."""
    return value in JOKERS


# -- decks ------------------------------------------------------------------------


def french_deck(lowest_rank: int = 2, copies: int = 1, jokers: int = 0) -> list[int]:
    """A sorted deck: every suit's ranks from `lowest_rank` to ace, `copies`
    times, plus `jokers` jokers (alternately red and black, red first)."""
    if not 2 <= lowest_rank <= ACE:
        raise ValueError(f"lowest rank {lowest_rank} is not a rank (2..14)")
    if copies < 1 or jokers < 0:
        raise ValueError(f"a deck needs copies >= 1 and jokers >= 0; got {copies}, {jokers}")
    cards = [card(r, s) for s in SUITS for r in range(lowest_rank, ACE + 1)] * copies
    cards += [JOKERS[i % 2] for i in range(jokers)]
    return sorted(cards)


# The name 101's rules use; the same builder.
deck = french_deck


def pack_52() -> list[int]:
    """The standard 52-card pack, no jokers."""
    return french_deck()


def pack_36() -> list[int]:
    """The 36-card pack: 6..A in four suits."""
    return french_deck(lowest_rank=6)


def pack_32() -> list[int]:
    """The 32-card pack: 7..A in four suits («Сто», R-C1-01)."""
    return french_deck(lowest_rank=7)


def pack_54() -> list[int]:
    """The 52-card pack with a red and a black joker («Мост», R-M-01)."""
    return french_deck(jokers=2)


def double_pack_108() -> list[int]:
    """Two 52-card packs and four jokers, two of each colour (Scala 40, R-S40-01)."""
    return french_deck(copies=2, jokers=4)


# -- texts ------------------------------------------------------------------------


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


FRENCH = CardFamily("French", range(1, BLACK_JOKER + 1), card_text, parse_card)
