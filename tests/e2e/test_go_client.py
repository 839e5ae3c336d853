"""The Go client (clients/go) against a real server process: its Go tests
pass, random Go bots play a whole match of every listed game, its committed
stubs are what `buf generate` makes now, and its `croupier-bot` binary serves
a BotService that Python calls.

`make test` builds the client first (CLIENT_DEPS, clients/go/go.mk), so the
go commands here run with GOPROXY=off: they never download.
"""

from __future__ import annotations

import os
import re
import selectors
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from croupier.inprocess import InProcess
from croupier_client.client import CroupierClient
from croupier_client.v1 import bot_pb2, bot_pb2_grpc, game_pb2

ROOT = Path(__file__).resolve().parents[2]
GO_CLIENT = ROOT / "clients" / "go"
BIN = ROOT / ".venv" / "bin"
PLUGINS = (BIN / "protoc-gen-go", BIN / "protoc-gen-go-grpc")
GO = shutil.which("go")
needs_go = pytest.mark.skipif(GO is None, reason="go is not installed: the Go client is not tested")

GO_TEST_TIMEOUT = 300  # seconds; the whole Go suite takes about 10 with a warm build cache
BOT_READY_WITHIN = 10.0  # seconds for croupier-bot to print its address
SERVING = re.compile(r"^serving on (127\.0\.0\.1:\d+)$")


def go_env(**extra: str) -> dict[str, str]:
    """The environment of a go command: the caller's, with no module downloads."""
    return {**os.environ, "GOPROXY": "off", **extra}


@needs_go
def test_go_tests_pass_and_random_bots_finish_every_game(first_server: str) -> None:
    assert GO is not None
    with CroupierClient(first_server) as client:
        games = sorted(game.name for game in client.list_games())
    run = subprocess.run(
        [GO, "test", "-count=1", "-v", "./..."],
        cwd=GO_CLIENT,
        env=go_env(CROUPIER_TARGET=first_server),
        capture_output=True,
        text=True,
        timeout=GO_TEST_TIMEOUT,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "--- SKIP: TestRandomBotsPlayEveryGame" not in output
    finished = set(re.findall(r"--- PASS: TestRandomBotsPlayEveryGame/(\w+) ", output))
    assert finished == set(games), output
    # Each game's subtest logged its finished match.
    for game in games:
        assert re.search(rf"{game}, preset \w+, \d+ seats: \d+ moves .* winners \[", output), game


@pytest.mark.skipif(
    not all(plugin.exists() for plugin in PLUGINS),
    reason="protoc-gen-go / protoc-gen-go-grpc are not installed (make test installs them)",
)
def test_the_committed_go_stubs_are_what_buf_generates(tmp_path: Path) -> None:
    subprocess.run(
        [BIN / "buf", "generate", "--template", "clients/go/buf.gen.yaml", "--output", tmp_path],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    generated = tmp_path / "clients" / "go" / "croupierv1"
    committed = GO_CLIENT / "croupierv1"
    names = sorted(path.name for path in generated.iterdir())
    assert names == sorted(path.name for path in committed.glob("*.go"))
    assert "service_grpc.pb.go" in names and "bot_grpc.pb.go" in names
    stale = [
        name for name in names if (generated / name).read_bytes() != (committed / name).read_bytes()
    ]
    assert not stale, f"clients/go/croupierv1 differs from buf generate in {stale}: run make proto"


@pytest.fixture(scope="module")
def croupier_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The croupier-bot binary, built from clients/go/cmd/croupier-bot."""
    binary = tmp_path_factory.mktemp("go") / "croupier-bot"
    assert GO is not None
    subprocess.run(
        [GO, "build", "-buildvcs=false", "-o", binary, "./cmd/croupier-bot"],
        cwd=GO_CLIENT,
        env=go_env(),
        check=True,
        timeout=GO_TEST_TIMEOUT,
    )
    return binary


def start_bot(binary: Path) -> tuple[subprocess.Popen[str], str]:
    """Start the binary on a free port; its process and host:port, read from
    the line it prints once it listens."""
    process = subprocess.Popen(
        [binary, "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(timeout=BOT_READY_WITHIN):
            process.kill()
            pytest.fail(f"croupier-bot printed nothing within {BOT_READY_WITHIN} s")
    line = process.stdout.readline().strip()
    match = SERVING.match(line)
    if match is None:
        process.kill()
        pytest.fail(f"croupier-bot printed {line!r}; stderr: {process.communicate()[1]}")
    return process, match.group(1)


@pytest.fixture
def bots(croupier_bot: Path) -> Iterator[list[bot_pb2_grpc.BotServiceStub]]:
    """Two croupier-bot processes, each with a stub; both must exit 0 on SIGTERM."""
    processes, channels = [], []
    for _ in range(2):
        process, target = start_bot(croupier_bot)
        processes.append(process)
        channels.append(grpc.insecure_channel(target))
    yield [bot_pb2_grpc.BotServiceStub(channel) for channel in channels]
    for channel in channels:
        channel.close()
    for process in processes:
        process.terminate()
        assert process.wait(timeout=10) == 0, process.communicate()[1]


def uno_request(match_id: str) -> bot_pb2.ChooseMoveRequest:
    """A ChooseMove request of a real position: the first acting seat of a
    new 2-seat UNO deal, with its view and legal moves (at least two)."""
    engine = InProcess()
    state = engine.new_game("uno", seat_count=2, seed=5).state
    seat = state.acting_seats[0]
    moves = engine.legal_moves(state, seat)
    assert len(moves) >= 2
    view: game_pb2.View = engine.view(state, seat)
    return bot_pb2.ChooseMoveRequest(view=view, legal_moves=moves, match_id=match_id)


@needs_go
def test_the_croupier_bot_binary_serves_reproducible_choices(
    bots: list[bot_pb2_grpc.BotServiceStub],
) -> None:
    first, second = bots
    one, two = uno_request("match-1"), uno_request("match-2")
    offered = len(one.legal_moves)
    # On one server the two matches' calls interleave, on the other they come
    # one match after the other: each match's bot answers the same sequence.
    interleaved: dict[str, list[int]] = {"match-1": [], "match-2": []}
    for _ in range(12):
        for request in (one, two):
            interleaved[request.match_id].append(first.ChooseMove(request, timeout=5).move_index)
    grouped = {
        request.match_id: [second.ChooseMove(request, timeout=5).move_index for _ in range(12)]
        for request in (two, one)
    }
    assert grouped == interleaved
    indices = interleaved["match-1"] + interleaved["match-2"]
    assert all(0 <= index < offered for index in indices)
    # A random bot, not a constant: 24 draws over at least 2 moves.
    assert len(set(indices)) > 1
    # Another match id is another seed: its sequence differs.
    assert interleaved["match-1"] != interleaved["match-2"]


@needs_go
def test_the_croupier_bot_binary_refuses_a_request_without_moves(
    bots: list[bot_pb2_grpc.BotServiceStub],
) -> None:
    request = uno_request("match-1")
    del request.legal_moves[:]
    with pytest.raises(grpc.RpcError) as raised:
        bots[0].ChooseMove(request, timeout=5)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "legal_moves: empty" in (raised.value.details() or "")


@needs_go
def test_the_croupier_bot_binary_stops_gracefully_as_soon_as_it_says_it_serves(
    croupier_bot: Path,
) -> None:
    # SIGTERM the moment "serving on" is read: the signals must already be
    # caught by then. When they were caught after the line, 118 of 200 such
    # starts ended killed by the signal (-15) instead of exiting 0.
    codes = []
    for _ in range(10):
        process, _target = start_bot(croupier_bot)
        process.terminate()
        codes.append(process.wait(timeout=10))
        process.communicate()
    assert codes == [0] * 10


@needs_go
def test_the_croupier_bot_binary_refuses_extra_arguments(croupier_bot: Path) -> None:
    run = subprocess.run(
        [croupier_bot, "--listen", "127.0.0.1:0", "stray"],
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert run.returncode == 2
    assert 'unexpected arguments ["stray"]' in run.stderr
