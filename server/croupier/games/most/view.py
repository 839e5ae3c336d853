"""What one seat may see of a «Мост» hand: its own hand, the bridge, every
meld on the table with the seat each card scores for, the stock size and
every hand's size."""

from __future__ import annotations

from collections import Counter

from croupier.engine.cards import card_text
from croupier.engine.melds import meld_text
from croupier.games.most.position import canonical_table
from croupier.games.most.rules import rules_for
from croupier.games.most.scoring import table_points
from croupier.v1 import game_pb2
from croupier.v1 import most_pb2 as pb


def fill_view(state: game_pb2.GameState, seat: int, view: game_pb2.View) -> None:
    """Fill `view.most` for `seat`."""
    deal = state.most
    v = view.most
    v.hand.extend(deal.hands[seat].cards)
    v.hand_sizes.extend(len(h.cards) for h in deal.hands)
    v.stock_size = len(deal.stock)
    v.bridge.extend(deal.bridge)
    v.melds.extend(deal.melds)
    canonical_table(v.melds, rules_for(state.options.most))  # K-M-1: as the rules read them
    v.melded.extend(deal.melded)
    v.phase = deal.phase
    v.dealer = deal.dealer
    if seat == state.current_seat:
        v.drawn_card = deal.drawn_card  # everyone saw a card drawn; only its owner which
    v.bridge_card = deal.bridge_card
    v.bridge_card_owed = deal.bridge_card_owed
    v.table_points.extend(table_points(deal, len(state.seats)))
    v.table_cards_at_reshuffle = deal.table_cards_at_reshuffle
    v.exchanged_since_reshuffle = deal.exchanged_since_reshuffle
    v.reshuffled = deal.reshuffled


def view_text(view: game_pb2.View) -> str:
    """One line of what a «Мост» view shows."""
    v = view.most
    melds = " ".join(
        f"{m.id}:{meld_text(m.cards, m.joker_as)}" for m in v.melds
    )  # fmt: skip
    parts = [
        f"hand {' '.join(card_text(c) for c in v.hand) or '-'}",
        f"bridge {' '.join(card_text(c) for c in v.bridge) or '-'}",
        f"stock {v.stock_size}",
        f"sizes {'/'.join(map(str, v.hand_sizes))}",
        f"melds {melds or '-'}",
        f"table {'/'.join(map(str, v.table_points))}",
        pb.MostPhase.Name(v.phase).removeprefix("MOST_PHASE_").lower(),
    ]
    if v.drawn_card:
        parts.append(f"drawn {card_text(v.drawn_card)}")
    if v.bridge_card:
        owed = " owed" if v.bridge_card_owed else ""
        parts.append(f"bridge card {card_text(v.bridge_card)}{owed}")
    return ", ".join(parts)


def visible_cards(state: game_pb2.GameState, seat: int) -> Counter[int]:
    """Every card `seat` may see: its hand, the bridge, the melds and the
    cards their jokers stand for (public declarations), and the first card
    taken from the bridge this turn (everyone saw it taken)."""
    deal = state.most
    seen: Counter[int] = Counter([*deal.hands[seat].cards, *deal.bridge])
    if deal.bridge_card:
        seen[deal.bridge_card] += 1
    for meld in deal.melds:
        seen.update(meld.cards)
        seen.update(v for v in meld.joker_as if v)
    return seen
