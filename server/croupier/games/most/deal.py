"""Dealing a «Мост» hand (R-M-04, R-M-05): the 54 cards shuffled, six to each
seat one at a time from the dealer's left, the rest the stock, and the
stock's top card turned face up as the first card of the bridge.

The first dealer is drawn by lot; then the deal passes clockwise and the
seat after the dealer plays first.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import rng
from croupier.engine.cards import card_text
from croupier.games.most.rules import DECK, HAND_SIZE
from croupier.games.most.table import Table
from croupier.v1 import game_pb2


def first_deal(state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
    """Hand 1: the dealer by lot (R-M-04)."""
    return deal(state, rng.below(state, len(state.seats)))


def next_deal(state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
    """The next hand: the deal passes clockwise (R-M-04)."""
    previous = state.most.dealer
    state.match.phase = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    state.match.deal_number += 1
    return deal(state, (previous + 1) % len(state.seats))


def deal(state: game_pb2.GameState, dealer: int) -> Sequence[game_pb2.Event]:
    """Shuffle the 54 cards and deal (R-M-05)."""
    state.ClearField("most")
    table = Table(state)
    d = table.deal
    n = len(state.seats)
    for _ in range(n):
        d.hands.add()
        d.melded.append(False)
    cards = list(DECK)
    rng.shuffle(state, cards)
    position = 0
    for _ in range(HAND_SIZE):
        for k in range(1, n + 1):
            d.hands[(dealer + k) % n].cards.append(cards[position])  # type: ignore[arg-type]
            position += 1
    first_bridge = cards[position]
    d.bridge.append(first_bridge)  # type: ignore[arg-type]
    d.stock.extend(cards[position + 1 :])  # type: ignore[arg-type]
    d.dealer = dealer
    d.next_meld_id = 1
    first = table.next_seat(dealer)
    table.emit(
        game_pb2.EVENT_KIND_DEAL_STARTED,
        dealer,
        f"deals hand {state.match.deal_number} and turns up {card_text(first_bridge)} "
        "as the first card of the bridge",
        target_seat=first,
        cards=[first_bridge],
    )
    table.start_turn(first)
    return table.events
