"""ApplyMoveBatch and ApplyMoveStream answer item by item exactly what the
unary ApplyMove answers: the same response bytes, or an ItemError with the
unary call's status code, message and field violations.

The items are real positions of played-out matches, mixed with moves the
rules refuse and requests that fail (a malformed state, a newer schema)."""

from __future__ import annotations

import queue
import random
from collections.abc import Callable
from dataclasses import dataclass

import grpc
import pytest
from serving import deal_over_state, from_queue, positions

from croupier.v1 import game_pb2, service_pb2, service_pb2_grpc

Stub = service_pb2_grpc.CroupierServiceStub
Request = service_pb2.ApplyMoveRequest
QUEENS = {11, 24, 37, 50}  # FrenchCard values of the Queens
APPLY_MOVE = "/croupier.v1.CroupierService/ApplyMove"
APPLY_MOVE_STREAM = "/croupier.v1.CroupierService/ApplyMoveStream"


@dataclass(frozen=True)
class Unary:
    """What the unary ApplyMove answered: its response bytes, or its error."""

    response: bytes | None = None
    code: int = 0
    message: str = ""
    violations: tuple[tuple[str, str], ...] = ()


def _copy(item: Request) -> Request:
    request = Request()
    request.CopyFrom(item)
    return request


def _out_of_turn(item: Request) -> Request:
    request = _copy(item)
    request.move.seat = (item.state.current_seat + 1) % len(item.state.seats)
    return request


def _card_not_in_hand(item: Request) -> Request:
    request = _copy(item)
    other = (item.state.current_seat + 1) % len(item.state.seats)
    request.move.hundred_and_one.play.card = item.state.hundred_and_one.hands[other].cards[0]
    if request.move.hundred_and_one.play.card in QUEENS:
        request.move.hundred_and_one.play.named_suit = 1  # a Queen always names a suit
    else:
        request.move.hundred_and_one.play.named_suit = 0
    return request


def _validate_only(item: Request) -> Request:
    request = _copy(item)
    request.validate_only = True
    return request


def _duplicated_card(item: Request) -> Request:
    request = _copy(item)
    hand = request.state.hundred_and_one.hands[request.state.current_seat].cards
    hand.append(hand[0])
    return request


def _newer_schema(item: Request) -> Request:
    request = _copy(item)
    request.state.schema_version = 99
    return request


def _newer_rules(item: Request) -> Request:
    request = _copy(item)
    request.state.rules_version = 99
    return request


def _seat_out_of_range(item: Request) -> Request:
    request = _copy(item)
    request.move.seat = len(item.state.seats)
    return request


@pytest.fixture(scope="module")
def items() -> list[Request]:
    """About 40 ApplyMove requests in a fixed shuffled order: legal moves,
    refused moves (out of turn, a card not in hand, a deal already over),
    malformed requests (INVALID_ARGUMENT) and newer states (FAILED_PRECONDITION)."""
    base = positions(24, seed=11)
    legal = base[:16]
    built = [*legal, *(_validate_only(i) for i in base[16:18])]
    built += [_out_of_turn(i) for i in base[18:22]]
    built += [_card_not_in_hand(i) for i in base[20:24]]
    over = deal_over_state(seed=3)
    built.append(Request(state=over, move=base[0].move))
    built += [_duplicated_card(i) for i in base[2:5]]
    built += [_newer_schema(i) for i in base[5:7]]
    built.append(_newer_rules(base[7]))
    built.append(_seat_out_of_range(base[8]))
    built += [Request(state=base[9].state), Request(move=base[9].move)]  # no move; no state
    random.Random(5).shuffle(built)
    return built


@pytest.fixture(scope="module")
def unary(
    channel: grpc.Channel,
    items: list[Request],
    field_violations: Callable[[grpc.RpcError], list[tuple[str, str]]],
) -> list[Unary]:
    """The unary answer of every item, as the bytes on the wire."""
    apply_move = channel.unary_unary(
        APPLY_MOVE, request_serializer=Request.SerializeToString, response_deserializer=None
    )
    answers = []
    for item in items:
        try:
            answers.append(Unary(response=apply_move(item, timeout=5)))
        except grpc.RpcError as error:
            answers.append(
                Unary(
                    code=error.code().value[0],
                    message=error.details(),
                    violations=tuple(field_violations(error)),
                )
            )
    return answers


def test_the_items_cover_every_kind_of_answer(unary: list[Unary]) -> None:
    responses = [service_pb2.ApplyMoveResponse.FromString(u.response) for u in unary if u.response]
    reasons = {r.rejection.reason for r in responses if not r.accepted}
    assert sum(r.accepted for r in responses) >= 16
    assert {
        game_pb2.REJECTION_REASON_NOT_YOUR_TURN,
        game_pb2.REJECTION_REASON_CARD_NOT_IN_HAND,
        game_pb2.REJECTION_REASON_DEAL_OVER,
    } <= reasons
    codes = [u.code for u in unary if u.response is None]
    assert codes.count(grpc.StatusCode.INVALID_ARGUMENT.value[0]) == 6
    assert codes.count(grpc.StatusCode.FAILED_PRECONDITION.value[0]) == 3
    duplicated = [u for u in unary if "appears too often" in str(u.violations)]
    assert len(duplicated) == 3, [u.violations for u in unary if u.violations]
    assert all(len(u.violations) == 1 for u in duplicated)


def _assert_same_as_unary(result: service_pb2.ApplyMoveResult, expected: Unary, i: int) -> None:
    if expected.response is not None:
        assert result.WhichOneof("outcome") == "response", (i, result.error)
        assert result.response.SerializeToString() == expected.response, i
    else:
        assert result.WhichOneof("outcome") == "error", (i, result.response)
        violations = tuple((v.field, v.description) for v in result.error.field_violations)
        assert (result.error.code, result.error.message, violations) == (
            expected.code,
            expected.message,
            expected.violations,
        ), i


def test_a_batch_answers_every_item_as_the_unary_call_does(
    stub: Stub, items: list[Request], unary: list[Unary]
) -> None:
    response = stub.ApplyMoveBatch(service_pb2.ApplyMoveBatchRequest(items=items), timeout=10)
    assert len(response.results) == len(items)
    for i, (result, expected) in enumerate(zip(response.results, unary, strict=True)):
        _assert_same_as_unary(result, expected, i)


def test_an_empty_batch_answers_no_results(stub: Stub) -> None:
    response = stub.ApplyMoveBatch(service_pb2.ApplyMoveBatchRequest(), timeout=5)
    assert len(response.results) == 0


def test_a_stream_answers_every_item_in_order_as_the_unary_call_does(
    stub: Stub, items: list[Request], unary: list[Unary]
) -> None:
    requests = [service_pb2.ApplyMoveStreamRequest(item=item) for item in items]
    responses = list(stub.ApplyMoveStream(iter(requests), timeout=10))
    assert len(responses) == len(items)
    for i, (response, expected) in enumerate(zip(responses, unary, strict=True)):
        _assert_same_as_unary(response.result, expected, i)


def test_a_stream_answers_each_request_before_the_next_is_sent(
    stub: Stub, items: list[Request], unary: list[Unary]
) -> None:
    pending: queue.Queue[service_pb2.ApplyMoveStreamRequest | None] = queue.Queue()
    call = stub.ApplyMoveStream(from_queue(pending), timeout=10)
    for i in range(10):
        pending.put(service_pb2.ApplyMoveStreamRequest(item=items[i]))
        _assert_same_as_unary(next(call).result, unary[i], i)
    pending.put(None)
    assert list(call) == []
    assert call.code() == grpc.StatusCode.OK


def test_an_unparsable_stream_request_fails_alone(
    channel: grpc.Channel, items: list[Request], unary: list[Unary]
) -> None:
    stream = channel.stream_stream(
        APPLY_MOVE_STREAM,
        request_serializer=None,  # raw bytes
        response_deserializer=service_pb2.ApplyMoveStreamResponse.FromString,
    )
    valid = [service_pb2.ApplyMoveStreamRequest(item=items[i]).SerializeToString() for i in (0, 1)]
    call = stream(iter([valid[0], b"\xff\xff\xff", valid[1]]), timeout=10)
    first, broken, last = list(call)
    assert call.code() == grpc.StatusCode.OK
    _assert_same_as_unary(first.result, unary[0], 0)
    _assert_same_as_unary(last.result, unary[1], 1)
    assert broken.result.error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert [v.field for v in broken.result.error.field_violations] == ["request"]
    assert "cannot be parsed" in broken.result.error.message
