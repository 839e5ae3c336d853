"""A 101 deal in progress: the primitives every move is made of.

`Table` wraps one GameState (already a copy: it is changed in place) with its
compiled rules and the list of events the move produces. Move handlers
(`moves.py`), the deal (`deal.py`) and scoring (`scoring.py`) are written in
terms of these primitives, so each rule of RULES.md (C1–C9) is stated once.
"""

from __future__ import annotations

from croupier.engine import piles, rng, seats
from croupier.engine.cards import QUEEN, RANK_OF, SUIT_OF, card_text, suit_text
from croupier.engine.table import GameTable
from croupier.games.hundred_and_one.rules import NO_EFFECT, Effect, Rules, rules_of
from croupier.games.hundred_and_one.scoring import score_deal
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb

PLAY = pb.HUNDRED_AND_ONE_PHASE_PLAY
DRAWN = pb.HUNDRED_AND_ONE_PHASE_DRAWN
COVER = pb.HUNDRED_AND_ONE_PHASE_COVER
RESPOND = pb.HUNDRED_AND_ONE_PHASE_RESPOND
NAME_SUIT = pb.HUNDRED_AND_ONE_PHASE_NAME_SUIT
DEAL_OVER = pb.HUNDRED_AND_ONE_PHASE_DEAL_OVER


class Table(GameTable[pb.HundredAndOneState, Rules]):
    """One 101 deal, changed in place by the move being applied."""

    def __init__(self, state: game_pb2.GameState) -> None:
        super().__init__(state, state.hundred_and_one, rules_of(state))
        self.discard = self.deal.discard  # read again and again: fetched once

    # -- looking -------------------------------------------------------------

    @property
    def top(self) -> int:
        """The top card of the discard pile (0 when a lead is awaited)."""
        discard = self.discard
        return discard[-1] if discard else 0

    def playable(self, card: int) -> bool:
        """C2 on the current top (any card when leading)."""
        top = self.top
        return not top or self.rules.matches(card, top, self.deal.active_suit)

    def covering(self, card: int) -> bool:
        """C6: does `card` cover the top card."""
        return self.rules.covers(card, self.top, self.deal.active_suit)

    def next_of(self, seat: int) -> int:
        return seats.next_seat(self.seats, seat, -1 if self.deal.reversed else 1)

    def previous_of(self, seat: int) -> int:
        return seats.previous_seat(self.seats, seat, -1 if self.deal.reversed else 1)

    # -- acting --------------------------------------------------------------

    def emit_rule(self, kind: int, seat: int, says: str, **fields) -> None:  # type: ignore[no-untyped-def]
        """An event only 101 has: EVENT_KIND_GAME_RULE with its 101 kind."""
        detail = pb.HundredAndOneEvent(kind=kind)  # type: ignore[arg-type]
        self.emit(game_pb2.EVENT_KIND_GAME_RULE, seat, says, hundred_and_one=detail, **fields)

    def draw(self, seat: int, count: int, cover: bool = False) -> list[int]:
        """DRAW(seat, count) with RESTOCK (§0.5): fewer when both piles run dry.
        A `cover` draw turns the discard pile into the stock once per chain of
        covers (A38)."""
        shuffler = (
            (lambda cards: rng.shuffle(self.state, cards)) if self.rules.restock_shuffle else None
        )
        hand = self.hand(seat)
        deal = self.deal
        may_restock = not (cover and deal.cover_restocked)
        drawn, restocked = piles.draw(
            deal.stock, self.discard, hand, count, shuffler, may_restock=may_restock
        )
        if restocked and cover:
            deal.cover_restocked = True
        if restocked:
            self.emit(
                game_pb2.EVENT_KIND_STOCK_RESTOCKED,
                seat,
                f"turns the discards into the stock ({restocked} cards)",
                count=restocked,
            )
        plural = "card" if len(drawn) == 1 else "cards"
        self.emit(
            game_pb2.EVENT_KIND_CARDS_DRAWN,
            seat,
            f"draws {len(drawn)} {plural}",
            count=len(drawn),
            cards=drawn,
            visible_to=[seat],
        )
        return drawn

    def turn_to(self, seat: int, phase: int = PLAY) -> None:
        """Hand the turn to `seat`, clearing what belonged to the last turn."""
        deal = self.deal
        self.state.current_seat = seat
        deal.phase = phase  # type: ignore[assignment]
        deal.drawn_card = 0  # type: ignore[assignment]
        deal.cover_batch_drawn = False
        deal.pending_draw = 0
        if phase != COVER:  # a chain of covers goes on from seat to seat (A38)
            deal.cover_restocked = False

    def skip(self, seat: int) -> None:
        """`seat` loses its turn; the one after it acts."""
        self.emit(game_pb2.EVENT_KIND_TURN_SKIPPED, seat, "is skipped")
        self.turn_to(self.next_of(seat))

    def pass_turn(self, seat: int) -> None:
        self.emit(game_pb2.EVENT_KIND_PASSED, seat, "passes")
        self.turn_to(self.next_of(seat))

    def play(
        self, seat: int, card: int, named_suit: int, pending_before: int = 0, plain: bool = False
    ) -> None:
        """Play `card` from `seat`'s hand: C4 (a) place, (c) round end, (b/d) effects and turn.
        A `plain` card has no effect (the dealer's first card with upcard_effects off, O5)."""
        deal = self.deal
        hand = self.hand(seat)
        hand.remove(card)
        self.discard.append(card)  # type: ignore[arg-type]
        queen = RANK_OF[card] == QUEEN
        deal.active_suit = named_suit if queen else SUIT_OF[card]  # type: ignore[assignment]
        says = f"plays {card_text(card)}"
        if queen:
            says += f" and names {suit_text(named_suit)}"
        self.emit(
            game_pb2.EVENT_KIND_CARD_PLAYED,
            seat,
            says,
            cards=[card],
            suit=named_suit if queen else 0,
        )
        effect = NO_EFFECT if plain else self.rules.effect[card]
        cover_self = effect.cover_self
        if not hand:
            # C6.5: a cover card does not finish, except the HD eight when
            # eight_last_must_cover is off (§1.3.3); C7(b): forbidden finishes.
            # A forbidden last eight keeps its effect (§1.5.3, A36): its player
            # must still cover it, so cover_self stands.
            last_eight = (
                cover_self
                and self.rules.effects_family == pb.HUNDRED_AND_ONE_EFFECTS_HD
                and not self.rules.eight_last_must_cover
            )
            if not cover_self or last_eight:
                if card not in self.rules.forbidden_finish:
                    self.finish(seat, card, effect, pending_before)
                    return
                self.finish_forbidden(seat, card)
        self.after_play(seat, effect, pending_before, cover_self)

    def after_play(self, seat: int, effect: Effect, pending_before: int, cover_self: bool) -> None:
        """C4 (b, d): the played card's effect, then whose turn it is."""
        deal = self.deal
        if effect.reverse:
            deal.reversed = not deal.reversed
            self.emit(game_pb2.EVENT_KIND_DIRECTION_REVERSED, seat, "reverses the direction")
        if cover_self:
            self.turn_to(seat, COVER)
            self.emit_rule(pb.HUNDRED_AND_ONE_EVENT_KIND_COVER_REQUIRED, seat, "must cover")
            return
        after = self.next_of(seat)
        if effect.draw_previous:
            # ALT five (A18, A32): the previous player draws, the next is skipped.
            self.draw(self.previous_of(seat), effect.draw_previous)
            self.skip(after)
        elif effect.draw_next:
            count = effect.draw_next + (pending_before if self.rules.transfer_accumulates else 0)
            if effect.transferable:
                self.turn_to(after, RESPOND)
                deal.pending_draw = count
                self.emit(
                    game_pb2.EVENT_KIND_PENALTY_PENDING,
                    seat,
                    f"makes {self.name(after)} take {count} or pass it on",
                    target_seat=after,
                    count=count,
                )
            else:
                self.draw(after, count)
                self.skip(after)
        elif effect.skip_next:
            self.skip(after)
        elif effect.cover_next:
            self.turn_to(after, COVER)
            self.emit_rule(pb.HUNDRED_AND_ONE_EVENT_KIND_COVER_REQUIRED, after, "must cover")
        else:
            self.turn_to(after)

    def finish(self, seat: int, card: int, effect: Effect, pending_before: int) -> None:
        """C7: the round ends; a final draw card still hits its target (O27, A10)."""
        if self.rules.resolve_final_penalty:
            if effect.draw_next:
                extra = pending_before if self.rules.transfer_accumulates else 0
                self.draw(self.next_of(seat), effect.draw_next + extra)
            if effect.draw_previous:
                self.draw(self.previous_of(seat), effect.draw_previous)
        score_deal(self, winner=seat, last_card=card)

    def finish_forbidden(self, seat: int, card: int) -> None:
        """C7(b): the seat's hand is empty, but `card` may not end the deal."""
        self.emit_rule(
            pb.HUNDRED_AND_ONE_EVENT_KIND_FINISH_FORBIDDEN,
            seat,
            f"may not finish on {card_text(card)}; play goes on",
            cards=[card],
        )

    def cover_lapsed(self, seat: int, why: str = "nothing to draw") -> None:
        """C6.3: no card could be drawn for the cover (O14 THREE: none in the
        batch of three, `why` says which). An empty hand wins only
        a self-cover (the seat's last card was the one to cover) on a card it
        may finish on; a seat told to cover the card before it (six_cover_by
        NEXT), or whose last card is a forbidden finishing card (C7, A36),
        stays in the deal with no cards (§1.5.3) and the turn passes."""
        self.emit_rule(pb.HUNDRED_AND_ONE_EVENT_KIND_COVER_LAPSED, seat, f"need not cover: {why}")
        top = self.top
        if not self.hand(seat) and not self.rules.effect[top].cover_next:
            if top not in self.rules.forbidden_finish:
                score_deal(self, winner=seat, last_card=top)
                return
            self.finish_forbidden(seat, top)
        self.turn_to(self.next_of(seat))
