"""An in-process Croupier server, and a helper that runs `croupier tournament`
against it and reads what it wrote."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier.tournament import run


@pytest.fixture(scope="session")
def target() -> Iterator[str]:
    """host:port of a real CroupierService server running in this process."""
    with ServerThread(ServerConfig(port=0, grace=0.0)) as port:
        yield f"127.0.0.1:{port}"


Tournament = Callable[..., tuple[int, Path, dict[str, Any]]]


@pytest.fixture
def tournament(target: str, tmp_path: Path) -> Tournament:
    """tournament(*args, out=None, plot=False): run `croupier tournament ARGS
    --target T --out DIR --quiet [--no-plot]`; (exit code, DIR, results.json
    as a dict). The plot is skipped unless asked for: matplotlib's import
    and drawing cost seconds a run."""
    runs = iter(range(1_000))

    def play(
        *args: str, out: Path | None = None, plot: bool = False
    ) -> tuple[int, Path, dict[str, Any]]:
        out = out or tmp_path / f"run{next(runs)}"
        flags = ["--target", target, "--out", str(out), "--quiet"]
        code = run.main([*args, *flags] + ([] if plot else ["--no-plot"]))
        results = out / "results.json"
        return code, out, json.loads(results.read_text()) if results.exists() else {}

    return play
