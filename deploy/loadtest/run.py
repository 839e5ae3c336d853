"""`make loadtest`: the ghz suite against 1 and 2 workers, and its report.

    .venv/bin/python deploy/loadtest/run.py [--workers 1,2] [--seconds S] [--only RPC,...]
                                            [--compare-formats]

Steps: find or install ghz; build webload (webtool.py: the Connect load
generator of the browser port's cases; skipped, with a note, without Go);
regenerate the request data from seeded playouts
(make_data.py) and check it through the engine; then for each worker count
start `croupier serve` on a free loopback port (and its browser port, --web,
on another), wait for health SERVING, probe
which RPCs it has, warm it up, run every case of the suite (suite.py; the
Health/Check baseline and ApplyMove both first and last, ApplyMove over the
browser port too) with ghz, or webload for the web cases, while reading the
server's CPU time from /proc, and stop it with SIGTERM. Writes
reports/loadtest/<case>-w<N>.json (ghz's JSON report plus our CPU readings)
and reports/loadtest/REPORT.md.

Exit code: 0 when every run completed without errors (whether or not the goals
are met: the report says that), 1 when a run failed or had errors, 2 when ghz
is missing and cannot be installed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import ghz
import make_data
import report
import results
import server
import suite
import webtool
from google.protobuf.internal import api_implementation
from protoset import write_protoset

from croupier.v1 import service_pb2

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DATA = HERE / "data"
REPORTS = ROOT / "reports" / "loadtest"
CROUPIER = Path(sys.executable).parent / "croupier"
# Built by every run from deploy/loadtest/webload (never committed: reports/ is ignored).
WEBLOAD = REPORTS / "bin" / "webload"

# Seconds of load per worker count when --seconds is not given, shared by the
# cases, each getting between MIN and MAX seconds: with one game the suite
# takes about 3 minutes for 1 and 2 workers; more games shorten each run.
BUDGET_PER_PASS = 120.0
MIN_SECONDS, MAX_SECONDS = 3.0, 7.0
WARMUP_SECONDS = 0.5  # per case
# --tournament: a random-bots tournament through each pass's server after its
# ghz runs (croupier tournament's batched driver), compared per server core
# with ApplyMoveBatch. Matches in flight and per game; one connection per
# worker (at least 2): bigger batches, less server CPU per move.
TOURNAMENT_PARALLEL = 256
TOURNAMENT_MATCHES = 300
TOURNAMENT_GOAL = 0.5  # × ApplyMoveBatch's moves/s per core
# Played by default: the first game, and the rummy whose listing of moves
# (which a harness needs at every move) costs the server most.
TOURNAMENT_GAMES = ["hundred_and_one", "scala40"]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    started = time.monotonic()
    try:
        ghz_bin = ghz.ensure_ghz()
    except ghz.GhzMissing as error:
        print(f"loadtest: {error}", file=sys.stderr)
        return 2
    webload: Path | None = None
    webload_missing = ""
    try:
        webload = webtool.build(WEBLOAD)
    except (webtool.WebloadMissing, subprocess.TimeoutExpired) as error:
        webload_missing = str(error)
        print(f"loadtest: {error}; the web port's cases are skipped", file=sys.stderr)

    manifest = make_data.write(make_data.build(args.seed), DATA, args.seed)
    problems = make_data.check_dir(DATA)
    if problems:
        print("loadtest: the generated data is wrong:\n" + "\n".join(problems), file=sys.stderr)
        return 1
    protoset = write_protoset(DATA / "croupier.protoset")
    REPORTS.mkdir(parents=True, exist_ok=True)
    for old in [*REPORTS.glob("*.json"), *REPORTS.glob("*.log"), REPORTS / "REPORT.md"]:
        old.unlink(missing_ok=True)  # a report never mixes two runs

    flags = server.serve_flags(CROUPIER)
    workers = args.workers if "--workers" in flags else [1]
    if workers != args.workers:
        print("loadtest: this server has no --workers flag: 1 process only", flush=True)
    runner = _Runner(ghz_bin, protoset, manifest, args, webload, webload_missing)
    passes = [runner.run_pass(n) for n in workers]

    elapsed = time.monotonic() - started
    header = _header(manifest, ghz_bin, runner.seconds_used, elapsed, flags, webload_missing)
    (REPORTS / "REPORT.md").write_text(report.render(passes, header))
    # Every game's ApplyMove per core against Health/Check's, the figures the
    # issues' closing notes quote.
    print("\n".join(report.goal_a(passes)), flush=True)
    print("\n".join(report.goal_sealed(passes)), flush=True)
    # Connect unary ApplyMove on the browser port against gRPC unary ApplyMove.
    print("\n".join(report.goal_web(passes)), flush=True)
    if runner.tournaments:
        section = _tournament_section(passes, runner.tournaments)
        with (REPORTS / "REPORT.md").open("a") as sink:
            sink.write("\n" + "\n".join(section) + "\n")
        print("\n".join(section), flush=True)
    print(f"loadtest: {REPORTS / 'REPORT.md'} written; total {elapsed:.0f} s", flush=True)
    failed = any(p.failures for p in passes) or any(r.errors for p in passes for r in p.results)
    return 1 if failed else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workers",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[1, 2],
        help="worker counts to test, comma-separated (default 1,2)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=float(os.environ.get("LOADTEST_SECONDS", 0)) or None,
        help="seconds per case (env LOADTEST_SECONDS; default: share "
        f"{BUDGET_PER_PASS:g} s per worker count, {MIN_SECONDS:g}-{MAX_SECONDS:g} s each)",
    )
    parser.add_argument(
        "--only",
        type=lambda text: [rpc for rpc in text.split(",") if rpc],
        default=[],
        help="run only these RPCs' cases, comma-separated (e.g. ApplyMove); "
        "Health/Check always runs",
    )
    parser.add_argument("--seed", type=int, default=make_data.DEFAULT_SEED, help="data seed")
    parser.add_argument(
        "--compare-formats",
        action="store_true",
        help="also run ApplyMove fed from JSON (--data-file), to compare with binary",
    )
    parser.add_argument(
        "--tournament",
        type=lambda text: [game for game in text.split(",") if game],
        default=TOURNAMENT_GAMES,
        metavar="GAME,...",
        help="after each pass's ghz runs, play a random-bots tournament of these games "
        "through its server (croupier tournament's driver) and compare its moves/s per "
        f"server core with ApplyMoveBatch's (default {','.join(TOURNAMENT_GAMES)}; "
        "'' for none)",
    )
    parser.add_argument(
        "--tournament-matches",
        type=int,
        default=TOURNAMENT_MATCHES,
        help=f"matches per game with --tournament (default {TOURNAMENT_MATCHES})",
    )
    parser.add_argument(
        "--keep-details",
        action="store_true",
        help="keep ghz's per-call 'details' in the JSON reports (large)",
    )
    return parser


class _Runner:
    """Runs the suite against one server after another."""

    def __init__(
        self,
        ghz_bin: Path,
        protoset: Path,
        manifest: dict,
        args,
        webload: Path | None = None,
        webload_missing: str = "",
    ) -> None:
        self.ghz = ghz_bin
        self.webload = webload
        self.webload_missing = webload_missing
        self.protoset = protoset
        self.manifest = manifest
        self.args = args
        self.seconds_used = 0.0
        self.tournaments: list[tuple[int, Any]] = []  # (workers, throughput.Measurement)

    def run_pass(self, workers: int) -> report.Pass:
        flags = server.serve_flags(CROUPIER)
        log = REPORTS / f"server-w{workers}.log"
        print(f"loadtest: starting croupier serve with {workers} worker(s)", flush=True)
        # The key of the sealed-state data (make_data.py), when the server can seal.
        sealing = "--seal-keys" in flags
        extra = ["--seal-keys", str(DATA / make_data.SEAL_KEYS_FILE)] if sealing else []
        # The browser port's cases need the server's --web and webload.
        web = "--web" in flags and self.webload is not None
        srv = server.start(CROUPIER, workers, flags, log, extra, web=web)
        p = report.Pass(workers, server_argv=srv.argv)
        try:
            p.server_processes = srv.processes()
            first_game = next(iter(self.manifest["games"]))
            item = make_data.read_game(DATA, first_game)["ApplyMove"][0]
            assert isinstance(item, service_pb2.ApplyMoveRequest)
            available = server.probe_rpcs(srv.target, item)
            if not sealing:
                available[suite.SEALED_STATES] = "this server has no --seal-keys flag"
            if "--web" not in flags:
                available[suite.WEB_PORT] = "this server has no --web flag"
            elif not web:
                available[suite.WEB_PORT] = self.webload_missing
            p.unavailable = {rpc: why for rpc, why in available.items() if why}
            cases = suite.cases(self.manifest, DATA, available)
            if self.args.only:
                cases = suite.only(cases, self.args.only)
            if self.args.compare_formats:
                cases.insert(3, suite.json_case(self.manifest, DATA, first_game))
            runs = suite.schedule(cases)
            seconds = self.args.seconds or min(
                MAX_SECONDS, max(MIN_SECONDS, BUDGET_PER_PASS / len(runs))
            )
            self.seconds_used = seconds
            # Warm-up, not measured: the first calls of each RPC in each worker
            # pay for lazy imports, caches and metric files.
            for case in cases:
                ghz.run(*self._command(case, srv, WARMUP_SECONDS), timeout=120)
            for case, repeat in runs:
                try:
                    p.results.append(self._measure(case, repeat, srv, seconds))
                except (RuntimeError, subprocess.TimeoutExpired) as error:
                    p.failures[f"{case.label} (run {repeat})"] = str(error)[-500:]
                    print(f"loadtest: {case.label} failed: {error}", file=sys.stderr)
            for game in self.args.tournament:
                try:
                    self.tournaments.append((workers, self._tournament(game, srv)))
                except Exception as error:  # reported like a failed ghz run
                    p.failures[f"tournament [{game}]"] = str(error)[-500:]
                    print(f"loadtest: tournament [{game}] failed: {error}", file=sys.stderr)
        finally:
            p.server_exit = server.stop(srv)
        return p

    def _tournament(self, game: str, srv: server.Server) -> Any:
        from croupier.tournament import throughput

        m = throughput.measure(
            srv.target,
            game,
            matches=self.args.tournament_matches,
            parallel=TOURNAMENT_PARALLEL,
            lanes=max(2, srv.workers),
            server_cpu=srv.cpu_seconds,
        )
        print(
            f"  w{srv.workers} {'tournament [' + game + ']':48} {m.moves_per_second:8,.0f} moves/s "
            f"{m.moves_per_core:8,.0f} /core  ({m.moves:,} moves, {m.finished}/{m.matches} "
            "matches finished)",
            flush=True,
        )
        return m

    def _command(
        self, case: suite.Case, srv: server.Server, seconds: float
    ) -> tuple[Path, list[str]]:
        """The load generator of `case` and its arguments: webload against the
        browser port for a web case, ghz against the gRPC port otherwise."""
        if case.web:
            assert self.webload is not None
            return self.webload, suite.webload_args(case, srv.web_url, srv.workers, seconds)
        return self.ghz, suite.ghz_args(case, srv.target, self.protoset, srv.workers, seconds)

    def _measure(
        self, case: suite.Case, repeat: int, srv: server.Server, seconds: float
    ) -> results.Result:
        tool, args = self._command(case, srv, seconds)
        busy0, _ = results.machine_ticks()
        cpu0 = srv.cpu_seconds()
        start = time.monotonic()
        run = ghz.run(tool, args, timeout=seconds + 120)
        wall = time.monotonic() - start
        server_cpu = srv.cpu_seconds() - cpu0
        busy1, _ = results.machine_ticks()
        busy_cores = (busy1 - busy0) / os.sysconf("SC_CLK_TCK") / wall
        result = results.from_ghz(
            case, srv.workers, run.report, server_cpu, run.client_cpu_seconds, wall, busy_cores
        )
        result.repeat = repeat
        self._save(result, run.report, srv)
        print(
            f"  w{srv.workers} {result.label:48} {result.calls_per_second:8,.0f} calls/s "
            f"{result.calls_per_core:8,.0f} /core  {result.cpu_us_per_call:6,.0f} µs/call "
            f"errors {result.errors}",
            flush=True,
        )
        return result

    def _save(self, result: results.Result, ghz_report: dict, srv: server.Server) -> None:
        if not self.args.keep_details:
            ghz_report.pop("details", None)  # one entry per call: megabytes
        options = ghz_report.get("options") or {}
        if len(json.dumps(options.get("data"))) > 1000:
            # ghz copies JSON request data into its report: name the file instead.
            options["data"] = f"(the requests of {result.case.data[-1]})"
        ghz_report["croupier_loadtest"] = {
            "client": "webload" if result.case.web else "ghz",
            "workers": srv.workers,
            "server_argv": srv.argv,
            "server_cpu_seconds": result.server_cpu,
            "ghz_cpu_seconds": result.client_cpu,
            "wall_seconds": result.wall_seconds,
            "machine_busy_cores": result.machine_busy_cores,
            "moves_per_call": result.case.moves_per_call,
            "server_cpu_us_per_call": result.cpu_us_per_call,
            "calls_per_core": result.calls_per_core,
            "moves_per_core": result.moves_per_core,
        }
        path = REPORTS / f"{result.slug}-w{srv.workers}.json"
        path.write_text(json.dumps(ghz_report, indent=1) + "\n")


def _tournament_section(passes: list[report.Pass], measured: list[tuple[int, Any]]) -> list[str]:
    """The tournament runs beside ApplyMoveBatch's moves/s per core in the same pass."""
    lines = [
        "## Tournament through the same server",
        "",
        "`croupier tournament`'s driver (croupier.tournament.throughput) after each pass's ghz "
        f"runs: random bots, {TOURNAMENT_PARALLEL} matches in flight, one ApplyMoveBatch per "
        "connection and round with next_legal_moves, plus NewGame, NextDeal and the first "
        "ListLegalMoves of each deal as unary calls. Per core = moves ÷ the server's CPU "
        f"seconds during the tournament; goal ≥ {TOURNAMENT_GOAL:g} × ApplyMoveBatch's "
        "moves/s per core on the same server (ghz, plain ApplyMove items).",
        "",
        "| pass, game | matches (seats) | moves | moves/s | server CPU s | moves/s per core "
        "| ApplyMoveBatch moves/s per core | ratio | goal |",
        "|---|---|--:|--:|--:|--:|--:|--:|---|",
    ]
    for workers, m in measured:
        pass_ = next(p for p in passes if p.workers == workers)
        case = next(
            (
                r.case
                for r in pass_.results
                if r.case.rpc == "ApplyMoveBatch" and r.case.game == m.game and not r.case.variant
            ),
            None,
        )
        combined = pass_.combined(case) if case else None
        batch = combined.moves_per_core if combined else 0.0
        ratio = m.moves_per_core / batch if batch else float("nan")
        verdict = "–" if not batch else ("met" if ratio >= TOURNAMENT_GOAL else "**not met**")
        lines.append(
            f"| {workers}w, {m.game} | {m.finished}/{m.matches} ({m.seats}) | {m.moves:,} "
            f"| {m.moves_per_second:,.0f} | {m.server_cpu:.1f} | {m.moves_per_core:,.0f} "
            f"| {batch:,.0f} | {ratio:.2f} | {verdict} |"
        )
    return lines


def _header(
    manifest: dict,
    ghz_bin: Path,
    seconds: float,
    elapsed: float,
    flags: set[str],
    webload_missing: str = "",
) -> list[str]:
    import grpc

    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    games = ", ".join(
        f"{game} ({entry['files']['ApplyMove']['messages']} ApplyMove positions over "
        f"{len(entry['tables'])} preset × seat-count tables)"
        for game, entry in manifest["games"].items()
    )
    workers_note = "" if "--workers" in flags else " (this server has no --workers: 1 process)"
    lines = [
        f"- Run: {now}, commit {_commit()}; total runtime {elapsed:.0f} s.",
        f"- Machine: {os.cpu_count()} cores ({_cpu_model()}), {platform.system()} "
        f"{platform.release()}; Python {platform.python_version()}, grpcio {grpc.__version__}, "
        f"protobuf backend {api_implementation.Type()}; ghz {ghz.version(ghz_bin)}.",
        f"- Load: {seconds:g} s per case; {suite.CONNECTIONS_PER_WORKER} connections and "
        f"{suite.CONCURRENCY_PER_WORKER['unary']} concurrent calls per worker "
        f"({suite.CONCURRENCY_PER_WORKER['batch']} for ApplyMoveBatch, "
        f"{suite.CONCURRENCY_PER_WORKER['stream']} streams of {suite.STREAM_MESSAGES} "
        f"messages per worker for ApplyMoveStream){workers_note}.",
        f"- Data (seed {manifest['seed']}, binary, regenerated by make_data.py): {games}.",
    ]
    if "--seal-keys" in flags:
        lines.append(
            f"- Sealed states (`{suite.SEALED}`): the ApplyMove positions with every state "
            "sealed (AES-256-GCM under the load test's key, `data/seal-keys`, which the server "
            "is started with); the server opens them and does not validate them again."
        )
    in_flight = suite.CONCURRENCY_PER_WORKER["unary"]
    if "--web" not in flags:
        lines.append(f"- Web port (`{suite.WEB}`): not measured: this server has no --web flag.")
    elif webload_missing:
        lines.append(f"- Web port (`{suite.WEB}`): not measured: {webload_missing}.")
    else:
        lines.append(
            f"- Web port (`{suite.WEB}`): the ApplyMove positions as Connect unary calls "
            "(POST, application/proto, no compression) to the server's browser port "
            f"(`--web`), sent by webload (deploy/loadtest/webload, Go net/http, "
            f"{webtool.go_version()}): {in_flight} keep-alive HTTP/1.1 connections per "
            "worker, one call in flight on each."
        )
    for game, entry in manifest["games"].items():
        crowded = entry.get("crowded")
        if crowded:
            lines.append(f"- {_crowded_note(game, crowded)}")
    return lines


def _crowded_note(game: str, c: dict) -> str:
    """The crowded-table data (make_data.describe_crowded) in one sentence."""

    def spread(values: list) -> str:
        low, mean, high = values
        return f"{low:g}–{high:g} (mean {mean:g})"

    moves = ", ".join(f"{kind} {count}" for kind, count in c["moves"].items())
    return (
        f"Crowded table ({game}, `{suite.CROWDED}`): {c['positions']} positions at "
        f"{'/'.join(str(n) for n in c['seats'])} seats over presets {', '.join(c['presets'])}; "
        f"melds on the table {spread(c['melds'])}, jokers laid {spread(c['table_jokers'])}, "
        f"cards per hand {spread(c['mean_hand'])}, state {spread(c['state_bytes'])} bytes; "
        f"moves played there: {moves}."
    )


def _commit() -> str:
    """The commit under test, marked when the work tree has changes."""

    def git(*args: str) -> str:
        run = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10)
        return run.stdout.strip()

    try:
        sha = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return f"{sha} + uncommitted changes" if dirty else sha or "unknown"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
