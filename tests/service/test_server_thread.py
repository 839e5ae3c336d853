"""ServerThread (the in-process server of tests and tools) closes what it
opens: its event loop was never closed, and the collector's "unclosed event
loop" ResourceWarning then surfaced in whatever test was running (PettingZoo's
api_test, which records every warning, failed on it under another order)."""

from __future__ import annotations

import gc
import socket
import warnings

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread


def _unclosed_loops_after(run) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        run()
        gc.collect()
    return [str(w.message) for w in caught if "event loop" in str(w.message)]


def test_a_stopped_server_thread_leaves_no_open_event_loop() -> None:
    def serve_one_check() -> None:
        server = ServerThread(ServerConfig(port=0, grace=0.0))
        with server as port, grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
            assert answer.status == health_pb2.HealthCheckResponse.SERVING
        assert server._loop is not None and server._loop.is_closed()

    assert _unclosed_loops_after(serve_one_check) == []


def test_a_server_thread_that_fails_to_start_closes_its_loop_and_stops_quietly() -> None:
    def fail_to_start() -> None:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            server = ServerThread(ServerConfig(port=taken.getsockname()[1], grace=0.0))
            with pytest.raises(OSError, match="cannot listen on"):
                server.start()
        server.stop()  # after a failed start: nothing to stop, no error
        ServerThread(ServerConfig(port=0)).stop()  # never started: the same

    assert _unclosed_loops_after(fail_to_start) == []
