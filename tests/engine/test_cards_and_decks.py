"""Cards of every deck (issue 6, item 5) and bounded conservation errors
(issue 7, item 4): the French packs of our games, the UNO deck of
shedding.md §2.1, their texts, and what the conservation check says."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import overload

import pytest

from croupier.engine import cards, uno_cards
from croupier.engine.cards import FRENCH, CardFamily
from croupier.engine.conservation import MAX_VIOLATIONS, check_conservation, holds_exactly
from croupier.engine.errors import InvalidInput
from croupier.engine.uno_cards import UNO, Kind
from croupier.v1 import cards_pb2

DECKS: dict[str, tuple[CardFamily, Callable[[], list[int]]]] = {
    "52": (FRENCH, cards.pack_52),
    "36": (FRENCH, cards.pack_36),
    "32": (FRENCH, cards.pack_32),
    "54": (FRENCH, cards.pack_54),
    "double 108": (FRENCH, cards.double_pack_108),
    "uno 108": (UNO, uno_cards.uno_deck),
    "uno 112": (UNO, lambda: uno_cards.uno_deck(blank_cards=True)),
}


def uno(text: str) -> int:
    return uno_cards.parse_uno_card(text)


def french(text: str) -> int:
    return cards.parse_card(text)


def without(deck: list[int], *values: int) -> list[int]:
    """`deck` with one copy of each of `values` taken out."""
    rest = list(deck)
    for value in values:
        rest.remove(value)
    return rest


def violations(
    zones: list[tuple[str, Sequence[int]]],
    deck: list[int],
    text: CardFamily | Callable[[int], str] = FRENCH,
) -> list[tuple[str, str]]:
    with pytest.raises(InvalidInput) as caught:
        check_conservation(zones, deck, "state.game", text)
    return caught.value.violations


# -- French packs -----------------------------------------------------------------


def test_the_french_packs_have_the_sizes_and_ranks_of_their_games() -> None:
    sizes = {name: len(build()) for name, (_, build) in DECKS.items()}
    assert sizes == {
        "52": 52,
        "36": 36,
        "32": 32,
        "54": 54,
        "double 108": 108,
        "uno 108": 108,
        "uno 112": 112,
    }
    for build, ranks in ((cards.pack_36, range(6, 15)), (cards.pack_32, range(7, 15))):
        deck = build()
        assert deck == sorted(deck)
        assert {cards.RANK_OF[v] for v in deck} == set(ranks)
        assert Counter(cards.SUIT_OF[v] for v in deck) == dict.fromkeys(cards.SUITS, len(ranks))


def test_the_54_card_pack_of_most_adds_one_red_and_one_black_joker() -> None:
    deck = cards.pack_54()
    assert deck[-2:] == [cards.RED_JOKER, cards.BLACK_JOKER]
    assert deck[:52] == cards.pack_52() == list(range(1, 53))


def test_the_scala_40_double_pack_holds_every_card_twice_and_four_jokers() -> None:
    counts = Counter(cards.double_pack_108())
    assert counts == {**dict.fromkeys(range(1, 53), 2), cards.RED_JOKER: 2, cards.BLACK_JOKER: 2}
    assert [v for v in cards.double_pack_108() if cards.is_joker(v)] == [53, 53, 54, 54]


def test_deck_keeps_the_signature_101_builds_its_deck_with() -> None:
    assert cards.deck() == cards.pack_52()
    assert cards.deck(lowest_rank=6) == cards.pack_36()
    assert cards.deck(2, 2, 4) == cards.double_pack_108()


@pytest.mark.parametrize(
    ("lowest_rank", "copies", "jokers"), [(1, 1, 0), (15, 1, 0), (2, 0, 0), (2, 1, -1)]
)
def test_a_french_deck_that_cannot_exist_is_refused(
    lowest_rank: int, copies: int, jokers: int
) -> None:
    with pytest.raises(ValueError):
        cards.french_deck(lowest_rank, copies, jokers)


# -- the UNO deck (shedding.md §2.1) ------------------------------------------------


def test_the_uno_deck_is_one_zero_and_two_of_everything_else_per_colour_and_eight_black() -> None:
    deck = uno_cards.uno_deck()
    assert deck == sorted(deck)
    counts = Counter(deck)
    for colour in uno_cards.COLOURS:
        assert counts[uno_cards.uno_card(colour, 0)] == 1
        for symbol in range(1, uno_cards.DRAW_TWO + 1):
            assert counts[uno_cards.uno_card(colour, symbol)] == 2
        assert sum(1 for v in deck if uno_cards.COLOUR_OF[v] == colour) == 25
    assert counts[uno_cards.WILD] == counts[uno_cards.WILD_DRAW_FOUR] == 4
    assert uno_cards.BLANK not in counts
    kinds = Counter(uno_cards.KIND_OF[v] for v in deck)
    assert kinds[Kind.NUMBER] == 76
    assert kinds[Kind.SKIP] + kinds[Kind.REVERSE] + kinds[Kind.DRAW_TWO] == 24
    assert sum(1 for v in deck if uno_cards.is_black(v)) == 8


def test_the_blank_cards_join_the_uno_deck_only_when_asked_for() -> None:
    deck = uno_cards.uno_deck(blank_cards=True)
    assert Counter(deck)[uno_cards.BLANK] == 4
    assert without(deck, *[uno_cards.BLANK] * 4) == uno_cards.uno_deck()


def test_the_uno_tables_agree_with_the_names_of_the_enum() -> None:
    symbols = {"SKIP": Kind.SKIP, "REVERSE": Kind.REVERSE, "DRAW_TWO": Kind.DRAW_TWO}
    for name, value in cards_pb2.UnoCard.items():
        if value == 0:
            assert (uno_cards.COLOUR_OF[0], uno_cards.KIND_OF[0]) == (0, Kind.NONE)
            continue
        parts = name.removeprefix("UNO_CARD_").split("_", 1)
        if parts[0] in ("RED", "YELLOW", "GREEN", "BLUE"):
            assert uno_cards.COLOUR_OF[value] == cards_pb2.UnoColor.Value("UNO_COLOR_" + parts[0])
            if parts[1].isdigit():
                assert uno_cards.KIND_OF[value] == Kind.NUMBER
                assert uno_cards.NUMBER_OF[value] == int(parts[1])
            else:
                assert uno_cards.KIND_OF[value] == symbols[parts[1]]
                assert uno_cards.NUMBER_OF[value] == -1
        else:
            assert uno_cards.is_black(value) and uno_cards.COLOUR_OF[value] == 0
            assert uno_cards.KIND_OF[value] == Kind[name.removeprefix("UNO_CARD_")]
            assert uno_cards.NUMBER_OF[value] == -1


# -- texts --------------------------------------------------------------------------


@pytest.mark.parametrize("name", DECKS)
def test_every_card_of_every_deck_reads_back_from_its_text(name: str) -> None:
    family, build = DECKS[name]
    for value in build():
        text = family.text(value)
        assert family.parse(text) == value
        assert family.parse(text.lower()) == value
        assert value in family.values


@pytest.mark.parametrize("family", [FRENCH, UNO], ids=lambda f: f.name)
def test_each_card_of_a_family_has_its_own_text(family: CardFamily) -> None:
    texts = [family.text(v) for v in family.values]
    assert len(set(texts)) == len(texts) and "?" not in texts


def test_uno_texts_are_the_notation_of_the_rules() -> None:
    # shedding.md §0.4: `R7`, `G0`, `BSkip`, `YRev`, `R+2`, `W`, `W+4`, `X+10`.
    expected = {
        "R7": cards_pb2.UNO_CARD_RED_7,
        "G0": cards_pb2.UNO_CARD_GREEN_0,
        "BSkip": cards_pb2.UNO_CARD_BLUE_SKIP,
        "YRev": cards_pb2.UNO_CARD_YELLOW_REVERSE,
        "R+2": cards_pb2.UNO_CARD_RED_DRAW_TWO,
        "W": cards_pb2.UNO_CARD_WILD,
        "W+4": cards_pb2.UNO_CARD_WILD_DRAW_FOUR,
        "X+10": cards_pb2.UNO_CARD_BLANK,
    }
    assert {uno_cards.uno_card_text(v): v for v in expected.values()} == expected
    assert uno(" bskip ") == cards_pb2.UNO_CARD_BLUE_SKIP


@pytest.mark.parametrize("text", ["R10", "RS", "X", "W+2", "7R", "", "10H"])
def test_a_text_that_is_no_uno_card_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not a UNO card"):
        uno(text)


@pytest.mark.parametrize("value", [0, -1, 56, 2**31 - 1])
def test_a_value_outside_the_enum_is_written_as_a_question_mark(value: int) -> None:
    assert uno_cards.uno_card_text(value) == cards.card_text(value) == "?"


def test_uno_colours_are_written_by_their_letter_and_read_back() -> None:
    for colour in uno_cards.COLOURS:
        assert uno_cards.parse_colour(uno_cards.colour_text(colour)) == colour
    assert uno_cards.colour_text(cards_pb2.UNO_COLOR_GREEN) == "G"
    assert uno_cards.colour_text(0) == "?"
    with pytest.raises(ValueError):
        uno_cards.parse_colour("P")


# -- conservation: each game names its own cards ---------------------------------------


def test_a_duplicated_uno_card_is_named_as_a_uno_card() -> None:
    deck = uno_cards.uno_deck()
    hand = [uno("R7"), uno("R7"), uno("R7")]  # the deck has two
    stock = without(deck, uno("R7"), uno("R7"), uno("G3"))
    assert violations([("hands[0].cards", hand), ("stock", stock)], deck, UNO) == [
        (
            "hands[0].cards",
            "card R7 (8) appears too often: 3 copies, the deck has 2 (in hands[0].cards)",
        ),
        ("state.game", "card G3 is missing"),
    ]


def test_the_text_function_alone_names_the_cards_as_well_as_the_family() -> None:
    deck = uno_cards.uno_deck()
    zones: list[tuple[str, Sequence[int]]] = [("stock", without(deck, uno("W+4")) + [uno("W")])]
    expected = [
        ("stock", "card W (53) appears too often: 5 copies, the deck has 4 (in stock)"),
        ("state.game", "card W+4 is missing"),
    ]
    assert violations(zones, deck, UNO) == violations(zones, deck, uno_cards.uno_card_text)
    assert violations(zones, deck, UNO) == expected


def test_a_foreign_card_is_named_where_it_stands() -> None:
    deck = uno_cards.uno_deck()  # no blank cards in this game
    stock = without(deck, uno("B9"), uno("YSkip"))
    zones: list[tuple[str, Sequence[int]]] = [("stock", stock), ("discard", [uno("X+10"), 60])]
    assert violations(zones, deck, UNO) == [
        ("discard", "card X+10 (55) is not in this game's deck"),
        ("discard", "card ? (60) is not in this game's deck"),
        ("state.game", "card YSkip is missing"),
        ("state.game", "card B9 is missing"),
    ]


def test_a_missing_card_is_named_at_the_parent() -> None:
    deck = cards.pack_32()
    zones: list[tuple[str, Sequence[int]]] = [("stock", without(deck, french("7S")))]
    assert violations(zones, deck) == [("state.game", "card 7S is missing")]


def test_a_double_pack_card_held_three_times_appears_too_often() -> None:
    deck = cards.double_pack_108()
    hand = [french("7H")] * 3
    stock = without(deck, french("7H"), french("7H"), french("QS"))
    assert violations([("hands[1].cards", hand), ("stock", stock)], deck) == [
        (
            "hands[1].cards",
            "card 7H (32) appears too often: 3 copies, the deck has 2 (in hands[1].cards)",
        ),
        ("state.game", "card QS is missing"),
    ]


def test_a_french_family_and_the_default_name_cards_alike() -> None:
    deck = cards.pack_54()
    zones: list[tuple[str, Sequence[int]]] = [("stock", without(deck, cards.RED_JOKER) + [1])]
    assert (
        violations(zones, deck)
        == violations(zones, deck, FRENCH)
        == [
            ("stock", "card 2C (1) appears too often: 2 copies, the deck has 1 (in stock)"),
            ("state.game", "card RJ is missing"),
        ]
    )


def test_a_long_list_of_problems_stops_after_ten_and_counts_the_rest() -> None:
    deck = uno_cards.uno_deck()
    strangers = list(range(1000, 1000 + len(deck)))  # 108 foreign cards; 54 distinct cards missing
    found = violations([("stock", strangers)], deck, UNO)
    assert len(found) == MAX_VIOLATIONS + 1
    assert found[0] == ("stock", "card ? (1000) is not in this game's deck")
    assert found[-1] == ("state.game", "… and 152 more")


# -- conservation: oversized input is refused by its size (issue 7, item 4) ----------------


class Unread(Sequence[int]):
    """A zone of `size` cards that fails the test if any card is read."""

    def __init__(self, size: int) -> None:
        self.size = size

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        raise AssertionError("a card of an oversized zone was read")

    def __iter__(self) -> Iterator[int]:
        raise AssertionError("an oversized zone was iterated")


def test_an_800000_card_hand_gets_one_short_error() -> None:
    deck = uno_cards.uno_deck()
    hand = [uno("R7")] * 800_000
    found = violations([("hands[0].cards", hand), ("stock", deck)], deck, UNO)
    assert found == [("hands[0].cards", "holds 800000 cards; this game's deck has 108")]
    assert len(str(InvalidInput(*found[0], *found[1:]))) < 200


def test_an_oversized_zone_is_refused_without_reading_a_card() -> None:
    deck = cards.pack_52()
    zones: list[tuple[str, Sequence[int]]] = [("hands[0].cards", Unread(800_000)), ("stock", deck)]
    assert not holds_exactly([cards_ for _, cards_ in zones], deck)
    assert violations(zones, deck) == [
        ("hands[0].cards", "holds 800000 cards; this game's deck has 52")
    ]


def test_many_zones_too_full_together_are_refused_at_the_parent() -> None:
    deck = cards.pack_32()
    zones: list[tuple[str, Sequence[int]]] = [(f"hands[{i}].cards", Unread(30)) for i in range(3)]
    assert violations(zones, deck) == [("state.game", "holds 90 cards; this game's deck has 32")]


def test_many_oversized_zones_are_listed_up_to_the_cap() -> None:
    deck = cards.pack_52()
    zones: list[tuple[str, Sequence[int]]] = [
        (f"hands[{i}].cards", Unread(100_000)) for i in range(40)
    ]
    found = violations(zones, deck)
    assert len(found) == MAX_VIOLATIONS + 1
    assert found[-1] == ("state.game", "… and 30 more")
    assert sum(len(f) + len(p) for f, p in found) < 1000
