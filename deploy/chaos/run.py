"""`make chaos`: the faults of issue 7 played against real `croupier serve`
processes on 127.0.0.1, each scenario bounded in time, and a report of what
a well-behaved client saw meanwhile.

Scenarios:
  slow-clients      connections that open ApplyMoveStream calls and stall 20
                    bytes into a message; a fresh client's Health/Check and
                    ApplyMove latencies meanwhile, and the stalled calls ended
  connection-flood  hundreds of connections that never send a call (silent
                    TCP, or only the HTTP/2 preface); the same fresh client
  cancellations     batches and streams cancelled by their client; the
                    in-flight gauge and the CANCELLED count afterwards
  sigterm           SIGTERM while clients keep calling: what they got
  kill-supervisor   kill -9 of the supervisor: its workers, its metrics port
                    and directory, and a new server on the same port

    python deploy/chaos/run.py [--only NAME ...] [--report PATH]

Not part of `make test`: it takes a minute or two and wants a quiet machine.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import os
import queue
import shutil
import signal
import sys
import tempfile
import threading
import time
import urllib.error
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "service"))  # the test suite's process helpers
sys.path.insert(0, str(Path(__file__).resolve().parent))

import grpc  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402
from h2raw import StalledConnection, idle_connection  # noqa: E402
from serving import (  # noqa: E402
    SERVICE,
    Serve,
    from_queue,
    open_channel,
    positions,
    scrape,
    total,
)

from croupier.v1 import service_pb2, service_pb2_grpc  # noqa: E402

Stub = service_pb2_grpc.CroupierServiceStub
STREAM_PATH = f"/{SERVICE}/ApplyMoveStream"
STREAM = dict(grpc_type="bidi_stream", grpc_service=SERVICE, grpc_method="ApplyMoveStream")
BATCH = dict(grpc_type="unary", grpc_service=SERVICE, grpc_method="ApplyMoveBatch")
Figures = dict[str, Any]


# -- a well-behaved client, measured --------------------------------------------------


def probe(port: int, seconds: float) -> dict[str, list[tuple[str, float]]]:
    """Health/Check and ApplyMove in turn from a fresh connection for
    `seconds`: (status code, milliseconds) of every call, by RPC."""
    item = positions(1)[0]
    seen: dict[str, list[tuple[str, float]]] = {"Health/Check": [], "ApplyMove": []}
    with open_channel(port) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        stub = Stub(channel)
        calls: dict[str, Callable[[], Any]] = {
            "Health/Check": lambda: health.Check(health_pb2.HealthCheckRequest(), timeout=5),
            "ApplyMove": lambda: stub.ApplyMove(item, timeout=5),
        }
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for name, call in calls.items():
                started = time.perf_counter()
                try:
                    call()
                    code = "OK"
                except grpc.RpcError as error:
                    code = error.code().name
                seen[name].append((code, (time.perf_counter() - started) * 1000))
    return seen


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def latencies(seen: dict[str, list[tuple[str, float]]]) -> Figures:
    """Per RPC: calls, how many were not OK (by code), p50, p99 and max in ms."""
    figures: Figures = {}
    for name, calls in seen.items():
        times = [ms for _, ms in calls]
        failed = collections.Counter(code for code, _ in calls if code != "OK")
        not_ok = f"{sum(failed.values())} not OK" + (f" {dict(failed)}" if failed else "")
        figures[name] = (
            f"{len(calls)} calls, {not_ok}, p50 {_percentile(times, 0.5):.2f} ms, "
            f"p99 {_percentile(times, 0.99):.2f} ms, max {max(times, default=float('nan')):.2f} ms"
        )
    return figures


def wait_for(condition: Callable[[], Any], seconds: float) -> Any:
    """`condition()` once it is true, or its last value after `seconds`."""
    end = time.monotonic() + seconds
    while not (result := condition()) and time.monotonic() < end:
        time.sleep(0.05)
    return result


def _sum(server: Serve, name: str, **labels: str) -> float:
    return total(server.scrape(), name, **labels)


def _errors_logged(server: Serve) -> int:
    return sum(e.get("level") in ("error", "critical") for e in server.events())


@contextlib.contextmanager
def _temp_dir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="croupier-chaos-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# -- scenarios ---------------------------------------------------------------------------


def slow_clients(args: argparse.Namespace) -> Figures:
    flags = ("--workers", "2", "--stream-idle-timeout", str(args.idle))
    with Serve(*flags) as server:
        stalled = [
            StalledConnection(server.port, STREAM_PATH, args.streams)
            for _ in range(args.connections)
        ]
        try:
            sent = args.connections * args.streams

            def arrived() -> float:
                return _sum(server, "grpc_server_started_total", **STREAM)

            # Every stream the connections' limits let through has arrived
            # when the count stops moving.
            counts = [-1.0, arrived()]
            while counts[-1] != counts[-2] and len(counts) < 40:
                time.sleep(0.25)
                counts.append(arrived())
            refused = _sum(
                server, "grpc_server_handled_total", **STREAM, grpc_code="RESOURCE_EXHAUSTED"
            )
            during = probe(server.port, args.probe_seconds)
            held = counts[-1] - refused

            def ended() -> float:
                return _sum(
                    server, "grpc_server_handled_total", **STREAM, grpc_code="DEADLINE_EXCEEDED"
                )

            started = time.monotonic()
            wait_for(lambda: ended() >= held, args.idle + 15)
            freed_after = time.monotonic() - started
            after = probe(server.port, 1.0)
            ended_count = ended()
        finally:
            for connection in stalled:
                connection.close()
        code = server.stop()
    return {
        "stalled streams opened": f"{sent} ({args.connections} connections x {args.streams})",
        "reached a worker": f"{counts[-1]:.0f} (the rest held back by 64 streams per connection)",
        "refused at once (stream budget full)": f"{refused:.0f}",
        "held open by the stall": f"{held:.0f}",
        "fresh client meanwhile": latencies(during),
        f"ended by the server (--stream-idle-timeout {args.idle:g} s)": f"{ended_count:.0f}, "
        f"all within {freed_after + args.probe_seconds:.1f} s of the probe's start",
        "fresh client after": latencies(after),
        "error lines in the log": _errors_logged(server),
        "exit code": code,
    }


def connection_flood(args: argparse.Namespace) -> Figures:
    with Serve("--workers", "2") as server:
        connections = []
        try:
            for i in range(args.flood):
                connections.append(idle_connection(server.port, preface=i % 2 == 1))
            during = probe(server.port, args.probe_seconds)
        finally:
            for connection in connections:
                with contextlib.suppress(OSError):
                    connection.close()
        after_close = probe(server.port, 1.0)
        code = server.stop()
    return {
        "idle connections": f"{args.flood} (half silent TCP, half only the HTTP/2 preface)",
        "fresh client meanwhile": latencies(during),
        "fresh client after they closed": latencies(after_close),
        "error lines in the log": _errors_logged(server),
        "exit code": code,
    }


def cancellations(args: argparse.Namespace) -> Figures:
    items = positions(1000)
    batch = service_pb2.ApplyMoveBatchRequest(items=[items[i % 1000] for i in range(4000)])
    limits = ("--max-batch", "4000", "--max-message-bytes", str(64 * 1024 * 1024))
    options = (("grpc.max_send_message_length", -1), ("grpc.max_receive_message_length", -1))
    with Serve("--workers", "2", *limits) as server:
        with open_channel(server.port, *options) as channel:
            stub = Stub(channel)

            def started(count: int) -> bool:
                return _sum(server, "grpc_server_started_total", **BATCH) >= count

            for count in range(1, args.cancels + 1):
                future = stub.ApplyMoveBatch.future(batch, timeout=60)
                wait_for(functools.partial(started, count), 10)  # once it is being served
                future.cancel()
            for _ in range(args.cancels):
                pending: queue.Queue[Any] = queue.Queue()
                call = stub.ApplyMoveStream(from_queue(pending), timeout=60)
                pending.put(service_pb2.ApplyMoveStreamRequest(item=items[0]))
                next(call)
                call.cancel()
                pending.put(None)
        right_after = _sum(server, "croupier_rpcs_in_flight")
        settled = wait_for(lambda: _sum(server, "croupier_rpcs_in_flight") == 0, 10)
        samples = server.scrape()
        code = server.stop()
    cancelled = {
        method: total(
            samples, "grpc_server_handled_total", grpc_method=method, grpc_code="CANCELLED"
        )
        for method in ("ApplyMoveBatch", "ApplyMoveStream")
    }
    return {
        "cancelled by their client": f"{args.cancels} batches (4,000 items), "
        f"{args.cancels} streams (after one answer)",
        "counted CANCELLED": f"batches {cancelled['ApplyMoveBatch']:.0f}, "
        f"streams {cancelled['ApplyMoveStream']:.0f}",
        "in-flight gauge right after": f"{right_after:.0f}",
        "in-flight gauge settled at 0": bool(settled),
        "error lines in the log": _errors_logged(server),
        "exit code": code,
    }


def sigterm(args: argparse.Namespace) -> Figures:
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
        threads = [threading.Thread(target=hammer, args=(server.port,)) for _ in range(8)]
        for thread in threads:
            thread.start()
        try:
            wait_for(lambda: codes["OK"] >= 200, 20)
            at_signal = dict(codes)
            server.process.send_signal(signal.SIGTERM)
            stopping = time.monotonic()
            code = server.process.wait(30)
            exit_seconds = time.monotonic() - stopping
            time.sleep(0.5)  # the clients go on calling after the stop
        finally:
            done.set()
            for thread in threads:
                thread.join(10)
    late = {k: v - at_signal.get(k, 0) for k, v in codes.items() if v != at_signal.get(k, 0)}
    return {
        "clients": "8, each calling ApplyMove without pause on its own connection",
        "answers from SIGTERM on": late,
        "CANCELLED answers": codes.get("CANCELLED", 0),
        "exit code": code,
        "SIGTERM to exit": f"{exit_seconds:.2f} s",
    }


def kill_supervisor(args: argparse.Namespace) -> Figures:
    with _temp_dir() as tmp:
        with Serve("--workers", "2", tmp_dir=tmp) as killed:
            workers = wait_for(lambda: len(killed.worker_pids()) == 2 and killed.worker_pids(), 10)
            port, metrics_port = killed.port, killed.metrics_port
            os.kill(killed.pid, signal.SIGKILL)
            killed.process.wait(10)
            started = time.monotonic()
            gone = wait_for(lambda: not any(_running(pid) for pid in workers), 10)
            gone_seconds = time.monotonic() - started
            try:
                scrape(metrics_port)
                scraped = "answered (a worker holds it)"
            except urllib.error.URLError as error:
                scraped = f"refused at once ({type(error.reason).__name__})"
            except TimeoutError:
                scraped = "hangs"
            left = [p.name for p in tmp.glob("croupier-metrics-*")]
        started = time.monotonic()
        try:
            with Serve("--workers", "2", "--port", str(port), tmp_dir=tmp) as new:
                new_start = f"yes, listening after {time.monotonic() - started:.2f} s"
                with open_channel(port) as channel:
                    answer = health_pb2_grpc.HealthStub(channel).Check(
                        health_pb2.HealthCheckRequest(), timeout=5
                    )
                health = health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)
                remaining = [p.name for p in tmp.glob("croupier-metrics-*")]
                new.stop()
        except AssertionError as error:
            new_start, health, remaining = f"no: {str(error).splitlines()[0]}", "-", []
    return {
        "workers after kill -9 of the supervisor": "all gone" if gone else "still running",
        "time until no worker ran": f"{gone_seconds:.2f} s",
        "scrape of the old metrics port": scraped,
        "metrics directory left behind": ", ".join(left) or "none",
        "new serve on the same port": new_start,
        "its health": health,
        "metrics directories once it runs": ", ".join(remaining) or "none",
    }


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            text = stat.read()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


SCENARIOS: dict[str, Callable[[argparse.Namespace], Figures]] = {
    "slow-clients": slow_clients,
    "connection-flood": connection_flood,
    "cancellations": cancellations,
    "sigterm": sigterm,
    "kill-supervisor": kill_supervisor,
}


# -- the report --------------------------------------------------------------------------


def _lines(figures: Figures, indent: str = "") -> Iterator[str]:
    for name, value in figures.items():
        if isinstance(value, dict) and value and all(isinstance(v, str) for v in value.values()):
            yield f"{indent}- {name}:"
            yield from _lines(value, indent + "  ")
        else:
            yield f"{indent}- {name}: {value}"


def report(results: dict[str, Figures], seconds: dict[str, float]) -> str:
    head = [
        "# Chaos report",
        "",
        f"`croupier serve` on 127.0.0.1, {os.cpu_count()} cores, "
        f"{time.strftime('%Y-%m-%d %H:%M:%S')}; every scenario bounded in time.",
    ]
    body = []
    for name, figures in results.items():
        body += ["", f"## {name} ({seconds[name]:.1f} s)", "", *_lines(figures)]
    return "\n".join(head + body) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=sorted(SCENARIOS), help="run only these")
    parser.add_argument("--report", type=Path, help="also write the report to this file")
    parser.add_argument("--connections", type=int, default=10, help="slow-client connections")
    parser.add_argument("--streams", type=int, default=100, help="stalled streams per connection")
    parser.add_argument("--idle", type=float, default=5.0, help="--stream-idle-timeout to serve")
    parser.add_argument("--flood", type=int, default=500, help="idle connections in the flood")
    parser.add_argument("--cancels", type=int, default=20, help="batches and streams cancelled")
    parser.add_argument("--probe-seconds", type=float, default=3.0, help="fresh-client probe")
    args = parser.parse_args(argv)
    results: dict[str, Figures] = {}
    seconds: dict[str, float] = {}
    for name in args.only or SCENARIOS:
        print(f"chaos: {name} …", file=sys.stderr, flush=True)
        started = time.monotonic()
        results[name] = SCENARIOS[name](args)
        seconds[name] = time.monotonic() - started
    text = report(results, seconds)
    print(text)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
