"""The table `croupier play` plays on: the engine in-process, or a server.

Both answer the same few calls with the contract's messages, so the game
loop (play.py) is written once. In-process, the calls are the engine's own
functions (croupier.engine.api), the answers the server would give; through
`--target`, they are RPCs of a running server (croupier_client). Either way
the events a person is shown are their seat's copies: ApplyMove's
`seat_events`, and NewGame's and NextDeal's events redacted the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from croupier.engine import api
from croupier.engine.events import redacted
from croupier.engine.options import option_settings
from croupier.v1 import game_pb2, options_pb2, service_pb2


class TableError(Exception):
    """A call the table refused (a bad option, an unreachable server): the
    message says what, for the person at the terminal."""


class Table(Protocol):
    """The calls of one match, whichever engine answers them."""

    where: str  # "in-process" or the server's address

    def games(self) -> list[options_pb2.GameDescriptor]: ...

    def new_game(
        self, game: str, preset: str, seats: int, seed: int, options: Mapping[str, Any]
    ) -> service_pb2.NewGameResponse: ...

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[service_pb2.LegalMove]: ...

    def view(self, state: game_pb2.GameState, seat: int) -> game_pb2.View: ...

    def apply(
        self, state: game_pb2.GameState, move: game_pb2.Move, *, validate_only: bool = False
    ) -> service_pb2.ApplyMoveResponse: ...

    def next_deal(self, state: game_pb2.GameState) -> service_pb2.NextDealResponse: ...

    def close(self) -> None: ...


class LocalTable:
    """The engine in-process: the server's answers without a server."""

    where = "in-process"

    def games(self) -> list[options_pb2.GameDescriptor]:
        return list(api.list_games(service_pb2.ListGamesRequest()).games)

    def new_game(
        self, game: str, preset: str, seats: int, seed: int, options: Mapping[str, Any]
    ) -> service_pb2.NewGameResponse:
        request = service_pb2.NewGameRequest(
            game=game,
            preset=preset,
            seat_count=seats,
            seed=seed,
            options=option_settings(options),
        )
        return _local(api.new_game, request)

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[service_pb2.LegalMove]:
        request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
        return list(api.list_legal_moves(request, trusted=True).moves)

    def view(self, state: game_pb2.GameState, seat: int) -> game_pb2.View:
        return api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view

    def apply(
        self, state: game_pb2.GameState, move: game_pb2.Move, *, validate_only: bool = False
    ) -> service_pb2.ApplyMoveResponse:
        # Not trusted: a move typed by a person is checked like a client's.
        return _local(api.apply_move_on, state, move, validate_only=validate_only, seat_events=True)

    def next_deal(self, state: game_pb2.GameState) -> service_pb2.NextDealResponse:
        return api.next_deal(service_pb2.NextDealRequest(state=state))

    def close(self) -> None:
        pass


def _local(call: Any, *args: Any, **kwargs: Any) -> Any:
    """An engine call, its InvalidInput as a TableError with the field at fault."""
    from croupier.engine.errors import InvalidInput

    try:
        return call(*args, **kwargs)
    except InvalidInput as error:
        raise TableError(str(error)) from error


class RemoteTable:
    """A running Croupier server, through the Python client."""

    def __init__(self, target: str) -> None:
        from croupier_client.client import CroupierClient

        self.where = target
        self._client = CroupierClient(target, timeout=10.0)

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        from croupier_client.client import CroupierError

        try:
            return getattr(self._client, name)(*args, **kwargs)
        except CroupierError as error:
            raise TableError(str(error)) from error

    def games(self) -> list[options_pb2.GameDescriptor]:
        return self._call("list_games")  # type: ignore[no-any-return]

    def new_game(
        self, game: str, preset: str, seats: int, seed: int, options: Mapping[str, Any]
    ) -> service_pb2.NewGameResponse:
        return self._call(  # type: ignore[no-any-return]
            "new_game", game, preset=preset, seat_count=seats, seed=seed, options=dict(options)
        )

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[service_pb2.LegalMove]:
        return self._call("legal_moves", state, seat)  # type: ignore[no-any-return]

    def view(self, state: game_pb2.GameState, seat: int) -> game_pb2.View:
        return self._call("view", state, seat)  # type: ignore[no-any-return]

    def apply(
        self, state: game_pb2.GameState, move: game_pb2.Move, *, validate_only: bool = False
    ) -> service_pb2.ApplyMoveResponse:
        return self._call(  # type: ignore[no-any-return]
            "apply", state, move, validate_only=validate_only, seat_events=True
        )

    def next_deal(self, state: game_pb2.GameState) -> service_pb2.NextDealResponse:
        return self._call("next_deal", state)  # type: ignore[no-any-return]

    def close(self) -> None:
        self._client.close()


def events_for(
    seat: int,
    events: Sequence[game_pb2.Event],
    seat_events: Sequence[game_pb2.SeatEvents] = (),
) -> list[game_pb2.Event]:
    """The events as `seat` may see them: its copy in `seat_events` when the
    answer has one (ApplyMove's), else each event redacted for it."""
    for entry in seat_events:
        if entry.seat == seat:
            return list(entry.events)
    return [redacted(event, seat) for event in events]
