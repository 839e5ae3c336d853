"""forming.py against a brute force: every meld a hand can lay, found by
trying every subset of the hand with every identity its jokers could take
and every order (read by the checker's own analyser), is what `formable`
lists — no more, no fewer. The generator lists melds from `formable`, and
the conformance suite's candidates come from it too, so this is the test
that would see a meld both miss."""

from __future__ import annotations

from itertools import combinations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.engine import cards
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import cyclic_rank
from croupier.games.most.analyser import read_meld
from croupier.games.most.forming import formable
from croupier.games.most.rules import Rules
from croupier.v1 import most_pb2 as pb

RULES = Rules(pb.MostOptions(min_naturals_per_meld=1))
PACK = cards.pack_54()


def orders(chosen: tuple[int, ...], identities: dict[int, int]) -> list[tuple[int, ...]]:
    """The orders worth reading: by suit (a set), and round the circle from each card."""
    of = [identities.get(v, v) for v in chosen]
    out = [tuple(sorted(chosen, key=lambda v: (cards.is_joker(v), identities.get(v, v), v)))]
    for first in chosen:
        start = cards.RANK_OF[identities.get(first, first)]
        key = {v: (cards.RANK_OF[i] - start) % 13 for v, i in zip(chosen, of, strict=True)}
        out.append(tuple(sorted(chosen, key=lambda v: key[v])))
    return out


def brute(hand, occupied, represented) -> set:  # type: ignore[no-untyped-def]
    found = set()
    naturals = [v for v in hand if not cards.is_joker(v) and v not in represented]
    jokers = [v for v in hand if cards.is_joker(v)]
    ranks = {cards.RANK_OF[v] for v in naturals}
    suits = {cards.SUIT_OF[v] for v in naturals}
    near = [v for v in range(1, 53) if cards.RANK_OF[v] in ranks or cards.SUIT_OF[v] in suits]
    near = [v for v in near if v not in occupied]
    # Only the work that cannot find anything is skipped (the same melds are
    # found, in about half the time): a joker's identity shares a rank or a
    # suit with the meld's own naturals (the premise of `near`, for the
    # chosen naturals instead of the whole hand); identities repeating a
    # card would fail the last check; an order is read once.
    for size in range(3, len(naturals) + len(jokers) + 1):
        for nat_count in range(1, size + 1):
            for nats in combinations(naturals, nat_count):
                nat_ranks = {cards.RANK_OF[v] for v in nats}
                nat_suits = {cards.SUIT_OF[v] for v in nats}
                near_nats = [
                    v
                    for v in near
                    if cards.RANK_OF[v] in nat_ranks or cards.SUIT_OF[v] in nat_suits
                ]
                for jks in combinations(jokers, size - nat_count):
                    for ids in product(near_nats, repeat=len(jks)):
                        if len({*nats, *ids}) < size:
                            continue
                        identities = dict(zip(jks, ids, strict=True))
                        for order in dict.fromkeys(orders(nats + jks, identities)):
                            joker_as = [identities[v] for v in order if cards.is_joker(v)]
                            try:
                                meld = read_meld(order, joker_as, RULES.melds)
                            except IllegalMove:
                                continue
                            if len(set(meld.identities)) == len(order):
                                found.add((meld.cards, meld.joker_as))
    return found


@st.composite
def hands(draw):  # type: ignore[no-untyped-def]
    """A few naturals near each other (two suits, six ranks round the circle,
    so that sets and sequences are common) and up to two jokers."""
    suits = draw(st.lists(st.sampled_from(cards.SUITS), min_size=1, max_size=2, unique=True))
    low = draw(st.integers(2, 14))
    pool = [cards.card(cyclic_rank(low + k), s) for s in suits for k in range(6)]
    naturals = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=5, unique=True))
    jokers = draw(st.sampled_from([[], [cards.RED_JOKER], [cards.RED_JOKER, cards.BLACK_JOKER]]))
    return naturals + jokers


@settings(max_examples=25)
@given(hands(), st.lists(st.sampled_from(PACK[:52]), max_size=8), st.data())
def test_formable_lists_exactly_the_melds_a_brute_force_finds(hand, occupied, data):
    occupied = {v for v in occupied if v not in hand}
    naturals = [v for v in hand if not cards.is_joker(v)]
    represented = set(data.draw(st.lists(st.sampled_from(naturals), max_size=1)))
    occupied |= represented  # a card a table joker stands for is taken (R-M-13)
    assert set(formable(hand, occupied, represented)) == brute(hand, occupied, represented)


def test_a_full_suit_is_listed_once_from_its_two() -> None:
    hearts = [cards.card(r, cards.HEARTS) for r in range(2, 15)]
    listed = [k for k in formable(hearts) if len(k[0]) == 13]
    assert listed == [(tuple(hearts), ())]
    assert cyclic_rank(15) == 2
