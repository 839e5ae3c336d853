"""Scoring a closed deal and the match around it (§1.12, §1.14, V1–V4, V7,
V9, V18; A-S40-13, -14, -22, -23; C-S40-7).

Team play (A-S40-14, C-S40-7): partners' penalties add up; every member's
`Seat.score` holds the team total (game.proto: a partnership's scores are
equal on each member). ELIMINATION: the first team at the threshold loses
and the other wins; both at once: the lower total wins, equal totals go to
the closer's team. NO_ELIMINATION: team totals against the target.
SINGLE_DEAL: the closer's team wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from croupier.games.scala40.rules import FLAT_UNOPENED_PENALTY, Rules
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb

if TYPE_CHECKING:
    from croupier.games.scala40.table import Table


def hand_penalty(hand: Sequence[int], rules: Rules) -> int:
    """R-S40-80: joker 25, ace 11, J/Q/K 10, others their face (V5: J11 Q12 K13 A14, joker 14)."""
    penalty = rules.penalty
    return sum(penalty[v] for v in hand)


def deal_penalties(table: Table, closer: int, in_hand: bool) -> list[int]:
    """Each seat's penalty for this deal (§1.12: V9, then V7). Under
    SINGLE_DEAL (V1) nothing is scored, and V1 "disables V2–V4, V9, V7
    scoring effects": `deal_points` show the hands' plain values."""
    rules, deal = table.rules, table.deal
    scored = not rules.single_deal
    points = [0] * len(table.state.seats)
    for seat, s in enumerate(table.state.seats):
        if s.eliminated or seat == closer:
            continue
        penalty = hand_penalty(deal.hands[seat].cards, rules)
        if scored and rules.flat_100 and not deal.opened[seat]:
            penalty = FLAT_UNOPENED_PENALTY  # V9 (V5 does not change it)
        if scored and rules.close_in_hand_doubles and in_hand:
            penalty *= 2  # V7 (A-S40-13: 100 → 200)
        points[seat] = penalty
    return points


def score_deal(table: Table, closer: int, in_hand: bool) -> None:
    """End the deal closed by `closer`: penalties, totals, eliminations, match end."""
    state, rules = table.state, table.rules
    points = deal_penalties(table, closer, in_hand)
    _end_deal(table, closer, points)
    if rules.single_deal:
        _match_over(table, _team_of(state, closer))
        return
    if rules.teams != pb.SCALA40_TEAMS_NONE:
        _team_totals(table, points)
    else:
        for seat, p in enumerate(points):
            state.seats[seat].score += p
    if rules.no_elimination:
        _no_elimination(table, closer)
    elif rules.teams != pb.SCALA40_TEAMS_NONE:
        _team_elimination(table, closer)
    else:
        _elimination(table)


def void_deal(table: Table, seat: int, says: str) -> None:
    """R-S40-91 (A-S40-10), K-S40-1: nobody scores, the next dealer deals."""
    table.emit_rule(pb.SCALA40_EVENT_KIND_DEAL_VOID, seat, says)
    _end_deal(table, None, [0] * len(table.state.seats))
    table.state.match.phase = game_pb2.MATCH_PHASE_DEAL_OVER


def _end_deal(table: Table, closer: int | None, points: list[int]) -> None:
    state = table.state
    table.deal.phase = pb.SCALA40_PHASE_DEAL_OVER  # type: ignore[assignment]
    table.clear_turn()
    match = state.match
    del match.deal_points[:]
    match.deal_points.extend(points)
    del match.deal_winners[:]
    match.phase = game_pb2.MATCH_PHASE_DEAL_OVER
    if closer is None:
        return
    match.deal_winners.append(closer)
    playing = [s for s, seat in enumerate(state.seats) if not seat.eliminated]
    scored = ", ".join(f"{table.name(s)} {points[s]}" for s in playing)
    table.emit(
        game_pb2.EVENT_KIND_DEAL_ENDED,
        closer,
        f"wins deal {match.deal_number}; penalties: {scored}",
        seats=[closer],
        scores=points,
    )


def _team_of(state: game_pb2.GameState, seat: int) -> list[int]:
    team = state.seats[seat].team
    if not team:
        return [seat]
    return [s for s, other in enumerate(state.seats) if other.team == team]


def _team_totals(table: Table, points: list[int]) -> None:
    state = table.state
    teams: dict[int, int] = {}
    for seat, s in enumerate(state.seats):
        teams[s.team] = teams.get(s.team, 0) + points[seat]
    for s in state.seats:
        s.score += teams[s.team]


def _elimination(table: Table) -> None:
    """R-S40-100/101, V3 re-entry (A-S40-22)."""
    state, rules = table.state, table.rules
    playing = [s for s, seat in enumerate(state.seats) if not seat.eliminated]
    over = [s for s in playing if state.seats[s].score >= rules.threshold]
    below = [s for s in playing if s not in over]
    if over and rules.reentry and len(below) >= 2:
        # V3: nobody leaves; those at or over the threshold re-enter at the
        # highest score still below it.
        highest = max(state.seats[s].score for s in below)
        for seat in over:
            previous = state.seats[seat].score
            state.seats[seat].score = highest
            table.emit(
                game_pb2.EVENT_KIND_SCORE_RESET,
                seat,
                f"re-enters: the total {previous} becomes {highest}",
                previous_points=previous,
                points=highest,
            )
        return
    for seat in over:
        state.seats[seat].eliminated = True
        total = state.seats[seat].score
        table.emit(
            game_pb2.EVENT_KIND_SEAT_ELIMINATED, seat, f"is out of the match (total {total})",
            points=total,
        )  # fmt: skip
    if len(below) == 1:
        _match_over(table, below)


def _no_elimination(table: Table, closer: int) -> None:
    """V4 (A-S40-23): once the highest total reaches the target, the lowest wins."""
    state, rules = table.state, table.rules
    playing = [s for s, seat in enumerate(state.seats) if not seat.eliminated]
    if max(state.seats[s].score for s in playing) < rules.target:
        return
    lowest = min(state.seats[s].score for s in playing)
    _match_over(table, [s for s in playing if state.seats[s].score == lowest])


def _team_elimination(table: Table, closer: int) -> None:
    """A-S40-14, C-S40-7: a team at the threshold loses."""
    state, rules = table.state, table.rules
    totals = {seat.team: seat.score for seat in state.seats}
    over = [team for team, total in totals.items() if total >= rules.threshold]
    if not over:
        return
    if len(over) == 1:
        winner = next(team for team in totals if team not in over)
    else:
        lowest = min(totals.values())
        best = [team for team, total in totals.items() if total == lowest]
        winner = best[0] if len(best) == 1 else state.seats[closer].team
    for seat, s in enumerate(state.seats):
        if s.team != winner:
            s.eliminated = True
            table.emit(
                game_pb2.EVENT_KIND_SEAT_ELIMINATED, seat,
                f"is out of the match (team total {s.score})", points=s.score,
            )  # fmt: skip
    _match_over(table, [s for s, seat in enumerate(state.seats) if seat.team == winner])


def _match_over(table: Table, winners: list[int]) -> None:
    match = table.state.match
    match.phase = game_pb2.MATCH_PHASE_MATCH_OVER
    del match.winners[:]
    match.winners.extend(sorted(winners))
    others = " and ".join(table.name(s) for s in winners[1:])
    says = f"shares the match win with {others}" if others else "wins the match"
    table.emit(game_pb2.EVENT_KIND_MATCH_ENDED, winners[0], says, seats=sorted(winners))
