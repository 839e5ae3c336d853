"""`make test-order` runs the suite last test first (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _collected(order: str) -> list[str]:
    env = {**os.environ, "CROUPIER_TEST_ORDER": order}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-p",
            "no:xdist",
            "tests/test_layers.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return [line for line in run.stdout.splitlines() if "::" in line]


def test_reverse_runs_the_collected_tests_last_to_first() -> None:
    forward = _collected("")
    assert len(forward) > 1
    assert _collected("reverse") == forward[::-1]
