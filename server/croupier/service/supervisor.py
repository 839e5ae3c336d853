"""`croupier serve`: worker processes sharing one port, metrics, restarts.

The supervisor forks its workers before any gRPC object exists (gRPC does
not survive a fork) and never imports grpc itself. Every worker binds the
same port with SO_REUSEPORT, so the kernel spreads connections over them. The
supervisor restarts a worker that dies, serves the Prometheus endpoint for all
of them (prometheus-client multiprocess mode, in a directory it creates and
removes), and on SIGTERM or SIGINT stops them all gracefully and exits 0.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import wsgiref.simple_server
from collections.abc import Iterator
from dataclasses import replace

import structlog

from croupier.service.config import ServerConfig
from croupier.service.logs import configure_logging

_log = structlog.get_logger("croupier.supervisor")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
# A worker that dies this soon after starting, this many times in a row, is
# not going to come up (a bad config, a port taken): give up instead of looping.
_QUICK_DEATH_SECONDS = 2.0
_QUICK_DEATHS_ALLOWED = 3


def serve(config: ServerConfig) -> int:
    """Run `config.workers` workers until SIGTERM or SIGINT; the exit code."""
    configure_logging(config.log_level)
    if "prometheus_client" in sys.modules:
        _log.warning("metrics_single_process", reason="prometheus_client imported before launch")
    metrics_dir = tempfile.mkdtemp(prefix="croupier-metrics-")
    # Before prometheus_client is imported: it picks its storage at import.
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    try:
        with _reserve_port(config.host, config.port) as port:
            return _Supervisor(replace(config, port=port, reuse_port=True)).run()
    except OSError as error:
        _log.error("listen_failed", host=config.host, port=config.port, error=str(error))
        return 1
    finally:
        shutil.rmtree(metrics_dir, ignore_errors=True)


@contextlib.contextmanager
def _reserve_port(host: str, port: int) -> Iterator[int]:
    """Check that the port is free, then hold it (bound, not listening, with
    SO_REUSEPORT) so that the workers can share it and nobody else takes it;
    resolves port 0 to a free port."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))  # fails if anyone listens there, even with SO_REUSEPORT
        port = probe.getsockname()[1]
    holder = socket.socket(family, socket.SOCK_STREAM)
    try:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        holder.bind((host, port))
        yield port
    finally:
        holder.close()


class _QuietHandler(wsgiref.simple_server.WSGIRequestHandler):
    """No access line per scrape on stderr (the log is JSON lines only)."""

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Supervisor:
    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.workers: dict[int, float] = {}  # pid -> start time
        self.stop_signal = 0
        self.quick_deaths = 0

    def run(self) -> int:
        from prometheus_client import CollectorRegistry, make_wsgi_app, multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        # Bound before the first fork, so that a busy metrics port fails the
        # launch before any worker exists; served from a thread after it.
        http = wsgiref.simple_server.make_server(
            self.config.host,
            self.config.metrics_port,
            make_wsgi_app(registry),
            handler_class=_QuietHandler,
        )
        for sig in STOP_SIGNALS:
            signal.signal(sig, self._on_signal)
        for _ in range(self.config.workers):
            self._spawn()
        # A short poll so that shutdown() does not wait out the default 0.5 s.
        serve = lambda: http.serve_forever(poll_interval=0.05)  # noqa: E731
        threading.Thread(target=serve, name="metrics", daemon=True).start()
        _log.info(
            "listening",
            host=self.config.host,
            port=self.config.port,
            workers=self.config.workers,
            metrics_port=http.server_port,
            pid=os.getpid(),
        )
        code = self._watch()
        self._stop_workers()
        http.shutdown()
        http.server_close()
        _log.info("stopped", exit_code=code)
        return code

    def _on_signal(self, signum: int, frame: object) -> None:
        self.stop_signal = signum

    def _spawn(self) -> None:
        pid = os.fork()
        if pid == 0:  # the worker
            code = 1
            try:
                # Held until the worker's own handlers are in place: a stop
                # signal during start-up then still means a graceful stop.
                signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
                for sig in STOP_SIGNALS:
                    signal.signal(sig, signal.SIG_DFL)
                from croupier.service.server import worker_main  # grpc after the fork

                code = worker_main(self.config)
            finally:
                os._exit(code)
        self.workers[pid] = time.monotonic()

    def _watch(self) -> int:
        """Reap and replace dead workers until a stop signal; the exit code."""
        from prometheus_client import multiprocess

        while not self.stop_signal:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid, status = 0, 0
            if not pid:
                time.sleep(0.05)
                continue
            started = self.workers.pop(pid, None)
            if started is None:
                continue
            multiprocess.mark_process_dead(pid)
            lived = time.monotonic() - started
            _log.warning("worker_died", pid=pid, status=status, lived_seconds=round(lived, 3))
            self.quick_deaths = self.quick_deaths + 1 if lived < _QUICK_DEATH_SECONDS else 0
            if self.quick_deaths >= _QUICK_DEATHS_ALLOWED:
                _log.error("workers_keep_dying", deaths=self.quick_deaths)
                return 1
            self._spawn()
            _log.info("worker_restarted", replaced=pid)
        _log.info("stopping", signal=signal.Signals(self.stop_signal).name)
        return 0

    def _stop_workers(self) -> None:
        for pid in self.workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + self.config.drain + self.config.grace + 5.0
        while self.workers and time.monotonic() < deadline:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid:
                self.workers.pop(pid, None)
            else:
                time.sleep(0.02)
        for pid in self.workers:  # past every grace: no more waiting
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
