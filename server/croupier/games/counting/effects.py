"""What each card does to the running total: the card tables of the three
games (RULES.md R-C1-02, R-C2-04, R-C3-04), as data.

An `Effect` says how a card turns the total before it (T) into the total
after it (T'): it adds a fixed amount, or sets the total, or doubles it; it
may reverse the direction; and some cards take the player's choice (the
value an ace adds, the sign of a ten, the total a black ace sets), carried by
the move. The floor (floor_zero) and the limit are the table's (rules.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.engine.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    KING,
    QUEEN,
    RANK_OF,
    SPADES,
    SUIT_OF,
)

# The two kinds of choice a move can carry (CountingMove.Play.choice).
ADDS = "adds"
SETS_TOTAL = "sets_total"
# Black aces of One Hundred's table set any total from 0 to 100 (R-C2-04).
BLACK_ACE_TOTALS = range(0, 101)


@dataclass(frozen=True)
class Effect:
    """What one card does to the total (T → T')."""

    rule: str  # the RULES.md id that defines this card's effect
    adds: int = 0  # T' = T + adds (no choice)
    sets: int | None = None  # T' = sets
    doubles: bool = False  # T' = 2·T
    reverses: bool = False  # the direction of play changes
    adds_choices: tuple[int, ...] = ()  # the player picks what it adds
    sets_choices: range | None = None  # the player picks the total

    @property
    def choice(self) -> str | None:
        """The kind of choice the card takes (ADDS, SETS_TOTAL), or None."""
        if self.adds_choices:
            return ADDS
        if self.sets_choices is not None:
            return SETS_TOTAL
        return None

    @property
    def choices(self) -> tuple[int, ...]:
        """The values the player may choose, ascending (empty: no choice)."""
        if self.adds_choices:
            return self.adds_choices
        if self.sets_choices is not None:
            return tuple(self.sets_choices)
        return ()

    def raw_total(self, total: int, choice: int) -> int:
        """T' before the floor; `choice` is the move's (0 without one)."""
        if self.adds_choices:
            return total + choice
        if self.sets_choices is not None:
            return choice
        if self.sets is not None:
            return self.sets
        if self.doubles:
            return 2 * total
        return total + self.adds


def _pips(rank: int) -> int:
    return rank if rank <= 10 else 0


# -- «Сто», 32 cards (R-C1-02, O-C1-1) ---------------------------------------------

STO_SEED_VALUES = {7: 7, 8: 8, 9: 9, 10: 10, JACK: 2, QUEEN: 3, KING: 4, ACE: 11}
STO_SKAT_VALUES = {**STO_SEED_VALUES, 7: 0, 8: 0, 9: 0}


def sto_table(deck: list[int], values: dict[int, int], rule: str) -> dict[int, Effect]:
    """«Сто»: every card adds its value (suits do not matter)."""
    return {card: Effect(rule, adds=values[RANK_OF[card]]) for card in deck}


# -- One Hundred (R-C2-04) ---------------------------------------------------------


def one_hundred_effect(card: int, other_queens: int, rule: str = "R-C2-04") -> Effect:
    """One Hundred's table (limit 100): the seed's cards as corrected by
    the published rules, the others at pip value (A-C2-01, A-C2-04)."""
    rank, suit = RANK_OF[card], SUIT_OF[card]
    black = suit in (SPADES, CLUBS)
    red = suit in (HEARTS, DIAMONDS)
    if rank == ACE:
        return Effect(rule, sets_choices=BLACK_ACE_TOTALS) if black else Effect(rule, adds=1)
    if rank == 2 and suit == SPADES:
        return Effect(rule, doubles=True)
    if rank == 4:
        return Effect(rule, reverses=True)
    if rank == 5 and red:
        return Effect(rule, adds=-5)
    if rank == 10:
        return Effect(rule, sets=100)
    if rank == JACK:
        return Effect(rule, adds=-10)
    if rank == QUEEN:
        return Effect(rule, sets=0) if suit == HEARTS else Effect(rule, adds=other_queens)
    if rank == KING:
        return Effect(rule)
    return Effect(rule, adds=_pips(rank))


# -- 101 with chips, Ninety-Nine's powers (R-C3-04) ----------------------------------


def ninety_nine_effect(card: int, limit: int, ten_either_way: bool) -> Effect:
    """Ninety-Nine's table with the limit `limit` (101, or 100 under
    limit 100): A 1 or 11, 4 reverses, 9 holds, 10 −10 (or ±10), J Q +10,
    K sets the limit."""
    rank = RANK_OF[card]
    if rank == ACE:
        return Effect("R-C3-04", adds_choices=(1, 11))
    if rank == 4:
        return Effect("R-C3-04", reverses=True)
    if rank == 9:
        return Effect("R-C3-04")
    if rank == 10:
        if ten_either_way:
            return Effect("O-C3-3", adds_choices=(-10, 10))
        return Effect("R-C3-04", adds=-10)
    if rank in (JACK, QUEEN):
        return Effect("R-C3-04", adds=10)
    if rank == KING:
        return Effect("R-C3-04", sets=limit)
    return Effect("R-C3-04", adds=rank)
