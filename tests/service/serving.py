"""Helpers for the serving tests: ApplyMove requests from real playouts, a
`croupier serve` subprocess with its JSON log, and Prometheus scrapes.

Imported as `serving` (tests/ has no __init__, so pytest puts this directory
on sys.path for the test modules next to it).
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from croupier.engine import api
from croupier.v1 import game_pb2, service_pb2

GAME = "hundred_and_one"
SERVICE = "croupier.v1.CroupierService"
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING

# Every channel gets its own TCP connection (grpc Python shares subchannels
# between channels to the same target by default), so that SO_REUSEPORT can
# hand each one to any worker. No reconnect tuning: grpc.min_reconnect_backoff_ms
# is also the connect timeout, and a short one fails connections on a busy machine.
CHANNEL_OPTIONS = (("grpc.use_local_subchannel_pool", 1),)
# Big enough for any batch these tests send or get back.
BIG_MESSAGES = (
    ("grpc.max_send_message_length", -1),
    ("grpc.max_receive_message_length", -1),
)


# -- game positions -------------------------------------------------------------


def new_game(seed: int) -> game_pb2.GameState:
    request = service_pb2.NewGameRequest(game=GAME, preset="hd", seat_count=3, seed=seed)
    return api.new_game(request).state


def legal_moves(state: game_pb2.GameState, seat: int | None = None) -> list[game_pb2.Move]:
    seat = state.current_seat if seat is None else seat
    request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
    return [m.move for m in api.list_legal_moves(request).moves]


def positions(count: int, seed: int = 1) -> list[service_pb2.ApplyMoveRequest]:
    """`count` ApplyMove requests, each a real position of a 3-seat HD match
    with a random legal move of the seat to act (fresh copies: edit freely)."""
    return [service_pb2.ApplyMoveRequest.FromString(b) for b in _position_bytes(count, seed)]


@functools.lru_cache(maxsize=8)
def _position_bytes(count: int, seed: int) -> tuple[bytes, ...]:
    rng = random.Random(seed)
    found: list[bytes] = []
    game_seed = seed
    while len(found) < count:
        state = new_game(game_seed)
        game_seed += 1
        # A few hundred moves per match, then another match: more variety.
        for _ in range(300):
            if len(found) >= count or state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER:
                break
            if state.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER:
                state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
                continue
            moves = legal_moves(state)
            if not moves:
                break
            request = service_pb2.ApplyMoveRequest(state=state, move=rng.choice(moves))
            found.append(request.SerializeToString())
            state = api.apply_move(request).state
    return tuple(found)


def deal_over_state(seed: int = 1) -> game_pb2.GameState:
    """A real state whose deal is over (DEAL_OVER or MATCH_OVER)."""
    rng = random.Random(seed)
    state = new_game(seed)
    while state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        request = service_pb2.ApplyMoveRequest(state=state, move=rng.choice(legal_moves(state)))
        state = api.apply_move(request).state
    return state


def slow_batch(
    min_seconds: float, *, at_least: int = 1000, at_most: int = 200_000
) -> service_pb2.ApplyMoveBatchRequest:
    """A batch of real positions (repeated) that takes at least `min_seconds`
    to apply in this process, measured here (a slower machine gets the same
    or more items, never fewer), with at least `at_least` items."""
    base = positions(1000)
    started = time.perf_counter()
    for item in base:
        api.apply_move(item)
    per_item = (time.perf_counter() - started) / len(base)
    count = max(at_least, math.ceil(1.25 * min_seconds / per_item))
    assert count <= at_most, f"{per_item * 1e6:.1f} us per item: {count} items is too many"
    batch = service_pb2.ApplyMoveBatchRequest()
    batch.items.extend(base[i % len(base)] for i in range(count))
    return batch


def from_queue(
    pending: queue.Queue[service_pb2.ApplyMoveStreamRequest | None], timeout: float = 30.0
) -> Iterator[service_pb2.ApplyMoveStreamRequest]:
    """The requests put on `pending` until None: a stream fed by hand. (A
    forgotten None ends it with queue.Empty, which cancels the call.)"""
    while (request := pending.get(timeout=timeout)) is not None:
        yield request


# -- channels and health ---------------------------------------------------------


def open_channel(port: int, *extra: tuple[str, Any]) -> grpc.Channel:
    """A channel on its own connection to 127.0.0.1:`port`."""
    return grpc.insecure_channel(f"127.0.0.1:{port}", options=[*CHANNEL_OPTIONS, *extra])


def health_on_new_channel(port: int, service: str = "", timeout: float = 5.0) -> int:
    """A Health/Check on a fresh connection (no waiting for readiness: a
    refused connection is an error, not a retry)."""
    with open_channel(port) as channel:
        request = health_pb2.HealthCheckRequest(service=service)
        return health_pb2_grpc.HealthStub(channel).Check(request, timeout=timeout).status


# -- metrics ---------------------------------------------------------------------

Sample = tuple[str, dict[str, str], float]


def scrape(metrics_port: int) -> list[Sample]:
    """Every sample of the Prometheus endpoint, as (name, labels, value)."""
    url = f"http://127.0.0.1:{metrics_port}/metrics"
    with urllib.request.urlopen(url, timeout=5) as response:
        text = response.read().decode()
    return [
        (sample.name, dict(sample.labels), sample.value)
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    ]


def total(samples: Sequence[Sample], name: str, **labels: str) -> float:
    """The sum of the samples called `name` whose labels include `labels`."""
    return sum(
        value
        for sample_name, sample_labels, value in samples
        if sample_name == name and all(sample_labels.get(k) == v for k, v in labels.items())
    )


# -- a `croupier serve` process ----------------------------------------------------


class Serve:
    """`croupier serve` in a subprocess, in its own process group, with its
    stderr collected line by line. Always on 127.0.0.1, port 0 and metrics
    port 0: the ports it got come from its first log line ("listening").

    >>> with Serve("--workers", "2") as server: server.port, server.metrics_port
    """

    def __init__(self, *flags: str, tmp_dir: Path | None = None, start_timeout: float = 20.0):
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("CROUPIER_", "PROMETHEUS_"))
        }
        if tmp_dir is not None:
            env["TMPDIR"] = str(tmp_dir)  # where the supervisor makes its metrics directory
        argv = [*flags]
        if "--workers" not in argv:
            argv += ["--workers", "1"]
        self.workers = int(argv[argv.index("--workers") + 1])
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "croupier.cli", "serve"),
                *("--host", "127.0.0.1", "--port", "0", "--metrics-port", "0", *argv),
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
        )
        self.pid = self.process.pid  # the supervisor, leader of its process group
        self.lines: list[str] = []
        self._eof = False
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, name="serve-stderr", daemon=True)
        self._reader.start()
        try:
            listening = self.wait_for(lambda e: e["event"] == "listening", start_timeout)
            self.port: int = listening["port"]
            self.metrics_port: int = listening["metrics_port"]
            self.wait_until(
                lambda events: (
                    sum(e["event"] == "worker_listening" for e in events) >= self.workers
                ),
                start_timeout,
            )
        except BaseException:
            self.close()
            raise

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            with self._changed:
                self.lines.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._eof = True
            self._changed.notify_all()

    def events(self) -> list[dict[str, Any]]:
        """The JSON log lines so far (grpc core's own plain-text lines skipped)."""
        with self._changed:
            lines = list(self.lines)
        return [json.loads(line) for line in lines if line.startswith("{")]

    def log(self) -> str:
        with self._changed:
            return "\n".join(self.lines)

    def wait_until(
        self, condition: Callable[[list[dict[str, Any]]], bool], timeout: float = 10.0
    ) -> list[dict[str, Any]]:
        """Wait until `condition(events)` holds; the events then."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                events = self.events()
                if condition(events):
                    return events
                left = deadline - time.monotonic()
                if left <= 0 or self._eof:
                    raise AssertionError(
                        f"{'timed out' if left <= 0 else 'stderr closed'} waiting for a log "
                        f"event; exit code {self.process.poll()}; log:\n{self.log()}"
                    )
                self._changed.wait(left)

    def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10.0
    ) -> dict[str, Any]:
        """Wait for a log event matching `predicate`; the first one."""
        events = self.wait_until(lambda es: any(predicate(e) for e in es), timeout)
        return next(e for e in events if predicate(e))

    def worker_pids(self) -> set[int]:
        """The live (not zombie) children of the supervisor, from /proc."""
        return {pid for pid, ppid, state in _processes() if ppid == self.pid and state != "Z"}

    def scrape(self) -> list[Sample]:
        return scrape(self.metrics_port)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> int:
        """Send `sig`, wait for the exit and for the whole log; the exit code."""
        self.process.send_signal(sig)
        code = self.process.wait(timeout)
        self._reader.join(timeout)
        return code

    def close(self) -> None:
        """Kill whatever is left of this server (the supervisor and any worker,
        all in the process group it leads), then collect its log."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        else:  # workers orphaned by a supervisor that died first
            group = self.process.pid
            for pid, _, _ in _processes():
                if _process_group(pid) == group:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
        self._reader.join(10)

    def __enter__(self) -> Serve:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            text = stat.read()
    except OSError:
        return None
    # "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    return text[text.rindex(")") + 2 :].split()


def _processes() -> Iterator[tuple[int, int, str]]:
    """(pid, ppid, state) of every process."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat_fields(int(entry))
            if fields is not None:
                yield int(entry), int(fields[1]), fields[0]


def _process_group(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return None if fields is None else int(fields[2])


def poll(condition: Callable[[], Any], timeout: float, what: str, interval: float = 0.02) -> Any:
    """Call `condition` until it returns something true (returned), for at most
    `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)
