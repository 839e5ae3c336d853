"""Hand-built 101 tables for the situation tests (shared/rules/shedding.md §1.9).

Tests speak the spec's notation: cards "10♥", "Q♠", suits "♣ ♦ ♥ ♠", a stock
written top card first, a discard pile bottom first (last = top). The `table`
fixture turns such a description into a valid, card-conserving GameState made
from a real NewGame state (so every option is resolved by the engine), makes
moves through the in-process API, and reads results back in the same notation.

Where the cards nobody mentions go (every state must hold the whole deck):

* "…" at the end of a hand: three more cards the situation does not care about;
* "…" at the end of the stock (the default stock is "…"): seats the situation
  does not mention get five cards each and everything else goes under the
  named stock cards;
* a stock pinned exactly (no "…"): the rest is dealt to the seats the situation
  does not mention, or, when every seat is pinned, laid under the top of the
  discard pile (unless the discard pile is pinned too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

import pytest

from croupier.engine import api, cards
from croupier.v1 import game_pb2, service_pb2
from croupier.v1 import hundred_and_one_pb2 as h1
from spec_notation import (
    SUIT_TEXT,
    SUITS,
    c,
    settings,
    short_reason,
    text_of,
    words,
)

GAME = "hundred_and_one"
MORE = "…"
HAND_FILLER = 3
SEAT_FILLER = 5
SEED_RANGE = range(5001)
BUSTED_TOTAL = 102


Option = bool | int | str


class Table:
    """Builds positions, makes moves and reads states in the spec's notation."""

    def __init__(self) -> None:
        self.events: list[game_pb2.Event] = []

    # -- cards -----------------------------------------------------------------

    c = staticmethod(c)
    text = staticmethod(text_of)

    @staticmethod
    def suit(symbol: str) -> int:
        return SUITS[symbol]

    @staticmethod
    def bag(text: str) -> Counter[str]:
        """A multiset of cards, to compare hands without caring about order."""
        return Counter(words(text))

    @staticmethod
    def follows(card: str, top: str, active: str) -> bool:
        """C2 matching: a Queen, the active suit, or the top card's rank."""
        return card[:-1] == "Q" or card[-1] == active or card[:-1] == top[:-1]

    # -- states ----------------------------------------------------------------

    def new(
        self,
        preset: str,
        seats: int = 3,
        options: Mapping[str, Option] | None = None,
        seed: int = 1,
    ) -> game_pb2.GameState:
        """A freshly dealt NewGame state."""
        request = service_pb2.NewGameRequest(
            game=GAME, preset=preset, seat_count=seats, seed=seed, options=settings(options)
        )
        return api.new_game(request).state

    def find_deal(
        self,
        preset: str,
        seats: int,
        upcard: str,
        options: Mapping[str, Option] | None = None,
        where: Callable[[game_pb2.GameState], bool] = lambda state: True,
    ) -> game_pb2.GameState:
        """The deal of the first seed in 0..5000 whose upcard is `upcard` (and
        that satisfies `where`): deterministic, without hard-coding a seed."""
        for seed in SEED_RANGE:
            state = self.new(preset, seats, options, seed)
            pile = state.hundred_and_one.discard
            if pile and pile[-1] == c(upcard) and where(state):
                return state
        raise AssertionError(f"no seed in {SEED_RANGE} deals the upcard {upcard}")

    def build(
        self,
        preset: str,
        seats: int = 3,
        *,
        hands: Mapping[int, str],
        top: str | None = None,
        discard: str | None = None,
        stock: str = MORE,
        active: str | None = None,
        current: int = 0,
        phase: str = "PLAY",
        pending: int = 0,
        drawn: str | None = None,
        batch_drawn: bool = False,
        reversed: bool = False,
        dealer: int | None = None,
        scores: list[int] | None = None,
        eliminated: tuple[int, ...] = (),
        options: Mapping[str, Option] | None = None,
    ) -> game_pb2.GameState:
        """A deal in progress laid out by hand; see the module docstring for
        where the cards nobody mentions go."""
        state = self.new(preset, seats, options)
        deck_size = state.options.hundred_and_one.deck_size
        deck = cards.deck(lowest_rank=6 if deck_size == 36 else 2)

        assert (top is None) != (discard is None), "give the top card or the whole discard pile"
        pile = [c(t) for t in words(discard)] if discard is not None else [c(top or "")]
        stock_words = words(stock)
        stock_open = bool(stock_words) and stock_words[-1] == MORE
        pile_stock = [c(t) for t in stock_words if t != MORE]
        pinned: dict[int, list[int]] = {}
        padded: list[int] = []
        for seat in range(seats):
            if seat in eliminated:
                pinned[seat] = []
            elif seat in hands:
                ws = words(hands[seat])
                pinned[seat] = [c(t) for t in ws if t != MORE]
                if ws and ws[-1] == MORE:
                    padded.append(seat)
        free = [seat for seat in range(seats) if seat not in pinned]

        placed = pile + pile_stock + [v for hand in pinned.values() for v in hand]
        doubles = [text_of(v) for v, n in Counter(placed).items() if n > 1]
        assert not doubles, f"cards placed twice: {doubles}"
        strangers = [text_of(v) for v in placed if v not in deck]
        assert not strangers, f"cards not in the {deck_size}-card deck: {strangers}"
        taken = set(placed)
        rest = [v for v in deck if v not in taken]

        for seat in padded:
            pinned[seat] += rest[:HAND_FILLER]
            del rest[:HAND_FILLER]
        if stock_open:
            for seat in free:
                pinned[seat] = rest[:SEAT_FILLER]
                del rest[:SEAT_FILLER]
            pile_stock += rest
        elif free:
            for i, seat in enumerate(free):
                pinned[seat] = rest[i :: len(free)]
        elif discard is None:
            pile = rest + pile
        else:
            assert not rest, f"no place left for {[text_of(v) for v in rest]}"

        game = state.hundred_and_one
        for seat in range(seats):
            del game.hands[seat].cards[:]
            game.hands[seat].cards.extend(pinned.get(seat, []))
        del game.stock[:]
        game.stock.extend(pile_stock)
        del game.discard[:]
        game.discard.extend(pile)
        # An empty discard pile (discard="") is a lead: no active suit yet.
        if active is None and pile:
            active = SUIT_TEXT[cards.SUIT_OF[pile[-1]]]
        game.active_suit = SUITS[active] if active else 0  # type: ignore[assignment]
        game.reversed = reversed
        game.phase = h1.HundredAndOnePhase.Value(f"HUNDRED_AND_ONE_PHASE_{phase}")
        game.pending_draw = pending
        game.drawn_card = c(drawn) if drawn else 0  # type: ignore[assignment]
        game.cover_batch_drawn = batch_drawn
        game.dealer = seats - 1 if dealer is None else dealer
        state.current_seat = current
        for seat in range(seats):
            # A seat out of the match holds the total that put it out (C8).
            busted = BUSTED_TOTAL if seat in eliminated else 0
            state.seats[seat].score = scores[seat] if scores else busted
            state.seats[seat].eliminated = seat in eliminated
        state.match.phase = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
        del state.acting_seats[:]
        state.acting_seats.append(current)
        return state

    # -- moves -----------------------------------------------------------------

    @staticmethod
    def _move(seat: int, action: str) -> game_pb2.Move:
        move = game_pb2.Move(seat=seat)
        getattr(move.hundred_and_one, action).SetInParent()
        return move

    def play(self, seat: int, card: str, suit: str | None = None) -> game_pb2.Move:
        """PLAY `card`; a Queen names `suit` (its own suit when None)."""
        move = game_pb2.Move(seat=seat)
        move.hundred_and_one.play.card = c(card)  # type: ignore[assignment]
        if card[:-1] == "Q":
            move.hundred_and_one.play.named_suit = SUITS[suit or card[-1]]  # type: ignore[assignment]
        elif suit:
            move.hundred_and_one.play.named_suit = SUITS[suit]  # type: ignore[assignment]
        return move

    def draw(self, seat: int) -> game_pb2.Move:
        return self._move(seat, "draw")

    def pass_turn(self, seat: int) -> game_pb2.Move:
        return self._move(seat, "pass")

    def accept(self, seat: int) -> game_pb2.Move:
        return self._move(seat, "accept")

    def name_suit(self, seat: int, suit: str) -> game_pb2.Move:
        move = game_pb2.Move(seat=seat)
        move.hundred_and_one.name_suit.suit = SUITS[suit]  # type: ignore[assignment]
        return move

    def apply(
        self, state: game_pb2.GameState, move: game_pb2.Move
    ) -> service_pb2.ApplyMoveResponse:
        return api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))

    def ok(self, state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.GameState:
        """Apply a move that must be accepted; returns the next state."""
        response = self.apply(state, move)
        assert response.accepted, (
            f"{self.move_text(move)} by P{move.seat} rejected: "
            f"{reason_name(response.rejection)} ({response.rejection.message})"
        )
        self.events = list(response.events)
        return response.state

    def reason(self, state: game_pb2.GameState, move: game_pb2.Move) -> str:
        """The rejection reason's short name ("MUST_COVER"), or "ACCEPTED"."""
        response = self.apply(state, move)
        return "ACCEPTED" if response.accepted else reason_name(response.rejection)

    def legal(self, state: game_pb2.GameState, seat: int) -> set[str]:
        """The seat's legal moves as texts: "PLAY 10♥", "PLAY Q♠>♣", "DRAW",
        "PASS", "ACCEPT", "NAME ♣"."""
        request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
        texts = [self.move_text(m.move) for m in api.list_legal_moves(request).moves]
        assert len(texts) == len(set(texts)), f"a legal move is listed twice: {texts}"
        return set(texts)

    @staticmethod
    def move_text(move: game_pb2.Move) -> str:
        m = move.hundred_and_one
        action = m.WhichOneof("action")
        if action == "play":
            card = text_of(m.play.card)
            if card[:-1] != "Q":
                return f"PLAY {card}"
            return f"PLAY {card}>{SUIT_TEXT[m.play.named_suit]}"
        if action == "name_suit":
            return f"NAME {SUIT_TEXT.get(m.name_suit.suit, '?')}"
        return str(action).upper()

    @staticmethod
    def queen_plays(card: str) -> set[str]:
        """The four ways to play a Queen."""
        return {f"PLAY {card}>{s}" for s in SUITS}

    def plays_of(self, hand: list[str], top: str, active: str) -> set[str]:
        """The C2-legal plays from `hand` on `top` with `active` suit."""
        out: set[str] = set()
        for card in hand:
            if card[:-1] == "Q":
                out |= self.queen_plays(card)
            elif self.follows(card, top, active):
                out.add(f"PLAY {card}")
        return out

    # -- reading a state ---------------------------------------------------------

    @staticmethod
    def hand(state: game_pb2.GameState, seat: int) -> Counter[str]:
        return Counter(text_of(v) for v in state.hundred_and_one.hands[seat].cards)

    @staticmethod
    def hand_list(state: game_pb2.GameState, seat: int) -> list[str]:
        return [text_of(v) for v in state.hundred_and_one.hands[seat].cards]

    @staticmethod
    def hand_size(state: game_pb2.GameState, seat: int) -> int:
        return len(state.hundred_and_one.hands[seat].cards)

    @staticmethod
    def stock(state: game_pb2.GameState) -> list[str]:
        return [text_of(v) for v in state.hundred_and_one.stock]

    @staticmethod
    def discard(state: game_pb2.GameState) -> list[str]:
        return [text_of(v) for v in state.hundred_and_one.discard]

    @staticmethod
    def top(state: game_pb2.GameState) -> str:
        return text_of(state.hundred_and_one.discard[-1])

    @staticmethod
    def active(state: game_pb2.GameState) -> str:
        return SUIT_TEXT.get(state.hundred_and_one.active_suit, "?")

    @staticmethod
    def phase(state: game_pb2.GameState) -> str:
        name = h1.HundredAndOnePhase.Name(state.hundred_and_one.phase)
        return name.removeprefix("HUNDRED_AND_ONE_PHASE_")

    @staticmethod
    def drawn(state: game_pb2.GameState) -> str | None:
        value = state.hundred_and_one.drawn_card
        return text_of(value) if value else None

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

    @staticmethod
    def deal_winners(state: game_pb2.GameState) -> list[int]:
        return sorted(state.match.deal_winners)

    @staticmethod
    def next_deal(state: game_pb2.GameState) -> game_pb2.GameState:
        return api.next_deal(service_pb2.NextDealRequest(state=state)).state


def reason_name(rejection: game_pb2.Rejection) -> str:
    """The short name of a rejection's reason: "MUST_COVER", "NOT_YOUR_TURN"."""
    return short_reason(rejection, "HUNDRED_AND_ONE_")


@pytest.fixture
def table() -> Table:
    """A helper that lays out 101 positions and plays moves on them."""
    return Table()
