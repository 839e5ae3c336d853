"""The game-independent core: randomness, cards and notation, seats, piles,
conservation, option catalogues."""

from __future__ import annotations

import random

import pytest

from croupier.engine import api, cards, piles, rng, seats
from croupier.engine.conservation import check_conservation
from croupier.engine.errors import InvalidInput
from croupier.engine.options import Catalogue
from croupier.games.hundred_and_one.notation import notation, parse_notation
from croupier.games.hundred_and_one.options import CATALOGUE
from croupier.v1 import cards_pb2, game_pb2, hundred_and_one_pb2, service_pb2

# -- rng ----------------------------------------------------------------------


def test_the_stream_is_splitmix64_keyed_by_seed_and_counter() -> None:
    # SplitMix64's published first output for state 0 (Steele, Lea, Flood 2014).
    assert rng.mix(0, 0) == 0xE220A8397B1DCDAF
    assert rng.mix(1, 0) != rng.mix(0, 0) != rng.mix(0, 1)


def test_below_and_shuffle_advance_the_counter_and_repeat_for_a_seed() -> None:
    state = game_pb2.GameState(seed=42)
    values = [rng.below(state, 6) for _ in range(600)]
    assert state.rng_counter >= 600
    assert set(values) == set(range(6))
    again = game_pb2.GameState(seed=42)
    assert [rng.below(again, 6) for _ in range(600)] == values
    deck = list(range(52))
    rng.shuffle(state, deck)
    assert sorted(deck) == list(range(52)) and deck != list(range(52))
    with pytest.raises(ValueError):
        rng.below(state, 0)


# -- cards and notation ---------------------------------------------------------


def test_every_card_text_parses_back() -> None:
    for value in range(1, cards.BLACK_JOKER + 1):
        assert cards.parse_card(cards.card_text(value)) == value
    assert cards.card_text(cards.card(10, cards.HEARTS)) == "10H"
    assert cards.card_text(cards.KING_OF_SPADES) == "KS"
    with pytest.raises(ValueError):
        cards.parse_card("1X")


def test_every_legal_move_text_round_trips() -> None:
    request = service_pb2.NewGameRequest(game="hundred_and_one", preset="hd", seat_count=3, seed=9)
    state = api.new_game(request).state
    rnd = random.Random(9)
    seen = set()
    for _ in range(400):
        if state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER:
            break
        if state.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
            continue
        legal = api.list_legal_moves(
            service_pb2.ListLegalMovesRequest(state=state, seat=state.current_seat)
        ).moves
        for entry in legal:
            assert entry.notation == notation(entry.move)
            assert parse_notation(entry.notation, entry.move.seat) == entry.move
            seen.add(entry.notation)
        state = api.apply_move(
            service_pb2.ApplyMoveRequest(state=state, move=rnd.choice(legal).move)
        ).state
    assert {"DRAW", "PASS"} <= seen  # the walk met every kind of move text
    assert any(">" in text for text in seen)  # a Queen naming a suit
    name = parse_notation("NAME S", 0)
    assert name.hundred_and_one.name_suit.suit == cards_pb2.SUIT_SPADES
    assert notation(name) == "NAME S"


# -- seats ----------------------------------------------------------------------


def test_turn_order_passes_over_eliminated_seats_both_ways() -> None:
    state = game_pb2.GameState()
    for out in (False, True, False, False):
        state.seats.add(eliminated=out)
    assert seats.next_seat(state.seats, 0) == 2
    assert seats.next_seat(state.seats, 3) == 0
    assert seats.previous_seat(state.seats, 2) == 0
    assert seats.next_seat(state.seats, 0, -1) == 3
    assert seats.active_seats(state) == [0, 2, 3]


# -- piles ----------------------------------------------------------------------


def test_restock_turns_the_discards_over_as_a_block_keeping_the_top() -> None:
    stock: list[int] = []
    discard = [1, 2, 3, 4]
    assert piles.restock(stock, discard, None) == 3
    assert (stock, discard) == ([1, 2, 3], [4])  # the oldest discard is the new top


def test_draw_restocks_and_forfeits_what_cannot_be_drawn() -> None:
    stock, discard, hand = [7], [1, 2, 3], []
    drawn, restocked = piles.draw(stock, discard, hand, 5, None)
    assert drawn == [7, 1, 2] and restocked == 2
    assert (stock, discard, hand) == ([], [3], [7, 1, 2])


# -- conservation ---------------------------------------------------------------


def test_conservation_names_the_field_of_a_duplicate_a_stranger_and_a_missing_card() -> None:
    deck = [1, 2, 3, 4]
    check_conservation([("a", [1, 2]), ("b", [3, 4])], deck, "p")
    with pytest.raises(InvalidInput) as caught:
        check_conservation([("a", [1, 2]), ("b", [2, 4, 60])], deck, "p")
    assert caught.value.violations == [
        ("a", "card 3C (2) appears too often: 2 copies, the deck has 1 (in a, b)"),
        ("b", "card ? (60) is not in this game's deck"),
        ("p", "card 4C is missing"),
    ]


# -- option catalogues ------------------------------------------------------------


def test_a_catalogue_must_name_exactly_the_fields_of_its_message() -> None:
    with pytest.raises(ValueError, match="disagree"):
        Catalogue(hundred_and_one_pb2.HundredAndOneOptions, [])


@pytest.mark.parametrize(
    ("settings", "field", "problem"),
    [
        ({"no_such": True}, "options[0].name", "unknown option"),
        ({"hand_size": True}, "options[0].value", "takes int_value"),
        ({"hand_size": 99}, "options[0].value", "must be from 2 to 25"),
        ({"deck_size": 40}, "options[0].value", "must be one of 36, 52"),
        ({"opening": "FIRST"}, "options[0].value", "must be one of LEAD_ANY, DEALER_UPCARD"),
        ({"voluntary_draw": 1}, "options[0].value", "takes bool_value"),
        ({"forbidden_finish": ("ACE", "ACE")}, "options[0].value", "names a value twice"),
        ({"forbidden_finish": ("JOKER",)}, "options[0].value", "allows"),
    ],
)
def test_resolving_named_settings_names_the_setting_at_fault(settings, field, problem) -> None:
    paths = {name: "options[0]" for name in settings}
    with pytest.raises(InvalidInput) as caught:
        CATALOGUE.resolve([(settings, paths)])
    [(where, what)] = caught.value.violations
    assert where == field and problem in what
