"""Hand-built UNO tables for the situation tests (shared/rules/shedding.md §2.14).

Tests speak the spec's notation: cards "R7", "G0", "BSkip", "YRev", "R+2",
"W", "W+4", "X+10"; a black top with its colour "W[G]", "W+4[B]"; a stock
written top card first; a discard pile bottom first (last = top). The `table`
fixture turns such a description into a valid, card-conserving GameState made
from a real NewGame state (so every option is resolved by the engine), makes
moves through the in-process API and reads results back in the same notation.

Conventions of §2.14: four seats P0..P3 clockwise, P0 to act, the dealer P3,
the SEED profile, house rules off unless listed.

Where the cards nobody mentions go (every state holds the whole deck): "…" at
the end of a hand adds three cards; seats the situation does not mention get
five cards each; everything else goes to the stock under the named stock
cards ("…" at the end of the stock, the default), or, when the stock is
pinned exactly, under the named discard pile. Filler cards are yellow and
blue numbers first, then the rest (black cards last), so that a filler rarely
matters to a red or green situation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import pytest

from croupier.engine import api
from croupier.engine.uno_cards import (
    BLACK_CARDS,
    COLOUR_OF,
    KIND_OF,
    Kind,
    colour_text,
    parse_colour,
    parse_uno_card,
    uno_card_text,
)
from croupier.games.uno import GAME
from croupier.games.uno.notation import notation, parse_notation
from croupier.games.uno.rules import rules_for
from croupier.v1 import game_pb2, options_pb2, service_pb2
from croupier.v1 import uno_pb2 as pb

NAME = "uno"
MORE = "…"
HAND_FILLER = 3
SEAT_FILLER = 5

Option = bool | int | str

_FILLER_COLOURS = {2: 0, 4: 1, 3: 2, 1: 3, 0: 4}  # yellow, blue, green, red, black


def c(text: str) -> int:
    """An UnoCard value from the spec's notation ("R7", "W+4", "W[G]" → W)."""
    return parse_uno_card(text.split("[")[0])


def text_of(value: int) -> str:
    return uno_card_text(value)


def words(text: str) -> list[str]:
    return text.replace(",", " ").split()


def _filler_order(card: int) -> tuple[int, int, int]:
    return (_FILLER_COLOURS[COLOUR_OF[card]], int(KIND_OF[card] != Kind.NUMBER), card)


class Table:
    """Builds positions, makes moves and reads states in the spec's notation."""

    def __init__(self) -> None:
        self.events: list[game_pb2.Event] = []
        self.seat_events: list[game_pb2.SeatEvents] = []

    # -- states ----------------------------------------------------------------

    def new(
        self,
        preset: str = "seed",
        seats: int = 4,
        options: Mapping[str, Option] | None = None,
        seed: int = 1,
    ) -> game_pb2.GameState:
        """A freshly dealt NewGame state."""
        request = service_pb2.NewGameRequest(
            game=NAME, preset=preset, seat_count=seats, seed=seed, options=settings(options)
        )
        response = api.new_game(request)
        self.events = list(response.events)
        return response.state

    def build(
        self,
        preset: str = "seed",
        seats: int = 4,
        *,
        hands: Mapping[int, str],
        top: str | None = None,
        discard: str | None = None,
        stock: str = MORE,
        colour: str | None = None,
        current: int = 0,
        phase: str = "PLAY",
        pending: tuple[str, int] | None = None,
        drawn: str | None = None,
        reversed: bool = False,
        dealer: int | None = None,
        top_player: int | None = None,
        scores: list[int] | None = None,
        deal_number: int = 1,
        options: Mapping[str, Option] | None = None,
        **fields: object,
    ) -> game_pb2.GameState:
        """An UNO round in progress laid out by hand (module docstring).

        `pending` is (kind, count), kind one of DRAW_TWO, WILD_DRAW_FOUR,
        PLUS_TEN, SKIP (phase RESPOND). Other UnoState fields may be given by
        name (`finished=[2]`, `stages=[…]`, `uno_offender=1`, …)."""
        state = self.new(preset, seats, options)
        deck = rules_for(state.options.uno).deck
        assert (top is None) != (discard is None), "give the top card or the whole discard pile"
        pile_words = words(discard) if discard is not None else [top or ""]
        pile = [c(t) for t in pile_words]
        stock_words = words(stock)
        stock_open = bool(stock_words) and stock_words[-1] == MORE
        pile_stock = [c(t) for t in stock_words if t != MORE]
        pinned: dict[int, list[int]] = {}
        padded: list[int] = []
        for seat in range(seats):
            if seat in hands:
                ws = words(hands[seat])
                pinned[seat] = [c(t) for t in ws if t != MORE]
                if ws and ws[-1] == MORE:
                    padded.append(seat)
        free = [seat for seat in range(seats) if seat not in pinned]
        placed = pile + pile_stock + [v for hand in pinned.values() for v in hand]
        rest = Counter(deck)
        rest.subtract(placed)
        too_many = [text_of(v) for v, k in rest.items() if k < 0]
        assert not too_many, f"cards placed more often than the deck holds them: {too_many}"
        remaining = sorted(rest.elements(), key=_filler_order)
        for seat in padded:
            pinned[seat] += remaining[:HAND_FILLER]
            del remaining[:HAND_FILLER]
        if stock_open:
            for seat in free:
                pinned[seat] = remaining[:SEAT_FILLER]
                del remaining[:SEAT_FILLER]
            pile_stock += remaining
        elif free:
            for i, seat in enumerate(free):
                pinned[seat] = remaining[i :: len(free)]
        else:
            pile = remaining + pile

        deal = state.uno
        for seat in range(seats):
            deal.hands[seat].cards[:] = pinned.get(seat, [])
        deal.stock[:] = pile_stock
        deal.discard[:] = pile
        top_text = pile_words[-1]
        if colour is None:
            colour = top_text[-2] if "[" in top_text else colour_text(COLOUR_OF[pile[-1]])
        deal.colour = parse_colour(colour) if colour and colour != "?" else 0  # type: ignore[assignment]
        deal.reversed = reversed
        deal.phase = pb.UnoPhase.Value(f"UNO_PHASE_{phase}")
        deal.ClearField("top_player")
        if top_player is not None:
            deal.top_player = top_player
        deal.pending_kind = 0  # type: ignore[assignment]
        deal.pending_count = 0
        if pending is not None:
            deal.pending_kind = pb.UnoPendingKind.Value(f"UNO_PENDING_KIND_{pending[0]}")
            deal.pending_count = pending[1]
        deal.drawn_card = c(drawn) if drawn else 0  # type: ignore[assignment]
        deal.dealer = seats - 1 if dealer is None else dealer
        deal.jump_in_open = False
        for name, value in fields.items():
            if isinstance(value, list):
                getattr(deal, name)[:] = value
            else:
                setattr(deal, name, value)
        state.current_seat = current
        for seat in range(seats):
            state.seats[seat].score = scores[seat] if scores else 0
        state.match.deal_number = deal_number
        state.match.phase = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
        state.acting_seats[:] = GAME.acting_seats(state)
        api.check_state(state)  # a test position is a valid state
        return state

    # -- moves -----------------------------------------------------------------

    @staticmethod
    def move(seat: int, text: str) -> game_pb2.Move:
        """Any move in its canonical notation ("R7", "W>G", "JUMP G7", "CATCH 2")."""
        return parse_notation(text, seat)

    def play(
        self,
        seat: int,
        card: str,
        colour: str | None = None,
        *,
        uno: bool = False,
        swap: int | None = None,
        give: str | None = None,
        jump: bool = False,
    ) -> game_pb2.Move:
        move = game_pb2.Move(seat=seat)
        play = move.uno.jump_in if jump else move.uno.play
        play.card = c(card)  # type: ignore[assignment]
        if colour:
            play.colour = parse_colour(colour)  # type: ignore[assignment]
        play.uno = uno
        if swap is not None:
            play.swap_with = swap
        if give:
            play.give = c(give)  # type: ignore[assignment]
        return move

    def jump(self, seat: int, card: str, colour: str | None = None, **kw: object) -> game_pb2.Move:
        return self.play(seat, card, colour, jump=True, **kw)  # type: ignore[arg-type]

    def apply(
        self, state: game_pb2.GameState, move: game_pb2.Move
    ) -> service_pb2.ApplyMoveResponse:
        request = service_pb2.ApplyMoveRequest(state=state, move=move, seat_events=True)
        return api.apply_move(request)

    def ok(self, state: game_pb2.GameState, *moves: game_pb2.Move | str) -> game_pb2.GameState:
        """Apply moves that must be accepted ("P1 DRAW" texts or Move messages)."""
        for move in moves:
            if isinstance(move, str):
                seat, _, text = move.partition(" ")
                move = self.move(int(seat.removeprefix("P")), text)
            response = self.apply(state, move)
            assert response.accepted, (
                f"{notation(move)} by P{move.seat} rejected: "
                f"{reason_name(response.rejection)} ({response.rejection.message})"
            )
            self.events = list(response.events)
            self.seat_events = list(response.seat_events)
            state = response.state
        return state

    def reason(self, state: game_pb2.GameState, move: game_pb2.Move | str) -> str:
        """The rejection's short name ("MUST_MATCH_COLOUR_OR_SYMBOL"), or "ACCEPTED"."""
        if isinstance(move, str):
            seat, _, text = move.partition(" ")
            move = self.move(int(seat.removeprefix("P")), text)
        response = self.apply(state, move)
        return "ACCEPTED" if response.accepted else reason_name(response.rejection)

    def legal(self, state: game_pb2.GameState, seat: int) -> set[str]:
        """The seat's legal moves in canonical notation."""
        request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
        texts = [m.notation for m in api.list_legal_moves(request).moves]
        assert len(texts) == len(set(texts)), f"a legal move is listed twice: {texts}"
        return set(texts)

    def view(self, state: game_pb2.GameState, seat: int) -> game_pb2.View:
        return api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view

    def default(self, state: game_pb2.GameState, seat: int) -> str:
        request = service_pb2.DefaultMoveRequest(state=state, seat=seat)
        return api.default_move(request).move.notation

    # -- reading a state -----------------------------------------------------------

    @staticmethod
    def hand(state: game_pb2.GameState, seat: int) -> Counter[str]:
        return Counter(text_of(v) for v in state.uno.hands[seat].cards)

    @staticmethod
    def bag(text: str) -> Counter[str]:
        return Counter(words(text))

    @staticmethod
    def size(state: game_pb2.GameState, seat: int) -> int:
        return len(state.uno.hands[seat].cards)

    @staticmethod
    def stock(state: game_pb2.GameState) -> list[str]:
        return [text_of(v) for v in state.uno.stock]

    @staticmethod
    def discard(state: game_pb2.GameState) -> list[str]:
        return [text_of(v) for v in state.uno.discard]

    @staticmethod
    def top(state: game_pb2.GameState) -> str:
        return text_of(state.uno.discard[-1])

    @staticmethod
    def colour(state: game_pb2.GameState) -> str:
        return colour_text(state.uno.colour) if state.uno.colour else "-"

    @staticmethod
    def phase(state: game_pb2.GameState) -> str:
        return pb.UnoPhase.Name(state.uno.phase).removeprefix("UNO_PHASE_")

    @staticmethod
    def pending(state: game_pb2.GameState) -> tuple[str, int] | None:
        deal = state.uno
        if not deal.pending_kind:
            return None
        kind = pb.UnoPendingKind.Name(deal.pending_kind).removeprefix("UNO_PENDING_KIND_")
        return kind, deal.pending_count

    def turn(self, state: game_pb2.GameState) -> tuple[int, str]:
        """Whose turn it is and in which phase."""
        return state.current_seat, self.phase(state)

    @staticmethod
    def acting(state: game_pb2.GameState) -> list[int]:
        return list(state.acting_seats)

    @staticmethod
    def direction(state: game_pb2.GameState) -> int:
        return -1 if state.uno.reversed else 1

    @staticmethod
    def match_phase(state: game_pb2.GameState) -> str:
        return game_pb2.MatchPhase.Name(state.match.phase).removeprefix("MATCH_PHASE_")

    @staticmethod
    def scores(state: game_pb2.GameState) -> list[int]:
        return [seat.score for seat in state.seats]

    @staticmethod
    def deal_points(state: game_pb2.GameState) -> list[int]:
        return list(state.match.deal_points)

    def rule_events(self, kind: str) -> list[game_pb2.Event]:
        """The last move's UNO events of a kind ("CHALLENGED", "HAND_REVEALED")."""
        value = pb.UnoEventKind.Value(f"UNO_EVENT_KIND_{kind}")
        return [e for e in self.events if e.WhichOneof("detail") == "uno" and e.uno.kind == value]

    def seat_event_cards(self, seat: int) -> list[list[str]]:
        """The cards of the last move's events as `seat` got them."""
        entry = self.seat_events[seat]
        return [[text_of(v) for v in e.uno_cards] for e in entry.events]

    @staticmethod
    def next_deal(state: game_pb2.GameState) -> game_pb2.GameState:
        return api.next_deal(service_pb2.NextDealRequest(state=state)).state


def settings(options: Mapping[str, Option] | None) -> list[options_pb2.OptionSetting]:
    """NewGame's named option settings from a {name: value} mapping."""
    out = []
    for name, value in (options or {}).items():
        if isinstance(value, bool):
            v = options_pb2.OptionValue(bool_value=value)
        elif isinstance(value, int):
            v = options_pb2.OptionValue(int_value=value)
        else:
            v = options_pb2.OptionValue(enum_value=value)
        out.append(options_pb2.OptionSetting(name=name, value=v))
    return out


def reason_name(rejection: game_pb2.Rejection) -> str:
    """The short name of a rejection's reason: "MUST_MATCH_COLOUR_OR_SYMBOL",
    "NOT_YOUR_TURN"."""
    name = api.rejection_name(rejection)
    return name.removeprefix("UNO_").removeprefix("REJECTION_REASON_")


BLACK = {text_of(v) for v in BLACK_CARDS}


@pytest.fixture
def table() -> Table:
    """A helper that lays out UNO positions and plays moves on them."""
    return Table()
