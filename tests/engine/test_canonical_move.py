"""A game's optional `canonical_move` (engine/registry.py): a move written in
another spelling of a move is read as that move — by the gates, the rules,
the answer's notation and events, on every path (full check, trusted,
validate_only, a Session) — and a game without the hook reads every move as
written.

The hook is exercised on a stand-in of 101 whose "other spelling" is
artificial but depends on the position, as a real one may (a lay-off's end):
a `pass` that is not legal is read as the seat's first legal move. So the
same submitted bytes mean different moves in two positions, which is what
keeps the codec from caching a notation by the submitted bytes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from croupier.engine import api, registry
from croupier.engine.move_codec import codec_of
from croupier.engine.session import Session
from croupier.games.hundred_and_one.legal import action
from croupier.inprocess import InProcess
from croupier.v1 import game_pb2, service_pb2
from croupier_client import playout

GAME = "hundred_and_one"


class ReadsPassAsFirstMove:
    """The real 101, with a `canonical_move`: an illegal `pass` is its seat's
    first legal move (seat and stale-move guard kept); anything else as written."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def canonical_move(self, state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
        self.calls += 1
        if move.hundred_and_one.WhichOneof("action") != "pass":
            return move
        if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
            return move
        if move.seat not in state.acting_seats:
            return move
        listed = self.real.legal_moves(state, move.seat)
        if any(m.hundred_and_one.WhichOneof("action") == "pass" for m in listed):
            return move
        out = game_pb2.Move()
        out.CopyFrom(listed[0])
        if move.HasField("seen_move_number"):
            out.seen_move_number = move.seen_move_number
        return out


@pytest.fixture
def stand_in() -> Iterator[ReadsPassAsFirstMove]:
    real = registry.find(GAME)
    assert real is not None
    game = ReadsPassAsFirstMove(real)
    registry.register(game)  # type: ignore[arg-type]
    yield game
    registry.register(real)


def positions() -> list[game_pb2.GameState]:
    """Mid-match 101 positions in which `pass` is not legal for the seat to act."""
    states: list[game_pb2.GameState] = []
    playout.play_match(
        InProcess(), GAME, "hd", 3, 3, playout.uniform(3),
        on_step=lambda step: states.append(step.state),
    )  # fmt: skip
    game = registry.find(GAME)
    assert game is not None
    out = []
    for state in states:
        if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
            continue
        seat = state.acting_seats[0]
        listed = game.legal_moves(state, seat)
        if not any(m.hundred_and_one.WhichOneof("action") == "pass" for m in listed):
            out.append(state)
    return out


def _first_listed(state: game_pb2.GameState) -> service_pb2.LegalMove:
    seat = state.acting_seats[0]
    request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
    return api.list_legal_moves(request).moves[0]


def _answer(state: game_pb2.GameState, move: game_pb2.Move, **flags: Any) -> bytes:
    request = service_pb2.ApplyMoveRequest(state=state, move=move, seat_events=True)
    trusted = flags.pop("trusted", False)
    for name, value in flags.items():
        setattr(request, name, value)
    return api.apply_move(request, trusted=trusted).SerializeToString(deterministic=True)


def test_another_spelling_is_answered_as_the_canonical_move(stand_in: ReadsPassAsFirstMove) -> None:
    states = positions()
    assert len(states) > 10
    for state in states[:20]:
        first = _first_listed(state)
        spelled = action(state.acting_seats[0], "pass")
        for flags in ({}, {"trusted": True}, {"validate_only": True}, {"next_legal_moves": True}):
            assert _answer(state, spelled, **flags) == _answer(state, first.move, **flags), flags
        answer = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=spelled))
        assert answer.accepted
        assert answer.notation == first.notation != "PASS"


def test_the_notation_follows_the_position_not_the_submitted_bytes(
    stand_in: ReadsPassAsFirstMove,
) -> None:
    """The same bytes, respelled differently in two positions, answer each
    position's notation (a notation cached by the submitted bytes would not)."""
    by_seat: dict[int, list[game_pb2.GameState]] = {}
    for state in positions():
        by_seat.setdefault(state.acting_seats[0], []).append(state)
    seen = set()
    for seat, states in by_seat.items():
        spelled = action(seat, "pass")
        for state in states:
            answer = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=spelled))
            assert answer.notation == _first_listed(state).notation
            seen.add(answer.notation)
    assert len(seen) > 1


def test_the_gates_see_the_canonical_move_with_its_guard(stand_in: ReadsPassAsFirstMove) -> None:
    state = positions()[0]
    spelled = action(state.acting_seats[0], "pass")
    spelled.seen_move_number = state.move_number
    assert api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=spelled)).accepted
    spelled.seen_move_number = state.move_number + 1
    answer = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=spelled))
    assert answer.rejection.reason == game_pb2.REJECTION_REASON_STALE_STATE


def test_a_session_applies_the_canonical_move(stand_in: ReadsPassAsFirstMove) -> None:
    state = positions()[0]
    first = _first_listed(state)
    session = Session(state)
    events = session.apply(action(state.acting_seats[0], "pass"))
    expected = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=first.move))
    assert list(events) == list(expected.events)
    assert session.state.SerializeToString(deterministic=True) == expected.state.SerializeToString(
        deterministic=True
    )


class WithoutTheHook:
    """The real 101 (which reads a Queen naming no suit as naming its own,
    spelling.py) without its `canonical_move`."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def __getattr__(self, name: str) -> Any:
        if name == "canonical_move":
            raise AttributeError(name)
        return getattr(self.real, name)


def test_a_game_without_the_hook_reads_a_move_as_written() -> None:
    real = registry.find(GAME)
    assert real is not None and codec_of(real).canonical is not None
    game = WithoutTheHook(real)
    registry.register(game)  # type: ignore[arg-type]
    try:
        assert codec_of(game).canonical is None
        state = positions()[0]
        answer = api.apply_move(
            service_pb2.ApplyMoveRequest(state=state, move=action(state.acting_seats[0], "pass"))
        )
    finally:
        registry.register(real)
    assert not answer.accepted
    assert answer.notation == "PASS"


def test_the_hook_is_asked_once_per_move(stand_in: ReadsPassAsFirstMove) -> None:
    state = positions()[0]
    move = _first_listed(state).move
    before = stand_in.calls
    api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))
    assert stand_in.calls == before + 1
