"""The report at the end of a run: inputs per RPC, verdicts, the largest
error, worker RSS, and every finding with its smallest input."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from croupier_fuzz import web
from croupier_fuzz.cases import text
from croupier_fuzz.known import KNOWN
from croupier_fuzz.oracle import ALLOWED, ERROR_LIMIT
from croupier_fuzz.run import NOT_FUZZED, Results

CODES = ("OK", "INVALID_ARGUMENT", "FAILED_PRECONDITION", "RESOURCE_EXHAUSTED")


def summary(results: Results) -> dict[str, Any]:
    """The figures of a run, as plain data (the JSON report)."""
    phases: dict[str, Any] = {}
    for phase, tallies in results.tallies.items():
        phases[phase] = {
            rpc: {
                "inputs": t.inputs,
                "codes": dict(sorted(t.codes.items())),
                "largest_error_bytes": t.largest_error,
                "largest_error_input": t.largest_error_input,
                "slowest_ms": round(t.slowest * 1000, 1),
            }
            for rpc, t in sorted(tallies.items())
        }
    kinds: Counter[str] = Counter()
    for finding in results.findings.values():
        kinds[finding.problem.kind] += finding.count
    bad_codes = sum(
        n
        for tallies in results.tallies.values()
        for t in tallies.values()
        for code, n in t.codes.items()
        # PERMISSION_DENIED answers a sealed_state (the live judge makes any other a finding).
        if code not in ALLOWED and code != "PERMISSION_DENIED"
    )
    largest = max(
        (
            (t.largest_error, phase, rpc)
            for phase, ts in results.tallies.items()
            for rpc, t in ts.items()
        ),
        default=(0, "", ""),
    )
    data = {
        "seed": results.seed,
        "corpus": results.corpus.sizes(),
        "seconds": {k: round(v, 1) for k, v in results.seconds.items()},
        "phases": phases,
        "answers_outside_the_four_codes": bad_codes,
        "problems_by_kind": dict(sorted(kinds.items())),
        "largest_error": {"bytes": largest[0], "phase": largest[1], "rpc": largest[2]},
        "live_server": results.live,
        "findings": [
            {
                "signature": sig,
                "known": KNOWN.get(sig, ""),
                "phase": f.phase,
                "count": f.count,
                "first_input": f.index,
            }
            for sig, f in results.findings.items()
        ],
    }
    data["acceptance"] = acceptance(data)
    return data


REFUSED_BACK = "answered state refused when sent back"


def acceptance(data: dict[str, Any]) -> dict[str, Any]:
    """The figures issue 7's acceptance asks of a run: answers by code,
    INTERNAL/UNKNOWN, exceptions escaped, answered states refused when sent
    back (conservation is the first check), the largest error and worker RSS."""
    codes: dict[str, Counter[str]] = {}
    inputs: dict[str, int] = {}
    for phase, rpcs in data["phases"].items():
        counted = codes.setdefault(phase, Counter())
        for r in rpcs.values():
            counted.update(r["codes"])
        inputs[phase] = sum(r["inputs"] for r in rpcs.values())
    live = data["live_server"] or {}
    rss = {}
    for pid, before in live.get("rss_before_kb", {}).items():
        after = live["rss_after_kb"].get(pid, 0)
        rss[pid] = {
            "before_kb": before,
            "after_kb": after,
            "peak_kb": live["rss_peak_kb"].get(pid, 0),
            "growth_percent": round((after - before) / before * 100, 1) if before else None,
        }
    ports = {
        "grpc": inputs.get("live", 0),
        "web": sum(n for phase, n in inputs.items() if phase.startswith("live web/")),
    }
    return {
        "inputs": inputs,
        "ports": ports,
        "seconds": data["seconds"],
        "codes": {phase: dict(sorted(c.items())) for phase, c in codes.items()},
        "internal_or_unknown": sum(
            c[code] for c in codes.values() for code in ("INTERNAL", "UNKNOWN")
        ),
        "exceptions_escaped": sum(c["ESCAPED"] for c in codes.values()),
        "states_refused_when_sent_back": data["problems_by_kind"].get(REFUSED_BACK, 0),
        "largest_error_bytes": data["largest_error"]["bytes"],
        "error_limit_bytes": ERROR_LIMIT,
        "worker_rss": rss,
    }


def acceptance_lines(figures: dict[str, Any]) -> list[str]:
    """The acceptance figures as lines of text (the report and the console)."""
    out = []
    for phase, n in figures["inputs"].items():
        codes = ", ".join(f"{c} {k:,}" for c, k in figures["codes"][phase].items())
        seconds = figures["seconds"].get(phase)
        took = f" in {seconds} s" if seconds is not None and phase != "live warm-up" else ""
        out.append(f"{phase}: {n:,} inputs{took}: {codes}")
    ports = figures.get("ports") or {}
    if ports.get("web"):
        out.append(
            f"live inputs by port: gRPC {ports['grpc']:,}, web {ports['web']:,} "
            f"({ports['web'] / max(1, ports['grpc'] + ports['web']):.1%})"
        )
    out += [
        f"INTERNAL/UNKNOWN answers: {figures['internal_or_unknown']}",
        f"exceptions escaped (in-process): {figures['exceptions_escaped']}",
        "answered states refused when sent back (conservation first): "
        f"{figures['states_refused_when_sent_back']}",
        f"largest error: {figures['largest_error_bytes']:,} bytes "
        f"(limit {figures['error_limit_bytes']:,})",
    ]
    for pid, r in figures["worker_rss"].items():
        out.append(
            f"worker {pid} RSS: {r['before_kb']:,} -> {r['after_kb']:,} kB "
            f"({r['growth_percent']:+.1f} %), peak {r['peak_kb']:,} kB"
        )
    return out


def markdown(results: Results, command: str) -> str:
    data = summary(results)
    out = [
        "# Croupier fuzz run",
        "",
        f"`{command}`",
        "",
        f"Seed {results.seed}; corpus of real requests from seeded playouts: "
        + ", ".join(f"{rpc} {n}" for rpc, n in sorted(data["corpus"].items()))
        + "; time: "
        + ", ".join(f"{phase} {s} s" for phase, s in data["seconds"].items())
        + ".",
        "",
    ]
    out += ["## Acceptance figures (issue 7)", ""]
    out += [f"- {line}" for line in acceptance_lines(data["acceptance"])]
    out.append("")
    if NOT_FUZZED:
        out += [f"Not fuzzed (no judge for their shape yet): {', '.join(NOT_FUZZED)}.", ""]
    for phase, rpcs in data["phases"].items():
        total = sum(r["inputs"] for r in rpcs.values())
        out += [f"## Phase: {phase} ({total} inputs)", ""]
        out += [
            "| RPC | inputs | "
            + " | ".join(CODES)
            + " | other | largest error (B) | slowest (ms) |",
            "|---|---:|" + "---:|" * len(CODES) + "---|---:|---:|",
        ]
        for rpc, r in rpcs.items():
            codes = r["codes"]
            other = ", ".join(f"{c} {n}" for c, n in codes.items() if c not in CODES) or "0"
            out.append(
                f"| {rpc} | {r['inputs']} | "
                + " | ".join(str(codes.get(c, 0)) for c in CODES)
                + f" | {other} | {r['largest_error_bytes']} | {r['slowest_ms']} |"
            )
        out.append("")
    live = data["live_server"]
    if live:
        out += ["## Live server", ""]
        out.append(f"{live['workers']} worker(s), log level {live['log_level']}, "
                   f"{live['warm_up_calls']} warm-up calls of real requests before the RSS "
                   f"measured 'before'; server log {live['server_log_bytes']} bytes.")  # fmt: skip
        out += ["", "| worker | RSS before (kB) | RSS after (kB) | growth | peak RSS (kB) |"]
        out.append("|---|---:|---:|---:|---:|")
        for pid, before in live["rss_before_kb"].items():
            after = live["rss_after_kb"].get(pid, 0)
            growth = f"{(after - before) / before * 100:+.1f} %" if before else "?"
            out.append(
                f"| {pid} | {before} | {after} | {growth} | {live['rss_peak_kb'].get(pid, 0)} |"
            )
        out.append("")
    largest = data["largest_error"]
    out += [
        "## Verdicts",
        "",
        f"- answers outside OK / INVALID_ARGUMENT / FAILED_PRECONDITION / RESOURCE_EXHAUSTED "
        f"(in-process: exceptions escaped): {data['answers_outside_the_four_codes']}",
        f"- largest error: {largest['bytes']} bytes ({largest['phase']}, {largest['rpc']}); "
        f"limit {ERROR_LIMIT}",
    ]
    for kind, n in data["problems_by_kind"].items():
        out.append(f"- {kind}: {n} inputs")
    if not data["problems_by_kind"]:
        out.append("- no problem found")
    out += ["", f"## Findings ({len(results.findings)} kinds)", ""]
    for number, (sig, finding) in enumerate(results.findings.items(), 1):
        known = KNOWN.get(sig)
        out += [
            f"### {number}. {sig}",
            "",
            f"{'Known: ' + known if known else 'NEW'}. Phase {finding.phase}, first at input "
            f"{finding.index}, {finding.count} inputs in all.",
            "",
        ]
        case = finding.shrunk or finding.case
        if finding.index >= 0 or finding.phase == "live warm-up":
            out += ["Smallest input found:", "", "```"]
            out += case.describe(results.corpus)
            if finding.phase.startswith("live web/"):
                out += web_lines(results.seed, finding.index, finding.phase)
            out += ["```", "", "```textproto", text(results.corpus, case, max_lines=80), "```", ""]
        if finding.problem.detail:
            out += ["```", finding.problem.detail, "```", ""]
    return "\n".join(out) + "\n"


def web_lines(seed: int, index: int, phase: str) -> list[str]:
    """How a web input went: its route, and for JSON the changes to its text."""
    way = phase.removeprefix("live web/")
    lines = [f"sent to the web port as {way} (--replay live:{index})"]
    if way == "json":
        lines += [f"  {m.text()}" for m in web.json_mutations(web.web_source(seed, index))]
    return lines


def write(results: Results, directory: Path, command: str) -> tuple[Path, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    md = directory / "last-run.md"
    js = directory / "last-run.json"
    md.write_text(markdown(results, command), encoding="utf-8")
    js.write_text(json.dumps(summary(results), indent=1) + "\n", encoding="utf-8")
    return md, js
