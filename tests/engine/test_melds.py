"""engine/melds.py: sets and sequences with jokers and aces (rummy_and_counting.md
§1.6, the game-independent part every rummy shares), each fault by name."""

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
    analyse,
    extend,
    lay_off_spelling_fault,
    meld_text,
    set_order,
    spots,
    swap,
    swap_targets,
)

RULES = MeldRules()


def meld(text: str) -> tuple[list[int], list[int]]:
    """ "8C 9C RJ=10C" as (cards, joker_as)."""
    cards, joker_as = [], []
    for word in text.split():
        name, _, identity = word.partition("=")
        value = parse_card(name)
        cards.append(value)
        if name in ("RJ", "BJ"):
            joker_as.append(parse_card(identity) if identity else 0)
    return cards, joker_as


def fault(text: str, rules: MeldRules = RULES) -> MeldFault:
    with pytest.raises(MeldError) as error:
        analyse(*meld(text), rules)
    return error.value.fault


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("QH KH AH", SEQUENCE, 31),
        ("AC 2C 3C", SEQUENCE, 6),
        ("AD AH AS", SET, 33),
        ("8C 9C RJ=10C", SEQUENCE, 27),
        ("RJ=AH 2H 3H", SEQUENCE, 6),
        ("QH KH RJ=AH", SEQUENCE, 31),
        ("7C 7S RJ=7H", SET, 21),
        ("5D 5H 5S", SET, 15),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH RJ=AH", SEQUENCE, 95),
        ("RJ=AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", SEQUENCE, 96),
    ],
)
def test_valid_melds_and_their_values(text, kind, value):
    m = analyse(*meld(text), RULES)
    assert (m.kind, m.value) == (kind, value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9C 9D", MeldFault.TOO_SHORT),
        ("RJ=2C BJ=3C RJ=4C", MeldFault.NO_NATURAL),
        ("7C RJ=7D BJ=7H", MeldFault.TOO_MANY_JOKERS),
        ("9C 9D 9H 8H 7H", MeldFault.SET_RANKS_DIFFER),
        ("9H 9C 9C", MeldFault.SET_SUITS_REPEAT),
        ("7C 7S RJ=7C", MeldFault.SET_SUITS_REPEAT),
        ("7C 7S RJ", MeldFault.JOKER_UNDECLARED),
        ("7C 7S RJ=8H", MeldFault.SET_RANKS_DIFFER),
        ("7S 7C RJ=7H", MeldFault.NOT_IN_ORDER),
        ("KS AS 2S", MeldFault.ACE_IN_MIDDLE),
        ("RJ=KH AH 2H", MeldFault.ACE_IN_MIDDLE),
        ("5C 7C 8C", MeldFault.SEQUENCE_NOT_CONSECUTIVE),
        ("8C 7C 6C", MeldFault.SEQUENCE_NOT_CONSECUTIVE),
        ("RJ=9H 7H 8H", MeldFault.JOKER_IDENTITY_WRONG),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", MeldFault.TWO_NATURAL_ACES),
    ],
)
def test_each_fault_is_named(text, expected):
    assert fault(text) == expected


def test_length_and_joker_limits_are_the_rules():
    assert fault("2H 3H 4H 5H 6H 7H", MeldRules(max_sequence_length=5)) == (
        MeldFault.SEQUENCE_TOO_LONG
    )
    assert analyse(*meld("7C RJ=7D BJ=7H"), MeldRules(max_jokers=UNLIMITED)).value == 21
    undeclared = MeldRules(undeclared_set_joker=True)
    assert analyse(*meld("7C 7S RJ"), undeclared).missing_suits() == [2, 3]
    assert fault("7C 7D 7S RJ", undeclared) == MeldFault.JOKER_UNDECLARED


def test_set_order_puts_naturals_by_suit_then_jokers():
    cards, joker_as = set_order(*meld("7S BJ=7H 7C"))
    assert meld_text(cards, joker_as) == "[7C 7S BJ=7H]"


def test_extend_at_either_end_and_into_a_set():
    seq = analyse(*meld("RJ=6H 7H 8H"), RULES)
    assert meld_text(*_pair(extend(seq, parse_card("5H"), LOW, 0, RULES))) == "[5H RJ=6H 7H 8H]"
    assert meld_text(*_pair(extend(seq, parse_card("9H"), HIGH, 0, RULES))) == "[RJ=6H 7H 8H 9H]"
    for card, end in (("10H", HIGH), ("6H", LOW), ("6H", HIGH), ("5C", LOW)):
        with pytest.raises(MeldError) as error:
            extend(seq, parse_card(card), end, 0, RULES)
        assert error.value.fault == MeldFault.DOES_NOT_FIT
    with pytest.raises(MeldError) as error:
        extend(seq, parse_card("BJ"), HIGH, 0, RULES)
    assert error.value.fault == MeldFault.TOO_MANY_JOKERS
    full = analyse(*meld("QH KH AH"), RULES)
    with pytest.raises(MeldError):
        extend(full, parse_card("2H"), HIGH, 0, RULES)  # nothing beyond an ace
    trio = analyse(*meld("7C 7S RJ=7H"), RULES)
    four = extend(trio, parse_card("7D"), 0, 0, RULES)
    assert meld_text(four.cards, four.joker_as) == "[7C 7D 7S RJ=7H]"
    with pytest.raises(MeldError):
        extend(four, parse_card("7D"), 0, 0, RULES)


def test_a_lay_off_has_one_spelling():
    seq = analyse(*meld("RJ=6H 7H 8H"), RULES)
    trio = analyse(*meld("7C 7S RJ=7H"), RULES)
    assert lay_off_spelling_fault(seq, parse_card("9H"), HIGH, 0) is None
    assert lay_off_spelling_fault(seq, parse_card("RJ"), LOW, 0) is None
    assert lay_off_spelling_fault(trio, parse_card("7D"), 0, 0) is None
    assert lay_off_spelling_fault(trio, parse_card("BJ"), 0, parse_card("7D")) is None
    on_sequence = "on a sequence: name the end (a joker stands for the card there)"
    assert (
        lay_off_spelling_fault(seq, parse_card("9H"), 0, 0) == f"9H on [RJ=6H 7H 8H]: {on_sequence}"
    )
    assert lay_off_spelling_fault(seq, parse_card("RJ"), HIGH, parse_card("9H")) == (
        f"RJ on [RJ=6H 7H 8H]: {on_sequence}"
    )
    on_set = "on a set: no end; a joker names the card it stands for"
    assert (
        lay_off_spelling_fault(trio, parse_card("7D"), HIGH, 0) == f"7D on [7C 7S RJ=7H]: {on_set}"
    )
    assert lay_off_spelling_fault(trio, parse_card("BJ"), 0, 0) == f"BJ on [7C 7S RJ=7H]: {on_set}"
    assert lay_off_spelling_fault(trio, parse_card("7D"), 0, parse_card("7D")) == (
        f"7D on [7C 7S RJ=7H]: {on_set}"
    )


def test_an_undeclared_set_joker_is_fixed_by_the_fourth_card():
    rules = MeldRules(undeclared_set_joker=True)
    trio = analyse(*meld("7C 7S RJ"), rules)
    assert sorted(swap_targets(trio)) == [parse_card("7D"), parse_card("7H")]
    four = extend(trio, parse_card("7D"), 0, 0, rules)
    assert meld_text(four.cards, four.joker_as) == "[7C 7D 7S RJ=7H]"
    assert list(swap_targets(four)) == [parse_card("7H")]


def test_swap_gives_the_joker_back_and_keeps_one_natural_ace():
    seq = analyse(*meld("5S RJ=6S 7S"), RULES)
    after, joker = swap(seq, parse_card("6S"), RULES)
    assert (meld_text(after.cards, after.joker_as), joker) == ("[5S 6S 7S]", parse_card("RJ"))
    with pytest.raises(MeldError) as error:
        swap(seq, parse_card("5S"), RULES)
    assert error.value.fault == MeldFault.NO_SUCH_JOKER
    whole = analyse(*meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH RJ=AH"), RULES)
    with pytest.raises(MeldError) as error:
        swap(whole, parse_card("AH"), RULES)
    assert error.value.fault == MeldFault.TWO_NATURAL_ACES


def test_spots_list_every_lay_off():
    seq = analyse(*meld("RJ=6H 7H 8H"), RULES)
    assert {(s.value, s.end) for s in spots(seq, RULES, [parse_card("BJ")])} == {
        (parse_card("5H"), LOW),
        (parse_card("9H"), HIGH),
    }
    plain = analyse(*meld("2H 3H 4H"), RULES)
    found = {(s.value, s.end, s.joker_as) for s in spots(plain, RULES, [parse_card("BJ")])}
    assert (parse_card("BJ"), LOW, parse_card("AH")) in found
    assert (parse_card("AH"), LOW, 0) in found
    hearts = analyse(*meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"), RULES)
    # A whole suit takes only a joker as its second ace (R-S40-24, R-S40-25).
    assert [(s.value, s.end) for s in spots(hearts, RULES, [parse_card("BJ")])] == [
        (parse_card("BJ"), HIGH)
    ]


def _pair(m):
    return m.cards, m.joker_as
