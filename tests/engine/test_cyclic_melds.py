"""engine/melds.py with `MeldRules.wrap`: sequences round the circle of ranks
2-3-…-K-A-2 («Мост», rummy_and_counting.md R-M-10), each fault by name.

The positional sequences of Scala 40 are tests/engine/test_melds.py; these
rules differ only in the sequences (sets, jokers and swaps are shared)."""

from __future__ import annotations

import pytest

from croupier.engine.cards import parse_card
from croupier.engine.melds import (
    HIGH,
    LOW,
    SEQUENCE,
    SET,
    UNLIMITED,
    MeldError,
    MeldFault,
    MeldRules,
    Spot,
    analyse,
    cyclic_rank,
    extend,
    spots,
    swap,
)


def meld(text: str) -> tuple[list[int], list[int]]:
    """ "KD RJ=AD 2D" as (cards, joker_as)."""
    cards, joker_as = [], []
    for word in text.split():
        name, _, identity = word.partition("=")
        cards.append(parse_card(name))
        if name in ("RJ", "BJ"):
            joker_as.append(parse_card(identity) if identity else 0)
    return cards, joker_as


# «Мост»'s values by rank: 2-9 are 5, 10-K 10, the ace 15 (R-M-03).
VALUES = (0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 15)
WRAP = MeldRules(max_jokers=UNLIMITED, max_sequence_length=13, values=VALUES, wrap=True)
HEARTS = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]


def fault(text: str) -> MeldFault:
    with pytest.raises(MeldError) as error:
        analyse(*meld(text), WRAP)
    return error.value.fault


def test_cyclic_rank_goes_round_after_the_ace() -> None:
    assert [cyclic_rank(r) for r in (1, 2, 14, 15, 16, 28)] == [14, 2, 14, 2, 3, 2]


@pytest.mark.parametrize(
    ("text", "low", "high", "value"),
    [
        ("KS AS 2S", 13, 2, 30),  # R-M-10: the corner is turned
        ("QH KH AH 2H 3H", 12, 3, 45),  # T-M-02
        ("AD 2D 3D", 14, 3, 25),
        ("QC KC AC", 12, 14, 35),  # an ace is 15 at either end
        ("KD RJ=AD 2D", 13, 2, 30),  # T-M-18: a joker's identity counts in the meld's value
        ("RJ=KH AH BJ=2H", 13, 2, 30),
    ],
)
def test_sequences_round_the_corner_are_valid(text, low, high, value) -> None:
    m = analyse(*meld(text), WRAP)
    assert (m.kind, m.cyclic, m.low, m.high, m.value) == (SEQUENCE, True, low, high, value)


def test_a_sequence_of_all_thirteen_ranks_may_start_anywhere() -> None:
    # T-M-20's [5♥ … 4♥]: every rotation of the whole suit is one sequence.
    rotated = " ".join(HEARTS[3:] + HEARTS[:3])
    m = analyse(*meld(rotated), WRAP)
    assert (m.low, m.high, len(m.cards)) == (5, 4, 13)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("KS 2S AS", MeldFault.SEQUENCE_NOT_CONSECUTIVE),
        ("2S AS KS", MeldFault.SEQUENCE_NOT_CONSECUTIVE),  # written backwards
        ("KS AS RJ=3S", MeldFault.JOKER_IDENTITY_WRONG),
        ("KS AS 2H", MeldFault.SET_RANKS_DIFFER),
        ("KS AS RJ", MeldFault.JOKER_UNDECLARED),
        (" ".join(HEARTS) + " RJ=2H", MeldFault.SEQUENCE_TOO_LONG),  # a rank twice
        ("JS JC", MeldFault.TOO_SHORT),  # T-M-03
    ],
)
def test_faults_of_cyclic_sequences(text, expected) -> None:
    assert fault(text) == expected


def test_sets_are_unchanged_by_wrap() -> None:
    m = analyse(*meld("JC JD JS"), WRAP)
    assert (m.kind, m.value) == (SET, 30)
    m = analyse(*meld("5S RJ=5D BJ=5H"), WRAP)  # T-M-17
    assert (m.kind, m.value) == (SET, 15)


def test_a_cyclic_sequence_grows_at_either_end_round_the_corner() -> None:
    # T-M-09: [K♥ A♥ 2♥ 3♥] takes the 4♥ at its high end and the Q♥ at its low end.
    m = analyse(*meld("KH AH 2H 3H"), WRAP)
    higher = extend(m, parse_card("4H"), HIGH, 0, WRAP)
    assert (higher.low, higher.high, higher.value) == (13, 4, 40)
    lower = extend(m, parse_card("QH"), LOW, 0, WRAP)
    assert (lower.low, lower.high) == (12, 3)
    joker = extend(m, parse_card("RJ"), HIGH, 0, WRAP)
    assert joker.joker_as == (parse_card("4H"),)
    with pytest.raises(MeldError) as error:
        extend(m, parse_card("4H"), LOW, 0, WRAP)
    assert error.value.fault == MeldFault.DOES_NOT_FIT


def test_the_whole_suit_takes_nothing_more() -> None:
    # T-M-20: a thirteenth card completes the circle; any lay-off would repeat a card.
    m = analyse(*meld(" ".join(HEARTS[3:] + HEARTS[:3])), WRAP)
    assert spots(m, WRAP, (parse_card("RJ"),)) == []
    with pytest.raises(MeldError) as error:
        extend(m, parse_card("RJ"), HIGH, 0, WRAP)
    assert error.value.fault == MeldFault.DOES_NOT_FIT


def test_spots_of_a_cyclic_sequence() -> None:
    m = analyse(*meld("KH AH 2H"), WRAP)
    red = parse_card("RJ")
    assert spots(m, WRAP, (red,)) == [
        Spot(parse_card("QH"), LOW, 0),
        Spot(red, LOW, parse_card("QH")),
        Spot(parse_card("3H"), HIGH, 0),
        Spot(red, HIGH, parse_card("3H")),
    ]
    # Twelve cards: both ends wait for the one rank still missing.
    twelve = analyse(*meld(" ".join(HEARTS[:12])), WRAP)
    assert [s.value for s in spots(twelve, WRAP)] == [parse_card("AH"), parse_card("AH")]


def test_a_joker_of_a_cyclic_sequence_is_swapped_for_its_card() -> None:
    # T-M-11's exchange on a sequence round the corner.
    m = analyse(*meld("KC RJ=AC 2C"), WRAP)
    after, joker = swap(m, parse_card("AC"), WRAP)
    assert joker == parse_card("RJ")
    assert (after.cards, after.cyclic, after.value) == (
        tuple(parse_card(t) for t in ("KC", "AC", "2C")),
        True,
        30,
    )


@pytest.mark.parametrize("rules", [MeldRules(), WRAP], ids=["positional", "cyclic"])
@pytest.mark.parametrize("identity", [53, 54, 99])
def test_a_joker_standing_for_no_suited_card_is_a_fault_not_a_crash(rules, identity) -> None:
    # Found by the fuzzer through a Scala 40 state: an identity outside the 52 suited
    # cards raised IndexError from the card tables instead of a MeldError.
    with pytest.raises(MeldError) as error:
        analyse([parse_card("5H"), parse_card("6H"), parse_card("RJ")], [identity], rules)
    assert error.value.fault == MeldFault.JOKER_IDENTITY_WRONG
