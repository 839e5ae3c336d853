"""A random-bots tournament as a throughput measurement against a running
server, for a load test that holds the server's CPU reading (deploy/loadtest
run.py --tournament): the harness's moves per server CPU-second, beside the
ApplyMoveBatch figure measured on the same server.

Nothing is written: records and reports are `croupier tournament`'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from croupier.tournament import entrants as entrants_module
from croupier.tournament import settings
from croupier.tournament.driver import Counters, Driver, Plan, Table
from croupier.tournament.records import OVER, Record
from croupier_client.client import CroupierClient
from croupier_client.playout import DEFAULT_MAX_MOVES


@dataclass(frozen=True)
class Measurement:
    game: str
    preset: str
    seats: int
    matches: int
    finished: int
    moves: int
    deals: int
    seconds: float
    harness_cpu: float
    server_cpu: float
    counters: Counters

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def moves_per_core(self) -> float:
        """Moves per server CPU-second."""
        return self.moves / self.server_cpu if self.server_cpu else 0.0


def measure(
    target: str,
    game: str,
    *,
    matches: int,
    parallel: int,
    lanes: int,
    server_cpu: Callable[[], float],
    seed: int = 1,
) -> Measurement:
    """Play `matches` matches of `game` (default preset, its least seat count
    but at least 2) between random bots on the server at `target`, `parallel`
    in flight over `lanes` connections; `server_cpu()` reads the server's CPU
    seconds so far. ValueError for a game the server does not have."""
    with CroupierClient(target) as client:
        descriptor = settings.find_game(client.list_games(), game)
    preset = settings.find_preset(descriptor, "")
    seats = max(2, descriptor.min_seats, preset.min_seats)
    entrants = entrants_module.parse(["random"] * seats)  # random, random#2, ...
    probes = [entrants_module.probe(entrant, game) for entrant in entrants]
    table = Table(game, preset.name, {}, seats)
    plan = Plan(
        matches=matches,
        seed=seed,
        parallel=parallel,
        lanes=lanes,
        max_moves=DEFAULT_MAX_MOVES,
        time_budget_ms=0,
        rotation=True,
    )
    totals = {"moves": 0, "deals": 0, "finished": 0}

    def count(record: Record) -> None:
        totals["moves"] += len(record.moves)
        totals["deals"] += len(record.deals)
        totals["finished"] += record.outcome == OVER

    driver = Driver(target, table, entrants, probes, plan)
    cpu0, harness0, start = server_cpu(), time.process_time(), time.perf_counter()
    counters = driver.run(count)
    seconds = time.perf_counter() - start
    return Measurement(
        game=game,
        preset=preset.name,
        seats=seats,
        matches=matches,
        finished=totals["finished"],
        moves=totals["moves"],
        deals=totals["deals"],
        seconds=seconds,
        harness_cpu=time.process_time() - harness0,
        server_cpu=server_cpu() - cpu0,
        counters=counters,
    )
