"""Stock and discard mechanics shared by the shedding games (101 and UNO).

Piles are the games' own repeated enum fields: the stock top card first, the
discard pile bottom first (its last card is the top).
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import Any

Shuffler = Callable[[list[int]], None]
# Piles are repeated enum fields (typed per enum by the generated stubs) or lists.
Pile = MutableSequence[Any]


def restock(stock: Pile, discard: Pile, shuffler: Shuffler | None) -> int:
    """RESTOCK: every discard but the top becomes the stock; returns how many.

    Without a shuffler the cards are turned over as a block, so the oldest
    discard becomes the top of the new stock (101's RULES.md A12); with one
    they are shuffled (UNO, or 101's `restock_shuffle`).
    """
    if len(discard) < 2:
        return 0
    cards = list(discard[:-1])
    del discard[:-1]
    if shuffler is not None:
        shuffler(cards)
    stock.extend(cards)
    return len(cards)


def draw(
    stock: Pile,
    discard: Pile,
    hand: Pile,
    count: int,
    shuffler: Shuffler | None,
    may_restock: bool = True,
) -> tuple[list[int], int]:
    """DRAW(p, n): move up to `count` cards from the stock to `hand`, one at a
    time, restocking when the stock runs out (unless not `may_restock`: a
    game's rule says the discards may not come back now). Draws that find
    both piles empty are forfeited (101's RULES.md A11). Returns (cards drawn,
    cards restocked).
    """
    drawn: list[int] = []
    restocked = 0
    for _ in range(count):
        if not stock:
            if may_restock:
                restocked += restock(stock, discard, shuffler)
            if not stock:
                break
        drawn.append(stock[0])
        del stock[0]
    hand.extend(drawn)
    return drawn, restocked
