"""`make tournament`'s script on one cheap game, and the load test's
tournament measurement (croupier.tournament.throughput)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from croupier.tournament import throughput

ROOT = Path(__file__).resolve().parents[2]


def test_all_games_script_reports_each_game_and_replays(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "deploy" / "tournament" / "all_games.py")]
        + ["--games", "chips_101", "--matches", "6", "--workers", "1", "--parallel", "6"]
        + ["--replay", "4", "--quiet", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    summary = (tmp_path / "REPORT.md").read_text()
    row = next(line for line in summary.splitlines() if line.startswith("| chips_101 |"))
    cells = [cell.strip() for cell in row.split("|")[1:-1]]
    assert cells[:4] == ["chips_101", "seed", "2", "6"]
    assert cells[7] in ("**yes**", "no")
    assert "- chips_101: the heuristic bot won " in summary
    assert "(`croupier replay --sample 4`): OK 4 records, " in summary
    game_report = (tmp_path / "chips_101-seed" / "REPORT.md").read_text()
    assert "moves/s per server core" in game_report and "| heuristic |" in game_report


def test_throughput_measurement_counts_moves_against_the_cpu_reading(target: str) -> None:
    readings = iter([10.0, 12.5])
    m = throughput.measure(
        target, "sto", matches=4, parallel=4, lanes=2, server_cpu=lambda: next(readings)
    )
    assert (m.game, m.preset, m.seats, m.finished) == ("sto", "seed", 3, 4)
    assert m.moves > 0 and m.deals >= 4
    assert m.server_cpu == 2.5 and m.moves_per_core == pytest.approx(m.moves / 2.5)
    assert m.counters.batch_items == m.moves
