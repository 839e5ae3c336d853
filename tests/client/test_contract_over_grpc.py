"""The v2 contract over a real channel: DefaultMove, per-seat events, the
one-call path and the stale-move guard answer as the engine does."""

from __future__ import annotations

import grpc
import pytest

from croupier.v1 import game_pb2
from croupier_client.client import CroupierClient, CroupierError


def _new(client: CroupierClient) -> game_pb2.GameState:
    return client.new_game("hundred_and_one", preset="cl", seat_count=3, seed=5).state


def test_default_move_is_one_of_the_legal_moves(client: CroupierClient) -> None:
    state = _new(client)
    seat = state.acting_seats[0]
    assert client.default_move(state, seat) in client.legal_moves(state, seat)


def test_default_move_for_a_seat_that_may_not_act_is_invalid_argument(
    client: CroupierClient,
) -> None:
    state = _new(client)
    other = (state.acting_seats[0] + 1) % 3
    with pytest.raises(CroupierError) as error:
        client.default_move(state, other)
    assert error.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.value.field_violations == (("seat", f"seat {other} may not act now"),)


def test_one_call_per_move_and_per_seat_events(client: CroupierClient) -> None:
    state = _new(client)
    move = client.legal_moves(state, state.acting_seats[0])[0].move
    answer = client.apply(state, move, next_legal_moves=True, seat_events=True)
    assert answer.accepted
    assert [entry.seat for entry in answer.seat_events] == [0, 1, 2]
    for entry in answer.next_legal_moves:
        assert list(entry.moves) == client.legal_moves(answer.state, entry.seat)


def test_a_stale_move_is_rejected_not_an_error(client: CroupierClient) -> None:
    state = _new(client)
    move = client.legal_moves(state, state.acting_seats[0])[0].move
    move.seen_move_number = 7
    answer = client.apply(state, move)
    assert not answer.accepted
    assert answer.rejection.reason == game_pb2.REJECTION_REASON_STALE_STATE
