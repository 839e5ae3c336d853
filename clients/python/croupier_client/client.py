"""A small typed client for CroupierService over the generated stub.

It converts nothing but the edges a person types (option values by name) and
turns gRPC errors into `CroupierError` with their field violations; every
rule stays on the server. The messages it returns are the generated ones.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence, Set
from types import TracebackType
from typing import Any, TypeVar

import grpc

from croupier_client.rpc import status_pb2
from croupier_client.v1 import game_pb2, options_pb2, service_pb2, service_pb2_grpc

DEFAULT_TARGET = "127.0.0.1:50051"

# Every RPC of Croupier is pure — a state in, an answer out, nothing kept — so
# a call that failed with UNAVAILABLE (a server killed or draining, a balancer
# with no backend for a moment) may be sent again as it was. grpc does it
# (gRFC A6 retries, configured by the service config below), within the
# call's deadline; the application sees one call.
DEFAULT_RETRY_ATTEMPTS = 5  # grpc's ceiling for maxAttempts
RETRIED_SERVICES = ("croupier.v1.CroupierService", "grpc.health.v1.Health")

# What an option may be set to by name: bool (BOOL), int (INT), str (ENUM, the
# value name without its type prefix, e.g. "DEALER_UPCARD") and a collection of
# names (SET).
OptionInput = bool | int | str | Sequence[str] | Set[str]

_Response = TypeVar("_Response")

# A state as a method takes it: in the clear, or as the server sealed it
# (README, "Sealed states"); `state_of` reads either from an answer.
State = game_pb2.GameState | service_pb2.SealedState


def state_of(response: Any) -> State:
    """The state of a NewGame, ApplyMove or NextDeal answer: its
    `sealed_state` when the server sealed it, else its `state`. Pass it to
    the next call as it is: the client sends either kind."""
    if response.HasField("sealed_state"):
        sealed: service_pb2.SealedState = response.sealed_state
        return sealed
    state: game_pb2.GameState = response.state
    return state


def _state_field(state: State) -> dict[str, Any]:
    """The request field that carries `state`: `sealed_state` or `state`."""
    if isinstance(state, service_pb2.SealedState):
        return {"sealed_state": state}
    return {"state": state}


class CroupierError(Exception):
    """A call that the server (or the channel) answered with a gRPC error.

    `code` is the grpc.StatusCode; `field_violations` holds the
    (field path, description) pairs of a google.rpc.BadRequest detail, which
    the server attaches to INVALID_ARGUMENT.
    """

    def __init__(
        self,
        rpc: str,
        code: grpc.StatusCode,
        details: str,
        field_violations: Sequence[tuple[str, str]] = (),
    ) -> None:
        self.rpc = rpc
        self.code = code
        self.details = details
        self.field_violations = tuple(field_violations)
        text = f"{rpc} failed: {code.name}: {details}"
        for field, description in self.field_violations:
            text += f"\n  {field}: {description}"
        super().__init__(text)

    @classmethod
    def from_rpc_error(cls, rpc: str, error: grpc.RpcError) -> CroupierError:
        """Read the status code, message and BadRequest details of `error`."""
        code = error.code() if isinstance(error, grpc.Call) else grpc.StatusCode.UNKNOWN
        details = (error.details() if isinstance(error, grpc.Call) else None) or str(error)
        violations: list[tuple[str, str]] = []
        trailers = error.trailing_metadata() if isinstance(error, grpc.Call) else None
        for key, value in trailers or ():
            if key == STATUS_DETAILS_KEY:
                violations.extend(_field_violations(value))
        return cls(rpc, code, details, violations)


# The trailer where gRPC carries a google.rpc.Status with the error details.
STATUS_DETAILS_KEY = "grpc-status-details-bin"
BAD_REQUEST_TYPE = "type.googleapis.com/google.rpc.BadRequest"


def _field_violations(status_bytes: bytes) -> list[tuple[str, str]]:
    """The (field, description) pairs of the BadRequest details of a
    serialized google.rpc.Status (read with the client's own copy of its
    wire shape, croupier_client/rpc/status.proto)."""
    status = status_pb2.Status.FromString(status_bytes)
    violations: list[tuple[str, str]] = []
    for detail in status.details:
        if detail.type_url == BAD_REQUEST_TYPE:
            bad_request = status_pb2.BadRequest.FromString(detail.value)
            violations.extend((v.field, v.description) for v in bad_request.field_violations)
    return violations


def retry_service_config(max_attempts: int = DEFAULT_RETRY_ATTEMPTS) -> str:
    """The service config (JSON) that retries every Croupier and Health call
    answered UNAVAILABLE, up to `max_attempts` attempts in all (2 to 5), with
    exponential backoff from 100 ms to 1 s (grpc waits a random time up to
    each step: at most 1.5 s over 5 attempts, 0.75 s on average)."""
    if not 2 <= max_attempts <= 5:
        raise ValueError(f"grpc allows 2 to 5 attempts per call; got {max_attempts}")
    policy = {
        "maxAttempts": max_attempts,
        "initialBackoff": "0.1s",
        "maxBackoff": "1s",
        "backoffMultiplier": 2,
        "retryableStatusCodes": ["UNAVAILABLE"],
    }
    names = [{"service": service} for service in RETRIED_SERVICES]
    return json.dumps({"methodConfig": [{"name": names, "retryPolicy": policy}]})


def channel_options(retry_attempts: int = DEFAULT_RETRY_ATTEMPTS) -> list[tuple[str, Any]]:
    """Channel arguments of a client channel: retries of UNAVAILABLE
    (`retry_service_config`) when `retry_attempts` > 1, none at 1."""
    if retry_attempts == 1:
        return [("grpc.enable_retries", 0)]
    if not 2 <= retry_attempts <= 5:
        raise ValueError(f"1 (no retry) to 5 attempts per call; got {retry_attempts}")
    return [
        ("grpc.enable_retries", 1),
        ("grpc.service_config", retry_service_config(retry_attempts)),
    ]


def option_value(value: OptionInput) -> options_pb2.OptionValue:
    """The OptionValue of a Python value: bool → bool_value, int → int_value,
    str → enum_value, a collection of str → set_value.

    A list or tuple keeps its order; a set is sorted so that the same options
    always give the same request bytes. Raises TypeError for anything else.
    """
    # bool first: it is a subclass of int.
    if isinstance(value, bool):
        return options_pb2.OptionValue(bool_value=value)
    if isinstance(value, int):
        return options_pb2.OptionValue(int_value=value)
    if isinstance(value, str):
        return options_pb2.OptionValue(enum_value=value)
    if isinstance(value, Set):
        names: Iterable[Any] = sorted(value)
    elif isinstance(value, Sequence):
        names = value
    else:
        raise TypeError(f"an option value is a bool, int, str or list of str; got {value!r}")
    names = list(names)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"a SET option lists names (str); got {name!r} in {value!r}")
    return options_pb2.OptionValue(set_value=options_pb2.NameList(names=names))


def option_input(value: options_pb2.OptionValue) -> OptionInput:
    """The Python value of an OptionValue (as ListGames sends defaults,
    presets and match bounds): `option_value`'s inverse."""
    kind = value.WhichOneof("kind")
    if kind == "set_value":
        return list(value.set_value.names)
    if kind is None:
        raise ValueError("an OptionValue without a value")
    result: OptionInput = getattr(value, kind)
    return result


def option_settings(options: Mapping[str, OptionInput]) -> list[options_pb2.OptionSetting]:
    """One OptionSetting per entry of `options`, in the mapping's order."""
    return [
        options_pb2.OptionSetting(name=name, value=option_value(v)) for name, v in options.items()
    ]


class CroupierClient:
    """A connection to one Croupier server (or load balancer).

    ``CroupierClient("host:port")`` opens an insecure channel and closes it in
    `close()` or at the end of a ``with`` block. A channel passed in
    (`channel=`, e.g. a secure one) belongs to the caller and is left open.
    `timeout` is the deadline of every call in seconds (None: no deadline).
    A channel the client opens retries a call answered UNAVAILABLE up to
    `retry_attempts` attempts in all (`channel_options`; 1: no retry) — safe,
    since every call is pure. Every method raises `CroupierError` when the
    call fails.
    """

    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        *,
        channel: grpc.Channel | None = None,
        timeout: float | None = 10.0,
        retry_attempts: int = DEFAULT_RETRY_ATTEMPTS,
    ) -> None:
        self.target = target
        self.timeout = timeout
        self._owns_channel = channel is None
        if channel is None:
            channel = grpc.insecure_channel(target, options=channel_options(retry_attempts))
        self._channel = channel
        self._stub = service_pb2_grpc.CroupierServiceStub(self._channel)

    def __enter__(self) -> CroupierClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the channel if this client opened it."""
        if self._owns_channel:
            self._channel.close()

    def _call(self, rpc: str, request: Any, response_type: type[_Response]) -> _Response:
        try:
            response = getattr(self._stub, rpc)(request, timeout=self.timeout)
        except grpc.RpcError as error:
            raise CroupierError.from_rpc_error(rpc, error) from error
        assert isinstance(response, response_type)
        return response

    def list_games(self) -> list[options_pb2.GameDescriptor]:
        """Every game the server knows, with its option catalogue and presets."""
        response = self._call(
            "ListGames", service_pb2.ListGamesRequest(), service_pb2.ListGamesResponse
        )
        return list(response.games)

    def new_game(
        self,
        game: str,
        *,
        preset: str = "",
        seat_count: int,
        seed: int,
        options: Mapping[str, OptionInput] | None = None,
        seat_names: Sequence[str] = (),
        seal: bool = False,
        match_id: str = "",
    ) -> service_pb2.NewGameResponse:
        """Deal the first deal of a new match.

        `preset` empty means the game's default preset; `options` override it
        by name (see `option_value` for the accepted Python types). `seal`
        asks for the state sealed, bound to `match_id` (a server with sealing
        keys; `state_of` reads the answer's state either way).
        """
        request = service_pb2.NewGameRequest(
            game=game,
            preset=preset,
            options=option_settings(options or {}),
            seat_count=seat_count,
            seat_names=list(seat_names),
            seed=seed,
            seal=seal,
            match_id=match_id,
        )
        return self._call("NewGame", request, service_pb2.NewGameResponse)

    def apply(
        self,
        state: State,
        move: game_pb2.Move,
        validate_only: bool = False,
        *,
        next_legal_moves: bool = False,
        seat_events: bool = False,
        next_views: bool = False,
    ) -> service_pb2.ApplyMoveResponse:
        """Check `move` and, when legal (and not `validate_only`), play it.

        An illegal move is an answer, not an error: `accepted` is false and
        `rejection` says which rule forbids it. `next_legal_moves` also asks
        for the legal moves of every acting seat of the next state (one call
        per move); `next_views` for their views; `seat_events` for each
        seat's events as it may see them.
        """
        request = service_pb2.ApplyMoveRequest(
            **_state_field(state),
            move=move,
            validate_only=validate_only,
            next_legal_moves=next_legal_moves,
            seat_events=seat_events,
            next_views=next_views,
        )
        return self._call("ApplyMove", request, service_pb2.ApplyMoveResponse)

    def default_move(self, state: State, seat: int) -> service_pb2.LegalMove:
        """The move `seat` is deemed to make when its clock runs out."""
        request = service_pb2.DefaultMoveRequest(**_state_field(state), seat=seat)
        return self._call("DefaultMove", request, service_pb2.DefaultMoveResponse).move

    def legal_moves(self, state: State, seat: int) -> list[service_pb2.LegalMove]:
        """Every legal move of `seat`, with its notation, in the server's canonical order."""
        request = service_pb2.ListLegalMovesRequest(**_state_field(state), seat=seat)
        return list(self._call("ListLegalMoves", request, service_pb2.ListLegalMovesResponse).moves)

    def view(self, state: State, seat: int) -> game_pb2.View:
        """What `seat` may see of `state` (no seed; hidden cards only counted)."""
        request = service_pb2.GetViewRequest(**_state_field(state), seat=seat)
        return self._call("GetView", request, service_pb2.GetViewResponse).view

    def next_deal(self, state: State) -> service_pb2.NextDealResponse:
        """Start the next deal of a match whose last deal is over."""
        request = service_pb2.NextDealRequest(**_state_field(state))
        return self._call("NextDeal", request, service_pb2.NextDealResponse)

    def analyse_hand(self, state: State, seat: int) -> service_pb2.AnalyseHandResponse:
        """The hand analysis a game offers for `seat` (Scala 40: the best
        opening its hand holds); a game that offers none is FAILED_PRECONDITION."""
        request = service_pb2.AnalyseHandRequest(**_state_field(state), seat=seat)
        return self._call("AnalyseHand", request, service_pb2.AnalyseHandResponse)

    def apply_batch(
        self, items: Sequence[service_pb2.ApplyMoveRequest]
    ) -> list[service_pb2.ApplyMoveResult]:
        """Several independent ApplyMove calls in one: one result per item, in
        order; an item the server refuses carries its error in its result and
        does not fail the others."""
        request = service_pb2.ApplyMoveBatchRequest(items=list(items))
        return list(
            self._call("ApplyMoveBatch", request, service_pb2.ApplyMoveBatchResponse).results
        )
