"""A heuristic bot for Scala 40 (server/croupier/games/scala40/RULES.md).

The legal moves already hold every draw, take, meld, lay-off, swap and
discard (and the best openings), so the bot's work is to score them. It
scores a move by the hand it leaves (`_Position.evaluate`):

* an opened seat wants to close: every card left costs its penalty and a
  step towards closing, less what it is worth as half of a near-meld; a
  card some table meld takes costs almost nothing (it is laid off this
  turn); melds still in hand cost a little, so that they are laid;
* an unopened seat wants the 40 of an opening (R-S40-40): the value of the
  best packing of melds counts (the opening planner, `best_packing` with the
  melds' values), then near-melds, less a little of each loose card's
  penalty.

A turn is several calls: draw (the discard is taken when the card goes to
the table at once and the hand is no worse for it, R-S40-11), then any
placement that leaves a better hand (an opening whenever one is offered,
melds, lay-offs, joker swaps), then the discard that leaves the best hand,
avoiding a card the next seat could take and lay off (D3 allows it with two
players) or one near a card it took from the pile before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from croupier_client.bots import HeuristicBot
from croupier_client.bots.card_facts import best
from croupier_client.bots.rummy import (
    ACE,
    FIRST_JOKER,
    RANKS,
    MeldStyle,
    Objective,
    TableMeld,
    best_packing,
    is_joker,
    layable,
    near,
    partial_outs,
    rank_of,
    unseen_counts,
    without,
)
from croupier_client.v1 import game_pb2, scala40_pb2, service_pb2

COPIES, JOKERS = 2, 4  # R-S40-01: two packs and four jokers
OPENING = 40  # R-S40-40

# Weights, in penalty points.
CARD_COST = 6.0  # a card left in hand: one more step before closing
IN_HAND_MELD = 0.5  # a card of a meld not yet laid
LAY_COST = 1.0  # a card a table meld takes: it goes this turn
OUT_WORTH = 1.5  # each unseen card that would make a near-meld whole
MAX_OUTS = 6
DRAW_COST = 8.0  # what a blind draw from the stock is expected to cost
DANGER_LAYABLE = 20.0  # a discard the next seat may take and lay off
DANGER_NEAR_TAKEN = 6.0  # a discard near a card the next seat took
SAFE_RANK = 2.0  # a discard of a rank the next seat threw away
DANGER_JOKER = 20.0  # a joker is everybody's card (V24 lets some be thrown)
# Unopened: the opening's value, and how loose cards count.
OPEN_VALUE = 1.0
OPEN_READY = 30.0  # the packing reaches 40: the seat opens next turn
UNOPENED_PENALTY = 0.3
JOKER_UNOPENED = 4.0  # a loose joker: half of any near-meld

_STANDARD = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)  # by position 1..14
_COURT = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)  # V5


@dataclass(frozen=True)
class _Rules:
    """What the bot needs of the table's options."""

    style: MeldStyle
    penalty: tuple[int, ...]  # by card value, jokers included
    opening: Objective  # a packing's worth as an opening (§1.6.4)
    deadwood: Objective  # a packing's worth as penalty points placed

    @staticmethod
    def of(options: scala40_pb2.Scala40Options) -> _Rules:
        return _rules(options.SerializeToString())


@lru_cache(maxsize=16)  # option sets: as many as the server's compiled rules keep
def _rules(key: bytes) -> _Rules:
    # Keyed by the options' bytes: a table's options never change.
    options = scala40_pb2.Scala40Options.FromString(key)
    values = _COURT if options.court_values_11_14 else _STANDARD
    joker_penalty = 14 if options.court_values_11_14 else 25
    penalty = [0] * 55
    for card in range(1, 53):
        penalty[card] = values[14 if rank_of(card) == ACE else rank_of(card) + 2]
    penalty[53] = penalty[54] = joker_penalty
    unlimited = options.max_jokers_per_meld == scala40_pb2.SCALA40_JOKERS_PER_MELD_UNLIMITED
    longest = 5 if options.sequence_split_max5 else (options.max_sequence_length or 14)
    style = MeldStyle(wrap=False, max_jokers=99 if unlimited else 1, max_sequence=longest)
    set_values = tuple(float(values[rank + 2]) for rank in range(RANKS))
    opening = Objective(tuple(float(v) for v in values), set_values, None, 0.5)
    by_position = tuple(float(values[14] if p in (1, 14) else values[p]) for p in range(15))
    deadwood = Objective(by_position, set_values, float(joker_penalty), CARD_COST)
    return _Rules(style, tuple(penalty), opening, deadwood)


@dataclass
class _Memory:
    """What the bot remembers of its deal: its last discard, and what the
    next seat took from the pile or threw on it (two seats only)."""

    deal: int = -1
    last_discard: int = 0
    pile_length: int = 0  # the pile's length right after that discard
    taken_by_next: Counter[int] = field(default_factory=Counter)
    thrown_by_next: Counter[int] = field(default_factory=Counter)


class _Position:
    """One decision's view of the table, and the hand evaluation."""

    def __init__(self, view: game_pb2.View, memory: _Memory) -> None:
        v = view.scala40
        self.view = v
        self.seat = view.seat
        self.rules = _Rules.of(view.options.scala40)
        self.hand: list[int] = [int(card) for card in v.hand]
        self.opened = bool(v.opened[self.seat]) if len(v.opened) > self.seat else False
        melds = []
        seen = list(v.hand) + list(v.discard)
        for meld in v.melds:
            identities, jokers = _identities(meld)
            melds.append(TableMeld.read(identities, jokers, self.rules.style))
            seen.extend(meld.cards)
        self.takes, self.takes_joker = layable(melds)
        self.unseen = unseen_counts(COPIES, JOKERS, seen)
        self.next_seat = _next_seat(view)
        self.next_opened = (
            self.next_seat is not None
            and len(v.opened) > self.next_seat
            and bool(v.opened[self.next_seat])
        )
        self.memory = memory
        self.deal = view.match.deal_number
        self.two_seats = sum(1 for s in view.seats if not s.eliminated) == 2

    def evaluate(self, hand: Sequence[int], opened: bool) -> float:
        """How good a hand is to hold (higher is better)."""
        if opened:
            return self._opened(hand)
        return self._unopened(hand)

    def _opened(self, hand: Sequence[int]) -> float:
        rules = self.rules
        packing = best_packing(hand, rules.style, rules.deadwood)
        score = -IN_HAND_MELD * packing.placed
        outs = partial_outs(
            [c for c in packing.leftover if c not in self.takes], rules.style, self.unseen
        )
        for card in packing.leftover:
            if card in self.takes:
                score -= LAY_COST
            else:
                score -= rules.penalty[card] + CARD_COST - OUT_WORTH * min(outs[card], MAX_OUTS)
        for _ in range(packing.jokers_left):
            score -= LAY_COST if self.takes_joker else CARD_COST
        return score

    def _unopened(self, hand: Sequence[int]) -> float:
        rules = self.rules
        packing = best_packing(hand, rules.style, rules.opening)
        value = packing.worth - rules.opening.per_card * packing.placed
        score = OPEN_VALUE * min(value, OPENING + 5)
        if value >= OPENING and packing.placed < len(hand):
            score += OPEN_READY
        outs = partial_outs(packing.leftover, rules.style, self.unseen)
        for card in packing.leftover:
            worth = OUT_WORTH * min(outs[card], MAX_OUTS)
            # A near-meld of high cards brings the opening nearer.
            score += worth * (0.5 + rules.penalty[card] / 20)
            score -= UNOPENED_PENALTY * rules.penalty[card]
        score += JOKER_UNOPENED * packing.jokers_left
        return score

    def danger(self, card: int) -> float:
        """What a discard risks handing to the next seat."""
        if is_joker(card):
            return DANGER_JOKER
        risk = 0.0
        if self.next_opened and card in self.takes:
            risk += DANGER_LAYABLE
        if self.two_seats:
            for taken in self.memory.taken_by_next:
                if near(card, taken, self.rules.style):
                    risk += DANGER_NEAR_TAKEN
                    break
            if any(rank_of(t) == rank_of(card) for t in self.memory.thrown_by_next):
                risk -= SAFE_RANK
        return risk


def _identities(meld: scala40_pb2.Scala40MeldView) -> tuple[list[int], int]:
    """The card each place of a table meld stands for, and its jokers."""
    jokers = iter(meld.joker_as)
    out = []
    count = 0
    for card in meld.cards:
        if is_joker(card):
            out.append(next(jokers, 0))
            count += 1
        else:
            out.append(card)
    return out, count


def _next_seat(view: game_pb2.View) -> int | None:
    seats = len(view.seats)
    for step in range(1, seats):
        seat = (view.seat + step) % seats
        if not view.seats[seat].eliminated:
            return seat
    return None


def _after(
    hand: list[int], move: scala40_pb2.Scala40Move, melds: Sequence[scala40_pb2.Scala40MeldView]
) -> list[int]:
    """The hand after a placement move."""
    action = move.WhichOneof("action")
    if action == "open":
        return without(hand, [c for spec in move.open.melds for c in spec.cards])
    if action == "meld":
        return without(hand, move.meld.meld.cards)
    if action == "lay_off":
        return without(hand, [move.lay_off.card])
    if action == "swap_joker":
        return [*without(hand, [move.swap_joker.card]), _joker_of(melds, move.swap_joker)]
    if action == "split":
        table = next((m for m in melds if m.id == move.split.meld_id), None)
        added = Counter(c for part in move.split.parts for c in part.cards)
        if table is not None:
            added -= Counter(table.cards)
        return without(hand, list(added.elements()))
    if action == "discard":
        return without(hand, [move.discard.card])
    return list(hand)


def _joker_of(
    melds: Sequence[scala40_pb2.Scala40MeldView], swap: scala40_pb2.Scala40Move.SwapJoker
) -> int:
    """The joker a swap brings to the hand (the jokers are alike for play)."""
    for meld in melds:
        if meld.id == swap.meld_id:
            for card in meld.cards:
                if is_joker(card):
                    return int(card)
    return FIRST_JOKER


class Scala40Bot(HeuristicBot):
    """Plays one seat of one Scala 40 match by the heuristics above."""

    view_fields = ("scala40",)
    view_name = "a Scala 40"

    def __init__(self, game: str = "", seed: int = 0) -> None:
        super().__init__(game, seed)
        self._memory = _Memory()

    def decide(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        """The move that leaves the best hand."""
        position = _Position(view, self._memory)
        if view.scala40.phase == scala40_pb2.SCALA40_PHASE_DRAW:
            self._remember(position)
            return self._draw(position, moves)
        choice = self._play(position, moves)
        if choice.move.scala40.WhichOneof("action") == "discard":
            if self._memory.deal != position.deal:
                self._memory = _Memory(deal=position.deal)
            self._memory.last_discard = choice.move.scala40.discard.card
            self._memory.pile_length = len(position.view.discard) + 1
        return choice

    def _remember(self, position: _Position) -> None:
        """At the start of a turn: did the next seat take the last discard?"""
        memory = self._memory
        pile = position.view.discard
        if position.deal != memory.deal:
            self._memory = _Memory(deal=position.deal)
            return
        if not position.two_seats or not memory.last_discard or memory.pile_length < 2:
            return
        if len(pile) == memory.pile_length:
            if pile[memory.pile_length - 1] != memory.last_discard:
                memory.taken_by_next[memory.last_discard] += 1
                memory.thrown_by_next[pile[-1]] += 1
        elif len(pile) == memory.pile_length + 1:
            memory.thrown_by_next[pile[-1]] += 1
        memory.last_discard = 0

    def _draw(
        self, position: _Position, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        draw = take = None
        for move in moves:
            action = move.move.scala40.WhichOneof("action")
            if action == "draw_stock":
                draw = move
            elif action == "take_discard":
                take = move
        if take is None or draw is None:
            return take or draw or moves[0]
        top = position.view.discard[-1]
        opened = position.opened
        kept = position.evaluate([*position.hand, top], opened)
        blind = position.evaluate(position.hand, opened) - DRAW_COST
        return take if kept >= blind else draw

    def _play(
        self, position: _Position, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        hand = position.hand
        melds = list(position.view.melds)
        discards: list[service_pb2.LegalMove] = []
        placements: list[tuple[float, service_pb2.LegalMove]] = []
        opens: list[tuple[float, service_pb2.LegalMove]] = []
        for move in moves:
            m = move.move.scala40
            action = m.WhichOneof("action")
            if action == "discard":
                discards.append(move)
            elif action in ("draw_stock", "take_discard"):
                continue
            else:
                score = position.evaluate(_after(hand, m, melds), True)
                (opens if action == "open" else placements).append((score, move))
        if opens:
            # Open whenever the rules let: every card after it can be laid off.
            return self._best(opens)
        if placements:
            score, best = max(placements, key=lambda pair: pair[0])
            baseline = position.evaluate(hand, position.opened)
            if not discards or (position.opened and score > baseline + 1e-9):
                return self._best(placements)
        if not discards:
            return moves[0]
        scored = []
        for move in discards:
            card = move.move.scala40.discard.card
            rest = without(hand, [card])
            if not rest:
                return move  # the closing discard
            score = position.evaluate(rest, position.opened) - position.danger(card)
            scored.append((score, move))
        return self._best(scored)

    def _best(self, scored: list[tuple[float, service_pb2.LegalMove]]) -> service_pb2.LegalMove:
        return best(scored, lambda pair: pair[0], self._random)[1]
