"""The acting seat's turn as plain Python: the model every play action acts
on (R-M-30 to R-M-34), for the checker (`moves.py`), the generator
(`legal.py`) and the look-ahead of C-M-1 (`completion.py`) alike.

A `Position` is read from a state once per call, changed by the actions the
move makes (each raises IllegalMove naming its rule) and written back. The
look-ahead copies it and tries actions without touching the state.

Every card of the pack is unique (one pack, a red and a black joker), so a
card value names one card wherever it lies: the seat a table card scores for
is kept per card value while a meld is rebuilt.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from croupier.engine import caches
from croupier.engine.cards import card_text, is_joker
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import (
    Meld,
    MeldError,
    extend,
    lay_off_fault,
    meld_text,
    respelled_meld,
    swap,
)
from croupier.games.most.analyser import analysed, refusal
from croupier.games.most.rules import Rules, card_value
from croupier.v1 import game_pb2
from croupier.v1 import most_pb2 as pb

Why = pb.MostRejectionReason
RepeatedMelds = Any  # a repeated MostMeld field (a state's or a view's)

# How a lay-off refusal names the move that takes a joker (engine/melds.lay_off_fault).
_TAKE_JOKER = "EXCHANGE {card}"


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its stable id, the seat that laid it, the meld,
    and the seat each card scores for (R-M-41), in table order."""

    id: int
    owner: int
    meld: Meld
    credited: tuple[int, ...]

    def points_of(self, seat: int) -> int:
        """What this meld's cards are worth to `seat` (a joker 0, R-M-03)."""
        return sum(
            card_value(v)
            for v, who in zip(self.meld.cards, self.credited, strict=True)
            if who == seat and not is_joker(v)
        )


@dataclass(frozen=True, slots=True)
class Done:
    """What one play action did, for its event."""

    kind: int
    meld_id: int
    cards: tuple[int, ...]
    points: int
    owner: int
    meld: str


# Keyed by the rules and a digest of the melds (engine/caches.py, digest):
# the analysed melds, and whether each is stored in its one spelling (K-M-1).
_TABLES: caches.Bounded[tuple[Rules, bytes], tuple[tuple[TableMeld, ...], bool]] = caches.Bounded(
    "most.position.tables", 768, 1_250
)


def table_of(melds: Sequence[pb.MostMeld], rules: Rules) -> tuple[TableMeld, ...]:
    """The analysed melds of a state, remembered per distinct table (most
    moves leave it as it was); MeldError, with `index` set to its place, for
    one that is not a meld. Each meld is its own part of the key: joined
    bytes would merge an empty meld into its neighbour.

    A meld stored in another order a meld may be written in (K-M-1) is read
    in its one spelling (`table_spelling`), each card keeping the seat it
    scores for; `canonical_table` writes that spelling into a state."""
    return _read(melds, rules)[0]


def _read(melds: Sequence[pb.MostMeld], rules: Rules) -> tuple[tuple[TableMeld, ...], bool]:
    """`table_of`, and whether every meld is stored in its one spelling."""
    key = (rules, caches.digest([m.SerializeToString() for m in melds]))
    found = _TABLES.get(key)
    if found is not None:
        return found
    out = []
    spelled = True
    for index, m in enumerate(melds):
        stored = tuple(m.cards)
        try:
            meld = table_spelling(stored, tuple(m.joker_as), rules)
        except MeldError as error:
            error.index = index  # type: ignore[attr-defined]
            raise
        credited = tuple(m.credited_to)
        if meld.cards != stored:
            spelled = False
            if len(credited) == len(stored):
                credit: dict[int, int] = dict(zip(stored, credited, strict=True))
                credited = tuple(credit[v] for v in meld.cards)
        out.append(TableMeld(m.id, m.owner, meld, credited))
    return _TABLES.put(key, (tuple(out), spelled))


def table_spelling(cards: tuple[int, ...], joker_as: tuple[int, ...], rules: Rules) -> Meld:
    """A table meld as stored, analysed: in its own order when that is a
    spelling of the table (K-M-1; a whole suit grown by lay-offs keeps the
    order it grew into), else in the one spelling of a meld written in
    another order. MeldError (the stored order's) when no order is a meld."""
    try:
        return analysed(cards, joker_as, rules.melds)
    except MeldError:
        found = respelled_meld(cards, joker_as, rules.melds)
        if found is None:
            raise
        return analysed(*found, rules.melds)


def canonical_table(melds: RepeatedMelds, rules: Rules) -> tuple[TableMeld, ...]:
    """Write every meld of `melds` (a state's or a view's, in a message the
    caller may change) in its one spelling, as `table_of` reads it (K-M-1):
    a state may hold a meld in any order a meld may be written in; every
    answer holds its spelling. Returns `table_of` the melds as written now."""
    if not melds:
        return ()
    table, spelled = _read(melds, rules)
    if spelled:
        return table
    for stored, table_meld in zip(melds, table, strict=True):
        meld = table_meld.meld
        if tuple(stored.cards) == meld.cards:
            continue  # the same cards in the same order: the same jokers' identities
        stored.cards[:] = meld.cards
        stored.joker_as[:] = meld.joker_as
        stored.credited_to[:] = table_meld.credited
    return table


@dataclass
class Position:
    """The acting seat's turn: its hand, the table, the bridge, its duty."""

    rules: Rules
    seat: int
    hand: list[int]
    melds: list[TableMeld]
    bridge: tuple[int, ...]
    melded: bool
    next_meld_id: int
    # The first card taken from the bridge this turn (0: none): never
    # discarded this turn (§2.8 a, K-M-2); owed to a new meld while `bridge_owed`.
    bridge_card: int = 0
    bridge_owed: bool = False
    done: list[Done] = field(default_factory=list)

    # -- reading and writing a state ------------------------------------------------

    @classmethod
    def read(
        cls, state: game_pb2.GameState, rules: Rules, melds: Sequence[TableMeld] | None = None
    ) -> Position:
        """The turn of `state.current_seat`; `melds`, the table as `table_of`
        reads it, when the caller has it already."""
        deal = state.most
        seat = state.current_seat
        return cls(
            rules=rules,
            seat=seat,
            hand=list(deal.hands[seat].cards),
            melds=list(table_of(deal.melds, rules) if melds is None else melds),
            bridge=tuple(deal.bridge),
            melded=deal.melded[seat],
            next_meld_id=deal.next_meld_id,
            bridge_card=deal.bridge_card,
            bridge_owed=deal.bridge_card_owed,
        )

    def write(self, state: game_pb2.GameState) -> None:
        """Put the turn back into `state` (the hand, the table, the duty)."""
        deal = state.most
        hand = deal.hands[self.seat].cards
        del hand[:]
        hand.extend(self.hand)  # type: ignore[arg-type]
        out = deal.melds
        keep = 0
        for table_meld, old in zip(self.melds, out, strict=False):
            if old.id != table_meld.id or tuple(old.cards) != table_meld.meld.cards:
                break
            if tuple(old.credited_to) != table_meld.credited:
                break
            keep += 1
        del out[keep:]
        for table_meld in self.melds[keep:]:
            out.add(
                id=table_meld.id,
                owner=table_meld.owner,
                cards=table_meld.meld.cards,
                joker_as=table_meld.meld.joker_as,
                credited_to=table_meld.credited,
            )
        deal.melded[self.seat] = self.melded
        deal.next_meld_id = self.next_meld_id
        deal.bridge_card_owed = self.bridge_owed

    def copy(self) -> Position:
        other = Position(**{k: getattr(self, k) for k in self.__dataclass_fields__})
        other.hand = list(self.hand)
        other.melds = list(self.melds)
        other.done = []
        return other

    def key(self) -> tuple:  # type: ignore[type-arg]
        """What the look-ahead needs to know of the position (its memo key)."""
        return (
            tuple(sorted(self.hand)),
            tuple((m.meld.cards, m.meld.joker_as) for m in self.melds),
            self.melded,
            self.bridge_owed,
        )

    # -- facts (R-M-13) --------------------------------------------------------------

    def represented(self) -> dict[int, int]:
        """{card a table joker stands for: index of its meld}."""
        out = {}
        for index, table_meld in enumerate(self.melds):
            if table_meld.meld.jokers:
                for value, identity in zip(
                    table_meld.meld.cards, table_meld.meld.identities, strict=True
                ):
                    if is_joker(value):
                        out[identity] = index
        return out

    def joker_for(self) -> dict[int, int]:
        """{card a table joker stands for: that joker}."""
        out = {}
        for table_meld in self.melds:
            if table_meld.meld.jokers:
                for value, identity in zip(
                    table_meld.meld.cards, table_meld.meld.identities, strict=True
                ):
                    if is_joker(value):
                        out[identity] = value
        return out

    def occupied(self) -> set[int]:
        """The cards R-M-13 keeps unique: naturals in melds and in the bridge,
        and the identities of table jokers."""
        out = {v for v in self.bridge if not is_joker(v)}
        for table_meld in self.melds:
            out.update(table_meld.meld.identities)
        return out

    def discardable(self, value: int, represented: dict[int, int] | None = None) -> bool:
        """§2.8: any card but the first taken from the bridge (K-M-2) and a card
        a table joker stands for (R-M-13)."""
        if represented is None:
            represented = self.represented()
        return value != self.bridge_card and value not in represented

    def fallback(self) -> bool:
        """K-M-3: nothing is owed and no card of the hand may be discarded —
        the §2.8 way out (exchange first) is open to everyone."""
        if self.bridge_owed:
            return False
        represented = self.represented()
        return not any(self.discardable(v, represented) for v in self.hand)

    def may_exchange(self) -> bool:
        """R-M-32: anyone; under exchange_requires_meld only a seat that has
        melded this hand, or one in the K-M-3 fallback."""
        return not self.rules.exchange_requires_meld or self.melded or self.fallback()

    def index_of(self, meld_id: int) -> int:
        for index, table_meld in enumerate(self.melds):
            if table_meld.id == meld_id:
                return index
        raise IllegalMove(
            Why.MOST_REJECTION_REASON_NO_SUCH_MELD, f"no meld {meld_id} on the table", "R-M-31"
        )

    # -- the play actions ------------------------------------------------------------------

    def _remove(self, cards: Iterable[int]) -> None:
        for value in cards:
            if value not in self.hand:
                raise IllegalMove(
                    game_pb2.REJECTION_REASON_CARD_NOT_IN_HAND,
                    f"{card_text(value)} is not in the hand",
                    "R-M-30",
                    common=True,
                )
        for value in cards:
            self.hand.remove(value)

    def _not_represented(self, naturals: Iterable[int]) -> None:
        represented = self.represented()
        for value in naturals:
            if value in represented:
                raise IllegalMove(
                    Why.MOST_REJECTION_REASON_CARD_REPRESENTED_BY_JOKER,
                    f"a joker on the table stands for {card_text(value)}: it may only be "
                    "exchanged for that joker",
                    "R-M-13",
                )

    def _free_identities(self, identities: Iterable[int]) -> None:
        occupied = self.occupied()
        for identity in identities:
            if identity in occupied:
                raise IllegalMove(
                    Why.MOST_REJECTION_REASON_JOKER_IDENTITY_ON_TABLE,
                    f"a joker may not stand for {card_text(identity)}: that card is in a meld, "
                    "in the bridge or stood for by the other joker",
                    "R-M-13",
                )

    def meld(self, meld: Meld) -> None:
        """R-M-30: lay a new meld from the hand (R-M-13 keeps its cards unique)."""
        self._remove(meld.cards)
        naturals = [v for v in meld.cards if not is_joker(v)]
        self._not_represented(naturals)
        self._free_identities(meld.joker_as)
        if len(naturals) < self.rules.min_naturals:  # pragma: no cover - C-M-3: inert
            raise IllegalMove(
                Why.MOST_REJECTION_REASON_MELD_WITHOUT_NATURAL, "a meld needs a natural", "A-M-05"
            )
        meld_id = self.next_meld_id
        self.next_meld_id += 1
        table_meld = TableMeld(meld_id, self.seat, meld, (self.seat,) * len(meld.cards))
        self.melds.append(table_meld)
        self.melded = True
        if self.bridge_owed and self.bridge_card in meld.cards:
            self.bridge_owed = False
        self.done.append(
            Done(pb.MOST_EVENT_KIND_MELDED, meld_id, meld.cards, table_meld.points_of(self.seat),
                 self.seat, meld_text(meld.cards, meld.joker_as))
        )  # fmt: skip

    def lay_off(self, meld_id: int, value: int, end: int, joker_as: int) -> None:
        """R-M-31: one card from the hand onto any meld; it scores for the layer."""
        if not self.melded:
            raise IllegalMove(
                Why.MOST_REJECTION_REASON_LAY_OFF_NEEDS_OWN_MELD,
                "only a player who has melded this hand lays off",
                "R-M-31",
            )
        index = self.index_of(meld_id)
        table_meld = self.melds[index]
        self._where(table_meld, value, end, joker_as)
        self._remove([value])
        if self.bridge_owed and value == self.bridge_card and not self.rules.bridge_lay_off:
            raise IllegalMove(
                Why.MOST_REJECTION_REASON_BRIDGE_CARD_MUST_START_A_MELD,
                f"the {card_text(value)} taken from the bridge goes into a new meld",
                "A-M-01",
            )
        if not is_joker(value):
            self._not_represented([value])
        try:
            meld = extend(table_meld.meld, value, end, joker_as, self.rules.melds)
        except MeldError as error:
            raise refusal(error) from None
        if is_joker(value):
            self._free_identities([meld.identities[meld.cards.index(value)]])
        credit = dict(zip(table_meld.meld.cards, table_meld.credited, strict=True))
        credit[value] = self.seat
        self.melds[index] = TableMeld(
            table_meld.id, table_meld.owner, meld, tuple(credit[v] for v in meld.cards)
        )
        if self.bridge_owed and value == self.bridge_card:
            self.bridge_owed = False  # bridge_card_may_be_laid_off
        points = 0 if is_joker(value) else card_value(value)
        self.done.append(
            Done(pb.MOST_EVENT_KIND_LAID_OFF, meld_id, (value,), points, table_meld.owner,
                 meld_text(meld.cards, meld.joker_as))
        )  # fmt: skip

    def _where(self, table_meld: TableMeld, value: int, end: int, joker_as: int) -> None:
        """One spelling per lay-off (engine/melds.lay_off_fault)."""
        meld, meld_id = table_meld.meld, table_meld.id
        fault = lay_off_fault(meld, meld_id, value, end, joker_as, self.rules.melds, _TAKE_JOKER)
        if fault is not None:
            raise IllegalMove(Why.MOST_REJECTION_REASON_LAY_OFF_DOES_NOT_FIT, fault, "R-M-31")

    def exchange(self, natural: int) -> None:
        """R-M-32: the card a table joker stands for takes its place; the joker
        comes to the hand. The card scores for the exchanger (A-M-03) or the
        meld's owner (exchanged_card_credit)."""
        index = self.represented().get(natural)
        if index is None or is_joker(natural):
            raise IllegalMove(
                Why.MOST_REJECTION_REASON_NO_JOKER_STANDS_FOR_CARD,
                f"no joker on the table stands for {card_text(natural)}",
                "R-M-32",
            )
        if natural in self.hand and not self.may_exchange():
            raise IllegalMove(
                Why.MOST_REJECTION_REASON_EXCHANGE_NEEDS_OWN_MELD,
                "only a player who has melded this hand exchanges a joker",
                "C-M-5",
            )
        self._remove([natural])
        if self.bridge_owed and natural == self.bridge_card:
            raise IllegalMove(
                Why.MOST_REJECTION_REASON_BRIDGE_CARD_MUST_START_A_MELD,
                f"the {card_text(natural)} taken from the bridge goes into a new meld",
                "A-M-01",
            )
        table_meld = self.melds[index]
        try:
            meld, joker = swap(table_meld.meld, natural, self.rules.melds)
        except MeldError as error:  # pragma: no cover - the identity was looked up
            raise refusal(error) from None
        credit = dict(zip(table_meld.meld.cards, table_meld.credited, strict=True))
        credit[natural] = self.seat if self.rules.credit_exchanger else table_meld.owner
        self.melds[index] = TableMeld(
            table_meld.id, table_meld.owner, meld, tuple(credit[v] for v in meld.cards)
        )
        self.hand.append(joker)
        self.done.append(
            Done(pb.MOST_EVENT_KIND_JOKER_EXCHANGED, table_meld.id, (natural, joker),
                 card_value(natural), table_meld.owner, meld_text(meld.cards, meld.joker_as))
        )  # fmt: skip
