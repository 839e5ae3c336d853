"""The budgeted run: in-process over `engine.api`, then through a live server.

Input number i of a phase is drawn from its own generator, seeded by
(seed, phase, i): a run is reproducible, and any one input can be rebuilt
alone (`--replay engine:1234`). Each new kind of finding is shrunk and kept
with its smallest input; later inputs that find the same are only counted.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from croupier_fuzz import corpus as corpus_module
from croupier_fuzz.cases import MULTI, Case, draw, draw_rpc, parsed, shrink
from croupier_fuzz.corpus import IN_PROCESS_RPCS, WIRE_RPCS, Corpus
from croupier_fuzz.mutate import Limits, Mutator
from croupier_fuzz.oracle import MAX_MESSAGE_BYTES, Problem, Verdict, judge_engine
from croupier_fuzz.source import RandomSource

# How often each RPC is drawn: the move path most, every RPC some (one that
# service.proto adds later gets DEFAULT_WEIGHT).
WEIGHTS = {
    "ListGames": 1,
    "NewGame": 14,
    "ApplyMove": 32,
    "ListLegalMoves": 13,
    "GetView": 12,
    "DefaultMove": 12,
    "NextDeal": 16,
    "ApplyMoveBatch": 8,
    "ApplyMoveStream": 8,
    "ChooseMove": 12,
}
DEFAULT_WEIGHT = 10
# In-process: engine.api's RPCs and BotService's (the built-in bots).
ENGINE_WEIGHTS = {rpc: WEIGHTS.get(rpc, DEFAULT_WEIGHT) for rpc in IN_PROCESS_RPCS}
# On the wire, besides those: the batch and the stream of ApplyMove (a
# streaming RPC of another shape would need a judge of its own first).
WIRE_WEIGHTS = {
    rpc: WEIGHTS.get(rpc, DEFAULT_WEIGHT)
    for rpc in (*IN_PROCESS_RPCS, *WIRE_RPCS)
    if rpc in (*IN_PROCESS_RPCS, *MULTI)
}
NOT_FUZZED = tuple(rpc for rpc in WIRE_RPCS if rpc not in WIRE_WEIGHTS)

Judge = Callable[[Case, int], Verdict]


@dataclass
class RpcTally:
    inputs: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    largest_error: int = 0
    largest_error_input: int = -1
    slowest: float = 0.0


@dataclass
class Finding:
    problem: Problem
    phase: str
    index: int  # the input number that found it first
    case: Case
    count: int = 1
    shrunk: Case | None = None


@dataclass
class Results:
    seed: int
    corpus: Corpus
    tallies: dict[str, dict[str, RpcTally]] = field(default_factory=dict)
    findings: dict[str, Finding] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    live: dict[str, object] = field(default_factory=dict)  # server figures (RSS, workers)

    def record(self, phase: str, case: Case, index: int, verdict: Verdict, judge: Judge) -> None:
        tally = self.tallies.setdefault(phase, {}).setdefault(case.rpc, RpcTally())
        tally.inputs += 1
        tally.codes[verdict.code] += 1
        if verdict.error_size > tally.largest_error:
            tally.largest_error = verdict.error_size
            tally.largest_error_input = index
        tally.slowest = max(tally.slowest, verdict.seconds)
        for problem in verdict.problems:
            known = self.findings.get(problem.signature)
            if known is not None:
                known.count += 1
                continue
            finding = Finding(problem, phase, index, case)
            # A slow input costs a second or more per try: a few tries only.
            budget = 12 if problem.kind in ("slow", "memory jump") else 200
            try:
                finding.shrunk = shrink(case, _same(problem, judge, index), budget)
            except Exception as error:  # a bug of the fuzzer must not lose the run
                _say(f"could not shrink {problem.signature}: {error!r}")
            self.findings[problem.signature] = finding

    def note(self, problem: Problem) -> None:
        """A problem found outside any one input (health, a worker that died)."""
        known = self.findings.get(problem.signature)
        if known is not None:
            known.count += 1
        else:
            self.findings[problem.signature] = Finding(problem, "live", -1, Case(problem.rpc))


def _same(problem: Problem, judge: Judge, index: int) -> Callable[[Case], bool]:
    def fails(candidate: Case) -> bool:
        return any(p.signature == problem.signature for p in judge(candidate, index).problems)

    return fails


def input_source(seed: int, phase: str, index: int) -> RandomSource:
    """The generator of input `index` of `phase`: one per input, so that any
    input can be rebuilt alone."""
    return RandomSource(_mix(seed, phase, index))


def _mix(seed: int, phase: str, index: int) -> int:
    # A stable integer (no hash(): it changes between processes).
    return random.Random(f"{seed}/{phase}/{index}").getrandbits(64)


def engine_judge(corpus: Corpus) -> Judge:
    def judge(case: Case, index: int) -> Verdict:
        request = parsed(corpus, case)
        if request is None:  # the server answers INVALID_ARGUMENT before the engine
            return Verdict("INVALID_ARGUMENT")
        if request.ByteSize() > MAX_MESSAGE_BYTES:  # grpc refuses it before any handler
            return Verdict("RESOURCE_EXHAUSTED")
        return judge_engine(case.rpc, request, pick=index)

    return judge


def engine_case(corpus: Corpus, mutator: Mutator, seed: int, index: int) -> Case:
    source = input_source(seed, "engine", index)
    return draw(source, corpus, mutator, draw_rpc(source, ENGINE_WEIGHTS))


def run_engine(
    results: Results, mutator: Mutator, inputs: int, progress: bool, max_rss_mb: int = 4096
) -> None:
    """Phase 1: `inputs` mutated requests straight into engine.api. The engine
    runs in this process, so its memory is watched here: an input after which
    the RSS jumped by JUMP_MB is a finding, and past `max_rss_mb` the phase
    stops (a finding too) before the machine runs out."""
    corpus = results.corpus
    judge = engine_judge(corpus)
    started = last = time.monotonic()
    before = rss_mb()
    for index in range(inputs):
        case = engine_case(corpus, mutator, results.seed, index)
        verdict = judge(case, index)
        after = rss_mb()
        if after - before > JUMP_MB:
            detail = f"RSS {before} -> {after} MB"
            verdict.problems.append(Problem(case.rpc, "memory jump", f"+{JUMP_MB} MB", detail))
        before = after
        results.record("engine", case, index, verdict, judge)
        if after > max_rss_mb:
            detail = f"RSS {after} MB after input {index}; the phase stopped there"
            results.note(Problem("fuzzer", "memory exhausted", f"over {max_rss_mb} MB", detail))
            break
        if progress and time.monotonic() - last > 10:
            last = time.monotonic()
            _say(
                f"engine: {index + 1}/{inputs} inputs, {len(results.findings)} findings, "
                f"RSS {after} MB"
            )
    results.seconds["engine"] = time.monotonic() - started


# An input after which this process's RSS grew by more than this is a finding.
JUMP_MB = 256


def rss_mb() -> int:
    """This process's resident memory in MB (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


def build_corpus(seed: int) -> Corpus:
    return corpus_module.build(seed)


def make_mutator(corpus: Corpus, limits: Limits) -> Mutator:
    return Mutator(limits, names=corpus.names)


def _say(text: str) -> None:
    print(f"[fuzz] {text}", file=sys.stderr, flush=True)


def live_case(corpus: Corpus, mutator: Mutator, seed: int, index: int) -> Case:
    source = input_source(seed, "live", index)
    return draw(source, corpus, mutator, draw_rpc(source, WIRE_WEIGHTS))


def _settled_rss(server: Any) -> dict[int, tuple[int, int]]:
    """Each worker's (VmRSS, VmHWM) once it has given back what it freed: the
    lowest VmRSS over one trim period. A worker gives freed pages back every
    TRIM_EVERY seconds (service/memory.py), so a reading taken at once counts
    the last inputs' freed memory or not, by when the worker last trimmed: one
    seed's live phase read +24.0 % in one run and +10.4 % in the next. What
    the growth limit is about (issue 7, F4) is what a worker keeps."""
    from croupier.service.memory import TRIM_EVERY

    lowest = server.rss()
    deadline = time.monotonic() + TRIM_EVERY + 1.0
    while time.monotonic() < deadline:
        time.sleep(0.5)
        for pid, (rss, peak) in server.rss().items():
            kept = lowest.get(pid, (rss, peak))[0]
            lowest[pid] = (min(rss, kept), peak)
    return lowest


def run_live(
    results: Results,
    mutator: Mutator,
    inputs: int,
    *,
    workers: int = 1,
    log_level: str = "warning",
    progress: bool = False,
    rss_growth_limit: float | None = None,
    web_share: float = 0.0,
) -> None:
    """Phase 2: `inputs` mutated requests (and mutated bytes) through a real
    channel to `croupier serve`; worker RSS before and after (a finding
    when it grew by more than `rss_growth_limit` per cent). `web_share` of
    them go to its web port instead (web.py), recorded as phases of their
    own, "live web/<route>" (`phase_of`)."""
    from croupier_fuzz import live, web

    corpus = results.corpus
    started = time.monotonic()
    with live.serving(workers, log_level) as server:
        judge = live.LiveJudge(server, corpus, web_share=web_share, seed=results.seed)
        # Warm-up with real requests of every RPC, so that the RSS measured
        # before is that of a server that has served, not of a fresh one; with
        # a web share, one in four through the web port (its routes in turn).
        warm = 0
        for rpc, requests in sorted(corpus.requests.items()):
            for base in range(min(len(requests), 60)):
                warm += 1
                way = web.ROUTES[base // 4 % 3] if web_share > 0 and base % 4 == 3 else None
                verdict = judge.send(Case(rpc, base), -warm, way, mangle_json=False)
                results.record("live warm-up", Case(rpc, base), -warm, verdict, judge)
        pids = server.worker_pids()
        before = server.rss()
        last = time.monotonic()
        for index in range(inputs):
            case = live_case(corpus, mutator, results.seed, index)
            verdict = judge(case, index)
            results.record(phase_of(verdict), case, index, verdict, judge)
            if index % 500 == 499:
                _check_health(results, server, index)
            if progress and time.monotonic() - last > 10:
                last = time.monotonic()
                _say(f"live: {index + 1}/{inputs} inputs, {len(results.findings)} findings")
        _check_health(results, server, inputs)
        after = server.rss() if rss_growth_limit is None else _settled_rss(server)
        if server.worker_pids() != pids:
            results.note(Problem("server", "worker died", f"{pids} -> {server.worker_pids()}"))
        if rss_growth_limit is not None:
            for pid, (rss_before, _) in before.items():
                rss_after = after.get(pid, (0, 0))[0]
                growth = (rss_after - rss_before) / rss_before * 100 if rss_before else 0.0
                if growth > rss_growth_limit:
                    results.note(
                        Problem(
                            "server",
                            f"worker RSS grew over {rss_growth_limit:g} %",
                            "RSS",
                            f"worker {pid}: {rss_before} kB -> {rss_after} kB ({growth:+.1f} %) "
                            f"over {inputs} inputs",
                        )
                    )
        judge.close()
        results.live = {
            "workers": workers,
            "web_share": web_share,
            "log_level": log_level,
            "warm_up_calls": warm,
            "rss_before_kb": {str(p): v[0] for p, v in before.items()},
            "rss_after_kb": {str(p): v[0] for p, v in after.items()},
            "rss_peak_kb": {str(p): v[1] for p, v in after.items()},
            "server_log_bytes": server.log_bytes,
        }
    results.seconds["live"] = time.monotonic() - started


def phase_of(verdict: Verdict) -> str:
    """The phase a live input is reported in: "live" (the gRPC port) or
    "live web/<route>" (the web port: connect, json, grpc-web)."""
    return f"live web/{verdict.via}" if verdict.via else "live"


def _check_health(results: Results, server: Any, index: int) -> None:
    import grpc

    try:
        status = server.health(timeout=5.0)
    except grpc.RpcError as error:
        results.note(
            Problem("Health", "health check failed", error.code().name, f"after input {index}")
        )
        return
    if status != 1:  # SERVING
        results.note(Problem("Health", "health not SERVING", str(status), f"after input {index}"))
