"""`croupier tournament`: many matches between bots through a server.

    croupier tournament --game hundred_and_one --bot heuristic --bot random \\
        --matches 1000 --serve 2 --parallel 256

Exit code 0 when every match was played (a match stopped at --max-moves is
reported, not an error); 1 when a match was recorded as an error or the
server failed; 2 for bad arguments (an unknown game, preset, option or bot,
too few entrants, a seat count out of range).
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

from croupier.engine import registry
from croupier.tournament import entrants as entrants_module
from croupier.tournament import report, settings
from croupier.tournament.driver import Driver, Plan, Table, TournamentFailed
from croupier.tournament.entrants import Entrant, EntrantError, Probe
from croupier.tournament.local_server import LocalServer, ServerFailed
from croupier.tournament.records import ERROR, OrderedWriter, Record
from croupier.tournament.settings import SettingsError
from croupier.tournament.standings import Standings
from croupier_client.client import DEFAULT_TARGET, CroupierClient, CroupierError

# Connections ("lanes", each sending its own batches): one per worker of a
# server started with --serve, and at least 2, so that one lane's batch keeps
# a worker busy while the harness prepares another's. More lanes split the
# matches into smaller batches: at 256 in flight against 2 workers, 2 lanes
# took 4,673 moves/s per server core where 4 took 4,035 (hundred_and_one).
DEFAULT_LANES = 2


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = settings.parser()
    args = parser.parse_args(argv)
    try:
        entrants = entrants_module.parse(args.bot)
    except EntrantError as error:
        parser.error(str(error))
    server: LocalServer | None = None
    log_dir = Path(tempfile.mkdtemp(prefix="croupier-tournament-"))
    try:
        if args.serve:
            server = LocalServer(args.serve, log_dir / "server.log")
            try:
                target = server.start()
            except ServerFailed as error:
                print(f"tournament: {error}", file=sys.stderr)
                return 1
        else:
            target = args.target or DEFAULT_TARGET
        try:
            table, probes = _resolve(args, target, entrants)
        except (SettingsError, EntrantError) as error:
            parser.error(str(error))
        except CroupierError as error:
            print(f"tournament: the server at {target} failed: {error}", file=sys.stderr)
            return 1
        lanes = args.connections or max(DEFAULT_LANES, args.serve or 0)
        plan = Plan(
            matches=args.matches,
            seed=args.seed,
            parallel=args.parallel,
            lanes=min(lanes, args.parallel),
            max_moves=args.max_moves,
            time_budget_ms=args.time_budget_ms,
            rotation=args.rotation,
        )
        out = args.out or settings.REPORTS / f"{table.game}-{table.preset}"
        where = (
            f"started by the harness: croupier serve --workers {args.serve} at {target}"
            if server
            else target
        )
        code = _play(
            table,
            entrants,
            probes,
            plan,
            target,
            server,
            out,
            where,
            argv,
            quiet=args.quiet,
            plot=args.plot,
        )
        if server is not None:
            server.stop()
            shutil.copy(log_dir / "server.log", out / "server.log")
        return code
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(log_dir, ignore_errors=True)


def _resolve(
    args: argparse.Namespace, target: str, entrants: list[Entrant]
) -> tuple[Table, list[Probe]]:
    """The table and each entrant's probe, checked against the server:
    SettingsError / EntrantError for what it does not offer."""
    with CroupierClient(target) as client:
        game = settings.find_game(client.list_games(), args.game)
        preset = settings.find_preset(game, args.preset)
        seats = settings.seat_count(game, preset, args.seats, len(entrants))
        # A match between programs: the game's bound (C-M-4) unless --option sets it.
        options = registry.bounded(game.name, settings.option_values(game, args.option))
        probes = [entrants_module.probe(entrant, game.name) for entrant in entrants]
        # The server's own check of the whole table (option combinations).
        try:
            client.new_game(
                game.name,
                preset=preset.name,
                seat_count=seats,
                seed=args.seed,
                options=options,
            )
        except CroupierError as error:
            if error.code.name != "INVALID_ARGUMENT":
                raise
            raise SettingsError(f"the server refuses this table: {error}") from error
    return Table(game.name, preset.name, options, seats), probes


def _play(
    table: Table,
    entrants: list[Entrant],
    probes: list[Probe],
    plan: Plan,
    target: str,
    server: LocalServer | None,
    out: Path,
    where: str,
    argv: list[str],
    *,
    quiet: bool,
    plot: bool,
) -> int:
    from tqdm import tqdm

    out.mkdir(parents=True, exist_ok=True)
    standings = Standings.of([(e.name, e.spec) for e in entrants])
    driver = Driver(target, table, entrants, probes, plan)
    progress = tqdm(
        total=plan.matches, unit="match", disable=quiet, desc=f"{table.game} {table.preset}"
    )
    moves = 0
    errors = 0
    started = time.perf_counter()

    with (out / "records.jsonl").open("w", encoding="utf-8") as sink:
        writer = OrderedWriter(sink)

        def on_record(record: Record) -> None:
            nonlocal moves, errors
            writer.add(record)
            standings.add(record)
            moves += len(record.moves)
            errors += record.outcome == ERROR
            progress.update(1)
            elapsed = time.perf_counter() - started
            progress.set_postfix(moves_s=f"{moves / elapsed:,.0f}", refresh=False)

        server_cpu0 = server.cpu_seconds() if server else None
        cpu0 = time.process_time()
        started = time.perf_counter()
        try:
            counters = driver.run(on_record)
        except TournamentFailed as error:
            progress.close()
            print(f"tournament: stopped: {error}", file=sys.stderr)
            return 1
        seconds = time.perf_counter() - started
        harness_cpu = time.process_time() - cpu0
        server_cpu = (
            server.cpu_seconds() - server_cpu0 if server and server_cpu0 is not None else None
        )
    progress.close()

    results = standings.compute()
    throughput = report.Throughput(
        moves=standings.moves,
        deals=standings.deals,
        seconds=seconds,
        harness_cpu=harness_cpu,
        server_cpu=server_cpu,
        server_workers=server.workers if server else None,
        counters=counters,
    )
    run = report.Run(
        command=shlex.join(["croupier", "tournament", *argv]),
        table=table,
        entrants=[(e.name, e.spec) for e in entrants],
        plan=plan,
        server=where,
        standings=standings,
        results=results,
        throughput=throughput,
    )
    report.write(run, out, with_plot=plot)
    print(f"{table.game} ({table.preset}), {table.seats} seats: {plan.matches} matches")
    print("\n".join(report.table_lines(results)))
    if standings.unfinished:
        print(f"unfinished matches: {len(standings.unfinished)} (see REPORT.md)")
    print("\n".join(report.throughput_lines(throughput)))
    print(f"written: {out / 'REPORT.md'}, {out / 'records.jsonl'}")
    if errors:
        print(
            f"tournament: {errors} match(es) ended in an error (see records.jsonl)", file=sys.stderr
        )
    return 1 if errors else 0
