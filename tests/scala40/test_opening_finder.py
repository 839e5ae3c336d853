"""The opening finder is never beaten by a brute-force search (issue 8), and
it is fast enough to call every turn.

The brute force shares no code with the finder: it tries every subset of the
hand as one meld with its own reading of §1.6 (a set: one rank, different
suits, 3–4 cards; a sequence: one suit, the ace low or high, jokers in the
gaps and at the ends), then packs disjoint subsets by exhaustive recursion.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.engine import cards
from croupier.engine.melds import COURT_VALUES, STANDARD_VALUES, UNLIMITED, MeldRules, analyse
from croupier.games.scala40.opening import best_opening

DECK = cards.double_pack_108()
NATURALS = [v for v in DECK if not cards.is_joker(v)]


def meld_value(hand: tuple[int, ...], rules: MeldRules) -> int | None:
    """The best value these cards make as one meld, or None."""
    jokers = sum(1 for v in hand if cards.is_joker(v))
    naturals = [v for v in hand if not cards.is_joker(v)]
    size = len(hand)
    if size < 3 or not naturals or jokers > rules.max_jokers:
        return None
    best = None
    ranks = {cards.RANK_OF[v] for v in naturals}
    suits = [cards.SUIT_OF[v] for v in naturals]
    if len(ranks) == 1 and len(set(suits)) == len(suits) and size <= 4:
        best = size * rules.values[ranks.pop()]
    if len(set(suits)) == 1 and len(set(naturals)) == len(naturals):
        for ace_low in (True, False):
            positions = sorted(
                1 if cards.RANK_OF[v] == cards.ACE and ace_low else cards.RANK_OF[v]
                for v in naturals
            )
            low, high = positions[0], positions[-1]
            gaps = high - low + 1 - len(positions)
            spare = jokers - gaps
            if spare < 0 or size > rules.max_sequence_length:
                continue
            for left in range(spare + 1):
                start, end = low - left, high + spare - left
                if start < 1 or end > 14:
                    continue
                if start == 1 and end == 14 and 1 in positions and 14 in positions:
                    continue
                value = sum(rules.values[p] for p in range(start, end + 1))
                best = value if best is None else max(best, value)
    return best


def brute_force(hand: list[int], rules: MeldRules, max_cards: int) -> int:
    """The highest total of disjoint melds using at most `max_cards` cards (0: none)."""
    n = len(hand)
    melds = {}
    for mask in range(1, 1 << n):
        if bin(mask).count("1") >= 3:
            value = meld_value(tuple(hand[i] for i in range(n) if mask >> i & 1), rules)
            if value is not None:
                melds[mask] = value
    by_lowest: dict[int, list[tuple[int, int]]] = {}
    for mask, value in melds.items():
        by_lowest.setdefault((mask & -mask).bit_length() - 1, []).append((mask, value))

    @cache
    def best(mask: int, budget: int) -> int:
        if not mask:
            return 0
        low = (mask & -mask).bit_length() - 1
        out = best(mask & ~(1 << low), budget)
        for meld, value in by_lowest.get(low, ()):
            size = bin(meld).count("1")
            if meld & mask == meld and size <= budget:
                out = max(out, value + best(mask & ~meld, budget - size))
        return out

    return best((1 << n) - 1, max_cards)


RULES = {
    "default": MeldRules(),
    "unlimited": MeldRules(max_jokers=UNLIMITED),
    "court": MeldRules(values=COURT_VALUES),
    "max13": MeldRules(max_sequence_length=13, values=STANDARD_VALUES),
}


@st.composite
def hands(draw):
    size = draw(st.integers(3, 12))
    jokers = draw(st.integers(0, 2))
    picks = draw(st.lists(st.integers(0, len(NATURALS) - 1), min_size=size, max_size=size,
                          unique=True))  # fmt: skip
    # A few hands from one suit's neighbourhood, where melds crowd.
    if draw(st.booleans()):
        suit = draw(st.sampled_from(cards.SUITS))
        pool = [v for v in NATURALS if cards.SUIT_OF[v] == suit or cards.RANK_OF[v] in (7, 8)]
        picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size,
                              unique=True))  # fmt: skip
        return [pool[i] for i in picks] + [cards.RED_JOKER, cards.BLACK_JOKER][:jokers]
    return [NATURALS[i] for i in picks] + [cards.RED_JOKER, cards.BLACK_JOKER][:jokers]


def _check(hand: list[int], rules: MeldRules, max_cards: int) -> None:
    found = best_opening(hand, rules, max_cards=max_cards)
    expected = brute_force(hand, rules, max_cards)
    value = found.value if found else 0
    assert value == expected, (sorted(hand), found, expected)
    if found:
        used: list[int] = []
        total = 0
        for meld_cards, joker_as in found.melds:
            total += analyse(meld_cards, joker_as, rules).value
            used += meld_cards
        assert total == found.value
        assert len(used) == found.cards_used <= max_cards
        remaining = list(hand)
        for v in used:
            remaining.remove(v)  # every card of the opening is in the hand, once


@settings(max_examples=60)
@given(hands(), st.sampled_from(sorted(RULES)))
def test_the_finder_is_never_beaten_by_brute_force(hand, rules_name):
    _check(hand, RULES[rules_name], len(hand))


@settings(max_examples=40)
@given(hands(), st.integers(1, 3))
def test_the_finder_keeps_the_cards_it_is_told_to(hand, keep):
    _check(hand, RULES["default"], max(len(hand) - keep, 0))


def test_a_14_card_hand_matches_brute_force():
    rnd = random.Random(8)
    for _ in range(3):
        hand = rnd.sample(NATURALS, 12) + [cards.RED_JOKER, cards.BLACK_JOKER]
        _check(hand, RULES["default"], 13)


def test_the_finder_is_fast_on_14_card_hands_with_two_jokers():
    """Issue 8's goal is p50 ≤ 1 ms and max ≤ 20 ms over 1,000 hands
    (`make bench` reports it); a shared CI machine
    gets a looser bound, in CPU time, and none under a tracer (coverage)."""
    if sys.gettrace() is not None:
        pytest.skip("timings under a tracer (coverage) say nothing")
    rnd = random.Random(14)
    times = []
    for _ in range(300):
        hand = rnd.sample(NATURALS, 12) + [cards.RED_JOKER, cards.BLACK_JOKER]
        start = time.process_time()
        best_opening(hand, RULES["default"], max_cards=13)
        times.append(time.process_time() - start)
    assert statistics.median(times) < 0.005
    assert max(times) < 0.2


@pytest.mark.parametrize(
    ("hand", "value"),
    [
        ("8C 9C RJ 5H 5D 5S", 42),  # T-S40-01
        ("AH AS AD", 33),  # T-S40-03
        ("AC 2C 3C KH KC KD QS KS AS", 67),  # T-S40-04
        ("9C 9D 9H 9H 8H 7H", 51),  # T-S40-07
    ],
)
def test_the_finder_on_the_spec_examples(hand, value):
    found = best_opening([cards.parse_card(t) for t in hand.split()], MeldRules())
    assert found is not None and found.value == value
