"""Every call that reaches the server is counted once, with its real outcome,
and logged, however it ends (issue 7, item 8): cancelled by its client
(CANCELLED), past its deadline (DEADLINE_EXCEEDED, also for a stream), or
refused; the in-flight gauge comes back to where it was, and a stream cancelled
while the server writes to it logs no error."""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY
from serving import BIG_MESSAGES, SERVICE, from_queue, poll, positions, slow_batch
from structlog.testing import capture_logs

from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier.v1 import service_pb2, service_pb2_grpc

Stub = service_pb2_grpc.CroupierServiceStub
Pending = queue.Queue[service_pb2.ApplyMoveStreamRequest | None]
BATCH = dict(grpc_type="unary", grpc_service=SERVICE, grpc_method="ApplyMoveBatch")
STREAM = dict(grpc_type="bidi_stream", grpc_service=SERVICE, grpc_method="ApplyMoveStream")
SENT = 3000
CHECK = dict(grpc_type="unary", grpc_service="grpc.health.v1.Health", grpc_method="Check")


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def _handled(method: dict[str, str]) -> dict[str, float]:
    codes = ("OK", "CANCELLED", "DEADLINE_EXCEEDED", "NOT_FOUND", "UNKNOWN", "INTERNAL")
    return {c: _sample("grpc_server_handled_total", **method, grpc_code=c) for c in codes}


def _counted_once(before: dict[str, float], method: dict[str, str], code: str) -> None:
    """The call ended counted exactly once, under `code`."""

    def delta() -> dict[str, float]:
        after = _handled(method)
        return {c: after[c] - before[c] for c in after if after[c] != before[c]}

    poll(lambda: delta(), 10, "the call to be counted")
    assert delta() == {code: 1}


@pytest.fixture
def port() -> Iterator[int]:
    """The port of a fresh in-process server (large messages allowed)."""
    config = ServerConfig(port=0, grace=0.0, max_batch=200_000, max_message_bytes=256 * 1024 * 1024)
    with ServerThread(config) as port:
        yield port


@pytest.fixture
def channel(port: int) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=BIG_MESSAGES) as channel:
        yield channel


@pytest.fixture
def in_flight() -> Iterator[None]:
    """Checks that the in-flight gauge is back where it was after the test."""
    before = _sample("croupier_rpcs_in_flight")
    yield
    poll(lambda: _sample("croupier_rpcs_in_flight") == before, 10, "in-flight back to before")


def test_a_batch_its_client_cancels_is_counted_cancelled(
    channel: grpc.Channel, in_flight: None
) -> None:
    batch = slow_batch(2.0)  # still running when the cancel arrives
    before = _handled(BATCH)
    started = _sample("grpc_server_started_total", **BATCH)
    with capture_logs() as logs:
        future = Stub(channel).ApplyMoveBatch.future(batch, timeout=60)
        poll(lambda: _sample("grpc_server_started_total", **BATCH) > started, 10, "the batch")
        future.cancel()
        _counted_once(before, BATCH, "CANCELLED")
    [entry] = [e for e in logs if e["event"] == "rpc"]
    assert (entry["rpc"], entry["code"]) == ("ApplyMoveBatch", "CANCELLED")


def test_a_stream_cancelled_while_the_server_waits_is_counted_cancelled(
    channel: grpc.Channel, in_flight: None
) -> None:
    item = positions(1)[0]
    for _ in range(3):
        before = _handled(STREAM)
        pending: Pending = queue.Queue()
        call = Stub(channel).ApplyMoveStream(from_queue(pending), timeout=30)
        pending.put(service_pb2.ApplyMoveStreamRequest(item=item))
        assert next(call).result.response.accepted
        call.cancel()
        pending.put(None)
        _counted_once(before, STREAM, "CANCELLED")


def test_a_stream_past_its_deadline_is_counted_deadline_exceeded(
    channel: grpc.Channel, in_flight: None
) -> None:
    item = positions(1)[0]
    before = _handled(STREAM)
    pending: Pending = queue.Queue()
    call = Stub(channel).ApplyMoveStream(from_queue(pending), timeout=0.5)
    pending.put(service_pb2.ApplyMoveStreamRequest(item=item))
    assert next(call).result.response.accepted
    with pytest.raises(grpc.RpcError) as caught:
        next(call)  # nothing more is sent: the deadline passes
    pending.put(None)
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    _counted_once(before, STREAM, "DEADLINE_EXCEEDED")


def test_a_stream_cancelled_while_the_server_writes_logs_no_error(
    port: int, in_flight: None, caplog: pytest.LogCaptureFixture
) -> None:
    # Far more answers than the connection buffers (its window kept at 64 KB):
    # the client reads none, so the server is soon blocked writing.
    options = [("grpc.http2.bdp_probe", 0)]
    channel = grpc.insecure_channel(f"127.0.0.1:{port}", options=options)
    pending: Pending = queue.Queue()
    items = positions(1000)
    for i in range(SENT):
        pending.put(service_pb2.ApplyMoveStreamRequest(item=items[i % len(items)]))
    moves = dict(game="hundred_and_one", outcome="accepted")
    before = _handled(STREAM)
    with capture_logs() as logs, caplog.at_level(logging.WARNING):
        call = Stub(channel).ApplyMoveStream(from_queue(pending), timeout=60)
        applied = [-1.0, _sample("croupier_moves_total", **moves)]
        # Until the server stops applying moves (bounded): it waits to write.
        deadline = time.monotonic() + 20
        while applied[-1] != applied[-2] and time.monotonic() < deadline:
            time.sleep(0.2)
            applied.append(_sample("croupier_moves_total", **moves))
        call.cancel()
        pending.put(None)
        _counted_once(before, STREAM, "CANCELLED")
    assert applied[-1] - applied[1] < SENT, "every answer was sent: the premise failed"
    assert not [e for e in logs if e["log_level"] in ("error", "critical")], logs
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    channel.close()


def test_a_health_check_of_an_unknown_service_is_counted(
    channel: grpc.Channel, in_flight: None
) -> None:
    before = _handled(CHECK)
    request = health_pb2.HealthCheckRequest(service="no.such.Service")
    with pytest.raises(grpc.RpcError) as caught:
        health_pb2_grpc.HealthStub(channel).Check(request, timeout=5)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    _counted_once(before, CHECK, "NOT_FOUND")


class _Remaining:
    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds

    def time_remaining(self) -> float | None:
        return self.seconds


@pytest.mark.parametrize(
    ("remaining", "passed"), [(None, False), (-0.1, True), (0.0, True), (0.2, True), (1.0, False)]
)
def test_a_call_ending_at_its_deadline_by_the_servers_clock_counts_as_past_it(
    remaining: float | None, passed: bool
) -> None:
    # The client's cancel at its deadline arrives while the server's clock,
    # started when the headers arrived, still shows a little time left.
    from croupier.service.handlers import _deadline_passed

    assert _deadline_passed(_Remaining(remaining)) is passed
