"""`make failover`: Croupier behind a real L7 gRPC load balancer, and one
server killed while random matches are played through it.

haproxy (HTTP/2 cleartext on both sides, a gRPC Health/Check of every server,
retries of calls no server answered) fronts N `croupier serve` processes on
127.0.0.1. Client threads play seeded random matches through the balancer
with the one match loop (`croupier_client.playout.play_match` over
`CroupierClient`, whose channel retries UNAVAILABLE by grpc's service-config
retry policy). At --kill-at seconds one server gets `kill -9` (its whole
process group: the supervisor and its worker). The run stops starting
matches at --seconds, lets the ones under way finish, replays every completed
match in-process to check the final states byte for byte, and reports the
matches completed and lost, the calls the client and the balancer retried,
and when the balancer marked the killed server DOWN.

    python deploy/failover/failover.py [--seconds 30] [--kill-at 10] [--clients 4]
        [--servers 3] [--games hundred_and_one,sto,...|all] [--report PATH]

Exit code: 0 when no match was lost and every replay agreed, 1 otherwise,
2 when haproxy is missing (`make failover` installs the Debian package).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import functools
import io
import json
import os
import random
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import grpc

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TEMPLATE = HERE / "haproxy.cfg.in"
HOST = "127.0.0.1"

# Games whose random matches end within a few hundred moves; UNO, Scala 40
# and «Мост» run to thousands (--games all includes them: a longer run).
DEFAULT_GAMES = ("hundred_and_one", "sto", "one_hundred", "chips_101")
# The balancer's retries: a refused connection, and a connection closed by
# the server before any answer (a crash mid-call). Every call is pure.
DEFAULT_RETRY_ON = "conn-failure empty-response response-timeout"

# grpc.health.v1.HealthCheckResponse{status: SERVING} with gRPC's framing:
# not compressed, 2 bytes long, field 1 (varint) = 1.
HEALTH_SERVING = bytes.fromhex("00000000020801")


# -- the balancer's configuration --------------------------------------------------


def _frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
    return (
        len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload
    )


def _literal(name_index: int, value: str) -> bytes:
    """An HPACK literal header field without indexing, its name from the
    static table (index < 15), its value plain (no Huffman)."""
    data = value.encode()
    assert name_index < 15 and len(data) < 127
    return bytes([name_index, len(data)]) + data


def health_check_request(authority: str = "croupier") -> bytes:
    """The bytes of a whole gRPC `grpc.health.v1.Health/Check` call with an
    empty request (the server's overall health), as a client opens an
    HTTP/2 connection: the preface, an empty SETTINGS frame, HEADERS (HPACK:
    POST, http, the path, the authority, content-type application/grpc, te:
    trailers) and DATA ending the stream with the 5-byte empty message."""
    content_type = b"application/grpc"
    headers = (
        b"\x83"  # :method POST (static index 3)
        + b"\x86"  # :scheme http (static index 6)
        + _literal(4, "/grpc.health.v1.Health/Check")  # :path
        + _literal(1, authority)  # :authority
        # content-type is static index 31: 4-bit prefix 15, then 16.
        + b"\x0f\x10"
        + bytes([len(content_type)])
        + content_type
        + b"\x00\x02te\x08trailers"  # a literal name: te is not in the static table
    )
    return (
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
        + _frame(0x4, 0x0, 0, b"")  # SETTINGS, none changed
        + _frame(0x1, 0x4, 1, headers)  # HEADERS, END_HEADERS, stream 1
        + _frame(0x0, 0x1, 1, b"\x00" * 5)  # DATA, END_STREAM: an empty message
    )


@dataclass(frozen=True)
class Backend:
    name: str
    host: str
    port: int


def render_config(
    *,
    bind_port: int,
    backends: Sequence[Backend],
    stats_socket: Path,
    bind_host: str = HOST,
    retries: int = 3,
    retry_on: str = DEFAULT_RETRY_ON,
    check_interval_ms: int = 500,
    fall: int = 2,
    rise: int = 2,
) -> str:
    """haproxy.cfg from haproxy.cfg.in: a frontend on bind_host:bind_port and
    one `server` line per backend."""
    if not backends:
        raise ValueError("the balancer needs at least one backend")
    servers = "\n".join(f"    server {b.name} {b.host}:{b.port}" for b in backends)
    return string.Template(TEMPLATE.read_text()).substitute(
        stats_socket=stats_socket,
        bind_host=bind_host,
        bind_port=bind_port,
        retries=retries,
        retry_on=retry_on,
        health_request_hex=health_check_request().hex(),
        health_serving_hex=HEALTH_SERVING.hex(),
        check_interval_ms=check_interval_ms,
        fall=fall,
        rise=rise,
        servers=servers,
    )


def parse_stats(text: str) -> dict[tuple[str, str], dict[str, str]]:
    """haproxy's `show stat` CSV, keyed by (proxy, server) — the server is
    FRONTEND or BACKEND for the proxies' own rows."""
    rows = csv.DictReader(io.StringIO(text.lstrip("# ")))
    return {(row["pxname"], row["svname"]): row for row in rows if row.get("pxname")}


def read_stats(stats_socket: Path) -> dict[tuple[str, str], dict[str, str]]:
    """The balancer's counters and server states from its stats socket."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        sock.connect(str(stats_socket))
        sock.sendall(b"show stat\n")
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return parse_stats(b"".join(chunks).decode())


# -- the report ----------------------------------------------------------------------


@dataclass
class MatchResult:
    index: int
    game: str
    preset: str
    seats: int
    seed: int
    moves: int = 0
    error: str = ""  # empty: the match reached its end
    state: bytes = b""  # the final state, serialized
    replay_agrees: bool | None = None


@dataclass
class Report:
    servers: int
    clients: int
    seconds_planned: float
    games: list[str]
    haproxy_version: str
    retry_on: str
    client_attempts: int
    killed: str = ""
    kill_at: float = 0.0  # seconds from the start of the matches
    down_after: float | None = None  # seconds from the kill to haproxy's DOWN
    wall_seconds: float = 0.0
    matches_started: int = 0
    matches_completed: int = 0
    matches_lost: int = 0
    moves: int = 0
    calls: int = 0  # calls the application made (each once, however retried)
    calls_failed: dict[str, int] = field(default_factory=dict)  # after every retry
    balancer_requests: int = 0  # requests the balancer received: calls + client retries
    balancer_retries: int = 0  # haproxy's retries to a server (wretr)
    balancer_redispatches: int = 0  # of which sent to another server (wredis)
    per_server: dict[str, dict[str, str]] = field(default_factory=dict)
    by_game: dict[str, int] = field(default_factory=dict)
    replays_agreeing: int = 0
    lost: list[str] = field(default_factory=list)
    timeline: list[str] = field(default_factory=list)

    @property
    def client_retries(self) -> int:
        """Attempts the client's retry policy added: requests that reached
        the balancer beyond the calls made (haproxy never dies in the run,
        so every attempt reaches it)."""
        return max(0, self.balancer_requests - self.calls)

    @property
    def ok(self) -> bool:
        return self.matches_lost == 0 and self.replays_agreeing == self.matches_completed

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "client_retries": self.client_retries, "ok": self.ok}


def format_report(report: Report) -> str:
    """The report in Markdown, figures first."""
    r = report
    down = (
        "never (within the run)" if r.down_after is None else f"{r.down_after:.2f} s after the kill"
    )
    failed = ", ".join(f"{code} {n}" for code, n in sorted(r.calls_failed.items())) or "none"
    lines = [
        "# Failover through haproxy",
        "",
        f"{r.servers} `croupier serve` processes (1 worker each) behind {r.haproxy_version}, "
        f"{r.clients} client threads playing random matches of {', '.join(r.games)}; "
        f"`kill -9` of {r.killed or 'no server'} at {r.kill_at:.1f} s.",
        "",
        "| figure | value |",
        "|---|---|",
        f"| matches completed | {r.matches_completed} (of {r.matches_started} started) |",
        f"| matches lost | {r.matches_lost} |",
        f"| calls retried by the client (grpc retry policy, UNAVAILABLE) | {r.client_retries} |",
        f"| calls retried by the balancer (`retry-on {r.retry_on}`) | "
        f"{r.balancer_retries} retries, {r.balancer_redispatches} redispatched |",
        f"| calls made | {r.calls} ({r.moves} moves; {r.balancer_requests} requests reached "
        f"the balancer) |",
        f"| calls failed after retries | {failed} |",
        f"| killed server marked DOWN | {down} |",
        f"| completed matches equal to an in-process replay | "
        f"{r.replays_agreeing} of {r.matches_completed} |",
        f"| time | {r.wall_seconds:.1f} s of matches (planned {r.seconds_planned:.0f} s, "
        f"then the matches under way finished) |",
        "",
        "Client: `CroupierClient` (up to "
        f"{r.client_attempts} attempts per call, backoff 100 ms to 1 s). Balancer: "
        "roundrobin over HTTP/2, a gRPC `Health/Check` every 500 ms (fall 2, rise 2), "
        "`option redispatch 1`.",
        "",
        "## Per server (haproxy's counters)",
        "",
        "| server | status | requests | connection errors | response errors |",
        "|---|---|---|---|---|",
    ]
    for name, row in r.per_server.items():
        lines.append(
            f"| {name} | {row.get('status', '')} | {row.get('stot', '')} | "
            f"{row.get('econ', '')} | {row.get('eresp', '')} |"
        )
    lines += ["", "## Matches by game", ""]
    lines += [f"- {game}: {count}" for game, count in sorted(r.by_game.items())]
    lines += ["", "## Timeline", ""]
    lines += [f"- {entry}" for entry in r.timeline]
    if r.lost:
        lines += ["", "## Lost matches", ""]
        lines += [f"- {entry}" for entry in r.lost]
    lines.append("")
    lines.append("Result: " + ("OK, no match lost." if r.ok else "FAILED (see above)."))
    return "\n".join(lines) + "\n"


def write_report(report: Report, path: Path) -> None:
    """The report at `path` (REPORT.md) and its figures beside it (REPORT.json)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(format_report(report))
    path.with_suffix(".json").write_text(json.dumps(report.to_dict(), indent=2) + "\n")


# -- the match plan -------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    game: str
    preset: str
    low: int
    high: int


def tables(descriptors: Sequence[Any], games: Sequence[str]) -> list[Table]:
    """Every (game, preset) of `games` (all when empty) with its seat range,
    from ListGames' descriptors."""
    chosen = []
    for descriptor in descriptors:
        if games and descriptor.name not in games:
            continue
        for preset in descriptor.presets:
            low = max(descriptor.min_seats, preset.min_seats)
            high = min(descriptor.max_seats, preset.max_seats)
            chosen.append(Table(descriptor.name, preset.name, low, high))
    missing = set(games) - {t.game for t in chosen}
    if missing:
        raise ValueError(f"the server has no game {', '.join(sorted(missing))}")
    return chosen


def planned_match(seed: int, index: int, choices: Sequence[Table]) -> MatchResult:
    """Match `index` of the run: a table, a seat count and a match seed, all
    from (seed, index) alone."""
    rng = random.Random(f"{seed}:{index}")
    table = rng.choice(choices)
    seats = rng.randint(table.low, table.high)
    return MatchResult(index, table.game, table.preset, seats, rng.getrandbits(63))


# -- processes ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start_server(port: int, log: Path) -> subprocess.Popen[bytes]:
    """`croupier serve` with one worker on HOST:port, in its own process group.

    Its metrics directory goes under the run's directory (TMPDIR): the one a
    killed server leaves behind goes with the run, and no other server on the
    machine finds it in /tmp as a stale directory to remove."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
    env["TMPDIR"] = str(log.parent)
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "croupier.cli", "serve", "--host", HOST, "--port", str(port)]
            + ["--workers", "1", "--metrics-port", "0"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )


def wait_for(condition: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if value := condition():
                return value
        time.sleep(0.05)
    raise TimeoutError(f"{what}: not within {seconds:.0f} s")


def serving(port: int) -> bool:
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(f"{HOST}:{port}") as channel:
        answer = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=1
        )
    return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Signal the process group of `process` and reap it (SIGKILL after 10 s)."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def haproxy_version(haproxy: str) -> str:
    out = subprocess.run([haproxy, "-v"], capture_output=True, text=True, check=False).stdout
    words = out.split()
    return f"haproxy {words[2]}" if len(words) > 2 else "haproxy"


# -- the run ----------------------------------------------------------------------------------


class CallCounter(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """A client interceptor counting the calls the application makes (one per
    call, however many attempts grpc's retry policy makes below it) and the
    ones that failed after them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls = 0
        self.failed: Counter[str] = Counter()

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        outcome = continuation(details, request)
        error = outcome.exception()
        with self.lock:
            self.calls += 1
            if error is not None:
                self.failed[error.code().name] += 1
        return outcome


def play(
    target: str,
    counter: CallCounter,
    next_match: Callable[[], MatchResult | None],
    results: list[MatchResult],
    attempts: int,
) -> None:
    """One client thread: its own connection to the balancer; matches until
    `next_match` says stop."""
    from croupier_client.client import CroupierClient, channel_options
    from croupier_client.playout import play_match, uniform

    options = [*channel_options(attempts), ("grpc.use_local_subchannel_pool", 1)]
    channel = grpc.intercept_channel(grpc.insecure_channel(target, options=options), counter)
    with channel, CroupierClient(target, channel=channel, timeout=30) as client:
        while (match := next_match()) is not None:
            try:
                state, match.moves = play_match(
                    client, match.game, match.preset, match.seats, match.seed, uniform(match.seed)
                )
                match.state = state.SerializeToString(deterministic=True)
            except Exception as error:  # a lost match, whatever the cause
                match.error = f"{type(error).__name__}: {error}".splitlines()[0][:300]
            results.append(match)


def replay(match: MatchResult) -> bool:
    """Whether the match played in-process ends in the same state, byte for byte."""
    from croupier.inprocess import InProcess
    from croupier_client.playout import play_match, uniform

    state, _ = play_match(
        InProcess(), match.game, match.preset, match.seats, match.seed, uniform(match.seed)
    )
    return state.SerializeToString(deterministic=True) == match.state


@contextlib.contextmanager
def _workdir(keep: Path | None) -> Iterator[Path]:
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep
        return
    path = Path(tempfile.mkdtemp(prefix="croupier-failover-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def run(args: argparse.Namespace, haproxy: str) -> Report:
    from croupier_client.client import CroupierClient

    games = [] if args.games == "all" else [g for g in args.games.split(",") if g]
    report = Report(
        servers=args.servers,
        clients=args.clients,
        seconds_planned=args.seconds,
        games=games or ["all"],
        haproxy_version=haproxy_version(haproxy),
        retry_on=args.lb_retry_on,
        client_attempts=args.attempts,
    )
    began = time.monotonic()

    def note(text: str) -> None:
        report.timeline.append(f"{time.monotonic() - began:6.2f} s  {text}")

    processes: list[subprocess.Popen[bytes]] = []
    with _workdir(args.workdir) as work:
        try:
            backends = [Backend(f"s{i + 1}", HOST, free_port()) for i in range(args.servers)]
            servers = {b.name: start_server(b.port, work / f"{b.name}.log") for b in backends}
            processes += servers.values()
            for backend in backends:
                wait_for(functools.partial(serving, backend.port), 60, f"{backend.name} serving")
            ports = ", ".join(str(b.port) for b in backends)
            note(f"{len(backends)} servers serving on ports {ports}")
            sock = work / "haproxy.sock"
            port = free_port()
            config = render_config(
                bind_port=port,
                backends=backends,
                stats_socket=sock,
                retries=args.lb_retries,
                retry_on=args.lb_retry_on,
            )
            (work / "haproxy.cfg").write_text(config)
            check = subprocess.run(
                [haproxy, "-c", "-q", "-f", str(work / "haproxy.cfg")],
                capture_output=True,
                text=True,
                check=False,
            )
            if check.returncode:
                raise RuntimeError(f"haproxy refuses the configuration: {check.stderr.strip()}")
            with (work / "haproxy.log").open("wb") as out:
                balancer = subprocess.Popen(
                    [haproxy, "-f", str(work / "haproxy.cfg"), "-db"],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            processes.append(balancer)

            def all_up() -> bool:
                stats = read_stats(sock)
                return all(stats[("croupier", b.name)]["status"] == "UP" for b in backends)

            wait_for(all_up, 30, "every server UP in haproxy")
            note(f"haproxy on {HOST}:{port}: every server UP (gRPC health check)")
            target = f"{HOST}:{port}"
            with CroupierClient(target) as client:
                choices = tables(client.list_games(), games)
            before = read_stats(sock)[("grpc", "FRONTEND")]

            counter = CallCounter()
            results: list[MatchResult] = []
            lock = threading.Lock()
            started = time.monotonic()
            stop_at = started + args.seconds
            index = 0

            def next_match() -> MatchResult | None:
                nonlocal index
                with lock:
                    if time.monotonic() >= stop_at:
                        return None
                    index += 1
                    return planned_match(args.seed, index, choices)

            threads = [
                threading.Thread(
                    target=play, args=(target, counter, next_match, results, args.attempts)
                )
                for _ in range(args.clients)
            ]
            for thread in threads:
                thread.start()
            note(f"{args.clients} client threads playing matches")
            victim = f"s{args.kill}" if 1 <= args.kill <= args.servers else ""
            if victim:
                time.sleep(max(0.0, started + args.kill_at - time.monotonic()))
                report.kill_at = time.monotonic() - started
                killed_at = time.monotonic()
                os.killpg(servers[victim].pid, signal.SIGKILL)
                servers[victim].wait()
                report.killed = victim
                note(f"kill -9 of {victim} (supervisor {servers[victim].pid} and its worker)")
                with contextlib.suppress(TimeoutError):
                    wait_for(
                        lambda: read_stats(sock)[("croupier", victim)]["status"].startswith("DOWN"),
                        max(1.0, stop_at - time.monotonic()),
                        f"{victim} DOWN",
                    )
                    report.down_after = time.monotonic() - killed_at
                    note(f"haproxy marks {victim} DOWN")
            time.sleep(max(0.0, stop_at - time.monotonic()))
            note("no new match from here; the matches under way finish")
            for thread in threads:
                thread.join()
            report.wall_seconds = time.monotonic() - started
            note(f"every match over ({len(results)})")

            stats = read_stats(sock)
            front = stats[("grpc", "FRONTEND")]
            back = stats[("croupier", "BACKEND")]
            report.balancer_requests = int(front["req_tot"] or 0) - int(before["req_tot"] or 0)
            report.balancer_retries = int(back["wretr"] or 0)
            report.balancer_redispatches = int(back["wredis"] or 0)
            report.per_server = {
                b.name: {
                    k: stats[("croupier", b.name)].get(k, "")
                    for k in ("status", "stot", "econ", "eresp")
                }
                for b in backends
            }
            report.calls = counter.calls
            report.calls_failed = dict(counter.failed)
        finally:
            for process in reversed(processes):
                stop(process)

    results.sort(key=lambda m: m.index)
    report.matches_started = len(results)
    completed = [m for m in results if not m.error]
    report.matches_completed = len(completed)
    report.matches_lost = len(results) - len(completed)
    report.moves = sum(m.moves for m in results)
    report.by_game = dict(Counter(m.game for m in completed))
    report.lost = [
        f"#{m.index} {m.game}/{m.preset} {m.seats} seats seed {m.seed}: {m.error}"
        for m in results
        if m.error
    ]
    for match in completed:
        match.replay_agrees = replay(match)
    report.replays_agreeing = sum(1 for m in completed if m.replay_agrees)
    note(f"{report.replays_agreeing} of {len(completed)} replays agree")
    return report


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="failover.py",
        description="Croupier behind haproxy: random matches, one server killed mid-run.",
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="start matches for this long")
    parser.add_argument("--kill-at", type=float, default=None, help="kill -9 after (default: 1/3)")
    parser.add_argument("--kill", type=int, default=2, help="which server (1..N; 0: none)")
    parser.add_argument("--servers", type=int, default=3, help="croupier serve processes")
    parser.add_argument("--clients", type=int, default=4, help="client threads")
    parser.add_argument("--seed", type=int, default=1, help="seed of the match plan")
    parser.add_argument(
        "--games", default=",".join(DEFAULT_GAMES), help="comma-separated games, or all"
    )
    parser.add_argument("--attempts", type=int, default=5, help="client attempts per call (1-5)")
    parser.add_argument("--lb-retries", type=int, default=3, help="haproxy retries")
    parser.add_argument(
        "--lb-retry-on", default=DEFAULT_RETRY_ON, help="haproxy retry-on (none: the client alone)"
    )
    parser.add_argument("--report", type=Path, default=ROOT / "reports/failover/REPORT.md")
    parser.add_argument("--workdir", type=Path, default=None, help="keep configs and logs here")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.kill_at is None:
        args.kill_at = args.seconds / 3
    haproxy = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")
    if haproxy is None:
        print("failover: haproxy is not installed (make failover installs it)", file=sys.stderr)
        return 2
    report = run(args, haproxy)
    write_report(report, args.report)
    print(format_report(report), end="")
    print(f"(written to {args.report})")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
