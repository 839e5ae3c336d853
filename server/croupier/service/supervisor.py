"""`croupier serve`: worker processes sharing one port, metrics, restarts.

The supervisor forks its workers before any gRPC object exists (gRPC does
not survive a fork) and never imports grpc itself. Every worker binds the
same port with SO_REUSEPORT, so the kernel spreads connections over them. The
supervisor restarts a worker that dies, serves the Prometheus endpoint for all
of them (prometheus-client multiprocess mode, in a directory it creates and
removes), and on SIGTERM or SIGINT stops them all gracefully and exits 0.

A worker never outlives its supervisor (issue 7, item 7): the kernel kills it
when the supervisor dies (Linux's parent-death signal), and a thread of its
own checks for a new parent in case that signal is not there. What a killed
supervisor cannot remove, its metrics directory, the next one does.
"""

from __future__ import annotations

import contextlib
import ctypes
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

from croupier.service import listen
from croupier.service.config import ServerConfig
from croupier.service.logs import configure_logging

_log = structlog.get_logger("croupier.supervisor")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
METRICS_DIR_PREFIX = "croupier-metrics-"
# prctl(2): the signal a process gets when the thread that forked it dies.
_PR_SET_PDEATHSIG = 1
# How often a worker checks that its supervisor is still its parent.
_PARENT_CHECK_SECONDS = 0.5
# A worker that dies this soon after starting, this many times in a row, is
# not going to come up (a bad config, a port taken): give up instead of looping.
_QUICK_DEATH_SECONDS = 2.0
_QUICK_DEATHS_ALLOWED = 3


def serve(config: ServerConfig) -> int:
    """Run `config.workers` workers until SIGTERM or SIGINT; the exit code."""
    configure_logging(config.log_level)
    if "prometheus_client" in sys.modules:
        _log.warning("metrics_single_process", reason="prometheus_client imported before launch")
    _remove_stale_metrics_dirs(tempfile.gettempdir())
    # Named by the supervisor's pid, so that the next launch can tell the
    # directory of a supervisor that was killed (and could not remove it).
    metrics_dir = tempfile.mkdtemp(prefix=f"{METRICS_DIR_PREFIX}{os.getpid()}-")
    # Before prometheus_client is imported: it picks its storage at import.
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    try:
        with contextlib.ExitStack() as held:
            reserved = _reserve_port(config.host, config.port, listen.GRPC)
            port, holder = held.enter_context(reserved)
            holders = [holder]
            web_port = config.web_port
            if web_port >= 0:
                reserved = _reserve_port(config.host, web_port, listen.WEB)
                web_port, web_holder = held.enter_context(reserved)
                holders.append(web_holder)
            resolved = replace(config, port=port, web_port=web_port, reuse_port=True)
            return _Supervisor(resolved, holders).run()
    except listen.ListenFailed as error:
        # Each listener names itself and its own port: a second server beside
        # a first one says which of its ports is taken.
        listen.log_failure(_log, error)
        return 1
    except BrokenPipeError:  # the log's reader went away: nothing can be said
        raise
    except OSError as error:  # not a listener's (a fork refused, …): said as what it is
        _log.error("serve_failed", error=str(error))
        return 1
    finally:
        shutil.rmtree(metrics_dir, ignore_errors=True)


def _remove_stale_metrics_dirs(parent: str) -> None:
    """Remove the metrics directories of supervisors that are gone."""
    for name in os.listdir(parent):
        pid_text = name.removeprefix(METRICS_DIR_PREFIX).split("-", 1)[0]
        stale = pid_text.isdigit() and not _alive(int(pid_text))
        if name.startswith(METRICS_DIR_PREFIX) and stale:
            path = os.path.join(parent, name)
            shutil.rmtree(path, ignore_errors=True)
            _log.info("stale_metrics_dir_removed", path=path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def set_parent_death_signal(sig: int) -> None:
    """Ask the kernel to send this process `sig` when the thread that forked
    it dies (Linux's PR_SET_PDEATHSIG; nothing elsewhere). It survives exec,
    so a child can call it between fork and exec (a Popen preexec_fn)."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0)


def _die_with(parent: int) -> None:
    """In a worker: end when `parent` (the supervisor) does. The kernel's
    parent-death signal does it at once on Linux; a thread watching for a new
    parent does it within _PARENT_CHECK_SECONDS anywhere (and covers a parent
    that died before the signal was armed)."""
    set_parent_death_signal(signal.SIGKILL)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_CHECK_SECONDS)
        _log.error("supervisor_gone", pid=os.getpid(), supervisor=parent)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


@contextlib.contextmanager
def _reserve_port(host: str, port: int, listener: str) -> Iterator[tuple[int, socket.socket]]:
    """Check that the port is free, then hold it (bound, not listening, with
    SO_REUSEPORT) so that the workers can share it and nobody else takes it;
    resolves port 0 to a free port. Yields the port and the holding socket;
    raises listen.ListenFailed naming `listener` and the port."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))  # fails if anyone listens there, even with SO_REUSEPORT
            port = probe.getsockname()[1]
        holder = socket.socket(family, socket.SOCK_STREAM)
    except OSError as error:
        raise listen.named(listener, host, port, error) from error
    try:
        try:
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            holder.bind((host, port))
        except OSError as error:
            raise listen.named(listener, host, port, error) from error
        yield port, holder
    finally:
        holder.close()


class _QuietHandler(wsgiref.simple_server.WSGIRequestHandler):
    """No access line per scrape on stderr (the log is JSON lines only)."""

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Supervisor:
    def __init__(self, config: ServerConfig, sockets: list[socket.socket]) -> None:
        self.config = config
        # Sockets of the supervisor's own, which a worker closes after the fork.
        self.sockets = sockets
        self.workers: dict[int, float] = {}  # pid -> start time
        self.stop_signal = 0
        self.quick_deaths = 0

    def run(self) -> int:
        from prometheus_client import CollectorRegistry, make_wsgi_app, multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        # Bound before the first fork, so that a busy metrics port fails the
        # launch before any worker exists; served from a thread after it.
        try:
            http = wsgiref.simple_server.make_server(
                self.config.host,
                self.config.metrics_port,
                make_wsgi_app(registry),
                handler_class=_QuietHandler,
            )
        except OSError as error:
            port = self.config.metrics_port
            raise listen.named(listen.METRICS, self.config.host, port, error) from error
        self.sockets.append(http.socket)
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
            web_port=self.config.web_port if self.config.web_port >= 0 else None,
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
        supervisor = os.getpid()
        pid = os.fork()
        if pid == 0:  # the worker
            code = 1
            try:
                # Held until the worker's own handlers are in place: a stop
                # signal during start-up then still means a graceful stop.
                # (Before any thread starts, so that every thread inherits it.)
                signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
                for sig in STOP_SIGNALS:
                    signal.signal(sig, signal.SIG_DFL)
                _die_with(supervisor)
                # A worker holding the metrics listener would take scrapes it
                # never answers once the supervisor is gone.
                for inherited in self.sockets:
                    inherited.close()
                from croupier.service.server import worker_main  # grpc after the fork

                worker_main(self.config)  # ends the process
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
