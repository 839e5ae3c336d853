"""An audit of the Scala 40 rules (rummy_and_counting.md PART 1, §1.1–§1.19)
beyond the spec's own examples: edge cases of aces, jokers, the discard bans
and their fallback, closing, scoring, elimination and the exhausted stock.
Each test is a hand-built table, a move and the exact result, named after the
rule it pins. P is seat 0, to act; melds on the table were laid by seat 1
unless said otherwise; defaults (FISC preset) unless an option is named."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.engine import cards
from croupier.engine.errors import InvalidInput
from spec_notation import text_of

from .conftest import all_but_eight_cards_melded, reason_name

MINE = (0, "[2♠ 3♠ 4♠]")
HEARTS_2_TO_K = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"
WHOLE_HEARTS = f"A♥ {HEARTS_2_TO_K}"


# -- aces (R-S40-22..25) ------------------------------------------------------------------


def test_r_s40_22_an_ace_extends_a_low_sequence_below_and_a_high_one_above(table):
    s = table.build(hands={0: "A♥ A♠ K♣ 2♦"}, melds=[MINE, "[2♥ 3♥ 4♥]", "[J♠ Q♠ K♠]"])
    after = table.ok(s, table.lay(s, 0, "A♥", 2, "low"))
    assert table.melds(after)[1] == "[A♥ 2♥ 3♥ 4♥]"
    after = table.ok(s, table.lay(s, 0, "A♠", 3, "high"))
    assert table.melds(after)[2] == "[J♠ Q♠ K♠ A♠]"
    # The ace does not go on the other end (it would be in the middle / wrap).
    assert table.reason(s, table.lay(s, 0, "A♥", 2, "high")) == "LAY_OFF_DOES_NOT_FIT"
    assert table.reason(s, table.lay(s, 0, "A♠", 3, "low")) == "LAY_OFF_DOES_NOT_FIT"


def test_r_s40_23_nothing_extends_beyond_an_ace_end(table):
    s = table.build(hands={0: "K♠ JK J♥ 4♠ 2♦"}, melds=[MINE, "[Q♥ K♥ A♥]", "[A♠ 2♠ 3♠]"])
    assert table.reason(s, table.lay(s, 0, "JK", 2, "high")) == "LAY_OFF_DOES_NOT_FIT"
    assert table.reason(s, table.lay(s, 0, "K♠", 3, "low")) == "LAY_OFF_DOES_NOT_FIT"
    assert table.reason(s, table.lay(s, 0, "JK", 3, "low")) == "LAY_OFF_DOES_NOT_FIT"
    after = table.ok(s, table.lay(s, 0, "J♥", 2, "low"))
    assert table.melds(after)[1] == "[J♥ Q♥ K♥ A♥]"
    after = table.ok(s, table.lay(s, 0, "4♠", 3, "high"))
    assert table.melds(after)[2] == "[A♠ 2♠ 3♠ 4♠]"


def test_r_s40_24_a_natural_second_ace_does_not_go_on_a_whole_suit(table):
    s = table.build(hands={0: "A♥ K♠ 2♦"}, melds=[MINE, f"[{WHOLE_HEARTS}]"])
    assert table.reason(s, table.lay(s, 0, "A♥", 2, "high")) == "TWO_NATURAL_ACES"
    assert not [m for m in table.legal(s) if m.startswith("LAY AH")]


def test_r_s40_25_a_joker_low_ace_and_a_natural_high_ace_make_14(table):
    s = table.build(hands={0: "JK A♥ A♥ K♠ 2♦"}, melds=[MINE, f"[{HEARTS_2_TO_K}]"])
    s = table.ok(s, table.lay(s, 0, "JK", 2, "low"))
    assert table.melds(s)[1] == f"[JK→A♥ {HEARTS_2_TO_K}]"
    s = table.ok(s, table.lay(s, 0, "A♥", 2, "high"))
    assert table.melds(s)[1] == f"[JK→A♥ {HEARTS_2_TO_K} A♥]"
    # R-S40-54: the low-ace joker of the 14 cannot be swapped by the other A♥.
    assert table.reason(s, table.swap(0, "A♥", 2)) == "TWO_NATURAL_ACES"


def test_r_s40_25_with_v22_13_a_whole_suit_takes_no_joker_ace(table):
    s = table.build(
        hands={0: "JK A♥ K♠ 2♦"},
        melds=[MINE, f"[{HEARTS_2_TO_K}]"],
        options={"max_sequence_length": 13},
    )
    s = table.ok(s, table.lay(s, 0, "A♥", 2, "high"))
    assert table.melds(s)[1] == f"[{HEARTS_2_TO_K} A♥]"
    assert table.reason(s, table.lay(s, 0, "JK", 2, "low")) == "SEQUENCE_TOO_LONG"


def test_r_s40_40_a_joker_high_ace_counts_11_and_a_low_ace_1_in_the_opening(table):
    hand = {0: "Q♥ K♥ JK 3♣ 4♣ 5♣ 9♦ 2♠"}
    s = table.build(hands=hand)
    s = table.ok(s, table.open(s, 0, "[Q♥ K♥ JK→A♥]", "[3♣ 4♣ 5♣]"))
    assert table.events[0].points == 31 + 12
    s = table.build(hands={0: "2♥ 3♥ JK K♠ K♦ K♣ 9♦ 2♠"})
    move = table.open(s, 0, "[JK→A♥ 2♥ 3♥]", "[K♠ K♦ K♣]")
    assert table.reason(s, move) == "OPENING_BELOW_40"  # 6 + 30 = 36


# -- melds and jokers (R-S40-20, -21, -27, -28) ------------------------------------------


def test_r_s40_20_a_set_of_four_takes_nothing_more(table):
    s = table.build(hands={0: "7♦ JK K♠ 2♦"}, melds=[MINE, "[7♣ 7♦ 7♥ 7♠]"])
    assert table.reason(s, table.lay(s, 0, "7♦", 2)) == "LAY_OFF_DOES_NOT_FIT"
    assert table.reason(s, table.lay(s, 0, "JK", 2, joker_as="7♦")) == "LAY_OFF_DOES_NOT_FIT"
    assert not [m for m in table.legal(s) if m.startswith("LAY") and " ON 2" in m]


def test_r_s40_21_a_second_set_of_a_rank_on_the_table_is_legal(table):
    s = table.build(hands={0: "7♣ 7♦ 7♠ K♠"}, melds=[MINE, "[7♣ 7♦ 7♥]"])
    s = table.ok(s, table.meld(s, 0, "[7♣ 7♦ 7♠]"))
    assert table.melds(s)[1:] == ["[7♣ 7♦ 7♥]", "[7♣ 7♦ 7♠]"]


def test_r_s40_27_unlimited_jokers_still_need_a_natural(table):
    hand = {0: "JK JK JK 7♥ K♠ 2♦"}
    s = table.build(hands=hand, melds=[MINE])
    two = table.meld(s, 0, "[JK→5♥ JK→6♥ 7♥]")
    assert table.reason(s, two) == "TOO_MANY_JOKERS"
    s = table.build(hands=hand, melds=[MINE], options={"max_jokers_per_meld": "UNLIMITED"})
    after = table.ok(s, two)
    assert table.melds(after)[1] == "[JK→5♥ JK→6♥ 7♥]"
    assert table.events[0].points == 18
    only_jokers = table.meld(s, 0, "[JK→5♥ JK→6♥ JK→7♥]")
    assert table.reason(s, only_jokers) == "MELD_WITHOUT_NATURAL"


def test_r_s40_28_a_four_card_set_forces_its_jokers_identity(table):
    s = table.build(hands={0: "7♣ 7♦ 7♥ JK K♠"}, melds=[MINE])
    assert table.reason(s, table.meld(s, 0, "[7♣ 7♦ 7♥ JK→7♥]")) == "SET_SUITS_MUST_DIFFER"
    s = table.ok(s, table.meld(s, 0, "[7♣ 7♦ 7♥ JK→7♠]"))
    assert table.events[0].points == 28


def test_r_s40_50_a_declared_set_joker_is_swapped_only_by_its_suit(table):
    s = table.build(hands={0: "7♦ 7♥ K♠ 2♦"}, melds=[MINE, "[7♣ 7♠ JK→7♥]"])
    assert table.reason(s, table.swap(0, "7♦", 2)) == "SWAP_CARD_IS_NOT_THE_JOKER"
    # 7♥ is the joker's card: a swap, never a lay-off (§1.8).
    assert table.reason(s, table.lay(s, 0, "7♥", 2)) == "LAY_OFF_DOES_NOT_FIT"
    after = table.ok(s, table.lay(s, 0, "7♦", 2))
    assert table.melds(after)[1] == "[7♣ 7♦ 7♠ JK→7♥]"
    after = table.ok(s, table.swap(0, "7♥", 2))
    assert table.melds(after)[1] == "[7♣ 7♥ 7♠]"
    assert table.hand(after, 0) == table.bag("7♦ K♠ 2♦ JK")


# -- "playable" cards and the discard bans (§1.10, D2–D5, A-S40-07/08) -------------------


def test_d2_a_second_natural_ace_is_not_playable_on_a_whole_suit(table):
    s = table.build(hands={0: "A♥ 9♣ 2♦"}, melds=[f"[{WHOLE_HEARTS}]"])
    s = table.ok(s, table.discard(s, 0, "A♥"))
    assert table.top(s) == "A♥"


def test_d2_a_king_does_not_extend_a_low_ace_sequence(table):
    s = table.build(hands={0: "K♥ 4♥ 9♣"}, melds=["[A♥ 2♥ 3♥]"])
    assert table.reason(s, table.discard(s, 0, "4♥")) == "DISCARD_PLAYABLE_UNOPENED"
    table.ok(s, table.discard(s, 0, "K♥"))


def test_d2_the_other_missing_suit_of_a_declared_set_is_playable_not_the_jokers(table):
    s = table.build(hands={0: "7♥ 7♦ 9♣"}, melds=["[7♣ 7♠ JK→7♥]"])
    assert table.reason(s, table.discard(s, 0, "7♦")) == "DISCARD_PLAYABLE_UNOPENED"
    table.ok(s, table.discard(s, 0, "7♥"))  # only a swap (A-S40-07)


def test_d2_v17_off_either_missing_suit_of_an_undeclared_set_is_playable(table):
    s = table.build(
        hands={0: "7♥ 7♦ 9♣"},
        melds=["[7♣ 7♠ JK]"],
        options={"declare_ambiguous_joker": False},
    )
    assert table.reason(s, table.discard(s, 0, "7♥")) == "DISCARD_PLAYABLE_UNOPENED"
    assert table.reason(s, table.discard(s, 0, "7♦")) == "DISCARD_PLAYABLE_UNOPENED"
    table.ok(s, table.discard(s, 0, "9♣"))


@pytest.mark.parametrize(
    ("options", "result"),
    [
        ({}, "DISCARD_PLAYABLE_UNOPENED"),  # the joker is the 14th card, the second ace
        ({"max_sequence_length": 13}, "ACCEPTED"),
    ],
)
def test_d2_a_joker_is_playable_as_the_second_ace_of_a_whole_suit(table, options, result):
    s = table.build(
        hands={0: "JK 9♣ 2♦"},
        melds=[f"[{WHOLE_HEARTS}]"],
        options={"joker_discard": "ANY", **options},
    )
    assert table.reason(s, table.discard(s, 0, "JK")) == result


@pytest.mark.parametrize(
    ("jokers", "result"),
    [("ONE", "ACCEPTED"), ("UNLIMITED", "DISCARD_PLAYABLE_UNOPENED")],
)
def test_d2_a_joker_needs_a_meld_with_room_for_a_joker(table, jokers, result):
    s = table.build(
        hands={0: "JK 9♣ 2♦"},
        melds=["[7♣ 7♦ 7♥ 7♠]", "[5♥ JK→6♥ 7♥]"],
        options={"joker_discard": "ANY", "max_jokers_per_meld": jokers},
    )
    assert table.reason(s, table.discard(s, 0, "JK")) == result


def test_d3_an_opening_this_turn_makes_the_opened_ban_apply(table):
    layout = {
        "hands": {0: "K♠ K♥ K♦ Q♣ Q♦ Q♥ 7♦ 9♠"},
        "melds": ["[4♦ 5♦ 6♦]"],
    }
    s = table.build(3, **layout)
    s = table.ok(s, table.open(s, 0, "[K♠ K♥ K♦]", "[Q♣ Q♦ Q♥]"))
    assert table.reason(s, table.discard(s, 0, "7♦")) == "DISCARD_PLAYABLE_OPENED"
    s = table.build(2, **layout)
    s = table.ok(s, table.open(s, 0, "[K♠ K♥ K♦]", "[Q♣ Q♦ Q♥]"))
    table.ok(s, table.discard(s, 0, "7♦"))  # heads-up: D3 does not apply


def test_a_s40_08_the_fallback_lifts_d3_and_d5_for_an_opened_player(table):
    s = table.build(3, hands={0: "7♦ JK"}, melds=[MINE, "[4♦ 5♦ 6♦]"])
    discards = [m for m in table.legal(s) if m.startswith("DISCARD")]
    assert discards == ["DISCARD 7D", "DISCARD RJ"]
    table.ok(s, table.discard(s, 0, "JK"))
    table.ok(s, table.discard(s, 0, "7♦"))


def test_c_s40_2_a_kept_card_stays_barred_and_the_fallback_lifts_d3(table):
    s = table.build(
        3,
        hands={0: "7♦"},
        melds=[MINE, "[4♦ 5♦ 6♦]"],
        phase="DRAW",
        top="9♣",
        options={"discard_pickup_keep": True},
    )
    s = table.ok(s, table.take(0))
    assert table.reason(s, table.discard(s, 0, "9♣")) == "DISCARD_OF_KEPT_CARD"
    s = table.ok(s, table.discard(s, 0, "7♦"))
    assert table.hand(s, 0) == table.bag("9♣")


def test_d5_pagat_an_opened_player_discards_a_joker_mid_hand(table):
    layout = {"hands": {0: "JK K♠ 2♦"}, "melds": [MINE]}
    s = table.build(3, **layout, preset="pagat")
    s = table.ok(s, table.discard(s, 0, "JK"))
    assert table.top(s) == "JK"
    s = table.build(3, **layout)
    assert table.reason(s, table.discard(s, 0, "JK")) == "DISCARD_JOKER"


# -- the discard pile (R-S40-11, C-S40-1) --------------------------------------------------


def test_r_s40_11_the_taken_card_may_go_into_a_new_meld(table):
    s = table.build(hands={0: "5♥ 6♥ K♠ 2♦"}, melds=[MINE], phase="DRAW", top="7♥")
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥]"))
    s = table.ok(s, table.discard(s, 0, "2♦"))
    assert table.hand(s, 0) == table.bag("K♠")


def test_c_s40_1_a_take_placeable_after_another_lay_off_is_legal(table):
    layout = {"melds": [MINE, "[7♥ 8♥ 9♥]"], "phase": "DRAW", "top": "5♥"}
    s = table.build(hands={0: "6♥ K♠"}, **layout)
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.lay(s, 0, "6♥", 2, "low"))
    s = table.ok(s, table.lay(s, 0, "5♥", 2, "low"))
    s = table.ok(s, table.discard(s, 0, "K♠"))
    assert table.melds(s)[1] == "[5♥ 6♥ 7♥ 8♥ 9♥]"
    # With only the 6♥ in hand, placing both would leave nothing to discard.
    s = table.build(hands={0: "6♥"}, **layout)
    assert table.reason(s, table.take(0)) == "TAKEN_CARD_CANNOT_BE_PLACED"


def test_v11_only_in_the_first_players_first_turn(table):
    options = {"first_player_may_take_upcard": True}
    s = table.build(hands={0: "2♣ 7♥ 9♠"}, phase="DRAW", top="K♠", turn=2, dealer=2,
                    options=options)  # fmt: skip
    assert table.reason(s, table.take(0)) == "TAKE_DISCARD_NEEDS_OPENED"


def test_v11_with_v6_the_first_player_keeps_the_upcard_without_opening(table):
    options = {"first_player_may_take_upcard": True, "discard_pickup_for_opening": True}
    s = table.build(
        hands={0: "2♣ 7♥ 9♠ 4♦"}, phase="DRAW", top="K♠", turn=1, dealer=2, options=options
    )
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.discard(s, 0, "9♠"))
    assert table.hand(s, 0) == table.bag("2♣ 7♥ 4♦ K♠")
    assert not table.opened(s, 0)


def test_v6_the_taken_card_in_an_opening_below_40_that_closes_in_hand(table):
    s = table.build(
        hands={0: "A♣ 2♣ 2♥ 2♠ 2♦ K♥"},
        melds=[(1, "[9♣ 10♣ J♣]")],
        phase="DRAW",
        top="3♣",
        options={"discard_pickup_for_opening": True, "close_in_hand_doubles": True},
    )
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]"))
    assert table.events[-1].points == 12
    s = table.ok(s, table.discard(s, 0, "K♥"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert [e.scala40.in_hand for e in table.events if e.HasField("scala40")] == [True]


# -- opening, closing (R-S40-40..45, R-S40-70..72, C-S40-3) ------------------------------


def test_r_s40_40_after_opening_the_seat_lays_off_and_swaps_in_the_same_turn(table):
    s = table.build(
        hands={0: "K♠ K♥ K♦ Q♣ Q♦ Q♥ 7♦ 6♠ 9♣ 2♥"},
        melds=["[4♦ 5♦ 6♦]", "[5♠ JK→6♠ 7♠]"],
    )
    assert table.reason(s, table.lay(s, 0, "7♦", 1, "high")) == "MUST_OPEN_FIRST"
    s = table.ok(s, table.open(s, 0, "[K♠ K♥ K♦]", "[Q♣ Q♦ Q♥]"))
    s = table.ok(s, table.lay(s, 0, "7♦", 1, "high"))
    s = table.ok(s, table.swap(0, "6♠", 2))
    s = table.ok(s, table.discard(s, 0, "9♣"))
    assert table.hand(s, 0) == table.bag("2♥ JK")


def test_r_s40_40_lay_offs_never_count_toward_the_40(table):
    s = table.build(hands={0: "Q♣ Q♦ Q♥ 7♦ 8♦ 9♦ 2♥"}, melds=["[4♦ 5♦ 6♦]"])
    # 30 from the hand; 7♦ 8♦ 9♦ would only be lay-offs after it.
    assert table.reason(s, table.open(s, 0, "[Q♣ Q♦ Q♥]")) == "OPENING_BELOW_40"
    s = table.ok(s, table.open(s, 0, "[Q♣ Q♦ Q♥]", "[7♦ 8♦ 9♦]"))  # 30 + 24
    assert table.events[0].points == 54


def test_r_s40_41_after_an_opening_below_40_only_the_closing_discard_remains(table):
    s = table.build(hands={0: "A♣ 2♣ 3♣ 2♥ 2♠ 2♦ 7♦"}, melds=["[4♦ 5♦ 6♦]"])
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]"))
    assert table.reason(s, table.lay(s, 0, "7♦", 1, "high")) == "MUST_CLOSE_NOW"
    assert table.legal(s) == ["DISCARD 7D"]
    s = table.ok(s, table.discard(s, 0, "7♦"))  # playable, but closing (D4 off)
    assert table.match_phase(s) == "DEAL_OVER"


def test_r_s40_71_a_lay_off_down_to_one_card_in_the_first_turn_is_refused(table):
    s = table.build(hands={0: "K♠ K♥ K♦ Q♣ Q♦ Q♥ 7♦ 9♣"}, melds=["[4♦ 5♦ 6♦]"], turn=1, dealer=2)
    s = table.ok(s, table.open(s, 0, "[K♠ K♥ K♦]", "[Q♣ Q♦ Q♥]"))
    assert table.reason(s, table.lay(s, 0, "7♦", 1, "high")) == "NO_CLOSE_IN_FIRST_TURN"
    s = table.ok(s, table.discard(s, 0, "9♣"))
    assert table.hand(s, 0) == table.bag("7♦")


def test_r_s40_72_opening_then_laying_off_then_closing_is_a_close_in_hand(table):
    s = table.build(
        hands={0: "K♠ K♥ K♦ Q♣ Q♦ Q♥ 7♦ 3♣", 1: "7♣ 8♦"},
        melds=[(1, "[4♦ 5♦ 6♦]")],
        options={"close_in_hand_doubles": True},
    )
    s = table.ok(s, table.open(s, 0, "[K♠ K♥ K♦]", "[Q♣ Q♦ Q♥]"))
    s = table.ok(s, table.lay(s, 0, "7♦", 1, "high"))
    s = table.ok(s, table.discard(s, 0, "3♣"))
    assert [e.scala40.in_hand for e in table.events if e.HasField("scala40")] == [True]
    assert table.deal_points(s)[:2] == [0, 30]


def test_r_s40_72_a_close_by_a_seat_opened_earlier_is_not_doubled(table):
    s = table.build(
        hands={0: "Q♣", 1: "7♣ 8♦"},
        melds=[MINE, (1, "[4♦ 5♦ 6♦]")],
        options={"close_in_hand_doubles": True},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert [e.scala40.in_hand for e in table.events if e.HasField("scala40")] == [False]
    assert table.deal_points(s)[:2] == [0, 15]


def test_v12_an_opening_of_the_whole_hand_below_40_closes_in_hand(table):
    s = table.build(
        hands={0: "A♣ 2♣ 3♣ 2♥ 2♠ 2♦", 1: "7♣ 8♦"},
        melds=[(1, "[9♣ 10♣ J♣]")],
        options={"close_without_discard": True, "close_in_hand_doubles": True},
    )
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert list(s.match.deal_winners) == [0]
    assert table.deal_points(s)[:2] == [0, 30]


def test_v12_a_lay_off_of_the_last_card_closes_but_not_in_the_first_turn(table):
    options = {"close_without_discard": True}
    s = table.build(hands={0: "7♦"}, melds=[MINE, "[4♦ 5♦ 6♦]"], options=options)
    s = table.ok(s, table.lay(s, 0, "7♦", 2, "high"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert list(s.match.deal_winners) == [0]
    first = {"melds": ["[4♦ 5♦ 6♦]"], "turn": 1, "dealer": 2, "options": options}
    # C-S40-3: an opening that leaves one card in the first turn, as by default.
    s = table.build(hands={0: "K♠ K♥ K♦ Q♣ Q♦ Q♥ 7♦"}, **first)
    move = table.open(s, 0, "[K♠ K♥ K♦]", "[Q♣ Q♦ Q♥]")
    assert table.reason(s, move) == "NO_CLOSE_IN_FIRST_TURN"
    s = table.build(hands={0: "K♠ K♥ K♦ Q♣ Q♦ Q♥ 7♦ 8♦"}, **first)
    s = table.ok(s, table.open(s, 0, "[K♠ K♥ K♦]", "[Q♣ Q♦ Q♥]"))
    assert table.reason(s, table.lay(s, 0, "7♦", 1, "high")) == "NO_CLOSE_IN_FIRST_TURN"


# -- V13, V14 ------------------------------------------------------------------------------


def test_v13_a_natural_quad_counts_for_the_opening_and_leaves_the_table(table):
    s = table.build(
        hands={0: "8♣ 8♦ 8♥ 8♠ 9♥ 10♥ J♥ K♠ 2♦"},
        top="3♣",
        options={"quads_to_discard_pile": True},
    )
    s = table.ok(s, table.open(s, 0, "[8♣ 8♦ 8♥ 8♠]", "[9♥ 10♥ J♥]"))
    assert table.events[0].points == 32 + 29
    assert table.opened(s, 0)
    assert table.melds(s) == ["[9♥ 10♥ J♥]"]
    assert table.pile(s)[-5:] == ["3♣", "8♣", "8♦", "8♥", "8♠"]


def test_v13_a_quad_in_the_emptied_pile_comes_back_through_r_s40_91(table):
    melds = ["[8♣ 8♦ 8♥]"]
    for suit in "♠♣♦♥":
        melds.append("[" + " ".join(r + suit for r in WHOLE_HEARTS.replace("♥", "").split()) + "]")
    melds += [
        "[A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠]",
        "[9♠ 10♠ J♠ Q♠ K♠]",
        "[A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣]",
        "[9♣ 10♣ J♣ Q♣]",
        "[2♦ 3♦ 4♦ 5♦ 6♦ 7♦]",
        "[9♦ 10♦ J♦ Q♦ K♦]",
        "[A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥]",
        "[10♥ J♥ Q♥ K♥]",
    ]
    s = table.build(
        hands={0: "8♠ A♦ 9♥", 1: "JK JK", 2: "JK JK"},
        melds=melds,
        opened=[0],
        phase="DRAW",
        stock="K♣",
        discard="",
        dealer=2,
        options={"quads_to_discard_pile": True},
    )
    s = table.ok(s, table.draw(0))
    assert table.stock_size(s) == 0  # the pile was empty: nothing to turn over
    s = table.ok(s, table.lay(s, 0, "8♠", 1))
    assert table.pile(s) == ["8♣", "8♦", "8♥", "8♠"]
    s = table.ok(s, table.discard(s, 0, "K♣"))
    # Seat 1 begins with no stock: the pile less its top becomes the stock.
    assert s.current_seat == 1
    assert table.phase(s) == "DRAW"
    assert table.pile(s) == ["K♣"]
    assert table.stock_size(s) == 4
    assert sorted(table.text(v) for v in s.scala40.stock) == sorted(["8♣", "8♦", "8♥", "8♠"])


def test_v14_lay_offs_up_to_five_cards_are_plain_and_new_melds_stop_at_five(table):
    options = {"sequence_split_max5": True}
    s = table.build(
        hands={0: "9♣ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ K♠"},
        melds=[MINE, "[5♣ 6♣ 7♣ 8♣]"],
        options=options,
    )
    after = table.ok(s, table.lay(s, 0, "9♣", 2, "high"))
    assert table.melds(after)[1] == "[5♣ 6♣ 7♣ 8♣ 9♣]"
    assert table.reason(s, table.meld(s, 0, "[5♥ 6♥ 7♥ 8♥ 9♥ 10♥]")) == "SEQUENCE_TOO_LONG"
    table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥ 8♥ 9♥]"))


# -- scoring and the match (R-S40-80, -100..102, V3, V4, V5, V9, V18) -----------------------


def test_r_s40_80_v5_court_penalties_and_v9_flat_100_at_the_end_of_a_deal(table):
    s = table.build(
        hands={0: "Q♣", 1: "K♠ Q♦ J♣ A♥ JK 7♣", 2: "2♣ 3♦"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]")],
        options={"court_values_11_14": True, "unopened_flat_penalty_100": True},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.deal_points(s) == [0, 13 + 12 + 11 + 14 + 14 + 7, 100]


def test_r_s40_101_two_seats_out_in_one_deal_the_closer_wins(table):
    s = table.build(
        hands={0: "Q♣", 1: "A♠", 2: "K♣"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]"), (2, "[5♦ 6♦ 7♦]")],
        scores=[150, 145, 141],
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.scores(s) == [150, 156, 151]
    assert table.eliminated(s) == [False, True, True]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0]


def test_r_s40_102_the_deal_passes_over_a_seat_just_eliminated(table):
    s = table.build(
        4,
        hands={1: "A♠", 2: "Q♣", 3: "2♣", 0: "3♣"},
        melds=[(2, "[2♠ 3♠ 4♠]"), (1, "[9♥ 10♥ J♥]")],
        current=2,
        dealer=0,
        scores=[10, 145, 20, 30],
    )
    s = table.ok(s, table.discard(s, 2, "Q♣"))
    assert table.eliminated(s) == [False, True, False, False]
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s) == [3, 11, 0, 2]
    s = table.next_deal(s)
    assert s.scala40.dealer == 2  # seat 1, next to the old dealer, is out
    assert s.current_seat == 3
    assert len(s.scala40.hands[1].cards) == 0
    assert [len(s.scala40.hands[x].cards) for x in (0, 2, 3)] == [13, 13, 13]


def test_r_s40_80_a_seat_already_out_scores_nothing(table):
    s = table.build(
        4,
        hands={0: "Q♣", 1: "A♠", 2: "5♣"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]")],
        eliminated=[3],
        scores=[0, 10, 10, 160],
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.deal_points(s) == [0, 11, 5, 0]
    assert table.scores(s) == [0, 21, 15, 160]


def test_v3_re_entry_at_the_highest_score_below_the_threshold(table):
    s = table.build(
        4,
        hands={0: "Q♣", 1: "A♠", 2: "2♣", 3: "3♣"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]"), (2, "[5♦ 6♦ 7♦]"), (3, "[8♠ 9♠ 10♠]")],
        scores=[100, 145, 30, 148],
        options={"reentry": True},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    # 156 and 151 are at or over 151; 100 (the closer) is the highest below.
    assert table.scores(s) == [100, 100, 32, 100]
    assert table.eliminated(s) == [False] * 4
    assert table.match_phase(s) == "DEAL_OVER"


@pytest.mark.parametrize(
    ("before", "over"), [(1494, True), (1493, False)], ids=["reaches", "short"]
)
def test_v4_the_match_stops_when_the_highest_reaches_the_target(table, before, over):
    s = table.build(
        hands={0: "Q♣", 1: "6♣", 2: "2♣"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]"), (2, "[5♦ 6♦ 7♦]")],
        scores=[900, before, 700],
        options={"match_mode": "NO_ELIMINATION", "no_elimination_target": 1500},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.scores(s) == [900, before + 6, 702]
    assert table.eliminated(s) == [False] * 3
    if over:
        assert table.match_phase(s) == "MATCH_OVER"
        assert table.winners(s) == [2]
    else:
        assert table.match_phase(s) == "DEAL_OVER"


def test_v18_single_deal_the_closers_team_wins(table):
    s = table.build(
        4,
        hands={1: "Q♣", 0: "A♠", 2: "3♣", 3: "2♣"},
        melds=[(1, "[2♠ 3♠ 4♠]")],
        current=1,
        options={"teams": "PAIRS", "match_mode": "SINGLE_DEAL"},
    )
    s = table.ok(s, table.discard(s, 1, "Q♣"))
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [1, 3]
    assert table.scores(s) == [0, 0, 0, 0]


# -- more meld validity, V6 in a first turn, V19, heads-up re-entry ------------------------


def test_r_s40_20_and_r_s40_22_malformed_melds_name_their_fault(table):
    s = table.build(
        hands={0: "9♥ 9♣ 9♣ 5♥ 7♥ 8♥ JK K♠"},
        melds=[MINE],
        options={"max_jokers_per_meld": "UNLIMITED"},
    )
    assert table.reason(s, table.meld(s, 0, "[9♥ 9♣ 9♣]")) == "SET_SUITS_MUST_DIFFER"
    assert table.reason(s, table.meld(s, 0, "[5♥ 7♥ 8♥]")) == "SEQUENCE_NOT_CONSECUTIVE"
    assert table.reason(s, table.meld(s, 0, "[7♥ 8♥]")) == "MELD_TOO_SHORT"
    # R-S40-28: the joker stands for the card of its place (6♥), not another.
    assert table.reason(s, table.meld(s, 0, "[5♥ JK→8♥ 7♥]")) == "JOKER_IDENTITY_DOES_NOT_FIT"
    table.ok(s, table.meld(s, 0, "[5♥ JK→6♥ 7♥ 8♥]"))


def test_r_s40_26_an_identical_sequence_may_be_laid_again(table):
    s = table.build(hands={0: "5♥ 6♥ 7♥ K♠"}, melds=[MINE, "[5♥ 6♥ 7♥]"])
    s = table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥]"))
    assert table.melds(s)[1:] == ["[5♥ 6♥ 7♥]", "[5♥ 6♥ 7♥]"]


@pytest.mark.parametrize(("extra", "result"), [("K♠ 2♦", "ACCEPTED"), ("K♠", "REFUSED")])
def test_v6_in_a_first_turn_the_opening_must_leave_two_cards(table, extra, result):
    s = table.build(
        hands={0: f"5♥ 5♦ 10♣ J♣ Q♣ {extra}"},
        phase="DRAW",
        top="5♠",
        turn=1,
        dealer=2,
        options={"discard_pickup_for_opening": True},
    )
    if result == "REFUSED":
        assert table.reason(s, table.take(0)) == "TAKEN_CARD_CANNOT_BE_PLACED"
        return
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.open(s, 0, "[5♠ 5♥ 5♦]", "[10♣ J♣ Q♣]"))
    s = table.ok(s, table.discard(s, 0, "2♦"))
    assert table.hand(s, 0) == table.bag("K♠")


def test_v19_the_retrieved_joker_may_go_into_a_new_meld(table):
    s = table.build(
        hands={0: "6♠ 9♦ 10♦ K♠ 2♣"},
        melds=[MINE, "[5♠ JK→6♠ 7♠]"],
        options={"retrieved_joker_must_be_used": True},
    )
    s = table.ok(s, table.swap(0, "6♠", 2))
    assert table.reason(s, table.discard(s, 0, "2♣")) == "RETRIEVED_JOKER_NOT_USED"
    s = table.ok(s, table.meld(s, 0, "[9♦ 10♦ JK→J♦]"))
    s = table.ok(s, table.discard(s, 0, "2♣"))
    assert table.hand(s, 0) == table.bag("K♠")


def test_v3_heads_up_re_entry_needs_two_below_so_the_closer_wins(table):
    s = table.build(
        2,
        hands={0: "Q♣", 1: "A♠"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]")],
        scores=[60, 145],
        options={"reentry": True},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.scores(s) == [60, 156]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0]


def test_v2_threshold_201(table):
    layout = {
        "hands": {0: "Q♣", 1: "A♠"},
        "melds": [MINE, (2, "[9♥ 10♥ J♥]")],
        "options": {"elimination_threshold": 201},
    }
    s = table.build(**layout, scores=[0, 189, 0])
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.scores(s)[1] == 200
    assert not table.eliminated(s)[1]
    s = table.build(**layout, scores=[0, 190, 0])
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.scores(s)[1] == 201
    assert table.eliminated(s)[1]


def test_r_s40_23_a_sequence_does_not_wrap_past_a_high_ace(table):
    s = table.build(hands={0: "Q♥ K♥ A♥ JK K♠"}, melds=[MINE])
    move = table.meld(s, 0, "[Q♥ K♥ A♥ JK→2♥]")
    assert table.reason(s, move) == "ACE_IN_MIDDLE_OF_SEQUENCE"


def test_r_s40_52_a_swapped_joker_in_an_opening_below_40_that_closes_in_hand(table):
    s = table.build(
        hands={0: "6♠ A♣ 2♣ 2♥ 2♠ 2♦ K♦"},
        melds=["[5♠ JK→6♠ 7♠]"],
        options={"joker_swap_for_opening": True},
    )
    s = table.ok(s, table.swap(0, "6♠", 1))
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ JK→3♣]", "[2♥ 2♠ 2♦]"))
    assert table.events[-1].points == 12
    assert table.legal(s) == ["DISCARD KD"]
    s = table.ok(s, table.discard(s, 0, "K♦"))
    assert table.match_phase(s) == "DEAL_OVER"


def test_v6_with_v16_the_taken_card_and_the_swapped_joker_open_together(table):
    s = table.build(
        hands={0: "6♠ K♥ K♦ Q♣ Q♦ 9♥ 2♣"},
        melds=["[5♠ JK→6♠ 7♠]"],
        phase="DRAW",
        top="Q♥",
        options={"joker_swap_for_opening": True, "discard_pickup_for_opening": True},
    )
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.swap(0, "6♠", 1))
    s = table.ok(s, table.open(s, 0, "[K♥ K♦ JK→K♣]", "[Q♣ Q♦ Q♥]"))
    assert table.events[-1].points == 60
    s = table.ok(s, table.discard(s, 0, "2♣"))
    assert table.hand(s, 0) == table.bag("9♥")


def test_r_s40_91_a_void_deal_in_single_deal_mode_is_dealt_again(table):
    s = table.build(
        hands={0: "K♠ A♦ K♥", 1: "JK JK", 2: "JK JK"},
        melds=all_but_eight_cards_melded(),
        phase="DRAW",
        stock="K♣",
        discard="",
        dealer=2,
        options={"match_mode": "SINGLE_DEAL"},
    )
    s = table.ok(s, table.draw(0))
    s = table.ok(s, table.discard(s, 0, "A♦"))
    assert table.rule_events() == ["DEAL_VOID"]
    assert table.match_phase(s) == "DEAL_OVER"  # nobody won: not the match's end
    assert table.winners(s) == []
    s = table.next_deal(s)
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert s.scala40.dealer == 0


def test_r_s40_05_a_new_deal_starts_left_of_the_dealer_with_a_natural_upcard(table):
    for seed in range(5):
        s = table.new(4, seed=seed)
        assert s.current_seat == (s.scala40.dealer + 1) % 4
        assert [len(h.cards) for h in s.scala40.hands] == [13] * 4
        assert table.pile(s) != ["JK"] and len(table.pile(s)) == 1
        assert table.stock_size(s) == 108 - 52 - 1
        assert table.phase(s) == "DRAW"


# -- seats, the deal, what an unopened seat may do, the table's melds ------------------------------


@pytest.mark.parametrize("seats", [1, 7])
def test_r_s40_02_fewer_than_two_or_more_than_six_seats_are_refused(table, seats):
    with pytest.raises(InvalidInput):
        table.new(seats)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_r_s40_02_two_to_six_seats_each_for_himself(table, seats):
    s = table.new(seats)
    assert [seat.team for seat in s.seats] == [0] * seats  # no partners without V18
    # Each seat pays its own hand (R-S40-80), nobody else's.
    hands = {0: "K♠", 1: "5♥ 9♣ Q♦", 2: "A♠ 3♦ 3♣"}
    s = table.build(3, hands=hands, melds=[MINE], top="9♦")
    s = table.ok(s, table.discard(s, 0, "K♠"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s) == [0, 5 + 9 + 10, 11 + 3 + 3]
    assert table.scores(s) == [0, 24, 17]


@pytest.mark.parametrize(("seats", "current"), [(3, 0), (4, 1), (4, 3), (6, 5)])
def test_r_s40_03_play_goes_clockwise_in_seat_order(table, seats, current):
    s = table.build(seats, hands={current: "K♠ 9♦ 2♣"}, current=current, top="5♥")
    nxt = (current + 1) % seats
    before = s.scala40.turns_started[nxt]
    s = table.ok(s, table.discard(s, current, "K♠"))
    assert (s.current_seat, table.phase(s)) == (nxt, "DRAW")
    assert s.scala40.turns_started[nxt] == before + 1
    assert list(s.acting_seats) == [nxt]
    # The deal too: the seat left of the dealer plays first.
    dealt = table.new(seats, seed=seats + current)
    assert dealt.current_seat == (dealt.scala40.dealer + 1) % seats


@pytest.mark.parametrize(("seats", "preset"), [(2, "fisc"), (6, "fisc"), (4, "pagat")])
def test_r_s40_06_the_next_card_starts_the_pile_and_the_rest_is_the_stock_top_first(
    table, seats, preset
):
    s = table.new(seats, preset=preset)
    game = s.scala40
    assert len(game.discard) == 1
    assert len(game.stock) == 108 - 13 * seats - 1
    everything = [*game.discard, *game.stock, *(v for h in game.hands for v in h.cards)]
    assert Counter(everything) == Counter(cards.double_pack_108())
    stock = list(game.stock)
    seat = s.current_seat
    held = table.hand(s, seat)
    s = table.ok(s, table.draw(seat))  # the top card first
    assert s.scala40.drawn_card == stock[0]
    assert table.hand(s, seat) == held + Counter([text_of(stock[0])])
    assert list(s.scala40.stock) == stock[1:]


def test_r_s40_43_an_unopened_seat_may_not_meld_lay_off_or_swap(table):
    layout = {
        "hands": {0: "K♠ K♦ K♣ Q♠ Q♦ 8♠ 10♥ 2♣ 4♦"},
        "melds": ["[5♠ 6♠ 7♠]", "[9♥ JK→10♥ J♥]"],
        "top": "6♣",
    }
    s = table.build(**layout)
    assert not table.opened(s, 0)
    for move in (
        table.meld(s, 0, "[K♠ K♦ K♣]"),
        table.lay(s, 0, "8♠", 1, "high"),
        table.swap(0, "10♥", 2),
    ):
        rejection = table.rejection(s, move)
        assert (reason_name(rejection), rejection.rule) == ("MUST_OPEN_FIRST", "R-S40-43")
    assert not [m for m in table.legal(s) if m.split()[0] in ("MELD", "LAY", "SWAP")]
    # V16's swap is the exception: the joker goes into this turn's opening.
    s = table.build(**layout, options={"joker_swap_for_opening": True})
    rejection = table.rejection(s, table.lay(s, 0, "8♠", 1, "high"))
    assert (reason_name(rejection), rejection.rule) == ("MUST_OPEN_FIRST", "R-S40-43")
    s = table.ok(s, table.swap(0, "10♥", 2))
    assert table.melds(s)[1] == "[9♥ 10♥ J♥]"
    s = table.ok(s, table.open(s, 0, "[K♠ K♦ K♣]", "[Q♠ Q♦ JK→Q♥]"))
    assert table.opened(s, 0)
    assert table.hand(s, 0) == table.bag("8♠ 2♣ 4♦")


def test_r_s40_44_no_card_leaves_a_table_meld_but_a_swapped_joker_or_by_a_split(table):
    layout = {
        "hands": {0: "10♥ 6♥ 10♣ K♦ 3♦"},
        "melds": [MINE, "[5♥ 6♥ 7♥ 8♥ 9♥]", "[9♣ JK→10♣ J♣]"],
        "top": "6♣",
    }
    s = table.build(**layout)
    refused = {
        "MELD [8H 9H 10H]": (table.meld(s, 0, "[8♥ 9♥ 10♥]"), "CARD_NOT_IN_HAND", "§1.4"),
        "SWAP 6H ON 2": (table.swap(0, "6♥", 2), "SWAP_CARD_IS_NOT_THE_JOKER", "R-S40-50"),
        "SPLIT": (
            table.split(s, 0, 2, "[5♥ 6♥ 7♥]", "[8♥ 9♥ 10♥]"),
            "SPLIT_NOT_ALLOWED",
            "V14",
        ),
        "DISCARD 9H": (table.discard(s, 0, "9♥"), "CARD_NOT_IN_HAND", "§1.10"),
    }
    for text, (move, reason, rule) in refused.items():
        rejection = table.rejection(s, move)
        assert (reason_name(rejection), rejection.rule) == (reason, rule), text
    after = table.ok(s, table.swap(0, "10♣", 3))
    assert table.melds(after) == ["[2♠ 3♠ 4♠]", "[5♥ 6♥ 7♥ 8♥ 9♥]", "[9♣ 10♣ J♣]"]
    assert table.hand(after, 0) == table.bag("10♥ 6♥ K♦ 3♦ JK")
    s = table.build(**layout, options={"sequence_split_max5": True})
    s = table.ok(s, table.split(s, 0, 2, "[5♥ 6♥ 7♥]", "[8♥ 9♥ 10♥]"))
    by_id = dict(zip((m.id for m in s.scala40.melds), table.melds(s), strict=True))
    # The first part keeps the meld's id (V14), the second is a new meld.
    assert by_id == {1: "[2♠ 3♠ 4♠]", 2: "[5♥ 6♥ 7♥]", 3: "[9♣ JK→10♣ J♣]", 4: "[8♥ 9♥ 10♥]"}


def test_d6_under_v12_a_seat_whose_hand_is_empty_does_not_discard(table):
    layout = {"hands": {0: "7♦"}, "melds": [MINE, "[4♦ 5♦ 6♦]"], "top": "9♣"}
    s = table.build(**layout, options={"close_without_discard": True})
    s = table.ok(s, table.lay(s, 0, "7♦", 2, "high"))
    assert table.hand(s, 0) == Counter()
    assert table.pile(s) == ["9♣"]  # nothing was discarded
    assert table.match_phase(s) == "DEAL_OVER"
    assert "CLOSED" in table.rule_events()
    assert list(s.match.deal_winners) == [0] and table.deal_points(s)[0] == 0
    # Without V12 the lay-off of the last card is refused (R-S40-45).
    s = table.build(**layout)
    rejection = table.rejection(s, table.lay(s, 0, "7♦", 2, "high"))
    assert (reason_name(rejection), rejection.rule) == ("NO_CARD_LEFT_TO_DISCARD", "R-S40-45")
