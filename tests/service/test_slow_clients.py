"""Slow clients lock nobody out (issue 7, item 6): streams that stall hold
only the stream budget, never the one of unary calls nor health checks, and a
stream waiting too long for its next request is ended, freeing its slot."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY
from serving import SERVICE, SERVING, from_queue, open_channel, poll, positions

from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier.v1 import service_pb2, service_pb2_grpc

Stub = service_pb2_grpc.CroupierServiceStub
Pending = queue.Queue[service_pb2.ApplyMoveStreamRequest | None]
STREAM = dict(grpc_type="bidi_stream", grpc_service=SERVICE, grpc_method="ApplyMoveStream")


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def stalled() -> Iterator[list[tuple[Pending, grpc.Call]]]:
    """Streams opened by a test that send nothing more; cancelled at the end."""
    calls: list[tuple[Pending, grpc.Call]] = []
    yield calls
    for pending, call in calls:
        call.cancel()
        pending.put(None)  # frees grpc's thread that waits for the next request


def test_stalled_streams_lock_out_neither_health_nor_unary_calls(
    stalled: list[tuple[Pending, grpc.Call]],
) -> None:
    item = positions(1)[0]
    # Three times the worker's whole budget of calls, over several connections.
    config = ServerConfig(port=0, grace=0.0, max_concurrent_rpcs=4, max_streams=4)
    started = _sample("grpc_server_started_total", **STREAM)
    with ServerThread(config) as port:
        channels = [open_channel(port) for _ in range(3)]
        try:
            for channel in channels:
                for _ in range(4):
                    pending: Pending = queue.Queue()
                    call = Stub(channel).ApplyMoveStream(from_queue(pending, 60), timeout=60)
                    stalled.append((pending, call))
            poll(
                lambda: _sample("grpc_server_started_total", **STREAM) - started == 12,
                10,
                "every stalled stream to reach the server",
            )
            with open_channel(port) as fresh:
                health = health_pb2_grpc.HealthStub(fresh)
                for _ in range(5):
                    request = health_pb2.HealthCheckRequest(service="")
                    assert health.Check(request, timeout=5).status == SERVING
                    assert Stub(fresh).ApplyMove(item, timeout=5).accepted
        finally:
            for channel in channels:
                channel.close()


def test_a_stream_that_waits_too_long_for_its_next_request_is_ended(
    stalled: list[tuple[Pending, grpc.Call]],
) -> None:
    first, second = positions(2)
    config = ServerConfig(port=0, grace=0.0, max_streams=1, stream_idle_timeout=0.5)
    with ServerThread(config) as port, open_channel(port) as channel:
        stub = Stub(channel)
        pending: Pending = queue.Queue()
        call = stub.ApplyMoveStream(from_queue(pending, 60), timeout=30)
        stalled.append((pending, call))
        pending.put(service_pb2.ApplyMoveStreamRequest(item=first))
        assert next(call).result.response.accepted
        # … then nothing: the server ends the stream, not the client's deadline.
        with pytest.raises(grpc.RpcError) as caught:
            next(call)
        assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        # A whole sentence (it read "… waits at most that long for the next").
        assert caught.value.details() == (
            "no request for 0.5 s; a stream waits at most that long for its next request"
        )

        # Its slot is free again.
        def served() -> bool:
            requests = iter([service_pb2.ApplyMoveStreamRequest(item=second)])
            try:
                [answer] = stub.ApplyMoveStream(requests, timeout=5)
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                return False
            return answer.result.response.accepted

        poll(served, 10, "the stream's slot to free up")
