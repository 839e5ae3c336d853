"""Each client method against a real server: the generated messages come back."""

from __future__ import annotations

import grpc
import pytest

from croupier.engine.cards import card_text as server_card_text
from croupier.v1 import game_pb2
from croupier_client.cards import card_text, suit_name
from croupier_client.client import CroupierClient, CroupierError


def _new(client: CroupierClient) -> game_pb2.GameState:
    return client.new_game("hundred_and_one", preset="hd", seat_count=3, seed=7).state


def test_list_games_describes_hundred_and_one(client: CroupierClient) -> None:
    games = {g.name: g for g in client.list_games()}
    presets = {p.name for p in games["hundred_and_one"].presets}
    assert {"hd", "cl", "ru", "alt"} <= presets


def test_legal_moves_carry_their_notation_and_apply(client: CroupierClient) -> None:
    state = _new(client)
    moves = client.legal_moves(state, state.current_seat)
    assert moves and all(m.notation for m in moves)
    answer = client.apply(state, moves[0].move)
    assert answer.accepted
    assert answer.notation == moves[0].notation
    assert answer.state.move_number == state.move_number + 1


def test_validate_only_answers_without_a_state(client: CroupierClient) -> None:
    state = _new(client)
    move = client.legal_moves(state, state.current_seat)[0].move
    answer = client.apply(state, move, validate_only=True)
    assert answer.accepted
    assert not answer.HasField("state")


def test_an_illegal_move_is_an_answer_not_an_error(client: CroupierClient) -> None:
    state = _new(client)
    other = (state.current_seat + 1) % len(state.seats)
    move = game_pb2.Move(seat=other)
    move.hundred_and_one.draw.SetInParent()
    answer = client.apply(state, move)
    assert not answer.accepted
    assert answer.rejection.reason == game_pb2.REJECTION_REASON_NOT_YOUR_TURN
    assert answer.rejection.message


def test_view_hides_the_seed(client: CroupierClient) -> None:
    state = _new(client)
    view = client.view(state, 1)
    assert view.seat == 1
    assert view.game == "hundred_and_one"
    assert len(view.hundred_and_one.hand) == len(state.hundred_and_one.hands[1].cards)


def test_next_deal_during_a_deal_is_failed_precondition(client: CroupierClient) -> None:
    with pytest.raises(CroupierError) as caught:
        client.next_deal(_new(client))
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert caught.value.rpc == "NextDeal"


def test_analyse_hand_answers_scala40_and_refuses_another_game(client: CroupierClient) -> None:
    state = client.new_game("scala40", seat_count=2, seed=7).state
    analysis = client.analyse_hand(state, 0)
    assert analysis.WhichOneof("analysis") == "scala40"
    with pytest.raises(CroupierError) as caught:
        client.analyse_hand(_new(client), 0)
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert caught.value.rpc == "AnalyseHand"


def test_apply_batch_answers_each_item_alone(client: CroupierClient) -> None:
    from croupier.v1 import service_pb2

    state = _new(client)
    move = client.legal_moves(state, state.current_seat)[0].move
    broken = game_pb2.GameState()
    broken.CopyFrom(state)
    broken.rules_version = 0
    results = client.apply_batch(
        [
            service_pb2.ApplyMoveRequest(state=state, move=move),
            service_pb2.ApplyMoveRequest(state=broken, move=move),
        ]
    )
    assert results[0].response.accepted
    assert results[1].error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert "rules_version" in results[1].error.message


def test_an_unreachable_server_is_a_croupier_error() -> None:
    with CroupierClient("127.0.0.1:1", timeout=2.0) as client, pytest.raises(CroupierError) as e:
        client.list_games()
    assert e.value.code == grpc.StatusCode.UNAVAILABLE


def test_a_channel_passed_in_stays_open(target: str) -> None:
    with grpc.insecure_channel(target) as channel:
        with CroupierClient(channel=channel) as client:
            assert client.list_games()
        # The client closed only what it opened: the caller's channel still works.
        assert CroupierClient(channel=channel).list_games()


def test_card_text_matches_the_server_notation() -> None:
    for value in range(0, 56):
        assert card_text(value) == server_card_text(value)
    assert suit_name(4) == "spades"
    assert suit_name(0) == "?"
