"""Rummy sense shared by the Scala 40 and «Мост» bots.

Both games meld sets (one rank, different suits) and sequences (one suit,
consecutive ranks) with jokers, and both bots ask the same questions of a
hand: which disjoint melds does it hold at best (`best_packing`), which of
the cards left over are close to a meld (`partial_outs`), which cards a
table meld would still take (`TableMeld`). What differs between the games
is said once in a `MeldStyle` (sequences round the corner or not, jokers per
meld) and an `Objective` (what a placed card is worth).

Cards are FrenchCard values (cards.proto), read by card_facts: rank 0 the
two … 12 the ace, suits 0 clubs … 3 spades; 53 and 54 the jokers.

Sequence *positions*: without wrap (Scala 40) 1..14, 1 the ace below the
two, 2..13 the ranks two to king, 14 the ace above the king; with wrap
(«Мост») the rank 0..12 itself, taken round the circle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from croupier_client.bots.card_facts import ACE, french_card
from croupier_client.bots.card_facts import rank as rank_of
from croupier_client.bots.card_facts import suit_index as suit_of

RANKS = 13
SUITS = 4
FIRST_JOKER = 53  # FRENCH_CARD_RED_JOKER; 54 is the black one
SET_SUIT = -1  # Template.suit of a set


def is_joker(card: int) -> bool:
    return card >= FIRST_JOKER


def card_of(rank: int, suit: int) -> int:
    """The card of a rank index and a suit index (card_facts has them the other way round)."""
    return french_card(suit, rank)


@dataclass(frozen=True)
class MeldStyle:
    """How a game's melds are shaped."""

    wrap: bool  # sequences go round the corner (K-A-2): «Мост»
    max_jokers: int  # jokers one meld may hold
    max_sequence: int  # cards one sequence may hold

    def positions_of(self, rank: int) -> tuple[int, ...]:
        """The sequence positions a natural of `rank` may take."""
        if self.wrap:
            return (rank,)
        if rank == ACE:
            return (1, 14)
        return (rank + 2,)

    def rank_at(self, position: int) -> int:
        """The rank of a sequence position."""
        if self.wrap:
            return position % RANKS
        return ACE if position in (1, 14) else position - 2


@dataclass(frozen=True)
class Template:
    """A meld the hand could lay: its naturals (distinct, ascending), how many
    jokers it needs, and where they stand.

    A sequence lists its positions low to high (`positions`, wrap: ranks mod
    13 in circle order); a set has `suit` SET_SUIT, `positions` its rank once.
    `joker_cards` are the cards the jokers stand for.
    """

    naturals: tuple[int, ...]
    jokers: int
    suit: int
    positions: tuple[int, ...]
    joker_cards: tuple[int, ...]
    joker_positions: tuple[int, ...] = ()  # a sequence's places held by jokers

    @property
    def size(self) -> int:
        return len(self.naturals) + self.jokers

    @property
    def is_set(self) -> bool:
        return self.suit == SET_SUIT


@dataclass(frozen=True)
class Objective:
    """What a packing maximises: the worth of each card placed in a meld.

    `sequence_values[position]` and `set_values[rank]` are a natural's (and,
    with `joker_value` None, a joker's) worth by its place; `joker_value`
    a placed joker's fixed worth otherwise; `per_card` is added for every
    card placed, so that of two packings of equal worth the one that empties
    the hand more wins.
    """

    sequence_values: tuple[float, ...]
    set_values: tuple[float, ...]
    joker_value: float | None
    per_card: float = 0.0

    def worth(self, template: Template) -> float:
        """What placing `template` is worth."""
        total = self.per_card * template.size
        if template.is_set:
            (rank,) = template.positions
            total += self.set_values[rank] * template.size
            if self.joker_value is not None:
                total += (self.joker_value - self.set_values[rank]) * template.jokers
            return total
        for position in template.positions:
            total += self.sequence_values[position]
        if self.joker_value is not None:
            for position in template.joker_positions:
                total += self.joker_value - self.sequence_values[position]
        return total

    def natural_bound(self, card: int) -> float:
        """At most what one natural can add."""
        rank = rank_of(card)
        best = self.set_values[rank]
        for position in _positions_for_bound(rank, len(self.sequence_values)):
            best = max(best, self.sequence_values[position])
        return best + self.per_card

    def joker_bound(self) -> float:
        if self.joker_value is not None:
            return self.joker_value + self.per_card
        return max(max(self.sequence_values), max(self.set_values)) + self.per_card


def _positions_for_bound(rank: int, length: int) -> tuple[int, ...]:
    if length == RANKS:  # wrap: positions are ranks
        return (rank,)
    return (1, 14) if rank == ACE else (rank + 2,)


def templates(hand: Sequence[int], style: MeldStyle) -> tuple[Template, ...]:
    """Every meld formable from `hand`: sets, then sequences."""
    return _templates(tuple(sorted(hand)), style)


# The bots' two caches serve one choice and the next few turns (a hand comes
# back when a candidate move is scored again), so a few hundred entries hit as
# often as 16,384 did: in bot matches of both rummies, packings 16.1 % of
# calls hit at 16,384 and 15.7 % at 256 (Scala 40), 12.9 and 12.5 % («Мост»);
# templates 0 and 0 %, 10.6 and 6.6 % (fuzz F4, session 19). The bound suits a
# serving worker, where a client's hands fill them (BotService; counted in the
# server's memory budget, croupier/engine/caches.py, which cannot be imported
# here): at 16,384 and 4,096 they could take 7.6 MB of a 56 MB worker.
CACHE_SIZE = 256


@lru_cache(maxsize=CACHE_SIZE)
def _templates(hand: tuple[int, ...], style: MeldStyle) -> tuple[Template, ...]:
    naturals = sorted({card for card in hand if not is_joker(card)})
    jokers = min(sum(1 for card in hand if is_joker(card)), style.max_jokers)
    out: list[Template] = []
    by_rank: dict[int, list[int]] = {}
    for card in naturals:
        by_rank.setdefault(rank_of(card), []).append(card)
    for rank, present in by_rank.items():
        for size in range(1, len(present) + 1):
            for chosen in combinations(present, size):
                suits = {suit_of(card) for card in chosen}
                missing = [s for s in range(SUITS) if s not in suits]
                for extra in range(max(0, 3 - size), min(jokers, 4 - size) + 1):
                    identities = tuple(card_of(rank, s) for s in missing[:extra])
                    out.append(Template(chosen, extra, SET_SUIT, (rank,), identities))
    for suit in range(SUITS):
        held = {
            p
            for card in naturals
            if suit_of(card) == suit
            for p in style.positions_of(rank_of(card))
        }
        if held:
            out.extend(_sequences(suit, held, jokers, style))
    return tuple(out)


def _sequences(suit: int, held: set[int], jokers: int, style: MeldStyle) -> list[Template]:
    out: list[Template] = []
    if style.wrap:
        starts: Iterable[int] = range(RANKS)
        longest = min(style.max_sequence, RANKS)
    else:
        starts = range(1, 13)
        longest = min(style.max_sequence, 14)
    for low in starts:
        if low not in held and jokers == 0:
            continue
        gaps: list[int] = []
        positions: list[int] = []
        for length in range(1, longest + 1):
            if style.wrap:
                position = (low + length - 1) % RANKS
                if length == RANKS and low != 0:
                    break  # the whole circle once, from its two
            else:
                position = low + length - 1
                if position > 14:
                    break
            positions.append(position)
            if position not in held:
                gaps.append(position)
                if len(gaps) > jokers:
                    break
            if length < 3 or len(gaps) == length:
                continue
            if positions[0] not in held and positions[-1] not in held:
                # Jokers at both ends: the same naturals fit a shorter window,
                # which leaves a joker for another meld.
                continue
            template = _sequence_template(suit, positions, gaps, style)
            if template is not None:
                out.append(template)
    return out


def _sequence_template(
    suit: int, positions: list[int], gaps: list[int], style: MeldStyle
) -> Template | None:
    naturals = tuple(sorted(card_of(style.rank_at(p), suit) for p in positions if p not in gaps))
    if len(set(naturals)) != len(naturals):
        return None  # the ace at both ends of a 14-card run: one natural ace
    identities = tuple(card_of(style.rank_at(p), suit) for p in gaps)
    return Template(naturals, len(gaps), suit, tuple(positions), identities, tuple(gaps))


@dataclass(frozen=True)
class Packing:
    """Disjoint melds of a hand and what is left over."""

    melds: tuple[Template, ...]
    leftover: tuple[int, ...]  # naturals in no meld, ascending
    jokers_left: int
    worth: float

    @property
    def placed(self) -> int:
        return sum(t.size for t in self.melds)


def best_packing(hand: Sequence[int], style: MeldStyle, objective: Objective) -> Packing:
    """The disjoint melds of `hand` worth the most under `objective`."""
    return _best_packing(tuple(sorted(hand)), style, objective)


# The most branches one packing search visits. A dealt hand needs far fewer
# (at most 126 in 100 heuristic deals of each rummy at 2 and 4 seats); a hand no game
# deals (a hostile view of 40 cards took minutes) stops here with the best
# packing found so far, so a bot's answer costs bounded time.
SEARCH_NODES = 2_000


@lru_cache(maxsize=CACHE_SIZE)
def _best_packing(hand: tuple[int, ...], style: MeldStyle, objective: Objective) -> Packing:
    # Depth first over the naturals, lowest first (the pivot): either one copy
    # of the pivot stays in the hand, or it goes into a meld whose lowest
    # natural it is, so each packing is met once; a branch that cannot beat
    # the best found even if every undecided card were placed is cut.
    jokers = sum(1 for card in hand if is_joker(card))
    counts = Counter(card for card in hand if not is_joker(card))
    weighted = sorted(
        ((objective.worth(t), t) for t in templates(hand, style)),
        key=lambda pair: -pair[0],
    )
    by_pivot: dict[int, list[tuple[float, Template]]] = {}
    live: set[int] = set()
    for worth, template in weighted:
        by_pivot.setdefault(template.naturals[0], []).append((worth, template))
        live.update(template.naturals)
    dead = [card for card in sorted(counts.elements()) if card not in live]
    order = sorted(card for card in counts if card in live)
    bound_of = {card: objective.natural_bound(card) for card in order}
    joker_bound = objective.joker_bound()
    remaining = sum(bound_of[card] * counts[card] for card in order)

    best_worth = 0.0
    best: list[Template] = []
    best_left: list[int] = []
    best_jokers = jokers
    chosen: list[Template] = []
    left: list[int] = []

    nodes = 0

    def step(at: int, worth: float, jokers_left: int, remaining: float) -> None:
        nonlocal best_worth, best, best_left, best_jokers, nodes
        nodes += 1
        if nodes > SEARCH_NODES:
            return  # the best packing found so far stands
        while at < len(order) and counts[order[at]] == 0:
            at += 1
        if at == len(order):
            if worth > best_worth:
                best_worth, best, best_left = worth, list(chosen), list(left)
                best_jokers = jokers_left
            return
        if worth + remaining + jokers_left * joker_bound <= best_worth:
            return
        pivot = order[at]
        for template_worth, template in by_pivot.get(pivot, ()):
            if template.jokers > jokers_left:
                continue
            if any(counts[card] == 0 for card in template.naturals):
                continue
            for card in template.naturals:
                counts[card] -= 1
            chosen.append(template)
            step(
                at,
                worth + template_worth,
                jokers_left - template.jokers,
                remaining - sum(bound_of[card] for card in template.naturals),
            )
            chosen.pop()
            for card in template.naturals:
                counts[card] += 1
        counts[pivot] -= 1
        left.append(pivot)
        step(at, worth, jokers_left, remaining - bound_of[pivot])
        left.pop()
        counts[pivot] += 1

    step(0, 0.0, jokers, remaining)
    if not best:
        best_left = [card for card in order for _ in range(counts[card])]
        best_jokers = jokers
    leftover = tuple(sorted(dead + best_left))
    return Packing(tuple(best), leftover, best_jokers, best_worth)


def unseen_counts(copies: int, jokers: int, seen: Iterable[int]) -> Counter[int]:
    """How many of each card (jokers under FIRST_JOKER) the seat has not seen,
    from a deck of `copies` of each natural and `jokers` jokers."""
    unseen: Counter[int] = Counter({card: copies for card in range(1, FIRST_JOKER)})
    unseen[FIRST_JOKER] = jokers
    for card in seen:
        key = FIRST_JOKER if is_joker(card) else card
        if unseen[key] > 0:
            unseen[key] -= 1
    return unseen


def partial_outs(leftover: Sequence[int], style: MeldStyle, unseen: Counter[int]) -> dict[int, int]:
    """For each natural of `leftover`: how many unseen cards would make a meld
    of it and one other leftover natural (the best such pair; a joker counts
    as an out of every pair). 0 for a card in no pair."""
    cards = sorted(set(leftover))
    outs = dict.fromkeys(cards, 0)
    jokers = unseen[FIRST_JOKER]
    for a, b in combinations(cards, 2):
        found = _pair_outs(a, b, style, unseen)
        if found:
            found += jokers
            outs[a] = max(outs[a], found)
            outs[b] = max(outs[b], found)
    return outs


def _pair_outs(a: int, b: int, style: MeldStyle, unseen: Counter[int]) -> int:
    if rank_of(a) == rank_of(b):
        if suit_of(a) == suit_of(b):
            return 0
        rank = rank_of(a)
        return sum(
            unseen[card_of(rank, s)] for s in range(SUITS) if s not in (suit_of(a), suit_of(b))
        )
    if suit_of(a) != suit_of(b):
        return 0
    suit = suit_of(a)
    best = 0
    for pa in style.positions_of(rank_of(a)):
        for pb in style.positions_of(rank_of(b)):
            low, high = min(pa, pb), max(pa, pb)
            gap = high - low
            if style.wrap and gap > RANKS // 2:
                low, high, gap = high, low + RANKS, RANKS - gap
            if gap == 1:
                ends = [low - 1, high + 1]
            elif gap == 2:
                ends = [low + 1]
            else:
                continue
            found = 0
            for position in ends:
                if not style.wrap and not 1 <= position <= 14:
                    continue
                found += unseen[card_of(style.rank_at(position), suit)]
            best = max(best, found)
    return best


def completes_meld(card: int, held: Iterable[int], style: MeldStyle) -> bool:
    """Whether `card` makes a meld with some of the cards `held`."""
    return any(card in t.naturals for t in templates([card, *held], style))


def near(a: int, b: int, style: MeldStyle) -> bool:
    """Whether two naturals are half of one meld (same rank, different
    suits; or same suit, at most two ranks apart)."""
    if is_joker(a) or is_joker(b) or a == b:
        return False
    if rank_of(a) == rank_of(b):
        return suit_of(a) != suit_of(b)
    if suit_of(a) != suit_of(b):
        return False
    return any(
        abs(pa - pb) <= 2 or (style.wrap and RANKS - abs(pa - pb) <= 2)
        for pa in style.positions_of(rank_of(a))
        for pb in style.positions_of(rank_of(b))
    )


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table as far as lay-offs go: which cards it still takes."""

    takes: frozenset[int]  # naturals it would take now
    takes_joker: bool

    @staticmethod
    def read(identities: Sequence[int], jokers: int, style: MeldStyle) -> TableMeld:
        """A meld from the cards its places stand for, in table order (a
        joker's identity in its place; 0 for an undeclared set joker), and
        how many jokers it holds."""
        known = [card for card in identities if card]
        if not known:
            return TableMeld(frozenset(), False)
        if len({rank_of(card) for card in known}) == 1:
            if len(identities) >= 4:
                return TableMeld(frozenset(), False)
            rank = rank_of(known[0])
            named = {suit_of(card) for card in known}
            takes = frozenset(card_of(rank, s) for s in range(SUITS) if s not in named)
            return TableMeld(takes, jokers < style.max_jokers)
        return TableMeld._sequence(identities, jokers, style)

    @staticmethod
    def _sequence(identities: Sequence[int], jokers: int, style: MeldStyle) -> TableMeld:
        suit = suit_of(identities[0])
        size = len(identities)
        if size >= style.max_sequence:
            return TableMeld(frozenset(), False)
        first_rank = rank_of(identities[0])
        last_rank = rank_of(identities[-1])
        takes: set[int] = set()
        if style.wrap:
            if size < RANKS:
                takes.add(card_of((first_rank - 1) % RANKS, suit))
                takes.add(card_of((last_rank + 1) % RANKS, suit))
        else:
            # An ace first is the ace below the two (it is never in the middle).
            low = 1 if first_rank == ACE else first_rank + 2
            high = low + size - 1
            if low > 1:
                takes.add(card_of(style.rank_at(low - 1), suit))
            if high < 14:
                takes.add(card_of(style.rank_at(high + 1), suit))
        room = bool(takes) and jokers < style.max_jokers
        return TableMeld(frozenset(takes), room)


def layable(melds: Iterable[TableMeld]) -> tuple[frozenset[int], bool]:
    """The naturals some table meld takes, and whether one takes a joker."""
    takes: set[int] = set()
    joker = False
    for meld in melds:
        takes |= meld.takes
        joker = joker or meld.takes_joker
    return frozenset(takes), joker


def without(hand: Sequence[int], cards: Iterable[int]) -> list[int]:
    """`hand` less one copy of each of `cards` (a joker for any joker)."""
    rest = list(hand)
    for card in cards:
        if card in rest:
            rest.remove(card)
            continue
        joker = next((c for c in rest if is_joker(c)), None) if is_joker(card) else None
        if joker is None:
            raise ValueError(f"card {card} is not in the hand")
        rest.remove(joker)
    return rest
