"""The option catalogue (§1.16, V1–V24), the presets, the conflicts refused
at NewGame (C-S40-5), and each option at a hand-built position (those the
§1.18 examples do not already show: V1, V6b, V10a off, V10c, V16, V24)."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.games.scala40 import GAME
from croupier.v1 import service_pb2
from spec_notation import settings

from .conftest import reason_name

MINE = (0, "[2♠ 3♠ 4♠]")
OPTIONS = [
    "match_mode", "elimination_threshold", "reentry", "no_elimination_target",
    "court_values_11_14", "discard_pickup_for_opening", "discard_pickup_keep",
    "close_in_hand_doubles", "close_on_first_turn", "unopened_flat_penalty_100",
    "forbid_playable_discard_unopened", "forbid_playable_discard_opened",
    "forbid_playable_discard_closing", "first_player_may_take_upcard", "close_without_discard",
    "quads_to_discard_pile", "sequence_split_max5", "max_jokers_per_meld",
    "joker_swap_for_opening", "declare_ambiguous_joker", "teams",
    "retrieved_joker_must_be_used", "upcard_joker_redraw", "close_in_hand_requires_40",
    "max_sequence_length", "set_joker_positional_convention", "joker_discard",
]  # fmt: skip


def _scala40(response):
    return next(g for g in response.games if g.name == "scala40")


def test_list_games_describes_every_option_with_its_rule(table):
    d = _scala40(api.list_games(service_pb2.ListGamesRequest()))
    assert [o.name for o in d.options] == OPTIONS
    assert all(o.rule_reference.startswith("RULES.md V") for o in d.options)
    assert all(o.description for o in d.options)
    assert (d.min_seats, d.max_seats, d.default_preset) == (2, 6, "fisc")
    assert [p.name for p in d.presets] == ["fisc", "slovenian", "pagat"]


def test_presets_are_bundles_of_options(table):
    fisc = table.new(3).options.scala40
    pagat = table.new(3, preset="pagat").options.scala40
    slovenian = table.new(3, preset="slovenian").options.scala40
    assert (fisc.elimination_threshold, fisc.upcard_joker_redraw) == (151, True)
    assert (pagat.elimination_threshold, pagat.upcard_joker_redraw) == (101, False)
    assert pagat.forbid_playable_discard_opened == 2  # NEVER
    assert pagat.joker_discard == 2  # NOT_WHEN_UNOPENED
    assert not pagat.retrieved_joker_must_be_used
    assert slovenian.retrieved_joker_must_be_used
    assert slovenian.elimination_threshold == 101


def _new(options):
    request = service_pb2.NewGameRequest(
        game="scala40", seat_count=3, seed=1, options=settings(options)
    )
    return api.new_game(request)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"match_mode": "SINGLE_DEAL", "elimination_threshold": 101}, "elimination_threshold"),
        ({"match_mode": "NO_ELIMINATION", "elimination_threshold": 201}, "elimination_threshold"),
        ({"match_mode": "NO_ELIMINATION", "reentry": True}, "reentry"),
        ({"match_mode": "SINGLE_DEAL", "reentry": True}, "reentry"),
        ({"no_elimination_target": 1500}, "no_elimination_target"),
    ],
)
def test_conflicting_options_are_refused_naming_both(options, named):
    with pytest.raises(InvalidInput) as error:
        _new(options)
    fields = [field for field, _ in error.value.violations]
    assert fields == [f"options.{named}", "options.match_mode"]
    assert named in str(error.value) and "match_mode" in str(error.value)


@pytest.mark.parametrize("preset", ["pagat", "slovenian"])
@pytest.mark.parametrize("mode", ["SINGLE_DEAL", "NO_ELIMINATION"])
def test_c_s40_5_a_presets_threshold_yields_to_the_tables_match_mode(preset, mode):
    # pagat's and slovenian's "out at 101" is their ELIMINATION match; a table
    # of those rules playing one deal, or to a target, is no conflict.
    request = service_pb2.NewGameRequest(
        game="scala40", preset=preset, seat_count=3, seed=1, options=settings({"match_mode": mode})
    )
    options = api.new_game(request).state.options.scala40
    assert options.elimination_threshold == 151  # the default: inert in this mode
    assert options.upcard_joker_redraw is False  # the preset's other settings stand


def test_inert_combinations_are_accepted(table):
    # C-S40-5: "overrides" / "only meaningful with" — RULES.md lists them.
    _new({"sequence_split_max5": True, "max_sequence_length": 13})
    _new({"declare_ambiguous_joker": False, "set_joker_positional_convention": True})
    _new({"match_mode": "SINGLE_DEAL", "close_in_hand_doubles": True})


def test_out_of_range_values_are_refused():
    with pytest.raises(InvalidInput, match="elimination_threshold must be one of 101, 151, 201"):
        _new({"elimination_threshold": 150})
    with pytest.raises(InvalidInput, match="max_sequence_length must be one of 13, 14"):
        _new({"max_sequence_length": 5})


def test_v1_single_deal_the_closer_wins_without_scoring(table):
    s = table.build(hands={0: "Q♣", 1: "A♠"}, melds=[MINE], options={"match_mode": "SINGLE_DEAL"})
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0]
    assert table.scores(s) == [0, 0, 0]
    assert table.deal_points(s)[1] == 11


def test_v6b_an_opened_player_may_keep_the_discard(table):
    layout = {"hands": {0: "2♦ K♠"}, "melds": [MINE], "phase": "DRAW", "top": "9♣"}
    s = table.build(**layout)
    assert table.reason(s, table.take(0)) == "TAKEN_CARD_CANNOT_BE_PLACED"
    s = table.build(**layout, options={"discard_pickup_keep": True})
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.discard(s, 0, "2♦"))
    assert table.hand(s, 0) == table.bag("K♠ 9♣")


def test_v10a_off_an_unopened_player_may_discard_a_playable_card(table):
    s = table.build(
        hands={0: "7♦ K♠"},
        melds=["[4♦ 5♦ 6♦]"],
        options={"forbid_playable_discard_unopened": False},
    )
    table.ok(s, table.discard(s, 0, "7♦"))


def test_v10b_always_bars_a_playable_discard_heads_up_too(table):
    s = table.build(
        2,
        hands={0: "7♦ K♠"},
        melds=[MINE, "[4♦ 5♦ 6♦]"],
        options={"forbid_playable_discard_opened": "ALWAYS"},
    )
    assert table.reason(s, table.discard(s, 0, "7♦")) == "DISCARD_PLAYABLE_OPENED"


def test_v10c_a_playable_closing_discard_is_lifted_by_the_fallback(table):
    # D4 bars a playable card as the closing discard; with one card left that
    # bar leaves no legal discard, so A-S40-08 lifts it: RULES.md notes that
    # V10c therefore never changes which moves are legal.
    s = table.build(
        hands={0: "7♦"},
        melds=[MINE, "[4♦ 5♦ 6♦]"],
        options={"forbid_playable_discard_closing": True},
    )
    s = table.ok(s, table.discard(s, 0, "7♦"))
    assert table.match_phase(s) == "DEAL_OVER"


def test_v16_an_unopened_player_swaps_a_joker_into_his_opening(table):
    layout = {
        "hands": {0: "6♠ K♥ K♦ Q♣ Q♦ Q♥ 2♣ 9♥"},
        "melds": ["[5♠ JK→6♠ 7♠]"],
    }
    s = table.build(**layout)
    assert table.reason(s, table.swap(0, "6♠", 1)) == "MUST_OPEN_FIRST"
    s = table.build(**layout, options={"joker_swap_for_opening": True})
    s = table.ok(s, table.swap(0, "6♠", 1))
    assert table.reason(s, table.discard(s, 0, "2♣")) == "RETRIEVED_JOKER_NOT_USED"
    without = table.open(s, 0, "[Q♣ Q♦ Q♥]")
    assert table.reason(s, without) == "OPENING_MUST_USE_RETRIEVED_JOKER"
    s = table.ok(s, table.open(s, 0, "[K♥ K♦ JK→K♣]", "[Q♣ Q♦ Q♥]"))
    assert table.events[-1].points == 60
    table.ok(s, table.discard(s, 0, "2♣"))


def test_v16_a_swap_with_no_opening_after_it_is_refused(table):
    s = table.build(
        hands={0: "6♠ K♥ 2♣ 9♥"},
        melds=["[5♠ JK→6♠ 7♠]"],
        options={"joker_swap_for_opening": True},
    )
    assert table.reason(s, table.swap(0, "6♠", 1)) == "RETRIEVED_JOKER_NOT_USED"


def test_v19_a_joker_swapped_after_opening_this_turn_is_owed_by_r_s40_51(table):
    """After opening this turn, a swap under V19 owes its joker by R-S40-51 (V19),
    not R-S40-52 (V16: a swap before the opening, whose joker the opening must
    hold; V16 is off here). The rule was picked by `opened_this_turn`."""
    v19 = {"retrieved_joker_must_be_used": True}
    s = table.build(hands={0: "8♣ 9♣ 10♣ J♣ K♦ K♥ K♠ 6♠ 2♦ 3♥"}, melds=["[5♠ JK→6♠ 7♠]"],
                    options=v19)  # fmt: skip
    s = table.ok(s, table.open(s, 0, "[8♣ 9♣ 10♣ J♣]", "[K♦ K♥ K♠]"))
    s = table.ok(s, table.swap(0, "6♠", 1))
    rejection = table.rejection(s, table.discard(s, 0, "2♦"))
    assert (reason_name(rejection), rejection.rule) == ("RETRIEVED_JOKER_NOT_USED", "R-S40-51")
    # A seat opened in an earlier turn: R-S40-51 too; V16 before the opening: R-S40-52.
    s = table.build(hands={0: "6♠ 2♦ 3♥"}, melds=[MINE, "[5♠ JK→6♠ 7♠]"], options=v19)
    s = table.ok(s, table.swap(0, "6♠", 2))
    assert table.rejection(s, table.discard(s, 0, "2♦")).rule == "R-S40-51"
    s = table.build(hands={0: "6♠ K♥ K♦ Q♣ Q♦ Q♥ 2♣ 9♥"}, melds=["[5♠ JK→6♠ 7♠]"],
                    options={"joker_swap_for_opening": True, **v19})  # fmt: skip
    s = table.ok(s, table.swap(0, "6♠", 1))
    assert table.rejection(s, table.discard(s, 0, "2♣")).rule == "R-S40-52"


V14_ANY = {"sequence_split_max5": True, "joker_discard": "ANY"}
FIVE_CLUBS = ["[5♣ 6♣ 7♣ 8♣ 9♣]"]


def test_v14_a_joker_a_split_would_take_is_playable_for_an_unopened_seat(table):
    """§1.10: "Under sequence_split_max5, c is playable if it can be added with a
    legal split", a joker as well: [5♣..9♣] + JK splits into [JK→4♣ 5♣ 6♣]
    [7♣ 8♣ 9♣], so D2 bars an unopened seat's DISCARD JK (V24 ANY lifts D5
    only). It was accepted and listed: only naturals were tried in splits."""
    s_open = table.build(hands={0: "JK K♠ 2♦ 9♥ Q♦"}, melds=FIVE_CLUBS, opened=[0],
                         options=V14_ANY)  # fmt: skip
    table.ok(s_open, table.split(s_open, 0, 1, "[JK→4♣ 5♣ 6♣]", "[7♣ 8♣ 9♣]"))
    s = table.build(hands={0: "JK K♠ 2♦ 9♥ Q♦"}, melds=FIVE_CLUBS, options=V14_ANY)
    assert table.reason(s, table.discard(s, 0, "JK")) == "DISCARD_PLAYABLE_UNOPENED"
    assert "DISCARD RJ" not in table.legal(s)


def test_v14_a_joker_a_split_would_take_is_playable_for_an_opened_seat(table):
    """The same for an opened seat with three players: D3 (IF_MORE_THAN_2_PLAYERS)."""
    s = table.build(hands={0: "JK K♠ 2♦ 9♥ Q♦"}, melds=FIVE_CLUBS, opened=[0],
                    options=V14_ANY)  # fmt: skip
    assert table.reason(s, table.discard(s, 0, "JK")) == "DISCARD_PLAYABLE_OPENED"
    assert "DISCARD RJ" not in table.legal(s)
    assert "DISCARD KS" in table.legal(s)


def test_v14_a_natural_a_split_would_take_is_playable(table):
    """Control: the 10♣ on [5♣..9♣] (split [5♣ 6♣ 7♣] [8♣ 9♣ 10♣]) is playable."""
    options = {"sequence_split_max5": True}
    s = table.build(hands={0: "10♣ K♠ 2♦ 9♥ Q♦"}, melds=FIVE_CLUBS, options=options)
    assert table.reason(s, table.discard(s, 0, "10♣")) == "DISCARD_PLAYABLE_UNOPENED"


def test_v24_joker_discard_modes(table):
    def reason(mode, opened, hand="JK K♠"):
        melds = [MINE] if opened else []
        s = table.build(hands={0: hand}, melds=melds, options={"joker_discard": mode})
        return table.reason(s, table.discard(s, 0, "JK"))

    assert reason("CLOSING_ONLY", True) == "DISCARD_JOKER"
    assert reason("NEVER", True) == "DISCARD_JOKER"
    assert reason("ANY", True) == "DISCARD_PLAYABLE_OPENED"  # a joker extends 2♠ 3♠ 4♠
    assert reason("NOT_WHEN_UNOPENED", False) == "DISCARD_JOKER"
    assert reason("ANY", False) == "ACCEPTED"


def test_the_game_describes_itself():
    assert GAME.name == "scala40" and GAME.rules_version == 7
