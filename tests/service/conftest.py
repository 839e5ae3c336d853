"""One real server on an ephemeral port and a real channel, shared by the
service tests; helpers to build states and read rich error details."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from croupier.engine import api
from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier.v1 import game_pb2, service_pb2, service_pb2_grpc

NEW_GAME = service_pb2.NewGameRequest(game="hundred_and_one", preset="hd", seat_count=3, seed=7)


@pytest.fixture(scope="session")
def server_port() -> Iterator[int]:
    with ServerThread(ServerConfig(port=0, grace=0.0)) as port:
        yield port


@pytest.fixture(scope="session")
def channel(server_port: int) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"127.0.0.1:{server_port}") as channel:
        yield channel


@pytest.fixture(scope="session")
def stub(channel: grpc.Channel) -> service_pb2_grpc.CroupierServiceStub:
    return service_pb2_grpc.CroupierServiceStub(channel)


@pytest.fixture(scope="session")
def _dealt_bytes() -> bytes:
    return api.new_game(NEW_GAME).state.SerializeToString()


@pytest.fixture
def dealt(_dealt_bytes: bytes) -> game_pb2.GameState:
    """A fresh copy of the first deal of a 3-seat HD game (seed 7): edit freely."""
    return game_pb2.GameState.FromString(_dealt_bytes)


@pytest.fixture(scope="session")
def legal_move() -> Callable[[game_pb2.GameState], game_pb2.Move]:
    """The first legal move of the current seat in a state."""

    def first(state: game_pb2.GameState) -> game_pb2.Move:
        request = service_pb2.ListLegalMovesRequest(state=state, seat=state.current_seat)
        moves = api.list_legal_moves(request).moves
        assert moves, "the current seat has no legal move"
        return moves[0].move

    return first


@pytest.fixture(scope="session")
def field_violations() -> Callable[[grpc.RpcError], list[tuple[str, str]]]:
    """Reads the (field, description) pairs of an error's BadRequest detail."""
    return _field_violations


def _field_violations(error: grpc.RpcError) -> list[tuple[str, str]]:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, "the error carries no google.rpc.Status"
    violations: list[tuple[str, str]] = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad_request = error_details_pb2.BadRequest()
            detail.Unpack(bad_request)
            violations.extend((v.field, v.description) for v in bad_request.field_violations)
    return violations
