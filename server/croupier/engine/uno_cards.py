"""The UNO deck as plain integers (the UnoCard enum's values).

Numbering (cards.proto): value = 1 + 13 * colour_index + symbol for the
coloured cards, where colour_index is RED 0, YELLOW 1, GREEN 2, BLUE 3 (the
UnoColor value − 1) and symbol is 0–9 for the numbers, SKIP 10, REVERSE 11,
DRAW_TWO 12; the black cards follow: WILD 53, WILD_DRAW_FOUR 54, BLANK 55.
Colour, kind and number are table look-ups here, built once at import.

Canonical text, the notation of UNO's RULES.md (so the rules' test tables
read as written): the colour letter (R, Y, G, B) then the symbol —
the number "0"–"9", "Skip", "Rev" or "+2": "R7", "G0", "BSkip", "YRev",
"R+2". Black cards: "W" (Wild), "W+4" (Wild Draw Four), "X+10" (a blank
card, played as "+10" under house rule H10); "?" for a value outside the
enum. A colour alone is its letter. Parsing is case-insensitive.

Deck (UNO's RULES.md R1): per colour one 0, two each of 1–9, two Skip, two
Reverse, two Draw Two (25 cards); 4 Wild and 4 Wild Draw Four: 108 cards. The
4 blank cards of the 112-card editions are in it only with option U18
`blank_cards_in_deck` (which H10 "+10" needs).
"""

from __future__ import annotations

from enum import IntEnum

from croupier.engine.cards import CardFamily
from croupier.v1 import cards_pb2

RED = cards_pb2.UNO_COLOR_RED
YELLOW = cards_pb2.UNO_COLOR_YELLOW
GREEN = cards_pb2.UNO_COLOR_GREEN
BLUE = cards_pb2.UNO_COLOR_BLUE
COLOURS = (RED, YELLOW, GREEN, BLUE)
COLOUR_LETTERS = ("R", "Y", "G", "B")  # index = UnoColor value - 1

# Symbols of the coloured cards: 0–9 are the numbers.
SKIP, REVERSE, DRAW_TWO = 10, 11, 12
SYMBOL_TEXTS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "Skip", "Rev", "+2")

WILD = cards_pb2.UNO_CARD_WILD
WILD_DRAW_FOUR = cards_pb2.UNO_CARD_WILD_DRAW_FOUR
BLANK = cards_pb2.UNO_CARD_BLANK
BLACK_CARDS = (WILD, WILD_DRAW_FOUR, BLANK)
_BLACK_TEXTS: dict[int, str] = {WILD: "W", WILD_DRAW_FOUR: "W+4", BLANK: "X+10"}
LAST_COLOURED = cards_pb2.UNO_CARD_BLUE_DRAW_TWO


class Kind(IntEnum):
    """What a UNO card does; 0 is no card (UNSPECIFIED or a foreign value)."""

    NONE = 0
    NUMBER = 1
    SKIP = 2
    REVERSE = 3
    DRAW_TWO = 4
    WILD = 5
    WILD_DRAW_FOUR = 6
    BLANK = 7


def uno_card(colour: int, symbol: int) -> int:
    """The UnoCard value of a coloured card: a UnoColor value and a symbol
    (0–9, SKIP, REVERSE, DRAW_TWO)."""
    return 1 + 13 * (colour - 1) + symbol


def is_coloured(value: int) -> bool:
    """Whether `value` is one of the 100 coloured UNO cards (numbers and actions)."""
    return 1 <= value <= LAST_COLOURED


def is_black(value: int) -> bool:
    """Whether `value` is a black card: Wild, Wild Draw Four or blank."""
    return WILD <= value <= BLANK


_SYMBOL_KINDS = (Kind.NUMBER,) * 10 + (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO)
_BLACK_KINDS: dict[int, Kind] = {
    WILD: Kind.WILD,
    WILD_DRAW_FOUR: Kind.WILD_DRAW_FOUR,
    BLANK: Kind.BLANK,
}


def _kind(value: int) -> Kind:
    if is_coloured(value):
        return _SYMBOL_KINDS[(value - 1) % 13]
    return _BLACK_KINDS.get(value, Kind.NONE)


# Indexed by card value (0..BLANK); check the range first for a value from outside.
# COLOUR_OF holds the UnoColor value, 0 for black cards; NUMBER_OF the number
# 0–9 of a number card and -1 for any other card (0 is a number).
COLOUR_OF: tuple[int, ...] = tuple(
    1 + (v - 1) // 13 if is_coloured(v) else 0 for v in range(BLANK + 1)
)
KIND_OF: tuple[Kind, ...] = tuple(_kind(v) for v in range(BLANK + 1))
NUMBER_OF: tuple[int, ...] = tuple(
    (v - 1) % 13 if KIND_OF[v] == Kind.NUMBER else -1 for v in range(BLANK + 1)
)


def uno_deck(blank_cards: bool = False) -> list[int]:
    """The sorted UNO deck (§2.1): 108 cards, or 112 with the 4 blank cards (U18)."""
    cards: list[int] = []
    for colour in COLOURS:
        cards.append(uno_card(colour, 0))
        cards += [uno_card(colour, s) for s in range(1, DRAW_TWO + 1)] * 2
    cards += [WILD] * 4 + [WILD_DRAW_FOUR] * 4
    if blank_cards:
        cards += [BLANK] * 4
    return sorted(cards)


def uno_card_text(value: int) -> str:
    """Canonical short text: "R7", "GSkip", "BRev", "Y+2", "W", "W+4", "X+10"; "?" if unknown."""
    if is_coloured(value):
        return COLOUR_LETTERS[COLOUR_OF[value] - 1] + SYMBOL_TEXTS[(value - 1) % 13]
    return _BLACK_TEXTS.get(value, "?")


_BY_TEXT = {uno_card_text(v).upper(): v for v in range(1, BLANK + 1)}


def parse_uno_card(text: str) -> int:
    """The inverse of `uno_card_text` (case-insensitive); ValueError when unknown."""
    try:
        return _BY_TEXT[text.strip().upper()]
    except KeyError:
        raise ValueError(f"not a UNO card: {text!r}") from None


def colour_text(colour: int) -> str:
    """One letter for a UnoColor value (R, Y, G, B); "?" for any other value."""
    return COLOUR_LETTERS[colour - 1] if 1 <= colour <= len(COLOUR_LETTERS) else "?"


def parse_colour(text: str) -> int:
    """The UnoColor value of a colour letter (R, Y, G, B); ValueError when unknown."""
    letter = text.strip().upper()
    if letter not in COLOUR_LETTERS:
        raise ValueError(f"not a UNO colour: {text!r}")
    return COLOURS[COLOUR_LETTERS.index(letter)]


UNO = CardFamily("UNO", range(1, BLANK + 1), uno_card_text, parse_uno_card)
