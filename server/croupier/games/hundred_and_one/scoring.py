"""Scoring a finished deal and the match around it (C1, C8, §1.3.5–§1.5.4)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from croupier.engine.cards import ACE, KING_OF_SPADES, QUEEN, RANK_OF, SPADES, SUIT_OF
from croupier.games.hundred_and_one.rules import Rules
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb

if TYPE_CHECKING:
    from croupier.games.hundred_and_one.table import Table

# C1: A 11, K 4, Q 3, J 2, 10 10, 9 0, 8 8, 7 7, 6 6, 5–2 face value.
_VALUE = {2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 0, 10: 10, 11: 2, QUEEN: 3, 13: 4, ACE: 11}

_ELIMINATE_BELOW = pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_ELIMINATE_BELOW
_RESET_AT_OR_BELOW = pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_RESET_AT_OR_BELOW

# The lowest points one deal can give a seat: the queen of spades finish (O18).
LOWEST_DEAL_POINTS = -40
# A match has at most this many deals (MatchState.deal_number is a uint32).
MOST_DEALS = 2**32 - 1


# The two bounds below are cached by the options they depend on, not by the
# compiled Rules: lru caches keyed by Rules kept up to 256 (and 128) compiled
# option sets alive, 3.5-5 kB each, after rules_for's own cache of 128 had let
# them go — a client choosing new option sets grew a worker by that much more
# (fuzz F4, session 18). These keys take a handful of values (the deck is a
# function of its size, rules.py); the bound only guards against the unforeseen.
_KEYS_LIMIT = 64
_most_points: dict[tuple[int, bool, bool], int] = {}
_lowest_totals: dict[tuple[bool, int], int] = {}


def _remember(
    cache: dict[Any, int], key: Any, compute: Callable[[Rules], int], rules: Rules
) -> int:
    if len(cache) >= _KEYS_LIMIT:
        cache.clear()
    value = cache[key] = compute(rules)
    return value


def most_hand_points(rules: Rules) -> int:
    """More than any hand can score: the whole deck at its dearest (K♠ 40
    with O17, a lone Queen's 40 with O19). Bounds totals and deal points."""
    key = (len(rules.deck), rules.kspades_in_hand_40, rules.lone_queen_penalty)
    total = _most_points.get(key)
    return _remember(_most_points, key, _most_hand_points, rules) if total is None else total


def _most_hand_points(rules: Rules) -> int:
    total = sum(_VALUE[RANK_OF[c]] for c in rules.deck)
    if rules.kspades_in_hand_40:
        total += 40 - _VALUE[13]
    if rules.lone_queen_penalty:
        total += 40 - _VALUE[QUEEN]
    return total


def lowest_total(rules: Rules) -> int:
    """The lowest total a seat still in the match can hold under these
    options: totals start at 0 and only a finishing Queen lowers them (O18),
    by at most 40 a deal; O24 resets or eliminates low totals."""
    key = (rules.queen_finish_bonus, rules.negative_limit)
    total = _lowest_totals.get(key)
    return _remember(_lowest_totals, key, _lowest_total, rules) if total is None else total


def _lowest_total(rules: Rules) -> int:
    if not rules.queen_finish_bonus:
        return 0
    if rules.negative_limit == _RESET_AT_OR_BELOW:
        return -100
    if rules.negative_limit == _ELIMINATE_BELOW:
        return -101
    return LOWEST_DEAL_POINTS * MOST_DEALS


def hand_points(hand: Sequence[int], rules: Rules) -> int:
    """The penalty points of a hand left at the end of a deal."""
    queens = [c for c in hand if RANK_OF[c] == QUEEN]
    if not rules.lone_queen_penalty:
        lone = False
    elif rules.lone_queen_any:
        lone = len(queens) == 1  # O20 ANY_SINGLE_QUEEN
    else:
        lone = len(hand) == 1 and len(queens) == 1  # O20 ONLY_CARD (A19)
    total = 0
    for c in hand:
        if c == KING_OF_SPADES and rules.kspades_in_hand_40:
            total += 40  # O17, A8: the card scores 40 instead of 4
        elif lone and RANK_OF[c] == QUEEN:
            total += 40 if SUIT_OF[c] == SPADES else 20
        else:
            total += _VALUE[RANK_OF[c]]
    return total


def winner_points(last_card: int, rules: Rules) -> int:
    """0, or the finishing-Queen bonus (O18): -20, the queen of spades -40."""
    if rules.queen_finish_bonus and RANK_OF[last_card] == QUEEN:
        return -40 if SUIT_OF[last_card] == SPADES else -20
    return 0


def settle(total: int, rules: Rules) -> tuple[int, bool]:
    """C8 on one new total: exact-value resets first, then busts (A33).

    Returns the total after resets and whether the player leaves the match.
    """
    if rules.reset_100_to_50 and total == 100:
        total = 50
    elif rules.exact_101_reset and total == 101:
        total = 0
    limit = rules.negative_limit
    at_or_below = limit == pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_RESET_AT_OR_BELOW and total <= -101
    exact = limit == pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_RESET_EXACT and total == -101
    if at_or_below or exact:
        total = 0
    out = total > 101 or (limit == _ELIMINATE_BELOW and total < -101)
    return total, out


def score_deal(table: Table, winner: int, last_card: int) -> None:
    """End the deal won by `winner`: points, totals, eliminations, match end."""
    state, rules = table.state, table.rules
    playing = [i for i, s in enumerate(state.seats) if not s.eliminated]
    points = [0] * len(state.seats)
    busted: list[int] = []
    resets: list[tuple[int, int, int]] = []  # said after the points that caused them
    for seat in playing:
        if seat == winner:
            points[seat] = winner_points(last_card, rules)
        else:
            points[seat] = hand_points(table.hand(seat), rules)
        raw = state.seats[seat].score + points[seat]
        total, out = settle(raw, rules)
        state.seats[seat].score = total
        if total != raw:
            resets.append((seat, raw, total))
        if out:
            busted.append(seat)

    table.turn_to(winner, pb.HUNDRED_AND_ONE_PHASE_DEAL_OVER)
    match = state.match
    del match.deal_points[:]
    match.deal_points.extend(points)
    del match.deal_winners[:]
    match.deal_winners.append(winner)
    scored = ", ".join(f"{table.name(s)} {points[s]}" for s in playing)
    table.emit(
        game_pb2.EVENT_KIND_DEAL_ENDED,
        winner,
        f"wins deal {match.deal_number}; points: {scored}",
        seats=[winner],
        scores=points,
    )
    for seat, raw, total in resets:
        table.emit(
            game_pb2.EVENT_KIND_SCORE_RESET,
            seat,
            f"has the total {raw} reset to {total}",
            previous_points=raw,
            points=total,
        )

    for seat in busted:
        state.seats[seat].eliminated = True
        total = state.seats[seat].score
        table.emit(
            game_pb2.EVENT_KIND_SEAT_ELIMINATED,
            seat,
            f"is out of the match (total {total})",
            points=total,
        )
    survivors = [s for s in playing if s not in busted]
    if rules.first_bust_ends and busted:
        winners = _lowest(state, survivors or playing)  # A13: lowest non-busted total
    elif len(survivors) <= 1:
        # The last player standing wins; if the deal put everyone out at once
        # (possible only with ELIMINATE_BELOW), the lowest totals share it.
        winners = survivors or _lowest(state, playing)
    else:
        match.phase = game_pb2.MATCH_PHASE_DEAL_OVER
        return
    match.phase = game_pb2.MATCH_PHASE_MATCH_OVER
    match.winners.extend(winners)
    others = " and ".join(table.name(s) for s in winners[1:])
    says = f"shares the match win with {others}" if others else "wins the match"
    table.emit(game_pb2.EVENT_KIND_MATCH_ENDED, winners[0], says, seats=winners)


def _lowest(state: game_pb2.GameState, candidates: Sequence[int]) -> list[int]:
    best = min(state.seats[s].score for s in candidates)
    return [s for s in candidates if state.seats[s].score == best]
