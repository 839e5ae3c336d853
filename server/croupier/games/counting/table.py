"""A counting deal in progress: the primitives every move is made of.

`Table` wraps one GameState (already a copy: it is changed in place) with its
compiled rules and the events the move produces. The move checker
(`moves.py`), the deal (`deal.py`) and the scoring (`scoring.py`) are written
in terms of these, so each step of a turn (RULES.md, "A turn") is stated once.
"""

from __future__ import annotations

from typing import Any

from croupier.engine import piles, rng, seats
from croupier.engine.cards import card_text
from croupier.engine.table import GameTable
from croupier.games.counting.rules import Rules, rules_for
from croupier.v1 import counting_pb2 as pb
from croupier.v1 import game_pb2


class Table(GameTable[pb.CountingState, Rules]):
    """One counting deal, changed in place by the move being applied."""

    def __init__(self, state: game_pb2.GameState) -> None:
        self.game = state.game  # the name of every oneof field of this game
        super().__init__(state, getattr(state, self.game), rules_for(state))

    # -- looking -------------------------------------------------------------

    def next_of(self, seat: int) -> int:
        """The next seat still in the match in the direction of play."""
        return seats.next_seat(self.seats, seat, -1 if self.deal.reversed else 1)

    def playing(self) -> list[int]:
        """The seats still in the match."""
        return [i for i, s in enumerate(self.seats) if not s.eliminated]

    # -- telling -------------------------------------------------------------

    def emit_rule(self, kind: int, seat: int, says: str, **fields: Any) -> None:
        """An event only the counting games have: EVENT_KIND_GAME_RULE with
        its counting kind and the running total."""
        detail = pb.CountingEvent(kind=kind, total=self.deal.total)  # type: ignore[arg-type]
        self.emit(game_pb2.EVENT_KIND_GAME_RULE, seat, says, **{self.game: detail}, **fields)

    # -- acting --------------------------------------------------------------

    def put(self, seat: int, card: int, total: int) -> None:
        """R-C1-04, R-C2-03, R-C3-03: the card goes on the pile and the
        total becomes `total` (already computed, floored); a four reverses."""
        deal = self.deal
        self.hand(seat).remove(card)
        deal.pile.append(card)  # type: ignore[arg-type]
        before = deal.total
        deal.total = total
        detail = pb.CountingEvent(total=total, previous_total=before)
        self.emit(
            game_pb2.EVENT_KIND_CARD_PLAYED,
            seat,
            f"plays {card_text(card)}: {before} → {total}",
            cards=[card],
            **{self.game: detail},
        )
        if self.rules.effects[card].reverses:
            deal.reversed = not deal.reversed
            self.emit(game_pb2.EVENT_KIND_DIRECTION_REVERSED, seat, "reverses the direction")

    def refill(self, seat: int) -> None:
        """R-C2-03, R-C3-03: draw one card; an empty stock is made again from
        the pile less its top card, shuffled, the total unchanged (R-C2-07)."""
        deal = self.deal
        drawn, restocked = piles.draw(
            deal.stock, deal.pile, self.hand(seat), 1, lambda cards: rng.shuffle(self.state, cards)
        )
        if restocked:
            self.emit(
                game_pb2.EVENT_KIND_STOCK_RESTOCKED,
                seat,
                f"shuffles the pile into a new stock ({restocked} cards)",
                count=restocked,
            )
        if drawn:
            self.emit(
                game_pb2.EVENT_KIND_CARDS_DRAWN,
                seat,
                "draws a card",
                count=1,
                cards=drawn,
                visible_to=[seat],
            )

    def next_turn(self, seat: int) -> bool:
        """Hand the turn to the next seat holding a card (E-C-1: a seat with
        none is passed over). False when no seat still in holds a card."""
        probe, seen = seat, set()
        while True:
            probe = self.next_of(probe)
            if self.hand(probe):
                self.state.current_seat = probe
                return True
            if probe in seen or probe == seat:
                return False
            seen.add(probe)
            self.emit_rule(
                pb.COUNTING_EVENT_KIND_PASSED_OVER, probe, "has no card and is passed over"
            )
