"""A supervisor killed with SIGKILL leaves nothing behind (issue 7, item 7),
and a graceful stop refuses late calls with UNAVAILABLE, which clients retry,
never with CANCELLED (item 9). Real `croupier serve` processes."""

from __future__ import annotations

import collections
import os
import signal
import threading
import urllib.error
from pathlib import Path

import grpc
import pytest
from serving import SERVING, Serve, health_on_new_channel, open_channel, poll, positions, scrape

from croupier.v1 import service_pb2_grpc

Stub = service_pb2_grpc.CroupierServiceStub


def _running(pid: int) -> bool:
    """Whether `pid` is a process that still runs (not gone, not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            text = stat.read()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


def test_a_killed_supervisor_takes_its_workers_along_and_a_new_server_starts(
    tmp_path: Path,
) -> None:
    with Serve("--workers", "2", tmp_dir=tmp_path) as killed:
        workers = poll(lambda: len(killed.worker_pids()) == 2 and killed.worker_pids(), 10, "2")
        port, metrics_port = killed.port, killed.metrics_port
        (metrics_dir,) = tmp_path.glob("croupier-metrics-*")
        os.kill(killed.pid, signal.SIGKILL)
        killed.process.wait(10)
        poll(lambda: not any(_running(pid) for pid in workers), 10, "the workers to die too")
        # Nobody holds the metrics port: a scrape is refused, not left hanging.
        with pytest.raises(urllib.error.URLError) as refused:
            scrape(metrics_port)
        assert isinstance(refused.value.reason, ConnectionRefusedError)
        assert metrics_dir.exists()  # a killed supervisor cannot remove it

    with Serve("--workers", "1", "--port", str(port), tmp_dir=tmp_path) as new:
        assert new.port == port
        assert health_on_new_channel(port) == SERVING
        # The new launch removed the directory the killed one left.
        assert [p.name for p in tmp_path.glob("croupier-metrics-*")] != [metrics_dir.name]
        assert not metrics_dir.exists()
        assert new.stop() == 0, new.log()


def test_calls_during_a_graceful_stop_get_unavailable_never_cancelled() -> None:
    item = positions(1)[0]
    codes: collections.Counter[str] = collections.Counter()
    lock = threading.Lock()
    done = threading.Event()

    def hammer(port: int) -> None:
        with open_channel(port) as channel:
            stub = Stub(channel)
            while not done.is_set():
                try:
                    stub.ApplyMove(item, timeout=5)
                    code = "OK"
                except grpc.RpcError as error:
                    code = error.code().name
                with lock:
                    codes[code] += 1

    with Serve("--workers", "2", "--grace", "5") as server:
        threads = [threading.Thread(target=hammer, args=(server.port,)) for _ in range(4)]
        for thread in threads:
            thread.start()
        try:
            poll(lambda: codes["OK"] >= 40, 20, "calls to be served")
            server.process.send_signal(signal.SIGTERM)
            assert server.process.wait(20) == 0, server.log()
            # The clients went on through the whole stop and after it.
            seen = codes["UNAVAILABLE"]
            poll(lambda: codes["UNAVAILABLE"] >= seen + 20, 20, "calls after the stop")
        finally:
            done.set()
            for thread in threads:
                thread.join(10)
    assert set(codes) == {"OK", "UNAVAILABLE"}, codes
