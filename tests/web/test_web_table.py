"""The web table (clients/web): its build, and the page in a real browser against a real server.

A `croupier serve --web` process (one worker, sealing keys) serves the page
built into clients/web/dist; clients/web/e2e/table.e2e.mjs drives Debian's
Chromium through it with playwright-core: a whole deal of every game against
the built-in bots, an illegal try whose shown reason must be the server's
Rejection, Next deal, a sealed match, a hand-built state in the inspector,
and a table at phone width. Its screenshots go to reports/web/.

The page has no stubs of its own: it imports clients/typescript's
(clients/typescript/src/gen, checked against buf generate by
tests/e2e/test_typescript_client.py), which run on clients/web's
@bufbuild/protobuf. So the tests here also check that both packages pin the
same protobuf-es (the generator that wrote the stubs and the runtime that
runs them; no Node needed), that the bundle and tsc see one copy of
@bufbuild/protobuf, clients/web's, and that the page builds where
clients/typescript/node_modules is not installed.

`make test` installs the page's packages (npm ci), builds it and installs
Chromium first (CLIENT_DEPS, clients/web/web.mk); this test bundles the page
again (under a second) so that it tests the sources as they are, and never
installs. Without node or /usr/bin/chromium it skips.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from ports import free_port as _free_port

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "clients" / "web"
NODE_BIN = WEB / "node_modules" / ".bin"
TS_CLIENT = ROOT / "clients" / "typescript"
STUBS = TS_CLIENT / "src" / "gen"
PROTOBUF_ES = WEB / "node_modules" / "@bufbuild" / "protobuf"
# The generator of the stubs (clients/typescript's) and the runtime of the page
# (clients/web's) must be one version; each package pins both.
# What each package pins of protobuf-es: the page only runs the stubs that the
# TypeScript client's protoc-gen-es generated.
PINNED = {
    "web": ("@bufbuild/protobuf",),
    "typescript": ("@bufbuild/protobuf", "@bufbuild/protoc-gen-es"),
}
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


def run_ok(command: list[str], cwd: Path) -> str:
    """The command's output; fails with its output when it fails."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}"
    return done.stdout


def build() -> None:
    """tsc --noEmit and the esbuild bundle: about two seconds."""
    for command in ([str(NODE_BIN / "tsc"), "-p", "."], [str(NPM), "run", "--silent", "build"]):
        run_ok(command, WEB)


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


def test_both_packages_pin_the_same_protobuf_es() -> None:
    """The stubs' protoc-gen-es and the page's @bufbuild/protobuf are one exact version."""
    found: dict[str, str | None] = {}
    for package in (WEB, TS_CLIENT):
        manifest = json.loads((package / "package.json").read_text())
        declared = {**manifest["dependencies"], **manifest["devDependencies"]}
        lock = json.loads((package / "package-lock.json").read_text())["packages"]
        where = package.relative_to(ROOT)
        for name in PINNED[package.name]:
            locked = lock.get(f"node_modules/{name}", {})
            found[f"{where}/package.json {name}"] = declared.get(name)
            found[f"{where}/package-lock.json {name}"] = locked.get("version")
    stubs = sorted(STUBS.rglob("*_pb.ts"))
    assert len(stubs) >= 11, stubs
    for stub in stubs:
        header = re.match(r"// @generated by protoc-gen-es v(\S+) ", stub.read_text())
        found[str(stub.relative_to(ROOT))] = header.group(1) if header else None
    versions = set(found.values())
    assert len(versions) == 1, f"protobuf-es versions drifted: {json.dumps(found, indent=1)}"
    (version,) = versions
    assert version is not None and re.fullmatch(r"\d+\.\d+\.\d+", version), found


def bundle_command(outfile: Path, metafile: Path) -> list[str]:
    """The esbuild command of package.json's build script, writing outfile and metafile."""
    build = json.loads((WEB / "package.json").read_text())["scripts"]["build"]
    command = shlex.split(build.split("&&")[0])
    assert command[:2] == ["esbuild", "src/main.ts"], build
    keep = [arg for arg in command[1:] if not arg.startswith(("--outfile=", "--metafile="))]
    return [str(NODE_BIN / "esbuild"), *keep, f"--outfile={outfile}", f"--metafile={metafile}"]


def protobuf_es_copies(files: list[Path]) -> set[Path]:
    """The @bufbuild/protobuf directories that the files come from."""
    marker = "/node_modules/@bufbuild/protobuf/"
    return {Path(str(f)[: str(f).index(marker) + len(marker)]) for f in files if marker in str(f)}


@needs_node
def test_the_page_has_one_copy_of_protobuf_es(tmp_path: Path) -> None:
    """tsc and the bundle take every @bufbuild/protobuf, the stubs' too, from clients/web.

    The stubs' own imports would find clients/typescript/node_modules (when
    installed, as in CI) and bundle a second copy: esbuild's --alias and
    tsconfig's paths send them to clients/web/node_modules.
    """
    installed()
    typed = [
        Path(line).resolve()
        for line in run_ok([str(NODE_BIN / "tsc"), "-p", ".", "--listFiles"], WEB).splitlines()
    ]
    meta = tmp_path / "meta.json"
    run_ok(bundle_command(tmp_path / "app.js", meta), WEB)
    bundled = [(WEB / name).resolve() for name in json.loads(meta.read_text())["inputs"]]
    for tool, files in (("tsc", typed), ("esbuild", bundled)):
        copies = protobuf_es_copies(files)
        assert copies == {PROTOBUF_ES.resolve()}, f"{tool} takes @bufbuild/protobuf from {copies}"
        elsewhere = [str(f) for f in files if f.is_relative_to(TS_CLIENT / "node_modules")]
        assert not elsewhere, f"{tool} reads clients/typescript/node_modules: {elsewhere}"
        stubs = [f for f in files if f.is_relative_to(STUBS)]
        assert STUBS / "croupier" / "v1" / "service_pb.ts" in stubs, f"{tool}: {stubs}"
    assert not (WEB / "src" / "gen").exists(), "clients/web/src/gen is back: use the stubs"


@needs_node
def test_the_page_builds_without_the_typescript_clients_node_modules(tmp_path: Path) -> None:
    """A checkout where only clients/web is installed: tsc and esbuild still pass."""
    installed()
    typescript = tmp_path / "clients" / "typescript"
    shutil.copytree(TS_CLIENT, typescript, ignore=shutil.ignore_patterns("node_modules", "dist"))
    web = tmp_path / "clients" / "web"
    web.mkdir()
    for name in ("package.json", "tsconfig.json"):
        shutil.copy2(WEB / name, web / name)
    shutil.copytree(WEB / "src", web / "src")
    (web / "node_modules").symlink_to(WEB / "node_modules")
    run_ok([str(NODE_BIN / "tsc"), "-p", "."], web)
    meta = tmp_path / "meta.json"
    run_ok(bundle_command(tmp_path / "app.js", meta), web)
    inputs = json.loads(meta.read_text())["inputs"]
    assert "../typescript/src/gen/croupier/v1/service_pb.ts" in inputs, sorted(inputs)
    assert (tmp_path / "app.js").stat().st_size > 0
