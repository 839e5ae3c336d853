"""Every command of the README's quickstart and API tour runs as printed and
prints what the README shows (tests/readme/readme_blocks.py says how blocks
are marked and compared).

One `croupier serve` (1 worker, free ports) serves the whole README in order:
the grpcurl/jq session, the Python examples, the demo and the metrics
scraped after them, so the counters the README shows are those of exactly
that sequence on a fresh server.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from readme_blocks import (
    GRPC_ADDRESS,
    METRICS_ADDRESS,
    Block,
    blocks,
    differences,
    excerpt_differences,
)

ROOT = Path(__file__).resolve().parents[2]


def _tool(name: str) -> str | None:
    """`name` on PATH, else where `go install` puts it."""
    found = shutil.which(name)
    if found:
        return found
    gopath = Path(os.environ.get("GOPATH", Path.home() / "go")) / "bin" / name
    return str(gopath) if gopath.exists() else None


class Server:
    """`croupier serve` on free ports, as `make run` starts it."""

    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "croupier.cli", "serve", "--host", "127.0.0.1"]
            + ["--port", "0", "--metrics-port", "0", "--workers", "1"],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            env=env,
            text=True,
            start_new_session=True,
        )
        assert self.process.stderr is not None
        # Ready when its worker says so (no Health call: the metrics the
        # README shows count the calls of a fresh server).
        address: dict[str, str] = {}
        for line in self.process.stderr:
            event = json.loads(line)
            if event.get("event") == "listening":
                address = {
                    "target": f"127.0.0.1:{event['port']}",
                    "metrics": f"127.0.0.1:{event['metrics_port']}",
                }
            if event.get("event") == "worker_listening":
                break
        assert address, "the server stopped before it listened"
        self.target, self.metrics = address["target"], address["metrics"]
        # Keep reading its log, or a full pipe would stop it.
        threading.Thread(target=self.process.stderr.read, daemon=True).start()

    def rewrite(self, text: str) -> str:
        return text.replace(GRPC_ADDRESS, self.target).replace(METRICS_ADDRESS, self.metrics)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Shell:
    """One bash for every session block: variables and files carry over."""

    def __init__(self, cwd: Path, path: str) -> None:
        self.sentinel = f"__readme_{uuid.uuid4().hex}__"
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            env={**os.environ, "PATH": path},
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def run(self, command: str, timeout: float = 60) -> tuple[list[str], int]:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{{\n{command}\n}} 2>&1\necho {self.sentinel} $?\n")
        self.process.stdin.flush()
        output: list[str] = []
        while True:
            line = self.lines.get(timeout=timeout).rstrip("\n")
            if self.sentinel in line:
                before, after = line.split(self.sentinel, 1)
                if before:
                    output.append(before)
                return output, int(after)
            output.append(line)

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


# Runs chunks of Python in one namespace; each answer is the chunk's stdout.
_PYTHON_DRIVER = """
import contextlib, io, json, sys
# Imported now, while the shell session runs: the README's first block is quicker.
import croupier.engine.session, croupier.inprocess, croupier_client.playout
names = {"__name__": "__readme__"}
for line in sys.stdin:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(json.loads(line), "README.md", "exec"), names)
    sys.stdout.write(json.dumps(out.getvalue()) + "\\n")
    sys.stdout.flush()
"""


class Python:
    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _PYTHON_DRIVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=cwd,
            text=True,
        )

    def run(self, code: str) -> list[str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(code) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, "the README's Python failed (its traceback is above)"
        return str(json.loads(answer)).splitlines()

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def _explain(where: str, found: list[str], output: list[str]) -> str:
    """A difference, with the whole output to paste into the README."""
    shown = "\n    ".join(output[:40] + (["..."] if len(output) > 40 else []))
    return f"{where}\n  " + "\n  ".join(found) + f"\n  the output:\n    {shown}"


@pytest.fixture(scope="module")
def readme() -> list[Block]:
    return blocks()


def test_the_readme_marks_its_quickstart_and_tour(readme: list[Block]) -> None:
    kinds = [block.kind for block in readme]
    assert kinds[0] == "make"
    assert {"session", "python", "excerpt"} <= set(kinds)


def test_the_quickstart_make_commands_work(readme: list[Block]) -> None:
    for block in readme:
        if block.kind != "make":
            continue
        for line in block.body:
            command = line.split("#", 1)[0].split()
            if not command:
                continue
            assert command[0] == "make", f"README.md:{block.line}: {line}"
            dry = subprocess.run(
                ["make", "-n", *command[1:]], cwd=ROOT, capture_output=True, text=True
            )
            assert dry.returncode == 0, f"{line}: {dry.stderr}"


def _make_run(*args: str, **env: str) -> str:
    names = ("CROUPIER_HOST", "CROUPIER_PORT", "CROUPIER_WEB_PORT")
    clean = {k: v for k, v in os.environ.items() if k not in names}
    dry = subprocess.run(
        ["make", "-n", "run", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**clean, **env},
    )
    assert dry.returncode == 0, dry.stderr
    return next(line for line in dry.stdout.splitlines() if "croupier serve" in line)


def test_make_run_takes_its_address_from_the_make_line_or_the_environment() -> None:
    assert _make_run().endswith("--host 127.0.0.1 --port 50051 --web 8080")
    assert _make_run("PORT=50052").endswith("--port 50052 --web 8080")
    assert _make_run(CROUPIER_PORT="50053", CROUPIER_HOST="0.0.0.0").endswith(
        "--host 0.0.0.0 --port 50053 --web 8080"
    )
    assert _make_run("PORT=50052", CROUPIER_PORT="50053").endswith("--port 50052 --web 8080")
    # The browser port (the web table) the same way; off serves gRPC only.
    assert _make_run("WEB_PORT=8081").endswith("--web 8081")
    assert _make_run(CROUPIER_WEB_PORT="off").endswith("--web off")


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server()
    try:
        yield running
    finally:
        running.stop()


def test_every_tour_command_prints_what_the_readme_shows(
    readme: list[Block], server: Server, tmp_path_factory: pytest.TempPathFactory
) -> None:
    grpcurl, jq, curl = _tool("grpcurl"), _tool("jq"), _tool("curl")
    if not (grpcurl and jq and curl):
        pytest.skip("the API tour needs grpcurl (go install), jq and curl")
    work = tmp_path_factory.mktemp("readme")
    (work / ".venv").symlink_to(ROOT / ".venv")  # `.venv/bin/...` as from a clone
    tools = {str(Path(tool).parent) for tool in (grpcurl, jq, curl)}
    shell = Shell(work, os.pathsep.join([*sorted(tools), os.environ.get("PATH", "")]))
    python = Python(work)
    problems: list[str] = []
    try:
        for index, block in enumerate(readme):
            following = readme[index + 1] if index + 1 < len(readme) else None
            if block.kind == "session":
                for number, command in enumerate(block.commands):
                    output, status = shell.run(server.rewrite(command.text))
                    where = f"README.md:{command.line}: $ {command.text.splitlines()[0]}"
                    last = number == len(block.commands) - 1
                    if last and following is not None and following.kind == "excerpt":
                        shown = excerpt_differences(following.body, following.argument, output)
                        problems += [f"{where}\n  {p}" for p in shown]
                        continue
                    if status and not any(line.startswith("ERROR:") for line in output):
                        problems.append(f"{where}\n  exit {status}: {output[-3:]}")
                    found = differences(command.expected, output)
                    if found:
                        problems.append(_explain(where, found, output))
            elif block.kind == "python":
                output = python.run(server.rewrite("\n".join(block.body)))
                found = differences(block.expected, output)
                if found:
                    problems.append(_explain(f"README.md:{block.line}", found, output))
    finally:
        shell.close()
        python.close()
    assert not problems, "\n".join(problems)
