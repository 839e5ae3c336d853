"""What a bust (or a concession) costs, the end of a deal and of the match
(RULES.md R-C1-05/06, R-C2-06, R-C3-05/06, C-C-3, C-C-4).

The match standing lives in `Seat.score`: «Сто» penalty points or chip
balance, One Hundred lives left, 101 with chips chips left.
`MatchState.deal_points` says what the deal changed: the penalty points or
chips of «Сто» (the exact-100 payment included), or the life (chip) lost by
the bust or concession that ended the deal.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.games.counting.rules import CHIPS, CHIPS_101, LIVES, PENALTY_POINTS
from croupier.games.counting.table import Table
from croupier.v1 import counting_pb2 as pb
from croupier.v1 import game_pb2


def bust(table: Table, seat: int) -> None:
    """`seat`'s card took the total over the limit (R-C1-05, R-C2-06)."""
    rules, deal = table.rules, table.deal
    table.emit_rule(
        pb.COUNTING_EVENT_KIND_BUSTED, seat, f"goes over {rules.limit} with {deal.total}"
    )
    points = [0] * len(table.seats)
    if rules.settlement == PENALTY_POINTS:
        points[seat] = deal.total - 100  # R-C1-05: the overshoot
        table.seats[seat].score += points[seat]
    elif rules.settlement == CHIPS:
        _pay_for_bust(table, seat, points)
    else:
        points[seat] = -1
        _lose_life(table, seat)
        if rules.continue_after_bust and len(table.playing()) >= 2:
            _continue_after_bust(table, seat)
            return
    end_deal(table, seat, points)


def _pay_for_bust(table: Table, seat: int, points: list[int]) -> None:
    """«Сто» chips (O-C1-4): the buster pays each opponent the overshoot
    (Hundert) or 1 (Feder); the exact-100 payment of this deal, made when
    the card was played, counts in the deal's points (C-C-4)."""
    rules, deal = table.rules, table.deal
    pay = deal.total - 100 if rules.overshoot_chips else 1
    for other in range(len(points)):
        if other != seat:
            points[other] += pay
            points[seat] -= pay
    for other, change in enumerate(points):
        table.seats[other].score += change
    if deal.HasField("exact_hundred_seat"):
        _exact_hundred_points(points, deal.exact_hundred_seat, rules.exact_hundred_chips)


def _exact_hundred_points(points: list[int], seat: int, chips: int) -> None:
    for other in range(len(points)):
        if other != seat:
            points[other] -= chips
            points[seat] += chips


def exact_hundred(table: Table, seat: int) -> None:
    """C-C-4: a card that takes the total from below 100 to exactly 100
    collects chips from each opponent at once (Hundert 3, Feder 1)."""
    chips = table.rules.exact_hundred_chips
    change = [0] * len(table.seats)
    _exact_hundred_points(change, seat, chips)
    for other, amount in enumerate(change):
        table.seats[other].score += amount
    table.deal.exact_hundred_seat = seat
    table.emit_rule(
        pb.COUNTING_EVENT_KIND_EXACT_HUNDRED,
        seat,
        f"makes exactly 100 and collects {chips} from each opponent",
        points=chips,
    )


def concede(table: Table, seat: int) -> None:
    """R-C3-05: no card keeps the total within the limit: the seat loses
    the deal and a chip."""
    table.emit_rule(
        pb.COUNTING_EVENT_KIND_CONCEDED,
        seat,
        f"cannot stay within {table.rules.limit} and loses the deal",
    )
    points = [0] * len(table.seats)
    points[seat] = -1
    _lose_life(table, seat)
    end_deal(table, seat, points)


def _lose_life(table: Table, seat: int) -> None:
    """R-C2-06, O-C2-3, R-C3-06: one life (chip) less; none left is out."""
    s = table.seats[seat]
    s.score -= 1
    what = "chip" if table.rules.game == CHIPS_101 or table.rules.lives > 1 else "life"
    table.emit_rule(
        pb.COUNTING_EVENT_KIND_LIFE_LOST, seat, f"loses a {what} ({s.score} left)", points=s.score
    )
    if s.score <= 0:
        s.eliminated = True
        table.emit(game_pb2.EVENT_KIND_SEAT_ELIMINATED, seat, "is out of the match", points=0)


def _continue_after_bust(table: Table, seat: int) -> None:
    """O-C2-4 CONTINUE: the buster's cards go face up under the pile, the
    total is 0 and the next player leads from the same stock."""
    deal = table.deal
    hand = table.hand(seat)
    cards = list(hand)
    del hand[:]
    pile = list(deal.pile)
    del deal.pile[:]
    deal.pile.extend(cards + pile)  # type: ignore[arg-type]
    deal.total = 0
    table.emit_rule(
        pb.COUNTING_EVENT_KIND_TOTAL_RESET,
        seat,
        f"puts {len(cards)} cards face up under the pile; the total is 0 again",
        cards=cards,
    )
    if not table.next_turn(seat):
        end_deal(table, None, [0] * len(table.seats))


def no_card_left(table: Table) -> None:
    """E-C-1: no seat still in holds a card: the deal ends without a loser.
    The exact-100 payment already made counts in the deal's points (E-C-6)."""
    points = [0] * len(table.seats)
    deal = table.deal
    if deal.HasField("exact_hundred_seat"):
        _exact_hundred_points(points, deal.exact_hundred_seat, table.rules.exact_hundred_chips)
    end_deal(table, None, points)


def end_deal(table: Table, loser: int | None, points: Sequence[int]) -> None:
    """Record the deal's result; end the match when its end has come."""
    state, rules = table.state, table.rules
    match = state.match
    playing = table.playing()
    winners = [s for s in playing if s != loser]
    del match.deal_points[:]
    match.deal_points.extend(points)
    del match.deal_winners[:]
    match.deal_winners.extend(winners)
    scored = ", ".join(f"{table.name(s)} {points[s]}" for s in range(len(points)))
    if loser is None:
        subject = table.deal.dealer
        says = f"dealt deal {match.deal_number}, which ends without a loser"
    else:
        subject, says = loser, f"loses deal {match.deal_number}"
    table.emit(
        game_pb2.EVENT_KIND_DEAL_ENDED,
        subject,
        f"{says}; points: {scored}",
        seats=winners,
        scores=list(points),
    )
    if rules.settlement == LIVES:
        over = len(playing) <= 1
        match_winners = playing
    else:
        over = match.deal_number >= rules.deals_per_match
        match_winners = _best_placed(table) if over else []
    if not over:
        match.phase = game_pb2.MATCH_PHASE_DEAL_OVER
        return
    match.phase = game_pb2.MATCH_PHASE_MATCH_OVER
    match.winners.extend(match_winners)
    if rules.settlement != LIVES:
        _name_the_losers(table)
    others = " and ".join(table.name(s) for s in match_winners[1:])
    says = f"shares the match win with {others}" if others else "wins the match"
    table.emit(game_pb2.EVENT_KIND_MATCH_ENDED, match_winners[0], says, seats=match_winners)


def _standing(table: Table, seat: int) -> int:
    """Higher is better: fewer penalty points, or more chips (R-C1-06, C-C-4)."""
    score = table.seats[seat].score
    return -score if table.rules.settlement == PENALTY_POINTS else score


def _best_placed(table: Table) -> list[int]:
    best = max(_standing(table, s) for s in range(len(table.seats)))
    return [s for s in range(len(table.seats)) if _standing(table, s) == best]


def _name_the_losers(table: Table) -> None:
    """R-C1-06, A-C1-03: the most penalty points (the fewest chips) lose the
    match; a tie makes co-losers. When every seat stands equal nobody does."""
    worst = min(_standing(table, s) for s in range(len(table.seats)))
    losers = [s for s in range(len(table.seats)) if _standing(table, s) == worst]
    if len(losers) == len(table.seats):
        return
    others = " and ".join(table.name(s) for s in losers[1:])
    says = f"loses the match with {others}" if others else "loses the match"
    table.emit_rule(pb.COUNTING_EVENT_KIND_MATCH_LOST, losers[0], says, seats=losers)
