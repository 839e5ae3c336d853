"""The «Мост» option catalogue (§2.10, C-M-4), its presets, and that every
option is independent and reaches the rules (the ambiguity tests pin what
each one does)."""

from __future__ import annotations

import pytest

from croupier.engine import api, registry
from croupier.engine.errors import InvalidInput
from croupier.games.most.options import CATALOGUE, PRESETS
from croupier.v1 import most_pb2 as pb
from croupier.v1 import service_pb2
from spec_notation import settings

DOCUMENT = {  # §2.10's table, and C-M-4's max_deals: name -> default
    "players": 4,
    "bridge_card_may_be_laid_off": False,
    "top_bridge_card_free": False,
    "stock_exhausted": "END_HAND",
    "exchange_requires_meld": False,
    "exchanged_card_credit": "EXCHANGER",
    "min_naturals_per_meld": 1,
    "go_out_without_discard": False,
    "target_score": 500,
    "max_deals": 0,
}


def test_the_catalogue_is_the_documents_table() -> None:
    assert {spec.name: spec.default for spec in CATALOGUE.specs} == DOCUMENT
    assert all(spec.reference.startswith("RULES.md ") for spec in CATALOGUE.specs)


def test_list_games_shows_every_option_and_preset(table) -> None:
    described = next(g for g in api.list_games(service_pb2.ListGamesRequest()).games
                     if g.name == "most")  # fmt: skip
    assert [o.name for o in described.options] == list(DOCUMENT)
    assert [p.name for p in described.presets] == ["seed", "rum500"]
    assert (described.min_seats, described.max_seats, described.default_preset) == (2, 8, "seed")


def test_c_m_4_max_deals_is_off_in_every_preset_and_bounds_matches_between_programs(table) -> None:
    # C-M-4: "Option max_deals (default off) … Random playouts, tournaments and
    # conformance tests set it."
    for preset in PRESETS:
        assert "max_deals" not in preset.settings
        assert table.new(4, preset=preset.name).options.most.max_deals == 0
    assert registry.bounded("most") == {"max_deals": 12}
    assert registry.bounded("most", {"max_deals": 0}) == {"max_deals": 0}  # the table's own
    assert registry.bounded("uno", {"stacking": True}) == {"stacking": True}  # no bound


def test_rum500_takes_500_rums_answers_to_the_silent_points(table) -> None:
    s = table.new(4, preset="rum500")
    o = s.options.most
    assert (o.top_bridge_card_free, o.bridge_card_may_be_laid_off, o.stock_exhausted) == (
        True,
        True,
        pb.MOST_STOCK_EXHAUSTED_RESHUFFLE_BRIDGE,
    )


def test_every_combination_of_options_is_accepted(table) -> None:
    # §2.10's options are independent: nothing is refused together.
    everything = {
        "bridge_card_may_be_laid_off": True,
        "top_bridge_card_free": True,
        "stock_exhausted": "RESHUFFLE_BRIDGE",
        "exchange_requires_meld": True,
        "exchanged_card_credit": "MELD_OWNER",
        "min_naturals_per_meld": 0,
        "go_out_without_discard": True,
        "target_score": 100,
        "max_deals": 0,
    }
    s = table.new(2, everything)
    assert s.options.most.target_score == 100
    api.check_state(s)


@pytest.mark.parametrize(
    ("name", "value"),
    [("target_score", 0), ("max_deals", -1), ("min_naturals_per_meld", 2),
     ("stock_exhausted", "NEVER"), ("players", 3)],
)  # fmt: skip
def test_out_of_range_settings_are_refused(name, value) -> None:
    request = service_pb2.NewGameRequest(
        game="most", preset="seed", seat_count=4, seed=1, options=settings({name: value})
    )
    with pytest.raises(InvalidInput) as error:
        api.new_game(request)
    assert error.value.violations[0][0].startswith("options[0]")


def test_players_is_the_seat_count(table) -> None:
    s = table.new(5)
    assert s.options.most.players == 5
    s.options.most.players = 4
    with pytest.raises(InvalidInput) as error:
        api.check_state(s)
    assert error.value.violations[0][0] == "state.options.most.players"
