"""The web table (clients/web) in a real browser against a real server.

A `croupier serve --web` process (one worker, sealing keys) serves the page
built into clients/web/dist; clients/web/e2e/table.e2e.mjs drives Debian's
Chromium through it with playwright-core: a whole deal of every game against
the built-in bots, an illegal try whose shown reason must be the server's
Rejection, Next deal, a sealed match, a hand-built state in the inspector,
and a table at phone width. Its screenshots go to reports/web/.

`make test` installs the page's packages (npm ci), builds it and installs
Chromium first (CLIENT_DEPS, clients/web/web.mk); this test bundles the page
again (under a second) so that it tests the sources as they are, and never
installs. Without node or /usr/bin/chromium it skips.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "clients" / "web"
NODE_BIN = WEB / "node_modules" / ".bin"
BUF = ROOT / ".venv" / "bin" / "buf"
REPORTS = ROOT / "reports" / "web"
NODE = shutil.which("node")
NPM = shutil.which("npm")
CHROMIUM = Path("/usr/bin/chromium")

needs_node = pytest.mark.skipif(
    NODE is None or NPM is None, reason="node is not installed: the web table is not tested"
)
needs_browser = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"{CHROMIUM} is missing (make test installs Debian's chromium as root)",
)

READY_WITHIN = 20.0  # seconds for the server to answer on its web port
START_ATTEMPTS = 3  # a free port may be taken between finding and binding it
E2E_TIMEOUT = 200  # seconds; the script takes about 25 on a 2-core machine (it gives up at 150)
BUILD_TIMEOUT = 120
GAMES = {"hundred_and_one", "uno", "scala40", "most", "sto", "one_hundred", "chips_101"}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _list_games(base: str) -> list[str] | None:
    """The games, by ListGames over Connect JSON; None while nothing answers."""
    request = urllib.request.Request(
        f"{base}/croupier.v1.CroupierService/ListGames",
        data=b"{}",
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=2) as answer:
            return [game["name"] for game in json.load(answer)["games"]]
    except (OSError, urllib.error.URLError, ValueError):
        return None


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a `croupier serve --web` serving clients/web/dist, with sealing keys."""
    work = tmp_path_factory.mktemp("web")
    keys = work / "seal-keys"
    made = subprocess.run(
        [sys.executable, "-m", "croupier.cli", "seal-keygen", "web1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    keys.write_text(made.stdout)
    keys.chmod(0o600)
    log = work / "server.log"
    for attempt in range(START_ATTEMPTS):
        port, web = _free_port(), _free_port()
        base = f"http://127.0.0.1:{web}"
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [sys.executable, "-m", "croupier.cli", "serve", "--host", "127.0.0.1"]
                + ["--port", str(port), "--web", str(web), "--web-root", str(WEB / "dist")]
                + ["--workers", "1", "--metrics-port", "0", "--seal-keys", str(keys)],
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + READY_WITHIN
        while time.monotonic() < deadline and process.poll() is None:
            if _list_games(base) is not None:
                yield base
                _stop(process)
                return
            time.sleep(0.1)
        _stop(process)
        if attempt == START_ATTEMPTS - 1:
            pytest.fail(f"no web port answered in {START_ATTEMPTS} attempts:\n{log.read_text()}")


def installed() -> None:
    """Fails, saying how to install, when npm ci has not run."""
    if not (NODE_BIN / "esbuild").exists():
        pytest.fail(
            "clients/web/node_modules is not installed: run "
            "`make clients/web/dist/.built` (make test does)"
        )


def build() -> None:
    """tsc --noEmit and the esbuild bundle: about two seconds."""
    for command in ([str(NODE_BIN / "tsc"), "-p", "."], [str(NPM), "run", "--silent", "build"]):
        run = subprocess.run(
            command, cwd=WEB, capture_output=True, text=True, timeout=BUILD_TIMEOUT
        )
        assert run.returncode == 0, f"{' '.join(command)} failed:\n{run.stdout}{run.stderr}"


@needs_node
@needs_browser
def test_the_web_table_plays_every_game_in_chromium(web_server: str) -> None:
    assert NODE is not None
    installed()
    build()
    games = _list_games(web_server)
    assert games is not None and set(games) == GAMES, games
    REPORTS.mkdir(parents=True, exist_ok=True)
    for old in REPORTS.glob("*.png"):
        old.unlink()
    started = time.monotonic()
    run = subprocess.run(
        [NODE, "e2e/table.e2e.mjs"],
        cwd=WEB,
        env={
            **os.environ,
            "CROUPIER_WEB_URL": web_server,
            "CROUPIER_WEB_SEALED": "1",
            "REPORT_DIR": str(REPORTS),
            "CHROMIUM": str(CHROMIUM),
        },
        capture_output=True,
        text=True,
        timeout=E2E_TIMEOUT,
    )
    output = run.stdout + run.stderr
    (REPORTS / "e2e.log").write_text(f"{output}\n# wall time {time.monotonic() - started:.1f} s\n")
    assert run.returncode == 0, output
    assert re.search(r"^# fail 0$", output, re.MULTILINE), output
    assert "not ok" not in output, output
    for game in games:
        assert re.search(rf"^ok \d+ - {game}: a whole deal against the bots", output, re.M), output
    for check in ("an illegal card shows the server's rejection", "a sealed match", "inspector"):
        assert re.search(rf"^ok \d+ - .*{re.escape(check)}", output, re.MULTILINE), output
    assert "# SKIP" not in output, output
    shots = {p.name for p in REPORTS.glob("*.png")}
    wanted = {f"{game}-end.png" for game in games}
    wanted |= {"illegal-try.png", "inspector.png", "phone-table.png", "sealed-end.png"}
    assert wanted <= shots, f"missing screenshots: {sorted(wanted - shots)}"


def files_under(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.is_file())


@needs_node
def test_the_committed_web_stubs_are_what_buf_generates(tmp_path: Path) -> None:
    installed()
    subprocess.run(
        [BUF, "generate", "--template", "clients/web/buf.gen.yaml", "--output", tmp_path],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    generated = tmp_path / "clients" / "web" / "src" / "gen"
    committed = WEB / "src" / "gen"
    names = files_under(generated)
    assert names == files_under(committed)
    assert "croupier/v1/service_pb.ts" in names and "croupier/v1/bot_pb.ts" in names
    stale = [
        name for name in names if (generated / name).read_bytes() != (committed / name).read_bytes()
    ]
    assert not stale, f"clients/web/src/gen differs from buf generate in {stale}: make proto"
