"""What each card does under a table's options, compiled once per option set.

The rules read plain Python attributes rather than protobuf fields: a table's
options never change during a match, so `rules_for` builds a `Rules` once per
distinct option set and every move after that is a dictionary look-up.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.engine import caches, cards
from croupier.engine.cards import ACE, KING_OF_SPADES, QUEEN, RANK_OF, SUIT_OF
from croupier.engine.live import compiled_rules
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb

_FINISH_RANKS = {
    pb.HUNDRED_AND_ONE_FINISH_ACE: ACE,
    pb.HUNDRED_AND_ONE_FINISH_SEVEN: 7,
    pb.HUNDRED_AND_ONE_FINISH_NINE: 9,
    pb.HUNDRED_AND_ONE_FINISH_SIX: 6,
    pb.HUNDRED_AND_ONE_FINISH_EIGHT: 8,
    pb.HUNDRED_AND_ONE_FINISH_TEN: 10,
    pb.HUNDRED_AND_ONE_FINISH_QUEEN: QUEEN,
}


# O13 `ordinary_specials`: the ranks whose effects it takes away (with K♠).
_ORDINARY_RANKS = frozenset({6, 7, 8, 10})


@dataclass(frozen=True)
class Effect:
    """What playing one card does (RULES.md, Card effects)."""

    draw_next: int = 0  # next(p) draws this many and is skipped (C5)
    transferable: bool = False  # ... unless he passes it on (a draw 6/7 with O11, §1.3.4)
    skip_next: bool = False  # A: next(p) loses his turn
    cover_self: bool = False  # C6: p must play again on it (HD 8, CL 9, RU 6)
    cover_next: bool = False  # RU six_cover_by NEXT: next(p) must cover it
    reverse: bool = False  # HD 10
    draw_previous: int = 0  # ALT five: prev(p) draws, next(p) is skipped


NO_EFFECT = Effect()


class Rules:
    """The options of one table, resolved into per-card facts."""

    def __init__(self, o: pb.HundredAndOneOptions) -> None:
        # A copy, not `o`: `o` is part of a request, and any part of a parsed
        # request keeps all of it alive (upb parses it into one arena), while
        # compiled rules stay cached (rules_for): 4 MiB per option set (F4).
        self.options = pb.HundredAndOneOptions()
        self.options.CopyFrom(o)
        self.effects_family = o.effects
        self.deck = cards.deck(lowest_rank=6 if o.deck_size == 36 else 2)
        self.lead_any = o.opening == pb.HUNDRED_AND_ONE_OPENING_LEAD_ANY
        self.upcard_effects = o.upcard_effects
        self.first_move_any = o.first_move_any
        self.hand_size = o.hand_size
        self.draw_until_playable = o.draw_rule == pb.HUNDRED_AND_ONE_DRAW_RULE_UNTIL_PLAYABLE
        self.voluntary_draw = o.voluntary_draw
        self.must_play_drawn = o.must_play_drawn
        self.restock_shuffle = o.restock_shuffle
        hd = o.effects == pb.HUNDRED_AND_ONE_EFFECTS_HD
        specials = not o.ordinary_specials  # O13, in every version
        # O11 in every version (§1.7 lists it "off", not "—"); inert under O13.
        self.transfer = specials and o.transfer_6_7
        self.transfer_accumulates = self.transfer and o.transfer_accumulates
        self.eight_draw_three = hd and o.eight_draw_mode == pb.HUNDRED_AND_ONE_EIGHT_DRAW_MODE_THREE
        self.eight_last_must_cover = o.eight_last_must_cover
        self.nine_cover_allows_queen = o.nine_cover_allows_queen
        self.resolve_final_penalty = o.resolve_final_penalty
        self.queen_finish_bonus = o.queen_finish_bonus
        self.kspades_in_hand_40 = o.kspades_in_hand_40
        self.lone_queen_penalty = o.lone_queen_penalty
        self.lone_queen_any = (
            o.lone_queen_scope == pb.HUNDRED_AND_ONE_LONE_QUEEN_SCOPE_ANY_SINGLE_QUEEN
        )
        self.reset_100_to_50 = o.reset_100_to_50
        self.exact_101_reset = o.exact_101_reset
        self.first_bust_ends = o.bust_rule == pb.HUNDRED_AND_ONE_BUST_RULE_FIRST_BUST_ENDS
        self.negative_limit = o.negative_limit

        forbidden_ranks = {_FINISH_RANKS[f] for f in o.forbidden_finish if f in _FINISH_RANKS}
        if o.no_finish_on_nine:
            forbidden_ranks.add(9)
        forbidden = {c for c in self.deck if RANK_OF[c] in forbidden_ranks}
        if pb.HUNDRED_AND_ONE_FINISH_KING_OF_SPADES in o.forbidden_finish:
            forbidden.add(KING_OF_SPADES)
        self.forbidden_finish = frozenset(forbidden)

        self.effect: dict[int, Effect] = {c: self._effect(c, o, hd, specials) for c in self.deck}

    def _effect(self, card: int, o: pb.HundredAndOneOptions, hd: bool, specials: bool) -> Effect:
        rank = RANK_OF[card]
        family = o.effects
        ru = family == pb.HUNDRED_AND_ONE_EFFECTS_RU
        if rank == ACE:
            return Effect(skip_next=True)
        if rank == 5 and o.fives_active:
            return Effect(draw_previous=4 if SUIT_OF[card] == cards.SPADES else 2, skip_next=True)
        if not specials and (card == KING_OF_SPADES or rank in _ORDINARY_RANKS):
            return NO_EFFECT  # O13: 6, 7, 8, 10 and K♠ are plain (CL's 9 keeps its cover)
        if card == KING_OF_SPADES:
            return Effect(draw_next=o.kspades_draw)
        if rank == 6:
            if ru:
                by_next = o.six_cover_by == pb.HUNDRED_AND_ONE_SIX_COVER_BY_NEXT
                return Effect(cover_next=by_next, cover_self=not by_next)
            return Effect(draw_next=1, transferable=self.transfer)
        if rank == 7:
            count = o.seven_spades_draw if SUIT_OF[card] == cards.SPADES else 2
            return Effect(draw_next=count, transferable=self.transfer)
        if rank == 8 and hd:
            return Effect(cover_self=True)
        if rank == 9 and family == pb.HUNDRED_AND_ONE_EFFECTS_CL:
            return Effect(cover_self=True)
        if rank == 10 and hd:
            return Effect(reverse=True)
        return NO_EFFECT

    def matches(self, card: int, top: int, active_suit: int) -> bool:
        """C2: a Queen, a card of the active suit, or a card of the top's rank."""
        return (
            RANK_OF[card] == QUEEN or SUIT_OF[card] == active_suit or RANK_OF[card] == RANK_OF[top]
        )

    def covers(self, card: int, top: int, active_suit: int) -> bool:
        """C6: a legal play on the card to be covered (CL may bar Queens, A14)."""
        if RANK_OF[card] == QUEEN and not self.nine_cover_allows_queen and RANK_OF[top] == 9:
            return SUIT_OF[card] == active_suit
        return self.matches(card, top, active_suit)


# The compiled rules of an option set (options already validated), cached
# by the options' bytes within a bound (engine/caches.py).
rules_for: caches.CompiledRules[pb.HundredAndOneOptions, Rules] = caches.CompiledRules(
    "hundred_and_one.rules.compiled", Rules, 5300
)


def rules_of(state: game_pb2.GameState) -> Rules:
    """The compiled rules of a state's options: `rules_for`, kept by a live
    session's mirror for the whole deal (engine/live.py, compiled_rules)."""
    return compiled_rules(state, "hundred_and_one", rules_for)
