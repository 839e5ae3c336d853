"""CroupierClient retries a call answered UNAVAILABLE through grpc's
service-config retry policy (every Croupier call is pure), and nothing else."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest

from croupier.v1 import service_pb2
from croupier_client.client import (
    CroupierClient,
    CroupierError,
    channel_options,
    retry_service_config,
)

METHOD = "/croupier.v1.CroupierService/ListGames"


class Flaky:
    """ListGames that answers `code` to the first `failures` calls, then OK."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.attempts = 0
        self.failures = 0
        self.code = grpc.StatusCode.UNAVAILABLE

    def __call__(
        self, request: service_pb2.ListGamesRequest, context: grpc.ServicerContext
    ) -> service_pb2.ListGamesResponse:
        with self.lock:
            self.attempts += 1
            fail = self.attempts <= self.failures
        if fail:
            context.abort(self.code, "going away")
        return service_pb2.ListGamesResponse()


@pytest.fixture
def flaky() -> Iterator[tuple[Flaky, str]]:
    handler = Flaky()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    rpc = grpc.unary_unary_rpc_method_handler(
        handler,
        request_deserializer=service_pb2.ListGamesRequest.FromString,
        response_serializer=service_pb2.ListGamesResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("croupier.v1.CroupierService", {"ListGames": rpc}),)
    )
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield handler, f"127.0.0.1:{port}"
    finally:
        server.stop(0)


def test_unavailable_is_retried_until_an_answer(flaky: tuple[Flaky, str]) -> None:
    handler, target = flaky
    handler.failures = 4
    with CroupierClient(target) as client:
        assert client.list_games() == []
    assert handler.attempts == 5


def test_retries_stop_at_the_attempt_limit(flaky: tuple[Flaky, str]) -> None:
    handler, target = flaky
    handler.failures = 10
    with CroupierClient(target, retry_attempts=3) as client, pytest.raises(CroupierError) as e:
        client.list_games()
    assert e.value.code == grpc.StatusCode.UNAVAILABLE
    assert handler.attempts == 3


def test_no_retry_when_asked_or_for_another_code(flaky: tuple[Flaky, str]) -> None:
    handler, target = flaky
    handler.failures = 1
    with CroupierClient(target, retry_attempts=1) as client, pytest.raises(CroupierError):
        client.list_games()
    assert handler.attempts == 1
    handler.attempts, handler.code = 0, grpc.StatusCode.INTERNAL
    with CroupierClient(target) as client, pytest.raises(CroupierError) as e:
        client.list_games()
    assert e.value.code == grpc.StatusCode.INTERNAL
    assert handler.attempts == 1


def test_the_policy_covers_croupier_and_health_and_grpc_limits() -> None:
    config = json.loads(retry_service_config())
    (method,) = config["methodConfig"]
    assert {"service": "croupier.v1.CroupierService"} in method["name"]
    assert {"service": "grpc.health.v1.Health"} in method["name"]
    assert method["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]
    assert method["retryPolicy"]["maxAttempts"] == 5
    assert ("grpc.enable_retries", 0) in channel_options(1)
    for attempts in (0, 6):
        with pytest.raises(ValueError):
            channel_options(attempts)
