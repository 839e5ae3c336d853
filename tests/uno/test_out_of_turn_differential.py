"""UNO's out-of-turn play against a model written from the rules text alone.

Who may act at each moment (`acting_seats`) and what every seat may do
beside an ordinary turn — jump-ins (H1, H2), "UNO!" and catches (§2.6, R8,
U10, U11, C-UNO-4, C-UNO-11), H5 reports, H8 slaps, H6 card swaps, H16
"Ready", H3 exchanges, U16/H17 false calls and catches, and the challenge of
a Wild Draw Four (its target only) — is derived here from
rules/shedding.md §0.5, §2.6, §2.11–§2.15 and the game's RULES.md, without
reading the implementation. The model keeps its own record of the windows
(`Windows`), fed only with the moves made, their public events and public
facts of the position (hand sizes, top card, colour, the seat to act, the
phase, the pending effect's kind, finished seats, stages); it never reads a
window field of the state (`jump_in_open`, `uno_offender`, `silence`,
`slap`, `card_swap`, `ready_seat`) and never decides who may act from a
hidden card (C-UNO-3, §0.5). A seat's own hand is read only to list the
moves that seat itself could make (its identical cards, the cards it gives).

Seeded random playouts (random.Random, fixed seeds) under many option
tables play random listed moves of random acting seats, weighted towards
the out-of-turn kinds, and compare at every position: the acting seats, and
for each acting seat the set of its side moves (see `side_moves`).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest

from croupier.engine.session import Session
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

# -- cards (engine/uno_cards.py's documented encoding) ------------------------

WILD, WILD_DRAW_FOUR, BLANK = 53, 54, 55
NUMBER_2, NUMBER_5, NUMBER_7, NUMBER_0 = 2, 5, 7, 0


def symbol(card: int) -> int | None:
    """A coloured card's symbol (0–9 numbers, 10 Skip, 11 Reverse, 12 +2);
    None for a black card."""
    return (card - 1) % 13 if 1 <= card <= 52 else None


def has_twin(card: int) -> bool:
    """H1, D1: a jump-in copies the top card; only cards with a twin in the
    deck open a window — never a 0 (one per colour), a Wild Draw Four (H1:
    «она выкладывается только в свой ход») or a "+10" (H10, B24)."""
    return card not in (WILD_DRAW_FOUR, BLANK) and symbol(card) != NUMBER_0


def identical(card: int, top: int) -> bool:
    """H1: same colour and same number or symbol — the same card value —
    or a Wild on a Wild (B35: any Wild, the jumper names a new colour)."""
    return card == top and has_twin(top)


# -- the model ----------------------------------------------------------------

PHASE_PLAY, PHASE_DRAWN = pb.UNO_PHASE_PLAY, pb.UNO_PHASE_DRAWN
PHASE_RESPOND, PHASE_NAME = pb.UNO_PHASE_RESPOND, pb.UNO_PHASE_NAME_COLOUR
PHASE_OVER = pb.UNO_PHASE_DEAL_OVER
TURN_ACTIONS = frozenset({"play", "jump_in", "draw", "pass", "accept", "challenge"})
EK = pb.UnoEventKind


def in_round(position: Any) -> list[int]:
    """§0.4 next(): the seats still in the round (H12: not finished)."""
    finished = set(position.uno.finished)
    return [s for s in range(len(position.seats)) if s not in finished]


def hand_sizes(position: Any) -> list[int]:
    """Hand sizes are public (§0.5)."""
    return [len(h.cards) for h in position.uno.hands]


@dataclass
class Windows:
    """The windows of the rules, kept from the moves made and their public
    events (one record per deal; a new deal opens none — H1: never on the
    first card)."""

    jump_open: bool = False  # H1: a card landed, no turn action since (C-UNO-3)
    top_player: int | None = None  # who played the top card (H1/H2)
    offender: int | None = None  # R8 / §2.6: played 2 → 1 without "UNO!"
    slap_caller: int | None = None  # H8
    slapped: set[int] = field(default_factory=set)
    swap_to: int | None = None  # H6: the seat that must give a card
    ready: int | None = None  # H16
    silence: bool = False  # H5
    silence_seat: int | None = None  # TWOS: whose next turn ends it
    silence_colour: int = 0  # BLACK: the colour named


def owed(kind: str, seat: int, before: dict, events: Iterable[Any], opts: Any) -> dict[int, int]:
    """The penalty DRAW(p, n) of §0.5 a move imposes, by its n (the cards
    owed, whether or not the stock could give them all): ACCEPT the pending
    count; a challenge T (guilty, its player) or T + 2 (innocent, the
    challenger) (§2.5, H4); a catch U11 (§2.6)."""
    if kind == "accept":
        return {seat: before["pending"]}
    if kind == "challenge":
        for e in events:
            if e.HasField("uno") and e.uno.kind == EK.UNO_EVENT_KIND_CHALLENGED:
                if e.uno.guilty:
                    return {before["top_player"]: before["pending"]}
                return {seat: before["pending"] + 2}
    if kind == "catch" and before["offender"] is not None:
        return {before["offender"]: opts.uno_penalty}
    return {}


def penalty_draws(kind: str, seat: int, events: Iterable[Any]) -> dict[int, int]:
    """H16 / C-UNO-10: the cards each seat drew as a penalty in one move —
    every draw but the mover's own DRAW of one card and an H13 refill
    (a refill to stage k draws k cards; it is no penalty)."""
    drawn: Counter[int] = Counter()
    for e in events:
        if e.kind == game_pb2.EVENT_KIND_CARDS_DRAWN:
            drawn[e.seat] += e.count
        elif e.HasField("uno") and e.uno.kind == EK.UNO_EVENT_KIND_STAGE_REFILLED:
            drawn[e.seat] -= e.uno.stage
    if kind == "draw":
        drawn[seat] -= 1
    return {s: n for s, n in drawn.items() if n > 0}


def turns_begun(kind: str, events: Iterable[Any], after: Any) -> set[int]:
    """C-UNO-10: the seats whose turn began with this move — a seat skipped
    or losing its turn (its turn is spent), and the seat to act after a turn
    action that handed on the turn (not a draw that keeps it)."""
    begun = {e.seat for e in events if e.kind == game_pb2.EVENT_KIND_TURN_SKIPPED}
    begun |= {
        e.seat for e in events if e.HasField("uno") and e.uno.kind == EK.UNO_EVENT_KIND_TURN_LOST
    }
    phase = after.uno.phase
    if kind in TURN_ACTIONS and phase in (PHASE_PLAY, PHASE_RESPOND):
        begun.add(after.current_seat)
    return begun


def update(w: Windows, opts: Any, seat: int, move: Any, before: dict, events, after) -> None:
    """Advance the windows by one move (`before`: the public facts before it).

    - H1/C-UNO-3: a card landing opens the jump-in window; any turn action
      closes it; side actions (catch, call, report, slap, time, give, ready)
      do not; a misplay (U16, D5) neither opens nor closes anything.
    - §2.6/R8/C-UNO-4: a play of the second-to-last card (2 → 1) without the
      call opens the catch window; with the call and H8, the slap window.
      The next play, jump-in, draw, accept or challenge closes it, and so do
      a catch, the offender's late call (U10 UNTIL_CAUGHT), and his no longer
      holding one card (D6).
    - H6: a 5 played naming a seat waits for that seat's card (GIVE).
    - H16: a penalty draw of 4 or more waits for that seat's READY.
    - H5: a 2 (TWOS) or a W / W+4 (BLACK) imposes silence; a report ends it,
      TWOS when the 2's player's next turn begins, BLACK when the colour
      changes by any means (C-UNO-10).
    """
    kind = move.WhichOneof("action")
    w_top, w_offender = w.top_player, w.offender
    uno_events = {e.uno.kind for e in events if e.HasField("uno")}
    misplayed = EK.UNO_EVENT_KIND_MISPLAYED in uno_events
    false_call = EK.UNO_EVENT_KIND_FALSE_CALL in uno_events
    if kind in ("play", "jump_in") and not misplayed:
        p = getattr(move, kind)
        card = p.card
        w.jump_open, w.top_player = True, seat
        w.offender = None
        if before["sizes"][seat] == 2:
            if p.uno and opts.uno_in_centre:
                w.slap_caller, w.slapped = seat, set()
            elif not p.uno:
                w.offender = seat
        if opts.swap_on_five and symbol(card) == NUMBER_5 and p.HasField("swap_with"):
            w.swap_to = p.swap_with
    elif kind in TURN_ACTIONS and not misplayed:
        w.jump_open = False
        w.offender = None
        if kind == "challenge":
            w.top_player = None  # a guilty revert restores a card nobody played now
    elif kind in ("catch", "call_uno") and not false_call:
        w.offender = None
    elif kind == "slap":
        w.slapped.add(seat)
        others = set(in_round(after)) - {w.slap_caller}
        if others <= w.slapped:
            w.slap_caller = None
    elif kind == "slap_time_up":
        w.slap_caller = None
    elif kind == "give":
        w.swap_to = None
    elif kind == "ready":
        w.ready = None
    elif kind == "report_silence":
        w.silence = False
    # D6: hand sizes are public; a catch window needs its one card.
    if w.offender is not None and hand_sizes(after)[w.offender] != 1:
        w.offender = None
    # H16, C-UNO-10: a penalty of 4 or more, by the cards owed (a stock
    # that runs dry forfeits draws, §0.5, but it was a DRAW(p, n ≥ 4)) or drawn.
    before = {**before, "top_player": w_top, "offender": w_offender}
    penalties = penalty_draws(kind, seat, events)
    for s, n in owed(kind, seat, before, events, opts).items():
        penalties[s] = max(penalties.get(s, 0), n)
    for s, n in penalties.items():
        if opts.politeness_ready and n >= 4:
            w.ready = s
    # H5.
    trigger = opts.silent_trigger
    twos_over = not misplayed and w.silence_seat in turns_begun(kind, events, after)
    if w.silence and trigger == pb.UNO_SILENT_TRIGGER_TWOS and twos_over:
        w.silence = False
    black_over = after.uno.colour != w.silence_colour
    if w.silence and trigger == pb.UNO_SILENT_TRIGGER_BLACK and black_over:
        w.silence = False
    if kind in ("play", "jump_in") and not misplayed:
        card = getattr(move, kind).card
        if trigger == pb.UNO_SILENT_TRIGGER_TWOS and symbol(card) == NUMBER_2:
            w.silence, w.silence_seat = True, seat
        if trigger == pb.UNO_SILENT_TRIGGER_BLACK and card in (WILD, WILD_DRAW_FOUR):
            w.silence, w.silence_colour = True, after.uno.colour


def jump_seats(w: Windows, opts: Any, position: Any) -> set[int]:
    """H1, H2, C-UNO-3, D1, D13: every seat in the round, eligible on public
    facts, while the window is open on a card with a twin — not the top
    card's player (unless H2), not the seat whose turn it is (its identical
    card is a play or an answer)."""
    if not opts.jump_in or not w.jump_open:
        return set()
    if not has_twin(position.uno.discard[-1]):
        return set()
    seats = set(in_round(position)) - {position.current_seat}
    if not opts.jump_in_own_card:
        seats.discard(w.top_player)  # type: ignore[arg-type]
    return seats


def catch_seats(w: Windows, opts: Any, position: Any) -> set[int]:
    """§2.6, R8: while a catch window is open, every other seat in the round
    may catch; the offender acts too under U10 UNTIL_CAUGHT (a late call) or
    U16 (a late call, false under DURING_PLAY: C-UNO-11)."""
    if w.offender is None:
        return set()
    seats = set(in_round(position)) - {w.offender}
    if opts.uno_call_timing == pb.UNO_CALL_TIMING_UNTIL_CAUGHT or opts.misplay_penalty:
        seats.add(w.offender)
    return seats


def model_acting(w: Windows, opts: Any, position: Any) -> set[int]:
    """RULES.md Acting seats, D8: H6's exchange, else H16's "Ready", else
    H8's window pause the game and only their seats act; NAME_COLOUR is the
    first player's alone; otherwise the seat to act plus the H1, catch and
    H5 windows' seats (from public facts only, C-UNO-3), and under U16 every
    seat in the round: H17 penalises a false catch or call whenever it is
    made (after a call in time, with the window closed)."""
    if position.uno.phase == PHASE_OVER:
        return set()
    if w.swap_to is not None:
        return {w.swap_to}
    if w.ready is not None:
        return {w.ready}
    if w.slap_caller is not None:
        return (set(in_round(position)) - w.slapped) | {w.slap_caller}
    if position.uno.phase == PHASE_NAME:
        return {position.current_seat}
    seats = {position.current_seat}
    seats |= jump_seats(w, opts, position)
    seats |= catch_seats(w, opts, position)
    if w.silence or opts.misplay_penalty:
        seats |= set(in_round(position))  # H5: any seat reports; H17: any seat shouts
    return seats


def swap_choices(opts: Any, position: Any, seat: int, card: int) -> frozenset:
    """H3 / H6 choices carried by a play (own turn or jump-in) of `card`:
    a 7 under H3 names any other seat in the round (mandatory, B18; none when
    the 7 ends its player's round for good, C-UNO-9); a 5 under H6 names a
    seat and a card left in the hand, or nothing (B20; nothing when it is the
    last card)."""
    hand = list(position.uno.hands[seat].cards)
    others = [s for s in in_round(position) if s != seat]
    if opts.seven_zero and symbol(card) == NUMBER_7:
        stage = position.uno.stages[seat] if opts.seven_rounds else 1
        if len(hand) == 1 and stage <= 1:
            return frozenset({(None, 0)})
        return frozenset((s, 0) for s in others)
    if opts.swap_on_five and symbol(card) == NUMBER_5:
        rest = list(hand)
        rest.remove(card)
        return frozenset({(None, 0)} | {(s, g) for s in others for g in set(rest)})
    return frozenset({(None, 0)})


def model_side(w: Windows, opts: Any, position: Any, seat: int, engine_plays) -> set:
    """The side moves `seat` may make now (see `side_moves`), by the rules:
    H6 GIVE (any card of its hand), H16 READY, H8 SLAP / TIME, the challenge
    (only the Wild Draw Four's target, R7, U5), H1 jump-ins (identical cards
    while the window is open; under U16 any card of a seat other than the
    one to act, at any moment: an attempt the rules forbid is a misplay,
    H17), §2.6 calls and catches (under U16 false ones too), H5 reports, and
    the H3/H6 choices of each listed play of a 7 or a 5."""
    hand = list(position.uno.hands[seat].cards)
    if w.swap_to is not None:
        return {("give", c) for c in hand} if seat == w.swap_to else set()
    if w.ready is not None:
        return {("ready",)} if seat == w.ready else set()
    if w.slap_caller is not None:
        return {("time",)} if seat == w.slap_caller else {("slap",)}
    out: set = set()
    u = position.uno
    current = position.current_seat
    if (
        seat == current
        and u.phase == PHASE_RESPOND
        and u.pending_kind == pb.UNO_PENDING_KIND_WILD_DRAW_FOUR
        and u.discard[-1] == WILD_DRAW_FOUR
        and opts.challenge_enabled
    ):
        out.add(("challenge",))
    if opts.misplay_penalty and opts.jump_in:
        if seat != current and seat in in_round(position):
            out |= {("jump", c) for c in hand}
    elif seat in jump_seats(w, opts, position):
        top = u.discard[-1]
        out |= {("jump", c) for c in hand if identical(c, top)}
    rnd = in_round(position)
    if opts.misplay_penalty:
        if seat in rnd:
            out.add(("uno",))
            out |= {("catch", t) for t in rnd if t != seat}
    elif w.offender is not None:
        if seat == w.offender:
            if opts.uno_call_timing == pb.UNO_CALL_TIMING_UNTIL_CAUGHT:
                out.add(("uno",))
        elif seat in rnd:
            out.add(("catch", w.offender))
    if w.silence and seat in rnd:
        out |= {("report", t) for t in rnd if t != seat}
    for action, card, colour, uno in engine_plays:
        out.add(("swaps", action, card, colour, uno, swap_choices(opts, position, seat, card)))
    return out


# -- the engine's answers ------------------------------------------------------

SIDE = {
    "catch": lambda m: ("catch", m.catch.seat),
    "call_uno": lambda m: ("uno",),
    "report_silence": lambda m: ("report", m.report_silence.seat),
    "slap": lambda m: ("slap",),
    "slap_time_up": lambda m: ("time",),
    "give": lambda m: ("give", m.give.card),
    "ready": lambda m: ("ready",),
    "challenge": lambda m: ("challenge",),
    "jump_in": lambda m: ("jump", m.jump_in.card),
}


def side_moves(opts: Any, moves) -> tuple[set, set]:
    """The engine's side moves of a seat, as comparable tuples, and the
    groups of its plays of a 7 (H3) or 5 (H6) whose choices are compared:
    (action, card, colour, uno)."""
    out: set = set()
    groups: dict[tuple, set] = {}
    for lm in moves:
        m = lm.move.uno
        kind = m.WhichOneof("action")
        if kind in SIDE:
            out.add(SIDE[kind](m))
        if kind in ("play", "jump_in"):
            p = getattr(m, kind)
            s = symbol(p.card)
            if (opts.seven_zero and s == NUMBER_7) or (opts.swap_on_five and s == NUMBER_5):
                choice = (p.swap_with if p.HasField("swap_with") else None, p.give)
                groups.setdefault((kind, p.card, p.colour, p.uno), set()).add(choice)
    for key, choices in groups.items():
        out.add(("swaps", *key, frozenset(choices)))
    return out, set(groups)


# -- the playouts ----------------------------------------------------------------

WEIGHTS = {
    "turn": 3.0, "jump_in": 5.0, "catch": 2.0, "call_uno": 2.0, "slap": 3.0,
    "slap_time_up": 0.7, "report_silence": 0.4, "give": 5.0, "ready": 5.0, "challenge": 1.5,
}  # fmt: skip


def choose(rng: random.Random, session: Session, listings: dict[int, list], opts: Any):
    """A random listed move of a random acting seat, weighted by kind so that
    the out-of-turn kinds happen; under U16 the ordinary turn prefers cards
    of the current colour, black cards and the non-card moves (misplays are
    rare rather than most moves)."""
    by_kind: dict[str, list] = {}
    position = session.position
    current = position.current_seat
    for seat, moves in listings.items():
        for lm in moves:
            kind = lm.move.uno.WhichOneof("action")
            if kind not in WEIGHTS:
                kind = "turn" if seat == current else "other"
            by_kind.setdefault(kind, []).append(lm)
    if opts.misplay_penalty and "turn" in by_kind:
        colour = position.uno.colour
        top = position.uno.discard[-1]

        def plausible(lm: Any) -> bool:
            m = lm.move.uno
            if m.WhichOneof("action") != "play":
                return True
            c = m.play.card
            return c > 52 or (c - 1) // 13 + 1 == colour or (top <= 52 and c % 13 == top % 13)

        good = [lm for lm in by_kind["turn"] if plausible(lm)]
        by_kind["turn"] = good or by_kind["turn"]
    kinds = sorted(by_kind)
    kind = rng.choices(kinds, [WEIGHTS.get(k, 1.0) for k in kinds])[0]
    return kind, rng.choice(by_kind[kind])


def seat_of(listings: dict[int, list], choice: Any) -> int:
    """The seat whose listing offered `choice`."""
    for seat, moves in listings.items():
        if any(lm is choice for lm in moves):
            return seat
    raise AssertionError("unlisted move")


@dataclass
class Result:
    positions: int = 0
    kinds: Counter = field(default_factory=Counter)
    disagreements: list = field(default_factory=list)


def facts(position: Any) -> dict:
    """The public facts a move's update needs from before it."""
    return {"sizes": hand_sizes(position), "pending": position.uno.pending_count}


def playout(options: dict[str, Any], seats: int, seed: int, moves: int, preset: str = "") -> Result:
    """One seeded random playout compared at every position."""
    rng = random.Random(seed)
    session = Session.new("uno", preset=preset, seat_count=seats, seed=seed, options=options)
    opts = session.position.options.uno
    w = Windows()
    result = Result()
    for number in range(moves):
        if session.over:
            break
        if session.deal_over:
            session.next_deal()
            w = Windows()
            continue
        position = session.position
        engine_acting = set(session.acting_seats)
        mine = model_acting(w, opts, position)
        result.positions += 1
        listings = {s: session.legal_moves(s) for s in sorted(engine_acting)}
        where = f"seed {seed} move {number} (move_number {position.move_number})"
        if engine_acting != mine:
            result.disagreements.append((where, "acting", sorted(engine_acting), sorted(mine)))
        for s in sorted(engine_acting & mine):
            theirs, plays = side_moves(opts, listings[s])
            ours = model_side(w, opts, position, s, plays)
            if theirs != ours:
                result.disagreements.append(
                    (
                        where,
                        f"seat {s}",
                        sorted(map(str, theirs - ours)),
                        sorted(map(str, ours - theirs)),
                    )
                )
        if not any(listings.values()):
            break
        kind, choice = choose(rng, session, listings, opts)
        seat = seat_of(listings, choice)
        before = facts(position)
        events = session.play(choice)
        uno_events = {e.uno.kind for e in events if e.HasField("uno")}
        if (
            EK.UNO_EVENT_KIND_MISPLAYED not in uno_events
            and EK.UNO_EVENT_KIND_FALSE_CALL not in uno_events
        ):
            action = choice.move.uno.WhichOneof("action")
            result.kinds[action] += 1
            if action in ("play", "jump_in") and getattr(choice.move.uno, action).HasField(
                "swap_with"
            ):
                result.kinds["swap"] += 1
        update(w, opts, seat, choice.move.uno, before, events, session.position)
    return result


# -- the tables ------------------------------------------------------------------

LOW = {"voluntary_draw": False}  # hands get down to their last cards
TABLES: list[tuple[str, dict[str, Any], int, str]] = [
    ("seed core", {**LOW}, 4, ""),
    ("mattel core", {**LOW}, 3, "mattel"),
    ("H1 jump-in", {**LOW, "jump_in": True}, 5, ""),
    ("H1+H2 own card", {**LOW, "jump_in_own_card": True}, 4, ""),
    ("H3 seven-zero", {**LOW, "seven_zero": True}, 4, ""),
    ("H5 twos", {**LOW, "silent_trigger": "TWOS"}, 4, ""),
    ("H5 black", {**LOW, "silent_trigger": "BLACK"}, 3, ""),
    ("H6 swap on five", {**LOW, "swap_on_five": True}, 4, ""),
    ("H8 uno in centre", {**LOW, "uno_in_centre": True}, 5, ""),
    ("H16 ready", {**LOW, "politeness_ready": True, "uno_penalty": 4}, 4, ""),
    ("U16 misplays", {**LOW, "misplay_penalty": True}, 3, ""),
    ("U10 until caught", {**LOW, "uno_call_timing": "UNTIL_CAUGHT"}, 2, ""),
    ("H1 + H11 + H4, two seats", {**LOW, "jump_in": True, "reverse_bounce": True,
                                  "stacking": True}, 2, ""),
    ("H1 H2 H3 H6 H8 H16", {**LOW, "jump_in_own_card": True, "seven_zero": True,
                            "swap_on_five": True, "uno_in_centre": True,
                            "politeness_ready": True}, 6, ""),
    ("H12 H13 H1 H5 twos", {**LOW, "play_to_last": True, "seven_rounds": True,
                            "jump_in": True, "silent_trigger": "TWOS"}, 4, ""),
    ("H9 H10 H1 H5 black U16", {**LOW, "colour_rotation": True, "plus_ten": True,
                                "jump_in": True, "silent_trigger": "BLACK",
                                "misplay_penalty": True}, 3, ""),
    ("H1 six seats", {**LOW, "jump_in": True}, 6, ""),
    ("H5 twos, two seats", {**LOW, "silent_trigger": "TWOS"}, 2, ""),
    ("H6 + H3, two seats", {**LOW, "swap_on_five": True, "seven_zero": True}, 2, ""),
    ("H8 + U10 until caught", {**LOW, "uno_in_centre": True,
                               "uno_call_timing": "UNTIL_CAUGHT"}, 3, ""),
    ("H4 mixed + H16", {**LOW, "stack_mixed": True, "politeness_ready": True}, 5, ""),
    ("H11 + H1 + H5 twos", {**LOW, "reverse_bounce": True, "jump_in_own_card": True,
                            "silent_trigger": "TWOS"}, 3, ""),
    ("H13 + H8 + H6", {**LOW, "seven_rounds": True, "uno_in_centre": True,
                       "swap_on_five": True}, 4, ""),
    ("U16 + U10 + H5 twos", {**LOW, "misplay_penalty": True, "uno_call_timing": "UNTIL_CAUGHT",
                             "silent_trigger": "TWOS"}, 4, ""),
    ("mattel H1 H8 H16", {**LOW, "jump_in": True, "uno_in_centre": True,
                              "politeness_ready": True}, 4, "mattel"),
]  # fmt: skip
SEEDS = (11, 12, 13)
MOVES = 200
# Every kind of side move must happen somewhere (and take effect: misplays and
# false calls are not counted).
KINDS = ("jump_in", "catch", "call_uno", "slap", "slap_time_up", "report_silence",
         "give", "ready", "challenge", "swap")  # fmt: skip


@functools.cache
def compared(name: str) -> Result:
    """Every playout of one table (by name), compared position by position."""
    options, seats, preset = next((o, n, p) for t, o, n, p in TABLES if t == name)
    total = Result()
    for seed in SEEDS:
        result = playout(options, seats, seed, MOVES, preset)
        total.positions += result.positions
        total.kinds += result.kinds
        total.disagreements += [(name, *d) for d in result.disagreements]
    return total


@pytest.mark.parametrize("name", [t[0] for t in TABLES])
def test_out_of_turn_matches_the_model(name: str) -> None:
    result = compared(name)
    assert result.positions > 100
    assert result.disagreements == [], result.disagreements[:5]


def test_every_kind_of_side_move_happens() -> None:
    kinds: Counter[str] = Counter()
    for name, *_ in TABLES:
        kinds += compared(name).kinds
    assert all(kinds[k] > 0 for k in KINDS), kinds
