"""The rules documents' card notation, shared by the games' test builders.

Tests speak as the specifications do: cards "10♥", "Q♠", jokers "JK", suits
"♣ ♦ ♥ ♠", option values by name. Each game's conftest builds its positions
on these helpers (101, Scala 40, «Мост», the counting games).
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import api, cards
from croupier.engine.options import option_settings
from croupier.v1 import game_pb2

RANKS = {str(n): n for n in range(2, 11)}
RANKS.update({"J": cards.JACK, "Q": cards.QUEEN, "K": cards.KING, "A": cards.ACE})
RANK_TEXT = {v: k for k, v in RANKS.items()}
SUITS = {"♣": cards.CLUBS, "♦": cards.DIAMONDS, "♥": cards.HEARTS, "♠": cards.SPADES}
SUIT_TEXT = {v: k for k, v in SUITS.items()}


def c(text: str) -> int:
    """A natural card in the spec's notation ("10♥") as a FrenchCard value."""
    return cards.card(RANKS[text[:-1]], SUITS[text[-1]])


def text_of(value: int) -> str:
    """The spec's notation of a card value (jokers "JK")."""
    if cards.is_joker(value):
        return "JK"
    return RANK_TEXT[cards.RANK_OF[value]] + SUIT_TEXT[cards.SUIT_OF[value]]


def words(text: str) -> list[str]:
    """The cards of a list written with spaces or commas."""
    return text.replace(",", " ").split()


def meld_words(text: str) -> list[str]:
    """The cards of a meld written "[5♥ JK 7♥]"."""
    return text.strip().strip("[]").split()


def is_set(values: Sequence[int], joker_as: Sequence[int]) -> bool:
    """Whether cards written in the spec's notation are a set (one rank)."""
    known = [v for v in values if not cards.is_joker(v)] + [i for i in joker_as if i]
    return len({cards.RANK_OF[v] for v in known}) == 1


settings = option_settings  # NewGame's named option settings from a {name: value} mapping


def short_reason(rejection: game_pb2.Rejection, game_prefix: str) -> str:
    """A rejection's reason without its enum prefix: "MUST_COVER", "NOT_YOUR_TURN"."""
    name = api.rejection_name(rejection)
    return name.removeprefix(game_prefix).removeprefix("REJECTION_REASON_")
