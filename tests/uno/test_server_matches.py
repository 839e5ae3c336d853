"""Whole UNO matches between random bots through a running server (issue 9:
both presets with 2, 4 and 10 seats under both scoring methods), and
ListGames over the wire.

Each match is played to its end (every deal, NextDeal between them, the
match's winners) by the demo's random bots over gRPC. The presets play to
500 points (winner collects) or a limit of 200 (penalty limit), which random
bots take 12,000 moves to reach at 2 seats (tests/conformance/suite.py,
MOVE_BOUNDS); here the target and the limit are 100, and the seed is the
one of seeds 1-39 whose twelve matches are the shortest together (7,439
moves, one or two deals each, about 10 s through the server), so the
matches stay whole and the test short.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier.v1 import game_pb2
from croupier_client.client import CroupierClient
from croupier_client.demo import play_match

SEED = 17
SHORT = {"target": 100, "limit": 100}
MAX_MOVES = 20_000  # the longest of the twelve takes 1,657


@pytest.fixture(scope="module")
def target() -> Iterator[str]:
    with ServerThread(ServerConfig(port=0, grace=0.0)) as port:
        yield f"127.0.0.1:{port}"


@pytest.mark.parametrize("scoring", ["WINNER_COLLECTS", "PENALTY_LIMIT"])
@pytest.mark.parametrize("seats", [2, 4, 10])
@pytest.mark.parametrize("preset", ["seed", "mattel"])
def test_a_full_match_between_random_bots_ends_with_winners(
    target: str, preset: str, seats: int, scoring: str
) -> None:
    options = {**SHORT, "scoring_method": scoring}
    with CroupierClient(target) as client:
        state, lines = play_match(
            client, "uno", preset, seats, SEED, max_moves=MAX_MOVES, options=options
        )
    assert state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert state.match.winners and all(w < seats for w in state.match.winners)
    totals = [seat.score for seat in state.seats]
    if scoring == "WINNER_COLLECTS":  # the one winner reached the target
        (winner,) = state.match.winners
        assert totals[winner] >= SHORT["target"]
    else:  # a seat reached the limit and lost; the others win
        assert max(totals) >= SHORT["limit"]
        assert set(state.match.winners) == {s for s in range(seats) if totals[s] < SHORT["limit"]}
    assert lines[0] == f"Game uno, preset {preset}, {seats} seats, seed {SEED}"


def test_list_games_over_the_wire_shows_uno_with_both_presets_and_every_option(
    target: str,
) -> None:
    with CroupierClient(target) as client:
        (uno,) = [game for game in client.list_games() if game.name == "uno"]
    assert (uno.min_seats, uno.max_seats, uno.default_preset) == (2, 10, "seed")
    assert {p.name: (p.min_seats, p.max_seats) for p in uno.presets} == {
        "seed": (2, 10),
        "mattel": (2, 10),
    }
    assert len(uno.options) == 38
