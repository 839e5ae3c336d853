"""Every test example of rummy_and_counting.md §2.12 (T-M-*), one test each,
named after its id: a hand-built table, the example's moves, the exact result.
Defaults (the "seed" preset) unless an option is named. P is seat 0, to act,
after his draw unless the example draws; melds on the table were laid by
seat 1 unless said otherwise."""

from __future__ import annotations

# An own meld, for a P who must have melded this hand (R-M-31).
MINE = (0, "[2♠ 3♠ 4♠]")


def test_t_m_02_a_sequence_round_the_corner_is_legal(table):
    s = table.build(hands={0: "Q♥ K♥ A♥ 2♥ 3♥ 9♣"})
    s = table.ok(s, table.meld(s, 0, "[Q♥ K♥ A♥ 2♥ 3♥]"))
    assert table.melds(s) == ["[Q♥ K♥ A♥ 2♥ 3♥]"]
    assert table.rule_events() == ["MELDED"]
    assert table.events[0].points == 10 + 10 + 15 + 5 + 5
    assert table.hand(s, 0) == table.bag("9♣")


def test_t_m_03_three_jacks_are_a_meld_two_are_not(table):
    """As the spec writes it: `Meld([J♠ J♣ J♦])` is legal (K-M-1: another
    order of the set is the set), stored and answered in its one spelling."""
    s = table.build(hands={0: "J♠ J♣ J♦ 9♣ 4♦"})
    assert table.reason(s, table.meld(s, 0, "[J♠ J♣]", raw=True)) == "MELD_TOO_SHORT"
    answer = table.apply(s, table.meld(s, 0, "[J♠ J♣ J♦]", raw=True))
    assert answer.accepted
    assert answer.notation == "MELD [JC JD JS]"
    assert table.melds(answer.state) == ["[J♣ J♦ J♠]"]


def test_t_m_05_a_joker_may_not_stand_for_a_card_in_the_bridge(table):
    s = table.build(hands={0: "8♦ JK 10♦ 5♣ 6♣"}, bridge="3♠ 9♦ K♣")
    rejection = table.rejection(s, table.meld(s, 0, "[8♦ JK→9♦ 10♦]"))
    assert table.reason(s, table.meld(s, 0, "[8♦ JK→9♦ 10♦]")) == "JOKER_IDENTITY_ON_TABLE"
    assert rejection.rule == "R-M-13"
    # The same meld is fine once the 9♦ lies nowhere on the table.
    s = table.build(hands={0: "8♦ JK 10♦ 5♣ 6♣"}, bridge="3♠ K♣")
    table.ok(s, table.meld(s, 0, "[8♦ JK→9♦ 10♦]"))


def test_t_m_06_taking_from_the_bridge_takes_every_newer_card(table):
    hand = {0: "9♥ 9♠ 4♦ K♣"}
    s = table.build(hands=hand, bridge="5♦ 9♣ 7♥ 2♠", phase="DRAW")
    s = table.ok(s, table.take(0, "9♣"))
    assert table.hand(s, 0) == table.bag("9♥ 9♠ 4♦ K♣ 9♣ 7♥ 2♠")
    assert table.bridge(s) == ["5♦"]
    assert table.rule_events() == ["BRIDGE_TAKEN"]
    assert [table.text(v) for v in table.events[0].cards] == ["9♣", "7♥", "2♠"]
    assert s.most.bridge_card_owed
    assert table.reason(s, table.discard(s, 0, "4♦")) == "BRIDGE_CARD_NOT_MELDED"
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))
    assert not s.most.bridge_card_owed
    table.ok(s, table.discard(s, 0, "4♦"))


def test_t_m_06_a_take_whose_first_card_cannot_be_melded_is_illegal(table):
    s = table.build(hands={0: "9♥ 4♦ K♣ 2♥"}, bridge="5♦ 9♣ 7♥ 2♠", phase="DRAW")
    rejection = table.rejection(s, table.take(0, "9♣"))
    assert table.reason(s, table.take(0, "9♣")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    assert rejection.rule == "C-M-1"
    # The newest card alone: the 2♠ meets only the 2♥, no meld — refused too (A-M-02).
    assert table.reason(s, table.take(0, "2♠")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    assert table.legal(s) == ["DRAW"]


def test_t_m_08_no_lay_off_before_a_meld_of_ones_own(table):
    s = table.build(hands={0: "4♥ 9♣ 5♦"}, melds=["[K♥ A♥ 2♥ 3♥]"])
    assert table.reason(s, table.lay(s, 0, "4♥", 1, "high")) == "LAY_OFF_NEEDS_OWN_MELD"


def test_t_m_09_a_lay_off_on_anothers_meld_scores_for_the_layer(table):
    # B (seat 1) owns [K♥ A♥ 2♥ 3♥]; A (seat 0) has melded.
    s = table.build(hands={0: "4♥ 5♥ Q♥ 9♣"}, melds=["[K♥ A♥ 2♥ 3♥]", MINE])
    s = table.ok(s, table.lay(s, 0, "4♥", 1, "high"))
    assert table.melds(s)[0] == "[K♥ A♥ 2♥ 3♥ 4♥]"
    assert table.credited(s, 1)["4♥"] == 0
    assert table.rule_events() == ["LAID_OFF"]
    assert (table.events[0].points, table.events[0].most.owner) == (5, 1)
    assert s.most.melds[0].owner == 1  # the meld stays B's
    s = table.ok(s, table.lay(s, 0, "5♥", 1, "high"))
    s = table.ok(s, table.lay(s, 0, "Q♥", 1, "low"))
    assert table.melds(s)[0] == "[Q♥ K♥ A♥ 2♥ 3♥ 4♥ 5♥]"


def test_t_m_11_an_exchanged_card_takes_the_jokers_place_and_scores_for_the_exchanger(table):
    # A (seat 1) owns [8♣ JK→9♣ 10♣]; B (seat 0) holds the 9♣.
    s = table.build(hands={0: "9♣ 9♠ 4♦"}, melds=["[8♣ JK→9♣ 10♣]"])
    assert table.reason(s, table.exchange(0, "9♠")) == "NO_JOKER_STANDS_FOR_CARD"
    s = table.ok(s, table.exchange(0, "9♣"))
    assert table.melds(s) == ["[8♣ 9♣ 10♣]"]
    assert table.hand(s, 0) == table.bag("JK 9♠ 4♦")
    assert table.credited(s, 1) == {"8♣": 1, "9♣": 0, "10♣": 1}
    assert table.rule_events() == ["JOKER_EXCHANGED"]


def test_t_m_12_a_card_a_table_joker_stands_for_may_not_go_into_the_bridge(table):
    s = table.build(hands={0: "9♣ 4♦"}, melds=["[8♣ JK→9♣ 10♣]"])
    rejection = table.rejection(s, table.discard(s, 0, "9♣"))
    assert table.reason(s, table.discard(s, 0, "9♣")) == "CARD_REPRESENTED_BY_JOKER"
    assert rejection.rule == "R-M-13"
    assert "EXCHANGE 9C" in table.legal(s)  # P may exchange instead
    assert "DISCARD 9C" not in table.legal(s)


def test_t_m_14_scoring_melds_plus_hand_minus(table):
    # P (seat 0) owns [8♣ 9♣ 10♣] and [J♠ J♣ JK→J♦], and laid A♥ off on seat 2's meld;
    # he holds K♠ and the other joker. Seat 1 goes out with his last card. The set
    # lies on the table as the spec writes it: a valid state (K-M-1).
    s = table.build(
        hands={0: "K♠ JK", 1: "3♦", 2: "4♣ 5♣ 6♣"},
        melds=[(0, "[8♣ 9♣ 10♣]"), (0, "[J♠ J♣ JK→J♦]"), (2, "[Q♥ K♥ A♥]", {"A♥": 0})],
        current=1,
        melded=[1],
        as_written=True,
    )
    assert table.melds(s)[1] == "[J♠ J♣ JK→J♦]"
    s = table.ok(s, table.discard(s, 1, "3♦"))
    assert table.melds(s)[1] == "[J♣ J♠ JK→J♦]"
    assert table.rule_events() == ["WENT_OUT"]
    assert table.deal_points(s)[0] == (5 + 5 + 10) + 15 + (10 + 10 + 0) - (10 + 100)
    assert table.deal_points(s)[0] == -55
    assert table.deal_points(s)[2] == 20 - 15
    assert table.scores(s) == table.deal_points(s)
    assert table.match_phase(s) == "DEAL_OVER"


def test_t_m_14_the_joker_set_as_the_spec_writes_it_is_melded(table):
    """T-M-14's `[J♠ J♣ JK→J♦]`, laid as written (K-M-1: the set in another order)."""
    s = table.build(hands={0: "J♠ J♣ JK 9♣ 4♦"})
    answer = table.apply(s, table.meld(s, 0, "[J♠ J♣ JK→J♦]", raw=True))
    assert answer.accepted
    assert answer.notation == "MELD [JC JS RJ=JD]"
    assert "MELD [JC JS RJ=JD]" in table.legal(s)
    assert table.melds(answer.state) == ["[J♣ J♠ JK→J♦]"]
    assert answer.events[0].points == 20


def test_t_m_15_going_out_scores_the_table_cards_alone(table):
    # The table cards worth 70: [J♣ Q♣ K♣ A♣] 45 and [5♥ 6♥ 7♥ 8♥ 9♥] 25.
    s = table.build(hands={0: "3♦"}, melds=[(0, "[J♣ Q♣ K♣ A♣]"), (0, "[5♥ 6♥ 7♥ 8♥ 9♥]")])
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert table.rule_events() == ["WENT_OUT"]
    assert table.deal_points(s)[0] == 70
    assert list(s.match.deal_winners) == [0]


def test_t_m_17_two_jokers_in_a_set_of_fives(table):
    """As the spec writes it, `Meld([5♠ JK→5♥ JK→5♦])`: legal, each joker
    keeping the identity it was given (the red one 5♥, the black one 5♦)."""
    s = table.build(hands={0: "5♠ JK JK 9♣"})
    answer = table.apply(s, table.meld(s, 0, "[5♠ JK→5♥ JK→5♦]", raw=True))
    assert answer.accepted
    assert answer.notation == "MELD [5S BJ=5D RJ=5H]"
    s = table.ok(s, table.meld(s, 0, "[5♠ JK→5♥ JK→5♦]", raw=True))
    assert table.melds(s) == ["[5♠ JK→5♦ JK→5♥]"]
    assert table.events[0].points == 5
    s = table.build(hands={0: "5♠ JK JK 9♣"}, bridge="5♥")
    assert table.reason(s, table.meld(s, 0, "[5♠ JK→5♥ JK→5♦]")) == "JOKER_IDENTITY_ON_TABLE"


def test_t_m_18_a_joker_as_the_ace_turning_the_corner(table):
    s = table.build(hands={0: "K♦ JK 2♦ 9♣"})
    table.ok(s, table.meld(s, 0, "[K♦ JK→A♦ 2♦]"))
    s = table.build(hands={0: "K♦ JK 2♦ 9♣"}, melds=["[A♦ A♣ A♠]"])
    assert table.reason(s, table.meld(s, 0, "[K♦ JK→A♦ 2♦]")) == "JOKER_IDENTITY_ON_TABLE"


def test_t_m_20_the_whole_suit_takes_no_lay_off(table):
    whole = "[5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♥ 3♥ 4♥]"
    s = table.build(hands={0: "JK 9♣ 4♦"}, melds=[whole, MINE])
    for end in ("low", "high"):
        assert table.reason(s, table.lay(s, 0, "JK", 1, end)) == "LAY_OFF_DOES_NOT_FIT"
    assert not [
        m for m in table.legal(s) if m.startswith("LAY") and m.endswith(("ON 1 LOW", "ON 1 HIGH"))
    ]
