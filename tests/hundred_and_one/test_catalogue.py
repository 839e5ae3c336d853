"""ListGames describes the 101 family completely: the four versions as presets
and every option of shedding.md §1.7, each typed, defaulted and described."""

from __future__ import annotations

from croupier.engine import api
from croupier.v1 import options_pb2, service_pb2

# shedding.md §1.7, O1–O31, plus `effects` (the per-version card effects).
SECTION_1_7 = [
    "deck_size",
    "players",
    "hand_size",
    "opening",
    "upcard_effects",
    "first_move_any",
    "draw_rule",
    "voluntary_draw",
    "must_play_drawn",
    "restock_shuffle",
    "transfer_6_7",
    "transfer_accumulates",
    "ordinary_specials",
    "eight_draw_mode",
    "eight_last_must_cover",
    "kspades_draw",
    "kspades_in_hand_40",
    "queen_finish_bonus",
    "lone_queen_penalty",
    "lone_queen_scope",
    "reset_100_to_50",
    "exact_101_reset",
    "bust_rule",
    "negative_limit",
    "forbidden_finish",
    "no_finish_on_nine",
    "resolve_final_penalty",
    "six_cover_by",
    "nine_cover_allows_queen",
    "fives_active",
    "seven_spades_draw",
]


def _game() -> options_pb2.GameDescriptor:
    [game] = [
        g
        for g in api.list_games(service_pb2.ListGamesRequest()).games
        if g.name == "hundred_and_one"
    ]
    return game


def test_every_option_of_section_1_7_is_described() -> None:
    options = {o.name: o for o in _game().options}
    assert len(SECTION_1_7) == 31
    assert set(options) == {*SECTION_1_7, "effects"}
    for option in options.values():
        assert option.description and "\n" not in option.description, option.name
        assert option.rule_reference.startswith("RULES.md "), option.name
        assert option.default_value.WhichOneof("kind"), option.name
        if option.type in (options_pb2.OPTION_TYPE_ENUM, options_pb2.OPTION_TYPE_SET):
            assert option.allowed_values, option.name
        elif option.type == options_pb2.OPTION_TYPE_INT:
            assert option.allowed_values or option.min_value < option.max_value, option.name
        else:
            assert option.type == options_pb2.OPTION_TYPE_BOOL, option.name


def test_the_four_versions_are_presets_with_their_seat_ranges() -> None:
    game = _game()
    presets = {p.name: (p.min_seats, p.max_seats) for p in game.presets}
    assert presets == {"hd": (2, 4), "cl": (2, 4), "ru": (2, 5), "alt": (2, 8)}
    assert game.default_preset == "hd"


def test_enum_defaults_are_allowed_values() -> None:
    for option in _game().options:
        if option.type == options_pb2.OPTION_TYPE_ENUM:
            assert option.default_value.enum_value in option.allowed_values, option.name
