"""How many seats a table may have (engine/api.py, _check_seat_count).

A preset seats what its version is played with (101 HD 2 to 4, One Hundred's
seed 3 to 5). Where the game's catalogue has the option `players` (101's O2,
One Hundred's O-C2-2, «Мост»'s R-M-02), the player count is a rule option like
any other: a table that sets `players` chooses that variant over the preset's
range, within the option's domain and the game's own checks of it.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.engine.options import Value, option_settings
from croupier.v1 import hundred_and_one_pb2, service_pb2


def _new(game: str, preset: str, seats: int, options: Mapping[str, Value] | None = None):
    request = service_pb2.NewGameRequest(
        game=game, preset=preset, seat_count=seats, seed=11, options=option_settings(options)
    )
    return api.new_game(request).state


def _refusal(game: str, preset: str, seats: int, options: Mapping[str, Value] | None = None):
    with pytest.raises(InvalidInput) as refused:
        _new(game, preset, seats, options)
    return refused.value.violations[0]


def test_a_preset_without_the_option_seats_its_versions_range_and_says_how_to_choose_more():
    assert _refusal("hundred_and_one", "hd", 6) == (
        "seat_count",
        "hundred_and_one preset hd seats 2 to 4; got 6 (the option players=6 chooses that variant)",
    )


def test_players_set_by_the_table_seats_101_hd_beyond_its_range():
    state = _new("hundred_and_one", "hd", 6, {"players": 6})
    assert len(state.seats) == 6
    assert state.options.hundred_and_one.players == 6
    assert state.options.hundred_and_one.effects == hundred_and_one_pb2.HUNDRED_AND_ONE_EFFECTS_HD
    # 5 cards each from 36 (HD's defaults: O1, O3); the leader leads any card (O4).
    assert [len(hand.cards) for hand in state.hundred_and_one.hands] == [5] * 6
    assert len(state.hundred_and_one.stock) == 36 - 30


def test_players_set_by_the_table_still_needs_the_cards_to_go_round():
    # O2: players × hand_size < deck_size; 7 × 5 = 35 < 36 is the most HD deals.
    assert len(_new("hundred_and_one", "hd", 7, {"players": 7}).seats) == 7
    assert _refusal("hundred_and_one", "hd", 8, {"players": 8}) == (
        "options.hand_size",
        "8 players × 5 cards must be fewer than the 36-card deck",
    )
    # RU deals 4: 8 × 4 = 32 < 36.
    assert len(_new("hundred_and_one", "ru", 8, {"players": 8}).seats) == 8


def test_players_set_by_the_table_stays_within_the_options_domain():
    assert _refusal("hundred_and_one", "hd", 9, {"players": 9}) == (
        "seat_count",
        "hundred_and_one seats 2 to 8; got 9",
    )
    assert _refusal("hundred_and_one", "hd", 1, {"players": 1}) == (
        "seat_count",
        "hundred_and_one seats 2 to 8; got 1",
    )


def test_players_must_still_equal_the_seat_count():
    field, description = _refusal("hundred_and_one", "hd", 3, {"players": 6})
    assert (field, description) == (
        "options[0].value",
        "option players=6 contradicts seat_count=3",
    )


def test_one_hundreds_seed_rules_with_seven_players_take_two_packs():
    # O-C2-2 and C-C-1: 7 or more players play with two packs, under the seed's
    # other rules (4 cards, a bust eliminates).
    state = _new("one_hundred", "seed", 7, {"players": 7})
    options = state.options.one_hundred
    assert (options.players, options.hand_size, options.lives) == (7, 4, 1)
    deal = state.one_hundred
    cards = len(deal.stock) + len(deal.pile) + sum(len(hand.cards) for hand in deal.hands)
    assert cards == 104
    assert _refusal("one_hundred", "seed", 6)[1] == (
        "one_hundred preset seed seats 3 to 5; got 6 (the option players=6 chooses that variant)"
    )


def test_a_game_without_the_option_keeps_its_range():
    assert _refusal("scala40", "fisc", 7) == (
        "seat_count",
        "scala40 preset fisc seats 2 to 6; got 7",
    )
    # Scala 40 has no such option: setting it does not widen the range.
    assert _refusal("scala40", "fisc", 7, {"players": 7})[0] == "seat_count"
