"""The command line of `make fuzz` (FUZZ_INPUTS, FUZZ_SEED, FUZZ_ARGS)."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from croupier_fuzz import oracle, run
from croupier_fuzz.cases import text
from croupier_fuzz.known import KNOWN
from croupier_fuzz.mutate import Limits


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m croupier_fuzz",
        description="Structure-aware fuzzing of every Croupier RPC and game: in-process over "
        "engine.api, then through a live `croupier serve`.",
    )
    p.add_argument("--inputs", type=int, default=100_000, help="the budget: inputs in all phases")
    p.add_argument("--seed", type=int, default=1, help="seed of the corpus and of every input")
    p.add_argument(
        "--live-share", type=float, default=0.2, help="share of the inputs sent to the live server"
    )
    p.add_argument(
        "--web-share",
        type=float,
        default=0.25,
        help="share of the live inputs sent to the server's web port (Connect, JSON, gRPC-Web) "
        "instead of its gRPC port",
    )
    p.add_argument("--workers", type=int, default=1, help="worker processes of the live server")
    p.add_argument(
        "--server-log-level",
        default="warning",
        help="log level of the live server (warning: "
        "every error answer is logged, as in production)",
    )
    p.add_argument(
        "--rss-growth-limit",
        type=float,
        default=20.0,
        help="per cent of worker RSS growth over the live phase that is a finding",
    )
    p.add_argument(
        "--slow", type=float, default=1.0, help="seconds after which a call is a finding"
    )
    p.add_argument(
        "--max-rss-mb",
        type=int,
        default=4096,
        help="stop the in-process phase when the fuzzer's RSS passes this (a finding)",
    )
    p.add_argument("--max-repeat", type=int, default=Limits.repeat, help="largest list added")
    p.add_argument("--max-string", type=int, default=Limits.string, help="longest string set")
    p.add_argument("--report-dir", type=Path, default=Path("reports/fuzz"))
    p.add_argument(
        "--allow-known",
        action="store_true",
        help="exit 0 when every finding is a known one (pinned by an xfail regression test)",
    )
    p.add_argument(
        "--replay", metavar="PHASE:INDEX", help="rebuild one input (engine:123) and judge it"
    )
    p.add_argument("--quiet", action="store_true")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    oracle.SLOW_SECONDS = args.slow
    limits = Limits(repeat=args.max_repeat, string=args.max_string)
    corpus = run.build_corpus(args.seed)
    mutator = run.make_mutator(corpus, limits)
    if args.replay:
        return _replay(args, corpus, mutator)
    results = run.Results(seed=args.seed, corpus=corpus)
    live_inputs = round(args.inputs * args.live_share)
    run.run_engine(
        results,
        mutator,
        args.inputs - live_inputs,
        progress=not args.quiet,
        max_rss_mb=args.max_rss_mb,
    )
    if live_inputs:
        run.run_live(
            results,
            mutator,
            live_inputs,
            workers=args.workers,
            log_level=args.server_log_level,
            progress=not args.quiet,
            rss_growth_limit=args.rss_growth_limit,
            web_share=args.web_share,
        )
    from croupier_fuzz import report

    command = "python -m croupier_fuzz " + shlex.join(argv if argv is not None else sys.argv[1:])
    md, js = report.write(results, args.report_dir, command)
    for line in report.acceptance_lines(report.summary(results)["acceptance"]):
        print(line)
    new = [sig for sig in results.findings if sig not in KNOWN]
    known = [sig for sig in results.findings if sig in KNOWN]
    print(f"report: {md} ({js})")
    print(f"findings: {len(new)} new, {len(known)} known")
    for sig in new:
        print(f"  NEW   {sig}")
    for sig in known:
        print(f"  known {sig}  ->  {KNOWN[sig]}")
    if new or (known and not args.allow_known):
        return 1
    return 0


def _replay(args: argparse.Namespace, corpus: run.Corpus, mutator: run.Mutator) -> int:
    phase, _, number = args.replay.partition(":")
    index = int(number)
    if phase == "engine":
        case = run.engine_case(corpus, mutator, args.seed, index)
        verdict = run.engine_judge(corpus)(case, index)
    elif phase == "live":
        from croupier_fuzz import live

        case = run.live_case(corpus, mutator, args.seed, index)
        with live.serving(args.workers, args.server_log_level) as server:
            judge = live.LiveJudge(server, corpus, web_share=args.web_share, seed=args.seed)
            verdict = judge(case, index)
            judge.close()
        print(f"port: {'web, ' + verdict.via if verdict.via else 'gRPC'}")
    else:
        raise SystemExit(f"--replay: phase must be engine or live; got {phase!r}")
    print("\n".join(case.describe(corpus)))
    print(text(corpus, case, max_lines=200))
    milliseconds = verdict.seconds * 1000
    print(f"verdict: {verdict.code}, error {verdict.error_size} bytes, {milliseconds:.1f} ms")
    for problem in verdict.problems:
        print(f"problem: {problem.signature}\n{problem.detail}")
    return 1 if verdict.problems else 0
