"""A heuristic bot for UNO (`uno`, presets `seed` and `mattel`, any options).

What it plays for (RULES.md of UNO):

- Colour: a black card names the colour the bot holds most of (points break
  ties), and a coloured card is preferred when it leaves the colour the bot
  is long in; Wilds are kept for when nothing else matches, or to go out.
- A Wild Draw Four only when it cannot be challenged with success (no card
  of the current colour in hand, R7): an honest one costs its target 4 or,
  challenged, 6.
- Tempo: with two players a Skip or Reverse gives the turn back (R12); a +2
  makes the opponent draw. Against an opponent close to going out these
  cards, and shedding the high-point cards (R1, R11), count most.
- Answers: a +2 that passes a draw card on (U3, U4) beats accepting it; a
  Wild Draw Four is challenged when the cards unseen by the bot make its
  player likely to have held the colour before it (R7, U6).
- Going out: under H15 the last card carries the H2O label worth most
  (wild "+2": 40 off the total).
- "UNO!": called with the second-to-last card, or late when U10 allows;
  an opponent who forgot is caught (R8).
- It draws only when no card plays (or only Wilds and drawing is allowed).

It reads only its View and the legal moves, remembering the colour it last
saw so that it knows the colour under a Wild Draw Four played on a Wild.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from croupier_client.bots import HeuristicBot
from croupier_client.bots.card_facts import (
    UNO_BLANK,
    UNO_COLOURS,
    UNO_DECK,
    UNO_DRAW_TWO,
    UNO_REVERSE,
    UNO_SKIP,
    UNO_WILD,
    UNO_WILD_DRAW_FOUR,
    best,
    uno_card,
    uno_colour,
    uno_is_black,
    uno_matches,
    uno_points,
    uno_symbol,
)
from croupier_client.v1 import game_pb2, service_pb2
from croupier_client.v1 import uno_pb2 as uno

# Scores are in "cards": one card more in the bot's hand is about -3.
_CARD = 3.0
_KEEP_BLACK = 7.0  # what spending a Wild costs while other plays exist
_WIN = 1000.0
# H15: what finishing on each H2O label takes off the winner's total.
_H2O_POINTS_OFF = {uno.UNO_H2O_LABEL_PLUS_ONE: 20, uno.UNO_H2O_LABEL_WILD_PLUS_TWO: 40}
_SIDE_ACTION = 500.0  # a catch, a due call, a slap: taken before the turn


class UnoBot(HeuristicBot):
    """Heuristic UNO player: colour management, Wilds kept for need, action
    cards against an opponent about to go out, challenges by the odds, UNO
    called and caught."""

    view_fields = ("uno",)
    view_name = "a uno"

    def __init__(self, game: str = "", seed: int = 0) -> None:
        super().__init__(game, seed)
        # (discard size, colour) of the last view: the colour before a Wild
        # Draw Four that lands on a black card is not in the next view.
        self._last_seen: tuple[int, int] = (0, 0)

    def decide(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        """The best-scored of `moves`."""
        game = view.uno
        if len(moves) == 1:
            choice = moves[0]
        else:
            position = _Position(view, self._colour_before_top(game))
            choice = best(moves, position.score, self._random)
        self._last_seen = (len(game.discard), game.colour)
        return choice

    def _colour_before_top(self, game: uno.UnoView) -> int:
        """The colour that was current before the top card, when the bot can
        know it: the colour of the card under it, or the colour it saw when
        that card was the top; 0 when unknown."""
        if len(game.discard) < 2:
            return 0
        under = game.discard[-2]
        if not uno_is_black(under):
            return uno_colour(under)
        size, colour = self._last_seen
        return colour if size == len(game.discard) - 1 else 0


class _Position:
    """One decision: the view, read once, and the score of each move."""

    def __init__(self, view: game_pb2.View, colour_before_top: int) -> None:
        self.view = view
        self.game = game = view.uno
        self.options = view.options.uno
        self.me = view.seat
        self.hand: list[int] = list(game.hand)
        self.colour = game.colour
        self.top = game.discard[-1] if game.discard else 0
        self.colour_before_top = colour_before_top
        in_round = [
            seat
            for seat in range(len(game.hand_sizes))
            if seat != self.me and seat not in game.finished
        ]
        self.heads_up = len(in_round) == 1
        sizes = [game.hand_sizes[seat] for seat in in_round]
        self.next_seat = self._next_seat(in_round)
        self.next_size = game.hand_sizes[self.next_seat] if in_round else 99
        self.closest = min(sizes) if sizes else 99
        # Against an opponent about to go out, tempo and points count most.
        self.urgency = 3.0 if self.closest <= 1 else 2.0 if self.closest <= 2 else 1.0
        self.counts = Counter(uno_colour(card) for card in self.hand if not uno_is_black(card))

    def _next_seat(self, in_round: list[int]) -> int:
        if not in_round:
            return self.me
        seats = len(self.game.hand_sizes)
        step = -1 if self.game.reversed else 1
        seat = self.me
        for _ in range(seats):
            seat = (seat + step) % seats
            if seat in in_round:
                return seat
        return in_round[0]

    # -- the moves ----------------------------------------------------------

    def score(self, legal: service_pb2.LegalMove) -> float:
        move = legal.move.uno
        action = move.WhichOneof("action")
        game = self.game
        if action in ("play", "jump_in"):
            jump = action == "jump_in"
            play = move.jump_in if jump else move.play
            if self.options.misplay_penalty and not self.fits(play.card, jump):
                return -_SIDE_ACTION  # U16 lists every card; a misplay costs 2
            return self.play_value(play) + (1.0 if jump else 0.0)
        if action == "catch":
            offender = move.catch.seat
            caught = game.HasField("uno_offender") and game.uno_offender == offender
            return _SIDE_ACTION if caught and game.hand_sizes[offender] == 1 else -_SIDE_ACTION
        if action == "call_uno":
            due = game.HasField("uno_offender") and game.uno_offender == self.me
            return _SIDE_ACTION if due else -_SIDE_ACTION
        if action in ("slap", "ready", "slap_time_up"):
            return _SIDE_ACTION
        if action == "report_silence":
            return -_SIDE_ACTION  # the engine cannot hear: never accuse blindly
        if action == "name_colour":
            return self.colour_value(move.name_colour.colour, self.hand)
        if action == "give":
            # H6: give away the card the hand needs least.
            return -self.keep_value(move.give.card)
        if action == "accept":
            return self.accept_value()
        if action == "challenge":
            return self.challenge_value()
        if action == "draw":
            return self.draw_value()
        if action == "pass":
            # Keep the drawn card: worth it only for a black card.
            return -0.5
        return -_SIDE_ACTION

    def fits(self, card: int, jump: bool) -> bool:
        """Whether the rules allow a play of `card` now (R3, R4, R6, H1)."""
        game, top, colour = self.game, self.top, self.colour
        if jump:
            return card == UNO_WILD if top == UNO_WILD else card == top and not uno_is_black(top)
        if game.phase == uno.UNO_PHASE_RESPOND:
            return card in self.answers()
        if game.phase == uno.UNO_PHASE_DRAWN and card != game.drawn_card:
            return False
        if not uno_matches(card, top, colour):
            return False
        strict = self.options.wd4_enforcement == uno.UNO_WILD_DRAW_FOUR_ENFORCEMENT_STRICT
        return not (card == UNO_WILD_DRAW_FOUR and strict and self.wild_draw_four_guilty(card))

    def answers(self) -> set[int]:
        """R6: the cards that answer the pending effect on the bot."""
        game, options, colour = self.game, self.options, self.colour
        if any(size == 0 for size in game.hand_sizes):
            return set()  # the round is decided: a final effect has no answer
        kind = game.pending_kind
        out: set[int] = set()
        if kind == uno.UNO_PENDING_KIND_DRAW_TWO:
            deflect = options.draw2_response == uno.UNO_DRAW_TWO_RESPONSE_DEFLECT_ANY_COLOUR
            if deflect or options.stacking:
                out |= {uno_card(c, UNO_DRAW_TWO) for c in UNO_COLOURS}
            if options.stack_mixed:
                out.add(UNO_WILD_DRAW_FOUR)
        elif kind == uno.UNO_PENDING_KIND_WILD_DRAW_FOUR:
            named = uno.UNO_WILD_DRAW_FOUR_RESPONSE_DEFLECT_DRAW_TWO_NAMED_COLOUR
            if options.wd4_response == named:
                out.add(uno_card(colour, UNO_DRAW_TWO))
            if options.stacking:
                out.add(UNO_WILD_DRAW_FOUR)
        elif kind == uno.UNO_PENDING_KIND_PLUS_TEN and options.stacking:
            out.add(UNO_BLANK)
        if options.reverse_bounce and kind != uno.UNO_PENDING_KIND_PLUS_TEN:
            out.add(uno_card(colour, UNO_REVERSE))
        skip_like = kind in (uno.UNO_PENDING_KIND_DRAW_TWO, uno.UNO_PENDING_KIND_SKIP)
        if options.jump_in and skip_like and (self.top == UNO_WILD or uno_symbol(self.top) > 0):
            out.add(self.top)
        return out

    def play_value(self, play: uno.UnoMove.Play) -> float:
        card = play.card
        rest = list(self.hand)
        if card in rest:
            rest.remove(card)
        if not rest:
            # H15: under PENALTY_LIMIT a label takes points off the winner's
            # total, wild "+2" the most (C-UNO-7).
            return _WIN + _H2O_POINTS_OFF.get(play.h2o_label, 0)
        value = 0.0
        if len(rest) == 1:
            value += 50.0 if play.uno else -50.0  # R8: the call comes with the card
        elif play.uno:
            value -= 50.0
        # Shedding points: what the opponent collects if he goes out first.
        value += uno_points(card) * 0.04 * self.urgency
        new_colour = play.colour if uno_is_black(card) else uno_colour(card)
        value += self.colour_value(new_colour, rest)
        value += self.effect_value(card)
        if play.HasField("swap_with"):
            # H3's 7 (or H6's 5): take the smallest hand.
            theirs = self.game.hand_sizes[play.swap_with]
            value += _CARD * (len(rest) - theirs)
        if play.give:
            value -= 1.0
        return value

    def colour_value(self, colour: int, rest: Sequence[int]) -> float:
        """How well the bot can follow `colour` with `rest`: cards of that
        colour, and a little for their points (shed next)."""
        held = [card for card in rest if uno_colour(card) == colour]
        return 1.2 * len(held) + 0.01 * sum(uno_points(card) for card in held)

    def effect_value(self, card: int) -> float:
        """What the card does to the next seat, in the bot's favour."""
        symbol = uno_symbol(card)
        urgency = self.urgency
        if card == UNO_WILD_DRAW_FOUR:
            if self.wild_draw_four_guilty(card):
                # R7: a challenge would give the card back with 4 more.
                return -_KEEP_BLACK - _CARD * 3 if self.options.challenge_enabled else 0.0
            return -_KEEP_BLACK * 0.5 + _CARD * 2.0 * urgency
        if uno_is_black(card):
            # Spent only when nothing else goes, or to change colour at need.
            return -_KEEP_BLACK + (2.0 if urgency > 1 else 0.0)
        if symbol == UNO_DRAW_TWO:
            return _CARD * 1.2 * urgency
        if symbol == UNO_SKIP or (symbol == UNO_REVERSE and self.heads_up):
            return _CARD * 0.6 * urgency
        return 0.0

    def wild_draw_four_guilty(self, card: int) -> bool:
        """R7: the rest of the hand holds a card of the current colour."""
        rest = list(self.hand)
        rest.remove(card)
        return any(uno_colour(other) == self.colour for other in rest)

    def keep_value(self, card: int) -> float:
        if uno_is_black(card):
            return 10.0
        return self.counts[uno_colour(card)] - uno_points(card) * 0.05

    def accept_value(self) -> float:
        count = self.game.pending_count
        return -_CARD * (count + 1)  # the cards, and the lost turn

    def challenge_value(self) -> float:
        """R7, U6: the expected worth of challenging the Wild Draw Four on top."""
        count = self.game.pending_count or 4
        guilty = self.guilt_probability()
        if self.options.challenge_outcome == uno.UNO_CHALLENGE_OUTCOME_MATTEL:
            won = _CARD * count  # he draws; the bot plays on
        else:
            won = _CARD * (count + 2)  # he draws, takes the card back, loses a turn
        lost = -_CARD * (count + 3)  # the bot draws T + 2 and is skipped
        return guilty * won + (1 - guilty) * lost

    def guilt_probability(self) -> float:
        """The chance that the Wild Draw Four's player held the colour that
        was current before it, from the cards the bot has not seen."""
        colour = self.colour_before_top
        if not colour or not self.game.HasField("top_player"):
            return 0.5
        player = self.game.top_player
        held = self.game.hand_sizes[player]
        unseen = Counter(UNO_DECK)
        unseen.subtract(self.hand)
        unseen.subtract(self.game.discard)
        total = sum(max(n, 0) for n in unseen.values())
        of_colour = sum(max(n, 0) for card, n in unseen.items() if uno_colour(card) == colour)
        none = 1.0
        for i in range(held):
            if total - i <= 0:
                break
            none *= max(total - of_colour - i, 0) / (total - i)
        return 1.0 - none

    def draw_value(self) -> float:
        """R4, U8: drawing costs a card; with a legal card held it is worth
        it only to spare a Wild."""
        return -_CARD * 1.6


__all__ = ["UnoBot"]
