"""What goal (a) leaves the engine: ApplyMove with the real engine beside a free one.

    .venv/bin/python deploy/loadtest/floor.py [--seconds 5] [--rounds 2] [--games uno,...]

`make loadtest` says how far each game's ApplyMove is from its goal; this says
how much of the distance is the engine's. It starts two one-worker servers on
loopback: `croupier serve` as it is, and the same program
with a free engine (`free_engine.py`: ApplyMove answered from a memo after
each request's first call, so that everything else a call costs, grpc, the
handler, sealing and serialization, stays). Against each it runs Health/Check
and every game's goal cases (ApplyMove on plain states, on sealed states, and
Scala 40's crowded table) under ghz, `--rounds` times, the two servers' runs in turn, reading the
server's CPU from /proc around each run, and prints per case:

- `real ×` and `free ×`: calls/s per core ÷ Health/Check's on the same
  server, with the engine and with the free one. `free ×` is the most any
  engine could reach on this serving path;
- `engine µs`: server CPU per call, real minus free: what the engine costs
  inside the server (its caches cold after grpc's work, so more than in a loop);
- `budget µs`: what the goal leaves the engine: Health/Check's CPU per call ÷
  goal − the free server's CPU per call; negative when no engine can meet it.

Everything stays on 127.0.0.1; about (2 + cases) × rounds × 2 × seconds.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

import ghz
import make_data
import server
import suite
from protoset import write_protoset

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DATA = HERE / "data"
REPORTS = ROOT / "reports" / "loadtest"
CROUPIER = Path(sys.executable).parent / "croupier"
FREE_ENGINE = [sys.executable, str(HERE / "free_engine.py")]
GOAL = 0.80  # goal (a): ApplyMove per core ÷ Health/Check's
GOAL_SEALED = 0.90  # issue 12: on sealed states
WARMUP_SECONDS = 0.5


@dataclass
class Tally:
    """Calls answered OK and server CPU seconds of one case, over its runs."""

    calls: int = 0
    cpu: float = 0.0
    errors: int = 0

    @property
    def cpu_us(self) -> float:
        return self.cpu / self.calls * 1e6 if self.calls else float("nan")


@dataclass
class Measured:
    """One server's tallies by case label (Health/Check under suite.BASELINE)."""

    tallies: dict[str, Tally] = field(default_factory=dict)

    def ratio(self, label: str) -> float:
        return self.tallies[suite.BASELINE].cpu_us / self.tallies[label].cpu_us


def goal_cases(manifest: dict, games: list[str]) -> list[suite.Case]:
    """Health/Check and the ApplyMove cases the goals rest on, for `games`."""
    chosen = {"games": {g: e for g, e in manifest["games"].items() if not games or g in games}}
    every = suite.cases(chosen, DATA, {suite.WEB_PORT: "not measured here"})
    variants = ("", suite.SEALED, suite.CROWDED)
    return [c for c in every if c.rpc == suite.BASELINE or (
        c.rpc == "ApplyMove" and c.variant in variants)]  # fmt: skip


def measure(cases: list[suite.Case], args: argparse.Namespace) -> tuple[Measured, Measured]:
    """Both servers side by side, their runs taken in turn (real, then free,
    in every round), so that a slow minute of the machine falls on both."""
    ghz_bin = ghz.ensure_ghz()
    protoset = write_protoset(DATA / "croupier.protoset")
    flags = server.serve_flags(CROUPIER)
    extra = ["--seal-keys", str(DATA / make_data.SEAL_KEYS_FILE)]
    servers: list[server.Server] = []
    try:
        for name, command in (("real", CROUPIER), ("free", FREE_ENGINE)):
            log = REPORTS / f"floor-{name}.log"
            servers.append(server.start(command, 1, flags, log, extra))
        measured = [Measured() for _ in servers]
        for srv in servers:
            for case in cases:
                args_ = suite.ghz_args(case, srv.target, protoset, 1, WARMUP_SECONDS)
                ghz.run(ghz_bin, args_, 120)
        for _ in range(args.rounds):
            for srv, tallies in zip(servers, measured, strict=True):
                for case in cases:
                    cpu = srv.cpu_seconds()
                    args_ = suite.ghz_args(case, srv.target, protoset, 1, args.seconds)
                    report = ghz.run(ghz_bin, args_, args.seconds + 120).report
                    tally = tallies.tallies.setdefault(case.label, Tally())
                    tally.cpu += srv.cpu_seconds() - cpu
                    ok = int((report.get("statusCodeDistribution") or {}).get("OK", 0))
                    tally.calls += ok
                    tally.errors += int(report.get("count", 0)) - ok
    finally:
        for srv in servers:
            server.stop(srv)
    return measured[0], measured[1]


def table(cases: list[suite.Case], real: Measured, free: Measured) -> list[str]:
    health_us = real.tallies[suite.BASELINE].cpu_us
    lines = [
        f"Health/Check: {health_us:.0f} µs of server CPU per call with the real engine, "
        f"{free.tallies[suite.BASELINE].cpu_us:.0f} with the free one",
        "",
        "| case | real × | free × | engine µs | budget µs | goal |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    for case in cases:
        if case.rpc == suite.BASELINE:
            continue
        label = case.label
        goal = GOAL_SEALED if case.variant == suite.SEALED else GOAL
        r, f = real.tallies[label], free.tallies[label]
        # The budget against each server's own Health/Check, so that the
        # two servers' drift does not enter it.
        budget = free.tallies[suite.BASELINE].cpu_us / goal - f.cpu_us
        lines.append(
            f"| {label} | {real.ratio(label):.2f} | {free.ratio(label):.2f} | "
            f"{r.cpu_us - f.cpu_us:.0f} | {budget:.0f} | {goal:.2f} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per run (5)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each case per server (2)")
    parser.add_argument("--games", default="", help="comma-separated games (default: all)")
    parser.add_argument("--seed", type=int, default=1, help="data seed (1)")
    args = parser.parse_args(argv)
    try:
        ghz.ensure_ghz()
    except ghz.GhzMissing as error:
        print(f"floor: {error}", file=sys.stderr)
        return 2
    manifest = make_data.write(make_data.build(args.seed), DATA, args.seed)
    REPORTS.mkdir(parents=True, exist_ok=True)
    cases = goal_cases(manifest, [g for g in args.games.split(",") if g])
    print(f"floor: {len(cases)} cases × {args.rounds} rounds × 2 servers", flush=True)
    real, free = measure(cases, args)
    errors = sum(t.errors for m in (real, free) for t in m.tallies.values())
    print("\n".join(table(cases, real, free)), flush=True)
    if errors:
        print(f"floor: {errors} calls failed; see {REPORTS}/floor-*.log", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
