"""Dealing a 101 deal: shuffle, deal, and the opening (§1.3.1, §1.4.1, §1.5.1)."""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import rng
from croupier.engine.cards import QUEEN, RANK_OF, SUIT_OF, card_text
from croupier.engine.seats import active_seats, next_seat
from croupier.games.hundred_and_one.table import NAME_SUIT, PLAY, Table
from croupier.v1 import game_pb2


def first_deal(state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
    """Deal 1: the dealer (or leader) is drawn by lot (A1, §1.4.1)."""
    seats = active_seats(state)
    return deal(state, seats[rng.below(state, len(seats))])


def next_deal(state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
    """The next deal of the match (C9, A25): with LEAD_ANY the last winner
    leads; with a dealer the deal passes clockwise."""
    table = Table(state)
    previous = table.deal.dealer
    if table.rules.lead_any:
        winner = state.match.deal_winners[0] if state.match.deal_winners else previous
        dealer = winner if not state.seats[winner].eliminated else next_seat(state.seats, winner)
    else:
        dealer = next_seat(state.seats, previous)
    state.match.phase = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    state.match.deal_number += 1
    return deal(state, dealer)


def deal(state: game_pb2.GameState, dealer: int) -> Sequence[game_pb2.Event]:
    """Shuffle the whole deck and deal; `dealer` deals (or leads, LEAD_ANY)."""
    state.ClearField("hundred_and_one")
    table = Table(state)
    rules, d = table.rules, table.deal
    for _ in state.seats:
        d.hands.add()
    cards = list(rules.deck)
    rng.shuffle(state, cards)
    # One card at a time clockwise from the dealer's left, the dealer last,
    # so his last card is the last one dealt (the upcard, §1.4.1, A15).
    order = []
    seat = dealer
    for _ in active_seats(state):
        seat = next_seat(state.seats, seat)
        order.append(seat)
    position = 0
    for _ in range(rules.hand_size):
        for seat in order:
            d.hands[seat].cards.append(cards[position])  # type: ignore[arg-type]
            position += 1
    d.stock.extend(cards[position:])  # type: ignore[arg-type]
    d.dealer = dealer
    d.phase = PLAY  # type: ignore[assignment]
    state.current_seat = dealer

    if rules.lead_any or rules.first_move_any:
        table.emit(
            game_pb2.EVENT_KIND_DEAL_STARTED,
            dealer,
            f"leads deal {state.match.deal_number}",
            target_seat=dealer,
        )
        return table.events
    upcard = d.hands[dealer].cards.pop()
    d.discard.append(upcard)
    d.active_suit = SUIT_OF[upcard]  # type: ignore[assignment]
    after = table.next_of(dealer)
    table.emit(
        game_pb2.EVENT_KIND_DEAL_STARTED,
        dealer,
        f"deals deal {state.match.deal_number} and turns up {card_text(upcard)}",
        target_seat=after,
        cards=[upcard],
    )
    if not rules.upcard_effects:
        table.turn_to(after)
    elif RANK_OF[upcard] == QUEEN:
        table.turn_to(dealer, NAME_SUIT)
    else:
        effect = rules.effect[upcard]
        table.after_play(dealer, effect, 0, effect.cover_self)
    return table.events
