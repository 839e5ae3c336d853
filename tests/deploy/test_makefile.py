"""Every make target's recipe is valid shell, prerequisites included.

`make bench` once failed on every new machine before running a line: make's
`$(call f,...)` splits its arguments at commas, so `$(call uv_install,-e
'.[dev,bench]')` handed the shell an unterminated quote, and no test ran the
recipe (it installs the bench extra, once per machine). A dry run of each
phony target with every prerequisite remade (`make -n -B`) prints the
commands make would hand the shell; `sh -n` parses them without running any.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from ports import free_ports as _free_ports

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make")


def _make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _phony_targets() -> list[str]:
    """The .PHONY targets of the Makefile and the files it includes, read
    from make's own database (`make -p`), so a new target is covered."""
    database = _make("-pRrq", ":").stdout
    for line in database.splitlines():
        if line.startswith(".PHONY:"):
            return sorted(line.split(":", 1)[1].split())
    raise AssertionError("make -p lists no .PHONY targets")


def test_the_makefile_declares_the_targets_the_readme_promises() -> None:
    assert {"run", "test", "lint", "proto", "bench", "loadtest", "clean"} <= set(_phony_targets())


@pytest.mark.parametrize("target", _phony_targets())
def test_every_targets_recipe_parses_as_shell(target: str) -> None:
    dry = _make("-n", "-B", target)
    assert dry.returncode == 0, f"make -n -B {target}: {dry.stderr}"
    parsed = subprocess.run(["sh", "-n"], input=dry.stdout, capture_output=True, text=True)
    assert parsed.returncode == 0, f"make {target}: {parsed.stderr}\n{dry.stdout}"


# A recipe line that names $(MAKE) is run even under `make -n` (GNU make's
# rule for recursive makes), so anything else on that line runs too: the dry
# run of `test` above once ran the whole coverage pass and lint (27 s) because
# the line that starts lint in the background also ran pytest.
_RECURSIVE = re.compile(r"\$[({]MAKE[)}]")
_ONLY_A_MAKE = re.compile(r"[@+-]*\$[({]MAKE[)}](\s[^;&|<>`]*)?")


def _recipe_lines(makefile: Path) -> list[str]:
    """The recipe lines of a makefile, continuations joined."""
    lines: list[str] = []
    pending = ""
    for raw in makefile.read_text().splitlines():
        if pending:
            pending += " " + raw.strip()
        elif raw.startswith("\t"):
            pending = raw.strip()
        else:
            continue
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        lines.append(pending)
        pending = ""
    return lines


def test_a_line_that_runs_make_runs_nothing_else() -> None:
    files = [ROOT / "Makefile", *ROOT.glob("clients/*/*.mk"), *ROOT.glob("deploy/*/*.mk")]
    recursive = [
        (path.name, line)
        for path in files
        for line in _recipe_lines(path)
        if _RECURSIVE.search(line)
    ]
    assert recursive, "the Makefile's recursive makes were not found"
    mixed = [(name, line) for name, line in recursive if not _ONLY_A_MAKE.fullmatch(line)]
    assert not mixed, f"run under make -n, and with them all the rest of the line: {mixed}"


def _make_run_line(*args: str, **env: str) -> str:
    """The `croupier serve` line `make run` would run (a dry run)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
    dry = subprocess.run(
        ["make", "--no-print-directory", "-n", "run", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**clean, **env},
        timeout=120,
    )
    assert dry.returncode == 0, dry.stderr
    return next(line for line in dry.stdout.splitlines() if "croupier serve" in line)


def test_make_run_takes_the_metrics_port_from_the_make_line_or_the_environment() -> None:
    # The metrics port was fixed at 9095, so a second `make run` beside a
    # first one could not start whatever PORT it was given.
    assert "--metrics-port 9095 " in _make_run_line()
    assert "--metrics-port 9096 " in _make_run_line("METRICS_PORT=9096")
    assert "--metrics-port 9097 " in _make_run_line(CROUPIER_METRICS_PORT="9097")
    assert "--metrics-port 9096 " in _make_run_line("METRICS_PORT=9096", CROUPIER_METRICS_PORT="1")


def _listening(process: subprocess.Popen[str], timeout: float = 30.0) -> dict[str, object]:
    """Its worker's `worker_listening` log line (or the log, failing, if it ends first)."""
    assert process.stderr is not None
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        seen.append(line)
        if line.startswith("{") and json.loads(line)["event"] == "worker_listening":
            return dict(json.loads(line))
    raise AssertionError(f"no listening line; exit {process.poll()}:\n{''.join(seen)}")


@pytest.mark.skipif(not (ROOT / ".venv/bin/croupier").exists(), reason="no .venv/bin/croupier")
def test_a_second_make_run_serves_beside_the_first_on_the_documented_ports() -> None:
    # README's Quickstart: `make run PORT=50052 WEB_PORT=8081 METRICS_PORT=9096`
    # beside a running `make run`. Here every port is a free one, and the
    # commands are what `make run` would run with them.
    ports = _free_ports(6)
    lines = [
        _make_run_line(f"PORT={grpc}", f"WEB_PORT={web}", f"METRICS_PORT={metrics}")
        for grpc, web, metrics in (ports[:3], ports[3:])
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CROUPIER_", "PROMETHEUS_"))}
    env["CROUPIER_WORKERS"] = "1"
    processes: list[subprocess.Popen[str]] = []
    try:
        for line in lines:
            processes.append(
                subprocess.Popen(
                    shlex.split(line),
                    cwd=ROOT,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    text=True,
                    env=env,
                )
            )
            _listening(processes[-1])
        for process, (grpc, web, metrics) in zip(processes, (ports[:3], ports[3:]), strict=True):
            assert process.poll() is None
            for port in (grpc, web, metrics):
                socket.create_connection(("127.0.0.1", port), timeout=5).close()
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
