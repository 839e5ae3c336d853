"""Start, probe and stop a `croupier serve` for the load test (loopback only).

The serving layer is evolving (a single-process server first, then worker
processes under a supervisor with batch and stream RPCs), so nothing here
assumes a version: flags are passed only when `croupier serve --help` lists
them, and the batch and stream RPCs are probed before the suite uses them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import grpc
import procstat
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier.v1 import service_pb2, service_pb2_grpc

HOST = "127.0.0.1"  # the load test never leaves the machine
START_TIMEOUT = 30.0
STOP_TIMEOUT = 20.0


def serve_flags(croupier: Path) -> set[str]:
    """The flags `croupier serve --help` lists (e.g. {"--workers", "--port"})."""
    out = subprocess.run(
        [str(croupier), "serve", "--help"], capture_output=True, text=True, timeout=30, check=True
    ).stdout
    return {word.rstrip(",") for word in out.split() if word.startswith("--")}


def free_port() -> int:
    """A loopback port nobody listens on now (the server binds it right after)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


@dataclass
class Server:
    """A running `croupier serve` process tree."""

    process: subprocess.Popen
    port: int
    workers: int
    argv: list[str]
    log_path: Path
    log: IO[bytes] = field(repr=False)
    web_port: int | None = None  # the browser port (--web), when started with one

    @property
    def target(self) -> str:
        return f"{HOST}:{self.port}"

    @property
    def web_url(self) -> str:
        """The browser port's base URL (Connect calls go to <url>/<service>/<method>)."""
        assert self.web_port is not None, "started without --web"
        return f"http://{HOST}:{self.web_port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def cpu_seconds(self) -> float:
        """CPU seconds used so far by the server and all its worker processes."""
        return procstat.tree_cpu_seconds(self.pid)

    def processes(self) -> int:
        return len(procstat.tree_pids(self.pid))


def start(
    croupier: Path | Sequence[str],
    workers: int,
    flags: set[str],
    log_path: Path,
    extra: Sequence[str] = (),
    web: bool = False,
) -> Server:
    """Start `croupier serve` on a free loopback port with `workers` worker
    processes (when the server knows --workers), the `extra` flags, and with
    `web` the browser port on another free port (--web), and wait until it
    answers health SERVING (and, with `web`, a Connect call on the browser
    port). Raises RuntimeError (with the log's tail) when it does not."""
    port = free_port()
    # The croupier program, or a command that runs one (floor.py's free engine).
    command = [str(croupier)] if isinstance(croupier, Path) else list(croupier)
    argv = [*command, "serve", "--host", HOST, "--port", str(port), *extra]
    web_port = None
    if web:
        web_port = free_port()
        while web_port == port:
            web_port = free_port()
        argv += ["--web", str(web_port)]
    if "--workers" in flags:
        argv += ["--workers", str(workers)]
    else:
        workers = 1
    if "--metrics-port" in flags:
        # Its own free port, so that a `make run` on the default port is no obstacle.
        argv += ["--metrics-port", str(free_port())]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("wb")
    process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
    server = Server(process, port, workers, argv, log_path, log, web_port)
    try:
        _wait_serving(server)
    except BaseException:
        stop(server)
        raise
    return server


def _wait_serving(server: Server) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    request = health_pb2.HealthCheckRequest()
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"the server exited ({server.process.returncode}):\n{_tail(server)}")
        try:
            with grpc.insecure_channel(server.target) as channel:
                answer = health_pb2_grpc.HealthStub(channel).Check(request, timeout=1.0)
            if answer.status == health_pb2.HealthCheckResponse.SERVING:
                # Every worker should be up before the first measured run:
                # wait (bounded) until the tree holds the supervisor and them.
                _wait_processes(server, deadline)
                if server.web_port is not None:
                    _wait_web(server, deadline)
                return
        except grpc.RpcError:
            pass
        time.sleep(0.1)
    raise RuntimeError(
        f"the server did not answer SERVING in {START_TIMEOUT:.0f} s:\n{_tail(server)}"
    )


def _wait_processes(server: Server, deadline: float) -> None:
    if server.workers <= 1:
        return
    while server.processes() < server.workers + 1 and time.monotonic() < deadline:
        time.sleep(0.1)


def _wait_web(server: Server, deadline: float) -> None:
    """Until the browser port answers a Connect call (ListGames, empty request)."""
    request = urllib.request.Request(
        f"{server.web_url}/{service_pb2.DESCRIPTOR.package}.CroupierService/ListGames",
        data=b"",
        headers={"Content-Type": "application/proto", "Connect-Protocol-Version": "1"},
    )
    last: object = None
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"the server exited ({server.process.returncode}):\n{_tail(server)}")
        try:
            with urllib.request.urlopen(request, timeout=1.0) as answer:
                answer.read()
            return
        except (urllib.error.URLError, OSError) as error:
            last = error
        time.sleep(0.1)
    raise RuntimeError(
        f"the browser port {server.web_url} did not answer a Connect call ({last}):\n"
        f"{_tail(server)}"
    )


def stop(server: Server) -> int | None:
    """SIGTERM the server (a graceful stop), SIGKILL its tree if it hangs; the
    exit code (None when it had to be killed)."""
    members = [procstat.identity(pid) for pid in procstat.tree_pids(server.pid)]
    code: int | None = None
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        code = server.process.wait(STOP_TIMEOUT)
    # Stragglers of a stop that hung or of a worker left behind: only the
    # processes this server started, each checked to still be the same one.
    for member in members:
        if member is not None and procstat.identity(member[0]) == member:
            with contextlib.suppress(ProcessLookupError):
                os.kill(member[0], signal.SIGKILL)
    if code is None:
        server.process.wait(5)
    server.log.close()
    return code


def _tail(server: Server, lines: int = 20) -> str:
    server.log.flush()
    text = server.log_path.read_text(errors="replace").splitlines()
    return "\n".join(text[-lines:])


def probe_rpcs(target: str, item: service_pb2.ApplyMoveRequest) -> dict[str, str]:
    """Which of ApplyMoveBatch and ApplyMoveStream the server implements:
    {rpc: ""} when it answers, {rpc: reason} when it does not."""
    result = {}
    with grpc.insecure_channel(target) as channel:
        stub = service_pb2_grpc.CroupierServiceStub(channel)
        try:
            stub.ApplyMoveBatch(service_pb2.ApplyMoveBatchRequest(items=[item]), timeout=10)
            result["ApplyMoveBatch"] = ""
        except grpc.RpcError as error:
            result["ApplyMoveBatch"] = _reason(error)
        try:
            request = service_pb2.ApplyMoveStreamRequest(item=item)
            list(stub.ApplyMoveStream(iter([request]), timeout=10))
            result["ApplyMoveStream"] = ""
        except grpc.RpcError as error:
            result["ApplyMoveStream"] = _reason(error)
    return result


def _reason(error: grpc.RpcError) -> str:
    code = error.code() if isinstance(error, grpc.Call) else None
    name = code.name if code is not None else "UNKNOWN"
    return f"{name}: {error.details() if isinstance(error, grpc.Call) else error}"
