"""A «Мост» hand in progress: the primitives moves are made of — the events,
passing the turn (§2.5).

`Table` wraps one GameState (already a copy: it is changed in place) with
its compiled rules and the events the move produces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.engine.table import GameTable
from croupier.games.most.rules import Rules, rules_for
from croupier.v1 import game_pb2
from croupier.v1 import most_pb2 as pb

DRAW = pb.MOST_PHASE_DRAW
PLAY = pb.MOST_PHASE_PLAY
DEAL_OVER = pb.MOST_PHASE_DEAL_OVER


class Table(GameTable[pb.MostState, Rules]):
    """One «Мост» hand, changed in place by the move being applied."""

    def __init__(self, state: game_pb2.GameState) -> None:
        super().__init__(state, state.most, rules_for(state.options.most))
        # The table's melds as `position.table_of` reads them, once a move has
        # read them (moves.apply); None: not read yet.
        self.melds: Sequence[Any] | None = None

    def emit_rule(
        self,
        kind: int,
        seat: int,
        says: str,
        meld_id: int = 0,
        owner: int = 0,
        **fields,  # type: ignore[no-untyped-def]
    ) -> None:
        """An event only «Мост» has: EVENT_KIND_GAME_RULE with its detail."""
        detail = pb.MostEvent(kind=kind, meld_id=meld_id, owner=owner)  # type: ignore[arg-type]
        self.emit(game_pb2.EVENT_KIND_GAME_RULE, seat, says, most=detail, **fields)

    def table_cards(self) -> int:
        """How many cards lie in melds (C-M-2)."""
        return sum(len(m.cards) for m in self.deal.melds)

    def clear_turn(self) -> None:
        deal = self.deal
        deal.drawn_card = 0  # type: ignore[assignment]
        deal.bridge_card = 0  # type: ignore[assignment]
        deal.bridge_card_owed = False

    def start_turn(self, seat: int) -> None:
        """§2.5: `seat` is to draw."""
        self.state.current_seat = seat
        self.clear_turn()
        self.deal.phase = DRAW  # type: ignore[assignment]

    def next_seat(self, seat: int) -> int:
        """Clockwise (R-M-04): nobody leaves a «Мост» match."""
        return (seat + 1) % len(self.state.seats)
