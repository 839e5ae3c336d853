"""The meld analyser: a move's meld specs read into melds under a table's
options (§1.6), with every broken rule named as a Scala 40 rejection.

The game-independent rules of sets and sequences live in `engine/melds.py`;
here are Scala 40's own readings of them: the positional convention for a
set's joker (V23, R-S40-29), the reason each fault is refused with, and the
one meld cards written in another order make (K-S40-2; `spelling.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from croupier.engine import caches
from croupier.engine.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    RANK_OF,
    RED_JOKER,
    SPADES,
    SUIT_OF,
    card,
    is_joker,
    is_suited,
)
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import (
    Meld,
    MeldError,
    MeldFault,
    MeldRules,
    analyse,
    jokers_in_place,
    respelled_meld,
    set_order,
    spots,
)
from croupier.v1 import scala40_pb2 as pb

Why = pb.Scala40RejectionReason

# Each meld fault, as the rejection it is and the rule it breaks.
FAULTS: dict[MeldFault, tuple[int, str]] = {
    MeldFault.TOO_SHORT: (Why.SCALA40_REJECTION_REASON_MELD_TOO_SHORT, "R-S40-20"),
    MeldFault.NO_NATURAL: (Why.SCALA40_REJECTION_REASON_MELD_WITHOUT_NATURAL, "R-S40-27"),
    MeldFault.TOO_MANY_JOKERS: (Why.SCALA40_REJECTION_REASON_TOO_MANY_JOKERS, "R-S40-27"),
    MeldFault.SET_RANKS_DIFFER: (Why.SCALA40_REJECTION_REASON_NOT_A_SET_OR_SEQUENCE, "R-S40-20"),
    MeldFault.SET_SUITS_REPEAT: (Why.SCALA40_REJECTION_REASON_SET_SUITS_MUST_DIFFER, "R-S40-20"),
    MeldFault.SET_TOO_LARGE: (Why.SCALA40_REJECTION_REASON_SET_OF_MORE_THAN_4, "R-S40-20"),
    MeldFault.SEQUENCE_NOT_CONSECUTIVE: (
        Why.SCALA40_REJECTION_REASON_SEQUENCE_NOT_CONSECUTIVE,
        "R-S40-22",
    ),
    MeldFault.ACE_IN_MIDDLE: (Why.SCALA40_REJECTION_REASON_ACE_IN_MIDDLE_OF_SEQUENCE, "R-S40-23"),
    MeldFault.TWO_NATURAL_ACES: (Why.SCALA40_REJECTION_REASON_TWO_NATURAL_ACES, "R-S40-24"),
    MeldFault.SEQUENCE_TOO_LONG: (Why.SCALA40_REJECTION_REASON_SEQUENCE_TOO_LONG, "R-S40-25"),
    MeldFault.JOKER_UNDECLARED: (Why.SCALA40_REJECTION_REASON_JOKER_MUST_BE_DECLARED, "R-S40-28"),
    MeldFault.JOKER_IDENTITY_WRONG: (
        Why.SCALA40_REJECTION_REASON_JOKER_IDENTITY_DOES_NOT_FIT,
        "R-S40-28",
    ),
    MeldFault.NOT_IN_ORDER: (Why.SCALA40_REJECTION_REASON_SET_NOT_IN_ORDER, "K-S40-2"),
    MeldFault.DOES_NOT_FIT: (Why.SCALA40_REJECTION_REASON_LAY_OFF_DOES_NOT_FIT, "§1.8"),
    MeldFault.NO_SUCH_JOKER: (Why.SCALA40_REJECTION_REASON_SWAP_CARD_IS_NOT_THE_JOKER, "R-S40-50"),
}


def refusal(error: MeldError) -> IllegalMove:
    """The rejection a meld fault is."""
    reason, rule = FAULTS[error.fault]
    return IllegalMove(reason, error.message, rule)


# R-S40-29 (b): naturals of one colour — the joker beside ♠ is ♥ and so on.
_SAME_COLOUR: dict[int, int] = {SPADES: HEARTS, HEARTS: SPADES, CLUBS: DIAMONDS, DIAMONDS: CLUBS}
# R-S40-29 (a): naturals of two colours — the other suit of the neighbour's colour.
_OTHER_OF_COLOUR: dict[int, int] = {
    SPADES: CLUBS,
    CLUBS: SPADES,
    HEARTS: DIAMONDS,
    DIAMONDS: HEARTS,
}
_RED = (HEARTS, DIAMONDS)


def positional_identity(cards: Sequence[int]) -> int:
    """V23 (R-S40-29): the card a three-card set's undeclared joker stands for
    when it lies at an end; 0 when it is in the middle (no inference)."""
    if len(cards) != 3 or is_joker(cards[1]) or not (is_joker(cards[0]) or is_joker(cards[2])):
        return 0
    if is_joker(cards[0]) and is_joker(cards[2]):
        return 0
    neighbour = cards[1]
    other = cards[2] if is_joker(cards[0]) else cards[0]
    mixed = (SUIT_OF[neighbour] in _RED) != (SUIT_OF[other] in _RED)
    table = _OTHER_OF_COLOUR if mixed else _SAME_COLOUR
    return card(RANK_OF[neighbour], table[SUIT_OF[neighbour]])


def read_meld(
    cards: Sequence[int], joker_as: Sequence[int], rules: MeldRules, positional: bool
) -> Meld:
    """The meld a spec lays, or IllegalMove naming the rule it breaks.

    With `positional` (V23 on, V17 on) an undeclared lone joker of a
    three-card set takes the suit its place gives it, and the set is then
    kept in set order (R-S40-29, A-S40-19)."""
    if positional and len(cards) == 3 and list(joker_as) == [0]:
        identity = positional_identity(cards)
        naturals = [v for v in cards if not is_joker(v)]
        if identity and RANK_OF[naturals[0]] == RANK_OF[naturals[1]]:
            cards, joker_as = set_order(cards, [identity])
    try:
        return analysed(tuple(cards), tuple(joker_as), rules)
    except MeldError as error:
        raise refusal(error) from None


@caches.lru("scala40.analyser.analysed", 1536, 420)
def analysed(cards: tuple[int, ...], joker_as: tuple[int, ...], rules: MeldRules) -> Meld:
    """`analyse`, remembered: the melds of a table are read again at every call."""
    return analyse(cards, joker_as, rules)


# -- another order of a meld's cards (K-S40-2; spelling.py reads moves with it) --

MeldKey = tuple[tuple[int, ...], tuple[int, ...]]


def respelled(
    cards: tuple[int, ...], joker_as: tuple[int, ...], rules: MeldRules
) -> MeldKey | None:
    """The one meld these cards make in another order, each joker keeping
    its identity (K-S40-2): a set in set order, a sequence low to high, an
    ace where the other cards put it. None when they make no meld, or two
    (the ace of a whole suit low or high, which of two different aces of 14
    cards is low) unless the order written, read high to low, is one of them."""
    if sum(1 for v in cards if is_joker(v)) != len(joker_as):
        return None
    if any(i and not is_suited(i) for i in joker_as):
        return None  # a card past the deck: no meld in any order (the fuzzers' F-cases)
    jokers = iter(joker_as)
    pairs = [(v, next(jokers) if is_joker(v) else v) for v in cards]
    known = [i for _, i in pairs if i]
    if not known:
        return None
    if len({RANK_OF[i] for i in known}) == 1:
        return respelled_meld(cards, joker_as, rules)  # a set, in set order
    identities = [i for _, i in pairs]
    if 0 in identities or not jokers_in_place(cards, identities, wrap=False):
        return None  # R-S40-28: a joker stands where its card goes (or is undeclared)
    return _straight(pairs, rules)


def _straight(pairs: list[tuple[int, int]], rules: MeldRules) -> MeldKey | None:
    """A straight sequence (no wrap) of these (card, identity) pairs: placed
    by rank, an ace at position 1 or 14 as the other cards allow."""
    identities = [i for _, i in pairs]
    if 0 in identities or len({SUIT_OF[i] for i in identities}) != 1:
        return None
    aces = [p for p in pairs if RANK_OF[p[1]] == ACE]
    others = sorted((p for p in pairs if RANK_OF[p[1]] != ACE), key=lambda p: RANK_OF[p[1]])
    if len(aces) > 2 or len({RANK_OF[i] for _, i in others}) != len(others):
        return None
    if not aces:
        placings = [others]
    elif len(aces) == 1:
        placings = [aces + others, others + aces]
    else:
        placings = [aces[:1] + others + aces[1:], aces[1:] + others + aces[:1]]
    found: dict[MeldKey, list[tuple[int, int]]] = {}
    for placed in placings:
        key = (tuple(v for v, _ in placed), tuple(i for v, i in placed if is_joker(v)))
        if key in found:
            continue
        try:
            analyse(*key, rules)
        except MeldError:
            continue
        found[key] = placed
    if len(found) == 1:
        return next(iter(found))
    backwards = pairs[::-1]
    chosen = [key for key, placed in found.items() if placed == backwards]
    return chosen[0] if len(chosen) == 1 else None


class TableMeld(NamedTuple):
    """A meld on the table: its stable id, the seat that laid it, the meld."""

    id: int
    owner: int
    meld: Meld


class TableMelds:
    """The melds on a table, analysed once per distinct table (most moves —
    draws and discards — leave it as it was): the melds, their ids and
    owners, and which cards would extend one (for D2–D4's "playable").
    Only a table whose every meld is valid, with distinct ids from 1 and one
    identity per joker, is kept."""

    __slots__ = ("melds", "owners", "top_id", "spelled", "_fits")

    def __init__(self, melds: tuple[TableMeld, ...], spelled: bool = True) -> None:
        self.melds = melds  # in table order, each meld in its one spelling (K-S40-2)
        # Whether the state stores every meld in that spelling.
        self.spelled = spelled
        self.owners = frozenset(owner for _, owner, _ in melds)
        self.top_id = max((meld_id for meld_id, _, _ in melds), default=0)
        self._fits: tuple[frozenset[int], bool] | None = None

    def fits(self, rules: MeldRules) -> tuple[frozenset[int], bool]:
        """(the naturals that extend some meld, whether one has room for a joker)."""
        if self._fits is None:
            naturals: set[int] = set()
            joker = False
            for _, _, meld in self.melds:
                for spot in spots(meld, rules, (RED_JOKER,)):
                    if is_joker(spot.value):
                        joker = True
                    else:
                        naturals.add(spot.value)
            self._fits = (frozenset(naturals), joker)
        return self._fits


class TableFault(Exception):
    """A table meld that is not one: `index`, `field` ("id", "joker_as",
    "cards") and what is wrong."""

    def __init__(self, index: int, field: str, problem: str) -> None:
        self.index = index
        self.field = field
        self.problem = problem
        super().__init__(problem)


# Keyed by the rules and a digest of the melds (engine/caches.py, digest).
_TABLES: caches.Bounded[tuple[MeldRules, bytes], TableMelds] = caches.Bounded(
    "scala40.analyser.tables", 256, 1_700
)


def table_melds(melds, rules: MeldRules) -> TableMelds:  # type: ignore[no-untyped-def]
    """The analysed melds of a state's repeated Scala40Meld field, or
    TableFault for the first meld that is broken. Each meld is its own part
    of the cache key: joined bytes would merge an empty meld into its
    neighbour and pass it as the table checked before.

    A meld stored in another order a move may write it in (K-S40-2) is read
    in its one spelling; `canonical_table` writes that spelling into a state."""
    key = (rules, caches.digest([m.SerializeToString() for m in melds]))
    found = _TABLES.get(key)
    if found is not None:
        return found
    out = []
    ids: set[int] = set()
    spelled = True
    for index, m in enumerate(melds):
        if m.id == 0 or m.id in ids:
            raise TableFault(index, "id", "ids are distinct, from 1 and below next_meld_id")
        ids.add(m.id)
        cards = tuple(m.cards)
        jokers = sum(1 for v in cards if is_joker(v))
        if len(m.joker_as) != jokers:
            raise TableFault(index, "joker_as", f"needs one identity per joker ({jokers})")
        try:
            meld = analysed(cards, tuple(m.joker_as), rules)
        except MeldError as error:
            spelling = respelled(cards, tuple(m.joker_as), rules)
            if spelling is None:
                raise TableFault(index, "cards", f"not a valid meld: {error.message}") from None
            meld = analysed(*spelling, rules)
            spelled = False
        out.append(TableMeld(m.id, m.owner, meld))
    return _TABLES.put(key, TableMelds(tuple(out), spelled))


def canonical_table(melds, rules: MeldRules) -> TableMelds:  # type: ignore[no-untyped-def]
    """Write every meld of `melds` (a state's, in a message the caller may
    change) in its one spelling, as `table_melds` reads it (K-S40-2): a state
    may hold a meld in any order a move may write it in; every answer holds
    its spelling. Returns `table_melds` of the melds as written now."""
    table = table_melds(melds, rules)
    if table.spelled:
        return table
    for stored, table_meld in zip(melds, table.melds, strict=True):
        meld = table_meld.meld
        stored.cards[:] = meld.cards
        stored.joker_as[:] = meld.joker_as
    return table_melds(melds, rules)
