"""Hand-built Scala 40 tables for the situation tests (rummy_and_counting.md §1.18).

Tests speak the spec's notation: cards "10♥", "A♠", jokers "JK"; a meld
"[5♠ JK→6♠ 7♠]" (a joker with the card it stands for); a stock written top
card first; a discard pile bottom first (last = top). The `table` fixture
turns such a description into a valid, card-conserving GameState made from a
real NewGame state (so every option is resolved by the engine), makes moves
through the in-process API and reads results back in the same notation.

Where the cards nobody mentions go (every state holds all 108 cards): seats
the situation does not mention get 13 cards each (or `filler` cards), "…" at
the end of a hand adds three cards, and everything else goes to the stock
under the cards named for it (or under the discard pile's named cards when
the stock is pinned exactly, without "…").

Jokers: "JK" in a hand, a meld or a pile is the next unused joker of the
deck (red, black, red, black); "JK" in a move is a joker of the mover's hand.
Sets in moves are written in any order and put in the canonical one (the
engine's one spelling) unless `raw=True`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

import pytest

from croupier.engine import api, cards, registry
from croupier.engine.melds import set_order
from croupier.games.scala40 import GAME
from croupier.v1 import game_pb2, service_pb2
from croupier.v1 import scala40_pb2 as s40
from spec_notation import (
    RulesDriver,
    c,
    is_set,
    meld_words,
    short_reason,
    text_of,
    words,
)

NAME = "scala40"
MORE = "…"
HAND_FILLER = 3

ENDS = {"low": s40.SCALA40_END_LOW, "high": s40.SCALA40_END_HIGH}

Option = bool | int | str


def all_but_eight_cards_melded() -> list[str]:
    """The 100 natural cards but K♠ A♦ K♥ K♣ on the table, in eight
    sequences: with those four and the jokers in hands and stock, the stock
    and the pile run out together."""
    melds = []
    for suit in "♠♦♥♣":
        ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
        melds.append("[" + " ".join(r + suit for r in ranks) + "]")
        short = ranks[1:] if suit == "♦" else ranks[:-1]
        melds.append("[" + " ".join(r + suit for r in short) + "]")
    return melds


def reason_name(rejection: game_pb2.Rejection) -> str:
    """The short name of a rejection's reason: "OPENING_BELOW_40", "NOT_YOUR_TURN"."""
    return short_reason(rejection, "SCALA40_REJECTION_REASON_")


class Jokers:
    """Hands out the deck's four jokers in order."""

    def __init__(self) -> None:
        self.left = [cards.RED_JOKER, cards.BLACK_JOKER, cards.RED_JOKER, cards.BLACK_JOKER]

    def take(self) -> int:
        assert self.left, "more than four jokers placed"
        return self.left.pop(0)


class Table(RulesDriver):
    """Builds positions, makes moves and reads states in the spec's notation
    (the engine calls: spec_notation.RulesDriver)."""

    game = GAME
    reason_prefix = "SCALA40_REJECTION_REASON_"

    preset = "fisc"

    # -- states ------------------------------------------------------------------

    def build(
        self,
        seats: int = 3,
        *,
        hands: Mapping[int, str],
        melds: Sequence[str | tuple[int, str]] = (),
        top: str | None = None,
        discard: str | None = None,
        stock: str = MORE,
        current: int = 0,
        phase: str = "PLAY",
        opened: Sequence[int] = (),
        turn: int = 3,
        drawn: str | None = None,
        taken: str | None = None,
        taken_owed: bool = True,
        dealer: int | None = None,
        scores: Sequence[int] | None = None,
        eliminated: Sequence[int] = (),
        filler: int = 13,
        options: Mapping[str, Option] | None = None,
        preset: str = "fisc",
    ) -> game_pb2.GameState:
        """A deal in progress laid out by hand. `melds` are "[…]" texts laid
        by seat 1 (or (owner, "[…]")), given ids 1, 2, …; `opened` lists the
        seats that have opened (every meld owner has); `turn` is the acting
        seat's turns begun this deal (1 = its first turn)."""
        state = self.new(seats, options, preset=preset)
        jokers = Jokers()
        deck = Counter(cards.double_pack_108())
        placed: list[int] = []

        def place(text: str) -> int:
            value = jokers.take() if text == "JK" else c(text)
            placed.append(value)
            return value

        game = state.scala40
        del game.melds[:]
        owners: set[int] = set()
        for index, entry in enumerate(melds):
            owner, text = entry if isinstance(entry, tuple) else (1, entry)
            owners.add(owner)
            meld_cards, meld_as = [], []
            for word in meld_words(text):
                name, _, identity = word.partition("→")
                meld_cards.append(place(name))
                if name == "JK":
                    meld_as.append(c(identity) if identity else 0)
            if is_set(meld_cards, meld_as):
                meld_cards, meld_as = set_order(meld_cards, meld_as)
            game.melds.add(id=index + 1, owner=owner, cards=meld_cards, joker_as=meld_as)  # type: ignore[arg-type]
        game.next_meld_id = len(melds) + 1
        pinned: dict[int, list[int]] = {}
        padded = []
        for seat in range(seats):
            if seat in eliminated:
                pinned[seat] = []
            elif seat in hands:
                ws = words(hands[seat])
                pinned[seat] = [place(w) for w in ws if w != MORE]
                if ws and ws[-1] == MORE:
                    padded.append(seat)
        assert (top is None) or (discard is None), "give the top card or the whole pile"
        pile_words = words(discard) if discard is not None else ([top] if top else [])
        pile = [place(w) for w in pile_words]
        stock_words = words(stock)
        stock_open = not stock_words or stock_words[-1] == MORE
        pile_stock = [place(w) for w in stock_words if w != MORE]
        over = Counter(placed) - deck
        assert not over, f"cards placed too often: {[text_of(v) for v in over.elements()]}"
        rest = sorted((deck - Counter(placed)).elements())
        # Fillers: naturals first (low cards last, so that jokers rarely land in a hand).
        rest = [v for v in rest if not cards.is_joker(v)] + [v for v in rest if cards.is_joker(v)]
        for seat in padded:
            pinned[seat] += rest[:HAND_FILLER]
            del rest[:HAND_FILLER]
        for seat in range(seats):
            if seat not in pinned:
                pinned[seat] = rest[:filler]
                del rest[:filler]
        if stock_open:
            pile_stock += rest
        elif discard is None:
            pile = rest + pile
        else:
            assert not rest, f"no place left for {[text_of(v) for v in rest]}"
        for seat in range(seats):
            del game.hands[seat].cards[:]
            game.hands[seat].cards.extend(pinned[seat])  # type: ignore[arg-type]
        del game.stock[:]
        game.stock.extend(pile_stock)  # type: ignore[arg-type]
        del game.discard[:]
        game.discard.extend(pile)  # type: ignore[arg-type]
        for seat in range(seats):
            game.opened[seat] = seat in opened or seat in owners
            game.turns_started[seat] = turn if seat == current else max(turn - 1, 0)
        game.phase = s40.Scala40Phase.Value(f"SCALA40_PHASE_{phase}")
        game.dealer = (current - 1) % seats if dealer is None else dealer
        game.drawn_card = c(drawn) if drawn else 0  # type: ignore[assignment]
        game.taken_card = 0  # type: ignore[assignment]
        game.taken_must_be_placed = False
        game.taken_copies = 0
        game.jokers_owed = 0
        game.opened_this_turn = False
        game.must_close = False
        if taken:
            value = cards.RED_JOKER if taken == "JK" else c(taken)
            game.taken_card = value  # type: ignore[assignment]
            game.taken_must_be_placed = taken_owed
            hand = game.hands[current].cards
            game.taken_copies = sum(
                1 for v in hand if (cards.is_joker(v) if taken == "JK" else v == value)
            )
        state.current_seat = current
        for seat in range(seats):
            state.seats[seat].score = scores[seat] if scores else 0
            state.seats[seat].eliminated = seat in eliminated
        state.match.phase = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
        del state.acting_seats[:]
        state.acting_seats.append(current)
        api.check_state(state)
        return state

    # -- moves --------------------------------------------------------------------

    @staticmethod
    def _move(seat: int) -> game_pb2.Move:
        return game_pb2.Move(seat=seat)

    def draw(self, seat: int) -> game_pb2.Move:
        move = self._move(seat)
        move.scala40.draw_stock.SetInParent()
        return move

    def take(self, seat: int) -> game_pb2.Move:
        move = self._move(seat)
        move.scala40.take_discard.SetInParent()
        return move

    def _spec(
        self, state: game_pb2.GameState, seat: int, text: str, jokers: Iterator[int], raw: bool
    ) -> tuple[list[int], list[int]]:
        cards_, joker_as = [], []
        for word in meld_words(text):
            name, _, identity = word.partition("→")
            if name == "JK":
                cards_.append(next(jokers))
                joker_as.append(c(identity) if identity else 0)
            else:
                cards_.append(c(name))
        if is_set(cards_, joker_as) and not raw:
            cards_, joker_as = set_order(cards_, joker_as)
        return cards_, joker_as

    def _jokers(self, state: game_pb2.GameState, seat: int) -> Iterator[int]:
        held = [v for v in state.scala40.hands[seat].cards if cards.is_joker(v)]
        return iter(held + [cards.RED_JOKER] * 4)

    def open(
        self, state: game_pb2.GameState, seat: int, *melds: str, raw: bool = False
    ) -> game_pb2.Move:
        """OPEN the melds, e.g. open(s, 0, "[8♣ 9♣ JK→10♣]", "[5♥ 5♦ 5♠]")."""
        move = self._move(seat)
        move.scala40.open.SetInParent()
        jokers = self._jokers(state, seat)
        for text in melds:
            cards_, joker_as = self._spec(state, seat, text, jokers, raw)
            move.scala40.open.melds.add(cards=cards_, joker_as=joker_as)  # type: ignore[arg-type]
        return move

    def meld(
        self, state: game_pb2.GameState, seat: int, text: str, raw: bool = False
    ) -> game_pb2.Move:
        move = self._move(seat)
        cards_, joker_as = self._spec(state, seat, text, self._jokers(state, seat), raw)
        move.scala40.meld.meld.cards.extend(cards_)  # type: ignore[arg-type]
        move.scala40.meld.meld.joker_as.extend(joker_as)  # type: ignore[arg-type]
        return move

    def lay(
        self,
        state: game_pb2.GameState,
        seat: int,
        card: str,
        meld_id: int,
        end: str | None = None,
        joker_as: str | None = None,
    ) -> game_pb2.Move:
        """LAY a card on meld `meld_id`: at end "low"/"high" of a sequence;
        a joker on a set declares `joker_as`."""
        move = self._move(seat)
        lay = move.scala40.lay_off
        lay.meld_id = meld_id
        lay.card = next(self._jokers(state, seat)) if card == "JK" else c(card)  # type: ignore[assignment]
        if end:
            lay.end = ENDS[end]  # type: ignore[assignment]
        if joker_as:
            lay.joker_as = c(joker_as)  # type: ignore[assignment]
        return move

    def swap(self, seat: int, card: str, meld_id: int) -> game_pb2.Move:
        move = self._move(seat)
        move.scala40.swap_joker.meld_id = meld_id
        move.scala40.swap_joker.card = c(card)  # type: ignore[assignment]
        return move

    def split(
        self, state: game_pb2.GameState, seat: int, meld_id: int, *parts: str
    ) -> game_pb2.Move:
        move = self._move(seat)
        move.scala40.split.meld_id = meld_id
        table_jokers = iter(
            [v for m in state.scala40.melds for v in m.cards if cards.is_joker(v)]
            + list(self._jokers(state, seat))
        )
        for text in parts:
            cards_, joker_as = self._spec(state, seat, text, table_jokers, True)
            move.scala40.split.parts.add(cards=cards_, joker_as=joker_as)  # type: ignore[arg-type]
        return move

    def discard(self, state: game_pb2.GameState, seat: int, card: str) -> game_pb2.Move:
        move = self._move(seat)
        value = next(self._jokers(state, seat)) if card == "JK" else c(card)
        move.scala40.discard.card = value  # type: ignore[assignment]
        return move

    # -- playing (RulesDriver; NextDeal here keeps the last move's events) ------------

    def next_deal(self, state: game_pb2.GameState) -> game_pb2.GameState:
        return api.next_deal(service_pb2.NextDealRequest(state=state)).state

    # -- reading a state -----------------------------------------------------------------

    @staticmethod
    def hand(state: game_pb2.GameState, seat: int) -> Counter[str]:
        return Counter(text_of(v) for v in state.scala40.hands[seat].cards)

    @staticmethod
    def melds(state: game_pb2.GameState) -> list[str]:
        """Each table meld as "[5♠ JK→6♠ 7♠]"."""
        out = []
        for meld in state.scala40.melds:
            jokers = iter(meld.joker_as)
            parts = []
            for v in meld.cards:
                if cards.is_joker(v):
                    identity = next(jokers)
                    parts.append("JK" + (f"→{text_of(identity)}" if identity else ""))
                else:
                    parts.append(text_of(v))
            out.append("[" + " ".join(parts) + "]")
        return out

    @staticmethod
    def top(state: game_pb2.GameState) -> str:
        return text_of(state.scala40.discard[-1])

    @staticmethod
    def pile(state: game_pb2.GameState) -> list[str]:
        return [text_of(v) for v in state.scala40.discard]

    @staticmethod
    def stock_size(state: game_pb2.GameState) -> int:
        return len(state.scala40.stock)

    @staticmethod
    def phase(state: game_pb2.GameState) -> str:
        return s40.Scala40Phase.Name(state.scala40.phase).removeprefix("SCALA40_PHASE_")

    @staticmethod
    def opened(state: game_pb2.GameState, seat: int) -> bool:
        return state.scala40.opened[seat]

    @staticmethod
    def match_phase(state: game_pb2.GameState) -> str:
        return game_pb2.MatchPhase.Name(state.match.phase).removeprefix("MATCH_PHASE_")

    @staticmethod
    def scores(state: game_pb2.GameState) -> list[int]:
        return [seat.score for seat in state.seats]

    @staticmethod
    def deal_points(state: game_pb2.GameState) -> list[int]:
        return list(state.match.deal_points)

    @staticmethod
    def eliminated(state: game_pb2.GameState) -> list[bool]:
        return [seat.eliminated for seat in state.seats]

    @staticmethod
    def winners(state: game_pb2.GameState) -> list[int]:
        return sorted(state.match.winners)

    def rule_events(self) -> list[str]:
        """The Scala 40 kinds of the last accepted move's events."""
        return [
            s40.Scala40EventKind.Name(e.scala40.kind).removeprefix("SCALA40_EVENT_KIND_")
            for e in self.events
            if e.HasField("scala40")
        ]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    """Scala 40 in the registry for these tests (it registers through its
    entry point once complete; until then the tests add it themselves)."""
    known = registry.find(NAME)
    registry.register(GAME)
    yield
    if known is None:
        registry.unregister(NAME)


@pytest.fixture
def table() -> Table:
    """A helper that lays out Scala 40 positions and plays moves on them."""
    return Table()
