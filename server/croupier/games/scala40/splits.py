"""V14, the old rule (`sequence_split_max5`, T-S40-27): sequences hold 3–5
cards; laying cards on one that would grow past five (or that repeat a rank
inside it) splits it into sequences of 3–5 that keep every card it had.

A split is written as its parts, lowest first; the cards the parts add to
the meld come from the hand. Listing (RULES.md): every split that adds one to
three natural cards of the hand; a split adding a joker is accepted when
submitted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from croupier.engine.cards import ACE, RANK_OF, SUIT_OF, is_joker
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import SEQUENCE, Meld, MeldError, position_card
from croupier.games.scala40.analyser import analysed
from croupier.v1 import scala40_pb2 as pb

Why = pb.Scala40RejectionReason
MAX_ADDED = 3


def _invalid(message: str) -> IllegalMove:
    return IllegalMove(Why.SCALA40_REJECTION_REASON_SPLIT_INVALID, message, "V14")


def check_split(rules, meld: Meld, parts: Sequence[Meld]) -> list[int]:  # type: ignore[no-untyped-def]
    """The cards a split adds to `meld` (from the hand), or IllegalMove."""
    if meld.kind != SEQUENCE:
        raise _invalid("only a sequence is split")
    if len(parts) < 2:
        raise _invalid("a split makes two or more sequences (one is a lay-off)")
    for part in parts:
        if part.kind != SEQUENCE or part.suit != meld.suit:
            raise _invalid("the parts are sequences of the meld's suit")
    if [(p.low, p.high) for p in parts] != sorted((p.low, p.high) for p in parts):
        raise _invalid("write the parts lowest first")
    old = Counter(_tagged(meld))
    new = Counter(t for p in parts for t in _tagged(p))
    if old - new:
        raise _invalid("a split keeps every card of the meld (jokers as they stand)")
    added = new - old
    if not added:
        raise _invalid("a split adds cards from the hand")
    return [value for value, _ in added.elements()]


def _tagged(meld: Meld) -> list[tuple[int, int]]:
    """(card, identity) per card: a joker keeps what it stands for."""
    return [(v, i if is_joker(v) else 0) for v, i in zip(meld.cards, meld.identities, strict=True)]


def partitions(cards: Sequence[tuple[int, int, int]]) -> Iterator[list[list[tuple[int, int]]]]:
    """Every way to cut (position, card, identity) items into runs of 3–5
    consecutive positions, each run holding each of its positions once."""
    items = sorted(cards)

    def walk(left: list[tuple[int, int, int]]) -> Iterator[list[list[tuple[int, int]]]]:
        if not left:
            yield []
            return
        start = left[0][0]
        for length in (3, 4, 5):
            chosen_sets = _choose(left, start, length)
            for chosen, rest in chosen_sets:
                for tail in walk(rest):
                    yield [[(v, i) for _, v, i in chosen], *tail]

    yield from walk(items)


def _choose(left, start: int, length: int):  # type: ignore[no-untyped-def]
    """Ways to take one item at each of start..start+length-1 (the first
    item at `start` always: it must begin a run)."""
    options: list[list[tuple[int, int, int]]] = []
    for position in range(start, start + length):
        here = sorted({item for item in left if item[0] == position})
        if not here:
            return []
        options.append(here)
    out = []

    def pick(k: int, taken: list[tuple[int, int, int]]) -> None:
        if k == len(options):
            rest = list(left)
            for item in taken:
                rest.remove(item)
            out.append((list(taken), rest))
            return
        for item in options[k]:
            pick(k + 1, [*taken, item])

    pick(0, [])
    return out


def split_options(  # type: ignore[no-untyped-def]
    rules, meld: Meld, added: Sequence[int], jokers: Sequence[tuple[int, int]] = ()
) -> list[list[Meld]]:
    """Every split of `meld` plus the naturals `added` (and the `jokers`, each
    (joker, place)) into 2+ valid parts."""
    items = [(meld.low + k, v, i if is_joker(v) else 0)
             for k, (v, i) in enumerate(zip(meld.cards, meld.identities, strict=True))]  # fmt: skip
    for value in added:
        rank = RANK_OF[value]
        position = (1 if meld.low <= 3 else 14) if rank == ACE else rank
        items.append((position, value, 0))
    for joker, position in jokers:
        items.append((position, joker, position_card(position, meld.suit)))
    out: list[list[Meld]] = []
    seen = set()
    for runs in partitions(items):
        if len(runs) < 2:
            continue
        try:
            parts = [
                analysed(
                    tuple(v for v, _ in run), tuple(i for v, i in run if is_joker(v)), rules.melds
                )  # fmt: skip
                for run in runs
            ]
        except MeldError:
            continue
        key = tuple((p.cards, p.joker_as) for p in parts)
        if key not in seen:
            seen.add(key)
            out.append(parts)
    return out


def candidate_additions(meld: Meld, hand: Sequence[int]) -> list[tuple[int, ...]]:
    """Sub-multisets (1–3 cards) of the hand's naturals of the meld's suit that
    lie within five places of it."""
    near = sorted(
        v
        for v in hand
        if not is_joker(v)
        and SUIT_OF[v] == meld.suit
        and (meld.low - 5 <= RANK_OF[v] <= meld.high + 5 or RANK_OF[v] == ACE)
    )
    out: set[tuple[int, ...]] = set()
    for size in range(1, MAX_ADDED + 1):
        for combo in combinations(near, size):
            out.add(combo)
    return sorted(out)


def split_playable(pos) -> set[int]:  # type: ignore[no-untyped-def]
    """V14: naturals that a split would take (for D2–D4's "playable")."""
    out: set[int] = set()
    for table_meld in pos.melds:
        meld = table_meld.meld
        if meld.kind != SEQUENCE:
            continue
        for position in range(max(1, meld.low - 1), min(14, meld.high + 1) + 1):
            value = position_card(position, meld.suit)
            if value not in out and split_options(pos.rules, meld, [value]):
                out.add(value)
    return out


def split_takes_joker(pos, joker: int) -> bool:  # type: ignore[no-untyped-def]
    """V14: whether a split would take a joker alone, standing for a card at
    or next to a sequence (for D2–D4's "playable", §1.10)."""
    for table_meld in pos.melds:
        meld = table_meld.meld
        if meld.kind != SEQUENCE:
            continue
        for position in range(max(1, meld.low - 1), min(14, meld.high + 1) + 1):
            if split_options(pos.rules, meld, (), [(joker, position)]):
                return True
    return False
