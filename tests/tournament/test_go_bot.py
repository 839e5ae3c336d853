"""The Go BotService (`croupier-bot`, clients/go/cmd/croupier-bot) as an
entrant: built here with `go build` (no download: GOPROXY=off, as `make test`
fetched the modules first), started on a free port, played against."""

from __future__ import annotations

import os
import re
import selectors
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.tournament import replay

from .conftest import Tournament

ROOT = Path(__file__).resolve().parents[2]
GO_CLIENT = ROOT / "clients" / "go"
GO = shutil.which("go")
BUILD_TIMEOUT = 300  # seconds; a few with a warm build cache
READY_WITHIN = 10.0  # seconds for croupier-bot to print its address
SERVING = re.compile(r"^serving on (127\.0\.0\.1:\d+)$")

pytestmark = pytest.mark.skipif(GO is None, reason="go is not installed: no Go BotService")


@pytest.fixture(scope="module")
def go_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """host:port of a running croupier-bot."""
    assert GO is not None
    binary = tmp_path_factory.mktemp("go") / "croupier-bot"
    subprocess.run(
        [GO, "build", "-buildvcs=false", "-o", str(binary), "./cmd/croupier-bot"],
        cwd=GO_CLIENT,
        env={**os.environ, "GOPROXY": "off"},
        check=True,
        timeout=BUILD_TIMEOUT,
    )
    process = subprocess.Popen(
        [str(binary), "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if not selector.select(READY_WITHIN):
                pytest.fail(f"croupier-bot printed nothing within {READY_WITHIN:g} s")
        line = process.stdout.readline().strip()
        ready = SERVING.match(line)
        assert ready, f"croupier-bot said {line!r}"
        yield ready.group(1)
    finally:
        process.terminate()
        process.wait(10)


def test_go_bot_against_python_random(
    tournament: Tournament, go_bot: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, results = tournament(
        "--game",
        "hundred_and_one",
        "--bot",
        f"go={go_bot}",
        "--bot",
        "random",
        "--matches",
        "6",
        "--parallel",
        "6",
    )
    assert code == 0
    entrants = {e["name"]: e for e in results["entrants"]}
    assert entrants["go"]["matches"] == 6
    assert entrants["go"]["faults"] == 0
    assert results["throughput"]["calls"]["remote_bot_calls"] > 0
    capsys.readouterr()
    assert replay.main([str(out / "records.jsonl")]) == 0
