"""A tournament that started its own server (`--serve`) and is killed with
kill -9 leaves no server behind: the kernel stops the server when the
harness dies (PR_SET_PDEATHSIG, local_server.py). Found when a killed
`make tournament-remote` left a `croupier serve` running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG is Linux's")


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except FileNotFoundError:
        return []
    return [int(word) for word in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_killed_tournament_leaves_no_server(tmp_path: Path) -> None:
    harness = subprocess.Popen(
        [sys.executable, "-m", "croupier.cli", "tournament", "--game", "hundred_and_one"]
        + ["--bot", "random", "--bot", "random", "--matches", "100000", "--serve", "1"]
        + ["--quiet", "--no-plot", "--out", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    servers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        # Playing once the records file grows: the server is up by then.
        while time.monotonic() < deadline and not (tmp_path / "records.jsonl").exists():
            time.sleep(0.2)
        servers = _children(harness.pid)
        assert servers, "the harness started no server"
        harness.send_signal(signal.SIGKILL)
        harness.wait(10)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(pid) for pid in servers):
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in servers), "the server outlived its harness"
    finally:
        if harness.poll() is None:
            harness.kill()
        for pid in servers or _children(harness.pid):
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)  # its workers die with it (supervisor.py)
