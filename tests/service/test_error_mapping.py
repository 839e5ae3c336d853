"""A bug in a handler answers INTERNAL, logs its traceback, and the server
keeps serving; engine errors map to their codes in one place."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import code_pb2, error_details_pb2
from structlog.testing import capture_logs

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.service.errors import INTERNAL_MESSAGE, invalid_argument_status
from croupier.v1 import service_pb2, service_pb2_grpc


def test_an_unexpected_exception_is_internal_and_the_server_survives(
    stub: service_pb2_grpc.CroupierServiceStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(request: service_pb2.ListGamesRequest) -> service_pb2.ListGamesResponse:
        raise RuntimeError("secret detail of a bug")

    monkeypatch.setattr(api, "list_games", broken)
    with capture_logs() as logs, pytest.raises(grpc.RpcError) as caught:
        stub.ListGames(service_pb2.ListGamesRequest(), timeout=5)
    assert caught.value.code() == grpc.StatusCode.INTERNAL
    assert caught.value.details() == INTERNAL_MESSAGE
    [entry] = [e for e in logs if e["event"] == "rpc" and e.get("outcome") == "error"]
    assert (entry["rpc"], entry["code"], entry["log_level"]) == ("ListGames", "INTERNAL", "error")
    assert isinstance(entry["exc_info"], RuntimeError)  # the cause, with its traceback

    monkeypatch.undo()
    assert stub.ListGames(service_pb2.ListGamesRequest(), timeout=5).games


def test_every_violation_becomes_a_field_violation() -> None:
    error = InvalidInput("state.current_seat", "seat 7 does not exist", ("move.seat", "seat 9"))
    status = invalid_argument_status(error)
    assert status.code == code_pb2.INVALID_ARGUMENT
    assert status.message == str(error)
    [detail] = status.details
    bad_request = error_details_pb2.BadRequest()
    assert detail.Unpack(bad_request)
    assert [(v.field, v.description) for v in bad_request.field_violations] == [
        ("state.current_seat", "seat 7 does not exist"),
        ("move.seat", "seat 9"),
    ]
