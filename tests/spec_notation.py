"""The rules documents' card notation, shared by the games' test builders.

Tests speak as the specifications do: cards "10♥", "Q♠", jokers "JK", suits
"♣ ♦ ♥ ♠", option values by name. Each game's conftest builds its positions
on these helpers (101, Scala 40, «Мост», the counting games).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from croupier.engine import api, cards
from croupier.engine.options import option_settings
from croupier.v1 import game_pb2, service_pb2

RANKS = {str(n): n for n in range(2, 11)}
RANKS.update({"J": cards.JACK, "Q": cards.QUEEN, "K": cards.KING, "A": cards.ACE})
RANK_TEXT = {v: k for k, v in RANKS.items()}
SUITS = {"♣": cards.CLUBS, "♦": cards.DIAMONDS, "♥": cards.HEARTS, "♠": cards.SPADES}
SUIT_TEXT = {v: k for k, v in SUITS.items()}


def c(text: str) -> int:
    """A natural card in the spec's notation ("10♥") as a FrenchCard value."""
    return cards.card(RANKS[text[:-1]], SUITS[text[-1]])


def text_of(value: int) -> str:
    """The spec's notation of a card value (jokers "JK")."""
    if cards.is_joker(value):
        return "JK"
    return RANK_TEXT[cards.RANK_OF[value]] + SUIT_TEXT[cards.SUIT_OF[value]]


def words(text: str) -> list[str]:
    """The cards of a list written with spaces or commas."""
    return text.replace(",", " ").split()


def meld_words(text: str) -> list[str]:
    """The cards of a meld written "[5♥ JK 7♥]"."""
    return text.strip().strip("[]").split()


def is_set(values: Sequence[int], joker_as: Sequence[int]) -> bool:
    """Whether cards written in the spec's notation are a set (one rank)."""
    known = [v for v in values if not cards.is_joker(v)] + [i for i in joker_as if i]
    return len({cards.RANK_OF[v] for v in known}) == 1


settings = option_settings  # NewGame's named option settings from a {name: value} mapping


def short_reason(rejection: game_pb2.Rejection, game_prefix: str) -> str:
    """A rejection's reason without its enum prefix: "MUST_COVER", "NOT_YOUR_TURN"."""
    name = api.rejection_name(rejection)
    return name.removeprefix(game_prefix).removeprefix("REJECTION_REASON_")


class RulesDriver:
    """The engine calls a game's spec tests make through their `Table`:
    a move that must be accepted, a rejection's short reason, the listed and
    default moves as notation, NextDeal. A subclass names its game and its
    rejection enum's prefix; `events` holds the last accepted move's events."""

    game: Any  # the registered game (its notation)
    reason_prefix: str  # e.g. "SCALA40_REJECTION_REASON_"
    preset: str  # the preset `new` deals by default, e.g. "fisc"

    c = staticmethod(c)
    text = staticmethod(text_of)

    def __init__(self) -> None:
        self.events: list[game_pb2.Event] = []

    @staticmethod
    def bag(text: str) -> Counter[str]:
        """The cards of a text, as a multiset."""
        return Counter(words(text))

    def new(
        self,
        seats: int = 3,
        options: Mapping[str, bool | int | str] | None = None,
        seed: int = 1,
        preset: str | None = None,
    ) -> game_pb2.GameState:
        """A freshly dealt NewGame state (the class's preset unless named)."""
        request = service_pb2.NewGameRequest(
            game=self.game.name,
            preset=self.preset if preset is None else preset,
            seat_count=seats,
            seed=seed,
            options=settings(options),
        )
        return api.new_game(request).state

    def apply(
        self, state: game_pb2.GameState, move: game_pb2.Move
    ) -> service_pb2.ApplyMoveResponse:
        return api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))

    def ok(self, state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.GameState:
        """Apply a move that must be accepted; returns the next state."""
        response = self.apply(state, move)
        assert response.accepted, (
            f"{response.notation} by P{move.seat} rejected: "
            f"{self._short(response.rejection)} ({response.rejection.message})"
        )
        self.events = list(response.events)
        return response.state

    def reason(self, state: game_pb2.GameState, move: game_pb2.Move) -> str:
        """The rejection reason's short name, or "ACCEPTED"."""
        response = self.apply(state, move)
        return "ACCEPTED" if response.accepted else self._short(response.rejection)

    def rejection(self, state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Rejection:
        response = self.apply(state, move)
        assert not response.accepted, f"{response.notation} was accepted"
        return response.rejection

    def legal(self, state: game_pb2.GameState, seat: int | None = None) -> list[str]:
        """The seat's legal moves as canonical texts."""
        seat = state.current_seat if seat is None else seat
        request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
        texts = [m.notation for m in api.list_legal_moves(request).moves]
        assert len(texts) == len(set(texts)), f"a legal move is listed twice: {texts}"
        return texts

    def notation(self, move: game_pb2.Move) -> str:
        return str(self.game.notation(move))

    def next_deal(self, state: game_pb2.GameState) -> game_pb2.GameState:
        response = api.next_deal(service_pb2.NextDealRequest(state=state))
        self.events = list(response.events)
        return response.state

    def default(self, state: game_pb2.GameState, seat: int | None = None) -> str:
        seat = state.current_seat if seat is None else seat
        request = service_pb2.DefaultMoveRequest(state=state, seat=seat)
        return api.default_move(request).move.notation

    def _short(self, rejection: game_pb2.Rejection) -> str:
        return short_reason(rejection, self.reason_prefix)
