"""`make tournament-remote`: two remote bots, a Python BotService and the Go
`croupier-bot`, against each other in every game.

    .venv/bin/python deploy/tournament/remote.py --go-bot .venv/bin/croupier-bot [--matches 200]

Starts `deploy/tournament/serve_bot.py --bot heuristic` (the Python
heuristic bots) and `croupier-bot` (the Go random bot) on free loopback
ports, waits for each to print `serving on HOST:PORT`, and runs `croupier
tournament` in every game at its default preset with the two as entrants
(`python=HOST:PORT`, `go=HOST:PORT`; in a game that needs 3 seats a local
random bot sits in too), seat rotation on, through a server it starts.
Reports go to reports/tournament-remote/<game>-<preset>/ and a summary to
reports/tournament-remote/REPORT.md; then every record is replayed.

Without `--go-bot` (no Go here) the Python BotService plays the local
heuristic bot instead, and the summary says so. Exit code 0 when every
game was played without error and the replay passed, else 1.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import selectors
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import common

from croupier.tournament.local_server import stop_with_the_harness

READY_WITHIN = 15.0  # seconds for a bot service to print its address
SERVING = re.compile(r"^serving on (127\.0\.0\.1:\d+)$")
HERE = Path(__file__).resolve().parent


@contextlib.contextmanager
def bot_service(command: list[str], name: str) -> Iterator[str]:
    """Run a BotService that prints `serving on HOST:PORT`; its host:port."""
    # The bot service stops when this script dies, even by kill -9.
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, text=True, preexec_fn=stop_with_the_harness
    )
    try:
        assert process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            ready = selector.select(READY_WITHIN)
        line = process.stdout.readline().strip() if ready else ""
        match = SERVING.match(line)
        if match is None:
            raise RuntimeError(f"{name} did not print its address (got {line!r}): {command}")
        print(f"{name}: {match.group(1)}", flush=True)
        yield match.group(1)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--go-bot", type=Path, help="the croupier-bot binary (none: no Go bot)")
    p.add_argument("--matches", type=int, default=200, help="matches per game (default 200)")
    p.add_argument("--seed", type=int, default=1, help="match i uses seed SEED+i")
    p.add_argument("--workers", type=int, default=2, help="server workers (default 2)")
    p.add_argument("--parallel", type=int, default=64, help="matches in flight (default 64)")
    p.add_argument(
        "--games", type=lambda t: [g for g in t.split(",") if g], default=[], help="only these"
    )
    p.add_argument(
        "--out",
        type=Path,
        default=common.ROOT / "reports" / "tournament-remote",
        help="reports root",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    args = p.parse_args(argv)
    tables = [t for t in common.games() if not args.games or t.game in args.games]
    python_bot = [sys.executable, str(HERE / "serve_bot.py"), "--bot", "heuristic"]
    with contextlib.ExitStack() as stack:
        python = stack.enter_context(bot_service(python_bot, "Python BotService (heuristic)"))
        if args.go_bot is not None:
            go = stack.enter_context(
                bot_service([str(args.go_bot), "--listen", "127.0.0.1:0"], "Go croupier-bot")
            )
            opponent = ["--bot", f"go={go}"]
        else:
            print("no --go-bot: the Python BotService plays the local heuristic bot", flush=True)
            opponent = ["--bot", "heuristic"]
        rows, problems, records = _play_all(args, tables, python, opponent)
    replay_line = "no records to replay"
    if records:
        code, replay_line = common.replay(records, None)
        if code != 0:
            problems.append(f"replay: {replay_line}")
    lines = [
        "# make tournament-remote: bots behind BotServices",
        "",
        "- Entrants: `python` = deploy/tournament/serve_bot.py --bot heuristic (the Python "
        "heuristic bots as a BotService), "
        + (
            "`go` = clients/go croupier-bot (the Go random bot as a BotService)"
            if args.go_bot
            else "against the local `heuristic` bot (no Go here)"
        )
        + "; a local `random` bot sits in where a game needs 3 seats.",
        f"- {args.matches} matches per game at its default preset, seat rotation on, "
        f"through `croupier serve --workers {args.workers}`; {args.parallel} in flight.",
        "",
        "| game | preset | seats | entrant | matches | wins | win rate | 95 % interval "
        "| faults | moves | moves/s | moves/s per server core |",
        "|---|---|--:|---|--:|--:|--:|---|--:|--:|--:|--:|",
        *rows,
        "",
        f"Replay of every record: {replay_line}",
        "",
    ]
    if problems:
        lines += ["Problems:", "", *[f"- {problem}" for problem in problems], ""]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "REPORT.md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 1 if problems else 0


def _play_all(
    args: argparse.Namespace, tables: list[common.GameTable], python: str, opponent: list[str]
) -> tuple[list[str], list[str], list[Path]]:
    rows: list[str] = []
    problems: list[str] = []
    records: list[Path] = []
    for table in tables:
        seats = max(2, table.min_seats)
        bots = ["--bot", f"python={python}", *opponent]
        bots += [arg for _ in range(3, seats + 1) for arg in ("--bot", "random")]
        out = args.out / f"{table.game}-{table.preset}"
        code = common.tournament(
            ["--game", table.game, *bots, "--seats", str(seats), "--matches", str(args.matches)]
            + ["--seed", str(args.seed), "--serve", str(args.workers)]
            + ["--parallel", str(args.parallel), "--out", str(out)]
            + (["--quiet"] if args.quiet else [])
        )
        results = common.results(out) if code in (0, 1) else None
        if code != 0:
            problems.append(f"{table.game}: croupier tournament exited {code}")
        if results is None:
            rows.append(f"| {table.game} | {table.preset} | {seats} | not played (exit {code}) |")
            continue
        records.append(out / "records.jsonl")
        for entrant in results["entrants"]:
            low, high = entrant["wilson95"]
            rows.append(
                f"| {table.game} | {table.preset} | {seats} | {entrant['name']} "
                f"| {entrant['matches']} | {entrant['wins']:g} | {entrant['win_rate']:.1%} "
                f"| {low:.1%} – {high:.1%} | {entrant['faults']} "
                f"| {common.throughput_cells(results)} |"
            )
    return rows, problems, records


if __name__ == "__main__":
    sys.exit(main())
