"""webload, the load generator of the browser port's cases: built from
./webload (Go, standard library only) with `go build`, once per run.

webload is to the web port (`croupier serve --web`, Connect unary calls over
HTTP/1.1) what ghz is to the gRPC port: the same flags where they mean the
same, the same JSON fields, so `ghz.run` runs it and `results.from_ghz` reads
its report. Its doc comment (webload/main.go) gives the flags and fields.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import ghz

SOURCE = Path(__file__).resolve().parent / "webload"
BUILD_TIMEOUT = 300


class WebloadMissing(RuntimeError):
    """webload cannot be built: no Go toolchain, or the build failed."""


def build(dest: Path) -> Path:
    """Build webload into `dest` (a file path) with `go build` and return it.
    Go's build cache makes a rebuild of unchanged sources take a second or so."""
    go = ghz.find_go()
    if not go:
        raise WebloadMissing("Go is not installed, so webload cannot be built (see go.dev/dl)")
    dest.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [go, "build", "-o", str(dest), "."],
        cwd=SOURCE,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
        check=False,
    )
    if done.returncode != 0 or not dest.exists():
        raise WebloadMissing(
            f"`go build` of {SOURCE} failed (exit {done.returncode}): {done.stderr.strip()[-500:]}"
        )
    return dest


def go_version() -> str:
    """`go version`'s version word (e.g. go1.26.8), or "" without Go."""
    go = ghz.find_go()
    if not go:
        return ""
    out = subprocess.run([go, "version"], capture_output=True, text=True, timeout=30).stdout
    words = out.split()
    return words[2] if len(words) > 2 else out.strip()
