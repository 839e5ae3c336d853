"""An audit of «Мост» against rummy_and_counting.md PART 2: rules, option
interactions and edge cases that neither the spec's own examples (T-M-*,
test_examples.py) nor the resolutions (test_ambiguities.py) pin. Each test is
named after the rule it pins: a hand-built position, a move, the exact
result. Defaults (the "seed" preset) unless an option is named. P is seat 0,
to act, after his draw unless the test draws; melds on the table were laid
by seat 1 unless said otherwise."""

from __future__ import annotations

import pytest

# An own meld, for a P who must have melded this hand (R-M-31).
MINE = (0, "[2♠ 3♠ 4♠]")
RUN_OF_12 = "[2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥]"


# -- R-M-03: values -------------------------------------------------------------------------


def test_r_m_03_an_ace_below_the_two_is_worth_15_too(table):
    s = table.build(hands={0: "A♠ 2♠ 3♠ 9♣"})
    s = table.ok(s, table.meld(s, 0, "[A♠ 2♠ 3♠]"))
    assert table.events[0].points == 15 + 5 + 5


# -- R-M-10 to R-M-12: what a meld is -------------------------------------------------------


def test_r_m_10_a_sequence_round_the_corner_must_still_be_consecutive(table):
    s = table.build(hands={0: "K♠ A♠ 3♠ 9♣"})
    assert table.reason(s, table.meld(s, 0, "[K♠ A♠ 3♠]")) == "SEQUENCE_NOT_CONSECUTIVE"


def test_r_m_10_a_sequence_is_one_suit(table):
    s = table.build(hands={0: "5♠ 6♥ 7♠ 9♣"})
    assert table.reason(s, table.meld(s, 0, "[5♠ 6♥ 7♠]")) == "NOT_A_SET_OR_SEQUENCE"


def test_r_m_10_lay_offs_turn_the_corner_at_both_ends(table):
    s = table.build(
        hands={0: "2♥ A♦ J♦ 9♣"}, melds=["[Q♥ K♥ A♥]", "[2♦ 3♦ 4♦]", MINE]
    )  # fmt: skip
    assert table.reason(s, table.lay(s, 0, "2♥", 1, "low")) == "LAY_OFF_DOES_NOT_FIT"
    s = table.ok(s, table.lay(s, 0, "2♥", 1, "high"))
    assert table.events[0].points == 5
    s = table.ok(s, table.lay(s, 0, "A♦", 2, "low"))
    assert table.events[0].points == 15
    assert table.melds(s)[:2] == ["[Q♥ K♥ A♥ 2♥]", "[A♦ 2♦ 3♦ 4♦]"]
    # ... and round again: K♦ would come below the A♦, but the J♦ fits nowhere.
    assert table.reason(s, table.lay(s, 0, "J♦", 2, "low")) == "LAY_OFF_DOES_NOT_FIT"


@pytest.mark.parametrize(
    ("end", "grown"),
    [("low", "[A♥ " + RUN_OF_12[1:]), ("high", RUN_OF_12[:-1] + " A♥]")],
)
def test_r_m_10_twelve_hearts_take_the_thirteenth_at_either_end(table, end, grown):
    s = table.build(hands={0: "A♥ 9♣ 4♦"}, melds=[RUN_OF_12, MINE])
    s = table.ok(s, table.lay(s, 0, "A♥", 1, end))
    assert table.melds(s)[0] == grown
    assert table.credited(s, 1)["A♥"] == 0


def test_r_m_11_a_set_of_four_may_hold_a_joker(table):
    s = table.build(hands={0: "5♣ 5♦ 5♥ JK 9♣"})
    s = table.ok(s, table.meld(s, 0, "[5♣ 5♦ 5♥ JK→5♠]"))
    assert table.melds(s) == ["[5♣ 5♦ 5♥ JK→5♠]"]
    assert table.events[0].points == 15


def test_r_m_11_two_jokers_may_not_stand_for_the_same_suit(table):
    s = table.build(hands={0: "5♠ JK JK 9♣"})
    assert table.reason(s, table.meld(s, 0, "[5♠ JK→5♥ JK→5♥]")) == "SET_SUITS_MUST_DIFFER"


def test_r_m_12_a_jokers_card_must_be_the_one_of_its_place(table):
    s = table.build(hands={0: "5♠ JK 7♠ 9♣"})
    assert table.reason(s, table.meld(s, 0, "[5♠ JK→8♠ 7♠]")) == "JOKER_IDENTITY_DOES_NOT_FIT"
    table.ok(s, table.meld(s, 0, "[5♠ JK→6♠ 7♠]"))


# -- R-M-13: a card and the joker standing for it -------------------------------------------


def test_r_m_13_a_joker_may_not_stand_for_the_card_of_the_other_joker(table):
    s = table.build(hands={0: "9♥ 9♠ JK 4♦"}, melds=["[8♣ JK→9♣ 10♣]"])
    assert table.reason(s, table.meld(s, 0, "[9♥ 9♠ JK→9♣]")) == "JOKER_IDENTITY_ON_TABLE"
    table.ok(s, table.meld(s, 0, "[9♥ 9♠ JK→9♦]"))


def test_r_m_13_a_joker_laid_on_a_sequence_may_not_become_a_card_of_the_bridge(table):
    s = table.build(hands={0: "JK 9♣ 4♦"}, melds=["[5♥ 6♥ 7♥]", MINE], bridge="K♣ 8♥")
    assert table.reason(s, table.lay(s, 0, "JK", 1, "high")) == "JOKER_IDENTITY_ON_TABLE"
    s = table.ok(s, table.lay(s, 0, "JK", 1, "low"))
    assert table.melds(s)[0] == "[JK→4♥ 5♥ 6♥ 7♥]"


def test_r_m_13_a_joker_laid_on_a_sequence_may_not_take_the_other_jokers_card(table):
    s = table.build(
        hands={0: "JK K♦ 4♦"}, melds=["[9♥ 9♠ JK→9♣]", "[6♣ 7♣ 8♣]", MINE]
    )  # fmt: skip
    assert table.reason(s, table.lay(s, 0, "JK", 2, "high")) == "JOKER_IDENTITY_ON_TABLE"
    table.ok(s, table.lay(s, 0, "JK", 2, "low"))


def test_r_m_13_a_card_stood_for_by_a_joker_is_not_laid_on_a_set(table):
    s = table.build(hands={0: "5♦ 9♣ 4♣"}, melds=["[JK→5♦ 6♦ 7♦]", "[5♣ 5♥ 5♠]", MINE])
    assert table.reason(s, table.lay(s, 0, "5♦", 2)) == "CARD_REPRESENTED_BY_JOKER"
    assert not [m for m in table.legal(s) if m.startswith("LAY 5D")]


def test_r_m_13_a_joker_may_stand_for_a_card_of_the_melders_own_hand(table):
    # The hand is not the table: the meld is legal, and the 5♦ is then stuck in the hand
    # until it is exchanged for that joker.
    s = table.build(hands={0: "5♣ 5♥ JK 5♦ 9♣"})
    s = table.ok(s, table.meld(s, 0, "[5♣ 5♥ JK→5♦]"))
    assert table.reason(s, table.discard(s, 0, "5♦")) == "CARD_REPRESENTED_BY_JOKER"
    s = table.ok(s, table.exchange(0, "5♦"))
    assert table.melds(s) == ["[5♣ 5♦ 5♥]"]
    assert table.hand(s, 0) == table.bag("JK 9♣")


def test_r_m_13_a_take_is_judged_on_the_bridge_left_after_it(table):
    # Taking the 10♦ alone leaves the 9♦ in the bridge: [8♦ JK→9♦ 10♦] is then illegal, and
    # the 10♦ has no other meld. Taking from the 9♦ brings both.
    s = table.build(hands={0: "8♦ JK 4♣"}, bridge="9♦ 10♦", phase="DRAW")
    assert table.reason(s, table.take(0, "10♦")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    assert table.legal(s) == ["DRAW", "TAKE 9D"]
    s = table.ok(s, table.take(0, "9♦"))
    s = table.ok(s, table.meld(s, 0, "[8♦ 9♦ 10♦]"))
    assert table.bridge(s) == []


# -- R-M-21, R-M-22: taking from the bridge -----------------------------------------------------


def test_r_m_21_the_first_card_may_be_melded_with_the_cards_taken_with_it(table):
    s = table.build(hands={0: "K♦ 2♣"}, bridge="4♣ 9♣ 9♥ 9♠", phase="DRAW")
    assert table.legal(s) == ["DRAW", "TAKE 9C"]
    s = table.ok(s, table.take(0, "9♣"))
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))
    s = table.ok(s, table.discard(s, 0, "K♦"))
    assert table.bridge(s) == ["4♣", "K♦"]


def test_r_m_21_the_other_cards_taken_may_go_straight_back_into_the_bridge(table):
    s = table.build(hands={0: "9♥ 9♠ 4♦ K♣"}, bridge="5♦ 9♣ 7♥ 2♠", phase="DRAW")
    s = table.ok(s, table.take(0, "9♣"))
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))
    s = table.ok(s, table.discard(s, 0, "2♠"))
    assert table.bridge(s) == ["5♦", "2♠"]
    assert table.hand(s, 0) == table.bag("4♦ K♣ 7♥")


def test_r_m_21_a_discarded_joker_taken_first_is_owed_to_a_meld(table):
    # §2.8: a joker may go into the bridge; the next player who takes it first must meld it.
    s = table.build(hands={0: "JK 9♣ 4♦", 1: "5♠ 5♥ K♦"})
    s = table.ok(s, table.discard(s, 0, "JK"))
    assert table.bridge(s)[-1] == "JK"
    s = table.ok(s, table.take(1, "JK"))
    assert s.most.bridge_card_owed
    assert table.reason(s, table.discard(s, 1, "K♦")) == "BRIDGE_CARD_NOT_MELDED"
    s = table.ok(s, table.meld(s, 1, "[5♥ 5♠ JK→5♦]"))
    s = table.ok(s, table.discard(s, 1, "K♦"))
    assert table.melds(s) == ["[5♥ 5♠ JK→5♦]"]


def test_r_m_21_the_duty_may_be_met_with_a_joker_won_by_an_exchange(table):
    # P holds the 9♣ a joker stands for and the 7♥: the 7♠ taken goes into [7♥ 7♠ JK→7♦]
    # once the 9♣ has brought the joker to his hand (§2.8: exchange needs no meld).
    layout = dict(hands={0: "9♣ 7♥ 4♦"}, melds=["[8♣ JK→9♣ 10♣]"], bridge="K♦ 7♠", phase="DRAW")
    s = table.build(**layout)
    s = table.ok(s, table.take(0, "7♠"))
    s = table.ok(s, table.exchange(0, "9♣"))
    s = table.ok(s, table.meld(s, 0, "[7♥ 7♠ JK→7♦]"))
    s = table.ok(s, table.discard(s, 0, "4♦"))
    assert table.rule_events() == ["WENT_OUT"]
    assert table.deal_points(s)[0] == 5 + 5 + 5 + 0


def test_c_m_5_exchange_requires_meld_refuses_a_take_that_needs_the_joker(table):
    s = table.build(
        hands={0: "9♣ 7♥ 4♦"},
        melds=["[8♣ JK→9♣ 10♣]"],
        bridge="K♦ 7♠",
        phase="DRAW",
        options={"exchange_requires_meld": True},
    )
    assert table.reason(s, table.take(0, "7♠")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    assert table.legal(s) == ["DRAW"]


def test_r_m_22_the_only_card_of_the_bridge_is_its_newest(table):
    layout = dict(hands={0: "K♣ 5♣ 9♦"}, bridge="8♥", phase="DRAW")
    assert table.reason(table.build(**layout), table.take(0, "8♥")) == (
        "BRIDGE_CARD_CANNOT_BE_MELDED"
    )
    s = table.build(**layout, options={"top_bridge_card_free": True})
    s = table.ok(s, table.take(0, "8♥"))
    assert (table.bridge(s), s.most.bridge_card_owed) == ([], False)
    s = table.ok(s, table.discard(s, 0, "K♣"))
    assert table.bridge(s) == ["K♣"]


def test_a_m_01_a_seat_that_has_not_melded_may_meld_first_then_lay_off_the_bridge_card(table):
    # bridge_card_may_be_laid_off: the 8♥ goes on [5♥ 6♥ 7♥] once P has melded his kings.
    s = table.build(
        hands={0: "K♣ K♦ K♠ 5♣"},
        melds=["[5♥ 6♥ 7♥]"],
        bridge="9♠ 8♥",
        phase="DRAW",
        options={"bridge_card_may_be_laid_off": True},
    )
    s = table.ok(s, table.take(0, "8♥"))
    assert table.reason(s, table.lay(s, 0, "8♥", 1, "high")) == "LAY_OFF_NEEDS_OWN_MELD"
    s = table.ok(s, table.meld(s, 0, "[K♣ K♦ K♠]"))
    s = table.ok(s, table.lay(s, 0, "8♥", 1, "high"))
    assert not s.most.bridge_card_owed
    assert table.credited(s, 1)["8♥"] == 0
    table.ok(s, table.discard(s, 0, "5♣"))


# -- R-M-23, C-M-2: the stock ------------------------------------------------------------------


def test_r_m_23_drawing_the_last_stock_card_does_not_end_the_hand(table):
    s = table.build(
        3, hands={0: "K♣ 9♦"}, melds=[MINE], stock="7♠", phase="DRAW", spare=2
    )  # fmt: skip
    s = table.ok(s, table.draw(0))
    assert (table.stock_size(s), table.phase(s), table.match_phase(s)) == (
        0,
        "PLAY",
        "DEAL_IN_PROGRESS",
    )
    s = table.ok(s, table.discard(s, 0, "7♠"))
    s = table.ok(s, table.draw(1))
    assert table.rule_events() == ["STOCK_EXHAUSTED"]
    assert table.match_phase(s) == "DEAL_OVER"


def test_r_m_23_on_an_empty_stock_the_bridge_may_still_be_taken(table):
    s = table.build(
        3, hands={0: "9♥ 9♠ 4♦"}, bridge="K♦ 9♣", stock="", phase="DRAW", spare=2
    )  # fmt: skip
    assert table.legal(s) == ["DRAW", "TAKE 9C"]
    s = table.ok(s, table.take(0, "9♣"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"


def test_c_m_2_an_empty_bridge_cannot_become_the_stock(table):
    s = table.build(
        3,
        hands={0: "K♣ 9♦"},
        melds=[MINE],
        bridge="",
        stock="",
        phase="DRAW",
        spare=2,
        options={"stock_exhausted": "RESHUFFLE_BRIDGE"},
    )
    s = table.ok(s, table.draw(0))
    assert table.rule_events() == ["STOCK_EXHAUSTED"]
    assert table.match_phase(s) == "DEAL_OVER"


# -- R-M-31: laying off ------------------------------------------------------------------------


def test_r_m_31_a_meld_made_this_turn_opens_lay_offs_this_turn(table):
    s = table.build(hands={0: "5♥ 6♥ 7♥ 8♦ K♣"}, melds=["[9♦ 10♦ J♦]"])
    assert table.reason(s, table.lay(s, 0, "8♦", 1, "low")) == "LAY_OFF_NEEDS_OWN_MELD"
    s = table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥]"))
    s = table.ok(s, table.lay(s, 0, "8♦", 1, "low"))
    assert table.melds(s)[0] == "[8♦ 9♦ 10♦ J♦]"
    assert table.credited(s, 1)["8♦"] == 0


def test_r_m_31_a_joker_on_a_set_stands_for_a_missing_suit(table):
    s = table.build(hands={0: "JK 9♣ 4♦"}, melds=["[5♣ 5♥ 5♠]", MINE])
    assert table.reason(s, table.lay(s, 0, "JK", 1, joker_as="5♥")) == (
        "JOKER_IDENTITY_DOES_NOT_FIT"
    )
    assert table.reason(s, table.lay(s, 0, "JK", 1, joker_as="6♦")) == (
        "JOKER_IDENTITY_DOES_NOT_FIT"
    )
    s = table.ok(s, table.lay(s, 0, "JK", 1, joker_as="5♦"))
    assert table.melds(s)[0] == "[5♣ 5♥ 5♠ JK→5♦]"
    assert table.events[0].points == 0
    assert table.credited(s, 1)["JK→5♦"] == 0


def test_r_m_31_a_set_of_four_takes_nothing_more(table):
    s = table.build(hands={0: "JK 9♣ 4♦"}, melds=["[5♣ 5♦ 5♥ 5♠]", MINE])
    assert table.reason(s, table.lay(s, 0, "JK", 1, joker_as="5♠")) == "LAY_OFF_DOES_NOT_FIT"
    assert not [m for m in table.legal(s) if m.startswith("LAY") and "ON 1" in m]


def test_r_m_31_a_card_that_fits_a_meld_may_still_be_discarded(table):
    # §2.8: any card may go into the bridge (no Scala 40 rule against discarding a card
    # that could be laid off).
    s = table.build(hands={0: "8♥ 9♣"}, melds=["[5♥ 6♥ 7♥]", MINE])
    s = table.ok(s, table.discard(s, 0, "8♥"))
    assert table.bridge(s)[-1] == "8♥"


# -- R-M-32: the exchange ----------------------------------------------------------------------


def test_r_m_32_a_set_joker_is_exchanged_only_for_its_declared_suit(table):
    s = table.build(hands={0: "5♠ 5♦ 9♣"}, melds=["[5♣ 5♥ JK→5♦]"])
    assert table.reason(s, table.exchange(0, "5♠")) == "NO_JOKER_STANDS_FOR_CARD"
    s = table.ok(s, table.exchange(0, "5♦"))
    assert table.melds(s) == ["[5♣ 5♦ 5♥]"]
    assert table.hand(s, 0) == table.bag("5♠ JK 9♣")


def test_r_m_32_the_joker_won_from_ones_own_meld_may_be_discarded_at_once(table):
    s = table.build(
        hands={0: "9♣ 4♦"},
        melds=[(0, "[8♣ JK→9♣ 10♣]")],
        options={"exchanged_card_credit": "MELD_OWNER"},
    )
    s = table.ok(s, table.exchange(0, "9♣"))
    assert table.credited(s, 1)["9♣"] == 0
    s = table.ok(s, table.discard(s, 0, "JK"))
    assert table.bridge(s)[-1] == "JK"
    assert table.hand(s, 0) == table.bag("4♦")


def test_r_m_32_exchange_requires_meld_is_met_by_a_meld_this_turn(table):
    s = table.build(
        hands={0: "9♣ 5♥ 6♥ 7♥ 4♦"},
        melds=["[8♣ JK→9♣ 10♣]"],
        options={"exchange_requires_meld": True},
    )
    assert table.reason(s, table.exchange(0, "9♣")) == "EXCHANGE_NEEDS_OWN_MELD"
    s = table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥]"))
    s = table.ok(s, table.exchange(0, "9♣"))
    assert table.credited(s, 1)["9♣"] == 0


# -- R-M-33: nothing comes back from the table ---------------------------------------------------


def test_r_m_33_no_card_is_taken_back_from_the_table_but_a_joker_by_an_exchange(table):
    # 6♥, 7♥ and 5♥ lie in a meld: no move may use them again (the shared
    # CARD_NOT_IN_HAND: R-M-30, K-M-5 for a discard); an exchange takes only a
    # joker back, and gives its card to the table in its place.
    s = table.build(hands={0: "9♣ 8♥ K♦ 4♦"}, melds=[MINE, "[5♥ 6♥ 7♥]", "[8♣ JK→9♣ 10♣]"])
    refused = [
        (table.meld(s, 0, "[6♥ 7♥ 8♥]"), "CARD_NOT_IN_HAND", "R-M-30"),
        (table.discard(s, 0, "5♥"), "CARD_NOT_IN_HAND", "K-M-5"),
        (table.exchange(0, "8♥"), "NO_JOKER_STANDS_FOR_CARD", "R-M-32"),
    ]
    for move, reason, rule in refused:
        rejection = table.rejection(s, move)
        assert (table.reason(s, move), rejection.rule) == (reason, rule)
    s = table.ok(s, table.exchange(0, "9♣"))
    assert table.melds(s) == ["[2♠ 3♠ 4♠]", "[5♥ 6♥ 7♥]", "[8♣ 9♣ 10♣]"]
    assert table.hand(s, 0) == table.bag("JK 8♥ K♦ 4♦")


# -- R-M-34, R-M-40: going out -------------------------------------------------------------------


def test_r_m_34_a_lay_off_of_the_last_card(table):
    layout = dict(hands={0: "8♥"}, melds=["[5♥ 6♥ 7♥]", MINE])
    s = table.build(**layout)
    assert table.reason(s, table.lay(s, 0, "8♥", 1, "high")) == "NO_CARD_LEFT_TO_DISCARD"
    s = table.build(**layout, options={"go_out_without_discard": True})
    s = table.ok(s, table.lay(s, 0, "8♥", 1, "high"))
    assert table.rule_events() == ["LAID_OFF", "WENT_OUT"]
    assert table.deal_points(s)[0] == 15 + 5
    assert table.match_phase(s) == "DEAL_OVER"


def test_r_m_34_the_take_that_would_meld_the_whole_hand(table):
    # The 9♣ can only go into [9♣ 9♥ 9♠], which empties the hand: no discard is left
    # (default), or the meld goes out (go_out_without_discard).
    layout = dict(hands={0: "9♥ 9♠"}, bridge="K♦ 9♣", phase="DRAW")
    s = table.build(**layout)
    assert table.reason(s, table.take(0, "9♣")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    s = table.build(**layout, options={"go_out_without_discard": True})
    s = table.ok(s, table.take(0, "9♣"))
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))
    assert table.rule_events() == ["MELDED", "WENT_OUT"]
    assert table.deal_points(s)[0] == 15


def test_r_m_40_going_out_with_a_card_taken_along_from_the_bridge(table):
    s = table.build(hands={0: "9♥ 9♠"}, bridge="K♦ 9♣ 4♦", phase="DRAW")
    s = table.ok(s, table.take(0, "9♣"))
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))
    s = table.ok(s, table.discard(s, 0, "4♦"))
    assert table.rule_events() == ["WENT_OUT"]
    assert table.bridge(s) == ["K♦", "4♦"]
    assert table.deal_points(s)[0] == 15


def test_c_m_1_a_free_newest_card_may_be_laid_off_to_go_out_without_discard(table):
    # top_bridge_card_free and go_out_without_discard: P takes the 8♣ free, melds his hearts
    # and lays the 8♣ off, which ends the hand. The 8♣ left alone after the meld may not go
    # back into the bridge (K-M-2), but the turn can still be finished: the meld is legal.
    s = table.build(
        hands={0: "5♥ 6♥ 7♥"},
        melds=["[9♣ 10♣ J♣]"],
        bridge="K♦ 8♣",
        phase="DRAW",
        options={"top_bridge_card_free": True, "go_out_without_discard": True},
    )
    s = table.ok(s, table.take(0, "8♣"))
    assert "MELD [5H 6H 7H]" in table.legal(s)
    s = table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥]"))
    s = table.ok(s, table.lay(s, 0, "8♣", 1, "low"))
    assert table.rule_events() == ["LAID_OFF", "WENT_OUT"]
    assert table.deal_points(s)[0] == 15 + 5


# -- R-M-41, R-M-42: scoring and the match --------------------------------------------------------


def test_r_m_41_a_lay_off_on_anothers_meld_scores_for_the_layer_at_the_end(table):
    s = table.build(
        2,
        hands={0: "A♥ 4♦", 1: "5♦ 6♦"},
        melds=[(1, "[J♥ Q♥ K♥]"), MINE],
        filler=0,
    )
    s = table.ok(s, table.lay(s, 0, "A♥", 1, "high"))
    s = table.ok(s, table.discard(s, 0, "4♦"))
    assert table.deal_points(s) == [15 + 15, 30 - 10]
    assert list(s.match.deal_winners) == [0]


@pytest.mark.parametrize(("credit", "points"), [("EXCHANGER", [40, 5]), ("MELD_OWNER", [35, 10])])
def test_r_m_41_an_exchanged_card_at_the_end_of_the_hand(table, credit, points):
    # P exchanges the 9♣ for seat 1's joker, lays the joker on his own [Q♥ K♥ A♥] as the
    # 2♥ (0) and goes out; seat 1 keeps 8♣ 10♣ (15) and holds 4♦ 5♦ (-10).
    s = table.build(
        2,
        hands={0: "9♣ 3♦", 1: "4♦ 5♦"},
        melds=[(1, "[8♣ JK→9♣ 10♣]"), (0, "[Q♥ K♥ A♥]")],
        filler=0,
        options={"exchanged_card_credit": credit},
    )
    s = table.ok(s, table.exchange(0, "9♣"))
    s = table.ok(s, table.lay(s, 0, "JK", 2, "high"))
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert table.deal_points(s) == points
    assert table.scores(s) == points


def _going_out(table, scores, **kw):
    # Seat 0 goes out with the 3♦ and his [Q♥ K♥ A♥] (+35); seat 1 holds 4♦ 5♦ (-10).
    return table.build(
        2,
        hands={0: "3♦", 1: "4♦ 5♦"},
        melds=[(0, "[Q♥ K♥ A♥]")],
        scores=scores,
        filler=0,
        **kw,
    )


def test_r_m_42_reaching_the_target_exactly_ends_the_match(table):
    s = _going_out(table, [465, -40])
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert table.scores(s) == [500, -50]
    assert (table.match_phase(s), table.winners(s)) == ("MATCH_OVER", [0])


def test_r_m_42_the_target_score_option(table):
    s = _going_out(table, [64, 0], options={"target_score": 100})
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert (table.scores(s), table.match_phase(s)) == ([99, -10], "DEAL_OVER")
    s = _going_out(table, [65, 0], options={"target_score": 100})
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert (table.scores(s), table.match_phase(s), table.winners(s)) == (
        [100, -10],
        "MATCH_OVER",
        [0],
    )


def test_c_m_1_a_bridge_joker_may_be_won_back_and_laid_off_to_go_out_without_discard(table):
    # P takes the joker; with the 5♠ in the bridge and the 9♠ in a meld, every meld of it
    # stands for a spade of his hand, which is then stuck (R-M-13). Exchanged back, the joker
    # may not go into the bridge (K-M-2): by default the take is a dead end; under
    # go_out_without_discard the joker goes on [9♦ 9♥ 9♠] as the 9♣ and ends the hand.
    layout = dict(
        hands={0: "6♠ 7♠ 8♠"}, melds=["[9♦ 9♥ 9♠]"], bridge="5♠ JK", phase="DRAW"
    )  # fmt: skip
    s = table.build(**layout)
    assert table.reason(s, table.take(0, "JK")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    s = table.build(**layout, options={"go_out_without_discard": True})
    s = table.ok(s, table.take(0, "JK"))
    s = table.ok(s, table.meld(s, 0, "[JK→6♠ 7♠ 8♠]"))
    s = table.ok(s, table.exchange(0, "6♠"))
    s = table.ok(s, table.lay(s, 0, "JK", 1, joker_as="9♣"))
    assert table.rule_events() == ["LAID_OFF", "WENT_OUT"]
    assert table.melds(s) == ["[9♦ 9♥ 9♠ JK→9♣]", "[6♠ 7♠ 8♠]"]
    assert table.deal_points(s)[0] == 15


# -- more meld edges -------------------------------------------------------------------------------


def test_r_m_12_a_set_joker_must_be_declared(table):
    s = table.build(hands={0: "5♠ 5♥ JK 9♣"})
    assert table.reason(s, table.meld(s, 0, "[5♥ 5♠ JK]")) == "JOKER_MUST_BE_DECLARED"


def test_r_m_31_a_sequence_ending_in_jokers_grows_past_them(table):
    # The ends are the jokers' cards: 8♥ above the JK→7♥; K♥ below the JK→A♥, round the corner.
    s = table.build(
        hands={0: "8♥ K♣ 9♦"}, melds=["[5♥ 6♥ JK→7♥]", "[JK→A♣ 2♣ 3♣]", MINE]
    )  # fmt: skip
    assert table.reason(s, table.lay(s, 0, "8♥", 1, "low")) == "LAY_OFF_DOES_NOT_FIT"
    s = table.ok(s, table.lay(s, 0, "8♥", 1, "high"))
    s = table.ok(s, table.lay(s, 0, "K♣", 2, "low"))
    assert table.melds(s)[:2] == ["[5♥ 6♥ JK→7♥ 8♥]", "[K♣ JK→A♣ 2♣ 3♣]"]
    assert table.credited(s, 2) == {"K♣": 0, "JK→A♣": 1, "2♣": 1, "3♣": 1}


def test_a_m_03_meld_owner_credit_goes_to_the_melds_owner_not_the_jokers_layer(table):
    # Seat 2 laid the joker on seat 1's [5♥ 6♥ 7♥] as the 8♥; P exchanges the 8♥.
    s = table.build(
        hands={0: "8♥ 9♣ 4♦"},
        melds=[(1, "[5♥ 6♥ 7♥ JK→8♥]", {"JK": 2}), (2, "[2♠ 3♠ 4♠]")],
        options={"exchanged_card_credit": "MELD_OWNER"},
    )
    s = table.ok(s, table.exchange(0, "8♥"))
    assert table.credited(s, 1) == {"5♥": 1, "6♥": 1, "7♥": 1, "8♥": 1}
    assert table.hand(s, 0) == table.bag("JK 9♣ 4♦")


def test_r_m_32_no_exchange_out_of_turn(table):
    # §2.5: every operation only in one's own turn; seat 1 holds the 9♣ during P's turn.
    s = table.build(hands={0: "K♦ 4♦", 1: "9♣ 5♦ 6♦"}, melds=[(2, "[8♣ JK→9♣ 10♣]")])
    assert table.reason(s, table.exchange(1, "9♣")) == "NOT_YOUR_TURN"


def test_c_m_2_a_card_melded_since_the_last_reshuffle_allows_another(table):
    # Three table cards at the last reshuffle; P's [2♠ 3♠ 4♠] has been laid since (six now).
    s = table.build(
        3,
        hands={0: "K♣ 9♦", 1: "3♦ 4♦"},
        melds=[MINE, (1, "[J♥ Q♥ K♥]")],
        bridge="8♥ 5♣",
        stock="",
        phase="DRAW",
        spare=2,
        reshuffled_at=3,
        options={"stock_exhausted": "RESHUFFLE_BRIDGE"},
    )
    s = table.ok(s, table.draw(0))
    assert table.kinds() == ["STOCK_RESTOCKED", "CARDS_DRAWN"]
    assert (table.bridge(s), table.stock_size(s), s.most.table_cards_at_reshuffle) == ([], 1, 6)


def test_r_m_21_a_joker_taken_along_may_go_straight_back_into_the_bridge(table):
    # Only the first card taken is owed (§2.8 a); the joker taken with it goes to the hand
    # freely and may be discarded at once.
    s = table.build(hands={0: "9♥ 9♠ 4♦"}, bridge="K♦ 9♣ JK", phase="DRAW")
    s = table.ok(s, table.take(0, "9♣"))
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))
    s = table.ok(s, table.discard(s, 0, "JK"))
    assert table.bridge(s) == ["K♦", "JK"]
    assert table.hand(s, 0) == table.bag("4♦")
