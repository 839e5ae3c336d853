"""Dealing an UNO round: the dealer, the shuffle, the first card (R2, U1,
U1a, U2, U17, H7)."""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import rng
from croupier.engine.uno_cards import COLOUR_OF, KIND_OF, NUMBER_OF, WILD, Kind
from croupier.engine.uno_cards import uno_card_text as card_text
from croupier.games.uno.table import NAME_COLOUR, PLAY, Table
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

HAND_SIZE = 7  # R2
STAGES = 7  # H13: every seat starts at stage 7


def first_deal(state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
    """Round 1: the dealer is chosen (U17), the player to his left leads."""
    table = Table(state)
    n = len(state.seats)
    if table.rules.dealer_highest:
        dealer, says = _highest_card(state, table)
    else:
        dealer, says = rng.below(state, n), "is drawn by lot to deal"
    table.emit_rule(pb.UNO_EVENT_KIND_DEALER_CHOSEN, dealer, says)
    events = table.events
    return events + deal(state, dealer, (dealer + 1) % n)


def _highest_card(state: game_pb2.GameState, table: Table) -> tuple[int, str]:
    """U17 HIGHEST_CARD: each player draws a card, the highest number deals;
    a symbol counts as zero; tied players draw again (R2)."""
    deck = list(table.rules.deck)
    rng.shuffle(state, deck)
    contenders = list(range(len(state.seats)))
    drawn: list[str] = []
    position = 0
    while True:
        values = {}
        for seat in contenders:
            if position == len(deck):
                rng.shuffle(state, deck)
                position = 0
            card = deck[position]
            position += 1
            values[seat] = max(NUMBER_OF[card], 0)
            drawn.append(f"{table.name(seat)} {card_text(card)}")
        best = max(values.values())
        contenders = [s for s in contenders if values[s] == best]
        if len(contenders) == 1:
            return contenders[0], f"deals, with the highest card ({', '.join(drawn)})"


def next_deal(state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
    """The next round of the match: the next seat clockwise deals and its left
    leads (R2); under H7 the last loser deals and the last winner leads."""
    previous = state.uno
    n = len(state.seats)
    if state.options.uno.scoring_method == pb.UNO_SCORING_METHOD_LAZY:
        dealer = previous.round_loser
        first = state.match.deal_winners[0] if state.match.deal_winners else (dealer + 1) % n
    else:
        dealer = (previous.dealer + 1) % n
        first = (dealer + 1) % n
    state.match.phase = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    state.match.deal_number += 1
    return deal(state, dealer, first)


def deal(state: game_pb2.GameState, dealer: int, first: int) -> Sequence[game_pb2.Event]:
    """Shuffle the whole deck, deal 7 cards each one at a time clockwise from
    the dealer's left, turn the first card (U1) and give `first` the turn."""
    state.ClearField("uno")
    table = Table(state)
    rules, d = table.rules, table.deal
    n = len(state.seats)
    for _ in range(n):
        d.hands.add()
    cards = list(rules.deck)
    rng.shuffle(state, cards)
    position = 0
    for _ in range(HAND_SIZE):
        for step in range(1, n + 1):
            d.hands[(dealer + step) % n].cards.append(cards[position])  # type: ignore[arg-type]
            position += 1
    stock = cards[position:]
    if rules.seven_rounds:
        d.stages.extend([STAGES] * n)
    d.dealer = dealer
    card = _first_card(table, stock)
    d.stock.extend(stock)  # type: ignore[arg-type]
    d.discard.append(card)  # type: ignore[arg-type]
    table.emit(
        game_pb2.EVENT_KIND_DEAL_STARTED,
        dealer,
        f"deals round {state.match.deal_number} and turns up {card_text(card)}",
        target_seat=_plays_first(table, card, dealer, first),
        uno_cards=[card],
    )
    _first_card_effect(table, card, dealer, first)
    return table.events


def _first_card(table: Table, stock: list[int]) -> int:
    """U1: turn stock cards until one may start. NUMBER_ONLY puts any other
    card back at a random place in the stock (B34); MATTEL returns a Wild
    Draw Four (a "+10", a Wild under RETURN) and shuffles the stock."""
    rules, state = table.rules, table.state
    while True:
        card = stock.pop(0)
        kind = KIND_OF[card]
        if rules.number_only_first:
            if kind == Kind.NUMBER:
                return card
            stock.insert(rng.below(state, len(stock) + 1), card)
        elif kind in (Kind.WILD_DRAW_FOUR, Kind.BLANK) or (
            kind == Kind.WILD and not rules.wild_first_chooses
        ):
            stock.append(card)
            rng.shuffle(state, stock)
        else:
            return card
        table.emit_rule(
            pb.UNO_EVENT_KIND_FIRST_CARD_RETURNED,
            table.deal.dealer,
            f"puts {card_text(card)} back into the stock: it may not start",
        )


def _plays_first(table: Table, card: int, dealer: int, first: int) -> int:
    """The seat that plays first once the first card has acted (DEAL_STARTED's
    `target_seat`): `first`, the leader (R2; H7 the last winner), who also
    names a Wild's colour (U1a); the seat after it on a Skip or a +2 (U1);
    on a Reverse, play going counter-clockwise, the seat after the leader
    with two players under U12 (D9), else the dealer (U2 DEALER_FIRST) or
    the seat to the dealer's right (RIGHT_OF_DEALER). Nobody has finished
    or lost a turn when a round is dealt."""
    n = len(table.state.seats)
    kind = KIND_OF[card]
    if kind in (Kind.SKIP, Kind.DRAW_TWO):
        return (first + 1) % n
    if kind != Kind.REVERSE:
        return first
    if n == 2 and table.rules.two_player_reverse_skip:
        return (first - 1) % n
    return dealer if table.rules.reverse_dealer_first else (dealer - 1) % n


def _first_card_effect(table: Table, card: int, dealer: int, first: int) -> None:
    """R2 (MATTEL's table): what the first card does to the first player.
    No answer to it is possible (B6); jump-ins never start on it (H1)."""
    deal, rules = table.deal, table.rules
    kind = KIND_OF[card]
    if card == WILD:
        table.state.current_seat = first
        deal.phase = NAME_COLOUR  # type: ignore[assignment]
        return
    deal.colour = COLOUR_OF[card]  # type: ignore[assignment]
    deal.phase = PLAY  # type: ignore[assignment]
    if kind == Kind.SKIP:
        table.skip(first)
    elif kind == Kind.DRAW_TWO:
        table.resolve(first, 2)
    elif kind == Kind.REVERSE:
        deal.reversed = True
        table.emit(
            game_pb2.EVENT_KIND_DIRECTION_REVERSED, dealer, "turned up a Reverse: play goes right"
        )
        # U2 names the dealer, not the leader: under H7 the leader (the last
        # winner) need not sit at the dealer's left.
        if table.two_in_round() and rules.two_player_reverse_skip:
            table.skip(first)  # U12: a Skip for the first player (D9)
        elif rules.reverse_dealer_first:
            table.begin_turn(dealer)  # the dealer, then counter-clockwise
        else:
            table.begin_turn(table.next_of(dealer))  # the dealer's right
    else:
        table.begin_turn(first)
