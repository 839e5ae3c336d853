"""The contract every game shares (game.proto, engine/api.py), pinned on 101:
acting seats, the engine's gates, the stale-move guard, typed rejections with
their rule, per-seat redaction of events, the one-call path, the trusted
path, DefaultMove, and schema-1 states loading."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.v1 import game_pb2, hundred_and_one_pb2, service_pb2

GAME = "hundred_and_one"


def _new(preset: str = "hd", seats: int = 3, seed: int = 11) -> game_pb2.GameState:
    request = service_pb2.NewGameRequest(game=GAME, preset=preset, seat_count=seats, seed=seed)
    return api.new_game(request).state


def _legal(state: game_pb2.GameState, seat: int) -> list[service_pb2.LegalMove]:
    request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
    return list(api.list_legal_moves(request).moves)


def _apply(state: game_pb2.GameState, move: game_pb2.Move, **flags: bool):
    return api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move, **flags))


def _draw(seat: int) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.hundred_and_one.draw.SetInParent()
    return move


def _until_a_draw(state: game_pb2.GameState) -> tuple[game_pb2.GameState, game_pb2.Move]:
    """Walk first-listed moves until the seat to act may draw."""
    for _ in range(500):
        seat = state.acting_seats[0]
        moves = [m.move for m in _legal(state, seat)]
        draws = [m for m in moves if m.hundred_and_one.HasField("draw")]
        if draws:
            return state, draws[0]
        state = _apply(state, moves[0]).state
    raise AssertionError("no draw within 500 moves")


def test_new_game_writes_schema_2_and_the_acting_seat() -> None:
    state = _new()
    assert state.schema_version == api.SCHEMA_VERSION == 2
    assert list(state.acting_seats) == [state.current_seat]


def test_a_seat_that_may_not_act_has_no_moves_and_is_refused_before_the_rules() -> None:
    state = _new()
    other = (state.current_seat + 1) % 3
    assert _legal(state, other) == []
    answer = _apply(state, _draw(other))
    assert not answer.accepted
    assert answer.rejection.reason == game_pb2.REJECTION_REASON_NOT_YOUR_TURN
    assert answer.rejection.rule == "engine"
    assert (
        answer.rejection.message
        == f"seat {other} may not act now (acting: seat {state.current_seat})"
    )
    assert not answer.rejection.HasField("hundred_and_one")


def test_after_the_deal_nobody_acts_and_every_move_meets_the_deal_over_gate() -> None:
    state = _new()
    while state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        state = _apply(state, _legal(state, state.acting_seats[0])[0].move).state
    assert list(state.acting_seats) == []
    answer = _apply(state, _draw(state.current_seat))
    expected = (
        game_pb2.REJECTION_REASON_MATCH_OVER
        if state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
        else game_pb2.REJECTION_REASON_DEAL_OVER
    )
    assert answer.rejection.reason == expected
    dealt = api.next_deal(service_pb2.NextDealRequest(state=state)).state
    assert list(dealt.acting_seats) == [dealt.current_seat]


def test_a_move_made_against_another_position_is_stale() -> None:
    state = _new()
    move = _legal(state, state.current_seat)[0].move
    move.seen_move_number = state.move_number + 1
    answer = _apply(state, move)
    assert answer.rejection.reason == game_pb2.REJECTION_REASON_STALE_STATE
    assert answer.rejection.message == "the move was made at move 1; the table is at move 0"
    move.seen_move_number = state.move_number
    assert _apply(state, move).accepted  # the right number passes the guard
    move.ClearField("seen_move_number")
    assert _apply(state, move).accepted  # unset: no check


def test_a_game_rule_rejection_carries_the_games_typed_reason_and_its_rule() -> None:
    state = _new()
    seat = state.current_seat
    answer = _apply(state, game_pb2.Move(seat=seat, hundred_and_one={"pass": {}}))
    assert answer.rejection.reason == game_pb2.REJECTION_REASON_GAME_RULE
    why = hundred_and_one_pb2.HUNDRED_AND_ONE_REJECTION_REASON_MUST_DRAW_BEFORE_PASSING
    assert answer.rejection.hundred_and_one == why
    assert answer.rejection.rule == "C3.4"
    assert api.rejection_name(answer.rejection) == (
        "HUNDRED_AND_ONE_REJECTION_REASON_MUST_DRAW_BEFORE_PASSING"
    )


def test_drawn_cards_are_shown_to_the_drawer_alone_in_the_seat_events() -> None:
    state, draw = _until_a_draw(_new())
    answer = _apply(state, draw, seat_events=True)
    drawn = [e for e in answer.events if e.kind == game_pb2.EVENT_KIND_CARDS_DRAWN]
    assert drawn and list(drawn[0].visible_to) == [draw.seat] and len(drawn[0].cards) == 1
    assert [entry.seat for entry in answer.seat_events] == [0, 1, 2]
    for entry in answer.seat_events:
        (seen,) = [e for e in entry.events if e.kind == game_pb2.EVENT_KIND_CARDS_DRAWN]
        assert seen.count == 1
        assert list(seen.cards) == (list(drawn[0].cards) if entry.seat == draw.seat else [])
        assert seen.text == f"P{draw.seat} draws 1 card"  # the sentence names no card


def test_the_one_call_path_lists_what_list_legal_moves_would() -> None:
    state = _new()
    for _ in range(40):
        seat = state.acting_seats[0]
        answer = _apply(state, _legal(state, seat)[-1].move, next_legal_moves=True)
        state = answer.state
        if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
            assert list(answer.next_legal_moves) == []
            break
        assert [e.seat for e in answer.next_legal_moves] == list(state.acting_seats)
        for entry in answer.next_legal_moves:
            assert list(entry.moves) == _legal(state, entry.seat)


def test_the_trusted_path_answers_the_same_bytes_as_the_checked_one() -> None:
    state = _new()
    request = service_pb2.ApplyMoveRequest(
        state=state, move=_legal(state, state.current_seat)[0].move, next_legal_moves=True
    )
    checked = api.apply_move(request).SerializeToString(deterministic=True)
    trusted = api.apply_move(request, trusted=True).SerializeToString(deterministic=True)
    assert checked == trusted


def test_default_move_is_legal_and_refused_for_a_seat_that_may_not_act() -> None:
    state = _new()
    seat = state.current_seat
    default = api.default_move(service_pb2.DefaultMoveRequest(state=state, seat=seat)).move
    assert default in _legal(state, seat)
    with pytest.raises(InvalidInput, match="may not act now") as refused:
        api.default_move(service_pb2.DefaultMoveRequest(state=state, seat=(seat + 1) % 3))
    assert refused.value.violations[0][0] == "seat"


def test_default_move_after_the_deal_is_a_failed_precondition() -> None:
    state = _new()
    while state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        state = _apply(state, _legal(state, state.acting_seats[0])[0].move).state
    with pytest.raises(FailedPrecondition, match="deal is over"):
        api.default_move(service_pb2.DefaultMoveRequest(state=state, seat=state.current_seat))


def test_acting_seats_that_disagree_with_the_position_are_refused() -> None:
    state = _new()
    state.acting_seats[0] = (state.current_seat + 1) % 3
    with pytest.raises(InvalidInput, match=r"must be \[\d\] in this position") as refused:
        api.check_state(state)
    assert refused.value.violations[0][0] == "state.acting_seats"


def test_a_schema_1_state_loads_and_the_answer_is_written_in_schema_2() -> None:
    # Schema 1 had no acting_seats: the engine computes them.
    state = _new()
    state.schema_version = 1
    del state.acting_seats[:]
    legal = _legal(state, state.current_seat)
    assert legal
    answer = _apply(state, legal[0].move)
    assert answer.accepted
    assert answer.state.schema_version == 2
    assert len(answer.state.acting_seats) == 1
    view = api.get_view(service_pb2.GetViewRequest(state=state, seat=0)).view
    assert list(view.acting_seats) == [state.current_seat]


def test_a_state_from_a_newer_schema_is_a_failed_precondition() -> None:
    state = _new()
    state.schema_version = 3
    with pytest.raises(FailedPrecondition, match="newer"):
        api.check_state(state)
