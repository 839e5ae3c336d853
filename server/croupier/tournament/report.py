"""What a tournament wrote: REPORT.md, results.json and plot.png in its
output directory, and the table it prints."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from croupier.tournament.driver import Counters, Plan, Table
from croupier.tournament.standings import EntrantResult, Standings


@dataclass(frozen=True)
class Throughput:
    moves: int
    deals: int
    seconds: float  # wall clock of the play
    harness_cpu: float  # this process's CPU seconds during the play
    server_cpu: float | None  # the server's, when the harness started it
    server_workers: int | None
    counters: Counters

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def moves_per_server_core(self) -> float | None:
        """Moves per server CPU second: what one fully busy server core plays."""
        if not self.server_cpu:
            return None
        return self.moves / self.server_cpu

    def as_dict(self) -> dict[str, Any]:
        return {
            "moves": self.moves,
            "deals": self.deals,
            "seconds": self.seconds,
            "moves_per_second": self.moves_per_second,
            "harness_cpu_seconds": self.harness_cpu,
            "server_cpu_seconds": self.server_cpu,
            "server_workers": self.server_workers,
            "moves_per_server_core": self.moves_per_server_core,
            "calls": vars(self.counters),
        }


@dataclass(frozen=True)
class Run:
    """Everything a report says about one tournament."""

    command: str
    table: Table
    entrants: Sequence[tuple[str, str]]  # (name, spec)
    plan: Plan
    server: str  # where it played, in words
    standings: Standings
    results: Sequence[EntrantResult]
    throughput: Throughput


def table_lines(results: Sequence[EntrantResult]) -> list[str]:
    """The results as a markdown table (also what the command prints)."""
    lines = [
        "| entrant | bot | matches | wins | losses | win rate | 95 % Wilson interval "
        "| faults | unfinished | rating μ ± σ | ordinal |",
        "|---|---|--:|--:|--:|--:|---|--:|--:|---|--:|",
    ]
    for r in sorted(results, key=lambda r: r.ordinal, reverse=True):
        low, high = r.interval
        lines.append(
            f"| {r.name} | `{r.spec}` | {r.matches} | {r.points:g} | {r.losses:g} "
            f"| {r.rate:.1%} | {low:.1%} – {high:.1%} | {r.faults} | {r.unfinished} "
            f"| {r.mu:.2f} ± {r.sigma:.2f} | {r.ordinal:.2f} |"
        )
    return lines


def throughput_lines(t: Throughput) -> list[str]:
    c = t.counters
    per_call = c.batch_items / c.batch_calls if c.batch_calls else 0.0
    lines = [
        f"- Moves: {t.moves:,} in {t.deals:,} deals, {t.seconds:.1f} s of play: "
        f"**{t.moves_per_second:,.0f} moves/s**.",
        f"- Calls: {c.batch_calls:,} ApplyMoveBatch ({per_call:.1f} moves per call, "
        f"{c.rounds:,} rounds), {c.unary_calls:,} unary (NewGame, NextDeal and the first "
        f"ListLegalMoves/GetView of each deal, DefaultMove), {c.remote_bot_calls:,} "
        f"ChooseMove to BotServices"
        + (f", {c.split_batches} batches split for size" if c.split_batches else "")
        + ".",
        f"- Harness CPU: {t.harness_cpu:.1f} s "
        f"({t.harness_cpu / t.seconds if t.seconds else 0:.2f} cores).",
    ]
    if t.server_cpu is not None:
        per_core = t.moves_per_server_core
        lines.append(
            f"- Server CPU ({t.server_workers} worker(s), started by the harness; read from "
            f"/proc of the server and its workers): {t.server_cpu:.1f} s "
            f"({t.server_cpu / t.seconds if t.seconds else 0:.2f} cores): "
            + (f"**{per_core:,.0f} moves/s per server core**." if per_core else "none measured.")
        )
    else:
        lines.append("- Server CPU: not measured (a server the harness did not start).")
    return lines


def markdown(run: Run, *, with_plot: bool = True) -> str:
    table, plan = run.table, run.plan
    options = ", ".join(f"{k}={v}" for k, v in table.options.items()) or "the preset's"
    unfinished = run.standings.unfinished
    lines = [
        f"# Tournament: {table.game} ({table.preset})",
        "",
        f"- Command: `{run.command}`",
        f"- Table: {table.game}, preset {table.preset}, options {options}, {table.seats} seats.",
        "- Entrants: " + ", ".join(f"{name} (`{spec}`)" for name, spec in run.entrants) + ".",
        f"- Matches: {plan.matches} (seeds {plan.seed} to {plan.seed + plan.matches - 1}), "
        f"seat rotation {'on' if plan.rotation else 'off'}; {plan.parallel} in flight over "
        f"{plan.lanes} connection(s); at most {plan.max_moves:,} moves a match; bot time "
        + (f"budget {plan.time_budget_ms} ms." if plan.time_budget_ms else "budget none."),
        f"- Server: {run.server}.",
        "",
        "## Results",
        "",
        "A shared win counts 1/k for each of k winners. Ratings: openskill Plackett-Luce, "
        "updated in match order from each match's ranking (winners, then the others by "
        "match score); ordinal = μ − 3σ.",
        "",
        *table_lines(run.results),
        "",
    ]
    if unfinished:
        listed = ", ".join(f"{index} ({outcome})" for index, outcome in unfinished[:50])
        more = f" and {len(unfinished) - 50} more" if len(unfinished) > 50 else ""
        lines += [f"Unfinished matches ({len(unfinished)}): {listed}{more}.", ""]
    else:
        lines += ["Every match finished.", ""]
    lines += ["## Throughput", "", *throughput_lines(run.throughput), ""]
    if with_plot:
        lines += ["![win rates and ratings](plot.png)", ""]
    return "\n".join(lines)


def results_json(run: Run) -> dict[str, Any]:
    return {
        "game": run.table.game,
        "preset": run.table.preset,
        "options": {
            k: v if not isinstance(v, tuple) else list(v) for k, v in run.table.options.items()
        },
        "seats": run.table.seats,
        "matches": run.plan.matches,
        "seed": run.plan.seed,
        "finished": run.standings.finished,
        "unfinished": [list(u) for u in run.standings.unfinished],
        "entrants": [r.as_dict() for r in run.results],
        "throughput": run.throughput.as_dict(),
    }


def plot(run: Run, path: Path) -> None:
    """Win rates with their intervals, and each entrant's rating over matches."""
    import matplotlib

    matplotlib.use("Agg")  # no display: files only
    import matplotlib.pyplot as plt

    results = list(run.results)
    figure, (rates, ratings) = plt.subplots(1, 2, figsize=(11, 4.2))
    names = [r.name for r in results]
    values = [r.rate for r in results]
    # (Clamped: at a rate of 0 or 1 the interval's end can miss it by a rounding.)
    low = [max(0.0, r.rate - r.interval[0]) for r in results]
    high = [max(0.0, r.interval[1] - r.rate) for r in results]
    rates.bar(names, values, yerr=[low, high], capsize=6, color="#4c72b0")
    rates.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    rates.set_ylim(0, 1)
    rates.set_ylabel("win rate (95 % Wilson interval)")
    rates.set_title(f"{run.table.game} ({run.table.preset}): {run.standings.finished} matches")
    history = run.standings.history
    for name in names:
        ratings.plot(range(1, len(history) + 1), [mus[name] for _, mus in history], label=name)
    ratings.set_xlabel("finished matches, in match order")
    ratings.set_ylabel("rating μ (Plackett-Luce)")
    ratings.set_title("rating over matches")
    ratings.legend(loc="best", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def write(run: Run, out: Path, *, with_plot: bool = True) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "REPORT.md").write_text(markdown(run, with_plot=with_plot))
    (out / "results.json").write_text(json.dumps(results_json(run), indent=1) + "\n")
    if with_plot:
        plot(run, out / "plot.png")
