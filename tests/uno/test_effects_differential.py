"""What UNO moves do, checked against an independent model of the rules.

The model below was written from rules/shedding.md §0 and §2 (with the
clarifications C-UNO-* of §2.15, which take precedence) and from
games/uno/RULES.md (its decisions D*, B*), without reading the game's
implementation. From the position before a move and the move it predicts the
position after it: the seat to act, the phase, the direction, the colour, the
top card, the pending effect, every hand (contents), the stock, the lost
turns, the "UNO!" offender, the end of the round, its points, the totals and
the winners; after NextDeal the dealer, the first player and what the first
card did.

The engine is driven only through `Session` (seeded random playouts of random
acting seats, so that challenges, catches and jump-ins happen). The one thing
taken from the engine is the order of a restocked stock (the shuffle): the
model checks that the new stock and the cards drawn from it hold exactly the
cards R9 / C-UNO-8 say.

The house rules that add state are modelled too: H3 (seven-zero), H5
(silence, reports), H6 (the 5's exchange), H8 (the slap window), H12 (play to
the last: finished seats, placement), H13 (stages and refills), H16 ("Ready"
after a penalty of 4 or more owed) and U16/H17 (misplays, false calls and
catches, which the playouts make on purpose).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from croupier.engine import api
from croupier.engine import uno_cards as uc
from croupier.engine.session import Session
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

KIND, COLOUR, NUMBER = uc.KIND_OF, uc.COLOUR_OF, uc.NUMBER_OF
K = uc.Kind
PLAY, DRAWN, RESPOND = pb.UNO_PHASE_PLAY, pb.UNO_PHASE_DRAWN, pb.UNO_PHASE_RESPOND
NAME_COLOUR, DEAL_OVER = pb.UNO_PHASE_NAME_COLOUR, pb.UNO_PHASE_DEAL_OVER
P2, P4 = pb.UNO_PENDING_KIND_DRAW_TWO, pb.UNO_PENDING_KIND_WILD_DRAW_FOUR
P10, PSKIP = pb.UNO_PENDING_KIND_PLUS_TEN, pb.UNO_PENDING_KIND_SKIP
IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
M_DEAL_OVER, M_OVER = game_pb2.MATCH_PHASE_DEAL_OVER, game_pb2.MATCH_PHASE_MATCH_OVER
R, Y, G, B = uc.RED, uc.YELLOW, uc.GREEN, uc.BLUE
# H9 / B23: clockwise R -> B -> G -> Y -> R; counter-clockwise the reverse.
WHEEL_CW = {R: B, B: G, G: Y, Y: R}
WHEEL_CCW = {v: k for k, v in WHEEL_CW.items()}
DRAW_KINDS = (P2, P4, P10)
TWOS, BLACK = pb.UNO_SILENT_TRIGGER_TWOS, pb.UNO_SILENT_TRIGGER_BLACK


# -- the options, as the model reads them -------------------------------------------------


@dataclass(frozen=True)
class Opts:
    """The resolved table options the model needs (§2.10, §2.11)."""

    n: int
    u3: bool  # +2 deflected by a +2 of any colour
    u4: bool  # W+4 deflected by a +2 of the named colour
    u5: bool  # challenge
    seed_outcome: bool  # U6 SEED (else MATTEL)
    play_drawn: int  # U9
    until_caught: bool  # U10
    penalty: int  # U11
    u12: bool
    u13: bool
    scoring: int  # U14
    target: int
    limit: int
    lazy_rounds: int
    mattel_first: bool  # U1
    wild_return: bool  # U1a
    right_of_dealer: bool  # U2
    h1: bool
    h4: bool
    mixed: bool
    h9: bool
    h11: bool
    h14: bool
    any_zero: bool
    blanks: bool
    h3: bool = False
    h5: int = 0  # 0 off, TWOS, BLACK
    h15: bool = False
    h6: bool = False
    h8: bool = False
    h12: bool = False
    h13: bool = False
    h16: bool = False
    u16: bool = False
    h2: bool = False  # jump in on one's own card

    @staticmethod
    def of(state: game_pb2.GameState) -> Opts:
        o = state.options.uno
        return Opts(
            n=len(state.seats),
            u3=o.draw2_response == pb.UNO_DRAW_TWO_RESPONSE_DEFLECT_ANY_COLOUR,
            u4=o.wd4_response == pb.UNO_WILD_DRAW_FOUR_RESPONSE_DEFLECT_DRAW_TWO_NAMED_COLOUR,
            u5=o.challenge_enabled,
            seed_outcome=o.challenge_outcome == pb.UNO_CHALLENGE_OUTCOME_SEED,
            play_drawn=o.play_drawn,
            until_caught=o.uno_call_timing == pb.UNO_CALL_TIMING_UNTIL_CAUGHT,
            penalty=o.uno_penalty,
            u12=o.two_player_reverse_is_skip,
            u13=o.final_draw_resolution,
            scoring=o.scoring_method,
            target=o.target,
            limit=o.limit,
            lazy_rounds=o.lazy_rounds,
            mattel_first=o.first_card_policy == pb.UNO_FIRST_CARD_POLICY_MATTEL,
            wild_return=o.wild_first_card == pb.UNO_WILD_FIRST_CARD_RETURN,
            right_of_dealer=o.reverse_first_card == pb.UNO_REVERSE_FIRST_CARD_RIGHT_OF_DEALER,
            h1=o.jump_in,
            h2=o.jump_in_own_card,
            h4=o.stacking,
            mixed=o.stack_mixed,
            h9=o.colour_rotation,
            h11=o.reverse_bounce,
            h14=o.zero_worth_50,
            any_zero=o.zero50_scope == pb.UNO_ZERO_SCOPE_ANY_ZERO,
            blanks=o.blank_cards_in_deck,
            h3=o.seven_zero,
            h15=o.h2o_finish_bonus,
            h5=o.silent_trigger if o.silent_trigger in (TWOS, BLACK) else 0,
            h6=o.swap_on_five,
            h8=o.uno_in_centre,
            h12=o.play_to_last,
            h13=o.seven_rounds,
            h16=o.politeness_ready,
            u16=o.misplay_penalty,
        )


def waits(o: Opts, kind: int) -> bool:
    """C-UNO-1 (§0.5): a pending effect waits for an explicit answer only when
    the options give its kind a response: +2 under U3, H4, H11 or H1; W+4
    under U4, U5, H4 or H11; X+10 under H4; Skip under H11 or H1."""
    if kind == P2:
        return o.u3 or o.h4 or o.h11 or o.h1
    if kind == P4:
        return o.u4 or o.u5 or o.h4 or o.h11
    if kind == P10:
        return o.h4
    return o.h11 or o.h1


# -- the model's position -----------------------------------------------------------------


@dataclass
class Track:
    """What the model remembers between moves: its own W+4 snapshot (§2.5)."""

    guilty: bool = False
    colour_before: int = 0


@dataclass
class M:
    """A position as the model sees it (the fields it predicts)."""

    hands: list[list[int]]
    stock: list[int]
    discard: list[int]
    colour: int
    d: int
    phase: int
    current: int
    pk: int
    pc: int
    drawn: int
    top_player: int | None
    offender: int | None
    challengeable: bool
    lost: set[int]
    dealer: int
    scores: list[int]
    deal_number: int
    match_phase: int = IN_PROGRESS
    deal_points: list[int] = field(default_factory=list)
    deal_winners: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    round_loser: int | None = None
    # After a restock the order of the stock is the engine's shuffle: the
    # model then knows the stock only as a multiset (`pool`) and counts the
    # cards each seat drew from it (`unknown`), to be read off the engine.
    pool: Counter[int] | None = None
    unknown: Counter[int] = field(default_factory=Counter)
    restocks: int = 0
    # The house rules' state.
    silence: bool = False
    silence_seat: int | None = None  # H5 TWOS: the seat whose next turn ends it
    slap: tuple[int, list[int]] | None = None  # H8: the caller, the seats that slapped
    swap: tuple[int, int, int] | None = None  # H6: offered by, offered to, the card
    finished: list[int] = field(default_factory=list)  # H12
    stages: list[int] = field(default_factory=list)  # H13
    ready: int | None = None  # H16
    final_w: int | None = None  # the winner while a final W+4 awaits its answer
    # H1's window as the engine's state has it (read, never predicted: the
    # out-of-turn model checks the window itself); it says whether a jump-in
    # is admitted or, under U16, a misplay.
    jump_open: bool = False
    label: int = 0  # H15: the H2O label of the card that emptied the winner's hand


def snapshot(state: game_pb2.GameState) -> M:
    """The engine's position, read into the model's terms."""
    u = state.uno
    return M(
        hands=[list(h.cards) for h in u.hands],
        stock=list(u.stock),
        discard=list(u.discard),
        colour=u.colour,
        d=-1 if u.reversed else 1,
        phase=u.phase,
        current=state.current_seat,
        pk=u.pending_kind,
        pc=u.pending_count,
        drawn=u.drawn_card,
        top_player=u.top_player if u.HasField("top_player") else None,
        offender=u.uno_offender if u.HasField("uno_offender") else None,
        challengeable=u.challengeable,
        lost=set(u.turn_lost),
        dealer=u.dealer,
        scores=[s.score for s in state.seats],
        deal_number=state.match.deal_number,
        match_phase=state.match.phase,
        deal_points=list(state.match.deal_points),
        deal_winners=list(state.match.deal_winners),
        winners=list(state.match.winners),
        round_loser=u.round_loser,
        silence=u.silence,
        silence_seat=u.silence_seat if u.HasField("silence_seat") else None,
        slap=(u.slap.caller, list(u.slap.slapped)) if u.HasField("slap") else None,
        swap=(
            (u.card_swap.offered_by, u.card_swap.offered_to, u.card_swap.card)
            if u.HasField("card_swap")
            else None
        ),
        finished=list(u.finished),
        stages=list(u.stages),
        ready=u.ready_seat if u.HasField("ready_seat") else None,
        label=u.finishing_label,
    )


def read(state: game_pb2.GameState, o: Opts) -> M:
    """The engine's position, with what the model infers from it: a final
    W+4 awaits its answer when its player's hand is empty (R10) and, under
    H12, nobody else but its target still holds cards."""
    m = snapshot(state)
    m.jump_open = state.uno.jump_in_open
    w = m.top_player
    if m.phase == RESPOND and m.pk == P4 and w is not None and not m.hands[w]:
        if not o.h12:
            m.final_w = w
        elif len(in_round(m)) <= 1:
            m.final_w = m.finished[0]
    return m


def nxt(m: M, p: int) -> int:
    """§0.4 next(p): the next seat in the direction of play that is still in
    the round (H12: finished seats are left out)."""
    n = len(m.hands)
    q = (p + m.d) % n
    while q in m.finished and q != p:
        q = (q + m.d) % n
    return q


def in_round(m: M) -> list[int]:
    """The seats still in the round (H12)."""
    return [i for i in range(len(m.hands)) if i not in m.finished]


def penalty(m: M, o: Opts, p: int, k: int) -> None:
    """A penalty draw of `k` (a pending effect, a challenge, a catch, a
    slap, a report, a misplay): the drawn card of phase DRAWN is kept; H16
    (C-UNO-10, RULES.md H16): a penalty of 4 or more owed waits for READY,
    however many cards the stock let him draw."""
    drawn = m.drawn
    draw(m, p, k)
    m.drawn = drawn
    if o.h16 and k >= 4:
        m.ready = p


# -- drawing and restocking -----------------------------------------------------------------


def restock(m: M) -> None:
    """R9, §2.7, C-UNO-8: every discard but the top (and the card under a W+4
    that can still be challenged) is shuffled into the new stock; a Wild
    loses its colour (cards carry none here)."""
    keep = 2 if m.challengeable else 1
    m.pool = Counter(m.discard[:-keep])
    m.discard = m.discard[-keep:]
    m.stock = []
    m.restocks += 1


def draw(m: M, p: int, k: int) -> int:
    """§0.5 DRAW(p, k): one card at a time from the stock's top, restocking
    when it is empty; when both are empty the rest is forfeited (B29).
    Returns the number of cards drawn."""
    got = 0
    for _ in range(k):
        if m.pool is None and not m.stock:
            restock(m)
        if m.pool is not None:
            left = sum(m.pool.values()) - sum(m.unknown.values())
            if left <= 0:
                break
            m.unknown[p] += 1
            m.drawn = -1  # known only once read off the engine
        else:
            m.drawn = m.stock.pop(0)
            m.hands[p].append(m.drawn)
        got += 1
    return got


def resolve_shuffle(m: M, engine: M, problems: list[str]) -> None:
    """Take the cards drawn from a restocked stock off the engine's hands,
    checking that they came from the restocked cards (R9)."""
    if m.pool is None:
        return
    for p, k in sorted(m.unknown.items()):
        diff = Counter(engine.hands[p]) - Counter(m.hands[p])
        if sum(diff.values()) != k or diff - m.pool:
            problems.append(
                f"restock: seat {p} drew {sorted(diff.elements())}, expected {k} of the pool"
            )
        m.hands[p] += list(diff.elements())
        m.pool -= diff
        if m.drawn == -1 and len(diff) == 1:
            m.drawn = next(iter(diff))
    m.unknown.clear()


# -- the turn -------------------------------------------------------------------------------


def give_turn(m: M, o: Opts, to: int, kind: int = 0, count: int = 0) -> None:
    """R5, R6, C-UNO-1, D3: the turn goes to `to`, with a pending effect of
    `kind` aimed at it or none. An effect that waits puts `to` in RESPOND;
    one without answer resolves at once (draw `count`, skipped). A lost turn
    (U6 SEED) is consumed by the seat's next turn of any kind: a normal turn
    is skipped, an effect aimed at it resolves as if accepted (D3), a skip
    consumes both."""
    m.drawn = 0
    if o.h5 == TWOS and m.silence and m.silence_seat == to:
        # C-UNO-10: the 2's player's next turn begins (to play, as a target,
        # or lost to a skip).
        m.silence, m.silence_seat = False, None
    if kind:
        if waits(o, kind) and to not in m.lost:
            m.phase, m.current, m.pk, m.pc = RESPOND, to, kind, count
            return
        m.lost.discard(to)
        m.challengeable = False  # accepted / resolved at once (C-UNO-8)
        m.pk = m.pc = 0
        if kind != PSKIP:
            penalty(m, o, to, count)
        give_turn(m, o, nxt(m, to))
        return
    m.pk = m.pc = 0
    if to in m.lost:
        m.lost.discard(to)
        give_turn(m, o, nxt(m, to))
        return
    m.phase, m.current = PLAY, to


# -- playing a card ---------------------------------------------------------------------------


def named_colour(m: M, o: Opts, chosen: int) -> int:
    """§2.4 W/W+4/X+10: its player names a colour; H9 (B23): the next colour
    on the wheel in the direction of play instead."""
    if o.h9:
        return (WHEEL_CW if m.d == 1 else WHEEL_CCW)[m.colour]
    return chosen


def play_card(
    m: M,
    o: Opts,
    t: Track,
    p: int,
    card: int,
    chosen: int,
    uno: bool,
    swap_with: int | None = None,
    give: int = 0,
    label: int = 0,
) -> None:
    """§2.4 (and H1 for a jump-in, which is played "as if on the jumper's own
    turn; play continues from the jumper", B16): the card lands, its colour
    becomes current, the UNO duty (§2.6) and H8's window, H5's silence, an
    emptied hand (H13's refill, H12's finish, or the round end §2.8, R10),
    H3's and H6's exchanges, then the card's effect on the turn."""
    before_kind, before_count = m.pk, m.pc
    colour_before = m.colour
    hand = m.hands[p]
    hand.remove(card)
    m.discard.append(card)
    m.top_player = p
    m.challengeable = False
    m.pk = m.pc = 0
    m.drawn = 0
    kind = KIND[card]
    number = NUMBER[card] if kind == K.NUMBER else -1
    m.colour = named_colour(m, o, chosen) if uc.is_black(card) else COLOUR[card]
    # §2.6 / R8: a second-to-last card played without the call opens a catch window.
    m.offender = p if len(hand) == 1 and not uno else None
    if o.h8 and len(hand) == 1 and uno:
        m.slap = (p, [])  # H8: with the call, the slap window instead
    if o.h5 == BLACK and m.silence and m.colour != colour_before:
        m.silence = False  # C-UNO-10: the colour changed
    if o.h5 == BLACK and kind in (K.WILD, K.WILD_DRAW_FOUR):
        m.silence = True
    if o.h5 == TWOS and number == 2:
        m.silence, m.silence_seat = True, p  # B19: a newer 2 moves the end to its player
    stacked = o.h4 and before_kind in DRAW_KINDS
    if kind == K.WILD_DRAW_FOUR:
        # §2.5: guilty iff the rest of the hand held the colour current before it.
        t.guilty = any(COLOUR[c] == colour_before for c in hand)
        t.colour_before = colour_before
    if not hand:
        if o.h13 and m.stages[p] > 1:
            # H13: the hand is refilled with k - 1 cards, then the card acts;
            # a restock keeps the card under a W+4 that can be challenged (C-UNO-8).
            m.challengeable = kind == K.WILD_DRAW_FOUR and o.u5
            draw(m, p, m.stages[p] - 1)
            m.challengeable = False
            m.stages[p] -= 1
            m.drawn = 0
        elif o.h12 and len(in_round(m)) > 2:
            m.finished.append(p)  # H12: he leaves; his card still acts
        else:
            if o.h12:
                m.finished.append(p)
            m.label = label  # H15 (C-UNO-7): counted when the round is scored
            final_card(m, o, t, p, kind, before_kind, before_count, stacked)
            return
    left = p in m.finished
    if o.h3 and number == 7 and swap_with is not None:
        exchange(m, {p: swap_with, swap_with: p})  # H3: whole hands
    if o.h3 and number == 0 and not left:
        exchange(m, {i: nxt(m, i) for i in in_round(m)})  # H3: each to next(i)
    if o.h6 and number == 5 and swap_with is not None:
        m.swap = (p, swap_with, give)  # H6: waits for the other seat's card
    if kind == K.SKIP:
        give_turn(m, o, nxt(m, p), PSKIP)
    elif kind == K.REVERSE:
        m.d = -m.d
        if before_kind:
            # H11 bounce (B17, count unchanged) or a Reverse jumped in on a
            # pending effect (H1, B16): the same effect goes on to next(p).
            give_turn(m, o, nxt(m, p), before_kind, before_count)
        elif len(in_round(m)) == 2 and o.u12:
            give_turn(m, o, nxt(m, p), PSKIP)  # U12, C-UNO-5, R12 (two left under H12)
        else:
            give_turn(m, o, nxt(m, p))
    elif kind == K.DRAW_TWO:
        give_turn(m, o, nxt(m, p), P2, 2 + (before_count if stacked else 0))  # U3 / H4
    elif kind == K.WILD_DRAW_FOUR:
        m.challengeable = o.u5  # §2.5: only a challenge can still take it back
        give_turn(m, o, nxt(m, p), P4, 4 + (before_count if stacked else 0))  # H4
    elif kind == K.BLANK:
        give_turn(m, o, nxt(m, p), P10, 10 + (before_count if stacked else 0))  # H10, H4
    else:
        give_turn(m, o, nxt(m, p))


def exchange(m: M, to: dict[int, int]) -> None:
    """H3: the hand of each seat `i` goes to `to[i]` (with the count of the
    cards it drew from a restocked stock, still to be read off the engine)."""
    hands, unknown = list(m.hands), Counter(m.unknown)
    for i, j in to.items():
        m.hands[j] = hands[i]
        m.unknown[j] = unknown[i]


def final_card(
    m: M, o: Opts, t: Track, p: int, kind: int, before_kind: int, before_count: int, stacked: bool
) -> None:
    """§2.8 / R10 / U13 / B32 / D16: the round ends with the play that empties
    a hand; a final draw card (or a Reverse bouncing one) still makes its
    target draw the whole count, without answer; a final W+4 waits for its
    target to accept or challenge when U5 is on (the challenge fails, B11).
    H12: the round ends when one seat is left holding cards; the first to
    finish wins."""
    winner = m.finished[0] if o.h12 else p
    count, target_kind = 0, 0
    if kind == K.DRAW_TWO:
        count, target_kind = 2 + (before_count if stacked else 0), P2
    elif kind == K.WILD_DRAW_FOUR:
        count, target_kind = 4 + (before_count if stacked else 0), P4
        t.guilty = False
    elif kind == K.BLANK:
        count, target_kind = 10 + (before_count if stacked else 0), P10
    elif kind == K.REVERSE:
        m.d = -m.d
        if before_kind in DRAW_KINDS:
            count, target_kind = before_count, before_kind
    if target_kind and o.u13:
        target = nxt(m, p)
        if target_kind == P4 and o.u5 and target not in m.lost and kind == K.WILD_DRAW_FOUR:
            m.challengeable = True
            m.phase, m.current, m.pk, m.pc = RESPOND, target, P4, count
            m.final_w = winner
            return
        m.lost.discard(target)
        draw(m, target, count)
    end_round(m, o, winner)


# -- the round's end ------------------------------------------------------------------------


def card_value(card: int) -> int:
    """§2.1: numbers their face, Skip/Reverse/+2 20, black cards 50 (B24)."""
    return NUMBER[card] if KIND[card] == K.NUMBER else 20 if not uc.is_black(card) else 50


def hand_value(o: Opts, hand: list[int]) -> int:
    """§2.8 with H14 (B27): a hand of exactly one 0 is worth 50; ANY_ZERO:
    every 0."""
    if o.h14:
        if o.any_zero:
            return sum(50 if NUMBER[c] == 0 else card_value(c) for c in hand)
        if len(hand) == 1 and NUMBER[hand[0]] == 0:
            return 50
    return sum(card_value(c) for c in hand)


def end_round(m: M, o: Opts, w: int) -> None:
    """§2.8 / R11: WINNER_COLLECTS (the winner scores the others' hands; the
    match ends at `target`), PENALTY_LIMIT (each his own hand, B30: all at
    `limit` lose, the others win; H15: a finishing card labelled "+1" takes
    20 off the winner's total, wild "+2" 40, C-UNO-7) or LAZY (H7, D11: round wins, `lazy_rounds`;
    the loser is the highest hand, B21 ties to the nearest clockwise from
    the winner)."""
    m.phase, m.pk, m.pc, m.drawn, m.offender = DEAL_OVER, 0, 0, 0, None
    m.challengeable = False
    m.final_w = None
    m.silence, m.silence_seat, m.slap, m.swap, m.ready = False, None, None, None, None
    n = len(m.hands)
    values = [hand_value(o, h) for h in m.hands]
    m.deal_winners = [w]
    if o.scoring == pb.UNO_SCORING_METHOD_WINNER_COLLECTS:
        gain = sum(values)
        m.deal_points = [gain if i == w else 0 for i in range(n)]
        m.scores[w] += gain
        over = m.scores[w] >= o.target
        m.winners = [w] if over else []
    elif o.scoring == pb.UNO_SCORING_METHOD_PENALTY_LIMIT:
        if o.h15:
            values[w] = {1: -20, 2: -40}.get(m.label, 0)
        m.deal_points = values
        m.scores = [s + v for s, v in zip(m.scores, values, strict=True)]
        over = any(s >= o.limit for s in m.scores)
        m.winners = [i for i in range(n) if m.scores[i] < o.limit] if over else []
    else:
        m.deal_points = values
        m.scores[w] += 1
        order = [(w + k) % n for k in range(1, n)]
        m.round_loser = max(order, key=lambda i: (values[i], -order.index(i)))
        if o.h12:
            m.round_loser = in_round(m)[0]  # B25: the last holder
        over = m.deal_number >= o.lazy_rounds
        best = max(m.scores)
        m.winners = [i for i in range(n) if m.scores[i] == best] if over else []
    m.match_phase = M_OVER if over else M_DEAL_OVER


# -- a move -----------------------------------------------------------------------------------


def predict(m: M, o: Opts, t: Track, seat: int, move: pb.UnoMove, misplay: bool = False) -> M:
    """The position after `seat` makes `move` (changes `m` in place).
    `misplay`: a card the model holds illegal here, played under U16."""
    action = move.WhichOneof("action")
    if misplay:
        # H17 / B33 / D5: the card stays, its player draws 2, his turn goes
        # on; no window opens or closes.
        penalty(m, o, seat, 2)
    elif action in ("play", "jump_in", "draw", "accept", "challenge"):
        m.offender = None  # C-UNO-4: the catch window closes
    if misplay:
        pass
    elif action in ("play", "jump_in"):
        p = getattr(move, action)
        swap_with = p.swap_with if p.HasField("swap_with") else None
        false_call = p.uno and len(m.hands[seat]) != 2  # U16: accepted only so
        play_card(m, o, t, seat, p.card, p.colour, p.uno, swap_with, p.give, p.h2o_label)
        if false_call and m.hands[seat] and m.match_phase == IN_PROGRESS:
            penalty(m, o, seat, 2)  # H17, D17: "UNO!" with another card than the 2nd-to-last
    elif action == "draw":
        # R4 / U9: the drawn card may be played (phase DRAWN) unless NEVER;
        # a draw that finds nothing ends the turn.
        got = draw(m, seat, 1)
        if not got or o.play_drawn == pb.UNO_PLAY_DRAWN_NEVER:
            give_turn(m, o, nxt(m, seat))
        else:
            m.phase = DRAWN
    elif action == "pass":
        give_turn(m, o, nxt(m, seat))
    elif action == "accept":
        accept(m, o, seat)
    elif action == "challenge":
        challenge(m, o, t, seat)
    elif action == "catch":
        # §2.6 / U11: the offender draws the penalty; the window closes.
        # U16/H17: a false catch costs its maker 2.
        if move.catch.seat == m.offender:
            m.offender = None
            penalty(m, o, move.catch.seat, o.penalty)
        else:
            penalty(m, o, seat, 2)
    elif action == "call_uno":
        if seat == m.offender and o.until_caught:
            m.offender = None  # U10 UNTIL_CAUGHT: a late call protects
        else:
            penalty(m, o, seat, 2)  # U16, C-UNO-11: a false call
    elif action == "name_colour":
        m.colour, m.phase = move.name_colour.colour, PLAY  # U1a
    elif action == "slap":
        # H8 / D8: the last of the others to slap draws 2; the window closes.
        assert m.slap is not None
        caller, slapped = m.slap
        slapped.append(seat)
        if set(in_round(m)) - {caller} <= set(slapped):
            m.slap = None
            penalty(m, o, seat, 2)
    elif action == "slap_time_up":
        # B22: every seat that has not slapped draws 2.
        assert m.slap is not None
        caller, slapped = m.slap
        m.slap = None
        for i in in_round(m):
            if i != caller and i not in slapped:
                penalty(m, o, i, 2)
    elif action == "report_silence":
        # H5: the reported seat draws 2 and the silence ends.
        m.silence, m.silence_seat = False, None
        penalty(m, o, move.report_silence.seat, 2)
    elif action == "give":
        # H6 / B20: the two cards change hands.
        assert m.swap is not None
        by, to, card = m.swap
        m.swap = None
        m.hands[to].remove(move.give.card)
        m.hands[by].append(move.give.card)
        m.hands[by].remove(card)
        m.hands[to].append(card)
    elif action == "ready":
        m.ready = None  # H16
    else:
        raise AssertionError(f"move outside the model: {action}")
    if m.offender is not None and m.pool is None and len(m.hands[m.offender]) != 1:
        m.offender = None  # D6
    return m


def accept(m: M, o: Opts, seat: int) -> None:
    """§2.3.3: ACCEPT draws the pending count and is skipped; after a final
    W+4 the round then ends (R10)."""
    kind, count = m.pk, m.pc
    m.challengeable = False
    m.pk = m.pc = 0
    if kind != PSKIP:
        penalty(m, o, seat, count)
    if m.final_w is not None:
        end_round(m, o, m.final_w)
    else:
        give_turn(m, o, nxt(m, seat))


def challenge(m: M, o: Opts, t: Track, seat: int) -> None:
    """§2.5, U6, H4: guilty under SEED — the W+4 back to its player, top and
    colour revert, he draws T and loses his next turn, the challenger plays
    normally; guilty under MATTEL — he draws T, the card stays, the
    challenger plays normally; innocent — the challenger draws T + 2 and is
    skipped. A final W+4 is always innocent (B11)."""
    total, w = m.pc, m.top_player
    assert w is not None
    m.challengeable = False
    m.pk = m.pc = 0
    final = m.final_w
    if t.guilty and final is None:
        if o.seed_outcome:
            m.hands[w].append(m.discard.pop())
            if o.h5 == BLACK and m.colour != t.colour_before:
                m.silence = False  # C-UNO-10: the revert changes the colour
            m.colour = t.colour_before
            m.top_player = None
            penalty(m, o, w, total)
            m.lost.add(w)
        else:
            penalty(m, o, w, total)
        m.phase, m.current, m.drawn = PLAY, seat, 0
        return
    penalty(m, o, seat, total + 2)
    if final is not None:
        end_round(m, o, final)
    else:
        give_turn(m, o, nxt(m, seat))


# -- NextDeal ---------------------------------------------------------------------------------


def predict_deal(before: M, o: Opts, after: M) -> list[str]:
    """R2 / §2.2 / U1, U1a, U2, B6, D9, H7: the next dealer (clockwise, or
    the LAZY loser), the first player (the dealer's left, or the LAZY
    winner), the first card and what it does; seven cards each; the deck
    whole; totals unchanged."""
    problems: list[str] = []
    n = len(before.hands)
    lazy = o.scoring == pb.UNO_SCORING_METHOD_LAZY
    dealer = before.round_loser if lazy else (before.dealer + 1) % n
    first = before.deal_winners[0] if lazy else (dealer + 1) % n
    first_card = after.discard[-1] if after.discard else 0
    sizes, d, current, phase = [7] * n, 1, first, PLAY
    colour = COLOUR[first_card]
    kind = KIND[first_card]
    if not o.mattel_first:
        if kind != K.NUMBER:
            problems.append(f"NUMBER_ONLY first card {uc.uno_card_text(first_card)}")
    elif kind in (K.WILD_DRAW_FOUR, K.BLANK) or (kind == K.WILD and o.wild_return):
        problems.append(f"returned first card kept {uc.uno_card_text(first_card)}")
    elif kind == K.SKIP:
        current = (first + 1) % n
    elif kind == K.DRAW_TWO:
        sizes[first] += 2
        current = (first + 1) % n
    elif kind == K.REVERSE:
        d = -1
        # U2; D9: with two players under U12 the dealer plays first whatever U2 says.
        current = (dealer - 1) % n if o.right_of_dealer and not (n == 2 and o.u12) else dealer
    elif kind == K.WILD:
        phase, colour = NAME_COLOUR, 0
    expect = {
        "dealer": dealer,
        "sizes": sizes,
        "d": d,
        "current": current,
        "phase": phase,
        "colour": colour,
        "discard": 1,
        "pending": (0, 0),
        "lost": set(),
        "offender": None,
        "scores": before.scores,
        "deal_number": before.deal_number + 1,
        "match_phase": IN_PROGRESS,
        "house": (False, None, None, None, [], [7] * n if o.h13 else [], None),
    }
    got = {
        "dealer": after.dealer,
        "sizes": [len(h) for h in after.hands],
        "d": after.d,
        "current": after.current,
        "phase": after.phase,
        "colour": after.colour,
        "discard": len(after.discard),
        "pending": (after.pk, after.pc),
        "lost": after.lost,
        "offender": after.offender,
        "scores": after.scores,
        "deal_number": after.deal_number,
        "match_phase": after.match_phase,
        "house": (
            after.silence,
            after.silence_seat,
            after.slap,
            after.swap,
            after.finished,
            after.stages,
            after.ready,
        ),
    }
    for key, value in expect.items():
        if got[key] != value:
            problems.append(f"{key}: engine {got[key]!r}, model {value!r}")
    cards = Counter(after.stock) + Counter(after.discard)
    for h in after.hands:
        cards += Counter(h)
    if cards != Counter(uc.uno_deck(o.blanks)):
        problems.append("the deal does not hold the deck")
    return problems


# -- comparison -------------------------------------------------------------------------------


def compare(model: M, engine: M) -> list[str]:
    """Every predicted field the engine disagrees on."""
    problems: list[str] = []

    def check(name: str, mine: object, theirs: object) -> None:
        if mine != theirs:
            problems.append(f"{name}: engine {theirs!r}, model {mine!r}")

    resolve_shuffle(model, engine, problems)
    check("match_phase", model.match_phase, engine.match_phase)
    check("phase", model.phase, engine.phase)
    for i, (a, b) in enumerate(zip(model.hands, engine.hands, strict=True)):
        check(f"hand {i}", sorted(a), sorted(b))
    if model.pool is None:
        check("stock", model.stock, engine.stock)
    else:
        check("stock (restocked)", model.pool, Counter(engine.stock))
    check("discard", model.discard, engine.discard)
    check("scores", model.scores, engine.scores)
    check("finished", model.finished, engine.finished)
    check("stages", model.stages, engine.stages)
    if model.phase == DEAL_OVER:
        check("deal_points", model.deal_points, engine.deal_points)
        check("deal_winners", model.deal_winners, engine.deal_winners)
        check("winners", model.winners, engine.winners)
        if model.round_loser is not None:
            check("round_loser", model.round_loser, engine.round_loser)
        return problems
    check("current", model.current, engine.current)
    check("direction", model.d, engine.d)
    check("colour", model.colour, engine.colour)
    check("pending", (model.pk, model.pc), (engine.pk, engine.pc))
    check("lost", model.lost, engine.lost)
    check("offender", model.offender, engine.offender)
    check("challengeable", model.challengeable, engine.challengeable)
    if model.phase == DRAWN:
        check("drawn", model.drawn, engine.drawn)
    check("silence", model.silence, engine.silence)
    check("silence_seat", model.silence_seat, engine.silence_seat)
    check("slap", model.slap, engine.slap)
    check("swap", model.swap, engine.swap)
    check("ready", model.ready, engine.ready)
    check("finishing_label", model.label, engine.label)
    return problems


# -- the tables and the playouts --------------------------------------------------------------

TABLES: list[tuple[str, dict[str, object]]] = [
    ("seed", {"target": 150}),
    ("mattel", {"target": 150}),
    ("seed", {"stacking": True, "target": 150}),
    ("seed", {"stack_mixed": True, "reverse_bounce": True, "target": 150}),
    ("mattel", {"stacking": True, "stack_mixed": True, "target": 150}),
    ("seed", {"reverse_bounce": True, "target": 150}),
    ("mattel", {"reverse_bounce": True, "target": 150}),
    ("seed", {"jump_in": True, "target": 150}),
    ("seed", {"jump_in_own_card": True, "stacking": True, "target": 150}),
    ("mattel", {"jump_in": True, "reverse_bounce": True, "target": 150}),
    ("seed", {"colour_rotation": True, "target": 150}),
    ("mattel", {"colour_rotation": True, "stacking": True, "target": 150}),
    ("seed", {"plus_ten": True, "stacking": True, "target": 150}),
    ("seed", {"plus_ten": True, "target": 150}),
    ("seed", {"scoring_method": "PENALTY_LIMIT", "limit": 60}),
    ("seed", {"h2o_finish_bonus": True, "limit": 60, "zero_worth_50": True}),
    ("mattel", {"scoring_method": "PENALTY_LIMIT", "limit": 60, "zero_worth_50": True,
                "zero50_scope": "ANY_ZERO"}),
    ("seed", {"scoring_method": "LAZY", "lazy_rounds": 3}),
    ("seed", {"scoring_method": "LAZY", "lazy_rounds": 3, "zero_worth_50": True}),
    ("mattel", {"wild_first_card": "RETURN", "reverse_first_card": "RIGHT_OF_DEALER",
                "target": 150}),
    ("mattel", {"two_player_reverse_is_skip": False, "target": 150}),
    ("seed", {"wd4_enforcement": "STRICT", "target": 150}),
    ("seed", {"challenge_enabled": False, "wd4_response": "NONE", "draw2_response": "NONE",
              "target": 150}),
    ("seed", {"challenge_outcome": "MATTEL", "uno_penalty": 4, "target": 150}),
    ("mattel", {"challenge_outcome": "SEED", "uno_call_timing": "DURING_PLAY", "target": 150}),
    ("seed", {"voluntary_draw": False, "play_drawn": "MUST", "target": 150}),
    ("seed", {"play_drawn": "NEVER", "final_draw_resolution": False, "target": 150}),
    ("mattel", {"play_drawn": "NEVER", "uno_call_timing": "UNTIL_CAUGHT", "target": 150}),
    ("seed", {"final_draw_resolution": False, "stacking": True, "target": 150}),
    ("seed", {"jump_in": True, "reverse_bounce": True, "stacking": True, "stack_mixed": True,
              "colour_rotation": True, "target": 150}),
]  # fmt: skip

# The house rules that add state (H3, H5, H6, H8, H12, H13, H16, U16), each
# alone and together as §2.12 allows (H12 with LAZY scoring, C-UNO-6).
HOUSE_TABLES: list[tuple[str, dict[str, object]]] = [
    ("seed", {"seven_zero": True, "target": 150}),
    ("mattel", {"seven_zero": True, "jump_in": True, "target": 150}),
    ("seed", {"silent_trigger": "TWOS", "target": 150}),
    ("seed", {"silent_trigger": "BLACK", "target": 150}),
    ("mattel", {"silent_trigger": "TWOS", "target": 150}),
    ("seed", {"silent_trigger": "TWOS", "stacking": True, "reverse_bounce": True, "target": 150}),
    ("mattel", {"silent_trigger": "BLACK", "colour_rotation": True, "target": 150}),
    ("seed", {"swap_on_five": True, "target": 150}),
    ("seed", {"uno_in_centre": True, "target": 150}),
    ("mattel", {"uno_in_centre": True, "target": 150}),
    ("seed", {"play_to_last": True, "lazy_rounds": 3}),
    ("mattel", {"play_to_last": True, "scoring_method": "LAZY", "lazy_rounds": 3}),
    ("seed", {"seven_rounds": True, "target": 150}),
    ("seed", {"politeness_ready": True, "stacking": True, "target": 150}),
    ("mattel", {"politeness_ready": True, "uno_penalty": 4, "target": 150}),
    ("seed", {"misplay_penalty": True, "target": 150}),
    ("mattel", {"misplay_penalty": True, "target": 150}),
    ("seed", {"play_to_last": True, "seven_rounds": True, "seven_zero": True, "lazy_rounds": 3}),
    ("seed", {"seven_zero": True, "silent_trigger": "TWOS", "swap_on_five": True,
              "uno_in_centre": True, "play_to_last": True, "seven_rounds": True,
              "politeness_ready": True, "misplay_penalty": True, "stacking": True,
              "jump_in": True, "lazy_rounds": 3}),
    ("mattel", {"seven_zero": True, "silent_trigger": "BLACK", "swap_on_five": True,
                "uno_in_centre": True, "politeness_ready": True, "misplay_penalty": True,
                "reverse_bounce": True, "uno_penalty": 4, "target": 150}),
]  # fmt: skip

MOVES_PER_TABLE = 300
# What the playouts exercised (read by the coverage test below).
SEEN: Counter[str] = Counter()


def run_table(
    preset: str,
    options: dict[str, object],
    seed: int,
    moves: int,
    seats: int = 0,
    edit: Callable[[game_pb2.GameState], None] | None = None,
) -> tuple[int, int]:
    """Plays `moves` random moves of random acting seats, comparing the model
    with the engine after each move and each NextDeal. Returns the number of
    moves and deals compared."""
    rng = random.Random(seed)
    seats = seats or 2 + seed % 4
    s = Session.new("uno", preset=preset, seat_count=seats, seed=seed, options=options)
    if edit is not None:
        # A first deal changed by `edit` into a position playouts rarely
        # reach (a valid state: Session checks it in full).
        state = s.state
        edit(state)
        s = Session(state)
    o = Opts.of(s.state)
    t = Track()
    compared = deals = 0
    for number in range(moves):
        if s.over:
            break
        before = read(s.state, o)
        if s.deal_over:
            s.next_deal()
            problems = predict_deal(before, o, snapshot(s.state))
            assert not problems, (preset, options, seed, number, "NextDeal", problems)
            deals += 1
            SEEN["next deal"] += 1
            continue
        listed = [(seat, s.legal_moves(seat)) for seat in s.acting_seats]
        listed = [(seat, ms) for seat, ms in listed if ms]
        seat, ms = rng.choice(listed)
        if before.silence and rng.random() < 0.8:
            # H5: every seat may report; mostly the seat to act, so that a
            # silence lives long enough to end by itself.
            seat, ms = next(((i, x) for i, x in listed if i == before.current), (seat, ms))
        # Mostly a card when there is one, so that rounds and matches end.
        cards = [m for m in ms if m.move.uno.WhichOneof("action") in ("play", "jump_in")]
        if o.u16 and rng.random() < 0.85:
            # U16 lists every card: mostly one the rules allow, so that rounds end.
            cards = [c for c in cards if allowed_choice(before, o, seat, c)]
        choice = rng.choice(cards if cards and rng.random() < 0.8 else ms)
        wrong = misplay(before, o, rng, seat, ms) if o.u16 and rng.random() < 0.03 else None
        playing = action_of(choice) in ("play", "jump_in")
        if o.u16 and wrong is None and playing and not allowed_choice(before, o, seat, choice):
            wrong = choice.move  # listed under U16, forbidden by the rules
        listed_wrong = wrong is choice.move
        if wrong is not None:
            action = wrong.uno.WhichOneof("action")
            SEEN[f"misplay {action}"] += 1
            model = predict(before, o, t, seat, wrong.uno, misplay=True)
            if listed_wrong:
                s.play(choice)
            else:
                s.apply(wrong)
            problems = compare(model, snapshot(s.state))
            assert not problems, (preset, options, seed, number, "misplay", seat, problems)
            api.check_state(s.state)  # every answer is a state the engine takes back
            compared += 1
            continue
        action = choice.move.uno.WhichOneof("action")
        SEEN[action] += 1
        SEEN[house_seen(before, o, seat, choice.move.uno)] += 1
        if action == "challenge":
            SEEN["challenge guilty" if t.guilty else "challenge innocent"] += 1
        if action == "play" and before.phase == RESPOND:
            SEEN["answer " + uc.uno_card_text(choice.move.uno.play.card)[1:]] += 1
        before_finished, before_stages = list(before.finished), list(before.stages)
        before_ready, before_slap = before.ready is not None, before.slap is not None
        model = predict(before, o, t, seat, choice.move.uno)
        SEEN["restock"] += model.restocks
        if model.phase == DEAL_OVER:
            SEEN["round end"] += 1
            SEEN["H12 round end"] += o.h12
            SEEN["H13 stage-1 win"] += o.h13
            SEEN["match end"] += model.match_phase == M_OVER
        if model.lost:
            SEEN["lost turn pending"] += 1
        SEEN["H12 finished"] += len(model.finished) > len(before_finished)
        SEEN["H13 refill"] += sum(model.stages) < sum(before_stages)
        SEEN["H16 ready awaited"] += model.ready is not None and not before_ready
        SEEN["H8 window"] += model.slap is not None and not before_slap
        s.play(choice)
        problems = compare(model, snapshot(s.state))
        assert not problems, (preset, options, seed, number, choice.notation, seat, problems)
        api.check_state(s.state)  # every answer is a state the engine takes back
        compared += 1
    return compared, deals


def legal_in_play(m: M, card: int) -> bool:
    """R3: a coloured card on the top card in the current colour."""
    top = m.discard[-1]
    if uc.is_black(card) or COLOUR[card] == m.colour:
        return True
    if uc.is_black(top):
        return False
    if KIND[top] == K.NUMBER:
        return KIND[card] == K.NUMBER and NUMBER[card] == NUMBER[top]
    return KIND[card] == KIND[top]


def allowed(m: M, o: Opts, seat: int, action: str, card: int) -> bool:
    """Whether the rules let `seat` play `card` now (for U16, where the
    engine lists every card and a forbidden one is a misplay; the U16
    tables leave U7 at CHALLENGE_ONLY): R3 on one's turn, only the drawn card after a draw
    (R4, U9), the answers of R6 to a pending effect (U3, U4, H1, H4, H11),
    a card identical to the top for a jump-in (H1, B35)."""
    top = m.discard[-1]
    kind, colour = KIND[card], COLOUR[card]
    if action == "jump_in":
        # H1: an identical card, on a card with a twin that a player laid,
        # his own only under H2, while the window is open (under U16 every
        # other attempt is listed and a misplay, H17).
        admitted = m.jump_open and m.top_player is not None
        admitted = admitted and (m.top_player != seat or o.h2)
        return admitted and card == top and kind not in (K.WILD_DRAW_FOUR, K.BLANK)
    if m.phase == DRAWN and (card != m.drawn or o.play_drawn == pb.UNO_PLAY_DRAWN_NEVER):
        return False
    if m.phase in (PLAY, DRAWN):
        return legal_in_play(m, card)
    if m.phase != RESPOND:
        return False
    bounce = o.h11 and kind == K.REVERSE and colour == m.colour
    if m.pk == P2:
        return (
            bounce
            or (kind == K.DRAW_TWO and (o.u3 or o.h4 or (o.h1 and card == top)))
            or (kind == K.WILD_DRAW_FOUR and o.mixed)
        )
    if m.pk == P4:
        return (
            bounce
            or (kind == K.DRAW_TWO and o.u4 and colour == m.colour)
            or (kind == K.WILD_DRAW_FOUR and o.h4)
        )
    if m.pk == P10:
        return kind == K.BLANK and o.h4
    return bounce or (o.h1 and card == top)


def action_of(choice: object) -> str:
    return choice.move.uno.WhichOneof("action")  # type: ignore[attr-defined, no-any-return]


def allowed_choice(m: M, o: Opts, seat: int, choice: object) -> bool:
    action = action_of(choice)
    card = getattr(choice.move.uno, action).card  # type: ignore[attr-defined]
    return allowed(m, o, seat, action, card)


def misplay(
    m: M, o: Opts, rng: random.Random, seat: int, listed: list[Any]
) -> game_pb2.Move | None:
    """U16: a coloured card the model holds illegal for the seat to act —
    in PLAY one R3 forbids, in RESPOND a number card (never an answer), in
    DRAWN another card than the drawn one — when the engine lists no play
    of it (not a 7 under H3 nor a 5 under H6, whose choices would be
    refused first)."""
    if seat != m.current or m.phase not in (PLAY, RESPOND, DRAWN) or not listed:
        return None
    if m.swap or m.ready is not None or m.slap:
        return None  # D8: the game waits for an exchange, a "Ready" or the slaps
    offered = {x.move.uno.play.card for x in listed if x.move.uno.WhichOneof("action") == "play"}
    wrong = []
    for card in set(m.hands[seat]):
        if uc.is_black(card) or card in offered:
            continue
        if KIND[card] == K.NUMBER and NUMBER[card] in (7 if o.h3 else -1, 5 if o.h6 else -1):
            continue
        if m.phase == PLAY and legal_in_play(m, card):
            continue
        if m.phase == RESPOND and KIND[card] != K.NUMBER:
            continue
        if m.phase == DRAWN and card == m.drawn:
            continue
        wrong.append(card)
    if not wrong:
        return None
    move = game_pb2.Move()
    move.CopyFrom(listed[0].move)
    move.uno.Clear()
    move.uno.play.card = rng.choice(sorted(wrong))
    return move


def house_seen(m: M, o: Opts, seat: int, move: pb.UnoMove) -> str:
    """What a move exercised of the house rules (for the coverage test)."""
    action = move.WhichOneof("action")
    if action in ("play", "jump_in"):
        p = getattr(move, action)
        card, hand = p.card, m.hands[seat]
        number = NUMBER[card] if KIND[card] == K.NUMBER else -1
        if o.h3 and number == 7 and p.HasField("swap_with"):
            return "H3 seven"
        if o.h3 and number == 0:
            return "H3 zero"
        if o.h6 and number == 5 and p.HasField("swap_with"):
            return "H6 offer"
        black = KIND[card] in (K.WILD, K.WILD_DRAW_FOUR)
        if (o.h5 == TWOS and number == 2) or (o.h5 == BLACK and black):
            return "H5 silence"
        if len(hand) == 1 and (o.h12 or o.h13):
            return "H12/H13 emptied"
    if action in ("catch", "call_uno") and o.u16:
        return action + " under U16"
    return "-"


CASES = [
    (preset, opts, 11 + 7 * i + 500 * k)
    for k in range(2)
    for i, (preset, opts) in enumerate(TABLES)
]
CASES.append(("seed", {"plus_ten": True, "stacking": True, "target": 150}, 112))  # +10 on +10
# 2 to 6 seats: the seat count is 2 + seed % 5 for these.
HOUSE_CASES = [
    (preset, opts, 13 + 11 * i + 700 * k)
    for k in range(2)
    for i, (preset, opts) in enumerate(HOUSE_TABLES)
]
RUNS: list[tuple[int, int]] = []


@pytest.mark.parametrize(("preset", "options", "seed"), CASES)
def test_effects_agree_with_the_model(preset: str, options: dict[str, object], seed: int) -> None:
    compared, deals = run_table(preset, options, seed, MOVES_PER_TABLE)
    RUNS.append((compared, deals))
    assert compared > 10


@pytest.mark.parametrize(("preset", "options", "seed"), HOUSE_CASES)
def test_house_effects_agree_with_the_model(
    preset: str, options: dict[str, object], seed: int
) -> None:
    compared, deals = run_table(preset, options, seed, MOVES_PER_TABLE, 2 + seed % 5)
    RUNS.append((compared, deals))
    assert compared > 10


@pytest.mark.parametrize("seed", [3, 16, 29])
def test_seven_rounds_from_a_late_stage_agree_with_the_model(seed: int) -> None:
    """H13 (alone, and with H12 and H3) from stage 2: refills and the stage-1
    win or finish, which a playout from stage 7 rarely reaches."""
    options: dict[str, object] = {"seven_rounds": True, "target": 150}
    if seed == 29:
        options = {"seven_rounds": True, "play_to_last": True, "seven_zero": True}

    def stage_2(state: game_pb2.GameState) -> None:
        state.uno.stages[:] = [2] * len(state.seats)

    compared, deals = run_table("seed", options, seed, 200, 2 + seed % 5, stage_2)
    RUNS.append((compared, deals))
    assert compared > 10


def last_card(number: int, stage: int) -> Callable[[game_pb2.GameState], None]:
    """The seat to act left with one card, a `number` of the current colour
    (its other cards into the stock), every seat at `stage` under H13."""

    def edit(state: game_pb2.GameState) -> None:
        u, seat = state.uno, state.current_seat
        if u.stages:
            u.stages[:] = [stage] * len(state.seats)
        (card,) = (
            c for c in set(uc.uno_deck(False))
            if KIND[c] == K.NUMBER and NUMBER[c] == number and COLOUR[c] == u.colour
        )  # fmt: skip
        u.stock.extend(u.hands[seat].cards)
        del u.hands[seat].cards[:]
        if card in u.stock:
            u.stock.remove(card)
        else:  # in another hand, which takes a stock card instead
            other = next(h for h in u.hands if card in h.cards)
            other.cards.remove(card)
            other.cards.append(u.stock.pop())
        u.hands[seat].cards.append(card)

    return edit


@pytest.mark.parametrize(
    ("options", "number", "stage"),
    [
        ({"seven_zero": True, "play_to_last": True}, 7, 1),
        ({"seven_zero": True, "play_to_last": True}, 0, 1),
        ({"seven_zero": True, "seven_rounds": True, "target": 150}, 7, 2),
        ({"seven_zero": True, "seven_rounds": True, "target": 150}, 0, 3),
        ({"seven_zero": True, "seven_rounds": True, "play_to_last": True}, 7, 2),
        ({"seven_zero": True, "seven_rounds": True, "play_to_last": True}, 0, 1),
        ({"seven_zero": True, "silent_trigger": "TWOS", "play_to_last": True}, 2, 1),
        ({"swap_on_five": True, "seven_rounds": True, "target": 150}, 5, 2),
    ],
)  # fmt: skip
def test_a_last_house_card_agrees_with_the_model(
    options: dict[str, object], number: int, stage: int
) -> None:
    """C-UNO-9 (H3 under H12 or H13: the exchange unless the card ended its
    player's round for good), H5 TWOS with H12 (a 2 that finishes its
    player), H6 with H13: the seat to act holds one such card."""
    for seats in (3, 4):
        edit = last_card(number, stage)
        compared, deals = run_table("seed", options, 5 + number, 60, seats, edit)
        RUNS.append((compared, deals))
        assert compared > 10


def last_wild_draw_four_on_an_empty_stock(state: game_pb2.GameState) -> None:
    """H13: the seat to act holds only a Wild Draw Four at stage 3 and the
    stock is empty (ten of its cards under the top card, the rest and the
    seat's others to the next seat), so the refill its play brings restocks
    under the Wild Draw Four, which can still be challenged (C-UNO-8)."""
    u, seat = state.uno, state.current_seat
    u.stages[:] = [3] * len(state.seats)
    home = next(c for c in [u.stock, *(h.cards for h in u.hands)] if uc.WILD_DRAW_FOUR in c)
    home.remove(uc.WILD_DRAW_FOUR)
    rest = [*u.hands[seat].cards, *u.stock]
    del u.hands[seat].cards[:]
    del u.stock[:]
    u.hands[seat].cards.append(uc.WILD_DRAW_FOUR)
    under = [c for c in rest[:10] if not uc.is_black(c)]  # a Wild under the top has no colour
    u.discard[:0] = under
    for c in under:
        rest.remove(c)
    u.hands[(seat + 1) % len(state.seats)].cards.extend(rest)


def exhaust(state: game_pb2.GameState) -> None:
    """The whole stock into the dealer's hand: draws find nothing until
    enough cards are discarded (B29)."""
    u = state.uno
    u.hands[u.dealer].cards.extend(u.stock)
    del u.stock[:]


@pytest.mark.parametrize(
    ("preset", "options", "seed"),
    [
        ("seed", {"politeness_ready": True, "stacking": True, "target": 150}, 41),
        ("mattel", {"politeness_ready": True, "uno_penalty": 5, "target": 150}, 42),
        ("seed", {"politeness_ready": True, "challenge_outcome": "MATTEL", "target": 150}, 43),
        ("seed", {"politeness_ready": True, "misplay_penalty": True, "silent_trigger": "TWOS",
                  "seven_zero": True, "target": 150}, 44),
        # H13's refills and H4's stacks restock under a Wild Draw Four (C-UNO-8).
        ("seed", {"seven_rounds": True, "stacking": True, "stack_mixed": True, "target": 150}, 45),
        ("mattel", {"seven_rounds": True, "target": 150}, 46),
    ],
)  # fmt: skip
def test_an_exhausted_stock_agrees_with_the_model(
    preset: str, options: dict[str, object], seed: int
) -> None:
    """H16 with B29 (RULES.md H16: the penalty owed counts, not the cards
    drawn), and every draw forfeited while stock and discard are empty."""
    compared, deals = run_table(preset, options, seed, 120, 2 + seed % 4, exhaust)
    RUNS.append((compared, deals))
    assert compared > 10


def test_the_playouts_reach_every_effect() -> None:
    """The comparison above is only as good as what it reaches: every kind
    of move and outcome the model predicts happened (run after it)."""
    if len(RUNS) < len(CASES) + len(HOUSE_CASES) + 3 + 4 + 16:
        pytest.skip("runs only after the whole comparison")
    for what in (
        "challenge guilty", "challenge innocent", "catch", "call_uno", "jump_in",
        "answer +2", "answer +4", "answer +10", "answer Rev", "restock",
        "round end", "match end", "next deal", "lost turn pending", "pass",
        "H3 seven", "H3 zero", "H5 silence", "report_silence", "H6 offer", "give",
        "H8 window", "slap", "slap_time_up", "H12 finished", "H12 round end", "H13 refill",
        "H13 stage-1 win", "H16 ready awaited", "ready", "misplay play", "misplay jump_in",
        "catch under U16", "call_uno under U16",
    ):  # fmt: skip
        assert SEEN[what] > 0, what


@pytest.mark.parametrize(("preset", "seed"), [("seed", 47), ("mattel", 48), ("seed", 49)])
def test_a_last_wild_draw_four_refilled_from_an_empty_stock_agrees_with_the_model(
    preset: str, seed: int
) -> None:
    """H13 with C-UNO-8: the refill of a hand emptied by a Wild Draw Four
    restocks, keeping the card under it; every answer is a valid state."""
    options: dict[str, object] = {"seven_rounds": True, "target": 150}
    compared, deals = run_table(preset, options, seed, 40, 3, last_wild_draw_four_on_an_empty_stock)
    RUNS.append((compared, deals))
    assert compared > 10
