"""The one match loop: bench, load-test data, goldens, the conformance suite,
the demo, bots and end-to-end tests all play through `play`.

It runs over any `Backend` — the gRPC client (`CroupierClient`) or the
engine in-process (`croupier.inprocess.InProcess`) — and asks every acting
seat for its legal moves at every step, so games with out-of-turn moves are
played as they are. Which of the offered moves is made is the `Chooser`'s
business (random, bots, a script).

When the backend answers ApplyMove with the next acting seats' legal moves
(`next_legal_moves`), the loop uses them: one call per move instead of two.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from croupier_client.v1 import game_pb2, service_pb2

# Every acting seat's legal moves (a list, or the answer's repeated field as is).
LegalMoves = dict[int, Sequence[service_pb2.LegalMove]]
# Picks one move out of every acting seat's legal moves (at least one listed).
Chooser = Callable[[game_pb2.GameState, LegalMoves], service_pb2.LegalMove]

DEFAULT_MAX_MOVES = 100_000


class Backend(Protocol):
    """The calls a playout makes (CroupierClient and InProcess have them)."""

    def new_game(
        self,
        game: str,
        *,
        preset: str = "",
        seat_count: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> service_pb2.NewGameResponse: ...

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[service_pb2.LegalMove]: ...

    def apply(
        self,
        state: game_pb2.GameState,
        move: game_pb2.Move,
        validate_only: bool = False,
        *,
        next_legal_moves: bool = False,
    ) -> service_pb2.ApplyMoveResponse: ...

    def next_deal(self, state: game_pb2.GameState) -> service_pb2.NextDealResponse: ...


@dataclass
class Step:
    """One move of a playout, for the hooks."""

    state: game_pb2.GameState  # the state the move was played on
    legal: LegalMoves  # every acting seat's legal moves there
    choice: service_pb2.LegalMove
    answer: service_pb2.ApplyMoveResponse  # accepted, with the next state


class MatchTooLong(RuntimeError):
    """A match went on for more than `max_moves` moves; carries the state reached."""

    def __init__(self, max_moves: int, state: game_pb2.GameState) -> None:
        super().__init__(
            f"the match is not over after {max_moves} moves "
            f"(deal {state.match.deal_number}, move number {state.move_number}); "
            "raise the move limit or look for a game that cannot end"
        )
        self.max_moves = max_moves
        self.state = state


class ServerContradiction(RuntimeError):
    """The backend broke its own contract (no acting seat with a move, a
    listed move rejected): a bug to report, never a game outcome."""


def uniform(seed: int) -> Chooser:
    """A chooser that picks uniformly among all moves of all acting seats,
    from its own seeded generator."""
    rnd = random.Random(seed)

    def choose(state: game_pb2.GameState, legal: LegalMoves) -> service_pb2.LegalMove:
        if len(legal) == 1:  # the common case: one seat acts
            (moves,) = legal.values()
        else:
            moves = [move for seat in sorted(legal) for move in legal[seat]]
        return moves[rnd.randrange(len(moves))]

    return choose


def legal_moves_of(backend: Backend, state: game_pb2.GameState) -> LegalMoves:
    """Every acting seat's legal moves."""
    return {seat: backend.legal_moves(state, seat) for seat in state.acting_seats}


def play(
    backend: Backend,
    state: game_pb2.GameState,
    choose: Chooser,
    *,
    max_moves: int = DEFAULT_MAX_MOVES,
    on_step: Callable[[Step], None] | None = None,
    on_deal: Callable[[service_pb2.NextDealResponse], None] | None = None,
) -> tuple[game_pb2.GameState, int]:
    """Play from `state` to the end of the match; returns the final state and
    the number of moves played. Raises MatchTooLong after `max_moves` moves."""
    moves = 0
    legal: LegalMoves | None = None
    while (phase := state.match.phase) != game_pb2.MATCH_PHASE_MATCH_OVER:
        if phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            dealt = backend.next_deal(state)
            if on_deal is not None:
                on_deal(dealt)
            state, legal = dealt.state, None
            continue
        if phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
            raise ServerContradiction(f"a state in match phase {phase}")
        if moves >= max_moves:
            raise MatchTooLong(max_moves, state)
        if legal is None:
            legal = legal_moves_of(backend, state)
        if not any(legal.values()):
            raise ServerContradiction(
                f"no acting seat {list(state.acting_seats)} has a legal move "
                f"(move number {state.move_number})"
            )
        choice = choose(state, legal)
        answer = backend.apply(state, choice.move, next_legal_moves=True)
        if not answer.accepted:
            raise ServerContradiction(
                f"{choice.notation!r} of seat {choice.move.seat} was listed as legal but "
                f"rejected: {answer.rejection.message}"
            )
        if on_step is not None:
            on_step(Step(state, legal, choice, answer))
        state = answer.state
        # The answer's own lists (no copies); a backend without the one-call
        # path answers none, and the next step asks.
        legal = {entry.seat: entry.moves for entry in answer.next_legal_moves}
        if not legal and state.acting_seats:
            legal = None
        moves += 1
    return state, moves


def play_match(
    backend: Backend,
    game: str,
    preset: str,
    seats: int,
    seed: int,
    choose: Chooser,
    *,
    options: Mapping[str, Any] | None = None,
    max_moves: int = DEFAULT_MAX_MOVES,
    on_start: Callable[[service_pb2.NewGameResponse], None] | None = None,
    on_step: Callable[[Step], None] | None = None,
    on_deal: Callable[[service_pb2.NextDealResponse], None] | None = None,
) -> tuple[game_pb2.GameState, int]:
    """NewGame, then `play` to the end of the match."""
    started = backend.new_game(game, preset=preset, seat_count=seats, seed=seed, options=options)
    if on_start is not None:
        on_start(started)
    return play(
        backend, started.state, choose, max_moves=max_moves, on_step=on_step, on_deal=on_deal
    )


class LiveGame(Protocol):
    """A game held in-process and changed in place (croupier.engine.session.Session)."""

    @property
    def state(self) -> game_pb2.GameState: ...

    @property
    def position(self) -> game_pb2.GameState: ...  # fields to read, not the message

    @property
    def over(self) -> bool: ...

    @property
    def deal_over(self) -> bool: ...

    @property
    def acting_seats(self) -> list[int]: ...

    def legal_moves(self, seat: int) -> list[service_pb2.LegalMove]: ...

    def play(self, choice: service_pb2.LegalMove) -> Sequence[game_pb2.Event]: ...

    def next_deal(self) -> Sequence[game_pb2.Event]: ...


def play_live(game: LiveGame, choose: Chooser, *, max_moves: int = DEFAULT_MAX_MOVES) -> int:
    """`play` for a game held in-process: the same loop (every acting seat
    asked, the chooser picks), each move made in place; the number of moves
    played. The chooser gets `game.position`, the state's fields to read
    (building the message at every move would cost more than the move).
    Raises MatchTooLong after `max_moves` moves."""
    moves = 0
    while not game.over:
        if game.deal_over:
            game.next_deal()
            continue
        if moves >= max_moves:
            raise MatchTooLong(max_moves, game.state)
        acting = game.acting_seats
        legal: LegalMoves = {seat: game.legal_moves(seat) for seat in acting}
        if not any(legal.values()):
            raise ServerContradiction(
                f"no acting seat {acting} has a legal move (move number {game.state.move_number})"
            )
        game.play(choose(game.position, legal))
        moves += 1
    return moves


def seat_bots(
    bots: Sequence[Any],
    view_of: Callable[[game_pb2.GameState, int], game_pb2.View] | None = None,
) -> Chooser:
    """A chooser where the bot of the seat whose turn it is picks among its
    moves (`bot.choose(view, moves)`); when that seat has none, the first
    acting seat that has moves. `view_of(state, seat)` (a backend's `view`)
    gives the seat's view to bots that want one; without it, or for a bot
    whose `wants_view` is false, the view carries only the seat."""

    def choose(state: game_pb2.GameState, legal: LegalMoves) -> service_pb2.LegalMove:
        seat = state.current_seat
        if not legal.get(seat):
            seat = next(s for s in sorted(legal) if legal[s])
        bot = bots[seat]
        if view_of is not None and getattr(bot, "wants_view", True):
            view = view_of(state, seat)
        else:
            view = game_pb2.View(seat=seat, game=state.game)
        return bot.choose(view, legal[seat])  # type: ignore[no-any-return]

    return choose
