"""UNO for learners: its observation and its action vocabulary.

Actions (stable): every play of every card of the table's deck with each
choice the options let it carry — a black card's colour (none under H9's
colour rotation), H15's H2O labels of a last card, without and with
"UNO!", a 7's hand swap (H3) with each other seat, a 5's card exchange
(H6) with each other seat and each card —
then the same as jump-ins (H1), then DRAW, PASS, ACCEPT, CHALLENGE, UNO,
CATCH of each other seat, SLAP, TIME, REPORT of each other seat, GIVE of each
card, COLOUR of each colour, READY (legal.py's listing, in the same order).
Other seats are named relative to the mover: "CATCH +1" is one number for
every seat. About 300 actions at 2 seats without H3/H6; H6 adds a 5's
exchanges with every seat and card (several thousand at 10 seats).
"""

from __future__ import annotations

import numpy as np

from croupier.engine.uno_cards import BLANK, COLOURS, KIND_OF, NUMBER_OF, Kind
from croupier.games.uno.legal import H2O_LABELS, action_move, play_move
from croupier.games.uno.rules import rules_for
from croupier.rl.actions import Vocabulary
from croupier.rl.encoder import Encoder
from croupier.rl.layout import UNBOUNDED, Layout, add_counts, set_one_hot
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

CARDS = BLANK  # UnoCard values 1..55
COPIES = 4  # Wilds, Wild Draw Fours and blanks come four times
DECK = 112
COLOUR_VALUES = 5  # UnoColor: unspecified and the four colours
PHASES = len(pb.UnoPhase.values())
PENDING_KINDS = len(pb.UnoPendingKind.values())
MAX_STAGE = 7  # H13's stages run from 7 down to 1


def vocabulary_of(state: game_pb2.GameState) -> Vocabulary:
    """The vocabulary of an UNO table (its options)."""
    rules = rules_for(state.options.uno)
    cards = sorted(set(rules.deck))
    labels = H2O_LABELS if rules.h2o else (0,)  # H15: a last card's labels

    def plays(seat: int, seats: int, jump: bool) -> list[game_pb2.Move]:
        others = [(seat + step) % seats for step in range(1, seats)]
        out = []
        for card in cards:
            black = KIND_OF[card] >= Kind.WILD
            colours = COLOURS if black and not rules.rotation else (0,)
            swaps: list[tuple[int, int]] = [(-1, 0)]
            if rules.seven_zero and NUMBER_OF[card] == 7:
                swaps += [(other, 0) for other in others]
            elif rules.swap_five and NUMBER_OF[card] == 5:
                swaps += [(other, give) for other in others for give in cards]
            for colour in colours:
                for label in labels:
                    for uno in (False, True):
                        for swap_with, give in swaps:
                            out.append(
                                play_move(
                                    seat, card, colour, uno, swap_with, give, label, jump=jump
                                )
                            )
        return out

    def vocabulary(seat: int, seats: int) -> list[game_pb2.Move]:
        others = [(seat + step) % seats for step in range(1, seats)]
        moves = plays(seat, seats, False) + plays(seat, seats, True)
        moves += [action_move(seat, name) for name in ("draw", "pass", "accept", "challenge")]
        moves.append(action_move(seat, "call_uno"))
        moves += [action_move(seat, "catch", other) for other in others]
        moves += [action_move(seat, name) for name in ("slap", "slap_time_up")]
        moves += [action_move(seat, "report_silence", other) for other in others]
        moves += [action_move(seat, "give", card) for card in cards]
        moves += [action_move(seat, "name_colour", colour) for colour in COLOURS]
        moves.append(action_move(seat, "ready"))
        return moves

    return vocabulary


class UnoEncoder(Encoder):
    """UnoView -> vector: the hand as counts, the discard pile (counts and
    top card), hand sizes, the stock, colour, direction, phase, the pending
    effect, and every window and house-rule overlay the view shows."""

    def game_segments(self, layout: Layout) -> None:
        n = self.seats
        self.hand_and_pile_segments(layout, CARDS, COPIES, DECK)
        self._colour = layout.add("colour", COLOUR_VALUES)
        self._reversed = layout.add("reversed", 1)
        self._phase = layout.add("phase", PHASES)
        self._dealer = layout.add("dealer", n)
        self._pending_kind = layout.add("pending_kind", PENDING_KINDS)
        self._pending_count = layout.add("pending_count", 1, 0, UNBOUNDED)
        self._drawn = layout.add("drawn_card", CARDS)
        self._top_player = layout.add("top_player", n + 1)
        self._jump_in_open = layout.add("jump_in_open", 1)
        self._offender = layout.add("uno_offender", n + 1)
        self._challengeable = layout.add("challengeable", 1)
        self._turn_lost = layout.add("turn_lost", n)
        self._silence = layout.add("silence", 1)
        self._silence_seat = layout.add("silence_seat", n + 1)
        self._slap_open = layout.add("slap_open", 1)
        self._slap_caller = layout.add("slap_caller", n)
        self._slapped = layout.add("slapped", n)
        self._swap_open = layout.add("card_swap_open", 1)
        self._swap_by = layout.add("card_swap_offered_by", n)
        self._swap_to = layout.add("card_swap_offered_to", n)
        self._swap_card = layout.add("card_swap_card", CARDS)
        self._finished = layout.add("finished", n)
        self._stages = layout.add("stages", n, 0, MAX_STAGE)
        self._ready = layout.add("ready_seat", n + 1)
        self._reveal_owner = layout.add("revealed_hand_owner", n + 1)
        self._reveal = layout.add("revealed_hand", CARDS, 0, COPIES)

    def encode_game(self, view: game_pb2.View, out: np.ndarray) -> None:
        v = view.uno
        me = view.seat
        self.encode_hand_and_pile(out, v, me)
        set_one_hot(out, self._colour, v.colour)
        out[self._reversed] = float(v.reversed)
        set_one_hot(out, self._phase, v.phase)
        self.seat_one_hot(out, self._dealer, v.dealer, me)
        set_one_hot(out, self._pending_kind, v.pending_kind)
        out[self._pending_count] = v.pending_count
        if v.drawn_card:
            add_counts(out, self._drawn, (v.drawn_card,))
        self.optional_seat(out, self._top_player, _optional(v, "top_player"), me)
        out[self._jump_in_open] = float(v.jump_in_open)
        self.optional_seat(out, self._offender, _optional(v, "uno_offender"), me)
        out[self._challengeable] = float(v.challengeable)
        self.seat_flags(out, self._turn_lost, v.turn_lost, me)
        out[self._silence] = float(v.silence)
        self.optional_seat(out, self._silence_seat, _optional(v, "silence_seat"), me)
        if v.HasField("slap"):
            out[self._slap_open] = 1.0
            self.seat_one_hot(out, self._slap_caller, v.slap.caller, me)
            self.seat_flags(out, self._slapped, v.slap.slapped, me)
        if v.HasField("card_swap"):
            swap = v.card_swap
            out[self._swap_open] = 1.0
            self.seat_one_hot(out, self._swap_by, swap.offered_by, me)
            self.seat_one_hot(out, self._swap_to, swap.offered_to, me)
            if swap.card:
                add_counts(out, self._swap_card, (swap.card,))
        self.seat_flags(out, self._finished, v.finished, me)
        self.seat_values(out, self._stages, v.stages, me)
        self.optional_seat(out, self._ready, _optional(v, "ready_seat"), me)
        if v.HasField("reveal"):
            self.optional_seat(out, self._reveal_owner, v.reveal.owner, me)
            add_counts(out, self._reveal, v.reveal.cards)
        else:
            self.optional_seat(out, self._reveal_owner, None, me)


def _optional(message: pb.UnoView, name: str) -> int | None:
    return getattr(message, name) if message.HasField(name) else None  # type: ignore[no-any-return]
