"""Broken requests get INVALID_ARGUMENT with a field violation naming the field.

Each case starts from a real deal (or a valid NewGame request), breaks one
thing, and names the field path the answer must point at.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import grpc
import pytest
from google.protobuf.message import Message

from croupier.v1 import game_pb2, options_pb2, service_pb2, service_pb2_grpc

Stub = service_pb2_grpc.CroupierServiceStub
GameState = game_pb2.GameState
Move = game_pb2.Move


@dataclass(frozen=True)
class Case:
    rpc: str
    # (a valid dealt state, a legal move in it) -> the broken request
    build: Callable[[GameState, Move], Message]
    field: str


def _apply(state: GameState, move: Move) -> service_pb2.ApplyMoveRequest:
    return service_pb2.ApplyMoveRequest(state=state, move=move)


def _new_game(*settings: options_pb2.OptionSetting, **fields: object) -> Callable[..., Message]:
    request = service_pb2.NewGameRequest(game="hundred_and_one", preset="hd", seat_count=3, seed=7)
    for name, value in fields.items():
        setattr(request, name, value)
    request.options.extend(settings)
    return lambda state, move: request


def _option(name: str, **value: object) -> options_pb2.OptionSetting:
    return options_pb2.OptionSetting(name=name, value=options_pb2.OptionValue(**value))  # type: ignore[arg-type]


def _duplicate_card_in_hand(state: GameState, move: Move) -> Message:
    hand = state.hundred_and_one.hands[0].cards
    hand.append(hand[0])
    return _apply(state, move)


def _remove_card_from_stock(state: GameState, move: Move) -> Message:
    del state.hundred_and_one.stock[0]
    return _apply(state, move)


def _card_not_in_enum(state: GameState, move: Move) -> Message:
    # proto3 enums are open: protobuf keeps an unknown number rather than
    # refusing it, so the engine's conservation check must catch it.
    state.hundred_and_one.hands[0].cards.append(999)  # type: ignore[arg-type]
    return _apply(state, move)


def _move_seat_out_of_range(state: GameState, move: Move) -> Message:
    move.seat = len(state.seats)
    return _apply(state, move)


def _current_seat_out_of_range(state: GameState, move: Move) -> Message:
    state.current_seat = 7
    return _apply(state, move)


def _empty_move(state: GameState, move: Move) -> Message:
    return _apply(state, Move())


def _empty_state(state: GameState, move: Move) -> Message:
    return _apply(GameState(), move)


def _unknown_game_in_state(state: GameState, move: Move) -> Message:
    state.game = "chess"
    return _apply(state, move)


def _option_out_of_range_in_state(state: GameState, move: Move) -> Message:
    state.options.hundred_and_one.hand_size = 99
    return _apply(state, move)


def _legal_moves_seat_out_of_range(state: GameState, move: Move) -> Message:
    return service_pb2.ListLegalMovesRequest(state=state, seat=3)


def _view_seat_out_of_range(state: GameState, move: Move) -> Message:
    return service_pb2.GetViewRequest(state=state, seat=3)


CASES = {
    "duplicated card in a hand": Case(
        "ApplyMove", _duplicate_card_in_hand, "state.hundred_and_one.hands[0].cards"
    ),
    "card missing from the stock": Case(
        "ApplyMove", _remove_card_from_stock, "state.hundred_and_one"
    ),
    "card value not in the enum": Case(
        "ApplyMove", _card_not_in_enum, "state.hundred_and_one.hands[0].cards"
    ),
    "move seat out of range": Case("ApplyMove", _move_seat_out_of_range, "move.seat"),
    "current_seat out of range": Case(
        "ApplyMove", _current_seat_out_of_range, "state.current_seat"
    ),
    "move without a game move": Case("ApplyMove", _empty_move, "move"),
    "empty state": Case("ApplyMove", _empty_state, "state"),
    "unknown game in the state": Case("ApplyMove", _unknown_game_in_state, "state.game"),
    "option out of range in the state": Case(
        "ApplyMove", _option_out_of_range_in_state, "state.options.hundred_and_one.hand_size"
    ),
    "legal moves for a seat out of range": Case(
        "ListLegalMoves", _legal_moves_seat_out_of_range, "seat"
    ),
    "view for a seat out of range": Case("GetView", _view_seat_out_of_range, "seat"),
    "unknown game": Case("NewGame", _new_game(game="chess"), "game"),
    "unknown preset": Case("NewGame", _new_game(preset="zz"), "preset"),
    "seat_count too high": Case("NewGame", _new_game(seat_count=9), "seat_count"),
    "seat_count zero": Case("NewGame", _new_game(seat_count=0), "seat_count"),
    "unknown option name": Case(
        "NewGame", _new_game(_option("jokers", bool_value=True)), "options[0].name"
    ),
    "hand_size out of range": Case(
        "NewGame", _new_game(_option("hand_size", int_value=99)), "options[0].value"
    ),
    "deck_size not an allowed value": Case(
        "NewGame", _new_game(_option("deck_size", int_value=40)), "options[0].value"
    ),
    "bool for an int option": Case(
        "NewGame", _new_game(_option("hand_size", bool_value=True)), "options[0].value"
    ),
    "option without a value": Case(
        "NewGame", _new_game(options_pb2.OptionSetting(name="hand_size")), "options[0].value"
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_malformed_input_is_invalid_argument_naming_the_field(
    stub: Stub,
    dealt: GameState,
    legal_move: Callable[[GameState], Move],
    field_violations: Callable[[grpc.RpcError], list[tuple[str, str]]],
    case: Case,
) -> None:
    request = case.build(dealt, legal_move(dealt))
    with pytest.raises(grpc.RpcError) as caught:
        getattr(stub, case.rpc)(request, timeout=5)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, caught.value.details()
    violations = field_violations(caught.value)
    assert violations, "INVALID_ARGUMENT carries a BadRequest with field violations"
    assert violations[0][0] == case.field, violations
    assert all(description for _, description in violations)


def test_truncated_request_bytes_are_invalid_argument_naming_the_request(
    channel: grpc.Channel,
    dealt: GameState,
    legal_move: Callable[[GameState], Move],
    field_violations: Callable[[grpc.RpcError], list[tuple[str, str]]],
) -> None:
    whole = _apply(dealt, legal_move(dealt)).SerializeToString()
    # No serializers: the raw bytes go on the wire as they are.
    apply_move = channel.unary_unary("/croupier.v1.CroupierService/ApplyMove")
    with pytest.raises(grpc.RpcError) as caught:
        apply_move(whole[:-1], timeout=5)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(caught.value) == [
        ("request", "cannot be parsed as croupier.v1.ApplyMoveRequest")
    ]


@pytest.mark.parametrize(
    "rpc", ["ListGames", "NewGame", "ApplyMove", "ListLegalMoves", "GetView", "NextDeal"]
)
def test_every_rpc_refuses_bytes_that_are_not_its_request(
    channel: grpc.Channel,
    field_violations: Callable[[grpc.RpcError], list[tuple[str, str]]],
    rpc: str,
) -> None:
    call = channel.unary_unary(f"/croupier.v1.CroupierService/{rpc}")
    with pytest.raises(grpc.RpcError) as caught:
        call(b"\x0f", timeout=5)  # field 1 with wire type 7, which does not exist
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(caught.value) == [
        ("request", f"cannot be parsed as croupier.v1.{rpc}Request")
    ]


def test_a_seat_name_that_forges_a_sentence_is_invalid_argument_naming_it(
    stub: Stub,
    dealt: GameState,
    legal_move: Callable[[GameState], Move],
    field_violations: Callable[[grpc.RpcError], list[tuple[str, str]]],
) -> None:
    # NewGame took ["Alice", "", "Bob\nP0 wins the match"] and every event
    # of seat 2 then wrote a forged sentence of its own into Event.text.
    forged = service_pb2.NewGameRequest(
        game="hundred_and_one", preset="hd", seat_count=3, seed=7,
        seat_names=["Alice", "", "Bob\nP0 wins the match"],
    )  # fmt: skip
    with pytest.raises(grpc.RpcError) as caught:
        stub.NewGame(forged, timeout=5)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    [(field, description)] = field_violations(caught.value)
    assert field == "seat_names[2]"
    assert description.startswith("'Bob\\nP0 wins the match' holds U+000A (Cc) at 3"), description
    # The same names in a state the client holds: every RPC that takes one.
    move = legal_move(dealt)
    dealt.seats[0].name = dealt.seats[1].name = "A"
    with pytest.raises(grpc.RpcError) as caught:
        stub.ApplyMove(_apply(dealt, move), timeout=5)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(caught.value) == [
        ("state.seats[1].name", "'A' is seat 0's name too: every seat needs a name of its own "
         "(one without a name reads as P<seat>)")
    ]  # fmt: skip
