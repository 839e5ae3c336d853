"""A table's options compiled once into plain attributes (like 101's rules.py).

The options of a table never change during a match, so `rules_for` builds
one `Rules` per distinct option set; every move after that reads attributes.
"""

from __future__ import annotations

from croupier.engine import caches, cards
from croupier.engine.melds import COURT_VALUES, STANDARD_VALUES, UNLIMITED, MeldRules
from croupier.v1 import scala40_pb2 as pb

OPENING_THRESHOLD = 40  # R-S40-40: the game's name
FLAT_UNOPENED_PENALTY = 100  # V9
HAND_SIZE = 13  # R-S40-05
# K-S40-1: the stock turned over this often with no card laid on the table
# since: the deal can no longer end, it is void.
STALEMATE_RESTOCKS = 3
# Turns a seat has begun in a deal (`turns_started`): counted up to this and
# no further (only "first turn or not" matters to the rules), so that the
# count never overflows uint32 and every answered state stays valid. No deal
# comes near it.
MAX_TURNS = 2**31
DECK = tuple(cards.double_pack_108())  # R-S40-01


class Rules:
    """The options of one table, resolved."""

    def __init__(self, o: pb.Scala40Options) -> None:
        # A copy, not `o`: `o` is part of a request, and any part of a parsed
        # request keeps all of it alive (upb parses it into one arena), while
        # compiled rules stay cached (rules_for): 4 MiB per option set (F4).
        self.options = pb.Scala40Options()
        self.options.CopyFrom(o)
        self.match_mode = o.match_mode
        self.elimination = o.match_mode == pb.SCALA40_MATCH_MODE_ELIMINATION
        self.single_deal = o.match_mode == pb.SCALA40_MATCH_MODE_SINGLE_DEAL
        self.no_elimination = o.match_mode == pb.SCALA40_MATCH_MODE_NO_ELIMINATION
        self.threshold = o.elimination_threshold
        self.reentry = o.reentry
        self.target = o.no_elimination_target
        self.court_values = o.court_values_11_14
        self.pickup_for_opening = o.discard_pickup_for_opening
        self.pickup_keep = o.discard_pickup_keep
        self.close_in_hand_doubles = o.close_in_hand_doubles
        self.close_on_first_turn = o.close_on_first_turn
        self.flat_100 = o.unopened_flat_penalty_100
        self.ban_playable_unopened = o.forbid_playable_discard_unopened
        self.ban_playable_opened = o.forbid_playable_discard_opened
        self.ban_playable_closing = o.forbid_playable_discard_closing
        self.first_player_takes_upcard = o.first_player_may_take_upcard
        self.close_without_discard = o.close_without_discard
        self.quads_to_discard = o.quads_to_discard_pile
        self.split_max5 = o.sequence_split_max5
        self.joker_swap_for_opening = o.joker_swap_for_opening
        self.declare_joker = o.declare_ambiguous_joker
        self.teams = o.teams
        self.retrieved_joker_used = o.retrieved_joker_must_be_used
        self.upcard_joker_redraw = o.upcard_joker_redraw
        self.close_in_hand_needs_40 = o.close_in_hand_requires_40
        # V23 only means something while jokers must declare (V17 on): inert otherwise.
        self.positional_convention = o.set_joker_positional_convention and o.declare_ambiguous_joker
        self.joker_discard = o.joker_discard
        unlimited = o.max_jokers_per_meld == pb.SCALA40_JOKERS_PER_MELD_UNLIMITED
        # V14 overrides V22: sequences of at most 5 cards.
        self.max_sequence = 5 if o.sequence_split_max5 else o.max_sequence_length
        self.melds = MeldRules(
            max_jokers=UNLIMITED if unlimited else 1,
            max_sequence_length=self.max_sequence,
            values=COURT_VALUES if o.court_values_11_14 else STANDARD_VALUES,
            undeclared_set_joker=not o.declare_ambiguous_joker,
        )
        # §1.1.1 penalty values of a card left in hand (V5: J11 Q12 K13 A14, joker 14).
        ranks = COURT_VALUES if o.court_values_11_14 else STANDARD_VALUES
        joker = 14 if o.court_values_11_14 else 25
        self.penalty = [0] * (cards.BLACK_JOKER + 1)
        for value in range(1, cards.LAST_SUITED + 1):
            self.penalty[value] = ranks[cards.RANK_OF[value]]
        for value in cards.JOKERS:
            self.penalty[value] = joker


# The compiled rules of an option set (options already validated), cached
# by the options' bytes within a bound (engine/caches.py).
rules_for: caches.CompiledRules[pb.Scala40Options, Rules] = caches.CompiledRules(
    "scala40.rules.compiled", Rules, 2600
)
