"""engine/melds.py: another spelling of the same meld or lay-off (the rummy
games' `canonical_move`, K-M-1 and K-S40-2): `respelled_meld` writes a meld
given in any order as `analyse` reads it, each joker keeping its identity;
`fitting_ends` and `respelled_lay_off` give a lay-off on a sequence its one
spelling. Never a guess between two different melds or lay-offs: None."""

from __future__ import annotations

import pytest

from croupier.engine.cards import is_joker, parse_card
from croupier.engine.errors import InvalidInput
from croupier.engine.melds import (
    HIGH,
    LOW,
    UNLIMITED,
    MeldRules,
    analyse,
    backwards,
    check_lay_off_shape,
    fitting_ends,
    jokers_in_place,
    lay_off_candidates,
    lay_off_fault,
    lay_offs_from,
    respelled_lay_off,
    respelled_meld,
    sequence_lay_off_fault,
    turned,
    written_in,
)

STRAIGHT = MeldRules()
# «Мост»'s sequences turn the corner (K-A-2), with any number of jokers.
WRAP = MeldRules(max_jokers=UNLIMITED, max_sequence_length=13, wrap=True)


def spec(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """ "8C RJ=9C 10C" as (cards, joker_as)."""
    cards, joker_as = [], []
    for word in text.split():
        name, _, identity = word.partition("=")
        cards.append(parse_card(name))
        if name in ("RJ", "BJ"):
            joker_as.append(parse_card(identity) if identity else 0)
    return tuple(cards), tuple(joker_as)


@pytest.mark.parametrize(
    ("written", "canonical", "rules"),
    [
        ("JS JC JD", "JC JD JS", STRAIGHT),  # T-M-03 as the spec writes it
        ("JS JC RJ=JD", "JC JS RJ=JD", STRAIGHT),  # T-M-14
        ("5S RJ=5H BJ=5D", "5S BJ=5D RJ=5H", WRAP),  # T-M-17: each joker keeps its card
        ("9H 8H 7H", "7H 8H 9H", WRAP),  # backwards
        ("2H AH KH", "KH AH 2H", WRAP),  # round the corner, from its first card
        ("RJ=3H 2H AH", "AH 2H RJ=3H", WRAP),  # backwards, the joker in its place
        (
            "KH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH AH",
            "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
            WRAP,
        ),
    ],
)
def test_a_meld_in_another_order_is_written_as_analyse_reads_it(written, canonical, rules):
    found = respelled_meld(*spec(written), rules)
    assert found == spec(canonical)
    analyse(*found, rules)  # the answer is a meld


def test_a_canonical_meld_is_answered_as_it_is():
    assert respelled_meld(*spec("7H 8H 9H"), STRAIGHT) == spec("7H 8H 9H")
    assert respelled_meld(*spec("JC JD JS"), STRAIGHT) == spec("JC JD JS")


@pytest.mark.parametrize(
    ("written", "rules"),
    [
        ("9H 8H 7H", STRAIGHT),  # a straight sequence is its caller's to order (the ace)
        ("7H 9H 10H", WRAP),  # no arc of the circle
        ("7H 7H 8H", WRAP),  # a rank twice
        ("7H 8S 9H", WRAP),  # two suits
        ("RJ BJ", WRAP),  # no natural, no identity
        ("RJ=7H 8H", WRAP),  # too short
        ("7H 8H RJ", WRAP),  # a joker without its identity: no order to find
        ("AH RJ=3H 2H", WRAP),  # a joker out of its place (R-M-12)
        ("RJ=9H 7H 8H", WRAP),  # likewise: written first, it is the 6H
        ("7C 7D 7C", STRAIGHT),  # a set with a suit twice
    ],
)
def test_no_order_of_these_cards_is_a_meld(written, rules):
    assert respelled_meld(*spec(written), rules) is None


def test_more_identities_than_jokers_is_no_meld():
    cards, _ = spec("7H 8H 9H")
    assert respelled_meld(cards, (parse_card("6H"),), WRAP) is None


def _meld(text: str, rules: MeldRules = STRAIGHT):
    return analyse(*spec(text), rules)


def test_the_ends_a_card_fits():
    run = _meld("5H 6H 7H")
    assert fitting_ends(run, parse_card("4H"), 0, STRAIGHT) == [LOW]
    assert fitting_ends(run, parse_card("8H"), 0, STRAIGHT) == [HIGH]
    assert fitting_ends(run, parse_card("9H"), 0, STRAIGHT) == []
    joker = parse_card("RJ")
    assert sorted(fitting_ends(run, joker, 0, STRAIGHT)) == sorted([LOW, HIGH])
    assert fitting_ends(run, joker, parse_card("8H"), STRAIGHT) == [HIGH]
    assert fitting_ends(_meld("5D 5H 5S"), parse_card("5C"), 0, STRAIGHT) == []  # a set


def test_a_lay_off_on_a_sequence_gets_its_one_spelling():
    run = _meld("5H 6H 7H")
    joker = parse_card("RJ")
    # A natural with no end goes to the one end whose card it is.
    assert respelled_lay_off(run, parse_card("8H"), 0, 0, STRAIGHT) == (HIGH, 0)
    # A joker declaring one end's card, with that end or none: that end, no identity.
    assert respelled_lay_off(run, joker, 0, parse_card("4H"), STRAIGHT) == (LOW, 0)
    assert respelled_lay_off(run, joker, LOW, parse_card("4H"), STRAIGHT) == (LOW, 0)
    # Already canonical, a wrong end, a card that fits nowhere, a set: nothing to respell.
    assert respelled_lay_off(run, parse_card("8H"), HIGH, 0, STRAIGHT) is None
    assert respelled_lay_off(run, joker, HIGH, parse_card("4H"), STRAIGHT) is None
    assert respelled_lay_off(run, joker, LOW, 0, STRAIGHT) is None
    assert respelled_lay_off(run, parse_card("9H"), 0, 0, STRAIGHT) is None
    assert respelled_lay_off(_meld("5D 5H 5S"), parse_card("5C"), 0, 0, STRAIGHT) is None


def test_a_card_that_fits_both_ends_is_not_guessed():
    # Twelve hearts round the corner, the ace missing: it fits both ends.
    hearts = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    run = _meld(hearts, WRAP)
    assert sorted(fitting_ends(run, parse_card("AH"), 0, WRAP)) == sorted([LOW, HIGH])
    assert respelled_lay_off(run, parse_card("AH"), 0, 0, WRAP) is None


def test_the_other_spellings_candidates_try_keep_each_joker_with_its_card():
    cards, joker_as = spec("5S RJ=5H BJ=5D")
    assert written_in(backwards, cards, joker_as) == tuple(map(list, spec("BJ=5D RJ=5H 5S")))
    assert written_in(turned, cards, joker_as) == tuple(map(list, spec("RJ=5H BJ=5D 5S")))
    # Both read back as the one meld they are.
    for order in (backwards, turned):
        assert respelled_meld(*written_in(order, cards, joker_as), WRAP) == spec("5S BJ=5D RJ=5H")


def test_the_lay_off_candidates_of_a_sequence_and_a_set():
    """Both rummy games' candidate moves (check ⇔ generate) probe these."""
    c = parse_card
    joker = c("RJ")
    near, lay_offs = lay_off_candidates(_meld("5H 6H 7H"), [c("4H"), c("9C"), joker], STRAIGHT)
    assert near == [c("4H"), joker]
    assert lay_offs[:3] == [(c("4H"), LOW, 0), (c("4H"), HIGH, 0), (c("4H"), 0, 0)]
    # The joker at each end with no identity, then as each end's card anywhere.
    assert lay_offs[3:5] == [(joker, LOW, 0), (joker, HIGH, 0)]
    assert {(end, identity) for _, end, identity in lay_offs[5:]} == {
        (end, identity) for identity in (c("4H"), c("8H")) for end in (0, LOW, HIGH)
    }
    near, lay_offs = lay_off_candidates(_meld("9D 9H 9S"), [c("9C"), c("KC"), joker], STRAIGHT)
    assert near == [c("9C"), joker]
    assert lay_offs[:2] == [(c("9C"), 0, 0), (c("9C"), LOW, 0)]
    # The joker as each suit of the set's rank, with no end.
    assert sorted(lay_offs[2:]) == sorted((joker, 0, c("9" + suit)) for suit in "CDHS")


def test_the_lay_offs_a_hand_makes_on_a_meld():
    c = parse_card
    joker = c("RJ")
    run = _meld("5H 6H 7H")
    held = {c("4H"), c("8H"), c("9C"), joker}
    assert lay_offs_from(run, held, [joker], STRAIGHT) == sorted(
        [(c("4H"), LOW, 0), (c("8H"), HIGH, 0), (joker, LOW, 0), (joker, HIGH, 0)]
    )
    three = _meld("9D 9H 9S")
    # A set's joker names the card it becomes: the one suit missing.
    assert lay_offs_from(three, {c("9C"), joker}, [joker], STRAIGHT) == sorted(
        [(c("9C"), 0, 0), (joker, 0, c("9C"))]
    )


def test_a_refused_lay_off_on_a_sequence_says_what_fits():
    c = parse_card

    def fault(meld, value, end=0, joker_as=0, rules=STRAIGHT):
        return sequence_lay_off_fault(meld, 2, c(value), end, joker_as, rules, "SWAP")

    run = _meld("5H 6H 7H")
    assert fault(run, "9H") == "9H on [5H 6H 7H]: it fits no end (LOW takes 4H, HIGH takes 8H)"
    assert fault(run, "8H", LOW) == (
        "8H on [5H 6H 7H]: not at its low end (LOW takes 4H, HIGH takes 8H)"
    )
    assert fault(run, "RJ", 0, c("9H")) == (
        "RJ=9H on [5H 6H 7H]: it fits no end (LOW takes 4H, HIGH takes 8H)"
    )
    jokered = analyse([c("RJ"), c("6H"), c("7H")], [c("5H")], STRAIGHT)
    assert (
        fault(jokered, "5H") == "5H on [RJ=5H 6H 7H]: a joker stands for 5H there; take it (SWAP)"
    )
    twelve = _meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", WRAP)
    assert fault(twelve, "AH", rules=WRAP) == (
        "AH on [2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH]: it fits both ends; name one "
        "(LAY AH ON 2 LOW, or LAY AH ON 2 HIGH)"
    )
    whole = _meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", WRAP)
    assert fault(whole, "RJ", 0, c("5H"), WRAP).endswith(
        "the sequence holds every rank of its suit"
    )


@pytest.mark.parametrize(
    ("card", "end", "joker_as", "field", "problem"),
    [(0, 0, 0, "lay.card", "needs a card of the French deck; got 0"),
     (55, 0, 0, "lay.card", "needs a card of the French deck; got 55"),
     (5, 3, 0, "lay.end", "unknown end 3"),
     (5, 0, 7, "lay.joker_as", "only a joker declares an identity"),
     (53, 0, 53, "lay.joker_as", "must be a suited card")],
)  # fmt: skip
def test_a_malformed_lay_off_is_refused_naming_its_field(card, end, joker_as, field, problem):
    with pytest.raises(InvalidInput) as refused:
        check_lay_off_shape(card, end, joker_as, "lay")
    assert refused.value.violations == [(field, problem)]
    check_lay_off_shape(card if 1 <= card <= 54 else 5, 0, 0, "lay")  # the well-formed one passes


def test_a_lay_off_fault_is_the_spelling_fault_on_a_set_and_says_what_fits_on_a_sequence():
    c = parse_card
    trio = _meld("7C 7D 7S")
    assert lay_off_fault(trio, 3, c("7H"), 0, 0, STRAIGHT, "X") is None
    assert lay_off_fault(trio, 3, c("7H"), HIGH, 0, STRAIGHT, "X") == (
        "7H on [7C 7D 7S]: on a set: no end; a joker names the card it stands for"
    )
    run = analyse([c("RJ"), c("6H"), c("7H")], [c("5H")], STRAIGHT)
    assert lay_off_fault(run, 2, c("8H"), HIGH, 0, STRAIGHT, "X") is None
    assert lay_off_fault(run, 2, c("5H"), 0, 0, STRAIGHT, "SWAP {card} ON {meld_id}") == (
        "5H on [RJ=5H 6H 7H]: a joker stands for 5H there; take it (SWAP 5H ON 2)"
    )


@pytest.mark.parametrize(
    ("written", "wrap", "in_place"),
    [
        ("7H 8H 9H", False, True),  # no joker: any order is read
        ("9H 8H 7H", False, True),
        ("RJ=6H 7H 8H", False, True),
        ("8H 7H RJ=6H", False, True),  # high to low
        ("RJ=9H 7H 8H", False, False),  # first, so the 6H
        ("7H RJ=6H 8H", False, False),
        ("RJ=AH 2H 3H", False, True),  # the ace low, first
        ("QH KH RJ=AH", False, True),  # the ace high, last
        ("RJ=AH 3H 2H", False, False),
        ("KH RJ=AH 2H", True, True),  # round the corner
        ("KH RJ=AH 2H", False, False),  # no corner in a straight sequence
    ],
)
def test_jokers_in_place_read_the_written_order(written, wrap, in_place):
    cards, joker_as = spec(written)
    jokers = iter(joker_as)
    identities = [next(jokers) if is_joker(v) else v for v in cards]
    assert jokers_in_place(cards, identities, wrap) is in_place
