"""Whole matches through real server processes: every preset ends, and two
processes give byte-identical transcripts and final states."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest

from croupier.v1 import game_pb2
from croupier_client.client import CroupierClient

GAME = "hundred_and_one"
SEED = 2024
Play = Callable[[str, str, str, int, int], tuple[game_pb2.GameState, list[str]]]

# The seat ranges of the presets as ListGames gives them (checked below), so
# that the parametrised cases are known before any server runs.
PRESETS = {"hd": (2, 4), "cl": (2, 4), "ru": (2, 5), "alt": (2, 8)}
CASES = sorted({(p, n) for p, (low, high) in PRESETS.items() for n in (2, 3, high)})


def test_list_games_agrees_with_the_tested_presets(first_server: str) -> None:
    with CroupierClient(first_server) as client:
        (game,) = [g for g in client.list_games() if g.name == GAME]
    assert {p.name: (p.min_seats, p.max_seats) for p in game.presets} == PRESETS


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_a_full_match_ends_with_winners(
    first_server: str, played: Play, preset: str, seats: int
) -> None:
    state, lines = played(first_server, GAME, preset, seats, SEED)
    assert state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert state.match.winners
    assert all(w < seats for w in state.match.winners)
    assert lines[0] == f"Game {GAME}, preset {preset}, {seats} seats, seed {SEED}"
    assert lines[-1].startswith("Winner")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_second_server_replays_the_match_byte_for_byte(
    first_server: str,
    second_server: str,
    played: Play,
    preset: str,
) -> None:
    seats = 3
    first_state, first_lines = played(first_server, GAME, preset, seats, SEED)
    second_state, second_lines = played(second_server, GAME, preset, seats, SEED)
    assert "\n".join(second_lines) == "\n".join(first_lines)
    assert second_state.SerializeToString(deterministic=True) == first_state.SerializeToString(
        deterministic=True
    )


def test_the_croupier_demo_command_prints_the_transcript(first_server: str) -> None:
    command = [sys.executable, "-m", "croupier.cli", "demo", "--preset", "hd", "--seed", "7"]
    command += ["--target", first_server]
    runs = [subprocess.run(command, capture_output=True, check=False, timeout=60) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr.decode()
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stdout.decode().startswith("Game hundred_and_one, preset hd, 3 seats, seed 7\n")
