"""What `make tournament` and `make tournament-remote` share: the games and
their tables, one `croupier tournament` per game, the summary table and the
replay of the saved records."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from croupier.engine import api
from croupier.v1 import service_pb2

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class GameTable:
    game: str
    preset: str  # the default preset
    min_seats: int  # at that preset


def games() -> list[GameTable]:
    """Every registered game at its default preset, in name order."""
    tables = []
    for game in api.list_games(service_pb2.ListGamesRequest()).games:
        preset = next(p for p in game.presets if p.name == game.default_preset)
        seats = max(game.min_seats, preset.min_seats or game.min_seats)
        tables.append(GameTable(game.name, preset.name, seats))
    return sorted(tables, key=lambda t: t.game)


def tournament(args: list[str]) -> int:
    """Run `croupier tournament ARGS` as its own process (a game's records and
    bots stay out of the next game's); its exit code."""
    command = [sys.executable, "-m", "croupier.cli", "tournament", *args]
    print("+ croupier tournament " + " ".join(args), flush=True)
    return subprocess.run(command, cwd=ROOT, check=False).returncode


def replay(records: list[Path], sample: int | None) -> tuple[int, str]:
    """`croupier replay` of `records` (a spread-out sample of them when
    `sample` is given): its exit code and last line of output."""
    args = [str(path) for path in records]
    if sample is not None:
        args += ["--sample", str(sample)]
    print("+ croupier replay " + " ".join(args), flush=True)
    run = subprocess.run(
        [sys.executable, "-m", "croupier.cli", "replay", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    output = (run.stdout + run.stderr).strip()
    print(output, flush=True)
    return run.returncode, output.splitlines()[-1] if output else "(no output)"


def results(out: Path) -> dict[str, Any] | None:
    path = out / "results.json"
    return json.loads(path.read_text()) if path.exists() else None


def entrant(results: dict[str, Any], name: str) -> dict[str, Any]:
    return next(e for e in results["entrants"] if e["name"] == name)


def throughput_cells(results: dict[str, Any]) -> str:
    t = results["throughput"]
    per_core = t.get("moves_per_server_core")
    return f"{t['moves']:,} | {t['moves_per_second']:,.0f} | " + (
        f"{per_core:,.0f}" if per_core else "–"
    )
