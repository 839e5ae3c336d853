"""One bad item never kills a batch or a stream (issue 7, item 3): whatever the
engine raises for one item — not only the errors it means to raise — that
item answers an ItemError (INTERNAL for a bug, logged once with its
traceback and counted), and every other item is answered as usual."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from prometheus_client import REGISTRY
from serving import GAME, positions
from structlog.testing import capture_logs

from croupier.engine import api
from croupier.service.errors import INTERNAL_MESSAGE
from croupier.v1 import service_pb2, service_pb2_grpc

Stub = service_pb2_grpc.CroupierServiceStub
INTERNAL = grpc.StatusCode.INTERNAL.value[0]


@pytest.fixture
def poisoned(monkeypatch: pytest.MonkeyPatch) -> Iterator[service_pb2.ApplyMoveRequest]:
    """An ApplyMove request on which the engine hits a bug (ZeroDivisionError);
    every other request is applied as usual."""
    poison = positions(4, seed=21)[3]
    apply_move = api.apply_move

    def buggy(request: service_pb2.ApplyMoveRequest, *args: object, **kwargs: object) -> object:
        if request.state == poison.state:
            return 1 // 0
        return apply_move(request, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(api, "apply_move", buggy)
    yield poison


def _internal_moves() -> float:
    labels = {"game": GAME, "outcome": "internal"}
    return REGISTRY.get_sample_value("croupier_moves_total", labels) or 0.0


def _check_results(
    results: list[service_pb2.ApplyMoveResult], good: list[service_pb2.ApplyMoveRequest]
) -> None:
    first, bad, last = results
    assert first.response.SerializeToString() == api.apply_move(good[0]).SerializeToString()
    assert last.response.SerializeToString() == api.apply_move(good[1]).SerializeToString()
    assert bad.WhichOneof("outcome") == "error"
    assert (bad.error.code, bad.error.message) == (INTERNAL, INTERNAL_MESSAGE)
    assert not bad.error.field_violations


def _bug_logged_once(logs: list[dict[str, object]]) -> None:
    [entry] = [e for e in logs if e["event"] == "item_internal_error"]
    assert entry["log_level"] == "error"
    assert isinstance(entry["exc_info"], ZeroDivisionError)  # the cause, with its traceback
    assert entry["item"] == 1
    # The call itself answered OK.
    assert not [e for e in logs if e["event"] == "rpc" and e.get("outcome") == "error"]


def test_a_batch_item_that_hits_a_bug_fails_alone(
    stub: Stub, poisoned: service_pb2.ApplyMoveRequest
) -> None:
    good = positions(2, seed=21)
    before = _internal_moves()
    batch = service_pb2.ApplyMoveBatchRequest(items=[good[0], poisoned, good[1]])
    with capture_logs() as logs:
        response = stub.ApplyMoveBatch(batch, timeout=10)
    _check_results(list(response.results), good)
    _bug_logged_once(logs)
    assert _internal_moves() - before == 1


def test_a_stream_item_that_hits_a_bug_fails_alone_and_the_stream_goes_on(
    stub: Stub, poisoned: service_pb2.ApplyMoveRequest
) -> None:
    good = positions(2, seed=21)
    before = _internal_moves()
    requests = [service_pb2.ApplyMoveStreamRequest(item=i) for i in (good[0], poisoned, good[1])]
    with capture_logs() as logs:
        call = stub.ApplyMoveStream(iter(requests), timeout=10)
        responses = list(call)
    assert call.code() == grpc.StatusCode.OK
    _check_results([r.result for r in responses], good)
    _bug_logged_once(logs)
    assert _internal_moves() - before == 1


def test_a_unary_move_that_hits_a_bug_is_internal_and_counted(
    stub: Stub, poisoned: service_pb2.ApplyMoveRequest
) -> None:
    before = _internal_moves()
    with capture_logs() as logs, pytest.raises(grpc.RpcError) as caught:
        stub.ApplyMove(poisoned, timeout=5)
    assert caught.value.code() == grpc.StatusCode.INTERNAL
    assert caught.value.details() == INTERNAL_MESSAGE
    [entry] = [e for e in logs if e["event"] == "rpc"]
    assert (entry["code"], entry["log_level"]) == ("INTERNAL", "error")
    assert isinstance(entry["exc_info"], ZeroDivisionError)
    assert _internal_moves() - before == 1
