"""One seat's turn in progress as plain Python: the model every play action
acts on (§1.7–§1.9), for the checker (`moves.py`), the generator (`legal.py`)
and the look-ahead of C-S40-1 (`completion.py`) alike.

A `Position` is read from a state once per call, changed by the actions the
move makes (each raises IllegalMove naming its rule) and written back. The
look-ahead copies it and tries actions without touching the state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from croupier.engine.cards import card_text, is_joker
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import (
    SET,
    Meld,
    MeldError,
    extend,
    lay_off_fault,
    meld_text,
    swap,
)
from croupier.games.scala40.analyser import TableMeld, TableMelds, refusal, table_melds
from croupier.games.scala40.rules import OPENING_THRESHOLD, Rules
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb

Why = pb.Scala40RejectionReason

# How a lay-off refusal names the move that takes a joker (engine/melds.lay_off_fault).
_TAKE_JOKER = "SWAP {card} ON {meld_id}"


@dataclass
class Position:
    """The acting seat's turn: its hand, the table, its duties this turn."""

    rules: Rules
    seat: int
    hand: list[int]
    melds: list[TableMeld]
    opened: bool
    next_meld_id: int
    # The card taken from the discard pile this turn (0: none), whether it
    # must still go to the table, and how many copies the hand held after
    # the take (the duty is met below that; a joker counts any joker), raised
    # by each joker a swap brings in that does not itself owe a placement
    # while a taken joker still does (see `swap_joker`).
    taken: int = 0
    taken_owed: bool = False
    taken_copies: int = 0
    jokers_owed: int = 0
    opened_this_turn: bool = False
    must_close: bool = False
    # Closing is barred this turn (R-S40-71: the seat's first turn, no V8).
    first_turn: bool = False
    active_players: int = 2
    # The table as read, while no action has changed it (for cached facts).
    table: TableMelds | None = None
    # Quads moved to the discard pile this turn (V13), in order.
    quads: list[tuple[int, ...]] = field(default_factory=list)
    # What the actions did, for the events: (kind, meld ids, cards, a number,
    # the melds as text).
    done: list[tuple[int, list[int], list[int], int, str]] = field(default_factory=list)

    # -- reading and writing a state ------------------------------------------------

    @classmethod
    def read(cls, state: game_pb2.GameState, rules: Rules) -> Position:
        """The turn of `state.current_seat`."""
        deal = state.scala40
        seat = state.current_seat
        table = table_melds(deal.melds, rules.melds)
        melds = list(table.melds)
        return cls(
            rules=rules,
            seat=seat,
            hand=list(deal.hands[seat].cards),
            melds=melds,
            opened=deal.opened[seat],
            next_meld_id=deal.next_meld_id,
            taken=deal.taken_card,
            taken_owed=deal.taken_must_be_placed,
            taken_copies=deal.taken_copies,
            jokers_owed=deal.jokers_owed,
            opened_this_turn=deal.opened_this_turn,
            must_close=deal.must_close,
            first_turn=deal.turns_started[seat] == 1 and not rules.close_on_first_turn,
            active_players=len(state.seats) - sum(s.eliminated for s in state.seats),
            table=table,
        )

    def write(self, state: game_pb2.GameState) -> None:
        """Put the turn back into `state` (the hand, the table, the duties)."""
        deal = state.scala40
        hand = deal.hands[self.seat].cards
        del hand[:]
        hand.extend(self.hand)  # type: ignore[arg-type]
        out = deal.melds
        keep = 0
        for table_meld, old in zip(self.melds, out, strict=False):
            meld = table_meld.meld
            if (
                old.id != table_meld.id
                or tuple(old.cards) != meld.cards
                or tuple(old.joker_as) != meld.joker_as
            ):
                break
            keep += 1
        del out[keep:]
        for table_meld in self.melds[keep:]:
            out.add(
                id=table_meld.id,
                owner=table_meld.owner,
                cards=table_meld.meld.cards,
                joker_as=table_meld.meld.joker_as,
            )
        for quad in self.quads:
            deal.discard.extend(quad)  # type: ignore[arg-type]
        self.quads = []
        deal.opened[self.seat] = self.opened
        deal.next_meld_id = self.next_meld_id
        deal.taken_must_be_placed = self.taken_owed
        deal.taken_copies = self.taken_copies
        deal.jokers_owed = self.jokers_owed
        deal.opened_this_turn = self.opened_this_turn
        deal.must_close = self.must_close

    def copy(self) -> Position:
        other = Position(**{k: getattr(self, k) for k in self.__dataclass_fields__})
        other.hand = list(self.hand)
        other.melds = list(self.melds)
        other.quads = list(self.quads)
        other.done = []
        return other

    # -- facts ------------------------------------------------------------------------

    def taken_class(self, value: int) -> bool:
        """Whether `value` counts as the card taken this turn (any joker for a joker)."""
        if not self.taken:
            return False
        return is_joker(value) if is_joker(self.taken) else value == self.taken

    def kept(self, value: int) -> bool:
        """`value` counts as the card kept from the discard pile this turn (V6b,
        V11), which is not discarded this turn (C-S40-2). A card that must go
        to the table is held back only until a copy of it is there (D1): the
        copies still held are then the seat's own (R-S40-01)."""
        return not self.taken_owed and self.taken_class(value)

    def held_back(self, value: int) -> bool:
        """`value` may not be the discard as the card taken this turn (D1 while
        it is owed to the table, C-S40-2 when it is kept)."""
        return self.kept(value) or (self.taken_pending and self.taken_class(value))

    def copies_of_taken(self) -> int:
        return sum(1 for v in self.hand if self.taken_class(v))

    @property
    def taken_pending(self) -> bool:
        """R-S40-11: the taken card is not yet on the table."""
        return self.taken_owed and self.copies_of_taken() >= self.taken_copies

    @property
    def duties_met(self) -> bool:
        return not self.taken_pending and not self.jokers_owed

    def index_of(self, meld_id: int) -> int:
        for index, table_meld in enumerate(self.melds):
            if table_meld.id == meld_id:
                return index
        raise IllegalMove(
            Why.SCALA40_REJECTION_REASON_NO_SUCH_MELD,
            f"no meld {meld_id} on the table",
            "§1.8",
        )

    # -- the play actions ------------------------------------------------------------------

    def _remove(self, cards: Sequence[int]) -> None:
        need = Counter(cards)
        held = Counter(self.hand)
        for value, count in need.items():
            if held[value] < count:
                raise IllegalMove(
                    game_pb2.REJECTION_REASON_CARD_NOT_IN_HAND,
                    f"{card_text(value)} is not in the hand"
                    + (" often enough" if held[value] else ""),
                    "§1.4",
                    common=True,
                )
        for value in cards:
            self.hand.remove(value)

    def _placed_jokers(self, count: int) -> None:
        self.jokers_owed = max(0, self.jokers_owed - count)

    def _add(self, meld: Meld) -> int:
        meld_id = self.next_meld_id
        self.next_meld_id += 1
        self.melds.append(TableMeld(meld_id, self.seat, meld))
        return meld_id

    def _quads(self) -> None:
        """V13 (A-S40-18): a set of four naturals leaves the table for the
        discard pile, whichever action made it."""
        if not self.rules.quads_to_discard:
            return
        for table_meld in list(self.melds):
            meld = table_meld.meld
            if meld.kind == SET and len(meld.cards) == 4 and not meld.jokers:
                self.melds.remove(table_meld)
                self.quads.append(meld.cards)
                self.done.append((pb.SCALA40_EVENT_KIND_QUAD_DISCARDED, [table_meld.id],
                                  list(meld.cards), 0, describe([meld])))  # fmt: skip

    def open(self, melds: Sequence[Meld]) -> None:
        """R-S40-40/41: lay the opening melds from the hand in one action."""
        if self.opened:
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_ALREADY_OPENED,
                "the seat has opened already: meld or lay off instead",
                "R-S40-40",
            )
        self._no_close_pending()
        cards = [v for m in melds for v in m.cards]
        self._remove(cards)
        value = sum(m.value for m in melds)
        if self.taken_pending:
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_OPENING_MUST_USE_TAKEN_CARD,
                f"the opening must contain the taken {card_text(self.taken)} (V6)",
                "V6",
            )
        jokers = sum(m.jokers for m in melds)
        if jokers < self.jokers_owed:
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_OPENING_MUST_USE_RETRIEVED_JOKER,
                "the opening must contain the swapped joker (V16)",
                "R-S40-52",
            )
        self._placed_jokers(jokers)
        if value < OPENING_THRESHOLD:
            self._check_close_in_hand(value)
            self.must_close = bool(self.hand)
        self.opened = True
        self.opened_this_turn = True
        ids = [self._add(m) for m in melds]
        self.done.append((pb.SCALA40_EVENT_KIND_OPENED, ids, cards, value, describe(melds)))
        self._quads()

    def _check_close_in_hand(self, value: int) -> None:
        """R-S40-41: below 40 only to close in hand this turn (V21: not at all)."""
        below = f"the opening melds are worth {value}; an opening needs {OPENING_THRESHOLD}"
        if self.rules.close_in_hand_needs_40:
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_OPENING_BELOW_40,
                below + " (close_in_hand_requires_40)",
                "V21",
            )
        left = len(self.hand)
        closing = left == 1 or (left == 0 and self.rules.close_without_discard)
        if not closing:
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_OPENING_BELOW_40,
                below + " (less only when it leaves one card to close with)",
                "R-S40-40",
            )
        if self.first_turn:
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_NO_CLOSE_IN_FIRST_TURN,
                "nobody closes in his first turn, so the opening needs 40",
                "R-S40-71",
            )
        if left == 1 and self.held_back(self.hand[0]):
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_OPENING_BELOW_40,
                below + f" (the {card_text(self.hand[0])} left may not be discarded)",
                "R-S40-41",
            )

    def meld(self, meld: Meld) -> None:
        """R-S40-42: an opened seat lays a new meld from the hand."""
        self._must_be_opened("meld")
        self._no_close_pending()
        self._remove(meld.cards)
        self._placed_jokers(meld.jokers)
        meld_id = self._add(meld)
        self.done.append(
            (
                pb.SCALA40_EVENT_KIND_MELDED,
                [meld_id],
                list(meld.cards),
                meld.value,
                describe([meld]),
            )
        )
        self._quads()

    def lay_off(self, meld_id: int, value: int, end: int, joker_as: int) -> None:
        """§1.8: one card from the hand onto any meld on the table."""
        self._must_be_opened("lay off")
        self._no_close_pending()
        index = self.index_of(meld_id)
        table_meld = self.melds[index]
        self._where(table_meld, value, end, joker_as)
        self._remove([value])
        try:
            meld = extend(table_meld.meld, value, end, joker_as, self.rules.melds)
        except MeldError as error:
            raise refusal(error) from None
        self.melds[index] = TableMeld(table_meld.id, table_meld.owner, meld)
        if is_joker(value):
            self._placed_jokers(1)
        self.done.append(
            (pb.SCALA40_EVENT_KIND_LAID_OFF, [meld_id], [value], table_meld.owner, describe([meld]))
        )
        self._quads()

    def _where(self, table_meld: TableMeld, value: int, end: int, joker_as: int) -> None:
        """One spelling per lay-off (engine/melds.lay_off_fault)."""
        meld, meld_id = table_meld.meld, table_meld.id
        fault = lay_off_fault(meld, meld_id, value, end, joker_as, self.rules.melds, _TAKE_JOKER)
        if fault is not None:
            raise IllegalMove(Why.SCALA40_REJECTION_REASON_LAY_OFF_DOES_NOT_FIT, fault, "§1.8")

    def swap_joker(self, meld_id: int, natural: int) -> None:
        """§1.9: the natural a joker stands for takes its place; the joker
        comes to the hand (V19: it must go back to the table this turn; V16:
        an unopened seat must open with it)."""
        if not self.opened and not self.rules.joker_swap_for_opening:
            self._must_be_opened("swap a joker")
        self._no_close_pending()
        index = self.index_of(meld_id)
        if is_joker(natural):
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_SWAP_CARD_IS_NOT_THE_JOKER,
                "a joker is swapped for a natural card",
                "R-S40-50",
            )
        # V6 + V16: the card an unopened seat took must go into "one of the NEW
        # opening melds (not a lay-off)"; a swap puts it into a meld already
        # on the table, so it does not place it (checked once the swap fits).
        taken_for_opening = not self.opened and self.taken_pending and self.taken_class(natural)
        self._remove([natural])
        table_meld = self.melds[index]
        try:
            meld, joker = swap(table_meld.meld, natural, self.rules.melds)
        except MeldError as error:
            raise refusal(error) from None
        if taken_for_opening:
            if not self.copies_of_taken():
                raise IllegalMove(
                    Why.SCALA40_REJECTION_REASON_OPENING_MUST_USE_TAKEN_CARD,
                    f"the taken {card_text(self.taken)} must go into the opening melds, "
                    "not in place of a joker (V6)",
                    "V6",
                )
            self.taken_copies -= 1  # the opening must still lay a copy held besides
        self.melds[index] = TableMeld(table_meld.id, table_meld.owner, meld)
        owed = self.rules.retrieved_joker_used or not self.opened
        if self.taken_owed and self.taken_class(joker) and (not owed or not self.taken_pending):
            # C-S40-8: a taken joker is placed by placing any joker. A joker
            # the seat may keep (R-S40-51), or one brought in once the taken
            # joker is placed, does not renew that duty; a joker owed while
            # the taken one still is (V19, V16) adds a placement to it.
            self.taken_copies += 1
        self.hand.append(joker)
        if owed:
            self.jokers_owed += 1
        self.done.append(
            (pb.SCALA40_EVENT_KIND_JOKER_SWAPPED, [meld_id], [natural], joker, describe([meld]))
        )
        self._quads()

    def split(self, meld_id: int, parts: Sequence[Meld]) -> None:
        """V14 (T-S40-27): lay cards on a sequence and split it into sequences
        of 3–5, keeping every card it had."""
        from croupier.games.scala40.splits import check_split

        self._must_be_opened("lay off")
        self._no_close_pending()
        index = self.index_of(meld_id)
        table_meld = self.melds[index]
        added = check_split(self.rules, table_meld.meld, parts)
        self._remove(added)
        self._placed_jokers(sum(1 for v in added if is_joker(v)))
        self.melds[index] = TableMeld(table_meld.id, table_meld.owner, parts[0])
        ids = [table_meld.id]
        for part in parts[1:]:
            ids.append(self.next_meld_id)
            self.melds.insert(index + len(ids) - 1, TableMeld(self.next_meld_id, table_meld.owner,
                                                              part))  # fmt: skip
            self.next_meld_id += 1
        self.done.append(
            (pb.SCALA40_EVENT_KIND_SPLIT, ids, added, table_meld.owner, describe(parts))
        )
        self._quads()

    def _did(
        self, kind: int, ids: list[int], cards: Sequence[int], number: int, melds: Sequence[Meld]
    ) -> None:
        """Note what an action did, for its event."""
        self.done.append((kind, ids, list(cards), number, describe(melds)))

    def _must_be_opened(self, what: str) -> None:
        if not self.opened:
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_MUST_OPEN_FIRST,
                f"an unopened seat may not {what} before opening",
                "R-S40-43",
            )

    def _no_close_pending(self) -> None:
        if self.must_close:
            raise IllegalMove(
                Why.SCALA40_REJECTION_REASON_MUST_CLOSE_NOW,
                "after an opening below 40 only the closing discard remains",
                "R-S40-41",
            )


def describe(melds: Sequence[Meld]) -> str:
    """The melds as texts, for event sentences."""
    return " ".join(meld_text(m.cards, m.joker_as) for m in melds)
