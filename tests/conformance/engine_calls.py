"""The engine, called the way the conformance suite needs it.

`CheckedEngine` is a playout `Backend` (croupier_client.playout) over
`croupier.engine.api` that checks what every call must keep, whatever the
game:

- its request is unchanged afterwards, byte for byte (STYLE.md 3: no rule
  function writes to its input; a game that does writes into the request's
  copy of the state, which is how it shows);
- every state it produces passes `api.check_state` (conservation of the deck
  and every consistency rule);

and keeps the game record (the NewGame request, then each move or next deal
with the bytes of the state it produced) for the replay check.

With `checking` off (the unchecked stretches of a long match, suite.py
CHECKED_MOVES_PER_DEAL) the playout's calls take the plain trusted path and
the record stops, so that replay covers the match up to the first unchecked
move.

The calls a playout makes take the full path a state from outside takes
(`trusted=False`). The probes the suite makes many times per position
(`probe`: validate-only moves) take the trusted path: the same position was
just validated in full by `valid`, and the gates and the game's check run on
both paths alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from google.protobuf.message import Message

from croupier.engine import api
from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.engine.options import option_settings
from croupier.v1 import game_pb2, service_pb2

Response = TypeVar("Response", bound=Message)


def serialized(message: Message) -> bytes:
    """The canonical bytes of a message (map order fixed)."""
    return message.SerializeToString(deterministic=True)


def unchanged(call: Callable[..., Response], request: Message, **flags: Any) -> Response:
    """`call(request)`, asserting that the call left its request as it was."""
    before = serialized(request)
    response = call(request, **flags)
    assert serialized(request) == before, (
        f"MUTATION: {call.__name__} changed its request (a rule function wrote to its input)"
    )
    return response


def valid(state: game_pb2.GameState, made_by: str) -> None:
    """Assert that `state` passes the engine's full check (conservation first)."""
    try:
        api.check_state(state)
    except (InvalidInput, FailedPrecondition) as error:
        raise AssertionError(
            f"INVALID STATE: {made_by} produced a state the engine refuses: {error}"
        ) from error


@dataclass
class Record:
    """A game record: how the match began, then every accepted move (or None
    for a next deal) with the serialized state that followed."""

    start: service_pb2.NewGameRequest | None = None
    first_state: bytes = b""
    steps: list[tuple[game_pb2.Move | None, bytes]] = field(default_factory=list)


class CheckedEngine:
    """A playout backend over `croupier.engine.api` that checks every call
    (module docstring) and records the match."""

    def __init__(self) -> None:
        self.record = Record()
        # Off: the playout's calls take the plain trusted path, unchecked and
        # unrecorded (suite.py, CHECKED_MOVES_PER_DEAL); the suite's own
        # questions are checked either way.
        self.checking = True
        self.recording = True
        self._probe_state: game_pb2.GameState | None = None
        self._probe_request = service_pb2.ApplyMoveRequest()
        self._probe_bytes = b""

    # -- the calls of a playout (croupier_client.playout.Backend) --------------

    def new_game(
        self,
        game: str,
        *,
        preset: str = "",
        seat_count: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> service_pb2.NewGameResponse:
        settings = option_settings(options)
        request = service_pb2.NewGameRequest(
            game=game,
            preset=preset,
            seat_count=seat_count,
            seed=seed,
            options=settings,
            seat_events=True,
        )
        response = unchanged(api.new_game, request)
        valid(response.state, "NewGame")
        self.record = Record(start=request, first_state=serialized(response.state))
        return response

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[service_pb2.LegalMove]:
        request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
        if not self.checking:
            return list(api.list_legal_moves(request, trusted=True).moves)
        return list(unchanged(api.list_legal_moves, request).moves)

    def apply(
        self,
        state: game_pb2.GameState,
        move: game_pb2.Move,
        validate_only: bool = False,
        *,
        next_legal_moves: bool = False,
    ) -> service_pb2.ApplyMoveResponse:
        if not self.checking:
            # The record stops here: replay covers the checked start of the match.
            self.recording = False
            request = service_pb2.ApplyMoveRequest(
                state=state, move=move, validate_only=validate_only,
                next_legal_moves=next_legal_moves,
            )  # fmt: skip
            return api.apply_move(request, trusted=True)
        request = service_pb2.ApplyMoveRequest(
            state=state,
            move=move,
            validate_only=validate_only,
            seat_events=True,
            next_legal_moves=next_legal_moves,
        )
        response = unchanged(api.apply_move, request)
        if response.accepted and not validate_only:
            valid(response.state, f"ApplyMove of seat {move.seat}")
            if self.recording:
                self.record.steps.append((move, serialized(response.state)))
        return response

    def next_deal(self, state: game_pb2.GameState) -> service_pb2.NextDealResponse:
        request = service_pb2.NextDealRequest(state=state, seat_events=True)
        response = unchanged(api.next_deal, request)
        valid(response.state, "NextDeal")
        if self.recording:
            self.record.steps.append((None, serialized(response.state)))
        return response

    # -- the suite's own questions ---------------------------------------------

    def probe(
        self, state: game_pb2.GameState, move: game_pb2.Move
    ) -> service_pb2.ApplyMoveResponse:
        """ApplyMove(validate_only) on a position already checked in full.

        The suite asks dozens of these per position, so the request (and the
        bytes it is compared with) is built once per position and only its
        move changes: the same check as `unchanged`, at a fraction of the cost.
        """
        if self._probe_state is not state:
            self._probe_state = state
            self._probe_request = service_pb2.ApplyMoveRequest(state=state, validate_only=True)
            self._probe_bytes = serialized(self._probe_request)
        request = self._probe_request
        request.move.CopyFrom(move)
        moved = serialized(request.move)
        response = api.apply_move(request, trusted=True)
        assert serialized(request.move) == moved, "MUTATION: ApplyMove changed its move"
        request.ClearField("move")
        assert serialized(request) == self._probe_bytes, (
            "MUTATION: api.apply_move changed its request (a rule function wrote to its input)"
        )
        return response

    def view(self, state: game_pb2.GameState, seat: int) -> game_pb2.View:
        request = service_pb2.GetViewRequest(state=state, seat=seat)
        return unchanged(api.get_view, request).view

    def default_move(self, state: game_pb2.GameState, seat: int) -> service_pb2.LegalMove:
        request = service_pb2.DefaultMoveRequest(state=state, seat=seat)
        return unchanged(api.default_move, request).move
