"""A Scala 40 deal in progress: the primitives moves are made of — drawing
and the exhausted stock (§1.13), passing the turn (§1.4), the events.

`Table` wraps one GameState (already a copy: it is changed in place) with
its compiled rules and the events the move produces.
"""

from __future__ import annotations

from croupier.engine import rng, seats
from croupier.engine.table import GameTable
from croupier.games.scala40.rules import MAX_TURNS, STALEMATE_RESTOCKS, Rules, rules_for
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb

DRAW = pb.SCALA40_PHASE_DRAW
PLAY = pb.SCALA40_PHASE_PLAY
DEAL_OVER = pb.SCALA40_PHASE_DEAL_OVER


class Table(GameTable[pb.Scala40State, Rules]):
    """One Scala 40 deal, changed in place by the move being applied."""

    def __init__(self, state: game_pb2.GameState) -> None:
        super().__init__(state, state.scala40, rules_for(state.options.scala40))

    def emit_rule(
        self,
        kind: int,
        seat: int,
        says: str,
        meld_ids: list[int] | None = None,
        owner: int = 0,
        in_hand: bool = False,
        **fields,  # type: ignore[no-untyped-def]
    ) -> None:
        """An event only Scala 40 has: EVENT_KIND_GAME_RULE with its detail."""
        detail = pb.Scala40Event(kind=kind, meld_ids=meld_ids or [], owner=owner, in_hand=in_hand)  # type: ignore[arg-type]
        self.emit(game_pb2.EVENT_KIND_GAME_RULE, seat, says, scala40=detail, **fields)

    # -- drawing -----------------------------------------------------------------------

    def draw_stock(self, seat: int) -> int:
        """R-S40-10: the top stock card to the hand. Drawing the last one turns
        the whole discard pile into a new shuffled stock at once (R-S40-90)."""
        deal = self.deal
        value = deal.stock[0]
        del deal.stock[0]
        self.hand(seat).append(value)
        deal.drawn_card = value
        self.emit(
            game_pb2.EVENT_KIND_CARDS_DRAWN,
            seat,
            "draws a card from the stock",
            count=1,
            cards=[value],
            visible_to=[seat],
        )
        if not deal.stock and deal.discard:
            self.restock(seat, keep_top=False)
        return value

    def restock(self, seat: int, keep_top: bool) -> int:
        """The discard pile (less its top when `keep_top`) shuffled into the stock."""
        deal = self.deal
        cards = list(deal.discard[:-1] if keep_top else deal.discard)
        if not cards:
            return 0
        del deal.discard[: len(cards)]
        rng.shuffle(self.state, cards)
        deal.stock.extend(cards)
        deal.restocks_without_play += 1
        self.emit(
            game_pb2.EVENT_KIND_STOCK_RESTOCKED,
            seat,
            f"turns the discard pile into a new stock ({len(cards)} cards)",
            count=len(cards),
        )
        return len(cards)

    # -- turns -----------------------------------------------------------------------------

    def clear_turn(self) -> None:
        deal = self.deal
        deal.drawn_card = 0  # type: ignore[assignment]
        deal.taken_card = 0  # type: ignore[assignment]
        deal.taken_must_be_placed = False
        deal.taken_copies = 0
        deal.jokers_owed = 0
        deal.opened_this_turn = False
        deal.must_close = False

    def start_turn(self, seat: int) -> str:
        """§1.4 START: `seat` is to draw. R-S40-91: with no stock, the discard
        pile less its top becomes one. Returns why the deal is void instead
        ("" when it goes on): nothing to draw (R-S40-91), or the stock turned
        over again and again with no card laid on the table (K-S40-1)."""
        deal = self.deal
        self.state.current_seat = seat
        self.clear_turn()
        deal.phase = DRAW  # type: ignore[assignment]
        if deal.turns_started[seat] < MAX_TURNS:
            deal.turns_started[seat] += 1
        if not deal.stock and not self.restock(seat, keep_top=True):
            return "finds nothing to draw: the deal is void"
        if deal.restocks_without_play >= STALEMATE_RESTOCKS:
            return (
                f"finds the stock turned over {deal.restocks_without_play} times with no card "
                "laid on the table: the deal is void"
            )
        return ""

    def next_seat(self, seat: int) -> int:
        return seats.next_seat(self.state.seats, seat)
