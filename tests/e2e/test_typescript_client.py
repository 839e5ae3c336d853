"""The TypeScript client (clients/typescript) against a real server process:
its node tests pass, a full match of every listed game is played by its
random bots, and its committed stubs are what `buf generate` makes now.

`make test` installs its packages (npm ci) and compiles it (tsc) first
(CLIENT_DEPS, clients/typescript/ts.mk); this test runs tsc again (nothing
to do then, unless a source changed since) and never installs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from croupier_client.client import CroupierClient

ROOT = Path(__file__).resolve().parents[2]
TS_CLIENT = ROOT / "clients" / "typescript"
NODE_BIN = TS_CLIENT / "node_modules" / ".bin"
BUF = ROOT / ".venv" / "bin" / "buf"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None, reason="node is not installed: the TypeScript client is not tested"
)

NODE_TEST_TIMEOUT = 180  # seconds; the suite takes about 10 on an idle 2-core machine
TSC_TIMEOUT = 120
# The parent test of the per-game subtests in test/matches.test.ts.
EVERY_GAME = "a full match of every game, between random bots"


def installed() -> None:
    """Fails, saying how to install, when npm ci has not run."""
    if not (NODE_BIN / "tsc").exists():
        pytest.fail(
            f"{TS_CLIENT.relative_to(ROOT)}/node_modules is not installed: "
            "run `make clients/typescript/node_modules/.npm-ci-done` (make test does)"
        )


def compile_sources() -> None:
    """tsc, incremental: about a second when make test has just compiled."""
    run = subprocess.run(
        [NODE_BIN / "tsc", "-p", "."],
        cwd=TS_CLIENT,
        capture_output=True,
        text=True,
        timeout=TSC_TIMEOUT,
    )
    assert run.returncode == 0, f"tsc failed:\n{run.stdout}{run.stderr}"


@needs_node
def test_node_tests_pass_and_random_bots_finish_every_game(first_server: str) -> None:
    assert NODE is not None
    installed()
    compile_sources()
    with CroupierClient(first_server) as client:
        games = sorted(game.name for game in client.list_games())
    test_files = sorted(
        str(p.relative_to(TS_CLIENT)) for p in (TS_CLIENT / "dist" / "test").glob("*.test.js")
    )
    assert test_files, "tsc compiled no test file into dist/test"
    run = subprocess.run(
        [NODE, "--test", "--test-reporter=tap", *test_files],
        cwd=TS_CLIENT,
        env={**os.environ, "CROUPIER_TARGET": first_server},
        capture_output=True,
        text=True,
        timeout=NODE_TEST_TIMEOUT,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert re.search(r"^# fail 0$", output, re.MULTILINE), output
    # With a target nothing skips (the live tests skip only without one).
    assert re.search(r"^# skipped 0$", output, re.MULTILINE), output
    assert re.search(rf"^ok \d+ - {re.escape(EVERY_GAME)}$", output, re.MULTILINE), output
    # One passed subtest per registered game, named by it (TAP indents subtests).
    passed = set(re.findall(r"^    ok \d+ - (\w+)$", output, re.MULTILINE))
    assert passed == set(games), output


def files_under(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.is_file())


@needs_node
def test_the_committed_typescript_stubs_are_what_buf_generates(tmp_path: Path) -> None:
    installed()
    subprocess.run(
        [BUF, "generate", "--template", "clients/typescript/buf.gen.yaml", "--output", tmp_path],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    generated = tmp_path / "clients" / "typescript" / "src" / "gen"
    committed = TS_CLIENT / "src" / "gen"
    names = files_under(generated)
    assert names == files_under(committed)
    assert "croupier/v1/service_pb.ts" in names and "google/rpc/error_details_pb.ts" in names
    stale = [
        name for name in names if (generated / name).read_bytes() != (committed / name).read_bytes()
    ]
    assert not stale, f"clients/typescript/src/gen differs from buf generate in {stale}: make proto"
