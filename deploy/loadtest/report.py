"""REPORT.md: the tables per worker count and the evaluation of the goals.

Goals (issue 3):
(a) unary ApplyMove calls/s per server core >= 0.80 x the Health/Check
    baseline's, for every game's mid-game states, and for Scala 40's crowded
    6-seat table (issue 8);
(b) moves/s per server core through ApplyMoveStream or ApplyMoveBatch >= 10 x
    unary ApplyMove's;
(c) server CPU us per call does not grow from 1 to 2 workers;
(sealed) unary ApplyMove on sealed states calls/s per server core >= 0.90 x
    Health/Check's, for every game (issue 12: a sealed state is not
    validated again), quoted beside the plain ApplyMove.
(web) Connect unary ApplyMove on the browser port (`croupier serve --web`)
    calls/s per server core ÷ gRPC unary ApplyMove's, per game, on the same
    positions in the same pass (no target: measured and quoted).
Beside the goals (issue 6): a harness's server CPU per move over one call per
move (ApplyMove with next_legal_moves) and over two (ApplyMove, then
ListLegalMoves).
Every goal is a ratio of figures from the same run, so the machine's speed
cancels out; what does not cancel is other load, hence the noise allowance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from results import Result, combine, spread
from suite import BASELINE, CROWDED, ONE_CALL, SEALED, WEB, WEB_PORT, Case

GOAL_A = 0.80
GOAL_B = 10.0
GOAL_SEALED = 0.90
# A growth of CPU per call smaller than this (or than the run-to-run spread of
# the baseline, if larger) is within the noise of a shared 2-core machine.
MIN_NOISE = 0.05
# Other processes busier than this (cores) during a run make its CPU per call
# suspect: they share caches and cores with the server.
NOISY_OTHER_LOAD = 0.25


@dataclass
class Pass:
    """Every run against one server with `workers` worker processes."""

    workers: int
    results: list[Result] = field(default_factory=list)
    unavailable: dict[str, str] = field(default_factory=dict)  # rpc -> reason
    failures: dict[str, str] = field(default_factory=dict)  # case -> what went wrong
    server_argv: list[str] = field(default_factory=list)
    server_processes: int = 0
    server_exit: int | None = None

    def runs(self, case: Case) -> list[Result]:
        """Every completed run of `case` in this pass."""
        return [r for r in self.results if r.case == case and r.ok]

    def combined(self, case: Case) -> Result | None:
        """All runs of `case` as one result (None when none completed)."""
        runs = self.runs(case)
        return combine(runs) if runs else None

    def baseline_per_core(self) -> float:
        """Health/Check calls/s per core over all its runs in this pass."""
        base = next((r.case for r in self.results if r.case.rpc == BASELINE), None)
        combined = self.combined(base) if base else None
        return combined.calls_per_core if combined else float("nan")

    def noise(self) -> float:
        """The largest spread between repeated runs of one gRPC case in this
        pass (the web port's cases, another server path, leave goal (c)'s
        allowance as it was; their spread is in the table's notes)."""
        cases = {r.case: None for r in self.results if not r.case.web}
        return max((spread(self.runs(c)) for c in cases), default=0.0)

    def other_load(self) -> tuple[float, float]:
        """(mean, max) busy cores taken by neither the server nor ghz in this pass."""
        wall = sum(r.wall_seconds for r in self.results)
        if not wall:
            return 0.0, 0.0
        mean = sum(r.other_cores * r.wall_seconds for r in self.results) / wall
        return mean, max(r.other_cores for r in self.results)

    def find(self, rpc: str, game: str, variant: str = "") -> Result | None:
        """The case of `rpc` for `game` (the usual one, or `variant`), runs combined."""
        for r in self.results:
            if r.case.rpc == rpc and r.case.game == game and r.case.variant == variant:
                return self.combined(r.case)
        return None

    def why_missing(self, *cases: tuple[str, str, str]) -> str:
        """Why a figure built from these (rpc, game, variant) cases has no
        value: cases this pass did not run (`--only` left them out), or whose
        runs all failed."""
        ran = {(r.case.rpc, r.case.game, r.case.variant) for r in self.results}
        left_out, failed = [], []
        for rpc, game, variant in cases:
            name = f"{rpc} [{variant}]" if variant else rpc
            if (rpc, game, variant) not in ran:
                left_out.append(name)
            elif self.find(rpc, game, variant) is None:
                failed.append(name)
        reasons = [f"not run in this pass: {', '.join(left_out)}"] if left_out else []
        if failed:
            reasons.append(f"no result for {', '.join(failed)} (see the errors in the table)")
        return "; ".join(reasons) or "no result"

    def games(self) -> list[str]:
        seen: dict[str, None] = {}
        for r in self.results:
            if r.case.rpc == "ApplyMove" and not r.case.variant and r.case.game:
                seen[r.case.game] = None
        return list(seen)


def render(passes: Sequence[Pass], header: Sequence[str]) -> str:
    """The whole REPORT.md."""
    lines = ["# Croupier load test", "", *header, ""]
    lines += [
        "> ghz runs on the same machine as the server and competes with it for the "
        "same cores, so calls/s (wall clock) depend on ghz as much as on the server. "
        "The per-core figures divide by the server's own CPU time (supervisor and "
        "workers, read from /proc), which is what the goals compare; "
        "the *ghz µs/call* and *other load* columns show how much of the machine "
        "the client and anything else took during each run.",
        "",
    ]
    for p in passes:
        mean, peak = p.other_load()
        lines.append(
            f"- Other load during the {p.workers}-worker pass: {mean:.2f} cores on average, "
            f"{peak:.2f} at most in one run"
            + (" — noticeable: its figures are noisier than usual." if mean > 0.1 else ".")
        )
    lines += ["", "## Goals", ""]
    lines += goal_a(passes) + [""] + goal_b(passes) + [""] + goal_c(passes) + [""]
    lines += goal_sealed(passes) + [""]
    lines += goal_web(passes) + [""]
    lines += one_call_per_move(passes) + [""]
    lines += web_port(passes) + [""]
    for p in passes:
        lines += table(p) + [""]
    lines += legend()
    return "\n".join(lines) + "\n"


def table(p: Pass) -> list[str]:
    """The results of one pass as a markdown table, with its notes."""
    base = p.baseline_per_core()
    title = f"## {p.workers} worker{'s' if p.workers > 1 else ''}"
    out = [
        title,
        "",
        f"Server: `{' '.join(_short_argv(p.server_argv))}` ({p.server_processes} "
        f"process{'es' if p.server_processes != 1 else ''}; "
        f"exit code on SIGTERM: {p.server_exit}).",
        "",
        "| RPC | calls/s | moves/s | p50 ms | p90 ms | p99 ms | errors | server CPU µs/call "
        "| calls/s per core | moves/s per core | calls/core ÷ Health | moves/core ÷ Health "
        "| ghz CPU µs/call | other load (cores) |",
        "|---|" + "---:|" * 13,
    ]
    for r in p.results:
        move_rpc = r.case.moves_per_call > 0
        out.append(
            "| "
            + " | ".join(
                [
                    r.label,
                    _n(r.calls_per_second),
                    _n(r.moves_per_second) if move_rpc else "",
                    _ms(r.latency_ms.get(50)),
                    _ms(r.latency_ms.get(90)),
                    _ms(r.latency_ms.get(99)),
                    _errors(r),
                    _n(r.cpu_us_per_call),
                    _n(r.calls_per_core),
                    _n(r.moves_per_core) if move_rpc else "",
                    _x(r.calls_per_core / base),
                    _x(r.moves_per_core / base) if move_rpc else "",
                    _n(r.client_us_per_call),
                    f"{r.other_cores:.2f}",
                ]
            )
            + " |"
        )
    notes = []
    for rpc, reason in p.unavailable.items():
        if rpc == WEB_PORT:
            notes.append(f"- {rpc}: not measured ({reason}); skipped.")
        else:
            notes.append(f"- {rpc}: not available yet on this server ({reason}); skipped.")
    for what, error in p.failures.items():
        notes.append(f"- {what}: **the run failed**: {error}")
    for case in dict.fromkeys(r.case for r in p.results):
        runs = p.runs(case)
        if len(runs) > 1:
            notes.append(
                f"- {case.label}: {len(runs)} runs, {spread(runs):.0%} apart in calls/s per core "
                "(a measure of this pass's noise); the goals use them combined."
            )
    return out + ([""] + notes if notes else [])


def goal_a(passes: Sequence[Pass]) -> list[str]:
    out = [
        f"**(a) Unary ApplyMove calls/s per server core ≥ {GOAL_A:.2f} × Health/Check's, "
        "for every game (issue 3), and on Scala 40's crowded 6-seat table (issue 8).**",
        "",
    ]
    verdicts = []
    for p in passes:
        base = p.baseline_per_core()
        for game in p.games():
            for variant in ("", CROWDED):
                r = p.find("ApplyMove", game, variant)
                where = f"{game}, {variant}" if variant else game
                if r is None and variant:
                    continue  # only Scala 40 has a crowded-table case
                if r is None or math.isnan(base):
                    why = p.why_missing((BASELINE, "", ""), ("ApplyMove", game, variant))
                    out.append(f"- {p.workers}w, {where}: {why}.")
                    verdicts.append(False)
                    continue
                ratio = r.calls_per_core / base
                met = ratio >= GOAL_A
                verdicts.append(met)
                out.append(
                    f"- {p.workers}w, {where}: {ratio:.2f} × ({_n(r.calls_per_core)} vs "
                    f"{_n(base)} calls/s per core): {_verdict(met, ratio / GOAL_A - 1)}."
                )
    return out + ["", _overall(verdicts)]


def goal_sealed(passes: Sequence[Pass]) -> list[str]:
    """ApplyMove on sealed states per core against Health/Check, beside the
    plain ApplyMove on the same positions."""
    out = [
        f"**(sealed) Unary ApplyMove on sealed states calls/s per server core ≥ "
        f"{GOAL_SEALED:.2f} × Health/Check's, for every game (issue 12), beside the plain "
        "ApplyMove on the same positions.**",
        "",
    ]
    verdicts = []
    for p in passes:
        base = p.baseline_per_core()
        for game in p.games():
            sealed, plain = p.find("ApplyMove", game, SEALED), p.find("ApplyMove", game)
            if sealed is None or math.isnan(base):
                why = p.unavailable.get("sealed states") or p.why_missing(
                    (BASELINE, "", ""), ("ApplyMove", game, SEALED)
                )
                out.append(f"- {p.workers}w, {game}: not evaluated ({why}).")
                continue
            ratio = sealed.calls_per_core / base
            met = ratio >= GOAL_SEALED
            verdicts.append(met)
            beside = (
                f"; plain {plain.calls_per_core / base:.2f} × ({_n(plain.calls_per_core)}); "
                f"sealed ÷ plain {sealed.calls_per_core / plain.calls_per_core:.2f}"
                if plain is not None
                else ""
            )
            out.append(
                f"- {p.workers}w, {game}: sealed {ratio:.2f} × ({_n(sealed.calls_per_core)} vs "
                f"{_n(base)} calls/s per core){beside}: {_verdict(met, ratio / GOAL_SEALED - 1)}."
            )
    return out + ["", _overall(verdicts)]


def goal_web(passes: Sequence[Pass]) -> list[str]:
    """Connect unary ApplyMove on the browser port per core against gRPC unary
    ApplyMove on the same positions, and each against Health/Check."""
    out = [
        "**(web) Connect unary ApplyMove on the browser port (`croupier serve --web`), "
        "calls/s per server core ÷ gRPC unary ApplyMove's, per game: the same positions, "
        "the same pass, both runs of each combined; each also ÷ Health/Check's. "
        "No target is set.**",
        "",
    ]
    for p in passes:
        if WEB_PORT in p.unavailable:
            out.append(f"- {p.workers}w: not measured ({p.unavailable[WEB_PORT]}).")
            continue
        base = p.baseline_per_core()
        for game in p.games():
            web, grpc = p.find("ApplyMove", game, WEB), p.find("ApplyMove", game)
            if web is None or grpc is None or not grpc.calls_per_core:
                why = p.why_missing(("ApplyMove", game, WEB), ("ApplyMove", game, ""))
                out.append(f"- {p.workers}w, {game}: {why}.")
                continue
            ratio = web.calls_per_core / grpc.calls_per_core
            out.append(
                f"- {p.workers}w, {game}: web ÷ gRPC {ratio:.2f} "
                f"(Connect {_n(web.calls_per_core)} vs gRPC {_n(grpc.calls_per_core)} calls/s per "
                f"core; {_signed(web.cpu_us_per_call - grpc.cpu_us_per_call)} µs of server CPU "
                f"per call); ÷ Health/Check: Connect {_x(web.calls_per_core / base)}, "
                f"gRPC {_x(grpc.calls_per_core / base)}."
            )
    return out


def web_port(passes: Sequence[Pass]) -> list[str]:
    """The browser port's ApplyMove beside the gRPC port's, in detail."""
    out = [
        "## Browser port (Connect) beside gRPC",
        "",
        "Unary ApplyMove on the same positions: over the browser port (Connect, HTTP/1.1, "
        "webload) and over the gRPC port (HTTP/2, ghz), each with 16 calls in flight per "
        "worker, both runs of each case in the pass combined. *Server busy* is the server's "
        "CPU seconds ÷ the runs' wall time, in cores (a worker saturates near 1): a case that "
        "leaves the server idle measures its calls at low load. *Client CPU* is the load "
        "generator's (webload, ghz) per call.",
        "",
        "| pass, game | server CPU µs/call Connect | gRPC | Connect − gRPC "
        "| calls/s per core Connect | gRPC | web ÷ gRPC | ÷ Health Connect | gRPC "
        "| p50 ms Connect | gRPC | server busy (cores) Connect | gRPC "
        "| client CPU µs/call webload | ghz |",
        "|---|" + "---:|" * 14,
    ]
    rows = 0
    for p in passes:
        base = p.baseline_per_core()
        for game in p.games():
            web, grpc = p.find("ApplyMove", game, WEB), p.find("ApplyMove", game)
            if web is None or grpc is None or not grpc.calls_per_core:
                continue
            rows += 1
            out.append(
                "| "
                + " | ".join(
                    [
                        f"{p.workers}w, {game}",
                        _n(web.cpu_us_per_call),
                        _n(grpc.cpu_us_per_call),
                        _signed(web.cpu_us_per_call - grpc.cpu_us_per_call),
                        _n(web.calls_per_core),
                        _n(grpc.calls_per_core),
                        f"{web.calls_per_core / grpc.calls_per_core:.2f}",
                        _x(web.calls_per_core / base),
                        _x(grpc.calls_per_core / base),
                        _ms(web.latency_ms.get(50)),
                        _ms(grpc.latency_ms.get(50)),
                        f"{web.server_cpu / web.wall_seconds:.2f}",
                        f"{grpc.server_cpu / grpc.wall_seconds:.2f}",
                        _n(web.client_us_per_call),
                        _n(grpc.client_us_per_call),
                    ]
                )
                + " |"
            )
    if not rows:
        reasons = {why for p in passes for rpc, why in p.unavailable.items() if rpc == WEB_PORT}
        return out[:2] + [f"Not measured ({'; '.join(sorted(reasons)) or 'no result'})."]
    return out


def goal_b(passes: Sequence[Pass]) -> list[str]:
    out = [
        f"**(b) Moves/s per server core through ApplyMoveStream or ApplyMoveBatch ≥ "
        f"{GOAL_B:g} × unary ApplyMove's.**",
        "",
    ]
    verdicts = []
    for p in passes:
        for game in p.games():
            unary = p.find("ApplyMove", game)
            forms = {rpc: p.find(rpc, game) for rpc in ("ApplyMoveBatch", "ApplyMoveStream")}
            ratios = {
                rpc: r.moves_per_core / unary.moves_per_core
                for rpc, r in forms.items()
                if r is not None and unary is not None and unary.moves_per_core
            }
            if not ratios:
                why = "; ".join(f"{k}: {v}" for k, v in p.unavailable.items()) or p.why_missing(
                    ("ApplyMoveBatch", game, ""), ("ApplyMoveStream", game, "")
                )
                out.append(f"- {p.workers}w, {game}: not evaluated ({why}).")
                continue
            best_rpc = max(ratios, key=lambda k: ratios[k])
            best = ratios[best_rpc]
            met = best >= GOAL_B
            verdicts.append(met)
            detail = ", ".join(
                f"{rpc.removeprefix('ApplyMove')} {ratios[rpc]:.1f}× "
                f"({_n(forms[rpc].moves_per_core)} moves/s per core)"  # type: ignore[union-attr]
                for rpc in ratios
            )
            out.append(
                f"- {p.workers}w, {game}: best {best_rpc} {best:.1f}× unary "
                f"({_n(unary.moves_per_core)} moves/s per core); {detail}: "  # type: ignore[union-attr]
                f"{_verdict(met, best / GOAL_B - 1)}."
            )
    return out + ["", _overall(verdicts)]


def goal_c(passes: Sequence[Pass]) -> list[str]:
    out = ["**(c) Server CPU µs per call does not grow from 1 to 2 workers.**", ""]
    by_workers = {p.workers: p for p in passes}
    one, two = by_workers.get(1), by_workers.get(2)
    if one is None or two is None:
        return out + ["Not evaluated: this server could not be run with both 1 and 2 workers."]
    noise = max(MIN_NOISE, one.noise(), two.noise())
    out.append(
        f"Allowance for noise: {noise:.0%} (the larger of {MIN_NOISE:.0%} and the widest "
        "spread between repeated runs of one case within a pass)."
    )
    out.append("")
    out.append("| RPC | µs/call, 1 worker | µs/call, 2 workers | 2w ÷ 1w | verdict |")
    out.append("|---|---:|---:|---:|---|")
    verdicts = []
    for case in dict.fromkeys(r.case for r in one.results):
        r1, r2 = one.combined(case), two.combined(case)
        if r1 is None or r2 is None:
            continue
        growth = r2.cpu_us_per_call / r1.cpu_us_per_call
        met = growth <= 1 + noise
        verdicts.append(met)
        if met and growth > 1:
            verdict = f"met (+{growth - 1:.0%}, within noise)"
        elif met:
            verdict = f"met ({growth - 1:+.0%})"
        else:
            verdict = f"**not met** (+{growth - 1:.0%})"
        busy = max(r1.other_cores, r2.other_cores)
        if busy > NOISY_OTHER_LOAD:
            verdict += f"; other load up to {busy:.2f} cores: rerun on a quiet machine to confirm"
        out.append(
            f"| {case.label} | {_n(r1.cpu_us_per_call)} | {_n(r2.cpu_us_per_call)} "
            f"| {growth:.2f} | {verdict} |"
        )
    return out + ["", _overall(verdicts)]


def one_call_per_move(passes: Sequence[Pass]) -> list[str]:
    """A harness's cost per move: one call (ApplyMove answering with the next
    legal moves) beside two (ApplyMove, then ListLegalMoves for the next seat)."""
    out = [
        "## One call per move",
        "",
        "A harness plays a move and needs the next legal moves: one ApplyMove with "
        "`next_legal_moves`, or ApplyMove then ListLegalMoves (server CPU of the two cases "
        "added; ListLegalMoves is measured on the positions the moves were played from).",
        "",
        "| pass, game | path | server CPU µs per move | moves/s per core | ÷ Health "
        "| one call ÷ two calls |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for p in passes:
        base = p.baseline_per_core()
        for game in p.games():
            one = p.find("ApplyMove", game, ONE_CALL)
            apply, listing = p.find("ApplyMove", game), p.find("ListLegalMoves", game)
            if one is None or apply is None or listing is None:
                why = p.why_missing(
                    ("ApplyMove", game, ONE_CALL),
                    ("ApplyMove", game, ""),
                    ("ListLegalMoves", game, ""),
                )
                out.append(f"| {p.workers}w, {game} | – | {why} | | | |")
                continue
            two_us = apply.cpu_us_per_call + listing.cpu_us_per_call
            one_us = one.cpu_us_per_call
            for path, us, gain in (
                ("one call: ApplyMove with next legal moves", one_us, f"{two_us / one_us:.2f}×"),
                ("two calls: ApplyMove + ListLegalMoves", two_us, ""),
            ):
                per_core = 1e6 / us
                out.append(
                    f"| {p.workers}w, {game} | {path} | {_n(us)} | {_n(per_core)} "
                    f"| {_x(per_core / base)} | {gain} |"
                )
    return out


def legend() -> list[str]:
    return [
        "## Columns",
        "",
        "- *calls/s*: OK calls per second of ghz's test time (for ApplyMoveStream: streams, "
        "each carrying the stated number of ApplyMove messages).",
        "- *moves/s*: moves played per second (1 per ApplyMove, the batch size per "
        "ApplyMoveBatch call, every message of an ApplyMoveStream).",
        "- *p50/p90/p99*: ghz's latency percentiles (for a stream: the whole stream).",
        "- *errors*: calls that did not end OK, with their status codes.",
        "- *server CPU µs/call*: user + system CPU of the server's processes (supervisor and "
        "workers, /proc/<pid>/stat) during the run ÷ OK calls (stream: ÷ messages).",
        "- *calls/s per core*: OK calls ÷ server CPU-seconds, i.e. what one fully busy "
        "server core would serve; *moves/s per core* likewise for moves.",
        "- *÷ Health*: that figure ÷ the Health/Check baseline's calls/s per core (its runs "
        "in the pass combined). Health/Check and ApplyMove run first and again last in each "
        "pass; the goals combine the two runs (calls ÷ CPU over both).",
        "- *ghz CPU µs/call*: the load generator's own CPU per call: its share of the machine "
        f"(webload's, for the `{WEB}` cases).",
        "- *other load*: busy cores during the run that were neither the server nor ghz.",
    ]


def _verdict(met: bool, margin: float) -> str:
    if met:
        return f"**met**, {margin:.0%} above the target"
    return f"**not met**, {-margin:.0%} short of the target"


def _overall(verdicts: list[bool]) -> str:
    if not verdicts:
        return "Overall: not evaluated."
    if all(verdicts):
        return "Overall: **met**."
    return f"Overall: **not met** ({verdicts.count(False)} of {len(verdicts)} cases short)."


def _errors(r: Result) -> str:
    if not r.errors:
        return "0"
    codes = ", ".join(f"{k} {v}" for k, v in r.status.items() if k != "OK")
    return f"**{r.errors}** ({codes})"


def _n(value: float) -> str:
    if value is None or math.isnan(value):
        return "–"
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def _signed(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:+,.0f}"


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _x(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.2f}"


def _short_argv(argv: list[str]) -> list[str]:
    """The server command with its path shortened to `croupier`."""
    return ["croupier", *argv[1:]] if argv else []
