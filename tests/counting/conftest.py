"""Hand-built counting tables for the situation tests (RULES.md test examples).

Tests speak the rules' notation: cards "10♥", "Q♠", a stock written top card
first, a pile bottom first (last = top). The `table` fixture turns such a
description into a valid, card-conserving GameState made from a real NewGame
state (so every option is resolved by the engine), makes moves through the
in-process API, and reads results back in the same notation.

Where the cards nobody mentions go (every state holds its whole pack):

* "…" at the end of a hand fills it to a full hand (One Hundred, 101 with
  chips: `hand_size`; «Сто»: ⌊32/n⌋);
* seats the situation does not mention get full hands;
* «Сто»: the leftovers (32 mod n, unless given) come next, and the rest goes
  under the pile;
* the others: the rest goes to the stock under the stock cards named, or,
  when the stock is pinned exactly (no "…"), under the pile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import pytest

from croupier.engine import api
from croupier.games.counting.rules import rules_for
from croupier.v1 import counting_pb2, game_pb2, service_pb2
from spec_notation import (
    c,
    settings,
    short_reason,
    text_of,
    words,
)

MORE = "…"

LETTER_TO_SUIT = dict(zip("CDHS", "♣♦♥♠", strict=True))

Option = bool | int | str


def reason_name(rejection: game_pb2.Rejection) -> str:
    """The short name of a rejection's reason: "WOULD_EXCEED_LIMIT", "NOT_YOUR_TURN"."""
    return short_reason(rejection, "COUNTING_")


class Table:
    """Builds positions, makes moves and reads states in the rules' notation."""

    def __init__(self) -> None:
        self.events: list[game_pb2.Event] = []

    c = staticmethod(c)
    text = staticmethod(text_of)

    # -- states ----------------------------------------------------------------

    @staticmethod
    def new(
        game: str,
        seats: int = 3,
        preset: str = "seed",
        options: Mapping[str, Option] | None = None,
        seed: int = 1,
    ) -> game_pb2.GameState:
        """A freshly dealt NewGame state."""
        request = service_pb2.NewGameRequest(
            game=game, preset=preset, seat_count=seats, seed=seed, options=settings(options)
        )
        return api.new_game(request).state

    def build(
        self,
        game: str,
        seats: int = 3,
        *,
        hands: Mapping[int, str],
        total: int = 0,
        pile: str = "",
        stock: str = MORE,
        leftovers: str | None = None,
        current: int = 0,
        reversed: bool = False,
        dealer: int | None = None,
        scores: list[int] | None = None,
        eliminated: tuple[int, ...] = (),
        deal_number: int = 1,
        preset: str = "seed",
        options: Mapping[str, Option] | None = None,
    ) -> game_pb2.GameState:
        """A deal in progress laid out by hand (the module docstring says
        where the cards nobody mentions go)."""
        state = self.new(game, seats, preset, options)
        rules = rules_for(state)
        full = rules.hand_size or len(rules.deck) // seats
        rest = Counter(rules.deck)

        def take(values: list[int]) -> list[int]:
            for v in values:
                assert rest[v] > 0, f"{text_of(v)} is placed more often than the pack has it"
                rest[v] -= 1
            return values

        def fill(count: int) -> list[int]:
            out: list[int] = []
            for v in sorted(rest):
                while rest[v] and len(out) < count:
                    rest[v] -= 1
                    out.append(v)
            return out

        piled = take([c(t) for t in words(pile)])
        stock_words = words(stock)
        stock_open = bool(stock_words) and stock_words[-1] == MORE
        stocked = take([c(t) for t in stock_words if t != MORE])
        laid = take([c(t) for t in words(leftovers)]) if leftovers is not None else None
        pinned: dict[int, list[int]] = {}
        padded = []
        for seat in range(seats):
            if seat in eliminated:
                pinned[seat] = []
            elif seat in hands:
                ws = words(hands[seat])
                pinned[seat] = take([c(t) for t in ws if t != MORE])
                if ws and ws[-1] == MORE:
                    padded.append(seat)
        if rules.hand_size == 0 and laid is None:
            laid = fill(len(rules.deck) % seats)
        open_seats = padded + [seat for seat in range(seats) if seat not in pinned]
        for seat in open_seats:
            pinned.setdefault(seat, [])
        # One card at a time round the open seats, as a deal goes (in «Сто»
        # a hand-built deal in progress may have fewer cards than are left).
        while open_seats and any(len(pinned[s]) < full for s in open_seats) and +rest:
            for seat in open_seats:
                if len(pinned[seat]) < full:
                    pinned[seat] += fill(1)
        if rules.hand_size == 0:
            piled = fill(sum(rest.values())) + piled
        elif stock_open:
            stocked += fill(sum(rest.values()))
        else:
            piled = fill(sum(rest.values())) + piled

        deal: counting_pb2.CountingState = getattr(state, game)
        for seat in range(seats):
            del deal.hands[seat].cards[:]
            deal.hands[seat].cards.extend(pinned[seat])  # type: ignore[arg-type]
        del deal.stock[:]
        deal.stock.extend(stocked)  # type: ignore[arg-type]
        del deal.pile[:]
        deal.pile.extend(piled)  # type: ignore[arg-type]
        del deal.leftovers[:]
        deal.leftovers.extend(laid or [])  # type: ignore[arg-type]
        deal.total = total
        deal.reversed = reversed
        deal.dealer = (current - 1) % seats if dealer is None else dealer
        deal.ClearField("exact_hundred_seat")
        state.current_seat = current
        for seat in range(seats):
            start = rules.lives if rules.lives else 0
            state.seats[seat].score = scores[seat] if scores else start
            if seat in eliminated:
                state.seats[seat].score = 0
            state.seats[seat].eliminated = seat in eliminated
        state.match.deal_number = deal_number
        del state.acting_seats[:]
        state.acting_seats.append(current)
        api.check_state(state)
        return state

    # -- moves -----------------------------------------------------------------

    @staticmethod
    def play(
        game: str, seat: int, card: str, *, adds: int | None = None, sets: int | None = None
    ) -> game_pb2.Move:
        """Put `card` down; `adds` or `sets` is the choice it carries."""
        move = game_pb2.Move(seat=seat)
        p = getattr(move, game).play
        p.card = c(card)
        if adds is not None:
            p.adds = adds
        if sets is not None:
            p.sets_total = sets
        return move

    @staticmethod
    def concede(game: str, seat: int) -> game_pb2.Move:
        move = game_pb2.Move(seat=seat)
        getattr(move, game).concede.SetInParent()
        return move

    @staticmethod
    def apply(state: game_pb2.GameState, move: game_pb2.Move) -> service_pb2.ApplyMoveResponse:
        return api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))

    def ok(self, state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.GameState:
        """Apply a move that must be accepted; returns the next state."""
        response = self.apply(state, move)
        assert response.accepted, (
            f"{self.move_text(state.game, move)} by P{move.seat} rejected: "
            f"{reason_name(response.rejection)} ({response.rejection.message})"
        )
        self.events = list(response.events)
        return response.state

    def reason(self, state: game_pb2.GameState, move: game_pb2.Move) -> str:
        """The rejection reason's short name ("WOULD_EXCEED_LIMIT"), or "ACCEPTED"."""
        response = self.apply(state, move)
        return "ACCEPTED" if response.accepted else reason_name(response.rejection)

    def rejection(self, state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Rejection:
        response = self.apply(state, move)
        assert not response.accepted
        return response.rejection

    def legal(self, state: game_pb2.GameState, seat: int | None = None) -> list[str]:
        """The seat's legal moves in canonical order, as texts: "7♦", "A♥+11",
        "A♣=73", "CONCEDE"."""
        seat = state.current_seat if seat is None else seat
        request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
        return [self.move_text(state.game, m.move) for m in api.list_legal_moves(request).moves]

    @staticmethod
    def move_text(game: str, move: game_pb2.Move) -> str:
        m = getattr(move, game)
        if m.WhichOneof("action") == "concede":
            return "CONCEDE"
        card = text_of(m.play.card)
        kind = m.play.WhichOneof("choice")
        if kind == "adds":
            return f"{card}{m.play.adds:+d}"
        if kind == "sets_total":
            return f"{card}={m.play.sets_total}"
        return card

    def default(self, state: game_pb2.GameState) -> str:
        request = service_pb2.DefaultMoveRequest(state=state, seat=state.current_seat)
        return self.move_text(state.game, api.default_move(request).move.move)

    # -- reading a state ---------------------------------------------------------

    @staticmethod
    def total(state: game_pb2.GameState) -> int:
        return int(getattr(state, state.game).total)

    @staticmethod
    def hand(state: game_pb2.GameState, seat: int) -> Counter[str]:
        return Counter(text_of(v) for v in getattr(state, state.game).hands[seat].cards)

    @staticmethod
    def hand_size(state: game_pb2.GameState, seat: int) -> int:
        return len(getattr(state, state.game).hands[seat].cards)

    @staticmethod
    def stock(state: game_pb2.GameState) -> list[str]:
        return [text_of(v) for v in getattr(state, state.game).stock]

    @staticmethod
    def pile(state: game_pb2.GameState) -> list[str]:
        return [text_of(v) for v in getattr(state, state.game).pile]

    @staticmethod
    def leftovers(state: game_pb2.GameState) -> list[str]:
        return [text_of(v) for v in getattr(state, state.game).leftovers]

    @staticmethod
    def reversed(state: game_pb2.GameState) -> bool:
        return bool(getattr(state, state.game).reversed)

    @staticmethod
    def match_phase(state: game_pb2.GameState) -> str:
        return game_pb2.MatchPhase.Name(state.match.phase).removeprefix("MATCH_PHASE_")

    @staticmethod
    def scores(state: game_pb2.GameState) -> list[int]:
        return [seat.score for seat in state.seats]

    @staticmethod
    def eliminated(state: game_pb2.GameState) -> list[int]:
        return [i for i, seat in enumerate(state.seats) if seat.eliminated]

    @staticmethod
    def deal_points(state: game_pb2.GameState) -> list[int]:
        return list(state.match.deal_points)

    @staticmethod
    def winners(state: game_pb2.GameState) -> list[int]:
        return sorted(state.match.winners)

    def rule_events(self) -> list[str]:
        """The game's own kinds among the last move's events ("BUSTED", …)."""
        out = []
        for event in self.events:
            if event.kind == game_pb2.EVENT_KIND_GAME_RULE:
                detail = getattr(event, event.WhichOneof("detail") or "")
                name = counting_pb2.CountingEventKind.Name(detail.kind)
                out.append(name.removeprefix("COUNTING_EVENT_KIND_"))
        return out

    def event_kinds(self) -> list[str]:
        """The shared kinds of the last move's events ("CARD_PLAYED", …)."""
        return [game_pb2.EventKind.Name(e.kind).removeprefix("EVENT_KIND_") for e in self.events]

    @staticmethod
    def next_deal(state: game_pb2.GameState) -> game_pb2.GameState:
        return api.next_deal(service_pb2.NextDealRequest(state=state)).state


@pytest.fixture
def table() -> Table:
    """A helper that lays out counting positions and plays moves on them."""
    return Table()
