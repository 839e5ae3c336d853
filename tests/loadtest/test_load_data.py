"""The load test's generated requests are what they claim: real mid-game
positions whose every ApplyMove (unary, batch item, stream item) is accepted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "loadtest"))

import make_data  # noqa: E402

from croupier.engine import registry  # noqa: E402


@pytest.fixture(scope="module")
def games() -> list[make_data.GameData]:
    """One build shared by the tests that only read it (every game's playouts
    take a few seconds)."""
    return make_data.build(seed=1, pool=64, batch_size=16)


def test_every_game_has_load_data_and_every_request_is_accepted(
    games: list[make_data.GameData],
) -> None:
    assert {g.game for g in games} == {g.name for g in registry.games()}
    for game in games:
        assert not make_data.check_game(game.requests), game.game
        assert {
            "ApplyMove",
            "ApplyMoveNext",
            "ApplyMoveBatch",
            "ApplyMoveStream",
            "NextDeal",
        } <= set(game.requests)


def test_the_one_call_data_asks_for_the_next_legal_moves_of_the_same_positions(
    games: list[make_data.GameData],
) -> None:
    game = games[0]
    unary, one_call = game.requests["ApplyMove"], game.requests["ApplyMoveNext"]
    assert all(r.next_legal_moves for r in one_call)
    assert [(r.state, r.move) for r in one_call] == [(r.state, r.move) for r in unary]
    # The two-call path lists the moves of the seat that moved, an acting seat.
    listed = game.requests["ListLegalMoves"]
    assert [r.seat for r in listed] == [r.move.seat for r in unary]
    assert all(r.seat in r.state.acting_seats for r in listed)


def test_a_planted_one_call_request_without_next_legal_moves_is_reported(
    games: list[make_data.GameData],
) -> None:
    requests = dict(games[0].requests)
    broken = type(requests["ApplyMoveNext"][0])()
    broken.CopyFrom(requests["ApplyMoveNext"][0])
    broken.next_legal_moves = False
    requests["ApplyMoveNext"] = [broken]
    assert make_data.check_game(requests) == [
        "ApplyMoveNext[0]: does not ask for the next legal moves"
    ]


def test_the_data_is_deterministic(games: list[make_data.GameData]) -> None:
    # One more build with the shared build's arguments, compared with it.
    again = make_data.build(seed=1, pool=64, batch_size=16)
    for a, b in zip(games, again, strict=True):
        for rpc in a.requests:
            assert [m.SerializeToString() for m in a.requests[rpc]] == [
                m.SerializeToString() for m in b.requests[rpc]
            ]
