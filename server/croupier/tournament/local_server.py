"""`--serve W`: a `croupier serve --workers W` of the harness's own on a free
loopback port, stopped at the end, and the CPU time its processes used.

The server is a supervisor with W worker processes; its CPU time is that of
the whole tree, read from /proc/<pid>/stat (utime + stime, plus the
children's the kernel folded into a parent when it reaped them), so that the
report can give moves/s per server core.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier.service.supervisor import set_parent_death_signal

HOST = "127.0.0.1"
READY_WITHIN = 30.0  # seconds for the server to answer SERVING with all its workers
STOP_WITHIN = 20.0
START_ATTEMPTS = 3  # a free port may be taken between finding and binding it

PROC = Path("/proc")
# Field numbers of /proc/<pid>/stat as proc(5) counts them (pid is 1).
_PPID, _UTIME, _STIME, _CUTIME, _CSTIME = 4, 14, 15, 16, 17


def stop_with_the_harness() -> None:
    """Run in the server's process between fork and exec: on Linux the kernel
    sends it SIGTERM (a graceful stop of the server and its workers) when the
    harness dies, even by kill -9, so a killed tournament leaves no server
    behind. Elsewhere `stop` at the end is the only way."""
    set_parent_death_signal(signal.SIGTERM)


class ServerFailed(RuntimeError):
    """The server did not start (its log's tail is in the message)."""


def _stat(pid: int) -> list[str] | None:
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None  # ended between listing and reading
    # The command name (field 2) may hold spaces: split after its ")", and
    # pad so that list index == field number.
    return ["", "", ""] + text[text.rindex(")") + 2 :].split()


def tree_pids(root: int) -> list[int]:
    """`root` and its live descendants."""
    children: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None:
            children.setdefault(int(fields[_PPID]), []).append(int(entry.name))
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        todo.extend(children.get(pid, []))
    return pids


def tree_cpu_seconds(root: int) -> float:
    """User + system CPU seconds used so far by `root`'s process tree."""
    ticks = 0
    for pid in tree_pids(root):
        fields = _stat(pid)
        if fields is not None:
            ticks += sum(int(fields[i]) for i in (_UTIME, _STIME, _CUTIME, _CSTIME))
    return ticks / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


class LocalServer:
    """A running `croupier serve` child process tree."""

    def __init__(self, workers: int, log_path: Path) -> None:
        self.workers = workers
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.target = ""

    def start(self) -> str:
        """Start the server and wait until it and its workers serve; its host:port."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(START_ATTEMPTS):
            port = free_port()
            with self.log_path.open("ab") as log:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "croupier.cli", "serve", "--host", HOST]
                    + ["--port", str(port), "--workers", str(self.workers)]
                    + ["--metrics-port", "0", "--log-level", "warning"],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    # Before any channel or thread of the harness exists.
                    preexec_fn=stop_with_the_harness,
                )
            self.target = f"{HOST}:{port}"
            if self._wait_serving():
                return self.target
        raise ServerFailed(
            f"croupier serve did not start in {START_ATTEMPTS} attempts:\n{self._tail()}"
        )

    def _wait_serving(self) -> bool:
        """True once health says SERVING and every worker runs; False when the
        process exits first (a port taken); ServerFailed on a timeout."""
        assert self.process is not None
        deadline = time.monotonic() + READY_WITHIN
        request = health_pb2.HealthCheckRequest(service="")
        with grpc.insecure_channel(self.target) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    return False
                try:
                    answer = health.Check(request, timeout=1.0)
                    serving = answer.status == health_pb2.HealthCheckResponse.SERVING
                except grpc.RpcError:
                    serving = False
                if serving and len(tree_pids(self.process.pid)) >= self.workers + 1:
                    return True
                time.sleep(0.05)
        self.stop()
        raise ServerFailed(f"croupier serve not SERVING within {READY_WITHIN:g} s:\n{self._tail()}")

    def cpu_seconds(self) -> float:
        assert self.process is not None
        return tree_cpu_seconds(self.process.pid)

    def stop(self) -> int | None:
        """SIGTERM (a graceful stop), SIGKILL when it hangs; the exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(STOP_WITHIN)
        except subprocess.TimeoutExpired:
            self.process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(5)
            return None

    def _tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(text[-lines:])
