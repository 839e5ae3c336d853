"""One match in flight: where it stands, what its seats may do, and its record.

A match goes START (NewGame due) -> READY (a move is due) -> ... and, when a
deal ends, DEAL (NextDeal due) -> READY again, until DONE. The driver does
the calls; this class only takes their answers in and keeps the record.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from croupier.tournament import wire
from croupier.tournament.records import ERROR, MAX_MOVES, Deal, Record
from croupier.v1 import game_pb2, service_pb2

_DEAL_OVER = game_pb2.MATCH_PHASE_DEAL_OVER
_MATCH_OVER = game_pb2.MATCH_PHASE_MATCH_OVER
_IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS


class Stage(enum.Enum):
    START = "NewGame due"
    DEAL = "NextDeal due"
    READY = "a move due"
    DONE = "done"


class Contradiction(RuntimeError):
    """The server broke its own contract (no acting seat with a move, a
    listed move rejected, an item error for a state it answered itself)."""


@dataclass(eq=False)
class MatchPlay:
    record: Record
    bots: list[Any]  # the Bot of each seat
    remote: list[bool]  # per seat: the bot is behind a BotService
    wants_view: list[bool]  # per seat
    max_moves: int
    stage: Stage = Stage.START
    state: game_pb2.GameState | None = None
    state_bytes: bytes = b""  # deterministic serialization of `state`
    legal: dict[int, Sequence[service_pb2.LegalMove]] = field(default_factory=dict)
    views: dict[int, game_pb2.View] = field(default_factory=dict)

    @property
    def index(self) -> int:
        return self.record.match

    @property
    def moves_played(self) -> int:
        return len(self.record.moves)

    @property
    def next_views(self) -> bool:
        """Whether ApplyMove should answer the next acting seats' views: the
        acting seat after a move is known only from the answer, so views are
        asked for when any seat's bot reads them."""
        return any(self.wants_view)

    def started(self, state: game_pb2.GameState) -> None:
        """The NewGame state: the record's first digest."""
        self._take(state)
        self.record.digests += hashlib.sha256(self.state_bytes).digest()

    def dealt(self, state: game_pb2.GameState) -> None:
        """The NextDeal state (its digest is covered by the next move's)."""
        self._take(state)

    def listed(
        self,
        legal: dict[int, Sequence[service_pb2.LegalMove]],
        views: dict[int, game_pb2.View],
    ) -> None:
        """Every acting seat's legal moves (and views) at the start of a deal."""
        self.legal, self.views = legal, views
        self.stage = Stage.READY

    def actor(self) -> tuple[int, Sequence[service_pb2.LegalMove]]:
        """The seat that moves now and its moves: the seat whose turn it is,
        else the first acting seat that has moves (as playout.seat_bots)."""
        assert self.state is not None
        seat = self.state.current_seat
        moves = self.legal.get(seat)
        if not moves:
            seat = next((s for s in sorted(self.legal) if self.legal[s]), -1)
            if seat < 0:
                raise Contradiction(
                    f"no acting seat {list(self.state.acting_seats)} has a legal move "
                    f"(move number {self.state.move_number})"
                )
            moves = self.legal[seat]
        return seat, moves

    def moved(
        self,
        move: bytes,
        answer: service_pb2.ApplyMoveResponse,
    ) -> None:
        """An accepted move and the server's answer (the next state, with the
        next acting seats' legal moves and views)."""
        record = self.record
        record.moves.append(move)
        record.notation.append(answer.notation)
        self._take(answer.state)
        record.digests += hashlib.sha256(self.state_bytes).digest()
        phase = self.state.match.phase if self.state is not None else None
        if phase == _IN_PROGRESS:
            if self.moves_played >= self.max_moves:
                record.outcome = MAX_MOVES
                record.scores = [seat.score for seat in answer.state.seats]
                self.stage = Stage.DONE
                return
            self.legal = {entry.seat: entry.moves for entry in answer.next_legal_moves}
            self.views = {view.seat: view for view in answer.next_views}
            if not self.legal:
                raise Contradiction(
                    f"ApplyMove answered no legal moves for the acting seats "
                    f"{list(answer.state.acting_seats)} (next_legal_moves was asked)"
                )
            return
        self.legal, self.views = {}, {}
        match = answer.state.match
        record.deals.append(Deal(list(match.deal_points), list(match.deal_winners)))
        if phase == _MATCH_OVER:
            record.winners = list(match.winners)
            record.scores = [seat.score for seat in answer.state.seats]
            self.stage = Stage.DONE
        elif phase == _DEAL_OVER:
            self.stage = Stage.DEAL
        else:
            raise Contradiction(f"a state in match phase {phase} after a move")

    def failed(self, error: BaseException) -> None:
        """The match cannot go on: recorded as an error, with why."""
        self.record.outcome = ERROR
        self.record.error = f"{type(error).__name__}: {error}"[:2000]
        self.stage = Stage.DONE

    def _take(self, state: game_pb2.GameState) -> None:
        self.state = state
        self.state_bytes = wire.state_bytes(state)
