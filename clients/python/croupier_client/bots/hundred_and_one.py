"""A heuristic bot for 101 («Сто одно», `hundred_and_one`, every preset).

What it plays for, in the order the rules make it pay (RULES.md of 101):

- Going out: a deal is won by the first empty hand (C7); every other seat
  scores what it holds (C1), so the bot sheds high values (aces, tens, eights)
  and keeps cheap ones (nines are worth 0).
- Keeping the turn: with two seats an ace, a draw card (6/7/K♠, ALT fives)
  and a card one must cover oneself (HD 8, CL 9, RU 6) let the bot play again,
  so it searches the chains of its own plays such cards allow and scores
  where each chain leaves it (`_Planner`).
- Queens are wild (C2): kept as the way out of a suit the bot cannot follow,
  played when they finish the deal (worth −20 with O18) or nothing else goes;
  a Queen names the suit the bot holds most of.
- Penalties (A5): a 6/7 aimed at the bot is passed on when a card allows it.
- Forbidden finishes (O25): a card that may not end the deal is played
  before the last card, not as it.
- The deal's end (C8): when an opponent is about to go out, the hand left is
  scored as the bot's total would be settled (100 → 50, 101 → 0, a bust).

It reads only its View and the legal moves; one instance plays one seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from croupier_client.bots import HeuristicBot
from croupier_client.bots.card_facts import (
    ACE,
    KING,
    QUEEN,
    SPADES,
    best,
    french_card,
    rank,
    suit,
)
from croupier_client.v1 import game_pb2, service_pb2
from croupier_client.v1 import hundred_and_one_pb2 as h101

_K_SPADES = french_card(SPADES, KING)
_Q_SPADES = french_card(SPADES, QUEEN)
# C1's values by rank index (2 … A): A 11, K 4, Q 3, J 2, 10 10, 9 0, the rest face.
_POINTS = (2, 3, 4, 5, 6, 7, 8, 0, 10, 2, 3, 4, 11)
# The rank index each forbidden-finish class names (O25); K♠ is a card, not a rank.
_FINISH_RANKS = {
    h101.HUNDRED_AND_ONE_FINISH_ACE: ACE,
    h101.HUNDRED_AND_ONE_FINISH_SEVEN: 5,
    h101.HUNDRED_AND_ONE_FINISH_NINE: 7,
    h101.HUNDRED_AND_ONE_FINISH_SIX: 4,
    h101.HUNDRED_AND_ONE_FINISH_EIGHT: 6,
    h101.HUNDRED_AND_ONE_FINISH_TEN: 8,
    h101.HUNDRED_AND_ONE_FINISH_QUEEN: QUEEN,
}

# Weights of the position score (tuned against the random bot, all presets).
_CARD_WEIGHT = 4.0  # each card held: a turn further from going out
_QUEEN_BONUS = 5.0  # a Queen held: a way out of any suit
_DRAWN_WEIGHT = 4.5  # each card an opponent was made to draw
_WIN = 200.0  # the deal won
_UNSEEN_POINTS = 5.5  # the mean C1 value of an unseen card
_TRANSFER_RISK = 0.35  # the chance a passable 6/7 comes back (A5)


@dataclass(frozen=True)
class _Effect:
    """What playing a card does to the turn, under a table's options."""

    draws: int = 0  # cards the target draws (6, 7, K♠, ALT 5)
    skips: bool = False  # the next seat loses its turn (ace, draw cards)
    passable: bool = False  # the target may pass the draw on (A5, O11)
    self_cover: bool = False  # its player must cover it (C6)


_PLAIN = _Effect()


class _Table:
    """The options of a 101 table, compiled into what the bot asks of a card."""

    def __init__(self, options: h101.HundredAndOneOptions) -> None:
        # A copy: a part of a parsed view keeps the whole view alive.
        self.options = h101.HundredAndOneOptions()
        self.options.CopyFrom(options)
        self.version = options.effects
        hd = self.version == h101.HUNDRED_AND_ONE_EFFECTS_HD
        cl = self.version == h101.HUNDRED_AND_ONE_EFFECTS_CL
        ru = self.version == h101.HUNDRED_AND_ONE_EFFECTS_RU
        plain_specials = hd and options.ordinary_specials
        seven_spades = options.seven_spades_draw or 2
        effects: dict[int, _Effect] = {}
        for s in range(4):
            ace = french_card(s, ACE)
            effects[ace] = _Effect(skips=True)
            if plain_specials:
                continue
            six, seven = french_card(s, 4), french_card(s, 5)
            sevens = seven_spades if s == SPADES else 2
            if hd or cl:
                effects[six] = _Effect(draws=1, skips=True, passable=options.transfer_6_7)
                effects[seven] = _Effect(draws=sevens, skips=True, passable=options.transfer_6_7)
            if hd:
                effects[french_card(s, 6)] = _Effect(self_cover=True)  # the HD 8
            if cl:
                effects[french_card(s, 7)] = _Effect(self_cover=True)  # the CL 9
            if ru:
                own = options.six_cover_by != h101.HUNDRED_AND_ONE_SIX_COVER_BY_NEXT
                effects[six] = _Effect(self_cover=own)
                effects[seven] = _Effect(draws=sevens, skips=True, passable=options.transfer_6_7)
                if options.fives_active:
                    effects[french_card(s, 3)] = _Effect(draws=4 if s == SPADES else 2, skips=True)
        if not plain_specials:
            effects[_K_SPADES] = _Effect(draws=options.kspades_draw or 4, skips=True)
        self._effects = effects
        forbidden = {_FINISH_RANKS[f] for f in options.forbidden_finish if f in _FINISH_RANKS}
        if options.no_finish_on_nine:
            forbidden.add(7)
        self._forbidden_ranks = forbidden
        self._forbidden_kspades = h101.HUNDRED_AND_ONE_FINISH_KING_OF_SPADES in set(
            options.forbidden_finish
        )
        # A Queen may cover unless CL nines bar it (O29).
        self.queen_covers = options.nine_cover_allows_queen or not cl
        self.eight_ends_deal = hd and not options.eight_last_must_cover and not plain_specials

    def effect(self, card: int) -> _Effect:
        return self._effects.get(card, _PLAIN)

    def may_finish(self, card: int) -> bool:
        """Whether `card` may be a last card (C6.5, C7, O25)."""
        if card == _K_SPADES and self._forbidden_kspades:
            return False
        if rank(card) in self._forbidden_ranks:
            return False
        return not self.effect(card).self_cover or (self.eight_ends_deal and rank(card) == 6)

    def hand_points(self, hand: Sequence[int]) -> int:
        """What a hand scores at the deal's end (C1, O17, O19, O20)."""
        options = self.options
        points = 0
        queens = sum(1 for card in hand if rank(card) == QUEEN)
        any_single = (
            options.lone_queen_scope == h101.HUNDRED_AND_ONE_LONE_QUEEN_SCOPE_ANY_SINGLE_QUEEN
        )
        # A19: a hand that is one Queen; ANY_SINGLE_QUEEN: any hand with one Queen.
        lone = options.lone_queen_penalty and queens == 1 and (len(hand) == 1 or any_single)
        for card in hand:
            if card == _K_SPADES and options.kspades_in_hand_40:
                points += 40
            elif lone and rank(card) == QUEEN:
                points += 40 if card == _Q_SPADES else 20
            else:
                points += _POINTS[rank(card)]
        return points

    def settled(self, total: int) -> tuple[int, bool]:
        """A new total as C8 settles it, and whether it is a bust."""
        options = self.options
        if total == 100 and options.reset_100_to_50:
            return 50, False
        if total == 101 and options.exact_101_reset:
            return 0, False
        return total, total > 101


@dataclass
class _Line:
    """Where a chain of the bot's own plays leaves it."""

    hand: tuple[int, ...]
    top: int  # the top card (0 before a lead)
    active: int  # the active Suit
    drawn: float = 0.0  # cards opponents were made to draw (expected)
    finished: bool = False  # the deal won
    last: int = 0  # the card that finished it
    own_draws: float = 0.0  # cards the bot must draw (a cover it lacks)


class _Planner:
    """Scores a move by the best chain of plays it starts (see the module)."""

    def __init__(self, table: _Table, view: game_pb2.View) -> None:
        self.table = table
        self.view = view
        game = view.hundred_and_one
        me = view.seat
        active = [i for i, seat in enumerate(view.seats) if not seat.eliminated]
        self.heads_up = len(active) == 2  # a skip gives the turn back to the bot
        others = [game.hand_sizes[i] for i in active if i != me and i < len(game.hand_sizes)]
        self.opponent_cards = min(others) if others else 0
        self.score = view.seats[me].score if me < len(view.seats) else 0

    # -- matching (C2, C6) --------------------------------------------------

    def follows(self, card: int, top: int, active: int, cover: bool) -> bool:
        if top == 0:
            return True  # a lead: any card
        if rank(card) == QUEEN:
            return not cover or self.table.queen_covers
        return suit(card) == active or rank(card) == rank(top)

    # -- the chain search ---------------------------------------------------

    def after_play(self, line: _Line, card: int, named: int) -> float:
        """The value of playing `card` (naming `named` for a Queen) from `line`
        with the bot to move, and of the best chain that follows."""
        hand = list(line.hand)
        hand.remove(card)
        effect = self.table.effect(card)
        active = named if rank(card) == QUEEN else suit(card)
        nxt = _Line(tuple(hand), card, active, line.drawn, False, 0, line.own_draws)
        if not hand:
            if self.table.may_finish(card):
                nxt.finished, nxt.last = True, card
                nxt.drawn += effect.draws if self.table.options.resolve_final_penalty else 0
                return self.evaluate(nxt)
            if effect.self_cover:
                # Must cover an own last card with nothing in hand: draws.
                nxt.own_draws += 2
                return self.evaluate(nxt)
        if effect.draws:
            risk = _TRANSFER_RISK if effect.passable else 0.0
            nxt.drawn += effect.draws * (1 - risk)
        if effect.self_cover:
            return self.continue_from(nxt, cover=True)
        if effect.skips and self.heads_up and not effect.passable:
            return self.continue_from(nxt, cover=False)
        return self.evaluate(nxt)

    def continue_from(self, line: _Line, cover: bool) -> float:
        """The bot moves again on `line` (after a skip, or to cover)."""
        options = [
            (card, named)
            for card in set(line.hand)
            if self.follows(card, line.top, line.active, cover)
            for named in self.suits_to_name(card, line.hand)
        ]
        if not options:
            draws = 3 if cover and self._three_batch() else (2.0 if cover else 1.0)
            line.own_draws += draws
            return self.evaluate(line)
        return max(self.after_play(line, card, named) for card, named in options)

    def _three_batch(self) -> bool:
        return self.table.options.eight_draw_mode == h101.HUNDRED_AND_ONE_EIGHT_DRAW_MODE_THREE

    def suits_to_name(self, card: int, hand: Sequence[int]) -> list[int]:
        """The suits worth naming with `card`: none for a non-Queen (0); for a
        Queen the suit the rest of the hand holds most of (its own on a tie)."""
        if rank(card) != QUEEN:
            return [0]
        return [self.best_suit([c for c in hand if c != card], suit(card))]

    def best_suit(self, hand: Sequence[int], fallback: int) -> int:
        counts = [0.0] * 5
        for card in hand:
            if rank(card) != QUEEN:
                counts[suit(card)] += 1 + _POINTS[rank(card)] / 100
        top = max(counts[1:])
        if top == 0 or counts[fallback] == top:
            return fallback
        return counts.index(top)

    # -- the position score -------------------------------------------------

    def evaluate(self, line: _Line) -> float:
        table = self.table
        if line.finished:
            value = _WIN + _DRAWN_WEIGHT * line.drawn
            if table.options.queen_finish_bonus and rank(line.last) == QUEEN:
                value += 40 if line.last == _Q_SPADES else 20
            return value
        hand = line.hand
        # An opponent about to go out makes the points held count most.
        opponent = self.opponent_cards + line.drawn
        danger = 3.0 if opponent <= 1 else 1.8 if opponent <= 2 else 1.3 if opponent <= 3 else 1.0
        points = table.hand_points(hand) + line.own_draws * _UNSEEN_POINTS
        if opponent <= 1:
            # The deal may end now: score the hand as C8 would settle it.
            new_total, bust = table.settled(round(self.score + points))
            points = 150 if bust else new_total - self.score
        value = -danger * points
        value -= _CARD_WEIGHT * (len(hand) + line.own_draws)
        queens = sum(1 for card in hand if rank(card) == QUEEN)
        value += _QUEEN_BONUS * queens
        value += _DRAWN_WEIGHT * line.drawn
        # A hand left with only cards it may not finish on has to draw.
        if hand and not any(table.may_finish(card) for card in hand):
            value -= _CARD_WEIGHT
        # Holding the suit just set makes the next turn likelier to have a play.
        value += 1.5 * sum(1 for card in hand if suit(card) == line.active)
        return value


class HundredAndOneBot(HeuristicBot):
    """Heuristic 101 player: sheds high values, keeps Queens, chains the
    plays that keep the turn, passes penalties on, minds the deal's end."""

    view_fields = ("hundred_and_one",)
    view_name = "a hundred_and_one"

    def __init__(self, game: str = "", seed: int = 0) -> None:
        super().__init__(game, seed)
        self._tables: dict[bytes, _Table] = {}

    def _table(self, view: game_pb2.View) -> _Table:
        options = view.options.hundred_and_one
        key = options.SerializeToString()
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = _Table(options)
        return table

    def decide(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        """The best-scored of `moves`."""
        if len(moves) == 1:
            return moves[0]
        planner = _Planner(self._table(view), view)
        game = view.hundred_and_one
        hand = tuple(game.hand)
        top = game.discard[-1] if game.discard else 0
        start = _Line(hand, top, game.active_suit)
        phase = game.phase

        def score(legal: service_pb2.LegalMove) -> float:
            move = legal.move.hundred_and_one
            action = move.WhichOneof("action")
            if action == "play":
                card = move.play.card
                if card not in hand:
                    return -1e9  # never offered; kept out of the way
                return planner.after_play(start, card, move.play.named_suit)
            if action == "accept":
                return planner.evaluate(_Line(hand, top, game.active_suit, 0, False, 0, 0)) - (
                    game.pending_draw * (_CARD_WEIGHT + _UNSEEN_POINTS)
                )
            if action == "pass":
                return planner.evaluate(start)
            if action == "draw":
                drawn = _Line(hand, top, game.active_suit, 0, False, 0, 1.0)
                # Drawing in PLAY while a card is legal (O8) loses the tempo too.
                return planner.evaluate(drawn) - (
                    _CARD_WEIGHT if phase == h101.HUNDRED_AND_ONE_PHASE_PLAY else 0
                )
            if action == "name_suit":
                named = move.name_suit.suit
                return 1.0 if named == planner.best_suit(hand, suit(top) if top else 1) else 0.0
            return -1e9

        return best(moves, score, self._random)


__all__ = ["HundredAndOneBot"]
