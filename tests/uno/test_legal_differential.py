"""UNO: the engine's own-turn legal moves against an independent model.

The model (first half of this file) was written from the rules text alone —
shared/rules/shedding.md §0.5, §2.3, §2.4, §2.5, §2.8, §2.10–§2.13 and the
clarifications C-UNO-* of §2.15 (which take precedence), and
server/croupier/games/uno/RULES.md where it settles a point the shared text
leaves open — before reading the engine's generator or checker. For the seat
whose turn it is (`current_seat`), in the phases PLAY, DRAWN and RESPOND, it
says which cards that seat may play as its own turn's play, its drawn card or
its answer (not as a jump-in), and whether DRAW, PASS, ACCEPT and CHALLENGE
are open to it.

The driver deals seeded matches through the public `Session` API under many
option tables (2–5 seats), plays seeded random listed moves of random acting
seats (so jump-ins, catches and challenges happen too), and at every position
compares the engine's listing for the seat to act with the model. It also
checks the facts that listing rests on:

- RESPOND only for a pending kind the options give an answer (C-UNO-1),
  never on a card nobody played (the first card, U1/B6), and with a pending
  kind that fits the card on top (§2.4, H11, C-UNO-5);
- after a card played by the seat to act lands, its effect waits for the
  next seat's answer exactly when C-UNO-1 says so — except for a seat that
  lost its turn (D3) and for a card that ended the round, where only a final
  Wild Draw Four waits, under U13 and U5 (R10, B11);
- under H9 a black card takes the next colour on the wheel (B23);
- the seat to act is never offered a jump-in (D13) and never has a lost
  turn pending (R5, D3).

Readings the model takes where the text leaves room (each agrees with the
engine): a MATTEL first Skip or +2 never waits for an answer, even under H1
or H11 (U1, B6, R2 "nobody jumps in on the first card"); under H4 a +2 of
the named colour answers a Wild Draw Four only with U4 (RULES.md H4 "with
U4"); a bounced Wild Draw Four (a Reverse on top) cannot be challenged (H11);
under U16 every card of the hand is listed in PLAY, DRAWN and RESPOND alike
(H17: "a seat entitled to play a card now"), the other moves unchanged.

Result when written: no disagreement in any table, so nothing is excluded.
"""

from __future__ import annotations

import dataclasses
import random
import time
import zlib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from croupier.engine.errors import InvalidInput
from croupier.engine.session import Session
from croupier.engine.uno_cards import (
    BLUE,
    COLOUR_OF,
    GREEN,
    KIND_OF,
    NUMBER_OF,
    RED,
    WILD_DRAW_FOUR,
    YELLOW,
    Kind,
    colour_text,
    is_black,
    parse_uno_card,
    uno_card_text,
)
from croupier.v1 import uno_pb2 as pb

PLAY = pb.UNO_PHASE_PLAY
DRAWN = pb.UNO_PHASE_DRAWN
RESPOND = pb.UNO_PHASE_RESPOND

P_DRAW_TWO = pb.UNO_PENDING_KIND_DRAW_TWO
P_WD4 = pb.UNO_PENDING_KIND_WILD_DRAW_FOUR
P_PLUS_TEN = pb.UNO_PENDING_KIND_PLUS_TEN
P_SKIP = pb.UNO_PENDING_KIND_SKIP


# ==========================================================================
# The independent model
# ==========================================================================


@dataclass(frozen=True)
class Opts:
    """The options that change the seat to act's moves (§2.10, §2.11)."""

    draw2_deflect: bool  # U3 DEFLECT_ANY_COLOUR
    wd4_deflect: bool  # U4 DEFLECT_DRAW_TWO_NAMED_COLOUR
    challenge: bool  # U5
    strict: bool  # U7 STRICT
    voluntary_draw: bool  # U8
    play_drawn: int  # U9 (pb.UNO_PLAY_DRAWN_*)
    reverse_is_skip: bool  # U12
    final_draw: bool  # U13
    misplay: bool  # U16 / H17
    jump_in: bool  # H1
    stacking: bool  # H4
    stack_mixed: bool  # H4 stack_mixed
    rotation: bool  # H9
    plus_ten: bool  # H10
    bounce: bool  # H11
    play_to_last: bool  # H12

    @classmethod
    def of(cls, o: Any) -> Opts:
        """From a resolved `UnoOptions`: the state's own, so that the options
        that follow a house rule (C-UNO-6) have their followed values."""
        return cls(
            draw2_deflect=o.draw2_response == pb.UNO_DRAW_TWO_RESPONSE_DEFLECT_ANY_COLOUR,
            wd4_deflect=o.wd4_response
            == pb.UNO_WILD_DRAW_FOUR_RESPONSE_DEFLECT_DRAW_TWO_NAMED_COLOUR,
            challenge=o.challenge_enabled,
            strict=o.wd4_enforcement == pb.UNO_WILD_DRAW_FOUR_ENFORCEMENT_STRICT,
            voluntary_draw=o.voluntary_draw,
            play_drawn=o.play_drawn,
            reverse_is_skip=o.two_player_reverse_is_skip,
            final_draw=o.final_draw_resolution,
            misplay=o.misplay_penalty,
            jump_in=o.jump_in,
            stacking=o.stacking,
            stack_mixed=o.stack_mixed,
            rotation=o.colour_rotation,
            plus_ten=o.plus_ten,
            bounce=o.reverse_bounce,
            play_to_last=o.play_to_last,
        )


@dataclass(frozen=True)
class Moves:
    """What the seat to act may do; `cards`: the distinct cards it may play."""

    cards: frozenset[int]
    draw: bool = False
    pass_: bool = False
    accept: bool = False
    challenge: bool = False

    def text(self) -> str:
        flags = (("DRAW", self.draw), ("PASS", self.pass_), ("ACCEPT", self.accept),
                 ("CHALLENGE", self.challenge))  # fmt: skip
        words = sorted(uno_card_text(c) for c in self.cards) + [n for n, on in flags if on]
        return "[" + " ".join(words) + "]"


def symbol_matches(card: int, top: int) -> bool:
    """§2.3.1 / R3: a number on the same number (the top a number card), an
    action card on the same symbol (Skip on Skip, Reverse on Reverse, +2 on
    +2, any colours). Numbers never match symbols; after a black card "only
    C matters"."""
    if not (COLOUR_OF[card] and COLOUR_OF[top]):
        return False
    if KIND_OF[top] == Kind.NUMBER:
        return KIND_OF[card] == Kind.NUMBER and NUMBER_OF[card] == NUMBER_OF[top]
    return KIND_OF[card] == KIND_OF[top]


def holds_colour(hand: Iterable[int], colour: int) -> bool:
    """§2.5: whether a hand holds a card of `colour`. Black cards never count,
    nor do cards matching only by number or symbol."""
    return any(COLOUR_OF[c] == colour for c in hand)


def without_one(hand: list[int], card: int) -> list[int]:
    """The hand without one copy of `card` (the card being played)."""
    rest = list(hand)
    rest.remove(card)
    return rest


def wd4_refused(hand: list[int], colour: int, opts: Opts) -> bool:
    """§2.5, U7, R7: under STRICT a Wild Draw Four is refused while the rest
    of the hand holds a card of the current colour — for an answer under H4,
    "the colour named by the previous W+4", which is the current colour. Under
    CHALLENGE_ONLY a bluff is a legal move (UNO-04)."""
    return opts.strict and holds_colour(without_one(hand, WILD_DRAW_FOUR), colour)


def legal_on_turn(card: int, hand: list[int], top: int, colour: int, opts: Opts) -> bool:
    """§2.3.1 / R3: a card the seat to act may play with no pending effect on it.

    - coloured: of colour C, or matching the top's number / symbol;
    - W: always ("не требуется никаких специальных условий");
    - W+4: always, but for U7 STRICT's colour condition (§2.5);
    - X+10: like a Wild, under H10 (B24; the blank cards are dealt only then)."""
    kind = KIND_OF[card]
    if kind == Kind.WILD:
        return True
    if kind == Kind.WILD_DRAW_FOUR:
        return not wd4_refused(hand, colour, opts)
    if kind == Kind.BLANK:
        return opts.plus_ten
    return COLOUR_OF[card] == colour or symbol_matches(card, top)


def waits(kind: int, opts: Opts) -> bool:
    """C-UNO-1 (§0.5, C-UNO-2, C-UNO-5): whether a pending effect of this kind
    waits for its target's answer — +2 under U3, H4, H11 or H1; W+4 under U4,
    U5, H4 or H11; X+10 under H4; Skip (and the two-player Reverse) under H11
    or H1. Otherwise it resolves at once (UNO-10, UNO-46)."""
    if kind == P_DRAW_TWO:
        return opts.draw2_deflect or opts.stacking or opts.bounce or opts.jump_in
    if kind == P_WD4:
        return opts.wd4_deflect or opts.challenge or opts.stacking or opts.bounce
    if kind == P_PLUS_TEN:
        return opts.stacking
    if kind == P_SKIP:
        return opts.bounce or opts.jump_in
    return False


def answers(card: int, hand: list[int], kind: int, top: int, colour: int, opts: Opts) -> bool:
    """§2.3.3, table §2.4, H1, H4, H11 (RULES.md R6): whether `card` answers
    the pending effect `kind` on the seat to act; any other play is illegal.

    - +2 pending: any +2 under U3 (B1, UNO-09) or H4; a W+4 under
      `stack_mixed` (U7's condition applies);
    - W+4 pending: a +2 of the named colour under U4 (B2, UNO-12; under H4 it
      adds 2 — "with U4", RULES.md H4); a W+4 under H4 (U7's condition against
      the named colour);
    - X+10 pending: an X+10 under H4 only (B24);
    - +2, W+4 or Skip pending: a Reverse of the current (named) colour under
      H11 (B17, UNO-31);
    - under H1 the target's card identical to the coloured top card (same
      colour and symbol) is an answer (C-UNO-2; RULES.md H1 "the target's own
      identical card is such an answer"; D13)."""
    ck = KIND_OF[card]
    if opts.jump_in and card == top and COLOUR_OF[top]:
        return True
    bounces = opts.bounce and kind in (P_DRAW_TWO, P_WD4, P_SKIP)
    if bounces and ck == Kind.REVERSE and COLOUR_OF[card] == colour:
        return True
    if kind == P_DRAW_TWO:
        if ck == Kind.DRAW_TWO and (opts.draw2_deflect or opts.stacking):
            return True
        if ck == Kind.WILD_DRAW_FOUR and opts.stack_mixed:
            return not wd4_refused(hand, colour, opts)
    if kind == P_WD4:
        if ck == Kind.DRAW_TWO and opts.wd4_deflect and COLOUR_OF[card] == colour:
            return True
        if ck == Kind.WILD_DRAW_FOUR and opts.stacking:
            return not wd4_refused(hand, colour, opts)
    return kind == P_PLUS_TEN and ck == Kind.BLANK and opts.stacking


def play_phase(hand: list[int], top: int, colour: int, opts: Opts) -> Moves:
    """§2.3.2 / R4 / U8: any legal card; DRAW when no card is legal, or always
    under `voluntary_draw` (B7, UNO-18, UNO-19)."""
    legal = frozenset(c for c in set(hand) if legal_on_turn(c, hand, top, colour, opts))
    return Moves(legal, draw=opts.voluntary_draw or not legal)


def drawn_phase(hand: list[int], drawn: int, top: int, colour: int, opts: Opts) -> Moves:
    """§2.3.2 item 2 / R4 / U9: after the draw only the drawn card may be
    played, if legal (MAY: it or PASS; MUST: it, no PASS; NEVER: PASS only).
    An illegal drawn card leaves PASS only (UNO-18). "If the drawn card is
    legal (W+4: see 2.5)": a drawn W+4 held with a card of the colour C is a
    bluff under CHALLENGE_ONLY, playable but never owed, so MUST keeps PASS."""
    legal = legal_on_turn(drawn, hand, top, colour, opts)
    if opts.play_drawn == pb.UNO_PLAY_DRAWN_NEVER or not legal:
        return Moves(frozenset(), pass_=True)
    bluff = KIND_OF[drawn] == Kind.WILD_DRAW_FOUR and any(COLOUR_OF[c] == colour for c in hand)
    must = opts.play_drawn == pb.UNO_PLAY_DRAWN_MUST and not bluff
    return Moves(frozenset({drawn}), pass_=not must)


def respond_phase(
    hand: list[int], kind: int, top: int, colour: int, final: bool, opts: Opts
) -> Moves:
    """§2.3.3 / R6: ACCEPT, an answer (`answers`), or CHALLENGE (§2.5, R7:
    under U5, by the target of the Wild Draw Four on top — a bounced W+4, a
    Reverse on top, is never challenged, H11; under H4 only the latest). A
    final draw card allows no answer (§2.8 U13, R10, B11, B32): ACCEPT, and
    CHALLENGE of a final W+4 under U5."""
    challenge = opts.challenge and kind == P_WD4 and top == WILD_DRAW_FOUR
    if final:
        return Moves(frozenset(), accept=True, challenge=challenge)
    cards = frozenset(c for c in set(hand) if answers(c, hand, kind, top, colour, opts))
    return Moves(cards, accept=True, challenge=challenge)


def is_final(uno: Any, opts: Opts) -> bool:
    """§2.8 / R10: the pending effect comes from a card that emptied its
    player's hand and so ended the round (never under H12, where the round
    goes on)."""
    if opts.play_to_last or not uno.HasField("top_player"):
        return False
    return not uno.hands[uno.top_player].cards


def legal_moves(pos: Any, opts: Opts) -> Moves | None:
    """The seat to act's legal moves in PLAY, DRAWN or RESPOND; None in the
    other phases."""
    uno = pos.uno
    hand = list(uno.hands[pos.current_seat].cards)
    top, colour = uno.discard[-1], uno.colour
    if uno.phase == PLAY:
        return play_phase(hand, top, colour, opts)
    if uno.phase == DRAWN:
        return drawn_phase(hand, uno.drawn_card, top, colour, opts)
    if uno.phase == RESPOND:
        final = is_final(uno, opts)
        return respond_phase(hand, uno.pending_kind, top, colour, final, opts)
    return None


def model(pos: Any, opts: Opts) -> Moves | None:
    """`legal_moves`, and under U16 / H17 every card of the hand besides: a
    card the rules forbid, played by the seat to act ("a seat entitled to play
    a card now": its turn, its drawn card, its answer), is penalised, not
    refused (UNO-43, B33); the other moves are unchanged."""
    moves = legal_moves(pos, opts)
    if moves is None or not opts.misplay:
        return moves
    hand = frozenset(pos.uno.hands[pos.current_seat].cards)
    return dataclasses.replace(moves, cards=hand)


def next_colour(colour: int, reversed_: bool) -> int:
    """H9 / B23: the wheel, clockwise R → B → G → Y → R, counter-clockwise
    R → Y → G → B → R (UNO-30)."""
    wheel = [RED, BLUE, GREEN, YELLOW]
    return wheel[(wheel.index(colour) + (-1 if reversed_ else 1)) % 4]


def kind_fits_top(kind: int, top: int, seats_in_round: int, opts: Opts) -> bool:
    """§2.4, H11, H1, C-UNO-5: the card on top of a pending effect is a card
    of its kind, or a Reverse: an H11 bounce (or an identical Reverse jumped
    in on one), or the two-player Reverse acting as a Skip."""
    tk = KIND_OF[top]
    if tk == Kind.REVERSE:
        return opts.bounce or (kind == P_SKIP and seats_in_round == 2 and opts.reverse_is_skip)
    wanted = {P_DRAW_TWO: Kind.DRAW_TWO, P_WD4: Kind.WILD_DRAW_FOUR, P_PLUS_TEN: Kind.BLANK,
              P_SKIP: Kind.SKIP}  # fmt: skip
    return wanted.get(kind) == tk


_EFFECTS = {
    Kind.DRAW_TWO: P_DRAW_TWO,
    Kind.WILD_DRAW_FOUR: P_WD4,
    Kind.BLANK: P_PLUS_TEN,
    Kind.SKIP: P_SKIP,
}


def effect_of(card: int, phase: int, pending_kind: int, seats_in_round: int, opts: Opts) -> int:
    """§2.4: the pending kind a card sends to the next seat — its own kind for
    +2, W+4, X+10 and Skip; a Reverse bounces the effect it answers (H11,
    B17) or, between two players under U12, acts as a Skip (C-UNO-5); 0 for
    a card that sends nothing."""
    kind = KIND_OF[card]
    if kind == Kind.REVERSE:
        if phase == RESPOND:
            return pending_kind
        return P_SKIP if seats_in_round == 2 and opts.reverse_is_skip else 0
    return _EFFECTS.get(kind, 0)


# ==========================================================================
# The engine's listing, in the model's terms
# ==========================================================================

_PARSED: dict[str, tuple[str, int]] = {}


def parsed(m: Any) -> tuple[str, int]:
    """A listed move's action and card (0 for none), by its notation (one text
    per move, RULES.md Moves), parsed once."""
    got = _PARSED.get(m.notation)
    if got is None:
        uno = m.move.uno
        action = uno.WhichOneof("action")
        card = uno.play.card if action == "play" else uno.jump_in.card if action == "jump_in" else 0
        got = _PARSED[m.notation] = (action, card)
    return got


def engine_moves(listing: list[Any]) -> tuple[Moves, list[str]]:
    """The listed own-turn plays and flags of the seat to act, and any jump-in
    it is offered (D13: a seat whose turn it is never jumps in)."""
    cards: set[int] = set()
    actions: set[str] = set()
    jumps: list[str] = []
    for m in listing:
        action, card = parsed(m)
        if action == "play":
            cards.add(card)
        elif action == "jump_in":
            jumps.append(m.notation)
        else:
            actions.add(action)
    moves = Moves(frozenset(cards), "draw" in actions, "pass" in actions,
                  "accept" in actions, "challenge" in actions)  # fmt: skip
    return moves, jumps


# ==========================================================================
# The option tables
# ==========================================================================


@dataclass(frozen=True)
class Table:
    """An option table and how its matches are played."""

    name: str
    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    preset: str = "seed"
    matches: int = 2
    moves: int = 400  # per match
    keep_wd4: float = 0.5  # how often the chooser keeps a Wild Draw Four back
    play_rate: float = 0.75  # how often it plays a card when it may


# Every option of the brief on and off, and combinations; "final-*" tables
# keep Wild Draw Fours for the last card so that final ones happen (R10).
TABLES: tuple[Table, ...] = (
    Table("seed-2", 2),
    Table("seed-3", 3),
    Table("seed-4", 4),
    Table("seed-5", 5),
    Table("mattel-2", 2, preset="mattel"),
    Table("mattel-4", 4, preset="mattel"),
    Table("draw2-none-4", 4, {"draw2_response": "NONE"}),
    Table("wd4-none-4", 4, {"wd4_response": "NONE"}),
    Table("no-answer-no-challenge-3", 3,
          {"draw2_response": "NONE", "wd4_response": "NONE", "challenge_enabled": False}),
    Table("challenge-off-4", 4, {"challenge_enabled": False}),
    Table("strict-4", 4, {"wd4_enforcement": "STRICT"}),
    Table("strict-stack-mixed-3", 3, {"wd4_enforcement": "STRICT", "stack_mixed": True}),
    Table("no-voluntary-draw-4", 4, {"voluntary_draw": False}),
    Table("no-voluntary-strict-3", 3, {"voluntary_draw": False, "wd4_enforcement": "STRICT"}),
    Table("play-drawn-must-4", 4, {"play_drawn": "MUST"}),
    Table("play-drawn-never-4", 4, {"play_drawn": "NEVER"}),
    Table("stacking-4", 4, {"stacking": True}),
    Table("stack-mixed-5", 5, {"stack_mixed": True}),
    Table("stacking-no-deflect-4", 4,
          {"stacking": True, "draw2_response": "NONE", "wd4_response": "NONE"}),
    Table("stacking-mattel-3", 3, {"stacking": True}, preset="mattel"),
    Table("stack-mixed-jump-own-2", 2, {"stack_mixed": True, "jump_in_own_card": True}),
    Table("bounce-2", 2, {"reverse_bounce": True}),
    Table("bounce-4", 4, {"reverse_bounce": True}),
    Table("bounce-mattel-3", 3, {"reverse_bounce": True}, preset="mattel"),
    Table("bounce-stack-mixed-4", 4, {"reverse_bounce": True, "stack_mixed": True}),
    Table("jump-in-2", 2, {"jump_in": True}),
    Table("jump-in-4", 4, {"jump_in": True}),
    Table("jump-in-own-3", 3, {"jump_in_own_card": True}),
    Table("jump-in-mattel-4", 4, {"jump_in": True}, preset="mattel"),
    Table("jump-in-no-deflect-4", 4,
          {"jump_in": True, "draw2_response": "NONE", "wd4_response": "NONE"}),
    Table("jump-own-bounce-stacking-5", 5,
          {"jump_in_own_card": True, "reverse_bounce": True, "stacking": True}),
    Table("rotation-4", 4, {"colour_rotation": True}),
    Table("rotation-stacking-bounce-3", 3,
          {"colour_rotation": True, "stacking": True, "reverse_bounce": True}),
    Table("plus-ten-4", 4, {"plus_ten": True}),
    Table("plus-ten-stacking-3", 3, {"plus_ten": True, "stacking": True}),
    Table("plus-ten-stack-mixed-mattel-2", 2, {"plus_ten": True, "stack_mixed": True},
          preset="mattel"),
    Table("two-player-reverse-off-2", 2, {"two_player_reverse_is_skip": False}),
    Table("two-player-reverse-off-bounce-jump-2", 2,
          {"two_player_reverse_is_skip": False, "reverse_bounce": True, "jump_in": True}),
    Table("mattel-first-card-variants-3", 3,
          {"wild_first_card": "RETURN", "reverse_first_card": "RIGHT_OF_DEALER",
           "reverse_bounce": True, "jump_in": True}, preset="mattel"),
    Table("mattel-bounce-2", 2, {"reverse_bounce": True}, preset="mattel"),
    Table("final-wd4-2", 2, keep_wd4=1.0, play_rate=1.0),
    Table("final-wd4-stacking-bounce-3", 3, {"stacking": True, "reverse_bounce": True},
          keep_wd4=1.0, play_rate=1.0),
    Table("final-wd4-jump-mattel-4", 4, {"jump_in": True}, preset="mattel",
          keep_wd4=1.0, play_rate=1.0),
    Table("final-wd4-strict-stacking-3", 3, {"wd4_enforcement": "STRICT", "stacking": True},
          keep_wd4=1.0, play_rate=1.0),
    Table("final-draw-off-stacking-3", 3, {"final_draw_resolution": False, "stacking": True},
          keep_wd4=1.0, play_rate=1.0),
    Table("misplay-4", 4, {"misplay_penalty": True}),
    Table("misplay-strict-jump-3", 3,
          {"misplay_penalty": True, "wd4_enforcement": "STRICT", "jump_in": True}),
    Table("everything-5", 5,
          {"stack_mixed": True, "reverse_bounce": True, "jump_in_own_card": True,
           "colour_rotation": True, "plus_ten": True, "voluntary_draw": False,
           "play_drawn": "MUST"}, matches=4),
    Table("everything-mattel-strict-4", 4,
          {"stack_mixed": True, "reverse_bounce": True, "jump_in": True,
           "wd4_enforcement": "STRICT", "plus_ten": True, "play_drawn": "NEVER",
           "seven_zero": True}, preset="mattel"),
    # Conflicts (§2.12, C-UNO-6): Session.new refuses them, so they are skipped.
    Table("conflict-strict-challenge", 4,
          {"wd4_enforcement": "STRICT", "challenge_enabled": True}),
    Table("conflict-stack-mixed-no-stacking", 3, {"stack_mixed": True, "stacking": False}),
)  # fmt: skip


# ==========================================================================
# The comparison
# ==========================================================================


@dataclass
class Report:
    """What one table's playouts compared, and where they disagreed."""

    positions: Counter[str] = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)


def seats_in_round(pos: Any) -> int:
    return len(pos.seats) - len(pos.uno.finished)


@dataclass(frozen=True)
class Snap:
    """The facts of a position that a report names and `check_landing`
    needs (the session changes its position in place)."""

    seat: int
    phase: int
    pending_kind: int
    pending_count: int
    discard: int  # the discard pile's length
    top: int
    colour: int
    reversed_: bool
    turn_lost: frozenset[int]
    seats: int
    in_round: int
    hand: tuple[int, ...]
    drawn: int
    top_player: int | None
    move: int

    @classmethod
    def of(cls, pos: Any) -> Snap:
        uno = pos.uno
        seat = pos.current_seat
        top_player = uno.top_player if uno.HasField("top_player") else None
        return cls(seat, uno.phase, uno.pending_kind, uno.pending_count, len(uno.discard),
                   uno.discard[-1], uno.colour, uno.reversed, frozenset(uno.turn_lost),
                   len(pos.seats), seats_in_round(pos), tuple(uno.hands[seat].cards),
                   uno.drawn_card, top_player, pos.move_number)  # fmt: skip

    def text(self, table: Table) -> str:
        """The position in the spec's notation (a black top as "W[G]")."""
        top = uno_card_text(self.top)
        if is_black(self.top):
            top += f"[{colour_text(self.colour)}]"
        phase = pb.UnoPhase.Name(self.phase).removeprefix("UNO_PHASE_")
        pending = pb.UnoPendingKind.Name(self.pending_kind).removeprefix("UNO_PENDING_KIND_")
        drawn = f" drawn={uno_card_text(self.drawn)}" if self.phase == DRAWN else ""
        hand = " ".join(uno_card_text(c) for c in self.hand)
        top_player = "-" if self.top_player is None else f"P{self.top_player}"
        return (
            f"table={table.name} preset={table.preset} seats={table.seats}"
            f" options={dict(table.options)} move={self.move} seat=P{self.seat}"
            f" top={top} colour={colour_text(self.colour)} phase={phase}"
            f" pending={pending}/{self.pending_count}{drawn} top_player={top_player}"
            f" reversed={self.reversed_} hand=[{hand}]"
        )


def compare(session: Session, opts: Opts, table: Table, report: Report) -> list[Any] | None:
    """One position: the engine's listing for the seat to act against the
    model, and the facts it rests on. Returns the listing (for the chooser),
    or None when the position is not one the model covers."""
    pos = session.position
    uno = pos.uno
    seat = pos.current_seat
    if uno.phase not in (PLAY, DRAWN, RESPOND) or seat not in session.acting_seats:
        return None  # NAME_COLOUR, or an overlay's pause (none in these tables)
    problems: list[str] = []
    if uno.phase == RESPOND:
        kind = uno.pending_kind
        report.positions["RESPOND " + pb.UnoPendingKind.Name(kind)[17:]] += 1
        if not waits(kind, opts):
            problems.append("RESPOND on a kind with no answer under the options (C-UNO-1)")
        if not kind_fits_top(kind, uno.discard[-1], seats_in_round(pos), opts):
            problems.append("the pending kind does not fit the top card (§2.4, H11)")
        if not uno.HasField("top_player"):
            problems.append("RESPOND on a card nobody played (U1, B6: no answer)")
        if is_final(uno, opts):
            report.positions["RESPOND final"] += 1
    if seat in uno.turn_lost:
        problems.append("the seat to act has lost its turn (R5, D3)")
    mine = model(pos, opts)
    assert mine is not None
    listing = session.legal_moves(seat)
    engine, jumps = engine_moves(listing)
    if jumps:
        problems.append(f"the seat to act is offered jump-ins {jumps} (D13)")
    report.positions[pb.UnoPhase.Name(uno.phase).removeprefix("UNO_PHASE_")] += 1
    if mine != engine:
        problems.append(f"engine {engine.text()} model {mine.text()}")
    for problem in problems:
        report.disagreements.append(f"{problem}: {Snap.of(pos).text(table)}")
    return listing


def check_landing(
    before: Snap, opts: Opts, card: int, after: Any, table: Table, report: Report
) -> None:
    """After a card played by the seat to act (its turn's card, its drawn
    card or its answer) lands on top: under H9 a black card took the next
    colour on the wheel in the direction of play (B23); the effect it sends
    waits for the next seat's answer exactly when C-UNO-1 says so, except for
    a seat that lost its turn (D3: it draws at once), and when the card ended
    the round, where only a final W+4 waits, under U13 and U5 (R10, B11)."""
    uno = after.uno
    if len(uno.discard) != before.discard + 1 or uno.discard[-1] != card:
        return  # a misplay (H17) or a restock: nothing landed as played
    report.positions["landings"] += 1
    problems: list[str] = []
    if opts.rotation and is_black(card):
        want = next_colour(before.colour, before.reversed_)
        if uno.colour != want:
            problems.append(
                f"H9: {uno_card_text(card)} turned {colour_text(before.colour)} into "
                f"{colour_text(uno.colour)}, the wheel says {colour_text(want)}"
            )
    kind = effect_of(card, before.phase, before.pending_kind, before.in_round, opts)
    if kind and not opts.play_to_last:
        target = (before.seat + (-1 if uno.reversed else 1)) % before.seats
        if target in before.turn_lost:
            expect = False
        elif not uno.hands[before.seat].cards:
            report.positions["landings final"] += 1
            expect = card == WILD_DRAW_FOUR and opts.final_draw and opts.challenge
        else:
            expect = waits(kind, opts)
        waited = uno.phase == RESPOND and after.current_seat == target
        if expect != waited:
            problems.append(
                f"{uno_card_text(card)} played: expected {'a' if expect else 'no'} wait for "
                f"P{target}'s answer (C-UNO-1), got {pb.UnoPhase.Name(uno.phase)} with "
                f"P{after.current_seat} to act"
            )
    for problem in problems:
        report.disagreements.append(f"{problem}: {before.text(table)}")


# ==========================================================================
# The seeded playouts
# ==========================================================================


def _sensible(move: tuple[str, int], legal: frozenset[int]) -> bool:
    """Under U16: not a misplay, a false catch or a false call (all listed)."""
    action, card = move
    return action not in ("catch", "call_uno") and (action != "play" or card in legal)


def choose(
    session: Session,
    rng: random.Random,
    listing: list[Any] | None,
    table: Table,
    legal: frozenset[int] | None,
) -> tuple[int, Any]:
    """A seeded random move and its seat: mostly the seat to act's, favouring
    card plays (so that draw cards meet their answers) and keeping a Wild Draw
    Four back (so that final ones happen); sometimes another acting seat's
    (jump-ins, catches, calls) — a seat offered only a jump-in window may list
    nothing (D2). Under U16 (`legal`: the legal cards) a misplay, a catch or a
    call is chosen one time in ten at most."""
    seats = session.acting_seats
    current = session.position.current_seat
    seat = current if current in seats and rng.random() < 0.85 else rng.choice(seats)
    if seat != current or listing is None:
        listing = session.legal_moves(seat)
    if not listing:
        seat = current
        listing = session.legal_moves(seat)
    plays = [m for m in listing if parsed(m)[0] in ("play", "jump_in")]
    if legal is not None and seat == current and rng.random() < 0.9:
        plays = [m for m in plays if parsed(m)[1] in legal]
        listing = [m for m in listing if _sensible(parsed(m), legal)] or listing
    if len(session.position.uno.hands[seat].cards) > 1 and rng.random() < table.keep_wd4:
        plays = [m for m in plays if parsed(m)[1] != WILD_DRAW_FOUR]
        listing = [m for m in listing if parsed(m)[1] != WILD_DRAW_FOUR] or listing
    if plays and rng.random() < table.play_rate:
        return seat, rng.choice(plays)
    return seat, rng.choice(listing)


# The cards whose landing `check_landing` looks at.
_WATCHED = frozenset(
    {Kind.DRAW_TWO, Kind.WILD_DRAW_FOUR, Kind.BLANK, Kind.SKIP, Kind.REVERSE, Kind.WILD}
)


def run_table(table: Table) -> Report | None:
    """Play the table's seeded matches, comparing every position; None when
    Session.new refuses the options (a conflict, C-UNO-6)."""
    report = Report()
    for match in range(table.matches):
        seed = zlib.crc32(table.name.encode()) * 10 + match
        try:
            session = Session.new("uno", preset=table.preset, seat_count=table.seats,
                                  seed=seed, options=dict(table.options))  # fmt: skip
        except InvalidInput:
            return None
        opts = Opts.of(session.position.options.uno)
        rng = random.Random(seed)
        for _ in range(table.moves):
            if session.over:
                break
            if session.deal_over:
                session.next_deal()
                continue
            listing = compare(session, opts, table, report)
            legal = None
            if opts.misplay and listing is not None:
                moves = legal_moves(session.position, opts)
                legal = None if moves is None else moves.cards
            seat, choice = choose(session, rng, listing, table, legal)
            pos = session.position
            action, card = parsed(choice)
            watched = (
                action == "play"
                and seat == pos.current_seat
                and KIND_OF[card] in _WATCHED
                and pos.uno.phase in (PLAY, DRAWN, RESPOND)
            )
            before = Snap.of(pos) if watched else None
            session.play(choice)
            if before is not None:
                check_landing(before, opts, card, session.position, table, report)
    return report


_REPORTS: dict[str, Report | None] = {}


def report_of(table: Table) -> Report | None:
    """The table's report, played once per test session."""
    if table.name not in _REPORTS:
        _REPORTS[table.name] = run_table(table)
    return _REPORTS[table.name]


# ==========================================================================
# The tests
# ==========================================================================


@pytest.mark.parametrize("table", TABLES, ids=[t.name for t in TABLES])
def test_engine_agrees_with_the_model(table: Table) -> None:
    report = report_of(table)
    if report is None:
        pytest.skip("Session.new refuses this option combination (C-UNO-6)")
    print(f"{table.name}: {dict(sorted(report.positions.items()))}")
    assert report.positions["PLAY"] > 200
    assert not report.disagreements, "\n".join(report.disagreements[:20])


def c(text: str) -> int:
    return parse_uno_card(text)


def hand_of(text: str) -> list[int]:
    return [c(t) for t in text.split()]


def test_the_model_on_the_spec_situations() -> None:
    """The model itself on §2.14's situations, so that it cannot agree with a
    wrong engine unnoticed."""
    seed = Opts.of(Session.new("uno", seat_count=4, seed=1).position.options.uno)
    mattel = Opts.of(Session.new("uno", preset="mattel", seat_count=4, seed=1).position.options.uno)
    strict = dataclasses.replace(seed, strict=True, challenge=False)
    bounce = dataclasses.replace(seed, bounce=True)
    no_voluntary = dataclasses.replace(seed, voluntary_draw=False)
    plus_ten = dataclasses.replace(seed, plus_ten=True)
    # UNO-01: top R7, [B7, BSkip, G2]: B7 only.
    assert play_phase(hand_of("B7 BSkip G2"), c("R7"), RED, seed).cards == {c("B7")}
    # UNO-03: top W[G], [G3, R3, W, Y+2]: G3 and W.
    assert play_phase(hand_of("G3 R3 W Y+2"), c("W"), GREEN, seed).cards == {c("G3"), c("W")}
    # UNO-04: top R9, [R2, W+4, G5]: the W+4 under CHALLENGE_ONLY, not under STRICT.
    hand = hand_of("R2 W+4 G5")
    assert c("W+4") in play_phase(hand, c("R9"), RED, seed).cards
    assert c("W+4") not in play_phase(hand, c("R9"), RED, strict).cards
    # UNO-12: a W+4 naming G pending: G+2 answers, R+2 does not; CHALLENGE open.
    got = respond_phase(hand_of("G+2 R+2"), P_WD4, c("W+4"), GREEN, False, seed)
    assert got == Moves(frozenset({c("G+2")}), accept=True, challenge=True)
    # UNO-09 / UNO-10: any +2 answers a +2 (SEED); under MATTEL a +2 never waits.
    assert respond_phase([c("B+2")], P_DRAW_TWO, c("R+2"), RED, False, seed).cards == {c("B+2")}
    assert not waits(P_DRAW_TWO, mattel) and waits(P_WD4, mattel)
    # UNO-31: H11, an R+2 pending, [RRev, BRev]: RRev only.
    got = respond_phase(hand_of("RRev BRev"), P_DRAW_TWO, c("R+2"), RED, False, bounce)
    assert got.cards == {c("RRev")}
    # UNO-46: a Skip waits only under H11 or H1.
    assert not waits(P_SKIP, seed) and waits(P_SKIP, bounce)
    # UNO-18 / UNO-19: DRAW with a legal card held (U8); without U8 only with none.
    assert play_phase(hand_of("G9 R1"), c("G2"), GREEN, seed).draw
    assert not play_phase(hand_of("G9 R1"), c("G2"), GREEN, no_voluntary).draw
    assert play_phase(hand_of("R1"), c("G2"), GREEN, no_voluntary).draw
    # UNO-18: after the draw only the drawn card, and PASS.
    got = drawn_phase(hand_of("R5 Y7 G5"), c("G5"), c("G2"), GREEN, seed)
    assert got == Moves(frozenset({c("G5")}), pass_=True)
    # UNO-30: the wheel.
    assert next_colour(RED, False) == BLUE and next_colour(YELLOW, True) == GREEN
    # UNO-45 / B11: a final W+4: ACCEPT or CHALLENGE, no answer.
    got = respond_phase(hand_of("R+2"), P_WD4, c("W+4"), RED, True, seed)
    assert got == Moves(frozenset(), accept=True, challenge=True)
    # B24: "+10" like a Wild, only under H10.
    assert c("X+10") not in play_phase([c("X+10")], c("R7"), RED, seed).cards
    assert c("X+10") in play_phase([c("X+10")], c("R7"), RED, plus_ten).cards


def test_the_playouts_reach_every_case_and_stay_fast() -> None:
    """Every pending kind, final Wild Draw Fours and the drawn-card phase are
    met; the whole file's playouts stay well inside 5 seconds."""
    start = time.perf_counter()
    totals: Counter[str] = Counter()
    for table in TABLES:
        report = report_of(table)
        if report is not None:
            totals.update(report.positions)
    print(f"all tables: {dict(sorted(totals.items()))} ({time.perf_counter() - start:.2f}s)")
    for key in ("PLAY", "DRAWN", "RESPOND", "landings"):
        assert totals[key] > 1000, key
    for kind in ("DRAW_TWO", "WILD_DRAW_FOUR", "PLUS_TEN", "SKIP"):
        assert totals["RESPOND " + kind] > 100, kind
    assert totals["RESPOND final"] > 5
