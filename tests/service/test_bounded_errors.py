"""Errors are bounded whatever raised them (issue 7, item 4): every quoted text
is cut with an ellipsis, at most a few violations are listed and the rest
counted, a whole error fits in 8 KB of trailers (so a client with grpc's
default metadata limit reads it), and log lines are bounded too."""

from __future__ import annotations

import base64
import json

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status
from serving import Serve, open_channel, positions

from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.service.errors import (
    ELLIPSIS,
    MAX_ERROR_BYTES,
    MAX_MESSAGE_BYTES,
    MAX_VIOLATIONS,
    bounded,
    item_error,
    status_for,
)
from croupier.v1 import service_pb2, service_pb2_grpc

Stub = service_pb2_grpc.CroupierServiceStub
HUGE = 1_000_000


def _invalid(violations: list[tuple[str, str]]) -> InvalidInput:
    return InvalidInput(*violations[0], *violations[1:])


def _percent_encoded(text: str) -> int:
    """Bytes of `text` in grpc-message (non-printable ASCII as %XX)."""
    return sum(1 if 0x20 <= b <= 0x7E and b != 0x25 else 3 for b in text.encode())


def _wire_bytes(status: status_pb2.Status) -> int:
    """What the status takes in the trailers: grpc-message percent-encoded,
    grpc-status-details-bin base64-encoded, and their names."""
    details = base64.b64encode(status.SerializeToString())
    return (
        len("grpc-message")
        + _percent_encoded(status.message)
        + len("grpc-status-details-bin")
        + len(details)
    )


def test_a_text_is_cut_by_its_utf8_bytes_with_an_ellipsis_never_inside_a_character() -> None:
    assert bounded("short", 10) == "short"
    assert bounded("x" * 10, 10) == "x" * 10
    cut = bounded("x" * 11, 10)
    assert cut.endswith(ELLIPSIS) and len(cut.encode()) <= 10
    for text in ("ж" * 1000, "🂡" * 1000, "a" + "ж" * 1000):
        cut = bounded(text, 101)
        assert cut.endswith(ELLIPSIS) and len(cut.encode()) <= 101
        assert text.startswith(cut.removesuffix(ELLIPSIS))


@pytest.mark.parametrize("letter", ["x", "ж"])
def test_many_huge_violations_make_a_bounded_status(letter: str) -> None:
    error = _invalid([(f"state.hands[{i}].{letter * 5000}", letter * 5000) for i in range(1000)])
    status, internal = status_for(error)
    assert not internal
    assert len(status.message.encode()) <= MAX_MESSAGE_BYTES
    [detail] = status.details
    bad_request = error_details_pb2.BadRequest()
    assert detail.Unpack(bad_request)
    violations = bad_request.field_violations
    assert len(violations) == MAX_VIOLATIONS + 1
    assert violations[-1].description == f"{ELLIPSIS} and {1000 - MAX_VIOLATIONS} more"
    assert violations[-1].field == "state"  # what the rest have in common
    assert all(
        len(v.field.encode()) <= 100 and len(v.description.encode()) <= 200 for v in violations
    )
    assert _wire_bytes(status) <= MAX_ERROR_BYTES


def test_other_errors_and_item_errors_are_bounded_alike() -> None:
    status, _ = status_for(FailedPrecondition("schema " + "9" * HUGE))
    assert len(status.message.encode()) <= MAX_MESSAGE_BYTES
    into = service_pb2.ItemError()
    item_error(_invalid([("f" * HUGE, "d" * HUGE)] * 50), into)
    assert len(into.field_violations) == MAX_VIOLATIONS + 1
    assert into.ByteSize() <= MAX_ERROR_BYTES


def _checked_wire_error(caught: pytest.ExceptionInfo[grpc.RpcError], field: str) -> None:
    error = caught.value
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    assert _wire_bytes(status) <= MAX_ERROR_BYTES
    assert status.message.startswith(f"{field}: unknown")
    assert ELLIPSIS in status.message


def test_a_megabyte_name_gets_a_bounded_error_that_a_default_client_reads(stub: Stub) -> None:
    # `stub` has grpc's default metadata limits: an unbounded error would not
    # even reach it ("metadata size exceeds soft limit").
    requests = {
        "game": service_pb2.NewGameRequest(game="g" * HUGE, preset="hd", seat_count=3),
        "preset": service_pb2.NewGameRequest(game="hundred_and_one", preset="p" * HUGE),
    }
    for field, request in requests.items():
        with pytest.raises(grpc.RpcError) as caught:
            stub.NewGame(request, timeout=10)
        _checked_wire_error(caught, field)

    item = positions(1)[0]
    item.state.game = "g" * HUGE
    with pytest.raises(grpc.RpcError) as caught:
        stub.ApplyMove(item, timeout=10)
    _checked_wire_error(caught, "state.game")
    [result] = stub.ApplyMoveBatch(
        service_pb2.ApplyMoveBatchRequest(items=[item]), timeout=10
    ).results
    assert result.error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert result.error.ByteSize() <= MAX_ERROR_BYTES


def test_log_lines_stay_bounded_for_a_megabyte_name() -> None:
    with Serve("--log-level", "info") as server, open_channel(server.port) as channel:
        request = service_pb2.NewGameRequest(game="g" * HUGE, preset="hd", seat_count=3)
        metadata = (("x-request-id", "r" * 4000),)
        with pytest.raises(grpc.RpcError):
            Stub(channel).NewGame(request, metadata=metadata, timeout=10)
        assert server.stop() == 0, server.log()
    [line] = [line for line in server.lines if '"rpc"' in line and "NewGame" in line]
    assert len(line.encode()) < 8 * 1024, len(line)
    event = json.loads(line)
    assert event["code"] == "INVALID_ARGUMENT"
    assert len(event["request_id"]) == 128
