"""Scoring a hand and the match around it (R-M-40 to R-M-42, A-M-07, C-M-4).

A hand scores, for each seat, the cards on the table it is credited with
(jokers 0) less the cards left in its hand (jokers 100 each), R-M-41. The
hand's winners are the seats with the best hand score (K-M-4). After the
hand: once a total reaches the target, the highest total wins; equal highest
totals play another hand (A-M-07) — unless `max_deals` hands have been
played, when the highest total wins and equal ones share (C-M-4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from croupier.engine.cards import is_joker
from croupier.games.most.rules import card_value, hand_value
from croupier.v1 import game_pb2
from croupier.v1 import most_pb2 as pb

if TYPE_CHECKING:
    from croupier.games.most.table import Table


def table_points(deal: pb.MostState, seats: int) -> list[int]:
    """Per seat: what the table cards credited to it are worth (R-M-41)."""
    points = [0] * seats
    for meld in deal.melds:
        for value, seat in zip(meld.cards, meld.credited_to, strict=True):
            if not is_joker(value):
                points[seat] += card_value(value)
    return points


def hand_points(cards: Sequence[int]) -> int:
    """What the cards left in a hand cost (R-M-41: a joker 100)."""
    return sum(hand_value(v) for v in cards)


def hand_scores(deal: pb.MostState, seats: int) -> list[int]:
    """Each seat's score for the hand: table cards less hand cards."""
    table = table_points(deal, seats)
    return [table[s] - hand_points(deal.hands[s].cards) for s in range(seats)]


def end_hand(table: Table) -> None:
    """R-M-40: the hand is over; score it, add the totals, decide the match."""
    state, deal = table.state, table.deal
    seats = len(state.seats)
    scores = hand_scores(deal, seats)
    deal.phase = pb.MOST_PHASE_DEAL_OVER  # type: ignore[assignment]
    table.clear_turn()
    best = max(scores)
    winners = [s for s in range(seats) if scores[s] == best]
    match = state.match
    del match.deal_points[:]
    match.deal_points.extend(scores)
    del match.deal_winners[:]
    match.deal_winners.extend(winners)
    match.phase = game_pb2.MATCH_PHASE_DEAL_OVER
    for seat, score in enumerate(scores):
        state.seats[seat].score += score
    said = ", ".join(f"{table.name(s)} {scores[s]:+d}" for s in range(seats))
    others = " and ".join(table.name(s) for s in winners[1:])
    who = (
        f"shares hand {match.deal_number} with {others}"
        if others
        else (f"wins hand {match.deal_number}")
    )
    table.emit(
        game_pb2.EVENT_KIND_DEAL_ENDED, winners[0], f"{who}; scores: {said}",
        seats=winners, scores=scores,
    )  # fmt: skip
    _decide_match(table)


def _decide_match(table: Table) -> None:
    state, rules = table.state, table.rules
    totals = [seat.score for seat in state.seats]
    top = max(totals)
    leaders = [s for s, total in enumerate(totals) if total == top]
    last = bool(rules.max_deals) and state.match.deal_number >= rules.max_deals
    if top >= rules.target and len(leaders) > 1 and not last:
        names = " and ".join(table.name(s) for s in leaders[1:])
        table.emit_rule(
            pb.MOST_EVENT_KIND_TIE_AT_TARGET,
            leaders[0],
            f"ties with {names} at {top}: another hand is played",
            points=top,
            seats=leaders,
        )
        return
    if top >= rules.target or last:
        _match_over(table, leaders)


def _match_over(table: Table, winners: list[int]) -> None:
    match = table.state.match
    match.phase = game_pb2.MATCH_PHASE_MATCH_OVER
    del match.winners[:]
    match.winners.extend(winners)
    others = " and ".join(table.name(s) for s in winners[1:])
    says = f"shares the match win with {others}" if others else "wins the match"
    table.emit(game_pb2.EVENT_KIND_MATCH_ENDED, winners[0], says, seats=winners)
