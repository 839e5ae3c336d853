"""What one seat may see of a counting deal: its own hand, the pile, the
total and the face-up leftovers; other hands, the stock and leftovers set
aside only counted."""

from __future__ import annotations

from collections import Counter

from croupier.engine.cards import card_text
from croupier.games.counting.rules import rules_for
from croupier.v1 import counting_pb2 as pb
from croupier.v1 import game_pb2


def fill_view(state: game_pb2.GameState, seat: int, view: game_pb2.View) -> None:
    """Fill the game's part of `view` for `seat`."""
    deal: pb.CountingState = getattr(state, state.game)
    v: pb.CountingView = getattr(view, state.game)
    v.SetInParent()
    v.hand.extend(deal.hands[seat].cards)
    v.hand_sizes.extend(len(h.cards) for h in deal.hands)
    v.stock_size = len(deal.stock)
    v.pile.extend(deal.pile)
    if rules_for(state).leftovers_face_up:
        v.leftovers.extend(deal.leftovers)
    v.leftovers_size = len(deal.leftovers)
    v.total = deal.total
    v.reversed = deal.reversed
    v.dealer = deal.dealer
    if deal.HasField("exact_hundred_seat"):
        v.exact_hundred_seat = deal.exact_hundred_seat


def view_text(view: game_pb2.View) -> str:
    """One line of what a counting view shows: hand, total, top, sizes."""
    v: pb.CountingView = getattr(view, view.game)
    parts = [
        f"hand {' '.join(card_text(c) for c in v.hand) or '-'}",
        f"total {v.total}",
        f"top {card_text(v.pile[-1]) if v.pile else '-'}",
        f"sizes {'/'.join(map(str, v.hand_sizes))}",
    ]
    if v.stock_size:
        parts.append(f"stock {v.stock_size}")
    if v.leftovers:
        parts.append(f"leftovers {' '.join(card_text(c) for c in v.leftovers)}")
    elif v.leftovers_size:
        parts.append(f"aside {v.leftovers_size}")
    if v.reversed:
        parts.append("reversed")
    if v.HasField("exact_hundred_seat"):
        parts.append(f"exact 100 by {v.exact_hundred_seat}")
    return ", ".join(parts)


def visible_cards(state: game_pb2.GameState, seat: int) -> Counter[int]:
    """Every card `seat` may see: its hand, the pile, face-up leftovers."""
    deal: pb.CountingState = getattr(state, state.game)
    seen: Counter[int] = Counter([*deal.hands[seat].cards, *deal.pile])
    if rules_for(state).leftovers_face_up:
        seen.update(deal.leftovers)
    return seen
