"""ListGames shows the three counting games with every option of their
tables (RULES.md options O-C1, O-C2, O-C3), their presets and seats."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.v1 import service_pb2

OPTIONS = {
    "sto": ["card_values", "leftovers", "deals_per_match", "settlement"],
    "one_hundred": ["hand_size", "players", "lives", "after_bust", "floor_zero", "other_queens"],
    "chips_101": ["limit", "card_table", "ten_effect", "chips", "floor_zero"],
}
PRESETS = {
    "sto": {"seed": (3, 10), "hundert": (3, 10)},
    "one_hundred": {"seed": (3, 5), "gamerules": (3, 10)},
    "chips_101": {"seed": (2, 7), "pagat": (2, 7)},
}


def _described() -> dict:
    games = api.list_games(service_pb2.ListGamesRequest()).games
    return {g.name: g for g in games if g.name in OPTIONS}


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_list_games_describes_every_option_and_preset(name) -> None:
    game = _described()[name]
    assert [o.name for o in game.options] == OPTIONS[name]
    assert all(o.description and o.rule_reference.startswith("RULES.md ") for o in game.options)
    assert {p.name: (p.min_seats, p.max_seats) for p in game.presets} == PRESETS[name]
    assert game.default_preset == "seed"
    assert game.rules_version == 4
    assert game.display_name and game.description


def test_the_three_games_have_their_own_seat_ranges() -> None:
    described = _described()
    seats = {name: (g.min_seats, g.max_seats) for name, g in described.items()}
    assert seats == {"sto": (3, 10), "one_hundred": (3, 10), "chips_101": (2, 7)}


def test_enum_options_are_named_without_their_prefix() -> None:
    game = _described()["chips_101"]
    table = next(o for o in game.options if o.name == "card_table")
    assert list(table.allowed_values) == ["NINETY_NINE_101", "ONE_HUNDRED"]
    assert table.default_value.enum_value == "NINETY_NINE_101"


@pytest.mark.parametrize(
    ("game", "options", "field"),
    [
        ("one_hundred", {"after_bust": "CONTINUE", "lives": 2}, "options.after_bust"),
        ("one_hundred", {"hand_size": 5}, "options[0].value"),
        ("chips_101", {"limit": 99}, "options[0].value"),
    ],
)
def test_refused_options_name_the_setting(table, game, options, field) -> None:
    with pytest.raises(InvalidInput) as error:
        table.new(game, 3, options=options)
    assert error.value.violations[0][0] == field


def test_one_hundred_players_come_from_the_seat_count(table) -> None:
    assert table.new("one_hundred", 4).options.one_hundred.players == 4
    with pytest.raises(InvalidInput, match="contradicts seat_count"):
        table.new("one_hundred", 4, options={"players": 5})
