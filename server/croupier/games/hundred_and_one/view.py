"""What one seat may see of a 101 deal: its own hand; the rest counted."""

from __future__ import annotations

from collections import Counter

from croupier.engine.cards import card_text, suit_text
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb


def fill_view(state: game_pb2.GameState, seat: int, view: game_pb2.View) -> None:
    """Fill `view.hundred_and_one` for `seat` (its own hand; sizes and piles are public)."""
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
    v.cover_restocked = deal.cover_restocked
    v.dealer = deal.dealer


def view_text(view: game_pb2.View) -> str:
    """One line of what a 101 view shows: hand, top, suit, piles, phase."""
    v = view.hundred_and_one
    top = card_text(v.discard[-1]) if v.discard else "-"
    parts = [
        f"hand {' '.join(card_text(c) for c in v.hand) or '-'}",
        f"top {top}",
        f"suit {suit_text(v.active_suit) if v.active_suit else '-'}",
        f"sizes {'/'.join(map(str, v.hand_sizes))}",
        f"stock {v.stock_size}",
        pb.HundredAndOnePhase.Name(v.phase).removeprefix("HUNDRED_AND_ONE_PHASE_").lower(),
    ]
    if v.pending_draw:
        parts.append(f"pending {v.pending_draw}")
    if v.drawn_card:
        parts.append(f"drawn {card_text(v.drawn_card)}")
    if v.reversed:
        parts.append("reversed")
    return ", ".join(parts)


def visible_cards(state: game_pb2.GameState, seat: int) -> Counter[int]:
    """Every card `seat` may see: its own hand and the face-up discard pile."""
    deal = state.hundred_and_one
    return Counter([*deal.hands[seat].cards, *deal.discard])
