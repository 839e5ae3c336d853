"""Whole matches of «Мост» and the counting games through a real server
process (issue 10): every preset of most, sto, one_hundred and chips_101, at
its smallest and its largest seat count, played between random bots
(croupier_client.playout over CroupierClient, one ApplyMove with the next
legal moves per move) until the match has a winner."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.v1 import game_pb2
from croupier_client.client import CroupierClient

SEED = 10
Play = Callable[[str, str, str, int, int], tuple[game_pb2.GameState, list[str]]]

# The seat ranges of the presets as ListGames gives them (checked below), so
# that the parametrised cases are known before any server runs.
PRESETS = {
    "most": {"seed": (2, 8), "rum500": (2, 8)},
    "sto": {"seed": (3, 10), "hundert": (3, 10)},
    "one_hundred": {"seed": (3, 5), "gamerules": (3, 10)},
    "chips_101": {"seed": (2, 7), "pagat": (2, 7)},
}
CASES = [
    (game, preset, seats)
    for game, presets in PRESETS.items()
    for preset, (low, high) in presets.items()
    for seats in (low, high)
]


def test_list_games_agrees_with_the_tested_presets(first_server: str) -> None:
    with CroupierClient(first_server) as client:
        listed = {
            g.name: {p.name: (p.min_seats, p.max_seats) for p in g.presets}
            for g in client.list_games()
            if g.name in PRESETS
        }
    assert listed == PRESETS


@pytest.mark.parametrize(("game", "preset", "seats"), CASES)
def test_a_full_match_between_random_bots_ends_with_a_winner(
    first_server: str, played: Play, game: str, preset: str, seats: int
) -> None:
    state, lines = played(first_server, game, preset, seats, SEED)
    assert state.game == game
    assert state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert state.match.winners
    assert all(w < seats for w in state.match.winners)
    assert lines[0] == f"Game {game}, preset {preset}, {seats} seats, seed {SEED}"
    assert lines[-1].startswith("Winner")
