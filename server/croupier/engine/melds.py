"""Rummy melds: sets and sequences of French cards with jokers and aces.

Game-independent machinery for the rummy games (Scala 40 and «Мост»):
what makes a meld valid, which card each joker stands for, what a meld is
worth, what may be added to it and which joker a natural card may replace.
A game describes its own limits once in `MeldRules` (how many jokers a meld
may hold, how long a sequence may grow, what each rank is worth).

Vocabulary (Scala 40 RULES.md, Melds):

* A *meld* is an ordered list of three or more cards; each joker in it has an
  *identity*, the card it stands for (`joker_as`, one entry per joker in
  order; 0 = undeclared, allowed only for the lone joker of a three-card set
  when the rules say so).
* A *set* is 3–4 cards of one rank with different suits, written naturals by
  suit (♣ ♦ ♥ ♠) then jokers by identity (`set_order`).
* A *sequence* is consecutive ranks of one suit, written low to high. Its
  *positions* run 1..14: 1 is the ace below the two, 14 the ace above the
  king; an ace is never in the middle (K-A-2 is no sequence) and a sequence
  holds at most one natural ace of its suit.
* A *cyclic* sequence (`MeldRules.wrap`, «Мост» R-M-10) follows the ranks
  round the circle 2-3-…-K-A-2-3-…: K-A-2 and Q-K-A-2-3 are sequences, an
  ace is worth the same wherever it lies, and a sequence holds each rank at
  most once (13 cards). Its `low` is the rank (2..14) of its first card.

Errors are `MeldError` with a `MeldFault` naming the rule broken, so that a
game can map each fault to its own typed rejection reason.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from croupier.engine.cards import (
    ACE,
    BLACK_JOKER,
    LAST_SUITED,
    RANK_OF,
    SUIT_OF,
    SUITS,
    card,
    card_text,
    is_joker,
    is_suited,
)
from croupier.engine.errors import InvalidInput

SET = 1
SEQUENCE = 2
UNLIMITED = 99  # MeldRules.max_jokers when a meld may hold any number of jokers
LOW, HIGH = 1, 2  # the ends of a sequence

# Value of each sequence position 1..14 (index 0 unused) and of each rank in a set.
STANDARD_VALUES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)
COURT_VALUES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)


class MeldFault(enum.IntEnum):
    """Why a list of cards is not a meld (or cannot become one)."""

    TOO_SHORT = 1  # fewer than three cards
    NO_NATURAL = 2  # jokers only
    TOO_MANY_JOKERS = 3  # more jokers than MeldRules.max_jokers
    SET_RANKS_DIFFER = 4  # neither one rank (set) nor one suit (sequence)
    SET_SUITS_REPEAT = 5  # a suit twice in a set
    SET_TOO_LARGE = 6  # more than four cards of one rank
    SEQUENCE_NOT_CONSECUTIVE = 7  # a gap, a repeat, or not written low to high
    ACE_IN_MIDDLE = 8  # K-A-2: the ace turns the corner
    TWO_NATURAL_ACES = 9  # a natural ace at both ends
    SEQUENCE_TOO_LONG = 10  # longer than MeldRules.max_sequence_length
    JOKER_UNDECLARED = 11  # a joker without the identity it must declare
    JOKER_IDENTITY_WRONG = 12  # a declared identity that does not fit its place
    NOT_IN_ORDER = 13  # a set not written in its canonical order
    DOES_NOT_FIT = 14  # a card that extends no end / fills no missing suit
    NO_SUCH_JOKER = 15  # a swap whose natural matches no joker of the meld


class MeldError(Exception):
    """A meld rule is broken; `fault` says which, `message` in words."""

    def __init__(self, fault: MeldFault, message: str) -> None:
        self.fault = fault
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class MeldRules:
    """A game's limits on melds."""

    max_jokers: int = 1
    max_sequence_length: int = 14
    values: tuple[int, ...] = STANDARD_VALUES
    # A three-card set's lone joker may stay undeclared ("either missing suit").
    undeclared_set_joker: bool = False
    # Sequences go round the corner (K-A-2); `values` is then indexed by rank
    # (2..14), an ace the same at either end («Мост» R-M-10).
    wrap: bool = False
    # What a joker adds to a meld's value: None, the card it stands for
    # (Scala 40 §1.6.4); a number, that («Мост» R-M-03: 0 on the table).
    joker_value: int | None = None

    def set_value(self, rank: int) -> int:
        """What one card of a set of `rank` (2..14) is worth."""
        return self.values[rank]


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld, analysed.

    `identities` has one card per position: the natural itself, or the
    joker's identity (0 for an undeclared set joker). For a sequence `low` is
    the position of its first card (1..13); for a set it is the rank.
    """

    kind: int
    cards: tuple[int, ...]
    joker_as: tuple[int, ...]
    identities: tuple[int, ...]
    suit: int  # a sequence's suit; 0 for a set
    low: int
    value: int  # its places' values, a joker's as MeldRules.joker_value says
    cyclic: bool = False  # a sequence of MeldRules.wrap: `low` is a rank 2..14

    @property
    def jokers(self) -> int:
        return len(self.joker_as)

    @property
    def high(self) -> int:
        """A sequence's last position (1..14; a cyclic one's last rank); a set's rank."""
        if self.kind != SEQUENCE:
            return self.low
        if self.cyclic:
            return cyclic_rank(self.low + len(self.cards) - 1)
        return self.low + len(self.cards) - 1

    def missing_suits(self) -> list[int]:
        """A set's suits that no card names (an undeclared joker names none)."""
        named = {SUIT_OF[i] for i in self.identities if i}
        return [s for s in SUITS if s not in named]


def position_card(position: int, suit: int) -> int:
    """The card at sequence position 1..14 of `suit` (1 and 14 are the ace)."""
    return card(ACE if position in (1, 14) else position, suit)


def cyclic_rank(rank: int) -> int:
    """The rank 2..14 reached from 2 after `rank - 2` steps round the circle
    2-3-…-K-A-2 (so 15 is the 2 after the ace, 1 the ace before the 2)."""
    return 2 + (rank - 2) % 13


def position_of(value: int, low_ace: bool) -> int:
    """A natural's sequence position (an ace is 1 when `low_ace`, else 14)."""
    rank = RANK_OF[value]
    return 1 if rank == ACE and low_ace else rank


def meld_text(cards: Sequence[int], joker_as: Sequence[int]) -> str:
    """[8C 9C RJ=10C]: jokers with their identities (an undeclared one bare)."""
    parts, jokers = [], iter(joker_as)
    for value in cards:
        text = card_text(value)
        if is_joker(value):
            identity = next(jokers, 0)
            text += f"={card_text(identity)}" if identity else ""
        parts.append(text)
    return "[" + " ".join(parts) + "]"


def set_order(cards: Sequence[int], joker_as: Sequence[int]) -> tuple[list[int], list[int]]:
    """A set's canonical order: naturals ascending (by suit), then jokers by
    identity (undeclared last). Which joker stands for which card is the
    player's choice, so colour orders only jokers of one identity (a tie no
    valid set has, kept for a stable order of invalid ones)."""
    naturals = sorted(v for v in cards if not is_joker(v))
    jokers = [v for v in cards if is_joker(v)]
    pairs = sorted(zip(jokers, joker_as, strict=True), key=lambda p: (p[1] or 99, p[0]))
    return naturals + [p[0] for p in pairs], [p[1] for p in pairs]


# -- analysing a meld ----------------------------------------------------------


def analyse(cards: Sequence[int], joker_as: Sequence[int], rules: MeldRules) -> Meld:
    """The meld these cards make, or MeldError naming the rule they break.

    `cards` are in table order; `joker_as` gives each joker's identity in
    order (its length is the number of jokers, checked by the caller's shape
    check). A set must be in `set_order`; a sequence low to high.
    """
    cards = tuple(cards)
    joker_as = tuple(joker_as)
    if len(cards) < 3:
        _refuse(MeldFault.TOO_SHORT, cards, joker_as, "a meld has 3 or more cards")
    for identity in joker_as:
        if identity and not is_suited(identity):
            _refuse(
                MeldFault.JOKER_IDENTITY_WRONG,
                cards,
                joker_as,
                "a joker stands for one of the 52 suited cards",
            )
    jokers = iter(joker_as)
    identities = tuple(next(jokers) if is_joker(v) else v for v in cards)
    naturals = [v for v in cards if not is_joker(v)]
    if not naturals:
        _refuse(MeldFault.NO_NATURAL, cards, joker_as, "a meld needs a natural card")
    if len(joker_as) > rules.max_jokers:
        _refuse(
            MeldFault.TOO_MANY_JOKERS,
            cards,
            joker_as,
            f"at most {rules.max_jokers} joker(s) in a meld",
        )
    known = [i for i in identities if i]
    if len({RANK_OF[i] for i in known}) == 1:
        return _analyse_set(cards, joker_as, identities, rules)
    if rules.wrap:
        return _analyse_cyclic(cards, joker_as, identities, rules)
    return _analyse_sequence(cards, joker_as, identities, rules)


def _refuse(
    fault: MeldFault, cards: Sequence[int], joker_as: Sequence[int], reason: str
) -> NoReturn:
    """Raise MeldError: the meld's text, then `reason` (the text is written
    only for a refusal: most melds analysed are valid)."""
    raise MeldError(fault, f"{meld_text(cards, joker_as)}: {reason}")


def _analyse_set(
    cards: tuple[int, ...],
    joker_as: tuple[int, ...],
    identities: tuple[int, ...],
    rules: MeldRules,
) -> Meld:
    rank = RANK_OF[next(i for i in identities if i)]
    if len(cards) > 4:
        _refuse(MeldFault.SET_TOO_LARGE, cards, joker_as, "a set has at most 4 cards")
    suits = [SUIT_OF[i] for i in identities if i]
    if len(set(suits)) != len(suits):
        _refuse(MeldFault.SET_SUITS_REPEAT, cards, joker_as, "a set's suits must all differ")
    undeclared = joker_as.count(0)
    if undeclared and not (rules.undeclared_set_joker and len(cards) == 3 and len(joker_as) == 1):
        _refuse(
            MeldFault.JOKER_UNDECLARED,
            cards,
            joker_as,
            "declare the suit each joker of the set stands for",
        )
    for identity in joker_as:
        if identity and RANK_OF[identity] != rank:
            _refuse(
                MeldFault.JOKER_IDENTITY_WRONG,
                cards,
                joker_as,
                "a joker of the set has the set's rank",
            )
    ordered = set_order(cards, joker_as)
    if list(cards) != ordered[0] or list(joker_as) != ordered[1]:
        _refuse(
            MeldFault.NOT_IN_ORDER,
            cards,
            joker_as,
            f"write a set naturals by suit (C D H S), then jokers: {meld_text(*ordered)}",
        )
    value = rules.set_value(rank) * len(cards)
    value = _jokers_valued(value, cards, rules, lambda k: rules.set_value(rank))
    return Meld(SET, cards, joker_as, identities, 0, rank, value)


def _analyse_sequence(
    cards: tuple[int, ...],
    joker_as: tuple[int, ...],
    identities: tuple[int, ...],
    rules: MeldRules,
) -> Meld:
    if 0 in identities:
        _refuse(
            MeldFault.JOKER_UNDECLARED, cards, joker_as, "a joker in a sequence stands for a card"
        )
    suits = {SUIT_OF[i] for i in identities}
    if len(suits) != 1:
        _refuse(
            MeldFault.SET_RANKS_DIFFER,
            cards,
            joker_as,
            "a meld is one rank in different suits, or one suit in sequence",
        )
    suit = suits.pop()
    last = len(cards) - 1
    if any(RANK_OF[i] == ACE for i in identities[1:last]):
        _refuse(
            MeldFault.ACE_IN_MIDDLE, cards, joker_as, "an ace is only below the 2 or above the king"
        )
    # Anchor on the first natural non-ace (else a joker's): it fixes every position.
    order = sorted(range(len(cards)), key=lambda k: is_joker(cards[k]))
    anchor = next((k for k in order if RANK_OF[identities[k]] != ACE), None)
    if anchor is None:
        _refuse(MeldFault.SEQUENCE_NOT_CONSECUTIVE, cards, joker_as, "not consecutive")
    low = RANK_OF[identities[anchor]] - anchor
    for k, identity in enumerate(identities):
        position = low + k
        wanted = (1 if k == 0 else 14) if RANK_OF[identity] == ACE else RANK_OF[identity]
        if wanted != position:
            fault = MeldFault.SEQUENCE_NOT_CONSECUTIVE
            if is_joker(cards[k]):
                fault = MeldFault.JOKER_IDENTITY_WRONG
            _refuse(fault, cards, joker_as, "not consecutive cards of one suit, low to high")
    if len(cards) > rules.max_sequence_length:
        _refuse(
            MeldFault.SEQUENCE_TOO_LONG,
            cards,
            joker_as,
            f"a sequence has at most {rules.max_sequence_length} cards",
        )
    if low == 1 and len(cards) == 14 and not is_joker(cards[0]) and not is_joker(cards[-1]):
        _refuse(
            MeldFault.TWO_NATURAL_ACES,
            cards,
            joker_as,
            "a sequence holds one natural ace of its suit",
        )
    value = sum(rules.values[low + k] for k in range(len(cards)))
    value = _jokers_valued(value, cards, rules, lambda k: rules.values[low + k])
    return Meld(SEQUENCE, cards, joker_as, identities, suit, low, value)


def _analyse_cyclic(
    cards: tuple[int, ...],
    joker_as: tuple[int, ...],
    identities: tuple[int, ...],
    rules: MeldRules,
) -> Meld:
    """A sequence round the circle of ranks (MeldRules.wrap): one suit, each
    card the rank after the one before it (the ace followed by the 2)."""
    if 0 in identities:
        _refuse(
            MeldFault.JOKER_UNDECLARED, cards, joker_as, "a joker in a sequence stands for a card"
        )
    suits = {SUIT_OF[i] for i in identities}
    if len(suits) != 1:
        _refuse(
            MeldFault.SET_RANKS_DIFFER,
            cards,
            joker_as,
            "a meld is one rank in different suits, or one suit in sequence",
        )
    limit = min(rules.max_sequence_length, 13)  # each rank once round the circle
    if len(cards) > limit:
        _refuse(
            MeldFault.SEQUENCE_TOO_LONG, cards, joker_as, f"a sequence has at most {limit} cards"
        )
    anchor = next(k for k, v in enumerate(cards) if not is_joker(v))
    low = cyclic_rank(RANK_OF[identities[anchor]] - anchor)
    for k, identity in enumerate(identities):
        if RANK_OF[identity] != cyclic_rank(low + k):
            fault = MeldFault.SEQUENCE_NOT_CONSECUTIVE
            if is_joker(cards[k]):
                fault = MeldFault.JOKER_IDENTITY_WRONG
            _refuse(fault, cards, joker_as, "not consecutive cards of one suit, in order")
    value = sum(rules.values[RANK_OF[i]] for i in identities)
    value = _jokers_valued(value, cards, rules, lambda k: rules.values[RANK_OF[identities[k]]])
    return Meld(SEQUENCE, cards, joker_as, identities, suits.pop(), low, value, cyclic=True)


def _jokers_valued(
    value: int, cards: tuple[int, ...], rules: MeldRules, worth: Callable[[int], int]
) -> int:
    """`value`, every place of the meld at the card it stands for (`worth`
    of its index), with each joker at MeldRules.joker_value instead when
    the game sets one («Мост» R-M-03)."""
    if rules.joker_value is None:
        return value
    jokers = [k for k, card in enumerate(cards) if is_joker(card)]
    return value + sum(rules.joker_value - worth(k) for k in jokers)


# -- adding to a meld and swapping its jokers -----------------------------------


def check_lay_off_shape(card: int, end: int, joker_as: int, path: str) -> None:
    """Raise InvalidInput unless a rummy lay-off's fields are well formed:
    a card of the French deck with jokers, an end that is none, LOW or
    HIGH, and an identity only for a joker, a suited card (`path` is the
    lay-off's field path, `move.scala40.lay_off`)."""
    check_card(card, f"{path}.card")
    if end not in (0, LOW, HIGH):
        raise InvalidInput(f"{path}.end", f"unknown end {end}")
    if joker_as and not is_joker(card):
        raise InvalidInput(f"{path}.joker_as", "only a joker declares an identity")
    if not 0 <= joker_as <= LAST_SUITED:
        raise InvalidInput(f"{path}.joker_as", "must be a suited card")


def check_card(value: int, path: str) -> None:
    """Raise InvalidInput unless `value` is a card of the French deck with
    its two jokers (a rummy move's card)."""
    if not 1 <= value <= BLACK_JOKER:
        raise InvalidInput(path, f"needs a card of the French deck; got {value}")


def lay_off_spelling_fault(meld: Meld, value: int, end: int, joker_as: int) -> str | None:
    """Why a lay-off of `value` on `meld` is not spelled the one way it may
    be, or None: a sequence names the end and no identity (the end gives
    it); a set names no end, and a joker laid on it the card it stands for.
    One spelling per lay-off keeps the listed moves canonical (each rummy
    game raises its own rejection with the text)."""
    if meld.kind == SET:
        wrong = end != 0 or (joker_as == 0) == is_joker(value)
        how = "on a set: no end; a joker names the card it stands for"
    else:
        wrong = end == 0 or joker_as != 0
        how = "on a sequence: name the end (a joker stands for the card there)"
    if not wrong:
        return None
    return f"{card_text(value)} on {meld_text(meld.cards, meld.joker_as)}: {how}"


def lay_off_fault(
    meld: Meld, meld_id: int, value: int, end: int, joker_as: int, rules: MeldRules, swap: str
) -> str | None:
    """Why a lay-off is refused for its spelling, or None: a lay-off that
    fits was read in its one spelling already (the games' K-M-1, K-S40-2),
    so one refused here fits nowhere on a sequence, or fits both its ends
    (`sequence_lay_off_fault` says what fits), or is spelled wrong on a set
    (`lay_off_spelling_fault`). `swap` is the game's text for taking a joker,
    a template of `{card}` and `{meld_id}` ("SWAP {card} ON {meld_id}")."""
    fault = lay_off_spelling_fault(meld, value, end, joker_as)
    if fault is None or meld.kind != SEQUENCE:
        return fault
    return sequence_lay_off_fault(meld, meld_id, value, end, joker_as, rules, swap)


def sequence_lay_off_fault(
    meld: Meld, meld_id: int, value: int, end: int, joker_as: int, rules: MeldRules, swap: str
) -> str:
    """What is wrong with a lay-off on a sequence that is not spelled its one
    way and was not read as another spelling of one (the games' K-M-1,
    K-S40-2), and how to write what fits: both ends (name one), the card a
    joker of the meld stands for (`swap`, the game's template for taking that
    joker), the ends' cards, or no end left (a whole suit)."""
    written = card_text(value) + (f"={card_text(joker_as)}" if joker_as else "")
    on = f"{written} on {meld_text(meld.cards, meld.joker_as)}"
    if not end and len(fitting_ends(meld, value, joker_as, rules)) == 2:
        bare = card_text(value)
        return (
            f"{on}: it fits both ends; name one (LAY {bare} ON {meld_id} LOW, "
            f"or LAY {bare} ON {meld_id} HIGH)"
        )
    if not is_joker(value) and any(
        is_joker(card) and identity == value
        for card, identity in zip(meld.cards, meld.identities, strict=True)
    ):
        taking = swap.format(card=card_text(value), meld_id=meld_id)
        return f"{on}: a joker stands for {card_text(value)} there; take it ({taking})"
    open_ends = [
        f"{'LOW' if spot.end == LOW else 'HIGH'} takes {card_text(spot.value)}"
        for spot in spots(meld, rules)
    ]
    if not open_ends:
        return f"{on}: the sequence holds every rank of its suit"
    if end:
        return f"{on}: not at its {'low' if end == LOW else 'high'} end ({', '.join(open_ends)})"
    return f"{on}: it fits no end ({', '.join(open_ends)})"


def extend(meld: Meld, value: int, end: int, joker_as: int, rules: MeldRules) -> Meld:
    """`meld` with `value` laid off on it (§1.8): at `end` (LOW/HIGH) of a
    sequence, or into a set (end 0). A joker laid on a set declares
    `joker_as`; on a sequence its identity follows from the end."""
    if meld.kind == SEQUENCE:
        return _extend_sequence(meld, value, end, rules)
    return _extend_set(meld, value, joker_as, rules)


def _extend_sequence(meld: Meld, value: int, end: int, rules: MeldRules) -> Meld:
    text = card_text(value)
    if meld.cyclic:
        if len(meld.cards) >= min(rules.max_sequence_length, 13):
            raise MeldError(
                MeldFault.DOES_NOT_FIT,
                f"{text}: {meld_text(meld.cards, meld.joker_as)} holds every rank of its suit",
            )
        position = cyclic_rank(meld.low - 1 if end == LOW else meld.high + 1)
    else:
        position = meld.low - 1 if end == LOW else meld.high + 1
    if not 1 <= position <= 14:
        raise MeldError(MeldFault.DOES_NOT_FIT, f"{text}: nothing goes beyond an ace")
    wanted = position_card(position, meld.suit)
    if not is_joker(value) and value != wanted:
        raise MeldError(
            MeldFault.DOES_NOT_FIT,
            f"{text} does not extend {meld_text(meld.cards, meld.joker_as)} at its "
            f"{'low' if end == LOW else 'high'} end (only {card_text(wanted)} does)",
        )
    if is_joker(value):
        cards = (value, *meld.cards) if end == LOW else (*meld.cards, value)
        old = meld.joker_as
        joker_as = (wanted, *old) if end == LOW else (*old, wanted)
    else:
        cards = (value, *meld.cards) if end == LOW else (*meld.cards, value)
        joker_as = meld.joker_as
    return analyse(cards, joker_as, rules)


def _extend_set(meld: Meld, value: int, joker_as: int, rules: MeldRules) -> Meld:
    text = card_text(value)
    if len(meld.cards) >= 4:
        raise MeldError(MeldFault.DOES_NOT_FIT, f"{text}: a set of four takes nothing more")
    missing = meld.missing_suits()
    rank = meld.low
    identities = list(meld.joker_as)
    if is_joker(value):
        if not joker_as or RANK_OF[joker_as] != rank or SUIT_OF[joker_as] not in missing:
            raise MeldError(
                MeldFault.JOKER_IDENTITY_WRONG,
                f"a joker laid on {meld_text(meld.cards, meld.joker_as)} stands for a missing suit "
                f"({', '.join(card_text(card(rank, s)) for s in missing)})",
            )
        identities.append(joker_as)
        missing.remove(SUIT_OF[joker_as])
    else:
        if RANK_OF[value] != rank or SUIT_OF[value] not in missing:
            raise MeldError(
                MeldFault.DOES_NOT_FIT,
                f"{text} is not a missing suit of {meld_text(meld.cards, meld.joker_as)}",
            )
        missing.remove(SUIT_OF[value])
    if 0 in identities:
        # The undeclared joker is now forced: the one suit still missing (V17).
        identities[identities.index(0)] = card(rank, missing[0])
    cards, ordered_as = set_order((*meld.cards, value), identities)
    return analyse(cards, ordered_as, rules)


def swap_targets(meld: Meld) -> dict[int, int]:
    """{natural card: index of the joker it may replace} (§1.9); an
    undeclared set joker may be replaced by either missing suit."""
    out: dict[int, int] = {}
    missing = meld.missing_suits() if meld.kind == SET else []
    for index, value in enumerate(meld.cards):
        if not is_joker(value):
            continue
        identity = meld.identities[index]
        if identity:
            out[identity] = index
        else:
            for suit in missing:
                out[card(meld.low, suit)] = index
    return out


def swap(meld: Meld, natural: int, rules: MeldRules) -> tuple[Meld, int]:
    """Replace the joker `natural` stands for; returns (the meld, the joker)."""
    index = swap_targets(meld).get(natural)
    if index is None:
        raise MeldError(
            MeldFault.NO_SUCH_JOKER,
            f"{card_text(natural)} is the identity of no joker in "
            f"{meld_text(meld.cards, meld.joker_as)}",
        )
    joker = meld.cards[index]
    cards = list(meld.cards)
    cards[index] = natural
    joker_as = [i for k, i in zip(meld.cards, meld.identities, strict=True) if is_joker(k)]
    joker_as.pop(sum(1 for v in meld.cards[:index] if is_joker(v)))
    if meld.kind == SET:
        cards, joker_as = set_order(cards, joker_as)
    return analyse(cards, joker_as, rules), joker


# -- what fits ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Spot:
    """One way to lay off on a meld: `value` at `end` (0 for a set), with the
    identity `joker_as` when `value` is a joker (0 for a natural)."""

    value: int
    end: int
    joker_as: int


def spots(meld: Meld, rules: MeldRules, jokers: Sequence[int] = ()) -> list[Spot]:
    """Every lay-off `meld` accepts (§1.8): the naturals that extend it, and
    for each joker value in `jokers` the identities it could take there."""
    out: list[Spot] = []
    joker_room = meld.jokers < rules.max_jokers
    if meld.kind == SEQUENCE:
        if len(meld.cards) >= rules.max_sequence_length:
            return out
        if meld.cyclic:
            if len(meld.cards) >= 13:
                return out  # every rank of the suit is there
            for end, rank in ((LOW, meld.low - 1), (HIGH, meld.high + 1)):
                wanted = card(cyclic_rank(rank), meld.suit)
                out.append(Spot(wanted, end, 0))
                if joker_room:
                    out.extend(Spot(j, end, wanted) for j in jokers)
            return out
        natural_aces = sum(1 for v in meld.cards if not is_joker(v) and RANK_OF[v] == ACE)
        for end, position in ((LOW, meld.low - 1), (HIGH, meld.high + 1)):
            if not 1 <= position <= 14:
                continue
            wanted = position_card(position, meld.suit)
            if not (RANK_OF[wanted] == ACE and natural_aces):
                out.append(Spot(wanted, end, 0))
            if joker_room:
                out.extend(Spot(j, end, wanted) for j in jokers)
        return out
    if len(meld.cards) >= 4:
        return out
    missing = meld.missing_suits()
    for suit in missing:
        out.append(Spot(card(meld.low, suit), 0, 0))
        if joker_room:
            out.extend(Spot(j, 0, card(meld.low, suit)) for j in jokers)
    return out


# -- another spelling of the same meld or lay-off -------------------------------------


def lay_offs_from(
    meld: Meld, held: set[int], jokers: Sequence[int], rules: MeldRules
) -> list[tuple[int, int, int]]:
    """Every lay-off a card of `held` makes on `meld`, as sorted (value, end,
    joker identity) — a set's joker names the card it becomes, a sequence's
    end says it — before the game's own rules of who may lay off what (both
    rummy games' legal moves)."""
    found = set()
    for spot in spots(meld, rules, jokers):
        if spot.value in held:
            found.add((spot.value, spot.end, spot.joker_as if meld.kind == SET else 0))
    return sorted(found)


def respelled_meld(
    cards: Sequence[int], joker_as: Sequence[int], rules: MeldRules
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The canonical spelling of a meld written in any order, or None when no
    order of these cards makes a meld.

    Each joker keeps the identity it was given (`joker_as` in the order of the
    jokers of `cards`): the meld is the same cards with the same identities,
    only written as `analyse` reads it — a set by `set_order`, a cyclic
    sequence (MeldRules.wrap) round the circle from its one first card (the
    rank whose predecessor it lacks), a whole suit from its 2. A straight
    sequence (no wrap) is left to its caller: where an ace goes is a choice
    this function does not make (None unless written low to high already).
    The answer, when not None, passes `analyse`; it is the input itself when
    the input is canonical already.
    """
    cards, joker_as = tuple(cards), tuple(joker_as)
    if sum(1 for v in cards if is_joker(v)) != len(joker_as):
        return None
    jokers = iter(joker_as)
    pairs = [(v, next(jokers) if is_joker(v) else v) for v in cards]
    known = [i for _, i in pairs if i]
    if not known:
        return None
    if len({RANK_OF[i] for i in known}) == 1:
        out = set_order(cards, joker_as)
        found = (tuple(out[0]), tuple(out[1]))
    elif rules.wrap:
        order = _circle_order([i for _, i in pairs])
        if order is None or not jokers_in_place(cards, [i for _, i in pairs], wrap=True):
            return None
        ordered = [pairs[k] for k in order]
        found = (
            tuple(v for v, _ in ordered),
            tuple(i for v, i in ordered if is_joker(v)),
        )
    else:
        found = (cards, joker_as)
    try:
        analyse(*found, rules)
    except MeldError:
        return None
    return found


def jokers_in_place(cards: Sequence[int], identities: Sequence[int], wrap: bool) -> bool:
    """Whether each joker of a sequence written as `cards` (their cards or
    identities in `identities`, one suit) stands at the place of the card it
    stands for: true without a joker; else the identities, as written, must
    run low to high or high to low (an ace first before a 2, or last; round
    the circle under `wrap`). Where a joker is, is what it is (R-S40-28, R-M-12:
    "in a run the identity must agree with the position"), so another order
    of the naturals may be read as the meld but a joker's may not."""
    if not any(is_joker(v) for v in cards):
        return True
    ranks = [RANK_OF[i] for i in identities]

    def runs(rs: list[int]) -> bool:
        if wrap:
            return all(cyclic_rank(a + 1) == b for a, b in zip(rs, rs[1:], strict=False))
        low = [1 if r == ACE and k == 0 and rs[1:2] == [2] else r for k, r in enumerate(rs)]
        return all(b == a + 1 for a, b in zip(low, low[1:], strict=False))

    return runs(ranks) or runs(ranks[::-1])


def _circle_order(identities: Sequence[int]) -> list[int] | None:
    """The indices of `identities` (cards of one suit, each rank once) in the
    order of the circle of ranks from its first card — the one rank whose
    predecessor is missing; a whole suit from its 2 — or None when they
    are no arc of the circle."""
    if 0 in identities or len({SUIT_OF[i] for i in identities}) != 1:
        return None
    ranks = [RANK_OF[i] for i in identities]
    present = set(ranks)
    if len(present) != len(ranks):
        return None
    if len(ranks) == 13:
        start = 2
    else:
        starts = [r for r in present if cyclic_rank(r - 1) not in present]
        if len(starts) != 1:
            return None
        start = starts[0]
    order = sorted(range(len(ranks)), key=lambda k: (ranks[k] - start) % 13)
    if any((ranks[k] - start) % 13 != place for place, k in enumerate(order)):
        return None
    return order


def fitting_ends(meld: Meld, value: int, identity: int, rules: MeldRules) -> list[int]:
    """The ends (LOW, HIGH) of sequence `meld` that `value` may be laid off at:
    a natural where it is the end's card; a joker where `identity` is (at
    either end when `identity` is 0). Empty for a set or a full sequence."""
    if meld.kind != SEQUENCE:
        return []
    joker = is_joker(value)
    return [
        spot.end
        for spot in spots(meld, rules, [value] if joker else [])
        if spot.value == value and (not joker or not identity or spot.joker_as == identity)
    ]


def respelled_lay_off(
    meld: Meld, value: int, end: int, joker_as: int, rules: MeldRules
) -> tuple[int, int] | None:
    """The (end, joker_as) of the one spelling (`lay_off_spelling_fault`) of a
    lay-off on a sequence written another way, or None: already canonical,
    no respelling of a lay-off that fits, or two readings. A natural with
    no end goes to the one end whose card it is; a joker with the identity
    of one end's card, with that end or none, to that end (no identity: the
    end gives it). None when the card fits both ends (a cyclic sequence one
    card short of its whole suit): which end is the player's choice."""
    if meld.kind != SEQUENCE:
        return None
    if is_joker(value):
        if not joker_as:
            return None
        ends = fitting_ends(meld, value, joker_as, rules)
        if end:
            ends = [e for e in ends if e == end]
    else:
        if end or joker_as:
            return None
        ends = fitting_ends(meld, value, 0, rules)
    if len(ends) != 1:
        return None
    return ends[0], 0


# -- other spellings a game's candidate moves try ---------------------------------------


def backwards(items: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A meld's (card, identity) pairs written last to first."""
    return items[::-1]


def turned(items: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A meld's (card, identity) pairs written from its second card round."""
    return items[1:] + items[:1]


def written_in(
    order: Callable[[list[tuple[int, int]]], list[tuple[int, int]]],
    cards: Sequence[int],
    joker_as: Sequence[int],
) -> tuple[list[int], list[int]]:
    """A meld's cards in another `order` (`backwards`, `turned`), each joker
    keeping its identity: another spelling of the same meld, for the
    candidate moves the conformance suite holds to their canonical form."""
    jokers = iter(joker_as)
    pairs = order([(v, next(jokers) if is_joker(v) else 0) for v in cards])
    return [v for v, _ in pairs], [i for v, i in pairs if is_joker(v)]


def lay_off_candidates(
    meld: Meld, hand: Sequence[int], rules: MeldRules
) -> tuple[list[int], list[tuple[int, int, int]]]:
    """The cards of `hand` near `meld` (its suit's for a sequence, its rank's
    for a set, and the jokers), and the lay-offs worth probing with them as
    (value, end, joker identity): a natural at each end (LOW, HIGH) and at
    none; a joker with each identity an end would give it, at each end and at
    none; on a set, a natural with no end and at LOW, a joker as each suit of
    the set's rank. Legal or not: the candidate moves the conformance suite
    holds to check ⇔ generate, in both rummy games' other spellings too."""
    out: list[tuple[int, int, int]] = []
    if meld.kind == SEQUENCE:
        near = [v for v in hand if is_joker(v) or SUIT_OF[v] == meld.suit]
        ends = [spot.value for spot in spots(meld, rules)]
        for value in near:
            out += [(value, LOW, 0), (value, HIGH, 0)]
            if not is_joker(value):
                out.append((value, 0, 0))  # no end: where it fits one end only
                continue
            out += [(value, side, identity) for identity in ends for side in (0, LOW, HIGH)]
    else:
        near = [v for v in hand if is_joker(v) or RANK_OF[v] == meld.low]
        for value in near:
            if is_joker(value):
                out += [(value, 0, card(meld.low, suit)) for suit in SUITS]
            else:
                out += [(value, 0, 0), (value, LOW, 0)]
    return near, out
