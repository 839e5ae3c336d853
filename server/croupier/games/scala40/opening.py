"""The opening finder: the highest-value set of disjoint melds a hand holds.

Used three ways (RULES.md, "Opening finder"): the best opening listed among
the legal moves, the analysis a bot asks for every turn, and the look-ahead
of C-S40-1 (can a taken card or a swapped joker still go into an opening?).

How it searches. Every meld the hand could lay is first listed as a
*template*: its natural cards, how many jokers it needs and its value
(sets of each rank with every choice of suits and jokers; sequences of every
window of every suit, with jokers in the gaps or standing in for naturals the
hand holds, so that a natural can go to another meld). Cards in no template
are dead and are left out at once. Then a depth-first search takes the
lowest natural card still undecided (the *pivot*): either it stays in the
hand, or it goes into a template whose lowest natural it is — so each
packing is met once — and a bound (the value of every card still undecided,
or of the best of them when the number of cards is limited) cuts branches
that cannot beat the best packing found.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from croupier.engine import caches
from croupier.engine.cards import ACE, RANK_OF, SUIT_OF, SUITS, card, is_joker
from croupier.engine.melds import MeldRules, position_card, set_order


@dataclass(frozen=True, slots=True)
class Template:
    """A meld the hand could lay: distinct naturals, a number of jokers, a value."""

    naturals: tuple[int, ...]  # ascending card values
    jokers: int
    value: int
    suit: int  # 0 for a set
    low: int  # a sequence's first position; a set's rank
    joker_positions: tuple[int, ...]  # sequence positions (or set suits) the jokers take

    def build(self, jokers: Sequence[int]) -> tuple[list[int], list[int]]:
        """(cards, joker_as) in table order, with these joker cards."""
        if self.suit:
            cards, joker_as, it = [], [], iter(jokers)
            for position in range(self.low, self.low + len(self.naturals) + self.jokers):
                if position in self.joker_positions:
                    cards.append(next(it))
                    joker_as.append(position_card(position, self.suit))
                else:
                    cards.append(position_card(position, self.suit))
            return cards, joker_as
        identities = [card(self.low, suit) for suit in self.joker_positions]
        return set_order([*self.naturals, *jokers], identities)


@dataclass(frozen=True, slots=True)
class Opening:
    """A packing of melds: (cards, joker_as) per meld, its value, cards used."""

    melds: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    value: int
    cards_used: int


def templates(hand: Sequence[int], rules: MeldRules) -> list[Template]:
    """Every meld formable from `hand` (as templates), sets then sequences."""
    return list(_templates(tuple(sorted(hand)), rules))


@caches.lru("scala40.opening.templates", 1024, 800)
def _templates(hand: tuple[int, ...], rules: MeldRules) -> tuple[Template, ...]:
    # A hand is asked about several times per call (listing, look-ahead, finder).
    counts = Counter(v for v in hand if not is_joker(v))
    jokers = sum(1 for v in hand if is_joker(v))
    most = min(jokers, rules.max_jokers)
    out: list[Template] = []
    by_rank: dict[int, list[int]] = {}
    for value in sorted(counts):
        by_rank.setdefault(RANK_OF[value], []).append(value)
    for rank, present in by_rank.items():
        for size in (1, 2, 3, 4):
            for chosen in combinations(present, size):
                missing = [s for s in SUITS if s not in {SUIT_OF[v] for v in chosen}]
                for k in range(max(0, 3 - size), min(most, 4 - size) + 1):
                    if size + k < 3:
                        continue
                    out.append(
                        Template(
                            chosen,
                            k,
                            rules.set_value(rank) * (size + k),
                            0,
                            rank,
                            tuple(missing[:k]),
                        )  # fmt: skip
                    )
    for suit in SUITS:
        held = [False] * 15
        for value in counts:
            if SUIT_OF[value] == suit:
                rank = RANK_OF[value]
                held[rank] = True
                if rank == ACE:
                    held[1] = True
        if not any(held):
            continue
        for low in range(1, 13):
            gaps: list[int] = []
            for high in range(low, min(14, low + rules.max_sequence_length - 1) + 1):
                if not held[high]:
                    gaps.append(high)
                    if len(gaps) > most:
                        break
                if high - low >= 2:
                    _sequences(out, suit, low, high, held, tuple(gaps), most, rules)
    return tuple(out)


def _sequences(
    out: list[Template],
    suit: int,
    low: int,
    high: int,
    held: list[bool],
    gaps: tuple[int, ...],
    most: int,
    rules: MeldRules,
) -> None:
    present = [p for p in range(low, high + 1) if held[p]]
    if not present:
        return
    value = sum(rules.values[low : high + 1])
    for extra in range(0, most - len(gaps) + 1):
        for stand_ins in combinations(present, extra) if extra else ((),):
            naturals = [p for p in present if p not in stand_ins] if extra else present
            if not naturals or (low == 1 and high == 14 and 1 in naturals and 14 in naturals):
                continue  # a natural card always; one natural ace (R-S40-24)
            cards = tuple(sorted(position_card(p, suit) for p in naturals))
            jokers = tuple(sorted(gaps + stand_ins))
            out.append(Template(cards, len(jokers), value, suit, low, jokers))


class _Search:
    """One depth-first search over the templates of a hand."""

    def __init__(
        self,
        hand: Sequence[int],
        rules: MeldRules,
        max_cards: int,
        max_rest: int,
        require: int,
        require_jokers: int,
        rest_ok: Callable[[list[int]], bool] | None,
    ) -> None:
        self.templates = sorted(templates(hand, rules), key=lambda t: -t.value)
        self.jokers = sorted(v for v in hand if is_joker(v))
        counts = Counter(v for v in hand if not is_joker(v))
        live = {v for t in self.templates for v in t.naturals}
        self.dead = [v for v in sorted(counts.elements()) if v not in live]
        self.counts = {v: n for v, n in counts.items() if v in live}
        self.order = sorted(self.counts)
        by_pivot: dict[int, list[tuple[int, Template]]] = {v: [] for v in self.order}
        for index, t in enumerate(self.templates):
            by_pivot[t.naturals[0]].append((index, t))
        self.by_pivot = by_pivot
        top = rules.values[14] if rules.values[14] >= rules.values[13] else rules.values[13]
        self.card_value = {v: rules.values[RANK_OF[v]] for v in self.order}
        self.joker_value = top
        self.max_cards = max_cards
        self.max_rest = max_rest
        self.require = require
        self.require_jokers = require_jokers
        self.rest_ok = rest_ok
        self.best: tuple[int, list[Template]] | None = None
        self.best_value = -1
        self.chosen: list[Template] = []
        self.rest: list[int] = list(self.dead)

    def run(self) -> None:
        if len(self.rest) > self.max_rest:
            return
        self.remaining = sum(self.card_value[v] * n for v, n in self.counts.items())
        self.remaining += self.joker_value * len(self.jokers)
        self.undecided = sum(self.counts.values()) + len(self.jokers)
        self._step(0, 0, 0, len(self.jokers), -1)

    def _bound(self, at: int, used: int, jokers: int) -> int:
        """At most the value of every card still undecided (of the best of
        them, when fewer may still be used)."""
        room = self.max_cards - used
        if self.undecided <= room:
            return self.remaining
        values = []
        for v in self.order[at:]:
            values.extend([self.card_value[v]] * self.counts[v])
        values.extend([self.joker_value] * jokers)
        values.sort(reverse=True)
        return sum(values[: max(room, 0)])

    def _step(self, at: int, value: int, used: int, jokers: int, floor: int) -> None:
        # Skip naturals already decided (count 0).
        order, counts = self.order, self.counts
        while at < len(order) and counts[order[at]] == 0:
            at += 1
            floor = -1
        if at == len(order):
            self._leaf(value, used, jokers)
            return
        if value + self._bound(at, used, jokers) <= self.best_value:
            return
        pivot = order[at]
        card_value = self.card_value
        # `floor`: templates of this pivot already taken by an earlier copy;
        # a later copy takes the same or a later one (each packing once).
        for index, t in self.by_pivot[pivot]:
            size = len(t.naturals) + t.jokers
            if index < floor or t.jokers > jokers or used + size > self.max_cards:
                continue
            if any(counts[v] == 0 for v in t.naturals):
                continue
            spent = t.jokers * self.joker_value
            for v in t.naturals:
                counts[v] -= 1
                spent += card_value[v]
            self.remaining -= spent
            self.undecided -= size
            self.chosen.append(t)
            self._step(at, value + t.value, used + size, jokers - t.jokers, index)
            self.chosen.pop()
            self.remaining += spent
            self.undecided += size
            for v in t.naturals:
                counts[v] += 1
        if len(self.rest) < self.max_rest:
            counts[pivot] -= 1
            self.rest.append(pivot)
            self.remaining -= card_value[pivot]
            self.undecided -= 1
            self._step(at, value, used, jokers, len(self.templates))
            self.undecided += 1
            self.remaining += card_value[pivot]
            self.rest.pop()
            counts[pivot] += 1

    def _leaf(self, value: int, used: int, jokers: int) -> None:
        if value <= self.best_value:
            return
        if len(self.rest) + jokers > self.max_rest:
            return
        if self.require and not any(self.require in t.naturals for t in self.chosen):
            return
        if self.require_jokers > sum(t.jokers for t in self.chosen):
            return
        if self.rest_ok is not None:
            rest = self.rest + self.jokers[len(self.jokers) - jokers :]
            if not self.rest_ok(rest):
                return
        self.best_value = value
        self.best = (value, list(self.chosen))

    def opening(self) -> Opening | None:
        if self.best is None:
            return None
        value, chosen = self.best
        melds = []
        jokers = iter(self.jokers)
        used = 0
        for t in chosen:
            cards, joker_as = t.build([next(jokers) for _ in range(t.jokers)])
            melds.append((tuple(cards), tuple(joker_as)))
            used += len(cards)
        melds.sort()
        return Opening(tuple(melds), value, used)


def best_opening(
    hand: Sequence[int],
    rules: MeldRules,
    *,
    max_cards: int | None = None,
    max_rest: int | None = None,
    require: int = 0,
    require_jokers: int = 0,
    rest_ok: Callable[[list[int]], bool] | None = None,
) -> Opening | None:
    """The highest-value packing of melds from `hand`, or None when there is none.

    `max_cards`: use at most this many cards (to keep a card to discard).
    `max_rest`: leave at most this many cards unused (closing in hand: 1).
    `require`: a natural card the packing must contain (V6's taken card).
    `require_jokers`: how many jokers it must contain (V16, or a taken joker).
    `rest_ok`: a last test on the cards left over (e.g. a legal discard).
    """
    search = _Search(
        hand,
        rules,
        len(hand) if max_cards is None else max_cards,
        len(hand) if max_rest is None else max_rest,
        require,
        require_jokers,
        rest_ok,
    )
    search.run()
    return search.opening()
