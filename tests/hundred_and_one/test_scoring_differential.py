"""Differential check of 101 scoring and match play against an independent model.

The model below is written from the rules text only (shared/rules/shedding.md
§1.2 C1/C7/C8/C9, §1.3.5, §1.4.3, §1.5.3–1.5.4, §1.7 O17–O27, §1.8 A1, A4, A8,
A10, A13, A19, A20, A25, A29, A31, A33, and the game's RULES.md C1, C7, C8, C9,
A1, A25, correction 4, "Deal end and match"), not from the engine's code.

The engine is driven only through `Session` with random listed moves. At
every deal end the model predicts, from the position before the final move
and the hands after it: the deal's winner, each seat's deal points, the new
settled totals, the eliminations, whether the match ends and who wins; after
every `next_deal` it predicts the dealer (or leader), the direction and that
totals are carried over unchanged. Matches start from edited totals near the
thresholds (100, 101, −101) so that resets, busts and match ends are reached
within a few deals.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from croupier.engine.errors import InvalidInput
from croupier.engine.session import Session
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb

GAME = "hundred_and_one"

# --- cards (cards.proto: value = 1 + 13 * suit_index + rank_index) -----------

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def rank_of(card: int) -> str:
    """Rank text of a FrenchCard value."""
    return RANKS[(card - 1) % 13]


def suit_of(card: int) -> int:
    """Suit index (♣ 0, ♦ 1, ♥ 2, ♠ 3) of a FrenchCard value."""
    return (card - 1) // 13


def text(card: int) -> str:
    return rank_of(card) + "CDHS"[suit_of(card)]


# --- the model: options ----------------------------------------------------------


@dataclass(frozen=True)
class Opts:
    """The resolved options the scoring model needs (read from the state)."""

    effects: int
    opening: int
    ordinary_specials: bool
    eight_last_must_cover: bool
    kspades_draw: int
    seven_spades_draw: int
    kspades_in_hand_40: bool
    queen_finish_bonus: bool
    lone_queen_penalty: bool
    any_single_queen: bool
    reset_100_to_50: bool
    exact_101_reset: bool
    first_bust_ends: bool
    negative_limit: int
    forbidden: frozenset[int]
    resolve_final_penalty: bool
    six_cover_next: bool
    fives_active: bool
    transfer_accumulates: bool


_FINISH_RANK = {
    pb.HUNDRED_AND_ONE_FINISH_ACE: "A",
    pb.HUNDRED_AND_ONE_FINISH_SEVEN: "7",
    pb.HUNDRED_AND_ONE_FINISH_NINE: "9",
    pb.HUNDRED_AND_ONE_FINISH_SIX: "6",
    pb.HUNDRED_AND_ONE_FINISH_EIGHT: "8",
    pb.HUNDRED_AND_ONE_FINISH_TEN: "10",
    pb.HUNDRED_AND_ONE_FINISH_QUEEN: "Q",
}


def opts_of(state: game_pb2.GameState) -> Opts:
    o = state.options.hundred_and_one
    return Opts(
        effects=o.effects,
        opening=o.opening,
        ordinary_specials=o.ordinary_specials,
        eight_last_must_cover=o.eight_last_must_cover,
        kspades_draw=o.kspades_draw,
        seven_spades_draw=o.seven_spades_draw,
        kspades_in_hand_40=o.kspades_in_hand_40,
        queen_finish_bonus=o.queen_finish_bonus,
        lone_queen_penalty=o.lone_queen_penalty,
        any_single_queen=o.lone_queen_scope == pb.HUNDRED_AND_ONE_LONE_QUEEN_SCOPE_ANY_SINGLE_QUEEN,
        reset_100_to_50=o.reset_100_to_50,
        exact_101_reset=o.exact_101_reset,
        first_bust_ends=o.bust_rule == pb.HUNDRED_AND_ONE_BUST_RULE_FIRST_BUST_ENDS,
        negative_limit=o.negative_limit,
        forbidden=frozenset(o.forbidden_finish)
        | ({pb.HUNDRED_AND_ONE_FINISH_NINE} if o.no_finish_on_nine else frozenset()),
        resolve_final_penalty=o.resolve_final_penalty,
        six_cover_next=o.six_cover_by == pb.HUNDRED_AND_ONE_SIX_COVER_BY_NEXT,
        fives_active=o.fives_active,
        transfer_accumulates=o.transfer_accumulates,
    )


# --- the model: hand values and deal points -------------------------------------------


def base_value(card: int) -> int:
    """C1: A 11, K 4, Q 3, J 2, 10 10, 9 0, 8 8, 7 7, 6 6, 5–2 face value."""
    rank = rank_of(card)
    special = {"A": 11, "K": 4, "Q": 3, "J": 2, "9": 0}
    return special[rank] if rank in special else int(rank)


def hand_value(hand: list[int], o: Opts) -> int:
    """C1 plus its version extras: K♠ left in hand 40 with O17 (A8); a lone
    Queen 20, Q♠ 40 with O19, where "lone" is a one-card hand (O20 ONLY_CARD)
    or exactly one Queen in the hand (ANY_SINGLE_QUEEN, A19)."""
    queens = [c for c in hand if rank_of(c) == "Q"]
    lone = o.lone_queen_penalty and (
        (len(hand) == 1 and len(queens) == 1) or (o.any_single_queen and len(queens) == 1)
    )
    total = 0
    for c in hand:
        if rank_of(c) == "K" and suit_of(c) == SPADES and o.kspades_in_hand_40:
            total += 40
        elif rank_of(c) == "Q" and lone:
            total += 40 if suit_of(c) == SPADES else 20
        else:
            total += base_value(c)
    return total


def winner_points(last_card: int, o: Opts) -> int:
    """C8/§1.4.3/A4: the winner scores 0; with O18 −20 for a finishing
    Queen, −40 for Q♠."""
    if o.queen_finish_bonus and rank_of(last_card) == "Q":
        return -40 if suit_of(last_card) == SPADES else -20
    return 0


def deal_points(hands: list[list[int]], out: list[bool], winner: int, last: int, o: Opts):
    """C8: the winner's points, every other seat still in the match its hand;
    seats already out of the match score nothing (0)."""
    return [
        0 if out[s] else winner_points(last, o) if s == winner else hand_value(hands[s], o)
        for s in range(len(hands))
    ]


# --- the model: settling totals, busts, match end ---------------------------------------


def settle(total: int, o: Opts) -> tuple[int, bool]:
    """C8/A33 in order: exactly 100 → 50 (O21), exactly 101 → 0 (O22), the
    negative limit (O24: ≤ −101 → 0, or exactly −101 → 0), then the bust
    check: above 101, or below −101 under ELIMINATE_BELOW. Returns the
    settled total and whether the seat busts."""
    if o.reset_100_to_50 and total == 100:
        total = 50
    elif o.exact_101_reset and total == 101:
        total = 0
    at_or_below = o.negative_limit == pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_RESET_AT_OR_BELOW
    exact = o.negative_limit == pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_RESET_EXACT
    if (at_or_below and total <= -101) or (exact and total == -101):
        total = 0
    bust = total > 101 or (
        o.negative_limit == pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_ELIMINATE_BELOW and total < -101
    )
    return total, bust


@dataclass
class Outcome:
    totals: list[int]
    out: list[bool]
    match_over: bool
    winners: list[int]


def lowest(seats: list[int], totals: list[int]) -> list[int]:
    """A29: the lowest total wins, ties share."""
    best = min(totals[s] for s in seats)
    return [s for s in seats if totals[s] == best]


def match_after_deal(totals: list[int], out: list[bool], points: list[int], o: Opts) -> Outcome:
    """C8 settle every seat still in; then the match end: ELIMINATE_CONTINUE
    (§1.3.5, §1.5.4) — over when at most one seat is left, he wins;
    FIRST_BUST_ENDS (A13, correction 4) — over after a deal with any bust,
    the lowest total among the seats still in wins (A29). If the deal puts
    every seat out, the lowest totals among them win (RULES.md "Deal end and
    match")."""
    new_totals, new_out, busted = list(totals), list(out), []
    for s in range(len(totals)):
        if out[s]:
            continue
        new_totals[s], bust = settle(totals[s] + points[s], o)
        if bust:
            new_out[s] = True
            busted.append(s)
    left = [s for s in range(len(totals)) if not new_out[s]]
    over = bool(busted) if o.first_bust_ends else len(left) <= 1
    winners: list[int] = []
    if over:
        winners = lowest(left, new_totals) if left else lowest(busted, new_totals)
    return Outcome(new_totals, new_out, over, winners)


# --- the model: the final move ------------------------------------------------------------


def step(seat: int, n: int, out: list[bool], reversed_: bool, back: bool = False) -> int:
    """next(p) (or prev(p) with `back`): the first seat in (against) the
    direction of play still in the match (§0.4)."""
    d = -1 if reversed_ != back else 1
    s = seat
    for _ in range(n):
        s = (s + d) % n
        if not out[s]:
            return s
    return seat


def is_forbidden(card: int, o: Opts) -> bool:
    """O25/O26: the forbidden finishing set."""
    k_spades = rank_of(card) == "K" and suit_of(card) == SPADES
    if k_spades and pb.HUNDRED_AND_ONE_FINISH_KING_OF_SPADES in o.forbidden:
        return True
    return any(_FINISH_RANK.get(f) == rank_of(card) for f in o.forbidden)


def self_cover(card: int, o: Opts) -> bool:
    """C6.5: a card its own player must cover never ends the deal — HD 8 with
    O15 on (with O15 off the 8 may finish, A7), CL 9, RU/ALT 6 under SELF;
    nothing under `ordinary_specials` (O13)."""
    rank = rank_of(card)
    if o.effects == pb.HUNDRED_AND_ONE_EFFECTS_HD:
        return rank == "8" and not o.ordinary_specials and o.eight_last_must_cover
    if o.effects == pb.HUNDRED_AND_ONE_EFFECTS_CL:
        return rank == "9"  # not one of O13's cards
    return rank == "6" and not o.six_cover_next and not o.ordinary_specials


def final_penalty(card: int, o: Opts) -> tuple[int, bool]:
    """A10/O27: the draw count a finishing card makes its target draw before
    scoring, and whether the target is prev(p) (ALT five) instead of next(p).
    Draw cards (§1.3.2, §1.4.2, §1.5.2, §1.6): 6 → 1 (HD, CL), 7 → 2 (7♠:
    O31), K♠ → O16; none under O13 for 6, 7, K♠; ALT 5 → 2 (5♠ 4) to prev."""
    if not o.resolve_final_penalty:
        return 0, False
    rank, spade = rank_of(card), suit_of(card) == SPADES
    if rank == "5" and o.fives_active:
        return (4 if spade else 2), True
    if o.ordinary_specials:  # O13, in every version: no 6, 7 or K♠ draws
        return 0, False
    if rank == "K" and spade:
        return o.kspades_draw, False
    if rank == "7":
        return (o.seven_spades_draw if spade else 2), False
    if rank == "6" and o.effects != pb.HUNDRED_AND_ONE_EFFECTS_RU:
        return 1, False
    return 0, False


# --- the model: the next deal ---------------------------------------------------------------


def next_opener(prev_dealer: int, deal_winner: int, out: list[bool], o: Opts) -> int:
    """C9/A1/A25: with LEAD_ANY the last deal's winner leads (the next seat
    clockwise still in the match if he is out); with DEALER_UPCARD the deal
    passes clockwise to the next seat still in the match."""
    n = len(out)
    if o.opening == pb.HUNDRED_AND_ONE_OPENING_LEAD_ANY:
        if not out[deal_winner]:
            return deal_winner
        return step(deal_winner, n, out, False)
    return step(prev_dealer, n, out, False)


# --- driving the engine -----------------------------------------------------------------------


def hands_of(state) -> list[list[int]]:
    return [list(h.cards) for h in state.hundred_and_one.hands]


def candidate_totals(o: Opts, rng: random.Random) -> int:
    """A settled starting total near a threshold (valid by RULES.md "What a
    valid state holds")."""
    pool = [0, 30, 60, 80, 90, 94, 96, 97, 98, 99, 101, 100]
    if o.queen_finish_bonus:
        pool += [-20, -40, -60, -85, -95, -99, -100]
        if o.negative_limit == pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_ELIMINATE_BELOW:
            pool += [-101]
    while True:
        t = rng.choice(pool)
        settled, bust = settle(t, o)
        if settled == t and not bust:
            return t


def start(preset: str, seats: int, seed: int, options: dict, rng: random.Random) -> Session:
    """A new match whose totals are edited to sit near the thresholds."""
    session = Session.new(GAME, preset=preset, seat_count=seats, seed=seed, options=options)
    if rng.random() < 0.2:
        return session
    o = opts_of(session.state)
    state = game_pb2.GameState()
    state.CopyFrom(session.state)
    for seat in state.seats:
        seat.score = candidate_totals(o, rng)
    try:
        return Session(state)
    except InvalidInput:
        for seat in state.seats:
            seat.score = max(seat.score, 0)
        return Session(state)


@dataclass
class Stats:
    deal_ends: int = 0
    next_deals: int = 0
    match_ends: int = 0
    resets: int = 0
    busts: int = 0
    queen_finishes: int = 0
    final_penalties: int = 0
    lone_queens: int = 0
    reset_100: int = 0
    reset_101: int = 0
    reset_negative: int = 0
    busts_below: int = 0
    all_out_at_once: int = 0
    shared_wins: int = 0
    winner_out_next_leader: int = 0
    abandoned: int = 0
    replays: int = 0
    won_by_lapse: int = 0


def check_events(events, points: list[int], model: Outcome, out_before: list[bool], case: str):
    """The deal's events say the same: DEAL_ENDED's scores are the deal
    points, SEAT_ELIMINATED names the seats out now, MATCH_ENDED the winners."""
    kinds = {e.kind for e in events}
    ended = [e for e in events if e.kind == game_pb2.EVENT_KIND_DEAL_ENDED]
    assert len(ended) == 1 and list(ended[0].scores) == points, (case, events)
    gone = sorted(e.seat for e in events if e.kind == game_pb2.EVENT_KIND_SEAT_ELIMINATED)
    assert gone == [s for s in range(len(points)) if model.out[s] and not out_before[s]], case
    assert (game_pb2.EVENT_KIND_MATCH_ENDED in kinds) == model.match_over, case
    for e in events:
        if e.kind == game_pb2.EVENT_KIND_MATCH_ENDED:
            assert sorted(e.seats) == model.winners, case
        if e.kind == game_pb2.EVENT_KIND_SCORE_RESET:
            assert e.points == model.totals[e.seat], case


def check_deal_end(before, after, mover: int, case: str, stats: Stats, events=()) -> None:
    """Compare the engine's deal result with the model's."""
    o = opts_of(after)
    n = len(after.seats)
    h_before, h_after = before.hundred_and_one, after.hundred_and_one
    hands = hands_of(after)
    last = h_after.discard[-1]
    # C7: the winner is the mover, his hand is empty, and he did not finish
    # on a forbidden card (A36: a forbidden card never wins).
    assert list(after.match.deal_winners) == [mover], case
    assert hands[mover] == [], case
    assert not is_forbidden(last, o), case
    out_before = [s.eliminated for s in before.seats]
    totals_before = [s.score for s in before.seats]
    # A10/O27: the finishing draw card's penalty was drawn before scoring.
    played = len(h_before.discard) + 1 == len(h_after.discard) and mover == before.current_seat
    if played and len(h_before.hands[mover].cards) == 1:
        count, back = final_penalty(last, o)
        if count and o.transfer_accumulates and h_before.phase == pb.HUNDRED_AND_ONE_PHASE_RESPOND:
            count += h_before.pending_draw
        target = step(mover, n, out_before, h_before.reversed, back)
        if count and target != mover:
            available = len(h_before.stock) + len(h_before.discard)
            expected = min(count, available)
            got = len(hands[target]) - len(h_before.hands[target].cards)
            assert got == expected, (case, "final penalty", text(last), got, expected)
            stats.final_penalties += 1
    points = deal_points(hands, out_before, mover, last, o)
    assert list(after.match.deal_points) == points, (case, list(after.match.deal_points), points)
    model = match_after_deal(totals_before, out_before, points, o)
    assert [s.score for s in after.seats] == model.totals, (
        case,
        totals_before,
        points,
        [s.score for s in after.seats],
        model.totals,
    )
    assert [s.eliminated for s in after.seats] == model.out, case
    check_events(events, points, model, out_before, case)
    over = after.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert over == model.match_over, (case, totals_before, points, model)
    if over:
        assert sorted(after.match.winners) == model.winners, (case, list(after.match.winners))
        assert list(after.acting_seats) == [], case
        stats.match_ends += 1
    else:
        assert after.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER, case
    stats.deal_ends += 1
    stats.won_by_lapse += len(h_after.discard) == len(h_before.discard)
    stats.queen_finishes += rank_of(last) == "Q" and o.queen_finish_bonus
    stats.busts += sum(model.out) - sum(out_before)
    stats.resets += sum(
        1 for s in range(n) if not out_before[s] and model.totals[s] != totals_before[s] + points[s]
    )
    for s in range(n):
        if out_before[s]:
            continue
        raw = totals_before[s] + points[s]
        stats.reset_100 += raw == 100 and model.totals[s] == 50
        stats.reset_101 += raw == 101 and model.totals[s] == 0
        stats.reset_negative += raw <= -101 and model.totals[s] == 0
        stats.busts_below += raw < -101 and model.out[s]
    stats.all_out_at_once += over and all(model.out)
    stats.shared_wins += len(model.winners) > 1
    stats.winner_out_next_leader += (
        model.out[mover] and not over and o.opening == pb.HUNDRED_AND_ONE_OPENING_LEAD_ANY
    )
    stats.lone_queens += any(
        p != sum(base_value(c) for c in hands[s]) and s != mover for s, p in enumerate(points)
    )


def check_goes_on(before, after, mover: int, case: str) -> None:
    """C7: a play that empties its player's hand ends the deal unless the
    card is a forbidden finishing card (O25, O26) or one he must cover
    himself (C6.5)."""
    o = opts_of(after)
    h_before, h_after = before.hundred_and_one, after.hundred_and_one
    played = len(h_after.discard) == len(h_before.discard) + 1
    if played and len(h_before.hands[mover].cards) == 1 and not h_after.hands[mover].cards:
        last = h_after.discard[-1]
        assert is_forbidden(last, o) or self_cover(last, o), (case, text(last))


def check_next_deal(before, after, case: str, events=()) -> None:
    """C9: totals and eliminations carried over, the next deal number,
    clockwise play (A31), the dealer or leader (A1, A25), seats out of the
    match hold no cards."""
    o = opts_of(after)
    out = [s.eliminated for s in before.seats]
    assert [s.score for s in after.seats] == [s.score for s in before.seats], case
    assert [s.eliminated for s in after.seats] == out, case
    assert after.match.deal_number == before.match.deal_number + 1, case
    assert after.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS, case
    h = after.hundred_and_one
    opener = next_opener(before.hundred_and_one.dealer, before.match.deal_winners[0], out, o)
    if o.opening == pb.HUNDRED_AND_ONE_OPENING_LEAD_ANY:
        assert after.current_seat == opener, (case, after.current_seat, opener)
        assert len(h.discard) == 0, case
        assert not h.reversed, case
    else:
        assert h.dealer == opener, (case, h.dealer, opener)
    for s in range(len(out)):
        if out[s]:
            assert len(h.hands[s].cards) == 0, case
    started = [e for e in events if e.kind == game_pb2.EVENT_KIND_DEAL_STARTED]
    assert len(started) == 1 and started[0].seat == opener, (case, events)


# --- the option tables ---------------------------------------------------------------------

QFB = {"queen_finish_bonus": True}
NOT_Q = ("ACE", "SEVEN", "KING_OF_SPADES", "NINE", "SIX", "EIGHT", "TEN")
TABLES: list[tuple[str, dict, tuple[int, ...]]] = [
    ("hd", {}, (2, 3, 4)),
    ("cl", {}, (2, 3, 4)),
    ("ru", {}, (2, 3, 5)),
    ("alt", {}, (2, 4, 6)),
    # single scoring options
    ("hd", {"kspades_in_hand_40": True}, (2, 3)),
    ("hd", QFB, (2, 4)),
    ("cl", {"queen_finish_bonus": False}, (3,)),
    ("hd", {"lone_queen_penalty": True}, (2, 3)),
    ("hd", {"lone_queen_penalty": True, "lone_queen_scope": "ANY_SINGLE_QUEEN"}, (2, 4)),
    ("ru", {"lone_queen_scope": "ANY_SINGLE_QUEEN"}, (3,)),
    ("ru", {"lone_queen_penalty": False}, (3,)),
    ("hd", {"reset_100_to_50": False}, (3,)),
    ("cl", {"reset_100_to_50": True}, (3,)),
    ("hd", {"exact_101_reset": False}, (3,)),
    ("ru", {"exact_101_reset": False}, (4,)),
    ("hd", {"bust_rule": "FIRST_BUST_ENDS"}, (3, 4)),
    ("cl", {"bust_rule": "ELIMINATE_CONTINUE"}, (3, 4)),
    ("ru", {"bust_rule": "FIRST_BUST_ENDS"}, (4,)),
    ("ru", {"negative_limit": "NONE"}, (3,)),
    ("ru", {"negative_limit": "RESET_EXACT"}, (3,)),
    ("ru", {"negative_limit": "ELIMINATE_BELOW"}, (2, 3, 5)),
    ("hd", {**QFB, "negative_limit": "RESET_AT_OR_BELOW"}, (3,)),
    ("hd", {**QFB, "negative_limit": "ELIMINATE_BELOW"}, (3, 4)),
    # Queen finishes made frequent: most other ranks may not finish
    ("hd", {**QFB, "negative_limit": "ELIMINATE_BELOW", "forbidden_finish": NOT_Q}, (3, 4)),
    ("cl", {"negative_limit": "RESET_EXACT", "forbidden_finish": NOT_Q}, (3,)),
    ("cl", {"negative_limit": "ELIMINATE_BELOW"}, (3, 4)),
    ("cl", {"negative_limit": "RESET_EXACT"}, (3,)),
    ("ru", {"resolve_final_penalty": False}, (3,)),
    ("cl", {"resolve_final_penalty": False}, (3,)),
    ("hd", {"resolve_final_penalty": False}, (2,)),
    ("ru", {"forbidden_finish": ()}, (3,)),
    ("hd", {"forbidden_finish": ("QUEEN", "TEN", "EIGHT", "SIX")}, (3,)),
    ("cl", {"forbidden_finish": ("ACE", "SEVEN", "KING_OF_SPADES")}, (3,)),
    ("ru", {"no_finish_on_nine": True}, (3,)),
    ("ru", {"six_cover_by": "NEXT"}, (3, 4)),
    ("hd", {"ordinary_specials": True}, (3,)),
    ("cl", {"ordinary_specials": True}, (3,)),
    ("ru", {"ordinary_specials": True}, (3,)),
    ("hd", {"eight_last_must_cover": True}, (3,)),
    ("hd", {"transfer_accumulates": True}, (3, 4)),
    ("hd", {"opening": "DEALER_UPCARD"}, (3,)),
    ("ru", {"first_move_any": True}, (3,)),
    ("hd", {"deck_size": 52, "fives_active": True}, (3,)),
    ("alt", {"fives_active": False}, (3,)),
    # combinations
    ("cl", {"bust_rule": "FIRST_BUST_ENDS", "negative_limit": "ELIMINATE_BELOW"}, (3, 4)),
    ("ru", {"bust_rule": "FIRST_BUST_ENDS", "negative_limit": "ELIMINATE_BELOW"}, (3,)),
    (
        "hd",
        {**QFB, "kspades_in_hand_40": True, "lone_queen_penalty": True, "exact_101_reset": False},
        (3,),
    ),
    (
        "alt",
        {"kspades_in_hand_40": True, "reset_100_to_50": True, "negative_limit": "RESET_EXACT"},
        (4, 6),
    ),
    (
        "ru",
        {"reset_100_to_50": True, "exact_101_reset": False, "bust_rule": "FIRST_BUST_ENDS"},
        (3,),
    ),
    ("cl", {"transfer_6_7": True, "transfer_accumulates": True}, (3,)),
    ("ru", {"transfer_6_7": True, "transfer_accumulates": True, "kspades_in_hand_40": True}, (3,)),
]


def valid_start(total: int, o: Opts) -> bool:
    """A total a seat still in the match may hold (RULES.md "What a valid
    state holds"): settled, not a bust, not below the options' floor (the
    floor guessed conservatively: 0 without O18, else −101/−100)."""
    floor = 0
    if o.queen_finish_bonus:
        eliminate = o.negative_limit == pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_ELIMINATE_BELOW
        floor = -101 if eliminate else -100
    return total >= floor and settle(total, o) == (total, False)


TARGETS = (100, 101, 102, 99, 50, 0, -100, -101, -102, -120)


def replay_with_totals(before, mover: int, move, points, rng, case: str, stats: Stats) -> None:
    """Replay the deal's final move from copies of the position with totals
    edited so that the new totals land on the thresholds (exactly 100, 101,
    −101, just past them), on ties, or put every seat out at once; the deal
    points do not depend on the totals, so each copy tests C8 and the match
    end again, and the next deal after it (C9)."""
    o = opts_of(before)
    live = [s for s in range(len(points)) if not before.seats[s].eliminated]
    for plan in range(4 if points[mover] < 0 else 3):
        edited = game_pb2.GameState()
        edited.CopyFrom(before)
        tie = rng.randrange(-30, 100)
        for s in live:
            if plan == 0:
                options = [t - points[s] for t in TARGETS]
            elif plan == 1:  # ties at a surviving total, or just past the top
                options = [tie - points[s], 102 + rng.randrange(3) - points[s]]
            elif plan == 2:  # everybody past a limit
                options = [102 - points[s], 130 - points[s], -102 - points[s]]
            elif s == mover:  # the winner alone below the limit (A1: who leads next)
                options = [-102 - points[s], -110 - points[s]]
            else:
                options = [rng.randrange(0, 60)]
            options = [t for t in options if valid_start(t, o)]
            if options:
                edited.seats[s].score = rng.choice(options)
        try:
            session = Session(edited)
        except InvalidInput:
            continue
        choice = next(m for m in session.legal_moves(mover) if m.move == move)
        events = session.play(choice)
        label = f"{case} replay plan={plan} totals={[s.score for s in edited.seats]}"
        check_deal_end(edited, session.state, mover, label, stats, events)
        stats.replays += 1
        if session.deal_over:
            ended = game_pb2.GameState()
            ended.CopyFrom(session.state)
            events = session.next_deal()
            check_next_deal(ended, session.state, f"{label} next_deal", events)
            stats.next_deals += 1


MAX_MOVES = 600  # per deal; a deal past it is abandoned (not a scoring question)


def run_match(preset: str, options: dict, seats: int, seed: int, stats: Stats) -> None:
    rng = random.Random(seed)
    session = start(preset, seats, seed, options, rng)
    case = f"{preset} {options} seats={seats} seed={seed}"
    moves = 0
    for _deal in range(6):
        while not (session.over or session.deal_over):
            if moves >= MAX_MOVES:
                stats.abandoned += 1
                return
            seat = session.acting_seats[0]
            before = game_pb2.GameState()
            before.CopyFrom(session.state)
            choice = rng.choice(session.legal_moves(seat))
            events = session.play(choice)
            moves += 1
            after = session.state
            if session.over or session.deal_over:
                check_deal_end(before, after, seat, f"{case} move={moves}", stats, events)
                points = list(after.match.deal_points)
                replay_with_totals(
                    before, seat, choice.move, points, rng, f"{case} move={moves}", stats
                )
            else:
                check_goes_on(before, after, seat, f"{case} move={moves}")
        if session.over:
            return
        before = game_pb2.GameState()
        before.CopyFrom(session.state)
        events = session.next_deal()
        stats.next_deals += 1
        check_next_deal(before, session.state, f"{case} next_deal after move={moves}", events)


SEEDS = range(3)


def test_scoring_and_match_agree_with_the_model() -> None:
    stats = Stats()
    t0 = time.perf_counter()
    for preset, options, seat_counts in TABLES:
        for seats in seat_counts:
            for seed in SEEDS:
                run_match(preset, options, seats, seed * 1000 + seats, stats)
    elapsed = time.perf_counter() - t0
    print(stats, f"{elapsed:.2f}s")
    assert stats.deal_ends > 200
    assert stats.match_ends > 20
    assert stats.busts > 20
    assert stats.resets > 5
    for name in (
        "queen_finishes", "final_penalties", "lone_queens", "reset_100", "reset_101",
        "reset_negative", "busts_below", "all_out_at_once", "shared_wins",
        "winner_out_next_leader", "replays",
    ):  # fmt: skip
        assert getattr(stats, name) > 0, name


# --- the model on hand-made totals (no play) --------------------------------------------------


def _o(**kw) -> Opts:
    base = dict(
        effects=pb.HUNDRED_AND_ONE_EFFECTS_RU,
        opening=pb.HUNDRED_AND_ONE_OPENING_DEALER_UPCARD,
        ordinary_specials=False,
        eight_last_must_cover=False,
        kspades_draw=5,
        seven_spades_draw=4,
        kspades_in_hand_40=False,
        queen_finish_bonus=True,
        lone_queen_penalty=True,
        any_single_queen=False,
        reset_100_to_50=False,
        exact_101_reset=True,
        first_bust_ends=False,
        negative_limit=pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_RESET_AT_OR_BELOW,
        forbidden=frozenset(),
        resolve_final_penalty=True,
        six_cover_next=False,
        fives_active=False,
        transfer_accumulates=False,
    )
    base.update(kw)
    return Opts(**base)


def test_model_on_spec_situations() -> None:
    """The model itself on §1.9's scoring situations (101-10, 101-12, 101-13,
    101-36, 101-37)."""
    q = lambda r, s: 1 + 13 * s + RANKS.index(r)  # noqa: E731
    cl = _o(lone_queen_penalty=False, negative_limit=pb.HUNDRED_AND_ONE_NEGATIVE_LIMIT_NONE)
    hand = [q("A", 0), q("9", 1), q("K", 2), q("6", 3), q("J", 1)]
    assert hand_value(hand, cl) == 23  # 101-10
    out = match_after_deal([40, 60, 99], [False] * 3, [0, 2, 3], _o(first_bust_ends=True))
    assert out.match_over and out.winners == [0] and out.out == [False, False, True]  # 101-12
    hd = _o(reset_100_to_50=True)
    assert settle(92 + 8, hd) == (50, False)  # 101-13
    ru = _o()
    assert [hand_value(h, ru) for h in ([q("Q", 2)], [q("Q", 3)], [q("9", 3), q("9", 1)])] == [
        20,
        40,
        0,
    ]  # 101-36
    assert settle(-90 + winner_points(q("Q", 3), ru), ru) == (0, False)  # 101-37
