"""What the heuristic bots of 101, UNO and the counting games need to know
about a card, and how they pick among scored moves.

Computed from the arithmetic numbering of cards.proto (FrenchCard: value =
1 + 13 * suit_index + rank_index; UnoCard: value = 1 + 13 * colour_index +
symbol_index, the black cards after), so no bot keeps a table of cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from croupier_client.v1 import cards_pb2

# FrenchCard rank indexes (rank_index of cards.proto): 2 is 0 … 10 is 8.
JACK, QUEEN, KING, ACE = 9, 10, 11, 12
# FrenchCard suit indexes; the Suit enum is the index + 1.
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
_LAST_FRENCH = cards_pb2.FRENCH_CARD_SPADES_ACE


def rank(card: int) -> int:
    """The rank index of a suited FrenchCard: 0 for a 2 … 12 for an ace."""
    return (card - 1) % 13


def suit_index(card: int) -> int:
    """The suit index of a suited FrenchCard: clubs 0 … spades 3."""
    return (card - 1) // 13


def suit(card: int) -> int:
    """The Suit enum value of a suited FrenchCard (SUIT_CLUBS … SUIT_SPADES)."""
    return (card - 1) // 13 + 1


def pips(card: int) -> int:
    """The face value of a 2–10 (2 … 10); 0 for a court card or an ace."""
    r = rank(card)
    return r + 2 if r <= 8 else 0


def french_card(suit_idx: int, rank_idx: int) -> int:
    """The FrenchCard value of a suit index and a rank index."""
    return 1 + 13 * suit_idx + rank_idx


def is_suited(card: int) -> bool:
    """A FrenchCard of the 52 suited cards (not a joker, not unset)."""
    return 1 <= card <= _LAST_FRENCH


def is_red(card: int) -> bool:
    """Diamonds or hearts."""
    return suit_index(card) in (DIAMONDS, HEARTS)


# UnoCard symbol indexes: the numbers 0–9 are themselves.
UNO_SKIP, UNO_REVERSE, UNO_DRAW_TWO = 10, 11, 12
UNO_WILD = cards_pb2.UNO_CARD_WILD
UNO_WILD_DRAW_FOUR = cards_pb2.UNO_CARD_WILD_DRAW_FOUR
UNO_BLANK = cards_pb2.UNO_CARD_BLANK  # the "+10" of the house rule H10
UNO_COLOURS = (
    cards_pb2.UNO_COLOR_RED,
    cards_pb2.UNO_COLOR_YELLOW,
    cards_pb2.UNO_COLOR_GREEN,
    cards_pb2.UNO_COLOR_BLUE,
)


def uno_is_black(card: int) -> bool:
    """A Wild, a Wild Draw Four or a blank "+10": no colour of its own."""
    return card >= UNO_WILD


def uno_colour(card: int) -> int:
    """The UnoColor enum value of a coloured card; UNSPECIFIED (0) for a black one."""
    return 0 if uno_is_black(card) else (card - 1) // 13 + 1


def uno_symbol(card: int) -> int:
    """The symbol index of a coloured card: its number, or UNO_SKIP, UNO_REVERSE,
    UNO_DRAW_TWO; -1 for a black card."""
    return -1 if uno_is_black(card) else (card - 1) % 13


def uno_card(colour: int, symbol: int) -> int:
    """The UnoCard of a UnoColor enum value and a symbol index."""
    return 1 + 13 * (colour - 1) + symbol


def uno_matches(card: int, top: int, colour: int) -> bool:
    """R3: a black card always; a coloured card of the current colour, or of
    the top card's number (number on number) or symbol (action on action);
    after a black top only the colour counts."""
    if uno_is_black(card) or uno_colour(card) == colour:
        return True
    if uno_is_black(top):
        return False
    mine, theirs = uno_symbol(card), uno_symbol(top)
    return mine == theirs


def uno_points(card: int) -> int:
    """A card's value at scoring (R1): its number, 20 an action card, 50 a black card."""
    if uno_is_black(card):
        return 50
    symbol = (card - 1) % 13
    return symbol if symbol <= 9 else 20


# The 108 cards of a UNO deck (R1): per colour one 0, two of each other card.
UNO_DECK: tuple[int, ...] = (
    tuple(
        1 + 13 * colour + symbol
        for colour in range(4)
        for symbol in range(13)
        for _ in range(1 if symbol == 0 else 2)
    )
    + (UNO_WILD,) * 4
    + (UNO_WILD_DRAW_FOUR,) * 4
)


T = TypeVar("T")


def best(items: Sequence[T], score: Callable[[T], float], rng: random.Random) -> T:
    """The item of highest score; among items within 1e-9 of it, one drawn by
    `rng` (the bots' randomness serves ties only). ValueError when empty."""
    if not items:
        raise ValueError("no move to choose from")
    scored = [(score(item), index) for index, item in enumerate(items)]
    top = max(value for value, _ in scored)
    tied = [index for value, index in scored if value >= top - 1e-9]
    return items[tied[0] if len(tied) == 1 else rng.choice(tied)]
