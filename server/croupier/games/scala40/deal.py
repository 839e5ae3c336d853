"""Dealing a Scala 40 deal (§1.2): shuffle, 13 cards each, the upcard (V20).

The first dealer is drawn by lot; then the deal passes to the next seat
still in the match (R-S40-04, R-S40-102). Partners (V18) are numbered once,
at the first deal: pairs 0+2 / 1+3, triples 0+2+4 / 1+3+5 (A-S40-14).
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import rng
from croupier.engine.cards import card_text, is_joker
from croupier.engine.errors import InvalidInput
from croupier.engine.seats import active_seats, next_seat
from croupier.games.scala40.options import check_seats
from croupier.games.scala40.rules import DECK, HAND_SIZE
from croupier.games.scala40.table import Table
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb


def first_deal(state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
    """Deal 1: seat teams (V18), the dealer by lot."""
    options = state.options.scala40
    check_seats(options, len(state.seats), "options")
    if options.teams != pb.SCALA40_TEAMS_NONE:
        for seat, s in enumerate(state.seats):
            s.team = 1 + seat % 2
    seats = active_seats(state)
    return deal(state, seats[rng.below(state, len(seats))])


def next_deal(state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
    """The next deal: the next seat still in the match deals (R-S40-102)."""
    previous = state.scala40.dealer
    state.match.phase = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    state.match.deal_number += 1
    return deal(state, next_seat(state.seats, previous))


def deal(state: game_pb2.GameState, dealer: int) -> Sequence[game_pb2.Event]:
    """Shuffle the 108 cards and deal (R-S40-05/06/07)."""
    if len(active_seats(state)) * HAND_SIZE >= len(DECK):
        raise InvalidInput("state.seats", "too many seats for the deck")  # pragma: no cover
    state.ClearField("scala40")
    table = Table(state)
    d, rules = table.deal, table.rules
    for _ in state.seats:
        d.hands.add()
        d.opened.append(False)
        d.turns_started.append(0)
    cards = list(DECK)
    rng.shuffle(state, cards)
    order = []
    seat = dealer
    for _ in active_seats(state):
        seat = next_seat(state.seats, seat)
        order.append(seat)
    position = 0
    for _ in range(HAND_SIZE):
        for seat in order:
            d.hands[seat].cards.append(cards[position])  # type: ignore[arg-type]
            position += 1
    stock = cards[position:]
    d.dealer = dealer
    d.next_meld_id = 1
    first = order[0]
    upcard = stock.pop(0)
    while is_joker(upcard) and rules.upcard_joker_redraw:
        # R-S40-07: the joker goes back at a random place; the next card is turned.
        stock.insert(rng.below(state, len(stock) + 1), upcard)
        table.emit_rule(
            pb.SCALA40_EVENT_KIND_UPCARD_JOKER_RETURNED,
            dealer,
            "turns up a joker and puts it back into the stock",
        )
        upcard = stock.pop(0)
    d.stock.extend(stock)  # type: ignore[arg-type]
    d.discard.append(upcard)  # type: ignore[arg-type]
    table.emit(
        game_pb2.EVENT_KIND_DEAL_STARTED,
        dealer,
        f"deals deal {state.match.deal_number} and turns up {card_text(upcard)}",
        target_seat=first,
        cards=[upcard],
    )
    table.start_turn(first)
    return table.events
