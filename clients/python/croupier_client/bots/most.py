"""A heuristic bot for «Мост» (server/croupier/games/most/RULES.md).

In «Мост» every card a seat puts on the table scores for it and every card
left in its hand when the hand ends scores against it (R-M-41: 2–9 five,
10–K ten, an ace fifteen, a joker a hundred in hand and nothing on the
table); the hand ends when somebody goes out or the stock runs dry. So the
bot scores a move by the points it places now plus the hand it leaves
(`_Position.evaluate`):

* a card in a meld the hand holds, or one a table meld takes once the seat
  has melded (R-M-31), is worth its value: it goes to the table this turn;
* a loose card costs its value times the risk that the hand ends first
  (higher as the stock runs down), and one more step before going out,
  less what it is worth as half of a near-meld; a loose joker costs most;
* a card a table joker stands for is worth its value: it is exchanged.

Taking from the bridge (R-M-21) is valued by the hand it makes — the card
named and every newer one: the points they bring to the table now against
the loose cards they add — and compared with a blind draw. The discard is
the card whose loss hurts the hand least, avoiding one that an opponent
could meld at once: with cards of the bridge (he takes the oldest and every
newer one, the discard with them), with cards he is known to hold (the bot
remembers what the opponents took from the bridge this hand and has not
seen since), or onto a table meld (`bridge_card_may_be_laid_off`); and a
joker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from croupier_client.bots import HeuristicBot
from croupier_client.bots.card_facts import best
from croupier_client.bots.rummy import (
    RANKS,
    MeldStyle,
    Objective,
    TableMeld,
    best_packing,
    completes_meld,
    is_joker,
    layable,
    near,
    partial_outs,
    rank_of,
    unseen_counts,
    without,
)
from croupier_client.v1 import game_pb2, most_pb2, service_pb2

COPIES, JOKERS = 1, 2  # R-M-01: one pack and two jokers
STYLE = MeldStyle(wrap=True, max_jokers=99, max_sequence=RANKS)  # R-M-10, R-M-14
JOKER_IN_HAND = 100  # R-M-03
AVERAGE_VALUE = 7.5  # of a natural (R-M-03: eight ranks of 5, four of 10, the ace 15)

# Weights, in points.
# The risk that a loose card is still in hand when the hand ends: RISK_EARLY
# with a full stock, rising to 1 as the last RISK_STOCK cards are drawn, and
# RISK_SHORT_HAND more once an opponent holds two cards or fewer.
RISK_EARLY = 0.4
RISK_STOCK = 30
RISK_SHORT_HAND = 0.2
CARD_COST = 3.0  # a loose card: one more step before going out
IN_HAND_MELD = 0.5  # a card of a meld not yet laid
LAY_COST = 0.5  # a card a table meld takes: it goes this turn
OUT_WORTH = 1.0  # each unseen card that would make a near-meld whole
MAX_OUTS = 4
DANGER_LAYABLE = 8.0  # a discard an opponent may take onto a table meld
DANGER_JOKER = 20.0  # a joker into the bridge helps whoever takes it
# A discard that makes a meld with cards an opponent is known to hold (taken
# from the bridge and not yet melded or thrown back) or with cards of the
# bridge: he takes it and scores.
DANGER_FEEDS = 15.0
DANGER_NEAR = 3.0  # one that pairs with a card he is known to hold


# R-M-03 by rank index: 2-9 are 5, 10 J Q K 10, the ace 15.
_VALUES = tuple(15.0 if rank == RANKS - 1 else 10.0 if rank >= 8 else 5.0 for rank in range(RANKS))


def card_value(card: int) -> int:
    """What a natural scores on the table or costs in hand (R-M-03)."""
    return int(_VALUES[rank_of(card)])


@dataclass(frozen=True)
class _Rules:
    """What the bot needs of the table's options."""

    bridge_lay_off: bool
    credit_exchanger: bool

    @staticmethod
    def of(options: most_pb2.MostOptions) -> _Rules:
        return _Rules(
            bridge_lay_off=options.bridge_card_may_be_laid_off,
            credit_exchanger=options.exchanged_card_credit
            != most_pb2.MOST_EXCHANGED_CARD_CREDIT_MELD_OWNER,
        )


@dataclass
class _Memory:
    """What the bot remembers of its match: the bridge as it left it, and
    the cards the opponents took from it since (public: R-M-21 takes face
    up). Forgotten at every new hand."""

    deal: int = -1
    bridge: list[int] = field(default_factory=list)  # right after its discard
    stock: int = 0
    taken: set[int] = field(default_factory=set)

    def turn_begins(self, view: game_pb2.View) -> None:
        v = view.most
        if view.match.deal_number != self.deal:
            self.deal = view.match.deal_number
            self.taken = set()
        elif v.stock_size <= self.stock:  # else the bridge became the stock
            now = list(v.bridge)
            kept = 0
            while kept < min(len(now), len(self.bridge)) and now[kept] == self.bridge[kept]:
                kept += 1
            self.taken.update(card for card in self.bridge[kept:] if card not in now)
        self.bridge = []

    def discarded(self, view: game_pb2.View, card: int) -> None:
        self.deal = view.match.deal_number
        self.bridge = [*view.most.bridge, card]
        self.stock = view.most.stock_size


class _Position:
    """One decision's view of the table, and the hand evaluation."""

    def __init__(self, view: game_pb2.View, known: frozenset[int] = frozenset()) -> None:
        v = view.most
        self.view = v
        self.seat = view.seat
        self.rules = _Rules.of(view.options.most)
        self.hand: list[int] = [int(card) for card in v.hand]
        self.melded = len(v.melded) > self.seat and bool(v.melded[self.seat])
        melds = []
        seen: list[int] = [*v.hand, *v.bridge]
        self.stood_for: dict[int, int] = {}  # card a table joker stands for -> meld owner
        for meld in v.melds:
            identities, jokers = _identities(meld)
            melds.append(TableMeld.read(identities, jokers, STYLE))
            seen.extend(meld.cards)
            seen.extend(meld.joker_as)  # R-M-13: a card stood for is nowhere else
            for identity in meld.joker_as:
                self.stood_for[identity] = meld.owner
        # What the opponents are known to hold: taken from the bridge, not
        # seen since.
        self.known = known - set(seen)
        self.bridge = frozenset(int(card) for card in v.bridge)
        seen.extend(self.known)
        takes, self.takes_joker = layable(melds)
        # R-M-13: a card a table joker stands for is only exchanged, never laid.
        self.takes = takes - set(self.stood_for)
        self.unseen = unseen_counts(COPIES, JOKERS, seen)
        # The risk that the hand ends before a loose card leaves it.
        stock = v.stock_size
        risk = RISK_EARLY + (1 - RISK_EARLY) * max(0.0, 1.0 - stock / RISK_STOCK)
        shortest = min(
            (size for seat, size in enumerate(v.hand_sizes) if seat != self.seat), default=6
        )
        if shortest <= 2:  # an opponent may go out any turn now
            risk = min(1.0, risk + RISK_SHORT_HAND)
        self.risk = round(risk * 20) / 20  # a few objectives, so packings are cached
        # A loose joker early in the hand is soon in a meld; late it may stay
        # and cost its hundred.
        joker_worth = JOKER_IN_HAND * self.risk * self.risk
        # A packing places what is worth placing: a card's value, the cost it
        # saves in hand and a step towards going out.
        self.objective = Objective(
            tuple(v_ * (1 + self.risk) for v_ in _VALUES),
            tuple(v_ * (1 + self.risk) for v_ in _VALUES),
            joker_worth,
            CARD_COST,
        )
        self.joker_cost = joker_worth + CARD_COST

    def evaluate(self, hand: Sequence[int], melded: bool) -> float:
        """What a hand is worth to hold (higher is better): the points its
        melds and lay-offs bring this turn, less what its loose cards risk."""
        # R-M-13: a card a table joker stands for goes nowhere but in its place.
        exchanged = [card for card in hand if card in self.stood_for]
        if exchanged:
            hand = without(hand, exchanged)
        packing = best_packing(hand, STYLE, self.objective)
        can_lay = melded or bool(packing.melds)
        score = sum(self._exchange_credit(card) - LAY_COST for card in exchanged)
        for template in packing.melds:
            score += sum(card_value(c) for c in template.naturals) - IN_HAND_MELD * template.size
        loose = []
        for card in packing.leftover:
            if can_lay and card in self.takes:
                score += card_value(card) - LAY_COST
            else:
                loose.append(card)
        outs = partial_outs(loose, STYLE, self.unseen)
        for card in loose:
            score -= self.risk * card_value(card) + CARD_COST
            score += OUT_WORTH * min(outs[card], MAX_OUTS)
        for _ in range(packing.jokers_left):
            score -= LAY_COST if can_lay and self.takes_joker else self.joker_cost
        return score

    def _exchange_credit(self, card: int) -> float:
        owner = self.stood_for[card]
        if self.rules.credit_exchanger or owner == self.seat:
            return float(card_value(card))
        return 0.0

    def placed_points(self, move: most_pb2.MostMove) -> float:
        """The points a placement scores for this seat now (R-M-41)."""
        action = move.WhichOneof("action")
        if action == "meld":
            return float(sum(card_value(c) for c in move.meld.cards if not is_joker(c)))
        if action == "lay_off":
            card = move.lay_off.card
            return 0.0 if is_joker(card) else float(card_value(card))
        if action == "exchange_joker":
            card = move.exchange_joker.card
            return self._exchange_credit(card) if card in self.stood_for else 0.0
        return 0.0

    def danger(self, card: int) -> float:
        """What a discard risks handing to an opponent."""
        if is_joker(card):
            return DANGER_JOKER
        risk = 0.0
        if self.rules.bridge_lay_off and card in self.takes:
            risk += DANGER_LAYABLE
        # An opponent may take any card of the bridge with every newer one,
        # the discard included, and meld them with what he holds.
        companions = self.known | self.bridge
        if companions and completes_meld(card, companions, STYLE):
            risk += DANGER_FEEDS + card_value(card)
        elif any(near(card, held, STYLE) for held in self.known):
            risk += DANGER_NEAR
        return risk

    def draw_cost(self) -> float:
        """What a blind draw from the stock is expected to cost: a loose card."""
        return self.risk * AVERAGE_VALUE + CARD_COST - OUT_WORTH


def _identities(meld: most_pb2.MostMeld) -> tuple[list[int], int]:
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


def _joker_for(view: most_pb2.MostView, card: int) -> int:
    """The table joker that stands for `card` (an exchange brings it)."""
    for meld in view.melds:
        jokers = [c for c in meld.cards if is_joker(c)]
        for joker, identity in zip(jokers, meld.joker_as, strict=False):
            if identity == card:
                return int(joker)
    return 53


def _after(hand: list[int], move: most_pb2.MostMove, view: most_pb2.MostView) -> list[int]:
    """The hand after a move of the turn."""
    action = move.WhichOneof("action")
    if action == "take_bridge":
        bridge = list(view.bridge)
        return hand + bridge[bridge.index(move.take_bridge.card) :]
    if action == "meld":
        return without(hand, move.meld.cards)
    if action == "lay_off":
        return without(hand, [move.lay_off.card])
    if action == "exchange_joker":
        card = move.exchange_joker.card
        return [*without(hand, [card]), _joker_for(view, card)]
    if action == "discard":
        return without(hand, [move.discard.card])
    return list(hand)


class MostBot(HeuristicBot):
    """Plays one seat of one «Мост» match by the heuristics above."""

    view_fields = ("most",)
    view_name = "a «Мост»"

    def __init__(self, game: str = "", seed: int = 0) -> None:
        super().__init__(game, seed)
        self._memory = _Memory()

    def decide(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        """The move worth most by the evaluation above."""
        memory = self._memory
        if view.most.phase == most_pb2.MOST_PHASE_DRAW:
            memory.turn_begins(view)
        if len(moves) == 1:
            choice = moves[0]
        else:
            position = _Position(view, frozenset(memory.taken))
            if view.most.phase == most_pb2.MOST_PHASE_DRAW:
                choice = self._draw(position, moves)
            else:
                choice = self._play(position, moves)
        if choice.move.most.WhichOneof("action") == "discard":
            memory.discarded(view, choice.move.most.discard.card)
        return choice

    def _draw(
        self, position: _Position, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        hand = position.hand
        scored = []
        for move in moves:
            m = move.move.most
            if m.WhichOneof("action") == "take_bridge":
                after = _after(hand, m, position.view)
                # The card named must start a new meld: the seat will have melded.
                scored.append((position.evaluate(after, True), move))
            else:
                blind = position.evaluate(hand, position.melded) - position.draw_cost()
                scored.append((blind, move))
        return self._best(scored)

    def _play(
        self, position: _Position, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        hand = position.hand
        view = position.view
        discards = []
        placements = []
        for move in moves:
            m = move.move.most
            action = m.WhichOneof("action")
            if action == "discard":
                discards.append(move)
            elif action in ("meld", "lay_off", "exchange_joker"):
                melded = position.melded or action == "meld"
                score = position.placed_points(m) + position.evaluate(_after(hand, m, view), melded)
                placements.append((score, move))
        if placements:
            score = max(s for s, _ in placements)
            baseline = position.evaluate(hand, position.melded)
            if not discards or score > baseline + 1e-9:
                return self._best(placements)
        if not discards:
            return moves[0]
        scored = []
        for move in discards:
            card = move.move.most.discard.card
            rest = without(hand, [card])
            if not rest:
                return move  # going out (R-M-40)
            scored.append((position.evaluate(rest, position.melded) - position.danger(card), move))
        return self._best(scored)

    def _best(self, scored: list[tuple[float, service_pb2.LegalMove]]) -> service_pb2.LegalMove:
        return best(scored, lambda pair: pair[0], self._random)[1]
