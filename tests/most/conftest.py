"""Hand-built «Мост» tables for the situation tests (rummy_and_counting.md §2.12).

Tests speak the spec's notation: cards "10♥", "A♠", jokers "JK"; a meld
"[8♣ JK→9♣ 10♣]" (a joker with the card it stands for); the bridge written
oldest card first; a stock written top card first. The `table` fixture turns
such a description into a valid, card-conserving GameState made from a real
NewGame state (so every option is resolved by the engine), makes moves
through the in-process API and reads results back in the same notation.

Where the cards nobody mentions go (every state holds all 54): seats the
situation does not mention get six cards each (or `filler`), "…" at the end
of a hand adds three cards, and everything else goes to the stock under the
cards named for it.

Jokers: "JK" anywhere in a layout is the next unused joker of the pack (red,
then black); "JK" in a move is a joker of the mover's hand. Melds on the
table were laid by seat 1 unless given as (owner, "[…]"), or (owner, "[…]",
{"4♥": 0}) to credit cards to other seats (lay-offs, exchanges).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

import pytest

from croupier.engine import api, cards, registry
from croupier.engine.melds import set_order
from croupier.games.most import GAME
from croupier.v1 import game_pb2
from croupier.v1 import most_pb2 as pb
from spec_notation import (
    RulesDriver,
    c,
    is_set,
    meld_words,
    short_reason,
    text_of,
    words,
)

NAME = "most"
MORE = "…"
HAND_FILLER = 3

ENDS = {"low": pb.MOST_END_LOW, "high": pb.MOST_END_HIGH}

Option = bool | int | str
MeldEntry = str | tuple[int, str] | tuple[int, str, Mapping[str, int]]


def reason_name(rejection: game_pb2.Rejection) -> str:
    """The short name of a rejection's reason: "MELD_TOO_SHORT", "NOT_YOUR_TURN"."""
    return short_reason(rejection, "MOST_REJECTION_REASON_")


class Table(RulesDriver):
    """Builds positions, makes moves and reads states in the spec's notation
    (the engine calls: spec_notation.RulesDriver)."""

    game = GAME
    reason_prefix = "MOST_REJECTION_REASON_"

    preset = "seed"

    # -- states ------------------------------------------------------------------

    def build(
        self,
        seats: int = 3,
        *,
        hands: Mapping[int, str],
        melds: Sequence[MeldEntry] = (),
        bridge: str = "",
        stock: str = MORE,
        current: int = 0,
        phase: str = "PLAY",
        melded: Sequence[int] = (),
        bridge_card: str | None = None,
        owed: bool = True,
        drawn: str | None = None,
        dealer: int | None = None,
        scores: Sequence[int] | None = None,
        deal_number: int = 1,
        reshuffled_at: int | None = None,
        filler: int = 6,
        spare: int | None = None,
        options: Mapping[str, Option] | None = None,
        preset: str = "seed",
        as_written: bool = False,
    ) -> game_pb2.GameState:
        """A hand in progress laid out by hand. `melds` get ids 1, 2, …, a
        set stored in its table order unless `as_written` (K-M-1: a state
        may hold a meld in any order a move may be written in);
        `melded` lists the seats that have melded (every meld owner has).
        A stock given without "…" is exactly that ("" is empty): the cards
        left over then go to the hand of seat `spare`."""
        state = self.new(seats, options, preset=preset)
        jokers = [cards.RED_JOKER, cards.BLACK_JOKER]
        placed: list[int] = []

        def place(text: str) -> int:
            value = jokers.pop(0) if text == "JK" else c(text)
            placed.append(value)
            return value

        game = state.most
        del game.melds[:]
        owners: set[int] = set()
        for index, entry in enumerate(melds):
            owner, text, credits = (1, entry, {}) if isinstance(entry, str) else (*entry, {})[:3]
            owners.add(owner)
            meld_cards, meld_as, names = [], [], []
            for word in meld_words(text):
                name, _, identity = word.partition("→")
                meld_cards.append(place(name))
                names.append(name)
                if name == "JK":
                    meld_as.append(c(identity))
            if is_set(meld_cards, meld_as) and not as_written:
                meld_cards, meld_as = set_order(meld_cards, meld_as)
            by_value = {v: credits.get(text_of(v), owner) for v in meld_cards}
            game.melds.add(
                id=index + 1,
                owner=owner,
                cards=meld_cards,  # type: ignore[arg-type]
                joker_as=meld_as,  # type: ignore[arg-type]
                credited_to=[by_value[v] for v in meld_cards],
            )
        game.next_meld_id = len(melds) + 1
        pinned: dict[int, list[int]] = {}
        padded = []
        for seat, text in hands.items():
            ws = words(text)
            pinned[seat] = [place(w) for w in ws if w != MORE]
            if ws and ws[-1] == MORE:
                padded.append(seat)
        row = [place(w) for w in words(bridge)]
        stock_words = words(stock)
        stock_open = bool(stock_words) and stock_words[-1] == MORE
        pile = [place(w) for w in stock_words if w != MORE]
        over = Counter(placed) - Counter(cards.pack_54())
        assert not over, f"cards placed twice: {[text_of(v) for v in over.elements()]}"
        rest = [v for v in cards.pack_54() if v not in placed]
        # Fillers: naturals first, so that jokers land in the stock.
        rest = [v for v in rest if not cards.is_joker(v)] + [v for v in rest if cards.is_joker(v)]
        for seat in padded:
            pinned[seat] += rest[:HAND_FILLER]
            del rest[:HAND_FILLER]
        for seat in range(seats):
            if seat not in pinned:
                pinned[seat] = rest[:filler]
                del rest[:filler]
        if stock_open:
            pile += rest
        elif spare is not None:
            pinned[spare] += rest
        else:
            assert not rest, f"no place left for {[text_of(v) for v in rest]}"
        for seat in range(seats):
            del game.hands[seat].cards[:]
            game.hands[seat].cards.extend(pinned[seat])  # type: ignore[arg-type]
        del game.stock[:]
        game.stock.extend(pile)  # type: ignore[arg-type]
        del game.bridge[:]
        game.bridge.extend(row)  # type: ignore[arg-type]
        for seat in range(seats):
            game.melded[seat] = seat in melded or seat in owners
        game.phase = pb.MostPhase.Value(f"MOST_PHASE_{phase}")
        game.dealer = (current - 1) % seats if dealer is None else dealer
        game.drawn_card = c(drawn) if drawn else 0  # type: ignore[assignment]
        game.bridge_card = 0  # type: ignore[assignment]
        game.bridge_card_owed = False
        # None: the bridge has not become the stock this hand; a number: it
        # has, with that many cards on the table then (C-M-2).
        game.reshuffled = reshuffled_at is not None
        game.table_cards_at_reshuffle = reshuffled_at or 0
        if bridge_card:
            hand = game.hands[current].cards
            value = next(v for v in hand if cards.is_joker(v)) if bridge_card == "JK" else (
                c(bridge_card)
            )  # fmt: skip
            game.bridge_card = value  # type: ignore[assignment]
            game.bridge_card_owed = owed
        state.current_seat = current
        for seat in range(seats):
            state.seats[seat].score = scores[seat] if scores else 0
        state.match.phase = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
        state.match.deal_number = deal_number
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
        move.most.draw_stock.SetInParent()
        return move

    def take(self, seat: int, card: str) -> game_pb2.Move:
        """TakeBridge from `card` (it and every newer card)."""
        move = self._move(seat)
        move.most.take_bridge.card = self._card(None, seat, card)  # type: ignore[assignment]
        return move

    def _jokers(self, state: game_pb2.GameState | None, seat: int) -> Iterator[int]:
        held = (
            [] if state is None else [v for v in state.most.hands[seat].cards if cards.is_joker(v)]
        )
        return iter(held + [cards.RED_JOKER, cards.BLACK_JOKER])

    def _card(self, state: game_pb2.GameState | None, seat: int, text: str) -> int:
        if text == "JK":
            return next(self._jokers(state, seat))
        if text in ("RJ", "BJ"):
            return cards.parse_card(text)
        return c(text)

    def meld(
        self, state: game_pb2.GameState, seat: int, text: str, raw: bool = False
    ) -> game_pb2.Move:
        """MELD the cards, e.g. meld(s, 0, "[8♦ JK→9♦ 10♦]"): a set is put in
        its table order unless `raw`."""
        move = self._move(seat)
        jokers = self._jokers(state, seat)
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
        move.most.meld.SetInParent()
        move.most.meld.cards.extend(cards_)  # type: ignore[arg-type]
        move.most.meld.joker_as.extend(joker_as)  # type: ignore[arg-type]
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
        lay = move.most.lay_off
        lay.meld_id = meld_id
        lay.card = self._card(state, seat, card)  # type: ignore[assignment]
        if end:
            lay.end = ENDS[end]  # type: ignore[assignment]
        if joker_as:
            lay.joker_as = c(joker_as)  # type: ignore[assignment]
        return move

    def exchange(self, seat: int, card: str) -> game_pb2.Move:
        move = self._move(seat)
        move.most.exchange_joker.card = c(card)  # type: ignore[assignment]
        return move

    def discard(self, state: game_pb2.GameState, seat: int, card: str) -> game_pb2.Move:
        move = self._move(seat)
        move.most.discard.card = self._card(state, seat, card)  # type: ignore[assignment]
        return move

    # -- playing ----------------------------------------------------------------------

    # -- reading a state -----------------------------------------------------------------

    @staticmethod
    def hand(state: game_pb2.GameState, seat: int) -> Counter[str]:
        return Counter(text_of(v) for v in state.most.hands[seat].cards)

    @staticmethod
    def melds(state: game_pb2.GameState) -> list[str]:
        """Each table meld as "[8♣ JK→9♣ 10♣]"."""
        out = []
        for meld in state.most.melds:
            jokers = iter(meld.joker_as)
            parts = []
            for v in meld.cards:
                parts.append(f"JK→{text_of(next(jokers))}" if cards.is_joker(v) else text_of(v))
            out.append("[" + " ".join(parts) + "]")
        return out

    @staticmethod
    def credited(state: game_pb2.GameState, meld_id: int) -> dict[str, int]:
        """{card: the seat it scores for} of a meld (jokers as "JK→X")."""
        meld = next(m for m in state.most.melds if m.id == meld_id)
        jokers = iter(meld.joker_as)
        out = {}
        for v, seat in zip(meld.cards, meld.credited_to, strict=True):
            out[f"JK→{text_of(next(jokers))}" if cards.is_joker(v) else text_of(v)] = seat
        return out

    @staticmethod
    def bridge(state: game_pb2.GameState) -> list[str]:
        return [text_of(v) for v in state.most.bridge]

    @staticmethod
    def stock_size(state: game_pb2.GameState) -> int:
        return len(state.most.stock)

    @staticmethod
    def phase(state: game_pb2.GameState) -> str:
        return pb.MostPhase.Name(state.most.phase).removeprefix("MOST_PHASE_")

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
    def winners(state: game_pb2.GameState) -> list[int]:
        return sorted(state.match.winners)

    def rule_events(self) -> list[str]:
        """The «Мост» kinds of the last accepted move's events."""
        return [
            pb.MostEventKind.Name(e.most.kind).removeprefix("MOST_EVENT_KIND_")
            for e in self.events
            if e.HasField("most")
        ]

    def kinds(self) -> list[str]:
        """Every event kind of the last accepted move (shared, or the game's)."""
        out = []
        for e in self.events:
            if e.HasField("most"):
                out.append(pb.MostEventKind.Name(e.most.kind).removeprefix("MOST_EVENT_KIND_"))
            else:
                out.append(game_pb2.EventKind.Name(e.kind).removeprefix("EVENT_KIND_"))
        return out


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    """«Мост» in the registry for these tests: it registers through its entry
    point; the fixture keeps the tests independent of the installed metadata."""
    known = registry.find(NAME)
    registry.register(GAME)
    yield
    if known is None:
        registry.unregister(NAME)


@pytest.fixture
def table() -> Table:
    """A helper that lays out «Мост» positions and plays moves on them."""
    return Table()
