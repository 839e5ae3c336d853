"""Dealing a counting deal (R-C1-03, R-C2-02, R-C3-02): the dealer by lot
for the first deal, then the deal passes clockwise (skipping seats out of
the match); cards one at a time from the dealer's left; the player on the
dealer's left leads, clockwise, from the starting total."""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import rng
from croupier.engine.cards import card_text
from croupier.engine.seats import active_seats, next_seat
from croupier.games.counting.rules import LIVES, rules_for
from croupier.games.counting.table import Table
from croupier.v1 import game_pb2


def first_deal(state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
    """Deal 1 of a new match: every seat starts with its lives (chips) or
    with 0 points; the dealer is drawn by lot."""
    rules = rules_for(state)
    start = rules.lives if rules.settlement == LIVES else 0
    for seat in state.seats:
        seat.score = start
    seats = active_seats(state)
    return deal(state, seats[rng.below(state, len(seats))])


def next_deal(state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
    """The next deal of the match: the seat after the last dealer deals
    (R-C1-03, A-C2-02, A-C3-03)."""
    previous = getattr(state, state.game).dealer
    state.match.phase = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    state.match.deal_number += 1
    return deal(state, next_seat(state.seats, previous))


def deal(state: game_pb2.GameState, dealer: int) -> Sequence[game_pb2.Event]:
    """Shuffle the whole pack and deal; the seat after `dealer` leads."""
    state.ClearField(state.game)  # type: ignore[arg-type]
    table = Table(state)
    rules, d = table.rules, table.deal
    for _ in state.seats:
        d.hands.add()
    cards = list(rules.deck)
    rng.shuffle(state, cards)
    order = []
    seat = dealer
    for _ in active_seats(state):
        seat = next_seat(state.seats, seat)
        order.append(seat)
    # «Сто» deals the pack out: ⌊32/n⌋ each (R-C1-03).
    size = rules.hand_size or len(cards) // len(order)
    position = 0
    for _ in range(size):
        for seat in order:
            d.hands[seat].cards.append(cards[position])  # type: ignore[arg-type]
            position += 1
    rest = cards[position:]
    d.dealer = dealer
    leader = order[0]
    state.current_seat = leader
    says = f"deals deal {state.match.deal_number}; {table.name(leader)} leads"
    if rules.hand_size:
        d.stock.extend(rest)  # type: ignore[arg-type]
        table.emit(game_pb2.EVENT_KIND_DEAL_STARTED, dealer, says, target_seat=leader)
        return table.events
    d.leftovers.extend(rest)  # type: ignore[arg-type]
    if not rules.leftovers_face_up or not rest:
        plural = "card" if len(rest) == 1 else "cards"
        says += f" ({len(rest)} {plural} set aside)" if rest else ""
        table.emit(game_pb2.EVENT_KIND_DEAL_STARTED, dealer, says, target_seat=leader)
        return table.events
    # O-C1-2 FACE_UP_START_TOTAL: the leftovers, face up, start the total.
    d.total = sum(rules.effects[card].adds for card in rest)
    shown = " ".join(card_text(card) for card in rest)
    table.emit(
        game_pb2.EVENT_KIND_DEAL_STARTED,
        dealer,
        f"{says}; the leftovers {shown} start the total at {d.total}",
        target_seat=leader,
        cards=rest,
    )
    return table.events
