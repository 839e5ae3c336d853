"""Building and running one gRPC server process (grpc.aio).

`create_server` builds a server (CroupierService, health, reflection) without
starting it; `run_worker` runs one until told to stop; `ServerThread` runs
one in a background thread for tests and in-process tools. The multi-process
launcher is `supervisor.py`.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from types import TracebackType
from typing import Any

import grpc
import structlog
from google.protobuf.internal import api_implementation
from grpc_health.v1 import health, health_pb2
from grpc_reflection.v1alpha import reflection

from croupier.service import handlers
from croupier.service.config import ServerConfig
from croupier.service.metrics import metrics
from croupier.service.observe import Observer

SERVICE_NAME = handlers.SERVICE_NAME
# The names health answers for: "" is the whole server (what Kubernetes probes).
HEALTH_CHECKED = ("", SERVICE_NAME)

_log = structlog.get_logger("croupier.service")


def create_server(config: ServerConfig) -> tuple[grpc.aio.Server, int]:
    """A server, not yet started, serving CroupierService, health and reflection
    on config.host:config.port; returns it with the bound port (the one the
    system picked when config.port is 0). Raises OSError when it cannot bind."""
    server, port, _ = build(config)
    return server, port


def build(config: ServerConfig) -> tuple[grpc.aio.Server, int, Any]:
    """`create_server`, also returning the health servicer (for shutdown)."""
    server = grpc.aio.server(
        options=[
            ("grpc.so_reuseport", int(config.reuse_port)),
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", config.max_message_bytes),
        ],
        # Beyond this many calls in flight grpc answers RESOURCE_EXHAUSTED at
        # once instead of queueing without bound.
        maximum_concurrent_rpcs=config.max_concurrent_rpcs,
    )
    health_servicer = health.aio.HealthServicer()
    observer = Observer(metrics(), config.log_level)
    handlers.register(server, config, observer, health_servicer)
    reflection.enable_server_reflection(
        (SERVICE_NAME, handlers.HEALTH_SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    address = _address(config.host, config.port)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as error:  # grpc's way of saying the bind failed
        raise OSError(f"cannot listen on {address}: {error}") from error
    if port == 0:  # older grpc versions report a failed bind this way
        raise OSError(f"cannot listen on {address}")
    return server, port, health_servicer


async def _mark_serving(health_servicer: Any) -> None:
    for name in HEALTH_CHECKED:
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)


async def run_worker(config: ServerConfig, stop: asyncio.Event) -> int:
    """Serve until `stop` is set, then stop gracefully: health NOT_SERVING,
    `config.drain` seconds for balancers to notice, then new calls are refused
    and those in flight get `config.grace` seconds. Returns the exit code."""
    try:
        server, port, health_servicer = build(config)
    except OSError as error:
        _log.error("listen_failed", host=config.host, port=config.port, error=str(error))
        return 1
    await server.start()
    await _mark_serving(health_servicer)
    backend = api_implementation.Type()
    # The pure-Python protobuf backend is 11-240x slower (DESIGN.md): say so loudly.
    report = _log.info if backend == "upb" else _log.warning
    report(
        "worker_listening", host=config.host, port=port, pid=os.getpid(), protobuf_backend=backend
    )
    await stop.wait()
    _log.info("worker_stopping", pid=os.getpid(), grace_seconds=config.grace)
    await health_servicer.enter_graceful_shutdown()
    if config.drain:
        await asyncio.sleep(config.drain)
    await server.stop(config.grace)
    _log.info("worker_stopped", pid=os.getpid())
    return 0


def worker_main(config: ServerConfig) -> int:
    """A worker process's body: serve until SIGTERM or SIGINT."""

    async def main() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        stop_signals = (signal.SIGTERM, signal.SIGINT)
        for sig in stop_signals:
            loop.add_signal_handler(sig, stop.set)
        # The supervisor blocked these around the fork; grpc's threads are
        # created after this, so they inherit the unblocked mask.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)
        return await run_worker(config, stop)

    return asyncio.run(main())


class ServerThread:
    """A server on its own event loop in a background thread (tests, tools).

    >>> with ServerThread(ServerConfig(port=0)) as port: ...
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="croupier-server", daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        try:
            server, self.port, health_servicer = build(self.config)
            await server.start()
            await _mark_serving(health_servicer)
        except BaseException as error:  # surfaced to the caller of start()
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        await self._stop.wait()
        await health_servicer.enter_graceful_shutdown()
        await server.stop(self.config.grace)

    def start(self) -> int:
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self.port

    def stop(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join()

    def __enter__(self) -> int:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _address(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        return f"[{host}]:{port}"  # an IPv6 literal
    return f"{host}:{port}"
