"""What one seat may see of an UNO deal: its own hand, the face-up pile, the
public facts (§0.5: hand sizes, colour, direction, windows); a hand a
challenge revealed to it (R7); its own offered card (H6)."""

from __future__ import annotations

from collections import Counter

from croupier.engine.uno_cards import colour_text
from croupier.engine.uno_cards import uno_card_text as card_text
from croupier.games.uno.rules import JUMPABLE
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb


def fill_view(state: game_pb2.GameState, seat: int, view: game_pb2.View) -> None:
    """Fill `view.uno` for `seat`."""
    deal = state.uno
    v = view.uno
    v.hand.extend(deal.hands[seat].cards)
    v.hand_sizes.extend(len(h.cards) for h in deal.hands)
    v.stock_size = len(deal.stock)
    v.discard.extend(deal.discard)
    v.colour = deal.colour
    v.reversed = deal.reversed
    v.phase = deal.phase
    v.dealer = deal.dealer
    v.pending_kind = deal.pending_kind
    v.pending_count = deal.pending_count
    if seat == state.current_seat:
        v.drawn_card = deal.drawn_card  # everyone saw a card drawn, only its owner which
    if deal.HasField("top_player"):
        v.top_player = deal.top_player
    # Open as the acting seats say: only under H1, and on a card one may jump in on.
    v.jump_in_open = (
        deal.jump_in_open and state.options.uno.jump_in and deal.discard[-1] in JUMPABLE
    )
    if deal.HasField("uno_offender"):
        v.uno_offender = deal.uno_offender
    v.challengeable = deal.challengeable
    v.turn_lost.extend(deal.turn_lost)
    v.silence = deal.silence
    if deal.HasField("silence_seat"):
        v.silence_seat = deal.silence_seat
    if deal.HasField("slap"):
        v.slap.CopyFrom(deal.slap)
    if deal.HasField("card_swap"):
        swap = deal.card_swap
        v.card_swap.offered_by = swap.offered_by
        v.card_swap.offered_to = swap.offered_to
        if seat == swap.offered_by:
            v.card_swap.card = swap.card  # hidden from the other seat until it gives (B20)
    v.finished.extend(deal.finished)
    v.stages.extend(deal.stages)
    if deal.HasField("ready_seat"):
        v.ready_seat = deal.ready_seat
    if deal.HasField("reveal") and deal.reveal.viewer == seat:
        v.reveal.CopyFrom(deal.reveal)
    v.finishing_label = deal.finishing_label  # type: ignore[assignment]  # H15: public


def view_text(view: game_pb2.View) -> str:
    """One line of what an UNO view shows: hand, top, colour, sizes, phase…"""
    v = view.uno
    top = card_text(v.discard[-1]) if v.discard else "-"
    parts = [
        f"hand {' '.join(card_text(c) for c in v.hand) or '-'}",
        f"top {top}",
        f"colour {colour_text(v.colour) if v.colour else '-'}",
        f"sizes {'/'.join(map(str, v.hand_sizes))}",
        f"stock {v.stock_size}",
        pb.UnoPhase.Name(v.phase).removeprefix("UNO_PHASE_").lower(),
    ]
    if v.pending_kind:
        kind = pb.UnoPendingKind.Name(v.pending_kind).removeprefix("UNO_PENDING_KIND_").lower()
        parts.append(f"pending {kind} {v.pending_count}")
    if v.drawn_card:
        parts.append(f"drawn {card_text(v.drawn_card)}")
    if v.reversed:
        parts.append("reversed")
    if v.jump_in_open:
        parts.append("jump-in open")
    if v.HasField("uno_offender"):
        parts.append(f"catch P{v.uno_offender}")
    if v.challengeable:
        parts.append("challengeable")
    if v.silence:
        parts.append("silence")
    if v.HasField("slap"):
        parts.append(f"slap P{v.slap.caller}")
    if v.HasField("card_swap"):
        parts.append(f"exchange P{v.card_swap.offered_by}>P{v.card_swap.offered_to}")
    if v.HasField("ready_seat"):
        parts.append(f"ready? P{v.ready_seat}")
    if v.turn_lost:
        parts.append(f"turn lost {'/'.join(f'P{s}' for s in v.turn_lost)}")
    if v.finished:
        parts.append(f"finished {'/'.join(f'P{s}' for s in v.finished)}")
    if v.stages:
        parts.append(f"stages {'/'.join(map(str, v.stages))}")
    if v.finishing_label:
        plus_one = v.finishing_label == pb.UNO_H2O_LABEL_PLUS_ONE
        parts.append("finished on " + ("H2O+1" if plus_one else "H2O+2"))
    if v.HasField("reveal"):
        shown = " ".join(card_text(c) for c in v.reveal.cards) or "-"
        parts.append(f"saw P{v.reveal.owner}: {shown}")
    return ", ".join(parts)


def visible_cards(state: game_pb2.GameState, seat: int) -> Counter[int]:
    """Every card `seat` may see: its hand, the discard pile, and a hand a
    challenge revealed to it."""
    deal = state.uno
    seen: Counter[int] = Counter([*deal.hands[seat].cards, *deal.discard])
    if deal.HasField("reveal") and deal.reveal.viewer == seat:
        seen.update(deal.reveal.cards)
    return seen
