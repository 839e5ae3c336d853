"""The server's limits, each answered with its status code: the message size,
the batch size, the calls and the streams in flight (two budgets, and health
in neither), and the caller's deadline (no work after it). Each limit gets its
own in-process server."""

from __future__ import annotations

import contextlib
import queue
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY
from serving import (
    BIG_MESSAGES,
    GAME,
    SERVICE,
    SERVING,
    from_queue,
    poll,
    positions,
    slow_batch,
)

from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier.v1 import service_pb2, service_pb2_grpc

Stub = service_pb2_grpc.CroupierServiceStub
BATCH = dict(grpc_type="unary", grpc_service=SERVICE, grpc_method="ApplyMoveBatch")


@contextlib.contextmanager
def served(**limits: Any) -> Iterator[grpc.Channel]:
    """A channel to a fresh in-process server with these config values."""
    config = ServerConfig(port=0, **{"grace": 0.0, **limits})
    with (
        ServerThread(config) as port,
        grpc.insecure_channel(f"127.0.0.1:{port}", options=BIG_MESSAGES) as channel,
    ):
        yield channel


@contextlib.contextmanager
def limited(**limits: Any) -> Iterator[Stub]:
    """A stub of a fresh in-process server with these config values."""
    with served(**limits) as channel:
        yield service_pb2_grpc.CroupierServiceStub(channel)


def _batch(count: int) -> service_pb2.ApplyMoveBatchRequest:
    return service_pb2.ApplyMoveBatchRequest(items=positions(count))


def test_a_request_over_the_message_size_limit_is_resource_exhausted() -> None:
    big = _batch(20)
    assert big.ByteSize() > 2000
    with limited(max_message_bytes=2000) as stub:
        with pytest.raises(grpc.RpcError) as caught:
            stub.ApplyMoveBatch(big, timeout=5)
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        # Smaller messages both ways still pass.
        small = positions(1)[0]
        assert small.ByteSize() < 2000
        assert stub.ApplyMove(small, timeout=5).accepted


def test_a_response_over_the_message_size_limit_is_resource_exhausted() -> None:
    # The game catalogue is far bigger than its (empty) request.
    with limited(max_message_bytes=2000) as stub:
        with pytest.raises(grpc.RpcError) as caught:
            stub.ListGames(service_pb2.ListGamesRequest(), timeout=5)
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_a_response_over_the_message_size_limit_is_counted_as_resource_exhausted() -> None:
    games = dict(grpc_type="unary", grpc_service=SERVICE, grpc_method="ListGames")
    before = {
        code: _sample("grpc_server_handled_total", **games, grpc_code=code)
        for code in ("OK", "RESOURCE_EXHAUSTED")
    }
    with limited(max_message_bytes=2000) as stub, pytest.raises(grpc.RpcError):
        stub.ListGames(service_pb2.ListGamesRequest(), timeout=5)
    after = {code: _sample("grpc_server_handled_total", **games, grpc_code=code) for code in before}
    assert (
        after["OK"] - before["OK"],
        after["RESOURCE_EXHAUSTED"] - before["RESOURCE_EXHAUSTED"],
    ) == (
        0,
        1,
    )


def test_a_batch_over_the_batch_limit_is_resource_exhausted() -> None:
    with limited(max_batch=5) as stub:
        with pytest.raises(grpc.RpcError) as caught:
            stub.ApplyMoveBatch(_batch(6), timeout=5)
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "6 items" in caught.value.details() and "at most 5" in caught.value.details()
        response = stub.ApplyMoveBatch(_batch(5), timeout=5)
        assert len(response.results) == 5
        assert all(result.response.accepted for result in response.results)


def test_unary_calls_over_the_limit_are_resource_exhausted_and_health_still_answers() -> None:
    # At least 2 s of engine work: it is still running while the rest happens.
    batch = slow_batch(2.0)
    second = positions(2)[1]
    limits = dict(max_batch=len(batch.items), max_message_bytes=256 * 1024 * 1024)
    with served(max_concurrent_rpcs=1, **limits) as channel:
        stub = Stub(channel)
        started = _sample("grpc_server_started_total", **BATCH)
        future = stub.ApplyMoveBatch.future(batch, timeout=60)
        try:
            poll(
                lambda: _sample("grpc_server_started_total", **BATCH) > started,
                10,
                "the batch to start",
            )
            with pytest.raises(grpc.RpcError) as caught:
                stub.ApplyMove(second, timeout=5)
            assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert not future.done(), "the batch ended before the premise was checked"
            # Health is in no budget of game calls (issue 7, item 6).
            assert _health(channel) == SERVING
        finally:
            future.cancel()

        # The budget is back once the batch has ended (here: cancelled).
        def served_again() -> bool:
            try:
                return Stub(channel).ApplyMove(second, timeout=5).accepted
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                return False

        poll(served_again, 10, "the limit to free up once the batch ended")


def test_streams_have_a_budget_of_their_own() -> None:
    first, second = positions(2)
    with served(max_streams=1, max_concurrent_rpcs=1) as channel:
        stub = Stub(channel)
        pending: queue.Queue[service_pb2.ApplyMoveStreamRequest | None] = queue.Queue()
        stream = stub.ApplyMoveStream(from_queue(pending), timeout=10)
        try:
            # One answer back: the stream is being served.
            pending.put(service_pb2.ApplyMoveStreamRequest(item=first))
            assert next(stream).result.response.accepted
            another = stub.ApplyMoveStream(
                iter([service_pb2.ApplyMoveStreamRequest(item=second)]), timeout=5
            )
            with pytest.raises(grpc.RpcError) as caught:
                list(another)
            assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            # An open stream takes nothing from unary calls or health.
            assert stub.ApplyMove(second, timeout=5).accepted
            assert _health(channel) == SERVING
        finally:
            pending.put(None)
        assert list(stream) == []
        assert stream.code() == grpc.StatusCode.OK


def _health(channel: grpc.Channel) -> int:
    request = health_pb2.HealthCheckRequest(service="")
    return health_pb2_grpc.HealthStub(channel).Check(request, timeout=5).status


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_batch_past_its_deadline_stops_applying_items() -> None:
    # At least 0.5 s of engine work, against a 0.05 s deadline.
    batch = slow_batch(0.5)
    count = len(batch.items)
    # A long grace: the server lets a started batch run for as long as it
    # wants, so only its own deadline check can stop it early.
    with limited(max_batch=count, max_message_bytes=256 * 1024 * 1024, grace=10.0) as stub:
        moves = _sample("croupier_moves_total", game=GAME, outcome="accepted")
        started = _sample("grpc_server_started_total", **BATCH)
        expired = _sample("grpc_server_handled_total", **BATCH, grpc_code="DEADLINE_EXCEEDED")
        with pytest.raises(grpc.RpcError) as caught:
            stub.ApplyMoveBatch(batch, timeout=0.05)
        assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    # The server has stopped (every call it took has ended): the counts are final.
    applied = _sample("croupier_moves_total", game=GAME, outcome="accepted") - moves
    assert applied < count
    # If the batch reached the handler (not a given when the deadline passes
    # in transit), the server ended it itself with DEADLINE_EXCEEDED.
    reached = _sample("grpc_server_started_total", **BATCH) - started
    assert reached in (0, 1)
    expired = _sample("grpc_server_handled_total", **BATCH, grpc_code="DEADLINE_EXCEEDED") - expired
    assert expired == reached
