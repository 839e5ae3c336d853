"""Every meld a hand can lay (R-M-10 to R-M-13), each joker choice apart.

A joker may stand for any card that is not in a meld, in the bridge or stood
for by another joker (R-M-13) — a card in the player's own hand included — so
the melds of a hand are: for each set of one rank and each sequence round the
circle of one suit, every choice of which places the hand's naturals fill and
which its jokers fill, and every way to give the jokers those places. A
natural a table joker stands for is never melded (R-M-13). Melds come in
their one table spelling (K-M-1): sets by `set_order`, a whole suit from its 2.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from itertools import combinations, permutations

from croupier.engine.cards import RANK_OF, SUIT_OF, SUITS, card, is_joker
from croupier.engine.melds import cyclic_rank, set_order

MeldKey = tuple[tuple[int, ...], tuple[int, ...]]


def formable(
    hand: Sequence[int],
    occupied: Collection[int] = (),
    represented: Collection[int] = (),
    *,
    containing: int = 0,
    max_cards: int = 13,
) -> list[MeldKey]:
    """The (cards, joker_as) of every meld `hand` can lay, sorted: jokers
    only as cards not `occupied`, no natural that is `represented`; with
    `containing`, only melds holding that card; at most `max_cards` cards."""
    naturals = sorted(v for v in hand if not is_joker(v) and v not in represented)
    jokers = sorted(v for v in hand if is_joker(v))
    if containing and not is_joker(containing):
        # Only its rank's sets and its suit's sequences can hold it.
        if containing not in naturals:
            return []
        naturals = [
            v
            for v in naturals
            if RANK_OF[v] == RANK_OF[containing] or SUIT_OF[v] == SUIT_OF[containing]
        ]
    out: set[MeldKey] = set()
    for key in _sets(naturals, jokers, occupied, max_cards):
        out.add(key)
    for key in _sequences(naturals, jokers, occupied, max_cards, containing):
        out.add(key)
    if containing:
        return sorted(k for k in out if containing in k[0])
    return sorted(out)


def _placements(jokers: Sequence[int], places: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to put distinct joker cards on `places` (one per place)."""
    yield from permutations(jokers, len(places))


def _sets(
    naturals: list[int], jokers: list[int], occupied: Collection[int], max_cards: int
) -> Iterator[MeldKey]:
    by_rank: dict[int, list[int]] = {}
    for value in naturals:
        by_rank.setdefault(RANK_OF[value], []).append(value)
    for rank, held in by_rank.items():
        for size in range(3, min(4, max_cards) + 1):
            for count in range(1, min(len(held), size) + 1):
                wild = size - count
                if wild > len(jokers):
                    continue
                for chosen in combinations(held, count):
                    taken = {SUIT_OF[v] for v in chosen}
                    free = [card(rank, s) for s in SUITS if s not in taken]
                    free = [v for v in free if v not in occupied]
                    for identities in combinations(free, wild):
                        for placed in _placements(jokers, identities):
                            yield _as_key(*set_order([*chosen, *placed], list(identities)))


def _as_key(cards: list[int], joker_as: list[int]) -> MeldKey:
    return tuple(cards), tuple(joker_as)


def _sequences(
    naturals: list[int],
    jokers: list[int],
    occupied: Collection[int],
    max_cards: int,
    containing: int,
) -> Iterator[MeldKey]:
    held = set(naturals)
    suits = [SUIT_OF[containing]] if containing and not is_joker(containing) else SUITS
    for suit in suits:
        if sum(1 for v in naturals if SUIT_OF[v] == suit) + len(jokers) < 3:
            continue
        for low in range(2, 15):
            window: list[int] = []
            gaps: list[int] = []
            for k in range(min(13, max_cards)):
                value = card(cyclic_rank(low + k), suit)
                if value not in held:
                    if len(gaps) == len(jokers):
                        break  # a longer window from this start lacks even more
                    gaps.append(k)
                window.append(value)
                if k < 2 or (k == 12 and low != 2):
                    continue  # three cards at least; a whole suit from its 2 (K-M-1)
                if containing and containing not in window and not is_joker(containing):
                    continue
                yield from _fill(list(window), list(gaps), held, jokers, occupied)


def _fill(
    window: list[int],
    gaps: list[int],
    held: set[int],
    jokers: list[int],
    occupied: Collection[int],
) -> Iterator[MeldKey]:
    """The sequences of `window`: jokers on every gap, and on any further
    places whose naturals the hand holds (a joker may stand for them too)."""
    if any(window[k] in occupied for k in gaps):
        return
    others = [k for k in range(len(window)) if k not in gaps]
    for extra in range(len(jokers) - len(gaps) + 1):
        for more in combinations(others, extra):
            if any(window[k] in occupied for k in more):
                continue
            places = sorted([*gaps, *more])
            if len(places) == len(window):
                continue  # a meld holds a natural card (A-M-05)
            for placed in _placements(jokers, places):
                cards = list(window)
                for k, joker in zip(places, placed, strict=True):
                    cards[k] = joker
                yield tuple(cards), tuple(window[k] for k in places)
