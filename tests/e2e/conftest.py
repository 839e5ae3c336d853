"""Real server processes (`python -m croupier.cli serve`) for end-to-end tests.

Each server is a subprocess on a free port, ready once grpc health answers
SERVING, and stopped with SIGTERM at the end of the session.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier.engine import registry
from croupier.v1 import game_pb2
from croupier_client.client import CroupierClient
from croupier_client.demo import play_match
from ports import free_port as _free_port

READY_WITHIN = 15.0  # seconds for a server process to report SERVING
START_ATTEMPTS = 3  # a free port may be taken between finding and binding it

# What play_match returns: the final state and the transcript.
Match = tuple[game_pb2.GameState, list[str]]


def _wait_until_serving(process: subprocess.Popen[bytes], target: str, log: Path) -> bool:
    """True once health says SERVING; False if the process exits first.
    Fails the test when neither happens within READY_WITHIN seconds."""
    deadline = time.monotonic() + READY_WITHIN
    with grpc.insecure_channel(target) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return False
            try:
                answer = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=1.0)
                if answer.status == health_pb2.HealthCheckResponse.SERVING:
                    return True
            except grpc.RpcError:
                pass
            time.sleep(0.05)
    process.kill()
    process.wait()
    pytest.fail(f"server at {target} not SERVING within {READY_WITHIN} s:\n{log.read_text()}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _start_server(log_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    for attempt in range(START_ATTEMPTS):
        port = _free_port()
        target = f"127.0.0.1:{port}"
        log = log_dir / f"server-{port}-{attempt}.log"
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [sys.executable, "-m", "croupier.cli", "serve", "--host", "127.0.0.1"]
                + ["--port", str(port), "--workers", "2", "--metrics-port", "0"],
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        if _wait_until_serving(process, target, log):
            return process, target
        process.wait()
    pytest.fail(f"no server started in {START_ATTEMPTS} attempts; last log:\n{log.read_text()}")


@pytest.fixture(scope="session")
def start_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[], str]]:
    """A function that starts one more server process and returns its host:port."""
    log_dir = tmp_path_factory.mktemp("servers")
    processes: list[subprocess.Popen[bytes]] = []

    def start() -> str:
        process, target = _start_server(log_dir)
        processes.append(process)
        return target

    yield start
    for process in processes:
        _stop(process)


@pytest.fixture(scope="session")
def first_server(start_server: Callable[[], str]) -> str:
    return start_server()


@pytest.fixture(scope="session")
def second_server(start_server: Callable[[], str]) -> str:
    return start_server()


@pytest.fixture(scope="session")
def played() -> Iterator[Callable[[str, str, str, int, int], Match]]:
    """play(target, game, preset, seats, seed): a match between random bots on
    that server, played once per session and then remembered (it is a pure
    function of the arguments, which the replay test checks)."""
    clients: dict[str, CroupierClient] = {}
    matches: dict[tuple[str, str, str, int, int], Match] = {}

    def play(target: str, game: str, preset: str, seats: int, seed: int) -> Match:
        key = (target, game, preset, seats, seed)
        if key not in matches:
            client = clients.setdefault(target, CroupierClient(target))
            # A match between programs: the game's bound (C-M-4), as tournaments set it.
            options = registry.bounded(game)
            matches[key] = play_match(
                client, game, preset, seats, seed, max_moves=20_000, options=options
            )
        return matches[key]

    yield play
    for client in clients.values():
        client.close()
