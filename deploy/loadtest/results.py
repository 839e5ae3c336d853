"""One measured ghz run and the figures derived from it.

The figure that matters is per server core: calls (or moves) per CPU-second
of the server's processes. ghz runs on the same machine and takes its share
of the cores, so calls per wall-clock second says as much about ghz as about
the server; calls per server CPU-second does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from suite import Case

_PROC_STAT = Path("/proc/stat")


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine since boot, all cores."""
    fields = [int(v) for v in _PROC_STAT.read_text().split("\n", 1)[0].split()[1:9]]
    # user nice system idle iowait irq softirq steal: idle and iowait are not busy.
    total = sum(fields)
    return total - fields[3] - fields[4], total


@dataclass
class Result:
    """What one ghz run of one case against a server with `workers` workers gave."""

    case: Case
    workers: int
    ok: int  # calls that ended OK (streams, for ApplyMoveStream)
    errors: int
    seconds: float  # ghz's test duration, including calls finished after the stop
    latency_ms: dict[int, float]  # percentile -> ms (a whole stream, for ApplyMoveStream)
    server_cpu: float  # server CPU seconds, all its processes
    client_cpu: float  # ghz CPU seconds
    wall_seconds: float  # the whole ghz process, start-up included: the CPU window
    machine_busy_cores: float  # average busy cores of the whole machine in that window
    status: dict[str, int]
    repeat: int = 1  # which run of its case in the pass

    @property
    def slug(self) -> str:
        """The file name of its ghz JSON report, without "-w<N>.json"."""
        return self.case.slug if self.repeat == 1 else f"{self.case.slug}-{self.repeat}"

    @property
    def label(self) -> str:
        return self.case.label if self.repeat == 1 else f"{self.case.label} (run {self.repeat})"

    @property
    def moves(self) -> int:
        return self.ok * self.case.moves_per_call

    @property
    def calls_per_second(self) -> float:
        return self.ok / self.seconds if self.seconds else 0.0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def units(self) -> int:
        """What one "call" is for per-call figures: a stream's messages, each
        being one ApplyMove; every other RPC's calls."""
        return self.moves if self.case.stream else self.ok

    @property
    def cpu_us_per_call(self) -> float:
        return self.server_cpu / self.units * 1e6 if self.units else float("nan")

    @property
    def cpu_us_per_move(self) -> float:
        return self.server_cpu / self.moves * 1e6 if self.moves else float("nan")

    @property
    def calls_per_core(self) -> float:
        """Calls (stream messages) per server CPU-second."""
        return self.units / self.server_cpu if self.server_cpu else 0.0

    @property
    def moves_per_core(self) -> float:
        return self.moves / self.server_cpu if self.server_cpu else 0.0

    @property
    def client_us_per_call(self) -> float:
        return self.client_cpu / self.units * 1e6 if self.units else float("nan")

    @property
    def other_cores(self) -> float:
        """Busy cores that were neither the server nor ghz: other load on the
        machine, which makes every figure of the run less trustworthy."""
        if not self.wall_seconds:
            return 0.0
        ours = (self.server_cpu + self.client_cpu) / self.wall_seconds
        return max(0.0, self.machine_busy_cores - ours)


def from_ghz(
    case: Case,
    workers: int,
    report: dict,
    server_cpu: float,
    client_cpu: float,
    wall_seconds: float,
    machine_busy_cores: float,
) -> Result:
    """A Result from ghz's JSON report and the CPU readings around the run."""
    status = dict(report.get("statusCodeDistribution") or {})
    ok = int(status.get("OK", 0))
    latency = {
        int(d["percentage"]): d["latency"] / 1e6 for d in report.get("latencyDistribution") or []
    }
    return Result(
        case=case,
        workers=workers,
        ok=ok,
        errors=int(report.get("count", 0)) - ok,
        seconds=report.get("total", 0) / 1e9,
        latency_ms=latency,
        server_cpu=server_cpu,
        client_cpu=client_cpu,
        wall_seconds=wall_seconds,
        machine_busy_cores=machine_busy_cores,
        status=status,
    )


def combine(runs: list[Result]) -> Result:
    """Several runs of one case as one: calls, time and CPU summed, so the
    figures are totals ÷ totals (latencies are those of the first run)."""
    first = runs[0]
    if len(runs) == 1:
        return first
    status: dict[str, int] = {}
    for r in runs:
        for code, count in r.status.items():
            status[code] = status.get(code, 0) + count
    wall = sum(r.wall_seconds for r in runs)
    return Result(
        case=first.case,
        workers=first.workers,
        ok=sum(r.ok for r in runs),
        errors=sum(r.errors for r in runs),
        seconds=sum(r.seconds for r in runs),
        latency_ms=first.latency_ms,
        server_cpu=sum(r.server_cpu for r in runs),
        client_cpu=sum(r.client_cpu for r in runs),
        wall_seconds=wall,
        machine_busy_cores=sum(r.machine_busy_cores * r.wall_seconds for r in runs) / wall,
        status=status,
    )


def spread(runs: list[Result]) -> float:
    """How far apart the per-core figures of repeated runs are, relative to their mean."""
    values = [r.calls_per_core for r in runs if r.ok]
    if len(values) < 2:
        return 0.0
    return (max(values) - min(values)) / (sum(values) / len(values))
