"""What one seat may see of a 101 deal: its own hand; the rest counted."""

from __future__ import annotations

from croupier.v1 import game_pb2


def fill_view(state: game_pb2.GameState, seat: int, view: game_pb2.View) -> None:
    """Fill `view.hundred_and_one` for `seat` (shedding.md §0.5 public information)."""
    deal = state.hundred_and_one
    v = view.hundred_and_one
    v.hand.extend(deal.hands[seat].cards)
    v.hand_sizes.extend(len(h.cards) for h in deal.hands)
    v.stock_size = len(deal.stock)
    v.discard.extend(deal.discard)
    v.active_suit = deal.active_suit
    v.reversed = deal.reversed
    v.phase = deal.phase
    v.pending_draw = deal.pending_draw
    if seat == state.current_seat:
        v.drawn_card = deal.drawn_card  # everyone saw a card drawn, only its owner which
    v.cover_batch_drawn = deal.cover_batch_drawn
    v.dealer = deal.dealer
