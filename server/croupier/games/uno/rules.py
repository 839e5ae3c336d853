"""What the cards do under a table's options, compiled once per option set.

A table's options never change during a match, so `rules_for` builds a
`Rules` once per distinct option set: flags as plain attributes, the deck,
which pending effects wait for an answer (C-UNO-1), and card-matching tables
(R3) keyed by the top card and colour, so that every move after that is a
few look-ups.
"""

from __future__ import annotations

from collections.abc import Iterable

from croupier.engine import caches
from croupier.engine.live import compiled_rules
from croupier.engine.uno_cards import (
    BLANK,
    COLOUR_OF,
    COLOURS,
    DRAW_TWO,
    KIND_OF,
    NUMBER_OF,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    Kind,
    is_coloured,
    uno_card,
    uno_deck,
)
from croupier.v1 import cards_pb2, game_pb2
from croupier.v1 import uno_pb2 as pb

DRAW_TWO_PENDING = pb.UNO_PENDING_KIND_DRAW_TWO
WD4_PENDING = pb.UNO_PENDING_KIND_WILD_DRAW_FOUR
PLUS_TEN_PENDING = pb.UNO_PENDING_KIND_PLUS_TEN
SKIP_PENDING = pb.UNO_PENDING_KIND_SKIP
DRAW_PENDINGS = (DRAW_TWO_PENDING, WD4_PENDING, PLUS_TEN_PENDING)

# The pending effect a card imposes on the next player, and its own count.
PENDING_OF: dict[Kind, tuple[int, int]] = {
    Kind.DRAW_TWO: (DRAW_TWO_PENDING, 2),
    Kind.WILD_DRAW_FOUR: (WD4_PENDING, 4),
    Kind.BLANK: (PLUS_TEN_PENDING, 10),
    Kind.SKIP: (SKIP_PENDING, 0),
}

# R1: number cards at face value, coloured actions 20, black cards 50 (the
# "+10" blank too, B24).
CARD_POINTS: tuple[int, ...] = tuple(
    NUMBER_OF[v] if KIND_OF[v] == Kind.NUMBER else 20 if is_coloured(v) else 50 if v else 0
    for v in range(BLANK + 1)
)

# H9: the black cards' colour wheel (B23): clockwise R → B → G → Y → R.
_WHEEL = (cards_pb2.UNO_COLOR_RED, cards_pb2.UNO_COLOR_BLUE, cards_pb2.UNO_COLOR_GREEN,
          cards_pb2.UNO_COLOR_YELLOW)  # fmt: skip


def wheel_next(colour: int, reversed_: bool) -> int:
    """H9: the colour after `colour` on the wheel in the direction of play."""
    i = _WHEEL.index(colour)
    return _WHEEL[(i - 1) % 4] if reversed_ else _WHEEL[(i + 1) % 4]


def h2o_label_due(rules: Rules, hand_size: int, stage: int) -> bool:
    """H15 (C-UNO-7): a play names an H2O label only with the card that wins
    the round: the last of the hand (`hand_size` counts it), at H13's last
    stage (`stage`; any without H13)."""
    return rules.h2o and hand_size == 1 and (not rules.seven_rounds or stage == 1)


def wd4_condition_met(card: int, hand: Iterable[int], colour: int) -> bool:
    """R7's condition, whatever enforces it: `card` is no Wild Draw Four, or
    the hand holds no card of the current colour. Under CHALLENGE_ONLY a
    Wild Draw Four that fails it is a bluff: accepted as a move, but not a
    legal card that U9 MUST obliges a seat to play (RULES.md U9, B8)."""
    return card != WILD_DRAW_FOUR or all(COLOUR_OF[c] != colour for c in hand)


def matches(card: int, top: int, colour: int) -> bool:
    """R3: a black card always; a coloured card of the current colour, or of
    the top card's number (number on number) or symbol (action on action).
    After a black top only the colour counts."""
    kind = KIND_OF[card]
    if kind >= Kind.WILD:
        return True
    if COLOUR_OF[card] == colour:
        return True
    top_kind = KIND_OF[top]
    if top_kind == Kind.NUMBER:
        return kind == Kind.NUMBER and NUMBER_OF[card] == NUMBER_OF[top]
    if Kind.SKIP <= top_kind <= Kind.DRAW_TWO:
        return kind == top_kind
    return False


def identical(card: int, top: int) -> bool:
    """H1: the same colour and number or symbol, or a plain Wild on a Wild
    (B35); never a Wild Draw Four or a "+10"."""
    if top == WILD:
        return card == WILD
    return card == top and is_coloured(top)


# H1 windows open on cards with a twin in the deck: not a 0 (one per
# colour), not a Wild Draw Four or "+10" (never jumped in).
JUMPABLE = frozenset(v for v in range(1, BLANK + 1)
                     if v == WILD or (is_coloured(v) and NUMBER_OF[v] != 0))  # fmt: skip


class Rules:
    """The options of one table, resolved into plain facts."""

    def __init__(self, o: pb.UnoOptions) -> None:
        # A copy, not `o`: `o` is part of a request, and any part of a parsed
        # request keeps all of it alive (upb parses it into one arena), while
        # compiled rules stay cached (rules_for): 4 MiB per option set (F4).
        self.options = pb.UnoOptions()
        self.options.CopyFrom(o)
        self.deck = uno_deck(blank_cards=o.plus_ten)  # U18 alone is inert (§2.1)
        self.number_only_first = o.first_card_policy == pb.UNO_FIRST_CARD_POLICY_NUMBER_ONLY
        self.wild_first_chooses = o.wild_first_card == pb.UNO_WILD_FIRST_CARD_FIRST_PLAYER_CHOOSES
        self.reverse_dealer_first = o.reverse_first_card == pb.UNO_REVERSE_FIRST_CARD_DEALER_FIRST
        self.deflect_two = o.draw2_response == pb.UNO_DRAW_TWO_RESPONSE_DEFLECT_ANY_COLOUR
        self.deflect_four = (
            o.wd4_response == pb.UNO_WILD_DRAW_FOUR_RESPONSE_DEFLECT_DRAW_TWO_NAMED_COLOUR
        )
        self.challenge = o.challenge_enabled
        self.challenge_seed = o.challenge_outcome == pb.UNO_CHALLENGE_OUTCOME_SEED
        self.strict_wd4 = o.wd4_enforcement == pb.UNO_WILD_DRAW_FOUR_ENFORCEMENT_STRICT
        self.voluntary_draw = o.voluntary_draw
        self.play_drawn = o.play_drawn
        self.until_caught = o.uno_call_timing == pb.UNO_CALL_TIMING_UNTIL_CAUGHT
        self.uno_penalty = o.uno_penalty
        self.two_player_reverse_skip = o.two_player_reverse_is_skip
        self.final_draw = o.final_draw_resolution
        self.scoring = o.scoring_method
        self.target = o.target
        self.limit = o.limit
        self.lazy_rounds = o.lazy_rounds
        self.misplay = o.misplay_penalty
        self.dealer_highest = o.dealer_selection == pb.UNO_DEALER_SELECTION_HIGHEST_CARD
        self.jump_in = o.jump_in
        self.jump_own = o.jump_in_own_card
        self.seven_zero = o.seven_zero
        self.stacking = o.stacking
        self.stack_mixed = o.stack_mixed
        self.silent_twos = o.silent_trigger == pb.UNO_SILENT_TRIGGER_TWOS
        self.silent_black = o.silent_trigger == pb.UNO_SILENT_TRIGGER_BLACK
        self.swap_five = o.swap_on_five
        self.slap = o.uno_in_centre
        self.rotation = o.colour_rotation
        self.plus_ten = o.plus_ten
        self.bounce = o.reverse_bounce
        self.play_to_last = o.play_to_last
        # H6's exchange, H16's "Ready" and H8's slap window pause the game
        # for their own moves: without these options no overlay can be open.
        self.overlays = self.swap_five or o.politeness_ready or self.slap
        self.seven_rounds = o.seven_rounds
        self.zero50 = o.zero_worth_50
        self.zero50_any = o.zero50_scope == pb.UNO_ZERO_SCOPE_ANY_ZERO
        self.h2o = o.h2o_finish_bonus
        self.ready = o.politeness_ready
        # C-UNO-1 (and C-UNO-2): which pending effects wait for their target's
        # answer; the others resolve at once. Options only, never a hand.
        self.waits: dict[int, bool] = {
            DRAW_TWO_PENDING: self.deflect_two or self.stacking or self.bounce or self.jump_in,
            WD4_PENDING: self.deflect_four or self.challenge or self.stacking or self.bounce,
            PLUS_TEN_PENDING: self.stacking,
            SKIP_PENDING: self.bounce or self.jump_in,
        }
        self._playable: dict[tuple[int, int], frozenset[int]] = {}
        self._answers: dict[tuple[int, int, int], frozenset[int]] = {}

    def playable_on(self, top: int, colour: int) -> frozenset[int]:
        """Every card of the deck that R3 lets follow `top` in `colour`."""
        key = (top, colour)
        cards = self._playable.get(key)
        if cards is None:
            cards = self._playable[key] = frozenset(c for c in self.deck if matches(c, top, colour))
        return cards

    def answers(self, kind: int, top: int, colour: int) -> frozenset[int]:
        """R6: the cards that answer a pending effect of `kind` (top card
        `top`, colour `colour`) under these options (table 2.4, H1, H4, H11)."""
        key = (kind, top, colour)
        cards = self._answers.get(key)
        if cards is None:
            cards = self._answers[key] = frozenset(self._answer_cards(kind, top, colour))
        return cards

    def _answer_cards(self, kind: int, top: int, colour: int) -> set[int]:
        out: set[int] = set()
        draw_twos = {uno_card(c, DRAW_TWO) for c in COLOURS}
        if kind == DRAW_TWO_PENDING:
            if self.deflect_two or self.stacking:
                out |= draw_twos  # U3 (any colour), H4
            if self.stack_mixed:
                out.add(WILD_DRAW_FOUR)  # H4 stack_mixed
        elif kind == WD4_PENDING:
            if self.deflect_four:
                out.add(uno_card(colour, DRAW_TWO))  # U4: the named colour
            if self.stacking:
                out.add(WILD_DRAW_FOUR)  # H4
        elif kind == PLUS_TEN_PENDING and self.stacking:
            out.add(BLANK)  # H10 under H4 (B24)
        if self.bounce and kind != PLUS_TEN_PENDING:
            out.add(uno_card(colour, REVERSE))  # H11: a Reverse of the current colour
        if self.jump_in and kind in (DRAW_TWO_PENDING, SKIP_PENDING) and top in JUMPABLE:
            out.add(top)  # H1, C-UNO-2: the target's own jump-in
        return {c for c in out if c in self.deck}


# The compiled rules of an option set (options already validated), cached
# by the options' bytes within a bound (engine/caches.py).
rules_for: caches.CompiledRules[pb.UnoOptions, Rules] = caches.CompiledRules(
    "uno.rules.compiled", Rules, 4700
)


def rules_of(state: game_pb2.GameState) -> Rules:
    """The compiled rules of a state's options: `rules_for`, kept by a live
    session's mirror for the whole deal (engine/live.py, compiled_rules)."""
    return compiled_rules(state, "uno", rules_for)


__all__ = [
    "CARD_POINTS",
    "DRAW_PENDINGS",
    "JUMPABLE",
    "PENDING_OF",
    "Rules",
    "SKIP",
    "identical",
    "matches",
    "rules_for",
    "rules_of",
    "wheel_next",
]
