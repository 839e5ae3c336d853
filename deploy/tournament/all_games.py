"""`make tournament`: the heuristic bot against the random bot in every game.

    .venv/bin/python deploy/tournament/all_games.py [--matches 1000] [--games uno,most]

For every registered game at its default preset: `croupier tournament` with
the game's heuristic bot and the random bot (and a second random bot where
the game needs 3 seats), seat rotation on, through a `croupier serve` the
tournament starts (`--serve`). Each game's report goes to
reports/tournament/<game>-<preset>/; then a summary, reports/tournament/
REPORT.md, says per game whether the heuristic bot's 95 % Wilson interval
lies above 60 %, and `croupier replay` checks a sample of the saved records.

Exit code 0 when every game was played without error and the replay passed
(whether or not each bot clears 60 %: the summary says); 1 otherwise (a
game without a heuristic bot is named in the summary).
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
from pathlib import Path

import common

from croupier.tournament.entrants import EntrantError, parse, probe

THRESHOLD = 0.60  # the heuristic bot's 95 % interval should lie above this win rate


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=1000, help="matches per game (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="match i of each game uses seed SEED+i")
    p.add_argument("--workers", type=int, default=2, help="server workers (default 2)")
    p.add_argument("--parallel", type=int, default=128, help="matches in flight (default 128)")
    p.add_argument("--replay", type=int, default=100, help="records to replay (default 100)")
    p.add_argument(
        "--games",
        type=lambda text: [g for g in text.split(",") if g],
        default=[],
        help="only these games, comma-separated",
    )
    p.add_argument(
        "--out", type=Path, default=common.ROOT / "reports" / "tournament", help="reports root"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    tables = [t for t in common.games() if not args.games or t.game in args.games]
    unknown = set(args.games) - {t.game for t in tables}
    if unknown:
        print(f"tournament: unknown games {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    rows, verdicts, problems, records = [], [], [], []
    for table in tables:
        seats = max(2, table.min_seats)
        bots = ["--bot", "heuristic", "--bot", "random"]
        bots += [arg for n in range(3, seats + 1) for arg in ("--bot", f"random{n - 1}=random")]
        out = args.out / f"{table.game}-{table.preset}"
        code = common.tournament(
            ["--game", table.game, *bots, "--seats", str(seats), "--matches", str(args.matches)]
            + ["--seed", str(args.seed), "--serve", str(args.workers)]
            + ["--parallel", str(args.parallel), "--out", str(out)]
            + (["--quiet"] if args.quiet else [])
        )
        results = common.results(out) if code in (0, 1) else None
        if results is None:
            why = _why_not(table.game) if code == 2 else f"croupier tournament exited {code}"
            problems.append(f"{table.game}: not played: {why}")
            rows.append(f"| {table.game} | {table.preset} | {seats} | – | not played: {why} |")
            continue
        if code != 0:
            problems.append(f"{table.game}: croupier tournament exited {code}")
        records.append(out / "records.jsonl")
        h = common.entrant(results, "heuristic")
        low, high = h["wilson95"]
        above = low > THRESHOLD
        randoms = [e for e in results["entrants"] if e["name"] != "heuristic"]
        rows.append(
            f"| {table.game} | {table.preset} | {seats} | {h['matches']} | {h['wins']:g} "
            f"| {h['win_rate']:.1%} | {low:.1%} – {high:.1%} | {'**yes**' if above else 'no'} "
            f"| {h['faults']} / {sum(r['faults'] for r in randoms)} "
            f"| {len(results['unfinished'])} | {common.throughput_cells(results)} |"
        )
        verdicts.append(
            f"- {table.game}: the heuristic bot won {h['win_rate']:.1%} of {h['matches']} "
            f"matches at {seats} seats (a random bot's share: {1 / seats:.0%}); its 95 % "
            f"interval {low:.1%} – {high:.1%} "
            + (f"lies above {THRESHOLD:.0%}." if above else f"does not lie above {THRESHOLD:.0%}.")
        )
    replay_line = "no records to replay"
    if records:
        code, replay_line = common.replay(records, args.replay)
        if code != 0:
            problems.append(f"replay: {replay_line}")
    summary = _summary(args, rows, verdicts, problems, replay_line)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "REPORT.md").write_text(summary)
    print(summary)
    print(f"tournament: {args.out / 'REPORT.md'} written")
    return 1 if problems else 0


def _why_not(game: str) -> str:
    """Why the heuristic bot cannot play `game`: the tournament's own message."""
    try:
        probe(parse(["heuristic", "random"])[0], game)
    except EntrantError as error:
        return str(error)
    return "croupier tournament refused its arguments (exit 2; see its output)"


def _summary(
    args: argparse.Namespace,
    rows: list[str],
    verdicts: list[str],
    problems: list[str],
    replay_line: str,
) -> str:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# make tournament: the heuristic bot against the random bot",
        "",
        f"- Run: {now}, commit {_commit()}.",
        f"- Every game at its default preset; {args.matches} matches each (seeds {args.seed} "
        f"to {args.seed + args.matches - 1}), seat rotation on; 2 seats, or the game's "
        "least where it needs more (a second random bot then); through a `croupier serve "
        f"--workers {args.workers}` each tournament started; {args.parallel} matches in flight.",
        "- A shared win counts a half; the interval is the 95 % Wilson score interval of the "
        f"heuristic bot's win rate; *above 60 %* means its lower end is above {THRESHOLD:.0%}.",
        "- Each game's own report (ratings, throughput, plot): "
        f"`{args.out}/<game>-<preset>/REPORT.md`.",
        "",
        "| game | preset | seats | matches | heuristic wins | win rate | 95 % interval "
        "| above 60 % | faults (heuristic / random) | unfinished | moves | moves/s "
        "| moves/s per server core |",
        "|---|---|--:|--:|--:|--:|---|---|---|--:|--:|--:|--:|",
        *rows,
        "",
        *verdicts,
        "",
        f"Replay of {args.replay} records spread over every game's records.jsonl "
        f"(`croupier replay --sample {args.replay}`): {replay_line}",
        "",
    ]
    if problems:
        lines += ["Problems:", "", *[f"- {p}" for p in problems], ""]
    return "\n".join(lines)


def _commit() -> str:
    run = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=common.ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return run.stdout.strip() or "unknown"


if __name__ == "__main__":
    sys.exit(main())
