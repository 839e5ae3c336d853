"""Every ambiguity of rummy_and_counting.md §1.17 (A-S40-*) and every
clarification of §1.19 (C-S40-*), pinned by a test of the resolution RULES.md
states. Where a §1.18 example already pins one, the test here names it and
plays the shortest position that shows the resolution."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.games.scala40.rules import rules_for
from croupier.games.scala40.scoring import hand_penalty
from croupier.v1 import service_pb2

from .conftest import all_but_eight_cards_melded, reason_name

MINE = (0, "[2♠ 3♠ 4♠]")
WHOLE_HEARTS = "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"


def test_a_s40_01_fisc_leaves_the_match_at_151_pagat_at_101(table):
    assert table.new(3).options.scala40.elimination_threshold == 151
    assert table.new(3, preset="pagat").options.scala40.elimination_threshold == 101


def test_a_s40_02_a_sequence_holds_14_cards_by_default_13_with_v22(table):
    layout = {"hands": {0: "JK K♠"}, "melds": [MINE, f"[{WHOLE_HEARTS}]"]}
    s = table.build(**layout)
    s = table.ok(s, table.lay(s, 0, "JK", 2, "high"))
    assert table.melds(s)[1] == f"[{WHOLE_HEARTS} JK→A♥]"
    s = table.build(**layout, options={"max_sequence_length": 13})
    assert table.reason(s, table.lay(s, 0, "JK", 2, "high")) == "SEQUENCE_TOO_LONG"


def test_a_s40_03_a_swapped_joker_may_stay_in_the_hand(table):
    s = table.build(hands={0: "6♠ K♠ 2♦"}, melds=[MINE, "[5♠ JK→6♠ 7♠]"])
    s = table.ok(s, table.swap(0, "6♠", 2))
    s = table.ok(s, table.discard(s, 0, "2♦"))
    assert table.hand(s, 0) == table.bag("K♠ JK")


def test_a_s40_04_an_unopened_player_does_not_take_the_discard_by_default(table):
    s = table.build(hands={0: "5♥ 5♦ 5♣ 8♥ 9♥ 10♥ K♠"}, phase="DRAW", top="5♠")
    assert table.reason(s, table.take(0)) == "TAKE_DISCARD_NEEDS_OPENED"
    assert table.legal(s) == ["DRAW"]


def test_a_s40_05_closing_in_hand_needs_no_40(table):
    s = table.build(hands={0: "A♣ 2♣ 3♣ 2♥ 2♠ 2♦ K♥"}, melds=["[9♣ 10♣ J♣]"])
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]"))  # 12, leaves one card
    s = table.ok(s, table.discard(s, 0, "K♥"))
    assert table.match_phase(s) == "DEAL_OVER"


def test_a_s40_05_an_opening_below_40_that_does_not_close_is_refused(table):
    s = table.build(hands={0: "A♣ 2♣ 3♣ 2♥ 2♠ 2♦ K♥ 9♦"}, melds=["[9♣ 10♣ J♣]"])
    move = table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]")
    assert table.reason(s, move) == "OPENING_BELOW_40"


def test_a_s40_06_the_discard_bans_default_to_the_pls_scheme(table):
    o = table.new(3).options.scala40
    assert o.forbid_playable_discard_unopened
    assert o.forbid_playable_discard_opened == 3  # IF_MORE_THAN_2_PLAYERS
    assert not o.forbid_playable_discard_closing
    # Closing with a playable card is allowed (D4 off).
    s = table.build(hands={0: "7♦"}, melds=[MINE, "[4♦ 5♦ 6♦]"])
    s = table.ok(s, table.discard(s, 0, "7♦"))
    assert table.match_phase(s) == "DEAL_OVER"


def test_a_s40_07_a_card_that_could_only_replace_a_joker_is_not_playable(table):
    s = table.build(hands={0: "6♥ K♠ 2♣"}, melds=["[JK→6♥ 7♥ 8♥]"])
    table.ok(s, table.discard(s, 0, "6♥"))


def test_a_s40_08_with_no_legal_discard_d2_to_d5_are_lifted(table):
    s = table.build(hands={0: "7♦ JK"}, melds=["[4♦ 5♦ 6♦]"])
    assert table.legal(s) == ["DISCARD 7D", "DISCARD RJ"]
    table.ok(s, table.discard(s, 0, "7♦"))


def test_a_s40_09_a_joker_is_discarded_only_to_close(table):
    s = table.build(hands={0: "JK K♠"}, melds=[MINE])
    assert table.reason(s, table.discard(s, 0, "JK")) == "DISCARD_JOKER"
    s = table.build(hands={0: "JK"}, melds=[MINE, "[A♦ A♣ A♥ A♠]"])
    s = table.ok(s, table.discard(s, 0, "JK"))
    assert table.match_phase(s) == "DEAL_OVER"


def test_a_s40_10_nothing_left_to_draw_voids_the_deal(table):
    # Every card but four is on the table: the stock's last card is drawn
    # while the discard pile is empty, so after the discard nothing is left.
    s = table.build(
        hands={0: "K♠ A♦ K♥", 1: "JK JK", 2: "JK JK"},
        melds=all_but_eight_cards_melded(),
        phase="DRAW",
        stock="K♣",
        discard="",
        dealer=2,
    )
    s = table.ok(s, table.draw(0))
    assert table.stock_size(s) == 0  # the discard pile was empty: nothing to turn over
    s = table.ok(s, table.discard(s, 0, "A♦"))
    assert table.rule_events() == ["DEAL_VOID"]
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s) == [0, 0, 0]
    assert list(s.match.deal_winners) == []
    s = table.next_deal(s)
    assert s.scala40.dealer == 0  # the next dealer deals again


def _stalemate(table, restocks):
    """Both seats opened; only full sets on the table; P holds a joker, which
    he may discard only to close, and draws the stock's last card."""
    melds = [(0, "[K♣ K♦ K♥ K♠]"), (1, "[Q♣ Q♦ Q♥ Q♠]")]
    s = table.build(2, hands={0: "JK", 1: "JK 9♦"}, melds=melds, phase="DRAW", stock="5♣")
    s.scala40.restocks_without_play = restocks
    return s


def test_k_s40_1_a_deal_whose_stock_keeps_turning_with_no_card_laid_is_void(table):
    s = table.ok(_stalemate(table, 2), table.draw(0))  # the third turn-over
    assert s.scala40.restocks_without_play == 3
    s = table.ok(s, table.discard(s, 0, "5♣"))
    assert table.rule_events() == ["DEAL_VOID"]
    assert "no card laid on the table" in table.events[-1].text
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s) == [0, 0]


def test_k_s40_1_a_card_laid_on_the_table_starts_the_count_again(table):
    s = table.build(hands={0: "8♥ K♠ 2♦"}, melds=[MINE, "[5♥ 6♥ 7♥]"], phase="PLAY", drawn="K♠")
    s.scala40.restocks_without_play = 2
    s = table.ok(s, table.lay(s, 0, "8♥", 2, "high"))
    assert s.scala40.restocks_without_play == 0


def test_a_s40_11_a_card_drawn_from_the_stock_may_be_discarded_at_once(table):
    s = table.build(hands={0: "9♥ 2♦"}, phase="DRAW", stock="K♠ …")
    s = table.ok(s, table.draw(0))
    table.ok(s, table.discard(s, 0, "K♠"))


def test_a_s40_12_the_taken_card_may_be_placed_by_a_joker_swap(table):
    # T-S40-34 plays it out; the take is listed because the swap completes it.
    s = table.build(hands={0: "K♣ 2♦"}, melds=[MINE, "[5♠ JK→6♠ 7♠]"], phase="DRAW", top="6♠")
    assert table.legal(s) == ["DRAW", "TAKE"]


def test_a_s40_13_closing_in_hand_doubles_the_flat_100_to_200(table):
    s = table.build(
        hands={0: "A♣ 2♣ 3♣ 2♥ 2♠ 2♦ K♥"},
        melds=[(1, "[9♣ 10♣ J♣]")],
        options={"close_in_hand_doubles": True, "unopened_flat_penalty_100": True},
    )
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]"))
    s = table.ok(s, table.discard(s, 0, "K♥"))
    assert table.deal_points(s)[2] == 200  # seat 2 never opened


TEAMS = {"teams": "PAIRS"}


def test_a_s40_14_a_team_scores_its_members_penalties_and_loses_at_the_threshold(table):
    s = table.build(
        4,
        hands={0: "Q♣", 1: "A♠", 2: "3♣", 3: "2♣"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]"), (2, "[5♦ 6♦ 7♦]"), (3, "[8♠ 9♠ 10♠]")],
        scores=[100, 140, 100, 140],
        options=TEAMS,
    )
    assert [seat.team for seat in s.seats] == [1, 2, 1, 2]
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.deal_points(s) == [0, 11, 3, 2]
    assert table.scores(s) == [103, 153, 103, 153]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0, 2]


def test_a_s40_14_teams_need_four_or_six_seats(table):
    from croupier.engine.errors import InvalidInput

    with pytest.raises(InvalidInput, match="teams=PAIRS needs 4 seats"):
        table.new(3, TEAMS)
    with pytest.raises(InvalidInput, match="teams=TRIPLES needs 6 seats"):
        table.new(4, {"teams": "TRIPLES"})
    assert [seat.team for seat in table.new(6, {"teams": "TRIPLES"}).seats] == [1, 2] * 3


def test_a_s40_15_court_values_in_melds_and_in_the_hand(table):
    s = table.build(hands={0: "Q♣ K♣ A♣ 9♦"}, melds=[MINE], options={"court_values_11_14": True})
    s = table.ok(s, table.meld(s, 0, "[Q♣ K♣ A♣]"))
    assert table.events[0].points == 12 + 13 + 14
    rules = rules_for(s.options.scala40)
    hand = [table.c(t) for t in ("J♠", "Q♠", "K♠", "A♠")] + [53]
    assert hand_penalty(hand, rules) == 11 + 12 + 13 + 14 + 14
    s = table.build(hands={0: "A♣ 2♣ 3♣ 9♦"}, melds=[MINE], options={"court_values_11_14": True})
    s = table.ok(s, table.meld(s, 0, "[A♣ 2♣ 3♣]"))
    assert table.events[0].points == 6  # the low ace stays 1


def test_a_s40_16_an_ace_after_the_king_is_11_and_a_lone_ace_in_hand_11(table):
    s = table.build(hands={0: "Q♦ K♦ A♦ 9♣"}, melds=[MINE])
    s = table.ok(s, table.meld(s, 0, "[Q♦ K♦ A♦]"))
    assert table.events[0].points == 31
    assert hand_penalty([table.c("A♠")], rules_for(s.options.scala40)) == 11


def test_a_s40_17_the_second_ace_joker_of_14_cards_cannot_be_swapped(table):
    s = table.build(hands={0: "A♥ K♠ 2♦"}, melds=[MINE, f"[{WHOLE_HEARTS} JK→A♥]"])
    assert table.reason(s, table.swap(0, "A♥", 2)) == "TWO_NATURAL_ACES"
    assert not [m for m in table.legal(s) if m.startswith("SWAP")]


@pytest.mark.parametrize("how", ["lay-off", "swap"])
def test_a_s40_18_a_quad_made_by_a_lay_off_or_a_swap_goes_too(table, how):
    meld = "[8♣ 8♦ 8♥]" if how == "lay-off" else "[8♣ 8♦ 8♥ JK→8♠]"
    s = table.build(
        hands={0: "8♠ K♠ 2♦"}, melds=[MINE, meld], options={"quads_to_discard_pile": True}
    )
    move = table.lay(s, 0, "8♠", 2) if how == "lay-off" else table.swap(0, "8♠", 2)
    s = table.ok(s, move)
    assert table.melds(s) == ["[2♠ 3♠ 4♠]"]
    assert table.pile(s)[-4:] == ["8♣", "8♦", "8♥", "8♠"]


def test_a_s40_19_a_set_joker_is_declared_unless_v23_infers_it(table):
    s = table.build(hands={0: "10♥ 10♠ JK 9♦"}, melds=[MINE])
    assert table.reason(s, table.meld(s, 0, "[10♥ 10♠ JK]", raw=True)) in (
        "JOKER_MUST_BE_DECLARED",
        "SET_NOT_IN_ORDER",
    )
    assert table.reason(s, table.meld(s, 0, "[10♥ 10♠ JK]")) == "JOKER_MUST_BE_DECLARED"


def test_k_s40_2_a_set_out_of_order_is_read_in_its_one_spelling(table):
    """It was SET_NOT_IN_ORDER (K-S40-2); tests/scala40/test_spelling.py has the rest."""
    s = table.build(hands={0: "10♥ 10♠ 10♣ 9♦"}, melds=[MINE])
    answer = table.apply(s, table.meld(s, 0, "[10♥ 10♠ 10♣]", raw=True))
    assert answer.accepted and answer.notation == "MELD [10C 10H 10S]"
    assert table.reason(s, table.meld(s, 0, "[10♣ 10♥ 10♠]", raw=True)) == "ACCEPTED"


def test_a_s40_20_closing_in_hand_doubles_every_other_penalty(table):
    # T-S40-24 pins the numbers (53 → 106); here: the closer pays nothing.
    s = table.build(
        hands={0: "A♣ 2♣ 3♣ 2♥ 2♠ 2♦ K♥", 1: "7♣ 8♦"},
        melds=[(1, "[9♣ 10♣ J♣]")],
        options={"close_in_hand_doubles": True},
    )
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ 3♣]", "[2♥ 2♠ 2♦]"))
    s = table.ok(s, table.discard(s, 0, "K♥"))
    assert table.deal_points(s)[:2] == [0, 30]


def test_a_s40_21_the_opened_discard_ban_counts_players_still_in_the_match(table):
    s = table.build(hands={0: "7♦ K♠"}, melds=[MINE, "[4♦ 5♦ 6♦]"], eliminated=[2], filler=13)
    table.ok(s, table.discard(s, 0, "7♦"))


def test_a_s40_22_re_entry_is_unlimited_and_free(table):
    layout = {
        "hands": {0: "Q♣", 1: "A♠"},
        "melds": [MINE, (2, "[9♥ 10♥ J♥]")],
        "options": {"reentry": True},
    }
    s = table.build(**layout, scores=[20, 145, 60])
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    p2 = table.deal_points(s)[2]
    assert table.eliminated(s) == [False, False, False]
    assert table.scores(s)[1] == max(20, 60 + p2)  # the highest score still below 151
    # Again: a second re-entry costs nothing more.
    s = table.build(**layout, scores=[20, 150, 60])
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert not table.eliminated(s)[1]


def test_a_s40_22_with_one_player_below_the_threshold_he_wins(table):
    s = table.build(
        hands={0: "Q♣", 1: "A♠", 2: "K♣"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]"), (2, "[5♦ 6♦ 7♦]")],
        scores=[20, 145, 145],
        options={"reentry": True},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0]


def test_a_s40_23_a_tie_for_lowest_shares_the_win(table):
    s = table.build(
        hands={0: "Q♣", 1: "4♣", 2: "2♣"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]"), (2, "[5♦ 6♦ 7♦]")],
        scores=[600, 1000, 598],
        options={"match_mode": "NO_ELIMINATION"},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.winners(s) == [0, 2]


# -- §1.19 clarifications --------------------------------------------------------------


def test_c_s40_1_a_swap_whose_joker_could_not_be_used_is_refused(table):
    s = table.build(
        hands={0: "7♠ 2♦ 9♥"},
        melds=[(0, "[K♣ K♦ K♥ K♠]"), "[7♣ 7♦ 7♥ JK→7♠]"],
        options={"retrieved_joker_must_be_used": True},
    )
    assert table.reason(s, table.swap(0, "7♠", 2)) == "RETRIEVED_JOKER_NOT_USED"
    assert table.rejection(s, table.swap(0, "7♠", 2)).rule == "C-S40-1"


def test_c_s40_2_a_kept_card_is_not_discarded_and_must_leave_a_discard(table):
    options = {"discard_pickup_keep": True}
    s = table.build(hands={0: "3♦ K♠"}, melds=[MINE], phase="DRAW", top="9♣", options=options)
    s = table.ok(s, table.take(0))
    assert table.reason(s, table.discard(s, 0, "9♣")) == "DISCARD_OF_KEPT_CARD"
    table.ok(s, table.discard(s, 0, "K♠"))
    s = table.build(hands={0: "3♦"}, melds=[MINE], phase="DRAW", top="3♦", options=options)
    assert table.reason(s, table.take(0)) == "TURN_COULD_NOT_BE_COMPLETED"


SEVEN_DIAMONDS = {"hands": {0: "7♦"}, "melds": ["[4♦ 5♦ 6♦]", "[8♦ 9♦ 10♦]"], "opened": [0],
                  "phase": "DRAW", "top": "7♦"}  # fmt: skip


def test_c_s40_1_v12_v6b_a_kept_card_and_its_copy_both_laid_off_close(table):
    """V12 + V6b: P opened holds only 7♦; the top 7♦ is kept. Both 7♦ go on the
    table ([4♦ 5♦ 6♦] high, [8♦ 9♦ 10♦] low): the hand empties and P closes (V12);
    the kept card is never discarded (C-S40-2). The TAKE was refused up front
    (TURN_COULD_NOT_BE_COMPLETED): the look-ahead wanted a discard."""
    options = {"close_without_discard": True, "discard_pickup_keep": True}
    s = table.build(**SEVEN_DIAMONDS, options=options)
    assert "TAKE" in table.legal(s)
    s = table.ok(s, table.take(0))
    assert table.legal(s) == ["LAY 7D ON 1 HIGH", "LAY 7D ON 2 LOW"]
    s = table.ok(s, table.lay(s, 0, "7♦", 1, "high"))
    s = table.ok(s, table.lay(s, 0, "7♦", 2, "low"))
    assert table.match_phase(s) == "DEAL_OVER" and table.deal_points(s)[0] == 0
    # With room for one 7♦ only, the TAKE is refused.
    s = table.build(**{**SEVEN_DIAMONDS, "melds": ["[4♦ 5♦ 6♦]"]}, options=options)
    assert table.reason(s, table.take(0)) == "TURN_COULD_NOT_BE_COMPLETED"


def test_c_s40_1_v12_a_taken_card_and_its_copy_both_laid_off_close(table):
    """V12: the same with the 7♦ taken to be placed (R-S40-11): one copy placed
    meets the duty, and laying off the other (the seat's own, D1) closes."""
    s = table.build(**SEVEN_DIAMONDS, options={"close_without_discard": True})
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.lay(s, 0, "7♦", 2, "low"))
    s = table.ok(s, table.lay(s, 0, "7♦", 1, "high"))
    assert table.match_phase(s) == "DEAL_OVER"


def test_c_s40_2_a_kept_card_swapped_for_a_joker_leaves_the_joker_to_discard(table):
    """V6b: P opened holds only 7♦ and keeps the top 7♦; one 7♦ takes the place
    of the joker of [7♣ 7♥ JK→7♦], and the joker is discarded (A-S40-08 lifts
    D5: no other discard). The TAKE was refused up front."""
    s = table.build(hands={0: "7♦"}, melds=["[7♣ 7♥ JK→7♦]"], opened=[0], phase="DRAW",
                    top="7♦", options={"discard_pickup_keep": True})  # fmt: skip
    s = table.ok(s, table.take(0))
    assert table.legal(s) == ["SWAP 7D ON 1"]
    s = table.ok(s, table.swap(0, "7♦", 1))
    assert [m for m in table.legal(s) if m.startswith("DISCARD")] == ["DISCARD RJ"]
    s = table.ok(s, table.discard(s, 0, "JK"))
    assert table.hand(s, 0) == table.bag("7♦")


def test_c_s40_3_a_first_turn_opening_worth_40_that_leaves_one_card_is_refused(table):
    s = table.build(hands={0: "K♠ K♥ K♦ Q♣ Q♦ Q♥ 9♠"}, turn=1, dealer=2)
    move = table.open(s, 0, "[K♠ K♥ K♦]", "[Q♣ Q♦ Q♥]")
    assert table.reason(s, move) == "NO_CLOSE_IN_FIRST_TURN"


def test_c_s40_4_unlimited_jokers_allow_several_in_a_14_card_sequence(table):
    meld = "[A♥ 2♥ JK→3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥]"
    layout = {"hands": {0: "JK K♠"}, "melds": [MINE, meld]}
    s = table.build(**layout, options={"max_jokers_per_meld": "UNLIMITED"})
    s = table.ok(s, table.lay(s, 0, "JK", 2, "high"))
    assert table.melds(s)[1].count("JK") == 2
    s = table.build(**layout)
    assert table.reason(s, table.lay(s, 0, "JK", 2, "high")) == "TOO_MANY_JOKERS"


def test_c_s40_6_the_kept_upcard_counts_in_the_opening(table):
    options = {"first_player_may_take_upcard": True}
    s = table.build(
        hands={0: "K♥ K♦ Q♣ Q♦ Q♥ 2♣ 7♥ 9♠"},
        phase="DRAW",
        top="K♠",
        turn=1,
        dealer=2,
        options=options,
    )
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.open(s, 0, "[K♠ K♥ K♦]", "[Q♣ Q♦ Q♥]"))
    assert table.events[0].points == 60


def test_c_s40_7_when_both_teams_reach_the_threshold_the_lower_total_wins(table):
    s = table.build(
        4,
        hands={0: "Q♣", 1: "A♠", 2: "K♣ Q♠", 3: "2♣"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]"), (2, "[5♦ 6♦ 7♦]"), (3, "[8♠ 9♠ 10♠]")],
        scores=[140, 140, 140, 140],
        options=TEAMS,
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.scores(s) == [160, 153, 160, 153]
    assert table.winners(s) == [1, 3]


def test_c_s40_7_equal_totals_go_to_the_closers_team(table):
    s = table.build(
        4,
        hands={0: "Q♣", 1: "A♠", 2: "J♣", 3: "3♣"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]"), (2, "[5♦ 6♦ 7♦]"), (3, "[8♠ 9♠ 10♠]")],
        scores=[144, 140, 144, 140],
        options=TEAMS,
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.scores(s) == [154, 154, 154, 154]
    assert table.winners(s) == [0, 2]


def test_c_s40_8_a_joker_on_the_discard_pile_is_taken_and_placed_like_a_card(table):
    s = table.build(
        hands={0: "K♠ 2♦"},
        melds=[MINE, "[5♥ 6♥ 7♥]"],
        phase="DRAW",
        top="JK",
        options={"upcard_joker_redraw": False},
    )
    s = table.ok(s, table.take(0))
    assert table.reason(s, table.discard(s, 0, "2♦")) == "TAKEN_CARD_NOT_PLACED"
    s = table.ok(s, table.lay(s, 0, "JK", 2, "high"))
    table.ok(s, table.discard(s, 0, "2♦"))


SWAP_AFTER_TAKE = {
    "hands": {0: "6♠ K♦ 2♣ 7♦"},
    "melds": [MINE, "[5♠ JK→6♠ 7♠]", "[9♥ 10♥ J♥]"],
    "phase": "DRAW",
    "top": "JK",
}


@pytest.mark.parametrize(
    ("preset", "options"),
    [("fisc", {}), ("fisc", {"joker_discard": "ANY"}), ("pagat", {})],
    ids=["fisc", "fisc-v24-any", "pagat"],
)
def test_c_s40_8_a_taken_joker_is_placed_by_any_joker_and_a_swapped_one_may_be_kept(
    table, preset, options
):
    """C-S40-8: the duty of a taken joker "is met by placing any joker"; R-S40-51
    (V19 off): a joker retrieved by a swap may be kept. TAKE, SWAP 6♠ (two jokers
    in hand), one JK laid on [9♥ 10♥ J♥]: the taken joker's duty is met, the
    other joker stays. (Counting the hand's jokers against the two held right
    after the take refused the discard with TAKEN_CARD_NOT_PLACED.)"""
    s = table.build(**SWAP_AFTER_TAKE, options=options, preset=preset)
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.swap(0, "6♠", 2))
    assert table.hand(s, 0)["JK"] == 2
    assert table.reason(s, table.discard(s, 0, "2♣")) == "TAKEN_CARD_NOT_PLACED"
    s = table.ok(s, table.lay(s, 0, "JK", 3, "high"))
    assert table.hand(s, 0)["JK"] == 1
    assert "DISCARD 2C" in table.legal(s)
    s = table.ok(s, table.discard(s, 0, "2♣"))
    assert table.hand(s, 0) == table.bag("K♦ 7♦ JK")


def test_c_s40_8_a_joker_laid_before_the_swap_meets_the_duty_and_the_swapped_one_is_kept(
    table,
):
    """The same in the other order: TAKE, the JK laid, then SWAP 6♠: the joker
    won by the swap does not renew the duty (R-S40-51)."""
    s = table.build(**SWAP_AFTER_TAKE)
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.lay(s, 0, "JK", 3, "high"))
    s = table.ok(s, table.swap(0, "6♠", 2))
    s = table.ok(s, table.discard(s, 0, "2♣"))
    assert table.hand(s, 0) == table.bag("K♦ 7♦ JK")


def test_c_s40_8_a_swap_after_taking_a_joker_needs_room_for_one_joker_only(table):
    """With room on the table for one joker only ([9♥ 10♥ J♥]; the set of four
    takes none), SWAP 7♥ after taking a JK leaves two jokers in hand: one must
    go to the table, the other may be kept. The swap was refused up front with
    TAKEN_CARD_CANNOT_BE_PLACED (C-S40-1), though taking and keeping work."""
    s = table.build(hands={0: "7♥ K♦ 2♣ 9♠"}, melds=["[7♣ 7♦ 7♠ JK→7♥]", "[9♥ 10♥ J♥]"],
                    opened=[0], phase="DRAW", top="JK")  # fmt: skip
    s = table.ok(s, table.take(0))
    assert "SWAP 7H ON 1" in table.legal(s)
    s = table.ok(s, table.swap(0, "7♥", 1))
    s = table.ok(s, table.lay(s, 0, "JK", 2, "high"))
    s = table.ok(s, table.discard(s, 0, "2♣"))
    assert table.hand(s, 0) == table.bag("K♦ 9♠ JK")


def test_c_s40_8_with_v19_a_taken_joker_and_a_swapped_one_are_both_placed(table):
    """V19 (R-S40-51, T-S40-37): the swapped joker must be used too, so after
    TAKE and SWAP two jokers are owed: one laid is not enough."""
    options = {"retrieved_joker_must_be_used": True}
    s = table.build(hands={0: "6♠ K♦ 2♣ 7♦"},
                    melds=[MINE, "[5♠ JK→6♠ 7♠]", "[9♥ 10♥ J♥]", "[4♣ 5♣ 6♣]"],
                    phase="DRAW", top="JK", options=options)  # fmt: skip
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.swap(0, "6♠", 2))
    s = table.ok(s, table.lay(s, 0, "JK", 3, "high"))
    assert table.reason(s, table.discard(s, 0, "2♣")) == "TAKEN_CARD_NOT_PLACED"
    assert not [m for m in table.legal(s) if m.startswith("DISCARD")]
    s = table.ok(s, table.lay(s, 0, "JK", 4, "high"))
    s = table.ok(s, table.discard(s, 0, "2♣"))
    assert table.hand(s, 0) == table.bag("K♦ 7♦")


def test_c_s40_8_with_v19_the_swap_needs_room_for_both_jokers(table):
    """V19: with room for one joker only, SWAP after taking a JK is refused up
    front (two jokers owed, C-S40-1); without the swap the take is placed."""
    options = {"retrieved_joker_must_be_used": True}
    s = table.build(hands={0: "7♥ K♦ 2♣ 9♠"}, melds=["[7♣ 7♦ 7♠ JK→7♥]", "[9♥ 10♥ J♥]"],
                    opened=[0], phase="DRAW", top="JK", options=options)  # fmt: skip
    s = table.ok(s, table.take(0))
    rejection = table.rejection(s, table.swap(0, "7♥", 1))
    assert (reason_name(rejection), rejection.rule) == ("TAKEN_CARD_CANNOT_BE_PLACED", "C-S40-1")
    assert "SWAP 7H ON 1" not in table.legal(s)
    s = table.ok(s, table.lay(s, 0, "JK", 2, "high"))
    rejection = table.rejection(s, table.swap(0, "7♥", 1))  # no room left for its joker
    assert (reason_name(rejection), rejection.rule) == ("RETRIEVED_JOKER_NOT_USED", "C-S40-1")
    table.ok(s, table.discard(s, 0, "2♣"))


def test_the_view_shows_the_table_and_counts_the_rest(table):
    s = table.build(hands={0: "K♠ 2♦"}, melds=[MINE, "[5♥ JK→6♥ 7♥]"])
    view = api.get_view(service_pb2.GetViewRequest(state=s, seat=1)).view
    v = view.scala40
    assert [m.value for m in v.melds] == [9, 18]
    assert list(v.hand_sizes)[0] == 2
    assert list(v.hand) == list(s.scala40.hands[1].cards)
    assert v.stock_size == len(s.scala40.stock)
    assert not v.drawn_card


@pytest.mark.parametrize(
    ("options", "hand", "points"),
    [({"court_values_11_14": True}, "J♠ Q♠ K♠ A♠ JK", 11 + 12 + 13 + 14 + 14),
     ({}, "J♠ Q♠ K♠ A♠ JK", 10 + 10 + 10 + 11 + 25), ({}, "A♠", 11)],
    ids=["a-s40-15-court-values", "r-s40-80-defaults", "a-s40-16-lone-ace"],
)  # fmt: skip
def test_hand_values_when_the_deal_is_scored(table, options, hand, points):
    # A-S40-15 (V5: J 11, Q 12, K 13, A 14, a joker 14) and A-S40-16 (an ace
    # left in hand is 11) through a closed deal: P1 has opened and pays his
    # hand; P0 closes by discarding his last card.
    s = table.build(hands={0: "Q♣", 1: hand}, melds=[MINE, (1, "[9♥ 10♥ J♥]")], options=options)
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.deal_points(s)[:2] == [0, points]


# D1 (rules version 7): "the card taken from the discard pile this turn (it
# must be on the table)". Copies are alike (R-S40-01): once a copy is on the
# table the duty is met, and a copy still held is the seat's own.


def test_d1_a_copy_still_held_once_the_taken_card_is_placed_may_be_discarded(table):
    s = table.build(hands={0: "6♥ JK"}, melds=[(0, "[2♠ 3♠ 4♠]"), (1, "[7♥ 8♥ 9♥]")],
                    phase="DRAW", top="6♥")  # fmt: skip
    s = table.ok(s, table.take(0))
    assert table.reason(s, table.discard(s, 0, "6♥")) == "DISCARD_OF_TAKEN_CARD"  # not placed yet
    s = table.ok(s, table.lay(s, 0, "6♥", 2, "low"))
    assert [m for m in table.legal(s) if m.startswith("DISCARD")] == ["DISCARD 6H"]
    assert table.reason(s, table.discard(s, 0, "JK")) == "DISCARD_JOKER"  # D5, not lifted
    s = table.ok(s, table.discard(s, 0, "6♥"))
    assert table.hand(s, 0) == table.bag("JK")


def test_d1_v6_an_opening_with_the_taken_card_may_close_on_its_copy(table):
    # V6: the unopened seat takes the 5♥ for its opening, melds one 5♥ and
    # closes in hand (R-S40-72) by discarding its own 5♥.
    s = table.build(hands={0: "5♣ 5♦ 5♥ 7♠ 8♠ 9♠"}, melds=[(1, "[9♥ 10♥ J♥]")], phase="DRAW",
                    top="5♥", options={"discard_pickup_for_opening": True})  # fmt: skip
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.open(s, 0, "[5♣ 5♦ 5♥]", "[7♠ 8♠ 9♠]"))
    s = table.ok(s, table.discard(s, 0, "5♥"))
    assert table.match_phase(s) == "DEAL_OVER" and table.deal_points(s)[0] == 0


def test_d1_c_s40_8_a_taken_joker_placed_leaves_the_other_joker_free(table):
    # C-S40-8: the duty of a taken joker is met by placing any joker; V24 ANY
    # lets the other go to the pile.
    s = table.build(hands={0: "JK 2♦ 9♣"}, melds=[(0, "[K♣ K♦ K♥ K♠]"), (1, "[8♥ 9♥ 10♥]")],
                    phase="DRAW", top="JK",
                    options={"upcard_joker_redraw": False, "joker_discard": "ANY"})  # fmt: skip
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.lay(s, 0, "JK", 2, "high"))
    assert table.reason(s, table.discard(s, 0, "JK")) == "ACCEPTED"
