"""The load test's generated requests are what they claim: real mid-game
positions whose every ApplyMove (unary, batch item, stream item) is accepted."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "loadtest"))

import make_data  # noqa: E402

from croupier.engine import registry  # noqa: E402


def test_every_game_has_load_data_and_every_request_is_accepted() -> None:
    games = make_data.build(seed=1, pool=64, batch_size=16)
    assert {g.game for g in games} == {g.name for g in registry.games()}
    for game in games:
        assert not make_data.check_game(game.requests), game.game
        assert {"ApplyMove", "ApplyMoveBatch", "ApplyMoveStream", "NextDeal"} <= set(game.requests)


def test_the_data_is_deterministic() -> None:
    first = make_data.build(seed=5, pool=32, batch_size=8)
    second = make_data.build(seed=5, pool=32, batch_size=8)
    for a, b in zip(first, second, strict=True):
        for rpc in a.requests:
            assert [m.SerializeToString() for m in a.requests[rpc]] == [
                m.SerializeToString() for m in b.requests[rpc]
            ]
