"""The suite's checks of one position: a state between two moves.

A deal in progress (`check_position`):
- the acting seats are exactly what the game computes, ascending;
- check agrees with generation for every seat (STYLE.md 5): an acting seat's
  listed moves, and every candidate the game offers (`Game.candidate_moves`),
  are accepted by ApplyMove(validate_only) exactly when listed — for a game
  with `canonical_move` (engine/registry.py), exactly when the candidate's
  canonical form is listed, and then answered with that listed move's
  notation; every listed move is its own canonical form; a seat that
  may not act lists nothing and gets NOT_YOUR_TURN for any move, even one
  that another seat may make;
- the listed moves have no duplicate, carry their canonical notation, and the
  notation reads back as the same move (STYLE.md 7); a game's hot-path form
  of its legal moves (`encoded_legal_moves`, optional) agrees with
  `legal_moves` move for move;
- the one-call path agrees with the two-call path (ApplyMove's
  next_legal_moves equals ListLegalMoves of every acting seat);
- DefaultMove of an acting seat is one of its listed moves (refused with
  FAILED_PRECONDITION for an acting seat that has no move, e.g. a UNO
  jump-in window it holds no card for, and — for a game with the optional
  hook `owes_move(state, seat) -> bool` — possibly for an acting seat that
  owes no move, e.g. a UNO seat whose only moves in a window are reports or
  U16's penalised misplays; a seat that owes a move always has a default),
  and is refused for a seat that may not act;
- a move made against another position is STALE_STATE, against this one it
  is accepted;
- every seat's view shows no card it may not see (leaks.py).

A deal or match that is over (`check_finished`): nobody acts, nothing is
listed, every move is refused with DEAL_OVER / MATCH_OVER, no seat has a
default move, and the views still leak nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from conformance.engine_calls import CheckedEngine, serialized
from conformance.leaks import check_view
from conformance.rule_references import unresolved
from croupier.engine import api
from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.engine.registry import Game
from croupier.v1 import game_pb2, service_pb2

IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
# The refusals engine.api makes before any rule of a game runs.
ENGINE_GATES = (
    game_pb2.REJECTION_REASON_NOT_YOUR_TURN,
    game_pb2.REJECTION_REASON_DEAL_OVER,
    game_pb2.REJECTION_REASON_MATCH_OVER,
    game_pb2.REJECTION_REASON_STALE_STATE,
)


def check_acting_seats(game: Game, state: game_pb2.GameState) -> list[int]:
    """The state's acting seats are the game's, ascending (none once the deal is over)."""
    acting = list(state.acting_seats)
    expected = game.acting_seats(state) if state.match.phase == IN_PROGRESS else []
    assert acting == list(expected), (
        f"ACTING SEATS: the state lists {acting}, the game computes {list(expected)} "
        f"(move {state.move_number})"
    )
    assert acting == sorted(set(acting)), f"ACTING SEATS: {acting} is not ascending and unique"
    assert all(seat < len(state.seats) for seat in acting), f"ACTING SEATS: {acting}"
    return acting


def check_position(
    engine: CheckedEngine,
    game: Game,
    state: game_pb2.GameState,
    offered: Mapping[int, Sequence[service_pb2.LegalMove]],
) -> None:
    """Every check of a deal in progress (module docstring). `offered` is what
    the playout was given for each acting seat (possibly by the one-call path)."""
    acting = check_acting_seats(game, state)
    assert acting, f"NO ACTING SEAT in a deal in progress (move {state.move_number})"
    assert sorted(offered) == acting, f"the playout asked {sorted(offered)}, acting are {acting}"
    listed = {seat: engine.legal_moves(state, seat) for seat in range(len(state.seats))}
    for seat in range(len(state.seats)):
        if seat in acting:
            _check_acting_seat(engine, game, state, seat, listed[seat], offered[seat])
        else:
            others = [m.move for s in acting for m in listed[s]]
            _check_idle_seat(engine, game, state, seat, listed[seat], others)
        check_view(game, state, seat, engine.view(state, seat))
    assert any(listed[seat] for seat in acting), (
        f"NO MOVE: no acting seat {acting} has a legal move (move {state.move_number})"
    )
    if state.current_seat in acting:
        assert listed[state.current_seat], (
            f"NO MOVE: seat {state.current_seat}, whose turn it is, has no legal move"
        )
    _check_stale_guard(engine, state, next(m for s in acting for m in listed[s]).move)


def check_finished(engine: CheckedEngine, game: Game, state: game_pb2.GameState) -> None:
    """Every check of a state whose deal (or match) is over (module docstring)."""
    assert check_acting_seats(game, state) == []
    over = (
        game_pb2.REJECTION_REASON_MATCH_OVER
        if state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
        else game_pb2.REJECTION_REASON_DEAL_OVER
    )
    for seat in range(len(state.seats)):
        assert not engine.legal_moves(state, seat), f"seat {seat} lists moves after the deal"
        for move in game.candidate_moves(state, seat):
            _expect_refusal(engine, game, state, move, over)
        _expect_error(
            FailedPrecondition,
            lambda: engine.default_move(state, seat),  # noqa: B023 (called at once)
            f"DEFAULT MOVE: seat {seat} has a default move after the deal",
        )
        check_view(game, state, seat, engine.view(state, seat))


def _check_acting_seat(
    engine: CheckedEngine,
    game: Game,
    state: game_pb2.GameState,
    seat: int,
    listed: Sequence[service_pb2.LegalMove],
    offered: Sequence[service_pb2.LegalMove],
) -> None:
    keys = [serialized(m.move) for m in listed]
    assert keys == [serialized(m.move) for m in offered], (
        f"NEXT LEGAL MOVES: ApplyMove offered seat {seat} "
        f"{[m.notation for m in offered]}, ListLegalMoves lists {[m.notation for m in listed]}"
    )
    assert len(set(keys)) == len(keys), f"DUPLICATE: seat {seat} lists a move twice"
    _check_encoded_legal_moves(game, state, seat)
    for legal in listed:
        _check_notation(game, seat, legal)
    legal_keys = set(keys)
    notations = {serialized(m.move): m.notation for m in listed}
    canonical = getattr(game, "canonical_move", None)
    if canonical is not None:
        for legal in listed:
            assert serialized(canonical(state, legal.move)) == serialized(legal.move), (
                f"CANONICAL: seat {seat}'s listed move {legal.notation} is not its own "
                "canonical form (a listing holds each move in its one spelling)"
            )
    for move in _unique([*game.candidate_moves(state, seat), *(m.move for m in listed)]):
        answer = _probe(engine, state, move)
        text = game.notation(move)
        key = serialized(move if canonical is None else canonical(state, move))
        if key in legal_keys:
            assert answer.accepted, (
                f"CHECK != GENERATE: seat {seat}'s listed move {text} is rejected: "
                f"{api.rejection_name(answer.rejection)} ({answer.rejection.message})"
            )
            assert not answer.HasField("state"), "validate_only answered a state"
            assert answer.notation == notations[key], (
                f"CANONICAL: seat {seat}'s {text} is answered as {answer.notation!r}, "
                f"not as the listed move it spells, {notations[key]!r}"
            )
        else:
            assert not answer.accepted, (
                f"CHECK != GENERATE: seat {seat}'s move {text} is accepted but not listed "
                f"(listed: {[m.notation for m in listed]})"
            )
            _check_rejection(game, answer, text)
            assert answer.rejection.reason not in ENGINE_GATES, (
                f"seat {seat} may act, yet {text} is refused by "
                f"{api.rejection_name(answer.rejection)}"
            )
    if not listed:
        # A seat may act and have no move (a UNO jump-in window for a seat
        # without an identical card: issue 6, item 1): it has nothing to default.
        _expect_error(
            FailedPrecondition,
            lambda: engine.default_move(state, seat),
            f"DEFAULT MOVE: seat {seat} may act but has no legal move, yet has a default",
        )
        return
    owes = getattr(game, "owes_move", None)
    if owes is not None and not owes(state, seat):
        try:
            default = engine.default_move(state, seat)
        except FailedPrecondition:
            return  # it owes nothing, and has no move it is deemed to make
    else:
        default = engine.default_move(state, seat)
    assert serialized(default.move) in legal_keys, (
        f"DEFAULT MOVE: seat {seat}'s default {default.notation} is not one of its legal moves"
    )


def _check_encoded_legal_moves(game: Game, state: game_pb2.GameState, seat: int) -> None:
    """A game's optional hot-path form of its legal moves (already serialized,
    engine/move_codec.py) lists the same moves in the same order."""
    encoded = getattr(game, "encoded_legal_moves", None)
    if encoded is None:
        return
    plain = [move.SerializeToString() for move in game.legal_moves(state, seat)]
    assert list(encoded(state, seat)) == plain, (
        f"FAST PATH: {game.name}.encoded_legal_moves disagrees with legal_moves for seat {seat} "
        f"(move {state.move_number})"
    )


def _check_idle_seat(
    engine: CheckedEngine,
    game: Game,
    state: game_pb2.GameState,
    seat: int,
    listed: Sequence[service_pb2.LegalMove],
    others: Iterable[game_pb2.Move],
) -> None:
    assert not listed, (
        f"NOT ACTING: seat {seat} may not act (acting {list(state.acting_seats)}) "
        f"yet lists {[m.notation for m in listed]}"
    )
    reseated = []
    for move in others:
        copy = game_pb2.Move()
        copy.CopyFrom(move)
        copy.seat = seat
        reseated.append(copy)
    for move in _unique([*game.candidate_moves(state, seat), *reseated]):
        _expect_refusal(engine, game, state, move, game_pb2.REJECTION_REASON_NOT_YOUR_TURN)
    _expect_error(
        InvalidInput,
        lambda: engine.default_move(state, seat),
        f"DEFAULT MOVE: seat {seat} may not act, yet has a default move",
    )


def _check_stale_guard(
    engine: CheckedEngine, state: game_pb2.GameState, legal: game_pb2.Move
) -> None:
    move = game_pb2.Move()
    move.CopyFrom(legal)
    move.seen_move_number = state.move_number
    assert _probe(engine, state, move).accepted, "a move made against this very position is refused"
    for seen in (state.move_number - 1, state.move_number + 1):
        if seen < 0:
            continue
        move.seen_move_number = seen
        reason = _probe(engine, state, move).rejection.reason
        assert reason == game_pb2.REJECTION_REASON_STALE_STATE, (
            f"STALE: a move seen at move {seen} on a table at move {state.move_number} "
            f"is answered {game_pb2.RejectionReason.Name(reason)}, not STALE_STATE"
        )


def _expect_refusal(
    engine: CheckedEngine,
    game: Game,
    state: game_pb2.GameState,
    move: game_pb2.Move,
    reason: int,
) -> None:
    answer = _probe(engine, state, move)
    text = game.notation(move)
    assert not answer.accepted, f"seat {move.seat}'s {text} is accepted; expected {reason}"
    assert answer.rejection.reason == reason, (
        f"seat {move.seat}'s {text} is refused with {api.rejection_name(answer.rejection)}, "
        f"expected {game_pb2.RejectionReason.Name(reason)}"
    )
    assert answer.rejection.rule == "engine", f"an engine gate cites {answer.rejection.rule!r}"
    _check_rejection(game, answer, text)


def _expect_error(error: type[Exception], call: Callable[[], object], message: str) -> None:
    """Assert that `call()` raises `error` (an AssertionError otherwise, like
    every other check of the suite)."""
    try:
        call()
    except error:
        return
    raise AssertionError(message)


def _check_rejection(game: Game, answer: service_pb2.ApplyMoveResponse, text: str) -> None:
    """A rejection in the shared vocabulary: a reason with a stable name, the
    rule it cites, a sentence; a game's own reason under GAME_RULE."""
    rejection = answer.rejection
    assert rejection.reason != game_pb2.REJECTION_REASON_UNSPECIFIED, f"{text}: no reason"
    assert api.rejection_name(rejection) != "UNKNOWN", f"{text}: an unnamed reason"
    assert rejection.message, f"{text}: a rejection without a sentence"
    assert rejection.rule, f"{text}: a rejection citing no rule"
    nowhere = unresolved(game.name, rejection)
    assert nowhere is None, f"RULE REFERENCE: {text} {nowhere}"
    if rejection.reason == game_pb2.REJECTION_REASON_GAME_RULE:
        assert rejection.WhichOneof("game_reason") == game.name, f"{text}: GAME_RULE of no game"
    assert not answer.HasField("state"), f"{text}: a rejection carries a state"


def _check_notation(game: Game, seat: int, legal: service_pb2.LegalMove) -> None:
    move = legal.move
    assert move.seat == seat, f"seat {seat} lists a move of seat {move.seat}"
    assert legal.notation == game.notation(move)
    back = game.parse_notation(legal.notation, seat)
    assert serialized(back) == serialized(move), (
        f"NOTATION: {legal.notation!r} reads back as another move"
    )


def _probe(
    engine: CheckedEngine, state: game_pb2.GameState, move: game_pb2.Move
) -> service_pb2.ApplyMoveResponse:
    try:
        return engine.probe(state, move)
    except InvalidInput as error:
        raise AssertionError(
            f"MALFORMED CANDIDATE: seat {move.seat}'s candidate move is refused as "
            f"malformed, not judged by the rules: {error}"
        ) from error


def _unique(moves: Iterable[game_pb2.Move]) -> list[game_pb2.Move]:
    seen: set[bytes] = set()
    out = []
    for move in moves:
        key = serialized(move)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out
