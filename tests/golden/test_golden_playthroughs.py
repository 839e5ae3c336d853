"""Replay every golden playthrough line by line (see playthrough.py)."""

from __future__ import annotations

import pytest

from croupier.engine import api, registry
from croupier.v1 import game_pb2, service_pb2
from golden.playthrough import MATCHES, digest, new_game, path_of


@pytest.mark.parametrize(("game", "preset", "seats", "seed"), MATCHES)
def test_golden_playthrough_replays(game: str, preset: str, seats: int, seed: int) -> None:
    lines = path_of(game, preset).read_text().splitlines()
    header = lines[0]
    assert f"rules_version={registry.find(game).rules_version} " in header, (
        "the rules version changed: regenerate the golden files (make golden)"
    )
    state = new_game(game, preset, seats, seed)
    for number, line in enumerate(lines[1:], start=2):
        word, *rest = line.split()
        if word == "START":
            assert digest(state) == rest[0], f"line {number}: the deal differs"
        elif word == "NEXT_DEAL":
            state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
            assert digest(state) == rest[0], f"line {number}: the next deal differs"
        elif word == "WINNERS":
            assert list(state.match.winners) == [int(s) for s in rest]
        else:
            notation, expected = rest
            move = registry.find(game).parse_notation(notation, int(word))  # type: ignore[union-attr]
            response = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))
            assert response.accepted, f"line {number}: {line}: {response.rejection.message}"
            state = response.state
            assert digest(state) == expected, f"line {number}: {line}: the state differs"
    assert state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER


def test_every_game_has_a_golden_playthrough() -> None:
    covered = {game for game, *_ in MATCHES}
    assert covered == {g.name for g in registry.games()}
