"""Scoring a finished round and the match around it (R10, R11, U14, U15, H7,
H12, H14, H15)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from croupier.engine.uno_cards import NUMBER_OF
from croupier.games.uno.rules import CARD_POINTS, Rules
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

if TYPE_CHECKING:
    from croupier.games.uno.table import Table

WINNER_COLLECTS = pb.UNO_SCORING_METHOD_WINNER_COLLECTS
PENALTY_LIMIT = pb.UNO_SCORING_METHOD_PENALTY_LIMIT
LAZY = pb.UNO_SCORING_METHOD_LAZY

# H15 (C-UNO-7): the UNO H2O labels a finishing card may carry, and what
# finishing on each takes off the winner's total.
H2O_BONUS: dict[int, int] = {
    pb.UNO_H2O_LABEL_UNSPECIFIED: 0,
    pb.UNO_H2O_LABEL_PLUS_ONE: -20,
    pb.UNO_H2O_LABEL_WILD_PLUS_TWO: -40,
}


def hand_points(hand: Sequence[int], rules: Rules) -> int:
    """R11: the value of a hand left at the end of a round; H14 makes a lone
    0 (or, ANY_ZERO, every 0) worth 50 (B27)."""
    total = 0
    for card in hand:
        if rules.zero50 and NUMBER_OF[card] == 0 and (rules.zero50_any or len(hand) == 1):
            total += 50
        else:
            total += CARD_POINTS[card]
    return total


def winner_bonus(label: int, rules: Rules) -> int:
    """H15 (C-UNO-7): what finishing on a card labelled `label` (an
    UnoH2oLabel: "+1", wild "+2", or none) adds to the winner's total."""
    return H2O_BONUS[label] if rules.h2o else 0


def lazy_loser(hands: Sequence[Sequence[int]], winner: int, rules: Rules) -> int:
    """H7: the seat holding the highest hand value; a tie goes to the tied
    seat nearest clockwise from the winner (B21)."""
    n = len(hands)
    order = [(winner + step) % n for step in range(1, n)]
    best = max(hand_points(hands[s], rules) for s in order)
    return next(s for s in order if hand_points(hands[s], rules) == best)


def end_round(table: Table, winner: int) -> None:
    """End the round `winner` won: points, totals, the match (U14).

    H12: the winner is the first seat to finish and the loser the last
    holder (B25)."""
    state, deal, rules = table.state, table.deal, table.rules
    hands = [list(h.cards) for h in deal.hands]
    if rules.play_to_last and deal.finished:
        winner = deal.finished[0]
    seats = len(state.seats)
    values = [hand_points(h, rules) for h in hands]
    points = [0] * seats
    if rules.scoring == WINNER_COLLECTS:
        points[winner] = sum(v for s, v in enumerate(values) if s != winner)
    elif rules.scoring == PENALTY_LIMIT:
        points = [0 if s == winner else values[s] for s in range(seats)]
        points[winner] = winner_bonus(deal.finishing_label, rules)
    else:
        points = [0 if s == winner else values[s] for s in range(seats)]
    _clear_round(table, winner)
    match = state.match
    del match.deal_points[:]
    match.deal_points.extend(points)
    del match.deal_winners[:]
    match.deal_winners.append(winner)
    if rules.scoring == LAZY:
        if rules.play_to_last:
            loser = next((s for s in range(seats) if s not in deal.finished), winner)
        else:
            loser = lazy_loser(hands, winner, rules)
        deal.round_loser = loser
        state.seats[winner].score += 1  # H7: rounds won, no points
    else:
        for s in range(seats):
            state.seats[s].score += points[s]
    scored = ", ".join(f"{table.name(s)} {points[s]}" for s in range(seats))
    table.emit(
        game_pb2.EVENT_KIND_DEAL_ENDED,
        winner,
        f"wins round {match.deal_number}; points: {scored}",
        seats=[winner],
        scores=points,
    )
    winners = match_winners(state, rules)
    if winners is None:
        match.phase = game_pb2.MATCH_PHASE_DEAL_OVER
        return
    match.phase = game_pb2.MATCH_PHASE_MATCH_OVER
    match.winners.extend(winners)
    if not winners:
        # B30 with every total at the limit. Unreachable from a valid state
        # (validate: a match in play has no total at the limit, and the round
        # winner scores at most 0), kept so that scoring never raises.
        says = "ends the match: every total reached the limit, so nobody wins (B30)"
        table.emit(game_pb2.EVENT_KIND_MATCH_ENDED, winner, says, seats=[])
        return
    others = " and ".join(table.name(s) for s in winners[1:])
    says = f"shares the match win with {others}" if others else "wins the match"
    table.emit(game_pb2.EVENT_KIND_MATCH_ENDED, winners[0], says, seats=winners)


def match_winners(state: game_pb2.GameState, rules: Rules) -> list[int] | None:
    """The match's winners once it is decided, else None (U14, U15, B30)."""
    scores = [seat.score for seat in state.seats]
    if rules.scoring == WINNER_COLLECTS:
        winners = [s for s, score in enumerate(scores) if score >= rules.target]
        return winners or None
    if rules.scoring == PENALTY_LIMIT:
        if not any(score >= rules.limit for score in scores):
            return None
        return [s for s, score in enumerate(scores) if score < rules.limit]
    if state.match.deal_number < rules.lazy_rounds:
        return None
    best = max(scores)
    return [s for s, score in enumerate(scores) if score == best]


def _clear_round(table: Table, winner: int) -> None:
    """The round is over: nobody acts, no window or overlay stays open."""
    deal = table.deal
    table.state.current_seat = winner
    deal.phase = pb.UNO_PHASE_DEAL_OVER
    deal.pending_kind = 0  # type: ignore[assignment]
    deal.pending_count = 0
    deal.drawn_card = 0  # type: ignore[assignment]
    deal.jump_in_open = False
    deal.challengeable = False
    deal.wd4_guilty = False
    deal.wd4_previous_colour = 0  # type: ignore[assignment]
    deal.silence = False
    for field in ("uno_offender", "silence_seat", "slap", "card_swap", "ready_seat"):
        deal.ClearField(field)
    del deal.turn_lost[:]
