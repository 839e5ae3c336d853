"""Building and running one gRPC server process (grpc.aio).

`create_server` builds a server (CroupierService, health, reflection) without
starting it; `run_worker` runs one until told to stop; `ServerThread` runs
one in a background thread for tests and in-process tools. The multi-process
launcher is `supervisor.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import threading
from dataclasses import dataclass
from types import TracebackType
from typing import Any, NoReturn

import grpc
import structlog
from google.protobuf.internal import api_implementation
from grpc_health.v1 import health, health_pb2
from grpc_reflection.v1alpha import reflection

from croupier.engine import registry
from croupier.service import handlers, listen, memory, security
from croupier.service.config import ServerConfig
from croupier.service.metrics import metrics
from croupier.service.observe import Observer

SERVICE_NAME = handlers.SERVICE_NAME
# The names health answers for: "" is the whole server (what Kubernetes probes).
HEALTH_CHECKED = ("", SERVICE_NAME)

_log = structlog.get_logger("croupier.service")


# Transport settings against clients that hold connections without using
# them (issue 7, item 6); grpc enforces them itself.
_TRANSPORT = (
    # Calls at once on one connection (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS):
    # one client cannot take a worker's whole budget over a single connection.
    ("grpc.max_concurrent_streams", 64),
    # Ping a connection that has been quiet this long, and drop it when the
    # ping is not answered in time: a vanished peer's calls end within ~80 s.
    ("grpc.keepalive_time_ms", 60_000),
    ("grpc.keepalive_timeout_ms", 20_000),
    # Clients may ping as often as every 10 s (also with no call open); more
    # often counts a strike, and two strikes close the connection.
    ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_ping_strikes", 2),
    # A connection without calls for 5 minutes is closed (GOAWAY; a client
    # reconnects on its next call), and one that never finishes its HTTP/2
    # handshake, after 10 s.
    ("grpc.max_connection_idle_ms", 300_000),
    ("grpc.server_handshake_timeout_ms", 10_000),
    # Every connection is closed after an hour (GOAWAY, then 10 minutes for
    # its calls): the bound on anything a stalled client still holds, and what
    # lets new replicas get a share of long-lived clients.
    ("grpc.max_connection_age_ms", 3_600_000),
    ("grpc.max_connection_age_grace_ms", 600_000),
)


@dataclass(frozen=True)
class Built:
    """A server, not yet started, with the parts its shutdown needs."""

    server: grpc.aio.Server
    port: int
    health: Any  # the grpc_health HealthServicer
    handlers: handlers.Handlers
    # The browser port's socket, bound, and its port (config.web_port < 0: none).
    web_socket: socket.socket | None = None
    web_port: int = -1


def create_server(config: ServerConfig) -> tuple[grpc.aio.Server, int]:
    """A server, not yet started, serving CroupierService, health and reflection
    on config.host:config.port; returns it with the bound port (the one the
    system picked when config.port is 0). Raises listen.ListenFailed (an
    OSError naming the listener and its port) when it cannot bind."""
    built = build(config)
    return built.server, built.port


def build(config: ServerConfig) -> Built:
    """`create_server`, with the health servicer and handlers (for shutdown)."""
    # No grpc-wide limit on calls in flight (maximum_concurrent_rpcs): it would
    # count health checks too. The handlers keep the limits of game calls.
    server = grpc.aio.server(
        options=[
            ("grpc.so_reuseport", int(config.reuse_port)),
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", config.max_message_bytes),
            *_TRANSPORT,
        ],
    )
    # Every game is loaded before the server binds: a game whose package fails
    # to import stops the worker at start (GameLoadError), not a call later.
    registry.games()
    health_servicer = health.aio.HealthServicer()
    observer = Observer(metrics(), config.log_level)
    served = handlers.register(server, config, observer, health_servicer)
    served_names = (handlers.BOT_SERVICE_NAME, handlers.HEALTH_SERVICE_NAME)
    reflection.enable_server_reflection(
        (SERVICE_NAME, *served_names, reflection.SERVICE_NAME), server
    )
    address = _address(config.host, config.port)
    credentials = security.server_credentials(config)  # None: plaintext
    try:
        if credentials is None:
            port = server.add_insecure_port(address)
        else:
            port = server.add_secure_port(address, credentials)
    except RuntimeError as error:  # grpc's way of saying the bind failed
        raise listen.ListenFailed(listen.GRPC, config.host, config.port, error) from error
    if port == 0:  # older grpc versions report a failed bind this way
        raise listen.ListenFailed(listen.GRPC, config.host, config.port, "the bind failed")
    if config.web_port < 0:
        return Built(server, port, health_servicer, served)
    web_socket = _bind(config.host, config.web_port, config.reuse_port, listen.WEB)
    web_port = web_socket.getsockname()[1]
    return Built(server, port, health_servicer, served, web_socket, web_port)


def _bind(host: str, port: int, reuse_port: bool, listener: str = listen.WEB) -> socket.socket:
    """A TCP socket bound to host:port (SO_REUSEPORT when workers share it);
    a failure is a ListenFailed naming `listener`.

    Its protocol is named (IPPROTO_TCP, not 0) because asyncio turns
    TCP_NODELAY on only for connections of such a socket: without it the
    body of an answer that uvicorn writes after its headers waited for the
    client's delayed ACK, 40 ms on every call after a connection's first."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host.strip("[]"), port))
    except OSError as error:
        sock.close()
        raise listen.ListenFailed(listener, host, port, error) from error
    return sock


async def _start(built: Built, config: ServerConfig) -> Any:
    """Start serving: gRPC, then the browser port if there is one (its
    uvicorn server is returned, else None)."""
    await built.server.start()
    if built.web_socket is None:
        return None
    # Imported only for a browser port: uvicorn, starlette, connectrpc.
    from croupier.service import web

    return await web.start(built.handlers, config, built.web_socket)


async def _mark_serving(health_servicer: Any) -> None:
    for name in HEALTH_CHECKED:
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)


async def _drain(built: Built, config: ServerConfig) -> bool:
    """The graceful part of a stop: health NOT_SERVING, `config.drain`
    seconds of serving as usual for balancers to notice, then every new call
    refused with UNAVAILABLE while the calls in flight get `config.grace`
    seconds. Whether they all finished."""
    await built.health.enter_graceful_shutdown()
    if config.drain:
        await asyncio.sleep(config.drain)
    built.handlers.refuse()
    return await built.handlers.settled(config.grace)


async def run_worker(config: ServerConfig, stop: asyncio.Event) -> NoReturn:
    """Serve until `stop` is set, drain (`_drain`), then end the process.

    grpc is never shut down, not even by the garbage collector (the server
    stays referenced until the process ends): its shutdown refuses the calls
    that reach it in its last moments with CANCELLED, which clients do not
    retry, while a closed socket makes them UNAVAILABLE, which they do
    (issue 7, item 9)."""
    try:
        built = build(config)
    except listen.ListenFailed as error:
        listen.log_failure(_log, error)
        _exit(1)
    except registry.GameLoadError as error:
        _log.error("game_load_failed", error=str(error), pid=os.getpid())
        _exit(1)
    await _start(built, config)
    await _mark_serving(built.health)
    backend = api_implementation.Type()
    # The pure-Python protobuf backend is 11-240x slower (DESIGN.md): say so loudly.
    report = _log.info if backend == "upb" else _log.warning
    report(
        "worker_listening",
        host=config.host,
        port=built.port,
        web_port=built.web_port if built.web_socket is not None else None,
        pid=os.getpid(),
        protobuf_backend=backend,
        tls="mtls" if config.tls_client_ca else "tls" if config.tls_cert else "off",
        sealing=built.handlers.sealer.describe(),
    )
    await stop.wait()
    _log.info("worker_stopping", pid=os.getpid(), grace_seconds=config.grace)
    finished = await _drain(built, config)
    _log.info("worker_stopped", pid=os.getpid(), calls_cut=not finished)
    _exit(0)


def _exit(code: int) -> NoReturn:
    """End the process now, with grpc and its event loop as they are."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def worker_main(config: ServerConfig) -> NoReturn:
    """A worker process's body: serve until SIGTERM or SIGINT, then end."""
    # Before grpc's threads exist: they take their malloc arenas when they start.
    memory.return_freed_memory()

    async def main() -> NoReturn:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        stop_signals = (signal.SIGTERM, signal.SIGINT)
        for sig in stop_signals:
            loop.add_signal_handler(sig, stop.set)
        # The supervisor blocked these around the fork; grpc's threads are
        # created after this, so they inherit the unblocked mask.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)
        trimming = asyncio.ensure_future(memory.trim_forever())  # noqa: F841 - runs till exit
        await run_worker(config, stop)

    asyncio.new_event_loop().run_until_complete(main())
    raise AssertionError("run_worker ends the process")


class ServerThread:
    """A server on its own event loop in a background thread (tests, tools).

    >>> with ServerThread(ServerConfig(port=0)) as port: ...
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.port = 0
        self.web_port = -1  # the browser port, once started with config.web_port >= 0
        # The thread's own loop, made and closed by it: a loop left open is
        # reported (ResourceWarning) whenever the collector finds it, in
        # whatever test or tool then runs.
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="croupier-server", daemon=True)

    def _run(self) -> None:
        loop = self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._serve())
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            asyncio.set_event_loop(None)
            loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        try:
            built = build(self.config)
            self.port, self.web_port = built.port, built.web_port
            web_server = await _start(built, self.config)
            await _mark_serving(built.health)
        except BaseException as error:  # surfaced to the caller of start()
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        await self._stop.wait()
        await _drain(built, self.config)
        # A process cannot end here: grpc's own shutdown, calls in flight cut.
        await built.server.stop(0)
        if web_server is not None:
            await web_server.shutdown()

    def start(self) -> int:
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self.port

    def stop(self) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and self._thread.is_alive():
            # RuntimeError: the loop closed meanwhile, so the server has ended.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        if self._thread.ident is not None:  # started
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
