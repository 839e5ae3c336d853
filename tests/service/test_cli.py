"""The `croupier` command: help, the demo dispatch, and a real `serve`
process that stops cleanly on SIGTERM and SIGINT."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import types

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

import ports
from croupier import cli
from ports import free_ports as _free_ports

# Reconnect quickly so that waiting for the server's start costs little.
FAST_RECONNECT = [
    ("grpc.initial_reconnect_backoff_ms", 50),
    ("grpc.min_reconnect_backoff_ms", 50),
    ("grpc.max_reconnect_backoff_ms", 200),
]


def test_help_lists_both_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert "serve" in out
    assert "demo" in out


def test_demo_gets_every_remaining_argument(monkeypatch: pytest.MonkeyPatch) -> None:
    received: list[list[str]] = []

    def demo_main(argv: list[str]) -> int:
        received.append(list(argv))
        return 3

    demo = types.ModuleType("croupier_client.demo")
    demo.main = demo_main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "croupier_client.demo", demo)
    argv = ["--game", "hundred_and_one", "--preset", "hd", "--seed", "7", "--help", "extra"]
    assert cli.main(["demo", *argv]) == 3
    assert received == [argv]


def test_serve_refuses_unknown_flags(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["serve", "--bogus"])
    assert caught.value.code == 2
    assert "--bogus" in capsys.readouterr().err


@pytest.fixture
def free_port() -> int:
    return ports.free_port()


def _start_serve(port: int) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "croupier.cli", "serve", "--port", str(port)),
            *("--grace", "1", "--workers", "2", "--metrics-port", "0"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _log_lines(stderr: str) -> list[dict[str, object]]:
    # grpc core writes its own plain-text lines (a failed bind) to stderr too.
    return [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_serve_runs_until_a_stop_signal_and_exits_zero(
    free_port: int, stop_signal: signal.Signals
) -> None:
    process = _start_serve(free_port)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{free_port}", options=FAST_RECONNECT) as channel:
            response = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service="croupier.v1.CroupierService"),
                timeout=10,
                wait_for_ready=True,
            )
        assert response.status == health_pb2.HealthCheckResponse.SERVING
        process.send_signal(stop_signal)
        _, stderr = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, stderr
    # A server killed earlier on the same port may have left its metrics
    # folder; the new one says so first (test_crashes_and_stops.py pins it).
    lines = [line for line in _log_lines(stderr) if line["event"] != "stale_metrics_dir_removed"]
    events = [line["event"] for line in lines]
    assert events[0] == "listening" and events[-1] == "stopped", stderr
    assert events.count("worker_listening") == 2 and events.count("worker_stopped") == 2
    listening = lines[0]
    assert listening["port"] == free_port
    assert {line["protobuf_backend"] for line in lines if "protobuf_backend" in line} == {"upb"}
    assert [line["signal"] for line in lines if line["event"] == "stopping"] == [stop_signal.name]


def test_serve_on_a_busy_port_exits_nonzero_with_a_log_line(free_port: int) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", free_port))
        squatter.listen()
        process = _start_serve(free_port)
        try:
            _, stderr = process.communicate(timeout=10)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
    assert process.returncode == 1, stderr
    assert [line["event"] for line in _log_lines(stderr)] == ["listen_failed"]


@pytest.mark.parametrize("listener", ["grpc", "web", "metrics"])
def test_a_port_that_cannot_be_opened_is_named_with_its_listener(listener: str) -> None:
    # `make run PORT=50052` beside a running server said listen_failed
    # port=50052 (the free gRPC port) when its web or metrics port was the
    # one taken: every listener now names itself and its own port.
    grpc_port, web_port, metrics_port = _free_ports(3)
    busy = {"grpc": grpc_port, "web": web_port, "metrics": metrics_port}[listener]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", busy))
        squatter.listen()
        process = subprocess.run(
            [
                *(sys.executable, "-m", "croupier.cli", "serve", "--workers", "1"),
                *("--port", str(grpc_port), "--web", str(web_port)),
                *("--metrics-port", str(metrics_port)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=20,
        )
    assert process.returncode == 1, process.stderr
    failed = [line for line in _log_lines(process.stderr) if line["event"] == "listen_failed"]
    assert len(failed) == 1, process.stderr
    line = failed[0]
    assert (line["listener"], line["port"]) == (listener, busy), line
    assert f"127.0.0.1:{busy} (the {listener} port)" in str(line["error"]), line


# One command of each way of writing output (argparse's help, which every
# command's --help shares; the rules text; a key; a played match): `| head -1`
# closed the pipe under `croupier rules uno` and `croupier demo`, which ended
# with a BrokenPipeError traceback and exit 1. cli.main catches it for every
# command alike, so one of each kind, buffered, and the two longest outputs
# unbuffered too, cover the ways it can arise.
CLOSED_PIPE_COMMANDS = {
    "help": ["--help"],
    "rules": ["rules", "uno"],
    "rules-preset": ["rules", "scala40", "--preset", "pagat"],
    "seal-keygen": ["seal-keygen", "k1"],
    "play": ["play", "--game", "uno", "--seats", "3", "--bots", "random", "--seed", "7"],
}
CLOSED_PIPE_CASES = [(name, True) for name in CLOSED_PIPE_COMMANDS] + [
    ("rules", False),
    ("play", False),
]


def _into_a_closed_pipe(
    argv: list[str], buffered: bool, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """`croupier ARGV | head -0`, made certain: the pipe's reader is closed
    before the command starts, so its first write (or flush) meets it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
    env.pop("PYTHONUNBUFFERED", None)
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [sys.executable, "-m", "croupier.cli", *argv],
            input=stdin,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=120,
        )
    finally:
        os.close(writer)


@pytest.mark.parametrize(
    ("command", "buffered"),
    CLOSED_PIPE_CASES,
    ids=[
        f"{name}-{'buffered' if buffered else 'unbuffered'}" for name, buffered in CLOSED_PIPE_CASES
    ],
)
def test_every_command_ends_quietly_when_its_output_pipe_closes(
    command: str, buffered: bool
) -> None:
    done = _into_a_closed_pipe(CLOSED_PIPE_COMMANDS[command], buffered, stdin="1\n" * 100)
    assert (done.returncode, done.stderr) == (cli.BROKEN_PIPE_EXIT, ""), done.stderr


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_the_demo_ends_quietly_when_its_output_pipe_closes(buffered: bool) -> None:
    from croupier.service.config import ServerConfig
    from croupier.service.server import ServerThread

    with ServerThread(ServerConfig(port=0, grace=0.0)) as port:
        done = _into_a_closed_pipe(
            ["demo", "--target", f"127.0.0.1:{port}", "--game", "hundred_and_one"]
            + ["--preset", "hd", "--seed", "7"],
            buffered,
        )
    assert (done.returncode, done.stderr) == (cli.BROKEN_PIPE_EXIT, ""), done.stderr


def test_a_closed_pipe_is_exit_0_and_no_other_error_is_hidden(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(argv: list[str]) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    discarded: list[bool] = []
    # (Not the real one here: it would point this process's stdout at /dev/null.)
    monkeypatch.setattr(cli, "_discard_output", lambda: discarded.append(True))
    demo = types.ModuleType("croupier_client.demo")
    demo.main = broken  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "croupier_client.demo", demo)
    assert cli.main(["demo"]) == cli.BROKEN_PIPE_EXIT == 0
    assert discarded == [True]

    def failing(argv: list[str]) -> int:
        raise ConnectionResetError(104, "Connection reset by peer")

    demo.main = failing  # type: ignore[attr-defined]
    with pytest.raises(ConnectionResetError):
        cli.main(["demo"])
