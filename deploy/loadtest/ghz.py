"""Finding (or installing) ghz and running it once, with its own CPU cost measured."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

GHZ_MODULE = "github.com/bojand/ghz/cmd/ghz@latest"
INSTALL_TIMEOUT = 600


class GhzMissing(RuntimeError):
    """ghz is not installed and cannot be (no Go toolchain, or the install failed)."""


def ensure_ghz() -> Path:
    """The ghz binary: on PATH, in $(go env GOPATH)/bin, or installed there now
    with `go install`. Raises GhzMissing with what to do when none works."""
    found = shutil.which("ghz")
    if found:
        return Path(found)
    go = find_go()
    gopath = _gopath(go) if go else Path.home() / "go"
    installed = gopath / "bin" / "ghz"
    if installed.exists():
        return installed
    if not go:
        raise GhzMissing(
            "ghz is not installed and Go is not available to install it: install Go "
            f"(https://go.dev/dl/) and run `go install {GHZ_MODULE}`, or put ghz on PATH"
        )
    print(f"loadtest: installing ghz ({go} install {GHZ_MODULE})", flush=True)
    done = subprocess.run([go, "install", GHZ_MODULE], timeout=INSTALL_TIMEOUT, check=False)
    if done.returncode != 0 or not installed.exists():
        raise GhzMissing(f"`go install {GHZ_MODULE}` failed (exit {done.returncode})")
    return installed


def find_go() -> str | None:
    """The Go toolchain: on PATH or where Go's installer puts it."""
    return shutil.which("go") or _existing("/usr/local/go/bin/go")


def _existing(path: str) -> str | None:
    return path if os.access(path, os.X_OK) else None


def _gopath(go: str) -> Path:
    out = subprocess.run([go, "env", "GOPATH"], capture_output=True, text=True, timeout=60)
    first = out.stdout.strip().split(os.pathsep)[0]
    return Path(first) if first else Path.home() / "go"


def version(ghz: Path) -> str:
    """ghz's version; a `go install` build says "dev", so ask Go's build info."""
    out = subprocess.run([str(ghz), "--version"], capture_output=True, text=True, timeout=30)
    text = (out.stdout or out.stderr).strip()
    go = shutil.which("go")
    if text == "dev" and go:
        info = subprocess.run(
            [go, "version", "-m", str(ghz)], capture_output=True, text=True, timeout=30
        ).stdout
        for line in info.splitlines():
            fields = line.split()
            if fields[:2] == ["mod", "github.com/bojand/ghz"] and len(fields) > 2:
                return fields[2]
    return text


@dataclass
class GhzResult:
    """ghz's JSON report of one run, and what the run cost the client."""

    report: dict
    wall_seconds: float
    client_cpu_seconds: float


def run(ghz: Path, args: list[str], timeout: float) -> GhzResult:
    """Run `ghz args --format json` and return its parsed report.

    ghz's own CPU time comes from this process's reaped-children usage, so
    the report can show how much of the shared machine the client took.
    webload (the Connect load generator, webtool.py) takes the same `--format
    json` and writes the same fields, so it runs through here too.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(
        [str(ghz), *args, "--format", "json"],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(
            f"{ghz.name} failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}"
        )
    return GhzResult(json.loads(done.stdout), wall, cpu)
