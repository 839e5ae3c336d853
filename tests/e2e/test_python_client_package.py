"""The Python client is its own distribution (clients/python): it installs
into a fresh virtual environment without the server package, with grpcio
and protobuf as its only dependencies, and plays a match against a real
server with a bot from the package."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
UV = Path(sys.executable).parent / "uv"

# Plays one 101 match with two RandomBots through the server at argv[1].
MATCH = textwrap.dedent(
    """
    import importlib.util, sys
    from croupier_client import CroupierClient, playout
    from croupier_client.bots import RandomBot

    assert importlib.util.find_spec("croupier") is None, "the server package is installed"
    with CroupierClient(sys.argv[1]) as client:
        bots = [RandomBot(seed=seat) for seat in range(2)]
        final, moves = playout.play_match(
            client, "hundred_and_one", "", 2, 7, playout.seat_bots(bots, client.view)
        )
    print("winners", list(final.match.winners), "moves", moves)
    """
)


@pytest.mark.skipif(not UV.exists(), reason="uv (installed by make into the venv) is missing")
def test_the_client_installs_alone_and_plays_a_match(first_server: str, tmp_path: Path) -> None:
    assert (CLIENT / "croupier_client" / "v1" / "service_pb2.py").exists(), "run `make proto`"
    venv = tmp_path / "venv"
    subprocess.run([UV, "venv", "--quiet", "--python", sys.executable, venv], check=True)
    python = venv / "bin" / "python"
    # The versions already in this environment, so uv takes them from its cache.
    constraints = tmp_path / "constraints.txt"
    constraints.write_text(
        "".join(f"{name}=={metadata.version(name)}\n" for name in ("grpcio", "protobuf"))
    )
    subprocess.run(
        [UV, "pip", "install", "--quiet", "--python", python, "-c", constraints, CLIENT],
        check=True,
        timeout=300,
    )
    installed = subprocess.run(
        [UV, "pip", "list", "--format", "freeze", "--python", python],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    names = sorted(line.partition("==")[0].lower() for line in installed)
    # typing-extensions comes with grpcio.
    assert names == ["croupier-client", "grpcio", "protobuf", "typing-extensions"]
    played = subprocess.run(
        [python, "-c", MATCH, first_server], capture_output=True, text=True, timeout=120
    )
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("winners [")
