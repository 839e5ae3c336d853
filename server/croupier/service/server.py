"""Building and running the gRPC server: CroupierService, health, reflection."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import grpc
import structlog
from google.protobuf.internal import api_implementation
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from croupier.service.config import ServerConfig
from croupier.service.logs import configure_logging
from croupier.service.servicer import SERVICE_NAME, CroupierServicer, add_to_server

HEALTH_SERVICE_NAME = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name
# The names health answers for: "" is the whole server (what Kubernetes probes).
HEALTH_CHECKED = ("", SERVICE_NAME)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

_log = structlog.get_logger("croupier.service")


def create_server(config: ServerConfig) -> tuple[grpc.Server, int]:
    """A server, not yet started, serving CroupierService, health and reflection
    on config.host:config.port; returns it with the bound port (the one the
    system picked when config.port is 0). Raises OSError when it cannot bind."""
    server, port, _ = _build(config)
    return server, port


def serve(config: ServerConfig) -> int:
    """Run a server until SIGTERM or SIGINT, then stop it gracefully; returns
    the process exit code. Must run in the main thread (it owns the signals)."""
    configure_logging(config.log_level)
    # Signals are caught before the server starts so that a SIGTERM racing the
    # start-up still means a graceful stop, never the default kill.
    with _stop_signals() as wait_for_stop_signal:
        try:
            server, port, health_servicer = _build(config)
        except OSError as error:
            _log.error("listen_failed", host=config.host, port=config.port, error=str(error))
            return 1
        server.start()
        backend = api_implementation.Type()
        # The pure-Python protobuf backend is 11-240x slower (DESIGN.md): say so loudly.
        report = _log.info if backend == "upb" else _log.warning
        report(
            "listening",
            host=config.host,
            port=port,
            max_workers=config.max_workers,
            protobuf_backend=backend,
            protobuf_upb=backend == "upb",
            pid=os.getpid(),
        )
        signum = wait_for_stop_signal()
        _log.info("stopping", signal=signal.Signals(signum).name, grace_seconds=config.grace)
        # NOT_SERVING first, so that load balancers stop sending new calls
        # while the ones in flight finish within the grace period.
        health_servicer.enter_graceful_shutdown()
        server.stop(config.grace).wait()
        _log.info("stopped")
    return 0


def _build(config: ServerConfig) -> tuple[grpc.Server, int, health.HealthServicer]:
    server = grpc.server(
        futures.ThreadPoolExecutor(
            max_workers=config.max_workers, thread_name_prefix="croupier-rpc"
        ),
        options=[("grpc.so_reuseport", int(config.reuse_port))],
    )
    add_to_server(CroupierServicer(), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in HEALTH_CHECKED:
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (SERVICE_NAME, HEALTH_SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    address = _address(config.host, config.port)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as error:  # grpc's way of saying the bind failed
        raise OSError(f"cannot listen on {address}: {error}") from error
    if port == 0:  # older grpc versions report a failed bind this way
        raise OSError(f"cannot listen on {address}")
    return server, port, health_servicer


def _address(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        return f"[{host}]:{port}"  # an IPv6 literal
    return f"{host}:{port}"


@contextlib.contextmanager
def _stop_signals() -> Iterator[Any]:
    """Yield a function that blocks until SIGTERM or SIGINT and returns it.

    The signal handler does nothing: Python's C-level handler writes the signal
    number to a wakeup socket, which the main thread reads. A handler that set
    a threading.Event instead could deadlock on the Event's lock if the signal
    interrupted the main thread while it held that lock.
    """
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    previous_handlers = {sig: signal.signal(sig, _ignore) for sig in STOP_SIGNALS}

    def wait_for_stop_signal() -> int:
        while True:
            # Any signal that has a Python handler writes here; wait for ours.
            signum = reader.recv(1)[0]
            if signum in STOP_SIGNALS:
                return signum

    try:
        yield wait_for_stop_signal
    finally:
        for sig, handler in previous_handlers.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(previous_fd)
        reader.close()
        writer.close()


def _ignore(signum: int, frame: object) -> None:
    pass
