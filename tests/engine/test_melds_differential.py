"""Differential test of engine/melds.py `analyse` (and of each rummy game's
`read_meld`, which is `analyse` plus the game's own spelling rules) against an
independent validator written from the rules text alone.

The validator was written from /work/shared/rules/rummy_and_counting.md
(Scala 40 §1.1.1, §1.6, §1.16 V5/V14/V15/V17/V22/V23, §1.17, §1.19; «Мост»
§2.1, §2.4, §2.10, §2.12, §2.13) and the two games' RULES.md (where they settle
a point the shared text leaves open: the "one spelling" of a meld), before the
body of melds.py was read. Only the card encoding (engine/cards.py), the
declarations of `MeldRules` and `Meld`, and each game's `Rules` (how its
options become a `MeldRules`) were read to call it.

A seeded generator draws candidate melds biased towards near-valid ones, for
every meld-relevant option combination of both games. The engine and the
validator must agree on valid / invalid and, for a valid meld, on its kind,
its cards and joker identities in table order, the card of every place, its
suit, its first and last place, its value, and whether it is cyclic.

Its first run found two disagreements, settled at the end of this file:
D1, Scala 40's RULES.md promised "a red joker before a black one" in a set,
a clause that could never apply (a set's jokers never share an identity);
which joker stands for which card is the player's choice, so RULES.md now
says so and both spellings are distinct moves. D2, «Мост»'s `Meld.value`
counted a joker at the card it stands for (R-M-03: 0 on the table); fixed in
the engine (MeldRules.joker_value). The comparison now skips nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from croupier.engine.cards import (
    ACE,
    BLACK_JOKER,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    KING,
    QUEEN,
    RANK_OF,
    RED_JOKER,
    SPADES,
    SUIT_OF,
    SUITS,
    card,
    card_text,
    is_joker,
    parse_card,
)
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import SEQUENCE, SET, Meld, MeldError, MeldRules, analyse
from croupier.games.most import analyser as most_analyser
from croupier.games.most import options as most_options
from croupier.games.most.rules import Rules as MostRules
from croupier.games.scala40 import analyser as scala_analyser
from croupier.games.scala40 import options as scala_options
from croupier.games.scala40.rules import Rules as ScalaRules

SEED = 20240611
CANDIDATES_PER_CONFIG = 300

Cards = tuple[int, ...]

# ---------------------------------------------------------------------------------
# The independent validator
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """The meld rules of one game under one option set, as the rules text states them.

    `scala` is True for Scala 40 (§1.6), False for «Мост» (§2.4).
    """

    scala: bool
    max_jokers: int | None  # None: any number (V15 UNLIMITED; R-M-14)
    max_sequence: int  # R-S40-25 / V22 / V14; R-M-10 (13)
    court_values: bool  # V5 (Scala only)
    undeclared_set_joker: bool  # V17 off (Scala only)
    positional: bool  # V23 in effect, i.e. V23 on and V17 on (Scala only)


@dataclass(frozen=True)
class Expected:
    """What the rules say about a valid meld."""

    kind: int  # SET or SEQUENCE
    cards: Cards  # in table order
    joker_as: Cards
    identities: Cards  # the card of each place (0: undeclared set joker)
    suit: int  # a sequence's suit, 0 for a set
    low: int  # Scala: first place 1..14 (low ace = 1); «Мост»: first rank; set: rank
    high: int  # last place / last rank; set: rank
    value: int
    cyclic: bool


def scala_set_card_value(rank: int, court: bool) -> int:
    """§1.1.1 (and V5, A-S40-15): a card's value in a set.

    2–10 face value, J Q K 10, an ace 11; with `court_values_11_14` J 11, Q 12,
    K 13, an ace 14.
    """
    if rank <= 10:
        return rank
    if rank == ACE:
        return 14 if court else 11
    return rank if court else 10


def scala_place_value(place: int, court: bool) -> int:
    """§1.1.1, R-S40-30: the value of a sequence place (1 = low ace … 14 = high ace).

    The low ace is 1 under every option (V5: "A=1 only as low end"); every other
    place is worth what its card is worth in a set.
    """
    if place == 1:
        return 1
    return scala_set_card_value(place, court)


def most_card_value(rank: int) -> int:
    """R-M-03: 2–9 are 5; 10, J, Q, K 10; an ace 15 wherever it lies."""
    if rank <= 9:
        return 5
    return 15 if rank == ACE else 10


def most_meld_value(cards: Sequence[int]) -> int:
    """R-M-03, R-M-41, T-M-14, T-M-17: a meld's table value; a joker on the table is 0."""
    return sum(0 if is_joker(c) else most_card_value(RANK_OF[c]) for c in cards)


def identities_of(cards: Sequence[int], joker_as: Sequence[int]) -> Cards:
    """R-S40-28 / R-M-12: each place's card — the natural, or its joker's declared card."""
    declared = iter(joker_as)
    return tuple(next(declared) if is_joker(c) else c for c in cards)


def joker_count_ok(cards: Sequence[int], game: Game) -> bool:
    """R-S40-27 (V15) / R-M-14, A-M-05: the joker limit, and at least one natural card."""
    jokers = sum(1 for c in cards if is_joker(c))
    if jokers == len(cards):
        return False
    return game.max_jokers is None or jokers <= game.max_jokers


def set_in_canonical_order(cards: Sequence[int], joker_as: Sequence[int], game: Game) -> bool:
    """Scala RULES.md "One spelling", «Мост» RULES.md K-M-1.

    Naturals by suit (♣ ♦ ♥ ♠), then jokers by the card they stand for
    (undeclared last). Which joker stands for which card is the player's
    choice in both games (D1): the jokers' colours follow no order.
    """
    naturals = [c for c in cards if not is_joker(c)]
    split = len(naturals)
    if any(is_joker(c) for c in cards[:split]):
        return False  # a joker before a natural
    suits = [SUIT_OF[c] for c in naturals]
    if suits != sorted(suits):
        return False
    keys = [(a == 0, a) for a in joker_as]  # undeclared (0) last
    return keys == sorted(keys)


def check_set(cards: Cards, joker_as: Cards, game: Game) -> Expected | None:
    """A set: R-S40-20, R-S40-27, R-S40-28, V17; R-M-11, R-M-12, R-M-14.

    3 or 4 cards of one rank, all (declared) suits different, at least one
    natural, the joker limit. Every joker declares a card of the set's rank in
    a missing suit, except — Scala with V17 off (`declare_ambiguous_joker`
    off) — the lone joker of a three-card set, which may stay undeclared (0);
    the forced suit of a set of four is declared too (Scala RULES.md R-S40-28).
    Written in the one spelling (`set_in_canonical_order`). Value: Scala
    §1.6.4 (an undeclared joker is worth its rank), «Мост» R-M-03.
    """
    if len(cards) not in (3, 4) or not joker_count_ok(cards, game):
        return None
    ranks = {RANK_OF[c] for c in cards if not is_joker(c)}
    if len(ranks) != 1:
        return None
    rank = ranks.pop()
    ids = identities_of(cards, joker_as)
    if 0 in ids:
        lone = len(joker_as) == 1 and len(cards) == 3
        if not (game.scala and game.undeclared_set_joker and lone):
            return None
    declared = [i for i in ids if i]
    if any(RANK_OF[i] != rank for i in declared):
        return None
    suits = [SUIT_OF[i] for i in declared]
    if len(set(suits)) != len(suits):
        return None
    if not set_in_canonical_order(cards, joker_as, game):
        return None
    if game.scala:
        value = len(cards) * scala_set_card_value(rank, game.court_values)
    else:
        value = most_meld_value(cards)
    return Expected(SET, cards, joker_as, ids, 0, rank, rank, value, False)


def scala_first_place(ids: Sequence[int]) -> int | None:
    """R-S40-22, R-S40-23: the first place of a Scala sequence, or None.

    Places are 1 (low ace), 2..13, 14 (high ace); the cards, written low to
    high, must fill consecutive places within 1..14, so an ace is only at
    either end and never turns the corner (K-A-2).
    """
    n = len(ids)
    for first in range(1, 15 - n + 1):
        if all(
            RANK_OF[ident] == first + k or (RANK_OF[ident] == ACE and first + k == 1)
            for k, ident in enumerate(ids)
        ):
            return first
    return None


def check_scala_sequence(cards: Cards, joker_as: Cards, game: Game) -> Expected | None:
    """A Scala sequence: R-S40-22..25, R-S40-27, R-S40-28, C-S40-4, V14, V22.

    3+ cards of one suit, written low to high in consecutive places; an ace
    below the 2 or above the king only; not two natural aces; length 3 up to
    14 (13 under V22, 5 under V14); every joker names the card of its place.
    Value: the sum of the places' values (§1.6.4).
    """
    if not 3 <= len(cards) <= game.max_sequence or not joker_count_ok(cards, game):
        return None
    ids = identities_of(cards, joker_as)
    if 0 in ids:
        return None  # a sequence joker always names its card
    suits = {SUIT_OF[i] for i in ids}
    if len(suits) != 1:
        return None
    natural_aces = sum(1 for c in cards if not is_joker(c) and RANK_OF[c] == ACE)
    if natural_aces > 1:
        return None  # R-S40-24
    first = scala_first_place(ids)
    if first is None:
        return None
    last = first + len(cards) - 1
    value = sum(scala_place_value(p, game.court_values) for p in range(first, last + 1))
    return Expected(SEQUENCE, cards, joker_as, ids, suits.pop(), first, last, value, False)


def cyclic_next(rank: int) -> int:
    """R-M-10: the circle 2-3-…-K-A-2-…"""
    return 2 if rank == ACE else rank + 1


def check_most_sequence(
    cards: Cards, joker_as: Cards, game: Game, laid_at_once: bool
) -> Expected | None:
    """A «Мост» sequence: R-M-10, R-M-12, R-M-14, K-M-1.

    3..13 cards of one suit whose ranks follow the circle 2-…-K-A-2-…, written
    in the order of the circle from the first card; every joker names the
    card of its place. K-M-1: a whole suit *laid at once* is written from its
    2, while "a meld grown to 13 cards by lay-offs keeps the order it grew
    into" — so the meld itself (`laid_at_once` False) may start anywhere.
    """
    if not 3 <= len(cards) <= 13 or not joker_count_ok(cards, game):
        return None
    ids = identities_of(cards, joker_as)
    if 0 in ids:
        return None  # R-M-12: the exact card is always announced
    suits = {SUIT_OF[i] for i in ids}
    if len(suits) != 1:
        return None
    ranks = [RANK_OF[i] for i in ids]
    if any(cyclic_next(a) != b for a, b in zip(ranks, ranks[1:], strict=False)):
        return None
    if laid_at_once and len(cards) == 13 and ranks[0] != 2:
        return None
    value = most_meld_value(cards)
    return Expected(SEQUENCE, cards, joker_as, ids, suits.pop(), ranks[0], ranks[-1], value, True)


# R-S40-29 (b): naturals of one colour — ♠ ⇒ ♥, ♥ ⇒ ♠, ♣ ⇒ ♦, ♦ ⇒ ♣.
SAME_COLOUR_RULE = {SPADES: HEARTS, HEARTS: SPADES, CLUBS: DIAMONDS, DIAMONDS: CLUBS}
# R-S40-29 (a): naturals of two colours — the other suit of the neighbour's colour.
OTHER_OF_COLOUR = {SPADES: CLUBS, CLUBS: SPADES, HEARTS: DIAMONDS, DIAMONDS: HEARTS}


def is_red(suit: int) -> bool:
    """♥ and ♦ are red (§0.1)."""
    return suit in (HEARTS, DIAMONDS)


def positional_reading(cards: Cards, joker_as: Cards) -> tuple[Cards, Cards] | None:
    """V23, R-S40-29, T-S40-10: a three-card set whose lone undeclared joker
    lies at an end, read as the set the convention makes of it, in set order
    (Scala RULES.md: "read in the order written and then kept in set order").

    None when the convention says nothing (no such joker, the joker in the
    middle, naturals of two ranks).
    """
    if len(cards) != 3 or list(joker_as) != [0]:
        return None
    place = next(k for k, c in enumerate(cards) if is_joker(c))
    if place == 1:
        return None
    neighbour = cards[1]
    other = cards[2 - place]
    if RANK_OF[neighbour] != RANK_OF[other]:
        return None
    mixed = is_red(SUIT_OF[neighbour]) != is_red(SUIT_OF[other])
    table = OTHER_OF_COLOUR if mixed else SAME_COLOUR_RULE
    identity = card(RANK_OF[neighbour], table[SUIT_OF[neighbour]])
    naturals = sorted((other, neighbour), key=lambda c: SUIT_OF[c])
    return (*naturals, cards[place]), (identity,)


def expected_meld(
    cards: Sequence[int], joker_as: Sequence[int], game: Game, move: bool = False
) -> Expected | None:
    """The meld the rules see in (cards, joker_as), or None when it is none.

    `move` False: the meld as such (engine `analyse`); True: as a move lays it
    (a game's `read_meld`), adding K-M-1's whole-suit spelling («Мост») and
    the V23 input helper (Scala). A list of three or more cards is a set or a
    sequence (§1.6, §2.4); with every identity known the two cannot both hold
    (a set's suits differ, a sequence's ranks differ), so trying each is enough.
    """
    cards, joker_as = tuple(cards), tuple(joker_as)
    if move and game.positional:
        read = positional_reading(cards, joker_as)
        if read is not None:
            cards, joker_as = read
    found = check_set(cards, joker_as, game)
    if found is not None:
        return found
    if game.scala:
        return check_scala_sequence(cards, joker_as, game)
    return check_most_sequence(cards, joker_as, game, laid_at_once=move)


# ---------------------------------------------------------------------------------
# Texts
# ---------------------------------------------------------------------------------


def parse(text: str) -> tuple[Cards, Cards]:
    """ "8C 9C RJ=10C" as (cards, joker_as); a bare "RJ" is an undeclared joker."""
    cards: list[int] = []
    joker_as: list[int] = []
    for word in text.split():
        name, _, identity = word.partition("=")
        value = parse_card(name)
        cards.append(value)
        if is_joker(value):
            joker_as.append(parse_card(identity) if identity else 0)
    return tuple(cards), tuple(joker_as)


def text_of(cards: Sequence[int], joker_as: Sequence[int]) -> str:
    """The inverse of `parse`."""
    declared = iter(joker_as)
    words = []
    for c in cards:
        if is_joker(c):
            a = next(declared)
            words.append(f"{card_text(c)}={card_text(a)}" if a else card_text(c))
        else:
            words.append(card_text(c))
    return " ".join(words)


# ---------------------------------------------------------------------------------
# Configurations: every meld-relevant option combination of both games
# ---------------------------------------------------------------------------------

Reader = Callable[[Cards, Cards], Meld]


@dataclass(frozen=True)
class Config:
    """One option set: its label, the game's MeldRules and move reader, our reading."""

    label: str
    meld_rules: MeldRules
    read_move: Reader  # the game's read_meld under these options
    game: Game


def scala_config(court: bool, jokers: str, declare: bool, v23: bool, length: str) -> Config:
    """V5 × V15 × V17 × V23 × (V22 14 / V22 13 / V14), built by the game's own `Rules`."""
    settings: dict[str, Any] = {
        "court_values_11_14": court,
        "max_jokers_per_meld": jokers,
        "declare_ambiguous_joker": declare,
        "set_joker_positional_convention": v23,
    }
    if length == "split5":
        settings["sequence_split_max5"] = True
        max_sequence = 5  # V14 overrides V22
    else:
        settings["max_sequence_length"] = int(length)
        max_sequence = int(length)
    rules = ScalaRules(scala_options.CATALOGUE.resolve([(settings, {})]))
    melds, positional = rules.melds, rules.positional_convention

    def read(cards: Cards, joker_as: Cards) -> Meld:
        return scala_analyser.read_meld(cards, joker_as, melds, positional)

    label = f"scala40 V5={court:d} V15={jokers} V17={declare:d} V23={v23:d} len={length}"
    game = Game(
        scala=True,
        max_jokers=None if jokers == "UNLIMITED" else 1,
        max_sequence=max_sequence,
        court_values=court,
        undeclared_set_joker=not declare,
        positional=v23 and declare,  # V23 is inert with V17 off (§1.16, C-S40-5)
    )
    return Config(label, melds, read, game)


def most_config(min_naturals: int) -> Config:
    """«Мост»: no option changes meld validity; `min_naturals_per_meld` is inert (C-M-3)."""
    settings = {"min_naturals_per_meld": min_naturals}
    rules = MostRules(most_options.CATALOGUE.resolve([(settings, {})]))
    melds = rules.melds

    def read(cards: Cards, joker_as: Cards) -> Meld:
        return most_analyser.read_meld(cards, joker_as, melds)

    game = Game(False, None, 13, False, False, False)
    return Config(f"most min_naturals={min_naturals}", melds, read, game)


CONFIGS = [
    scala_config(court, jokers, declare, v23, length)
    for court in (False, True)
    for jokers in ("ONE", "UNLIMITED")
    for declare in (True, False)
    for v23 in (False, True)
    for length in ("14", "13", "split5")
] + [most_config(1), most_config(0)]


def config(label: str) -> Config:
    """The configuration of that label."""
    return next(c for c in CONFIGS if c.label == label)


# ---------------------------------------------------------------------------------
# Candidate melds, biased towards near-valid ones
# ---------------------------------------------------------------------------------

Slot = tuple[int, int]  # (card, identity): the natural itself, or a joker's declaration
Candidate = tuple[Cards, Cards]


def to_candidate(slots: Sequence[Slot]) -> Candidate:
    """Slots as (cards, joker_as)."""
    cards = tuple(c for c, _ in slots)
    joker_as = tuple(i for c, i in slots if is_joker(c))
    return cards, joker_as


def joker_cards(rng: random.Random, count: int, game: Game) -> list[int]:
    """Up to `count` jokers a real deck holds: Scala two red, two black; «Мост» one of each."""
    copies = 2 if game.scala else 1
    pool = [RED_JOKER] * copies + [BLACK_JOKER] * copies
    rng.shuffle(pool)
    return pool[:count]


def wrong_identity(rng: random.Random, ident: int) -> int:
    """A plausible mistaken declaration for a joker meant to stand for `ident`."""
    rank, suit = RANK_OF[ident], SUIT_OF[ident]
    roll = rng.random()
    if roll < 0.3:
        return card(cyclic_next(rank), suit)
    if roll < 0.5:
        return card(ACE if rank == 2 else rank - 1, suit)
    if roll < 0.8:
        return card(rank, rng.choice([s for s in SUITS if s != suit]))
    return 0  # undeclared


def joker_count(rng: random.Random, game: Game, none: float) -> int:
    """How many jokers to put in a candidate: none with probability `none`; past
    the game's limit (V15 ONE) only now and then, to test the limit itself."""
    if rng.random() < none:
        return 0
    if game.max_jokers == 1 and rng.random() < 0.8:
        return 1
    return rng.choice([1, 1, 2, 2, 3])


def add_jokers(rng: random.Random, slots: list[Slot], count: int, game: Game) -> list[Slot]:
    """Replace up to `count` random naturals by jokers declaring them (sometimes wrongly)."""
    slots = list(slots)
    places = [k for k, (c, _) in enumerate(slots) if not is_joker(c)]
    rng.shuffle(places)
    for place, joker in zip(places, joker_cards(rng, count, game), strict=False):
        ident = slots[place][1]
        if rng.random() < 0.12:
            ident = wrong_identity(rng, ident)
        slots[place] = (joker, ident)
    return slots


def canonical_set(slots: Sequence[Slot]) -> list[Slot]:
    """Naturals by suit, then jokers by identity (undeclared last), red jokers first."""
    naturals = sorted((s for s in slots if not is_joker(s[0])), key=lambda s: SUIT_OF[s[0]])
    jokers = [s for s in slots if is_joker(s[0])]
    colours = sorted(c for c, _ in jokers)
    idents = sorted((i for _, i in jokers), key=lambda i: (i == 0, i))
    return naturals + list(zip(colours, idents, strict=True))


def gen_set(rng: random.Random, game: Game) -> list[Slot]:
    """A set of one rank: 3 or 4 cards (sometimes 2 or 5), 0–3 jokers, mostly distinct suits."""
    rank = rng.randint(2, ACE)
    size = rng.choice([3, 3, 3, 4, 4, 4, 2, 5])
    if size <= 4 and rng.random() < 0.85:
        suits = rng.sample(SUITS, size)
    else:
        suits = [rng.choice(SUITS) for _ in range(size)]
    slots = [(card(rank, s), card(rank, s)) for s in suits]
    slots = add_jokers(rng, slots, joker_count(rng, game, 0.25), game)
    if game.undeclared_set_joker and rng.random() < 0.3:
        slots = [(c, 0) if is_joker(c) else (c, i) for c, i in slots]
    if rng.random() < 0.15 and size < 4:  # an odd rank among them
        place = rng.randrange(len(slots))
        if not is_joker(slots[place][0]):
            other = card(rng.choice([r for r in range(2, ACE + 1) if r != rank]), suits[place])
            slots[place] = (other, other)
    if rng.random() < 0.85:
        slots = canonical_set(slots)
        if rng.random() < 0.15:  # the jokers' colours the other way round
            jokers = [k for k, (c, _) in enumerate(slots) if is_joker(c)]
            colours = [slots[k][0] for k in reversed(jokers)]
            for k, colour in zip(jokers, colours, strict=True):
                slots[k] = (colour, slots[k][1])
        return slots
    rng.shuffle(slots)
    return slots


def gen_three_with_lone_joker(rng: random.Random, game: Game) -> list[Slot]:
    """Two naturals (mostly of one rank) and one joker, mostly undeclared, anywhere:
    the V17 / V23 cases (R-S40-28, R-S40-29, T-S40-09, T-S40-10)."""
    rank = rng.randint(2, ACE)
    suits = rng.sample(SUITS, 3) if rng.random() < 0.9 else [rng.choice(SUITS)] * 3
    slots = [(card(rank, s), card(rank, s)) for s in suits]
    if rng.random() < 0.1:
        slots[1] = (card(cyclic_next(rank), suits[1]), card(cyclic_next(rank), suits[1]))
    joker = joker_cards(rng, 1, game)[0]
    slots[2] = (joker, 0 if rng.random() < 0.7 else slots[2][1])
    rng.shuffle(slots)
    return slots


def gen_run(rng: random.Random, game: Game) -> list[Slot]:
    """A run of one suit round the circle from any rank, 2–15 cards, then mutations.

    Drawn on the circle 2-…-K-A-2 so that runs with an ace at either end and
    around the corner (K-A-2) come up for both games; the mutations make gaps,
    repeats, a wrong suit, a reversed or rotated order, and jokers.
    """
    suit = rng.choice(SUITS)
    length = rng.choice([2, 3, 3, 3, 4, 4, 5, 5, 6, 7, 8, 10, 12, 13, 13, 14, 14, 15])
    if rng.random() < 0.5:  # runs touching an ace are the interesting ones
        start = rng.choice([ACE, ACE, 2, QUEEN, KING, JACK])
    else:
        start = rng.randint(2, ACE)
    ranks = [start]
    for _ in range(length - 1):
        ranks.append(cyclic_next(ranks[-1]))
    slots = [(card(r, suit), card(r, suit)) for r in ranks]
    roll = rng.random
    if roll() < 0.1 and len(slots) > 3:  # a gap
        del slots[rng.randrange(1, len(slots) - 1)]
    if roll() < 0.08:  # a repeat
        place = rng.randrange(len(slots))
        slots.insert(place, slots[place])
    if roll() < 0.08:  # a card of another suit
        place = rng.randrange(len(slots))
        c = slots[place][0]
        other = card(RANK_OF[c], rng.choice([s for s in SUITS if s != suit]))
        slots[place] = (other, other)
    if roll() < 0.06:
        slots.reverse()
    if roll() < 0.06 and len(slots) > 1:
        k = rng.randrange(1, len(slots))
        slots = slots[k:] + slots[:k]
    if roll() < 0.05 and len(slots) > 1:
        k = rng.randrange(len(slots) - 1)
        slots[k], slots[k + 1] = slots[k + 1], slots[k]
    return add_jokers(rng, slots, joker_count(rng, game, 0.35), game)


def gen_ace_joker_run(rng: random.Random, game: Game) -> list[Slot]:
    """A run whose end is a joker standing for an ace, or for the card beyond an ace."""
    suit = rng.choice(SUITS)
    length = rng.choice([3, 3, 4, 5, 13, 14])
    high = rng.random() < 0.5
    ranks = range(ACE - length + 2, ACE + 1) if high else range(2, length + 1)
    slots = [(card(r, suit), card(r, suit)) for r in ranks if 2 <= r <= ACE]
    joker = joker_cards(rng, 1, game)[0]
    wanted = card(rng.choice([ACE, ACE, ACE, 2 if high else KING]), suit)
    if high:
        slots.append((joker, wanted))
    else:
        slots.insert(0, (joker, wanted))
    return slots


def gen_scatter(rng: random.Random, game: Game) -> list[Slot]:
    """0–5 cards from a window of three ranks and two suits, jokers declared at random."""
    low = rng.randint(2, ACE)
    window = [low, cyclic_next(low), cyclic_next(cyclic_next(low))]
    suits = rng.sample(SUITS, 2)
    jokers = joker_cards(rng, 4, game)
    slots: list[Slot] = []
    for _ in range(rng.choice([0, 1, 2, 3, 3, 3, 4, 4, 5])):
        c = card(rng.choice(window), rng.choice(suits))
        slots.append((jokers.pop(), c) if jokers and rng.random() < 0.25 else (c, c))
    return slots


GENERATORS: tuple[Callable[[random.Random, Game], list[Slot]], ...] = (
    gen_set,
    gen_set,
    gen_three_with_lone_joker,
    gen_run,
    gen_run,
    gen_run,
    gen_ace_joker_run,
    gen_scatter,
)


def candidates(rng: random.Random, game: Game, count: int) -> list[Candidate]:
    """`count` candidate melds for `game`."""
    return [to_candidate(rng.choice(GENERATORS)(rng, game)) for _ in range(count)]


# ---------------------------------------------------------------------------------
# The comparison
# ---------------------------------------------------------------------------------


def engine_meld(config: Config, cards: Cards, joker_as: Cards, move: bool) -> Meld | None:
    """The engine's meld — `analyse`, or with `move` the game's `read_meld` —
    None when it refuses (MeldError, IllegalMove). Any other exception
    propagates and fails the test."""
    try:
        if move:
            return config.read_move(cards, joker_as)
        return analyse(cards, joker_as, config.meld_rules)
    except (MeldError, IllegalMove):
        return None


def as_expected(meld: Meld) -> Expected:
    """The engine's meld in the validator's terms."""
    return Expected(
        meld.kind,
        tuple(meld.cards),
        tuple(meld.joker_as),
        tuple(meld.identities),
        meld.suit,
        meld.low,
        meld.high,
        meld.value,
        meld.cyclic,
    )


def describe(meld: Expected | None) -> str:
    """A short text for a verdict."""
    if meld is None:
        return "invalid"
    kind = {SET: "set", SEQUENCE: "sequence"}.get(meld.kind, str(meld.kind))
    ids = " ".join(card_text(i) if i else "?" for i in meld.identities)
    return (
        f"{kind} [{text_of(meld.cards, meld.joker_as)}] places [{ids}] suit={meld.suit} "
        f"low={meld.low} high={meld.high} value={meld.value} cyclic={meld.cyclic}"
    )


def respell_jokers_red_first(cards: Cards) -> Cards:
    """The same cards with the jokers' colours sorted (red first), places kept."""
    places = [k for k, c in enumerate(cards) if is_joker(c)]
    colours = sorted(cards[k] for k in places)
    out = list(cards)
    for k, colour in zip(places, colours, strict=True):
        out[k] = colour
    return tuple(out)


@dataclass
class Tally:
    """What a comparison run found."""

    compared: int = 0
    valid: int = 0
    problems: list[str] | None = None


def compare(config: Config, pairs: Sequence[Candidate]) -> Tally:
    """Engine (`analyse`, and the game's `read_meld`) against the validator."""
    tally = Tally(problems=[])
    assert tally.problems is not None
    # Scala without V23: a move reads a meld as the meld itself (one answer for both).
    same_reading = config.game.scala and not config.game.positional
    for cards, joker_as in pairs:
        want = None
        for layer, move in (("analyse", False), ("read_meld", True)):
            meld = engine_meld(config, cards, joker_as, move)
            got = None if meld is None else as_expected(meld)
            if not (move and same_reading):
                want = expected_meld(cards, joker_as, config.game, move=move)
            tally.compared += 1
            tally.valid += want is not None
            if got == want:
                continue
            tally.problems.append(
                f"{config.label} {layer}: [{text_of(cards, joker_as)}] "
                f"engine: {describe(got)}; rules: {describe(want)}"
            )
    return tally


@pytest.mark.parametrize("config", CONFIGS, ids=[c.label for c in CONFIGS])
def test_engine_agrees_with_independent_validator(config: Config) -> None:
    """Seeded random candidates: engine and validator agree on every one."""
    rng = random.Random(f"{SEED}:{config.label}")
    tally = compare(config, candidates(rng, config.game, CANDIDATES_PER_CONFIG))
    assert tally.problems is not None
    assert not tally.problems, f"{len(tally.problems)} disagreements:\n" + "\n".join(
        tally.problems[:20]
    )
    # The generator exercises both answers.
    assert 0.1 * tally.compared < tally.valid < 0.8 * tally.compared


def test_configs_cover_every_meld_option() -> None:
    """48 Scala 40 combinations (V5 × V15 × V17 × V23 × V22/V14) reach 24
    distinct MeldRules (V23 lives in the game's reader); «Мост»'s
    `min_naturals_per_meld` is inert (C-M-3)."""
    assert len({c.meld_rules for c in CONFIGS if c.game.scala}) == 24
    assert len({c.meld_rules for c in CONFIGS if not c.game.scala}) == 1
    assert len(CONFIGS) == 50


# ---------------------------------------------------------------------------------
# The rules text's own examples, held against the validator and the engine
# ---------------------------------------------------------------------------------

DEFAULT = "scala40 V5=0 V15=ONE V17=1 V23=0 len=14"
COURT = "scala40 V5=1 V15=ONE V17=1 V23=0 len=14"
V17_OFF = "scala40 V5=0 V15=ONE V17=0 V23=0 len=14"
V22 = "scala40 V5=0 V15=ONE V17=1 V23=0 len=13"
V23 = "scala40 V5=0 V15=ONE V17=1 V23=1 len=14"
MULTI = "scala40 V5=0 V15=UNLIMITED V17=1 V23=0 len=14"
MOST = "most min_naturals=1"

# (config, meld, move?, value or None when illegal) from the rules text.
RULE_EXAMPLES = [
    (DEFAULT, "QH KH AH", False, 31),  # §1.6.4
    (DEFAULT, "AC 2C 3C", False, 6),  # §1.6.4
    (DEFAULT, "AD AH AS", False, 33),  # §1.6.4, T-S40-03
    (COURT, "AD AH AS", False, 42),  # T-S40-03 with V5
    (DEFAULT, "8C 9C RJ=10C", False, 27),  # §1.6.4, T-S40-01
    (DEFAULT, "KS AS 2S", False, None),  # T-S40-06
    (DEFAULT, "9C 9D 9H 8H 7H", False, None),  # T-S40-07
    (DEFAULT, "9C 9H 9H", False, None),  # R-S40-20
    (DEFAULT, "7C 7S RJ=7C", False, None),  # T-S40-09
    (DEFAULT, "7C 7S RJ=7H", False, 21),  # T-S40-09
    (DEFAULT, "7C 7S RJ", False, None),  # T-S40-09 (undeclared, default)
    (V17_OFF, "7C 7S RJ", False, 21),  # T-S40-09 with V17 off
    (V23, "10H 10S RJ", True, 30),  # T-S40-10: JK = 10C
    (V23, "RJ 7H 7D", True, 21),  # T-S40-10: JK = 7S
    (V23, "7H RJ 7S", True, None),  # T-S40-10: no inference
    (DEFAULT, "RJ=AH 2H 3H", False, 6),  # T-S40-39
    (DEFAULT, "QH KH RJ=AH", False, 31),  # T-S40-39
    (DEFAULT, "RJ=KH AH 2H", False, None),  # T-S40-39
    (DEFAULT, "RJ=9H 7H 8H", False, None),  # R-S40-28: the JK before 7-8 is the 6
    (DEFAULT, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH RJ=AH", False, 96),  # R-S40-25
    (V22, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH RJ=AH", False, None),  # V22
    (DEFAULT, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", False, None),  # R-S40-24
    (DEFAULT, "RJ=6H 7H BJ=8H", False, None),  # R-S40-27
    (MULTI, "RJ=6H 7H BJ=8H", False, 21),  # V15
    (MULTI, "RJ=6H BJ=7H", False, None),  # too short, no natural
    (MOST, "QH KH AH 2H 3H", True, 45),  # T-M-02
    (MOST, "KS AS 2S", True, 30),  # R-M-10
    (MOST, "JC JD JS", True, 30),  # T-M-03
    (MOST, "JC JS", True, None),  # T-M-03
    (MOST, "5H 6H 7H 8H 9H 10H JH QH KH AH 2H 3H 4H", True, None),  # K-M-1: from its 2
    (MOST, "5H 6H 7H 8H 9H 10H JH QH KH AH 2H 3H 4H", False, 95),  # K-M-1: grown so
    (MOST, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", True, 95),  # R-M-10
]


def engine_value(config: Config, cards: Cards, joker_as: Cards, move: bool) -> int | None:
    """The engine's value of a meld, None when it refuses it."""
    meld = engine_meld(config, cards, joker_as, move)
    return None if meld is None else meld.value


@pytest.mark.parametrize(("label", "text", "move", "value"), RULE_EXAMPLES)
def test_rule_examples(label: str, text: str, move: bool, value: int | None) -> None:
    """The validator and the engine both answer the rules text's worked examples."""
    cfg = config(label)
    cards, joker_as = parse(text)
    want = expected_meld(cards, joker_as, cfg.game, move=move)
    assert (want.value if want else None) == value
    assert engine_value(cfg, cards, joker_as, move) == value


EDGE_CASES = [
    "RJ=AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH BJ=AH",  # C-S40-4: two joker aces
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",  # R-S40-24
    "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",  # 13: V22 yes, V14 no; «Мост» grown only
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "AH RJ=2H BJ=3H",  # the ace the only natural
    "RJ=QH BJ=KH AH",
    "RJ=AC BJ=2C 3C",
    "RJ=KH AH BJ=2H",  # round the corner: «Мост» only
    "KH AH 2H",
    "AC KC QC",  # high to low
    "2C 3C 4C 5C 6C",  # V14: five is the most
    "2C 3C 4C 5C 6C 7C",
    "RJ=2C 3C",
    "AH RJ=AD BJ=AS",
    "RJ=AH AD AS",  # joker first in a set
    "AC AD AH AS",
    "AC AD AH AS RJ=AS",  # five of a rank
    "5S RJ=5D BJ=5D",  # two jokers, one card
    "7C 8C RJ",  # an undeclared joker with two ranks
    "7C 7C RJ",
    "7C 7D 7H RJ",  # V17 off: a set of four declares
    "7C 7D RJ BJ",
    "7C RJ=7D BJ",
    "7C RJ BJ=7D",
    "RJ 7C 7D",  # V23: beside ♣, two colours: ♠
    "7D RJ 7C",  # V23: middle, no inference
    "7C 7D RJ=7D",
    "RJ=7H 7C 7D",
]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_edge_cases_in_every_config(text: str) -> None:
    """Hand-picked corners, both layers, every configuration."""
    cards, joker_as = parse(text)
    problems = []
    for cfg in CONFIGS:
        tally = compare(cfg, [(cards, joker_as)])
        assert tally.problems is not None
        problems += tally.problems
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------
# The known disagreements, pinned: each asserts the rules' answer and fails today
# ---------------------------------------------------------------------------------

JOKERS_BLACK_FIRST = [
    (MULTI, "5S BJ=5C RJ=5D"),
    ("scala40 V5=0 V15=UNLIMITED V17=0 V23=0 len=14", "6C BJ=6D RJ=6S"),
    (MULTI, "7H 7S BJ=7C RJ=7D"),
]


@pytest.mark.parametrize(("label", "text"), JOKERS_BLACK_FIRST)
def test_d1_which_joker_stands_for_which_card_is_the_players_choice(label: str, text: str) -> None:
    """D1, Scala RULES.md "One spelling": a set's jokers are written by the
    card they stand for; which physical joker stands for which card is the
    player's choice, so [5S BJ=5C RJ=5D] and [5S RJ=5C BJ=5D] are two valid
    moves, each with its own spelling (the table they leave differs in which
    joker a later swap of 5C takes)."""
    cfg = config(label)
    cards, joker_as = parse(text)
    respelled = respell_jokers_red_first(cards)
    assert respelled != cards
    for spelling in (cards, respelled):
        want = expected_meld(spelling, joker_as, cfg.game, move=True)
        got = engine_meld(cfg, spelling, joker_as, move=True)
        assert want is not None and got is not None
        assert as_expected(got) == want
        assert got.cards == spelling


MOST_JOKER_VALUES = [
    ("5S RJ=5D BJ=5H", 5),  # T-M-17: "value 5"
    ("JC JS RJ=JD", 20),  # T-M-14: 10+10+0
    ("KD RJ=AD 2D", 15),  # T-M-18, valued by R-M-03
]


@pytest.mark.parametrize(("text", "value"), MOST_JOKER_VALUES)
def test_d2_most_joker_on_table_is_worth_nothing(text: str, value: int) -> None:
    """D2, R-M-03: "Joker on the table = 0"; T-M-17 `[5♠ JK→5♥ JK→5♦]` "value 5"."""
    cfg = config(MOST)
    cards, joker_as = parse(text)
    want = expected_meld(cards, joker_as, cfg.game, move=True)
    assert want is not None and want.value == value
    assert engine_value(cfg, cards, joker_as, move=True) == value
