"""Every test example of rummy_and_counting.md §1.18 (T-S40-*), one test each,
named after its id: a hand-built table, the example's moves, the exact result.
Defaults (the FISC preset) unless an option is named. P is seat 0, to act,
after his draw unless the example draws; melds on the table were laid by
seat 1 unless said otherwise."""

from __future__ import annotations

import pytest

# An opened P needs a meld of his own on the table (or `opened=[0]`).
MINE = (0, "[2♠ 3♠ 4♠]")


def test_t_s40_01_opening_worth_42_is_legal(table):
    s = table.build(hands={0: "8♣ 9♣ JK 5♥ 5♦ 5♠ K♠ 2♦"})
    s = table.ok(s, table.open(s, 0, "[8♣ 9♣ JK→10♣]", "[5♥ 5♦ 5♠]"))
    assert table.opened(s, 0)
    assert table.melds(s) == ["[8♣ 9♣ JK→10♣]", "[5♦ 5♥ 5♠]"]
    assert table.hand(s, 0) == table.bag("K♠ 2♦")
    assert table.rule_events() == ["OPENED"]
    assert table.events[0].points == 27 + 15


def test_t_s40_03_three_aces_are_33_and_42_with_court_values(table):
    hand = {0: "A♥ A♠ A♦ 7♣ 9♦ Q♠"}
    s = table.build(hands=hand)
    assert table.reason(s, table.open(s, 0, "[A♥ A♠ A♦]")) == "OPENING_BELOW_40"
    s = table.build(hands=hand, options={"court_values_11_14": True})
    s = table.ok(s, table.open(s, 0, "[A♥ A♠ A♦]"))
    assert table.events[0].points == 42


def test_t_s40_04_low_ace_sequence_counts_1_high_ace_11(table):
    s = table.build(hands={0: "A♣ 2♣ 3♣ K♥ K♣ K♦ Q♠ K♠ A♠ 7♦ 9♥"})
    short = table.open(s, 0, "[A♣ 2♣ 3♣]", "[K♥ K♣ K♦]")
    assert table.reason(s, short) == "OPENING_BELOW_40"  # 6 + 30 = 36
    s = table.ok(s, table.open(s, 0, "[A♣ 2♣ 3♣]", "[K♥ K♣ K♦]", "[Q♠ K♠ A♠]"))
    assert table.events[0].points == 6 + 30 + 31


def test_t_s40_06_king_ace_two_is_no_sequence(table):
    s = table.build(hands={0: "K♠ A♠ 2♠ 7♦ 9♥"}, melds=[MINE])
    assert table.reason(s, table.meld(s, 0, "[K♠ A♠ 2♠]")) == "ACE_IN_MIDDLE_OF_SEQUENCE"


def test_t_s40_07_a_card_belongs_to_one_meld_only(table):
    one = "[9♣ 9♦ 9♥ 8♥ 7♥]"
    s = table.build(hands={0: "9♣ 9♦ 9♥ 9♥ 8♥ 7♥ K♠ 2♦"})
    assert table.reason(s, table.open(s, 0, one)) == "NOT_A_SET_OR_SEQUENCE"
    two = ("[9♣ 9♦ 9♥]", "[7♥ 8♥ 9♥]")
    s = table.ok(s, table.open(s, 0, *two))  # 27 + 24: both 9♥ copies held
    assert table.melds(s) == ["[9♣ 9♦ 9♥]", "[7♥ 8♥ 9♥]"]
    s = table.build(hands={0: "9♣ 9♦ 9♥ 8♥ 7♥ K♠ 2♦"})
    assert table.reason(s, table.open(s, 0, *two)) == "CARD_NOT_IN_HAND"


def test_t_s40_09_a_three_card_set_declares_its_joker(table):
    hand = {0: "7♣ 7♠ JK 2♦ 9♥"}
    s = table.build(hands=hand, melds=[MINE])
    assert table.reason(s, table.meld(s, 0, "[7♣ 7♠ JK→7♣]")) == "SET_SUITS_MUST_DIFFER"
    assert table.reason(s, table.meld(s, 0, "[7♣ 7♠ JK]")) == "JOKER_MUST_BE_DECLARED"
    table.ok(s, table.meld(s, 0, "[7♣ 7♠ JK→7♥]"))
    s = table.build(hands=hand, melds=[MINE], options={"declare_ambiguous_joker": False})
    s = table.ok(s, table.meld(s, 0, "[7♣ 7♠ JK]"))
    assert table.melds(s)[-1] == "[7♣ 7♠ JK]"
    s = table.build(hands=hand, melds=[MINE], options={"set_joker_positional_convention": True})
    s = table.ok(s, table.meld(s, 0, "[7♣ 7♠ JK]", raw=True))
    assert table.melds(s)[-1] == "[7♣ 7♠ JK→7♥]"  # beside 7♠, both black: hearts


@pytest.mark.parametrize(
    ("written", "laid"),
    [("[10♥ 10♠ JK]", "[10♥ 10♠ JK→10♣]"), ("[JK 7♥ 7♦]", "[7♦ 7♥ JK→7♠]")],
)
def test_t_s40_10_positional_convention_infers_an_end_joker(table, written, laid):
    ranks = " ".join(w for w in written.strip("[]").split() if w != "JK")
    s = table.build(
        hands={0: f"{ranks} JK 2♦ 9♥"},
        melds=[MINE],
        options={"set_joker_positional_convention": True},
    )
    s = table.ok(s, table.meld(s, 0, written, raw=True))
    assert table.melds(s)[-1] == laid


def test_t_s40_10_positional_convention_needs_a_declaration_in_the_middle(table):
    s = table.build(
        hands={0: "7♥ 7♠ JK 2♦ 9♥"},
        melds=[MINE],
        options={"set_joker_positional_convention": True},
    )
    move = table.meld(s, 0, "[7♥ JK 7♠]", raw=True)
    assert table.reason(s, move) == "JOKER_MUST_BE_DECLARED"


def test_t_s40_12_unopened_player_takes_the_discard_only_with_v6(table):
    hand = {0: "5♥ 5♦ 10♣ J♣ Q♣ K♥ K♦ K♣ 2♠ 3♦ 8♥ 9♠ 4♣"}
    s = table.build(hands=hand, phase="DRAW", top="5♠")
    assert table.reason(s, table.take(0)) == "TAKE_DISCARD_NEEDS_OPENED"
    s = table.build(
        hands=hand, phase="DRAW", top="5♠", options={"discard_pickup_for_opening": True}
    )
    s = table.ok(s, table.take(0))
    # Opening from the hand alone (60) leaves the 5♠ to a lay-off: refused.
    from_hand = table.open(s, 0, "[10♣ J♣ Q♣]", "[K♥ K♦ K♣]")
    assert table.reason(s, from_hand) == "OPENING_MUST_USE_TAKEN_CARD"
    s = table.ok(s, table.open(s, 0, "[5♠ 5♥ 5♦]", "[10♣ J♣ Q♣]"))
    assert table.events[0].points == 45


def test_t_s40_12_v6_take_is_refused_when_no_opening_can_hold_the_card(table):
    s = table.build(
        hands={0: "5♥ 10♣ J♣ Q♣ K♥ K♦ K♣ 2♠ 3♦ 8♥ 9♠ 4♣ 7♦"},
        phase="DRAW",
        top="5♠",
        options={"discard_pickup_for_opening": True},
    )
    assert table.reason(s, table.take(0)) == "TAKEN_CARD_CANNOT_BE_PLACED"


def test_t_s40_13_opened_player_takes_a_card_he_can_lay_off(table):
    s = table.build(hands={0: "2♦ 9♠ K♣"}, melds=[MINE, "[7♥ 8♥ 9♥]"], phase="DRAW", top="6♥")
    s = table.ok(s, table.take(0))
    assert table.reason(s, table.discard(s, 0, "2♦")) == "TAKEN_CARD_NOT_PLACED"
    s = table.ok(s, table.lay(s, 0, "6♥", 2, "low"))
    assert table.melds(s)[1] == "[6♥ 7♥ 8♥ 9♥]"
    table.ok(s, table.discard(s, 0, "2♦"))


def test_t_s40_13_a_take_that_cannot_be_placed_is_refused_up_front(table):
    s = table.build(hands={0: "2♦ 9♠ K♣"}, melds=[MINE, "[7♥ 8♥ 9♥]"], phase="DRAW", top="6♣")
    assert table.reason(s, table.take(0)) == "TAKEN_CARD_CANNOT_BE_PLACED"
    assert table.legal(s) == ["DRAW"]


def test_t_s40_15_unopened_may_not_discard_a_playable_card_or_a_joker(table):
    s = table.build(hands={0: "7♦ 3♦ 8♦ JK K♠"}, melds=["[4♦ 5♦ 6♦]"])
    assert table.reason(s, table.discard(s, 0, "7♦")) == "DISCARD_PLAYABLE_UNOPENED"
    assert table.reason(s, table.discard(s, 0, "3♦")) == "DISCARD_PLAYABLE_UNOPENED"
    assert table.reason(s, table.discard(s, 0, "JK")) == "DISCARD_JOKER"
    table.ok(s, table.discard(s, 0, "8♦"))


def test_t_s40_16_opened_discard_ban_counts_active_players(table):
    layout = {"hands": {0: "7♦ 8♦ K♠"}, "melds": [MINE, "[4♦ 5♦ 6♦]"]}
    s = table.build(3, **layout)
    assert table.reason(s, table.discard(s, 0, "7♦")) == "DISCARD_PLAYABLE_OPENED"
    s = table.build(2, **layout)
    table.ok(s, table.discard(s, 0, "7♦"))
    s = table.build(3, **layout, options={"forbid_playable_discard_opened": "NEVER"})
    table.ok(s, table.discard(s, 0, "7♦"))


def test_t_s40_18_no_meld_may_empty_the_hand_before_the_discard(table):
    layout = {"hands": {0: "6♥ 6♠"}, "melds": [MINE], "phase": "DRAW", "stock": "6♦ …"}
    s = table.build(**layout)
    s = table.ok(s, table.draw(0))
    assert table.reason(s, table.meld(s, 0, "[6♥ 6♠ 6♦]")) == "NO_CARD_LEFT_TO_DISCARD"
    s = table.build(**layout, options={"close_without_discard": True})
    s = table.ok(s, table.draw(0))
    s = table.ok(s, table.meld(s, 0, "[6♥ 6♠ 6♦]"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert "CLOSED" in table.rule_events()
    assert list(s.match.deal_winners) == [0]


FIRST_TURN_HAND = "A♣ 2♣ 3♣ 4♣ 5♥ 6♥ 7♥ K♠ K♥ K♦ 8♣ 9♣ 10♣ Q♦"
FIRST_TURN_MELDS = ("[A♣ 2♣ 3♣ 4♣]", "[5♥ 6♥ 7♥]", "[K♠ K♥ K♦]", "[8♣ 9♣ 10♣]")


def test_t_s40_19_nobody_closes_in_his_first_turn(table):
    s = table.build(hands={0: FIRST_TURN_HAND}, turn=1, dealer=2)
    move = table.open(s, 0, *FIRST_TURN_MELDS)
    assert table.reason(s, move) == "NO_CLOSE_IN_FIRST_TURN"


@pytest.mark.parametrize(("flat", "penalty"), [(False, None), (True, 100)])
def test_t_s40_19_with_v8_he_closes_and_the_others_pay_in_full(table, flat, penalty):
    options = {"close_on_first_turn": True, "unopened_flat_penalty_100": flat}
    s = table.build(hands={0: FIRST_TURN_HAND}, turn=1, dealer=2, options=options)
    s = table.ok(s, table.open(s, 0, *FIRST_TURN_MELDS))
    s = table.ok(s, table.discard(s, 0, "Q♦"))
    assert table.match_phase(s) == "DEAL_OVER"
    from croupier.games.scala40.rules import rules_for
    from croupier.games.scala40.scoring import hand_penalty

    rules = rules_for(s.options.scala40)
    full = [hand_penalty(s.scala40.hands[seat].cards, rules) for seat in (1, 2)]
    assert table.deal_points(s) == [0, *([penalty] * 2 if penalty else full)]


def test_t_s40_21_a_card_of_another_suit_does_not_extend_a_sequence(table):
    s = table.build(hands={0: "6♣ 6♥ K♠"}, melds=[MINE, "[7♥ 8♥ 9♥]"])
    assert table.reason(s, table.lay(s, 0, "6♣", 2, "low")) == "LAY_OFF_DOES_NOT_FIT"
    table.ok(s, table.lay(s, 0, "6♥", 2, "low"))


def test_t_s40_22_a_sequence_with_a_joker_takes_cards_at_its_ends_only(table):
    s = table.build(hands={0: "5♥ 9♥ 10♥ 6♥ JK K♠"}, melds=[MINE, "[JK→6♥ 7♥ 8♥]"])
    after = table.ok(s, table.lay(s, 0, "5♥", 2, "low"))
    assert table.melds(after)[1] == "[5♥ JK→6♥ 7♥ 8♥]"
    after = table.ok(s, table.lay(s, 0, "9♥", 2, "high"))
    assert table.melds(after)[1] == "[JK→6♥ 7♥ 8♥ 9♥]"
    assert table.reason(s, table.lay(s, 0, "10♥", 2, "high")) == "LAY_OFF_DOES_NOT_FIT"
    for end in ("low", "high"):
        assert table.reason(s, table.lay(s, 0, "6♥", 2, end)) == "LAY_OFF_DOES_NOT_FIT"
    assert table.reason(s, table.lay(s, 0, "JK", 2, "high")) == "TOO_MANY_JOKERS"
    table.ok(s, table.swap(0, "6♥", 2))  # 6♥ is a swap, not a lay-off


P2_HAND = "A♠ JK K♦ 7♣"  # 11 + 25 + 10 + 7 = 53
P3_HAND = "2♣ 3♣ 4♦ 5♦ 6♥ 7♥ 8♠ 9♠ 10♠ J♦ Q♦ K♣ 3♦"  # 87, never opened


@pytest.mark.parametrize(
    ("options", "p2", "p3"),
    [({}, 53, 87), ({"unopened_flat_penalty_100": True}, 53, 100)],
)
def test_t_s40_24_penalties_of_the_hands_left(table, options, p2, p3):
    s = table.build(
        hands={0: "Q♣", 1: P2_HAND, 2: P3_HAND},
        melds=[MINE, (1, "[9♥ 10♥ J♥]")],
        options=options,
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.deal_points(s) == [0, p2, p3]
    assert table.scores(s) == [0, p2, p3]


IN_HAND = "A♣ 2♣ 3♣ 4♣ 2♥ 2♠ 2♦ 3♥ 3♠ 3♦ 4♥ 4♠ 4♦ K♥"
IN_HAND_MELDS = ("[A♣ 2♣ 3♣ 4♣]", "[2♥ 2♠ 2♦]", "[3♥ 3♠ 3♦]", "[4♥ 4♠ 4♦]")
P3_IN_HAND = "5♣ 6♣ 7♦ 8♦ 9♥ 10♥ J♠ Q♠ 5♦ 6♦ 7♥ 8♥ 5♠"  # never opened


@pytest.mark.parametrize(
    ("flat", "p3"), [(False, 2 * 87), (True, 200)], ids=["doubled", "doubled-flat"]
)
def test_t_s40_24_closing_in_hand_doubles_with_v7(table, flat, p3):
    from croupier.games.scala40.rules import rules_for
    from croupier.games.scala40.scoring import hand_penalty

    s = table.build(
        hands={0: IN_HAND, 1: P2_HAND, 2: P3_IN_HAND},
        melds=[(1, "[9♣ 10♣ J♣]")],
        options={"close_in_hand_doubles": True, "unopened_flat_penalty_100": flat},
    )
    p3_cards = hand_penalty(s.scala40.hands[2].cards, rules_for(s.options.scala40))
    s = table.ok(s, table.open(s, 0, *IN_HAND_MELDS))
    s = table.ok(s, table.discard(s, 0, "K♥"))
    assert table.deal_points(s) == [0, 106, 200 if flat else 2 * p3_cards]


@pytest.mark.parametrize(
    ("threshold", "before", "hand", "out"),
    [(151, 140, "A♠", True), (151, 139, "A♠", False), (101, 95, "6♠", True)],
)
def test_t_s40_25_elimination_at_the_threshold(table, threshold, before, hand, out):
    s = table.build(
        hands={0: "Q♣", 1: hand},
        melds=[MINE, (2, "[9♥ 10♥ J♥]")],
        scores=[0, before, 0],
        options={"elimination_threshold": threshold},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.scores(s)[1] == before + (11 if hand == "A♠" else 6)
    assert table.eliminated(s)[1] is out


def test_t_s40_27_old_rule_splits_a_sequence_into_parts_of_three_to_five(table):
    layout = {"hands": {0: "4♣ 6♣ K♠ 2♦"}, "melds": [MINE, "[5♣ 6♣ 7♣ 8♣ 9♣]"]}
    s = table.build(**layout)
    after = table.ok(s, table.lay(s, 0, "4♣", 2, "low"))
    assert table.melds(after)[1] == "[4♣ 5♣ 6♣ 7♣ 8♣ 9♣]"
    for end in ("low", "high"):
        assert table.reason(s, table.lay(s, 0, "6♣", 2, end)) == "LAY_OFF_DOES_NOT_FIT"
    s = table.build(**layout, options={"sequence_split_max5": True})
    assert table.reason(s, table.lay(s, 0, "4♣", 2, "low")) == "SEQUENCE_TOO_LONG"
    whole = table.split(s, 0, 2, "[4♣ 5♣ 6♣ 7♣ 8♣ 9♣]")
    assert table.reason(s, whole) == "SEQUENCE_TOO_LONG"
    s = table.ok(s, table.split(s, 0, 2, "[4♣ 5♣ 6♣]", "[6♣ 7♣ 8♣ 9♣]"))
    assert table.melds(s)[1:] == ["[4♣ 5♣ 6♣]", "[6♣ 7♣ 8♣ 9♣]"]
    assert table.hand(s, 0) == table.bag("K♠ 2♦")


def test_t_s40_28_closing_in_hand_below_40(table):
    layout = {"hands": {0: IN_HAND}, "melds": ["[9♣ 10♣ J♣]"]}
    s = table.build(**layout)
    s = table.ok(s, table.open(s, 0, *IN_HAND_MELDS))
    assert table.events[0].points == 37
    assert table.legal(s) == ["DISCARD KH"]
    s = table.ok(s, table.discard(s, 0, "K♥"))
    assert table.match_phase(s) == "DEAL_OVER"
    closed = [e for e in table.events if e.HasField("scala40") and e.scala40.in_hand]
    assert len(closed) == 1
    s = table.build(**layout, options={"close_in_hand_requires_40": True})
    assert table.reason(s, table.open(s, 0, *IN_HAND_MELDS)) == "OPENING_BELOW_40"


def test_t_s40_30_a_quad_of_naturals_goes_to_the_discard_pile_with_v13(table):
    s = table.build(
        hands={0: "8♥ 8♠ 8♦ 8♣ K♠ 2♦"},
        melds=[MINE],
        top="3♥",
        options={"quads_to_discard_pile": True},
    )
    s = table.ok(s, table.meld(s, 0, "[8♣ 8♦ 8♥ 8♠]"))
    assert table.melds(s) == ["[2♠ 3♠ 4♠]"]
    assert table.pile(s)[-5:] == ["3♥", "8♣", "8♦", "8♥", "8♠"]
    assert table.rule_events() == ["MELDED", "QUAD_DISCARDED"]
    s = table.ok(s, table.discard(s, 0, "K♠"))
    assert table.top(s) == "K♠"


def _joker_upcard_seed(table):
    for seed in range(2000):
        s = table.new(3, {"upcard_joker_redraw": False}, seed=seed)
        if table.top(s) == "JK":
            return seed
    raise AssertionError("no seed turns up a joker")


def test_t_s40_31_a_joker_upcard_goes_back_into_the_stock(table):
    seed = _joker_upcard_seed(table)
    s = table.new(3, seed=seed)
    assert table.top(s) != "JK"
    assert table.stock_size(s) == 108 - 3 * 13 - 1
    from croupier.engine import api
    from croupier.v1 import service_pb2

    events = api.new_game(
        service_pb2.NewGameRequest(game="scala40", seat_count=3, seed=seed)
    ).events
    kinds = [e.scala40.kind for e in events if e.HasField("scala40")]
    assert kinds and all(k == 8 for k in kinds)  # UPCARD_JOKER_RETURNED


def test_t_s40_31_with_v20_off_and_v11_the_first_player_keeps_the_joker_upcard(table):
    seed = _joker_upcard_seed(table)
    options = {"upcard_joker_redraw": False, "first_player_may_take_upcard": True}
    s = table.new(3, options, seed=seed)
    first = s.current_seat
    s = table.ok(s, table.take(first))
    assert table.hand(s, first)["JK"] >= 1
    assert table.reason(s, table.discard(s, first, "JK")) == "DISCARD_OF_KEPT_CARD"


def test_t_s40_33_drawing_the_last_card_turns_the_whole_pile_into_the_stock(table):
    s = table.build(
        hands={0: "K♠ 2♦ 9♥"},
        melds=[MINE, "[5♥ 6♥ 7♥]"],
        phase="DRAW",
        stock="Q♣",
    )
    pile = len(s.scala40.discard)
    assert pile > 30
    s = table.ok(s, table.draw(0))
    assert table.stock_size(s) == pile
    assert table.pile(s) == []
    s = table.ok(s, table.discard(s, 0, "2♦"))
    assert table.pile(s) == ["2♦"]


def test_t_s40_34_the_taken_card_may_replace_a_joker(table):
    s = table.build(hands={0: "K♣ 2♦ 9♥"}, melds=[MINE, "[5♠ JK→6♠ 7♠]"], phase="DRAW", top="6♠")
    s = table.ok(s, table.take(0))
    s = table.ok(s, table.swap(0, "6♠", 2))
    assert table.melds(s)[1] == "[5♠ 6♠ 7♠]"
    assert table.hand(s, 0) == table.bag("K♣ 2♦ 9♥ JK")
    table.ok(s, table.discard(s, 0, "2♦"))


def test_t_s40_36_an_undeclared_set_joker_is_either_missing_suit(table):
    layout = {
        "hands": {0: "7♦ 7♥ K♠ 2♣"},
        "melds": [MINE, "[7♣ 7♠ JK]"],
        "options": {"declare_ambiguous_joker": False},
    }
    s = table.build(**layout)
    table.ok(s, table.swap(0, "7♦", 2))
    table.ok(s, table.swap(0, "7♥", 2))
    s = table.ok(s, table.lay(s, 0, "7♦", 2))
    assert table.melds(s)[1] == "[7♣ 7♦ 7♠ JK→7♥]"
    assert table.reason(s, table.swap(0, "7♦", 2)) == "CARD_NOT_IN_HAND"
    s = table.build(**{**layout, "hands": {0: "7♦ 7♦ 7♥ K♠"}})
    s = table.ok(s, table.lay(s, 0, "7♦", 2))
    assert table.reason(s, table.swap(0, "7♦", 2)) == "SWAP_CARD_IS_NOT_THE_JOKER"
    table.ok(s, table.swap(0, "7♥", 2))


def test_t_s40_37_a_swapped_joker_must_be_used_with_v19(table):
    s = table.build(
        hands={0: "6♠ K♠ 2♦"},
        melds=[MINE, "[5♠ JK→6♠ 7♠]", "[9♥ 10♥ J♥]"],
        options={"retrieved_joker_must_be_used": True},
    )
    s = table.ok(s, table.swap(0, "6♠", 2))
    assert table.reason(s, table.discard(s, 0, "2♦")) == "RETRIEVED_JOKER_NOT_USED"
    s = table.ok(s, table.lay(s, 0, "JK", 3, "high"))
    table.ok(s, table.discard(s, 0, "2♦"))


@pytest.mark.parametrize(("meld", "value"), [("[JK→A♥ 2♥ 3♥]", 6), ("[Q♥ K♥ JK→A♥]", 31)])
def test_t_s40_39_a_joker_is_worth_the_card_it_stands_for(table, meld, value):
    naturals = " ".join(w for w in meld.strip("[]").split() if not w.startswith("JK"))
    s = table.build(hands={0: f"{naturals} JK K♠ 2♦"}, melds=[MINE])
    s = table.ok(s, table.meld(s, 0, meld))
    assert table.events[0].points == value


def test_t_s40_39_a_joker_before_a_low_ace_would_be_a_king(table):
    s = table.build(hands={0: "A♥ 2♥ JK K♠ 2♦"}, melds=[MINE])
    assert table.reason(s, table.meld(s, 0, "[JK→K♥ A♥ 2♥]")) == "ACE_IN_MIDDLE_OF_SEQUENCE"


def test_t_s40_40_no_elimination_target_the_lowest_wins(table):
    s = table.build(
        hands={0: "Q♣", 1: "4♣", 2: "2♣"},
        melds=[MINE, (1, "[9♥ 10♥ J♥]"), (2, "[5♦ 6♦ 7♦]")],
        scores=[640, 1000, 868],
        options={"match_mode": "NO_ELIMINATION"},
    )
    s = table.ok(s, table.discard(s, 0, "Q♣"))
    assert table.scores(s) == [640, 1004, 870]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0]
