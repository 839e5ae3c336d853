"""Each CroupierService RPC over a real channel, on a real 101 deal."""

from __future__ import annotations

from collections.abc import Callable

import grpc
import pytest

from croupier.v1 import game_pb2, service_pb2, service_pb2_grpc

NEW_GAME = service_pb2.NewGameRequest(game="hundred_and_one", preset="hd", seat_count=3, seed=7)

Stub = service_pb2_grpc.CroupierServiceStub
LegalMove = Callable[[game_pb2.GameState], game_pb2.Move]


def test_list_games_describes_hundred_and_one_with_its_presets(stub: Stub) -> None:
    games = {g.name: g for g in stub.ListGames(service_pb2.ListGamesRequest(), timeout=5).games}
    game = games["hundred_and_one"]
    assert {p.name for p in game.presets} >= {"hd", "cl", "ru", "alt"}
    assert game.options, "the option catalogue is listed"


def test_new_game_is_deterministic(stub: Stub) -> None:
    first = stub.NewGame(NEW_GAME, timeout=5)
    second = stub.NewGame(NEW_GAME, timeout=5)
    assert first.SerializeToString(deterministic=True) == second.SerializeToString(
        deterministic=True
    )
    assert first.state.game == "hundred_and_one"
    assert len(first.state.seats) == 3
    assert first.state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS


def test_a_listed_legal_move_is_accepted(stub: Stub, dealt: game_pb2.GameState) -> None:
    listed = stub.ListLegalMoves(
        service_pb2.ListLegalMovesRequest(state=dealt, seat=dealt.current_seat), timeout=5
    ).moves
    assert listed
    response = stub.ApplyMove(
        service_pb2.ApplyMoveRequest(state=dealt, move=listed[0].move), timeout=5
    )
    assert response.accepted, response.rejection
    assert response.notation == listed[0].notation
    assert response.state.move_number == dealt.move_number + 1


def test_validate_only_accepts_without_a_state(
    stub: Stub, dealt: game_pb2.GameState, legal_move: LegalMove
) -> None:
    request = service_pb2.ApplyMoveRequest(state=dealt, move=legal_move(dealt), validate_only=True)
    response = stub.ApplyMove(request, timeout=5)
    assert response.accepted
    assert not response.HasField("state")


def test_a_move_out_of_turn_is_an_ok_answer_with_a_rejection(
    stub: Stub, dealt: game_pb2.GameState, legal_move: LegalMove
) -> None:
    move = legal_move(dealt)
    move.seat = (dealt.current_seat + 1) % len(dealt.seats)
    response = stub.ApplyMove(service_pb2.ApplyMoveRequest(state=dealt, move=move), timeout=5)
    assert not response.accepted
    assert response.rejection.reason == game_pb2.REJECTION_REASON_NOT_YOUR_TURN
    assert response.rejection.message
    assert not response.HasField("state")


def test_a_view_shows_the_own_hand_and_only_counts_the_others(
    stub: Stub, dealt: game_pb2.GameState
) -> None:
    view = stub.GetView(service_pb2.GetViewRequest(state=dealt, seat=1), timeout=5).view
    assert view.seat == 1
    assert list(view.hundred_and_one.hand) == list(dealt.hundred_and_one.hands[1].cards)
    assert list(view.hundred_and_one.hand_sizes) == [
        len(h.cards) for h in dealt.hundred_and_one.hands
    ]
    assert view.hundred_and_one.stock_size == len(dealt.hundred_and_one.stock)


def test_next_deal_while_the_deal_is_in_progress_fails_its_precondition(
    stub: Stub, dealt: game_pb2.GameState
) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        stub.NextDeal(service_pb2.NextDealRequest(state=dealt), timeout=5)
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "in progress" in caught.value.details()


@pytest.mark.parametrize("rpc", ["ApplyMove", "ListLegalMoves", "GetView", "NextDeal"])
def test_a_state_from_a_newer_schema_fails_its_precondition(
    stub: Stub, dealt: game_pb2.GameState, legal_move: LegalMove, rpc: str
) -> None:
    move = legal_move(dealt)
    dealt.schema_version = 99
    request = {
        "ApplyMove": service_pb2.ApplyMoveRequest(state=dealt, move=move),
        "ListLegalMoves": service_pb2.ListLegalMovesRequest(state=dealt),
        "GetView": service_pb2.GetViewRequest(state=dealt),
        "NextDeal": service_pb2.NextDealRequest(state=dealt),
    }[rpc]
    with pytest.raises(grpc.RpcError) as caught:
        getattr(stub, rpc)(request, timeout=5)
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "schema_version 99" in caught.value.details()
