"""An audit of the counting games against the specification (PART 3 of
rules/rummy_and_counting.md) and RULES.md: edge cases of the card tables,
the running total, busts, chips, elimination and the deal rotation that the
spec's own examples do not reach. Each test: a hand-built table, a move (or
a deal's end) and the exact result. P0..Pn-1 clockwise, seed options unless
named."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.v1 import game_pb2, service_pb2

STO = "sto"
HUNDRED = "one_hundred"
CHIPS = "chips_101"


# -- «Сто», 32 cards --------------------------------------------------------------------

SEED_VALUES = [
    ("7♣", 27), ("8♦", 28), ("9♥", 29), ("10♠", 30),
    ("J♣", 22), ("Q♦", 23), ("K♥", 24), ("A♠", 31),
]  # fmt: skip


@pytest.mark.parametrize(("card", "after"), SEED_VALUES)
def test_r_c1_02_every_rank_adds_its_seed_value(table, card, after):
    s = table.build(STO, 3, hands={0: f"{card} …"}, total=20)
    s = table.ok(s, table.play(STO, 0, card))
    assert table.total(s) == after
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert s.current_seat == 1


SKAT_VALUES = [
    ("7♣", 40), ("8♦", 40), ("9♥", 40), ("10♠", 50),
    ("J♣", 42), ("Q♦", 43), ("K♥", 44), ("A♠", 51),
]  # fmt: skip


@pytest.mark.parametrize(("card", "after"), SKAT_VALUES)
def test_o_c1_1_skat_hundert_values(table, card, after):
    s = table.build(STO, 3, hands={0: f"{card} …"}, leftovers="7♥ 8♥", total=40, preset="hundert")
    assert table.total(table.ok(s, table.play(STO, 0, card))) == after


def test_r_c1_05_a_card_on_exactly_100_costs_its_whole_value(table):
    s = table.build(
        STO, 3, hands={1: "K♣ …"}, current=1, total=100, scores=[2, 0, 0], deal_number=2
    )
    s = table.ok(s, table.play(STO, 1, "K♣"))
    assert table.total(s) == 104
    assert table.deal_points(s) == [0, 4, 0]
    assert table.scores(s) == [2, 4, 0]
    assert sorted(s.match.deal_winners) == [0, 2]
    assert table.match_phase(s) == "DEAL_OVER"


def test_r_c1_05_an_ace_on_99_costs_10_and_ends_the_deal_at_once(table):
    s = table.build(STO, 4, hands={3: "A♦ …"}, current=3, total=99)
    s = table.ok(s, table.play(STO, 3, "A♦"))
    assert table.deal_points(s) == [0, 0, 0, 10]
    assert table.rule_events() == ["BUSTED"]
    assert table.match_phase(s) == "DEAL_OVER"


def test_r_c1_03_the_deal_passes_clockwise_and_penalties_carry_over(table):
    s = table.build(STO, 3, hands={0: "A♣ …"}, dealer=2, total=95, scores=[3, 0, 5], deal_number=2)
    s = table.ok(s, table.play(STO, 0, "A♣"))  # 106: P0 scores 6
    assert table.scores(s) == [9, 0, 5]
    s = table.next_deal(s)
    assert s.match.deal_number == 3
    assert s.sto.dealer == 0  # clockwise from P2, wrapping round
    assert s.current_seat == 1
    assert table.total(s) == 0  # leftovers aside: not counted
    assert [table.hand_size(s, seat) for seat in range(3)] == [10, 10, 10]
    assert len(table.leftovers(s)) == 2
    assert table.scores(s) == [9, 0, 5]


def test_o_c1_2_four_players_leave_no_leftovers_and_start_at_0(table):
    s = table.new(STO, 4, options={"leftovers": "FACE_UP_START_TOTAL"})
    assert table.leftovers(s) == []
    assert table.total(s) == 0
    assert [table.hand_size(s, seat) for seat in range(4)] == [8] * 4


def test_o_c1_4_hundert_the_buster_pays_the_overshoot_to_each_of_three(table):
    s = table.build(STO, 4, hands={0: "A♥ …"}, leftovers="", total=97, preset="hundert")
    s = table.ok(s, table.play(STO, 0, "A♥"))  # 108: 8 to each opponent
    assert table.scores(s) == [-24, 8, 8, 8]
    assert table.deal_points(s) == [-24, 8, 8, 8]


def test_c_c_4_the_exact_hundred_collector_may_still_bust_in_the_same_deal(table):
    s = table.build(
        STO, 3, hands={0: "Q♠ A♠ …", 1: "9♠ …", 2: "8♠ …"}, leftovers="7♣ 8♣", total=97,
        preset="hundert",
    )  # fmt: skip
    s = table.ok(s, table.play(STO, 0, "Q♠"))  # 100: +3 from each
    s = table.ok(s, table.play(STO, 1, "9♠"))  # 9 is worth 0 in Hundert
    s = table.ok(s, table.play(STO, 2, "8♠"))
    assert table.total(s) == 100
    assert table.scores(s) == [6, -3, -3]
    s = table.ok(s, table.play(STO, 0, "A♠"))  # 111: P0 pays 11 to each
    assert table.scores(s) == [-16, 8, 8]
    assert table.deal_points(s) == [-16, 8, 8]


def test_c_c_4_feder_the_buster_pays_one_even_for_a_big_overshoot(table):
    opts = {"settlement": "FEDER_CHIPS"}
    s = table.build(STO, 3, hands={2: "A♣ …"}, current=2, total=100, options=opts)
    s = table.ok(s, table.play(STO, 2, "A♣"))  # 111
    assert table.scores(s) == [1, 1, -2]


def test_e_c_6_the_exact_hundred_payment_counts_when_no_card_is_left(table):
    # E-C-1 + C-C-4: the deal ends without a loser after the exact-100 card;
    # the deal's points still hold the payment made when the card was played.
    s = table.build(
        STO, 3, hands={0: "Q♠", 1: "", 2: ""}, leftovers="7♣ 8♣", total=97, preset="hundert"
    )
    s = table.ok(s, table.play(STO, 0, "Q♠"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.scores(s) == [6, -3, -3]
    assert table.deal_points(s) == [6, -3, -3]
    ended = next(e for e in table.events if e.kind == game_pb2.EVENT_KIND_DEAL_ENDED)
    assert list(ended.scores) == [6, -3, -3]


def test_r_c1_06_the_last_deal_ends_the_match_even_under_chips(table):
    s = table.build(
        STO, 3, hands={1: "A♠ …"}, current=1, leftovers="7♣ 8♣", total=95, scores=[10, -4, -6],
        deal_number=3, preset="hundert",
    )  # fmt: skip
    s = table.ok(s, table.play(STO, 1, "A♠"))  # 106: P1 pays 6 to each
    assert table.scores(s) == [16, -16, 0]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0]  # the most chips
    lost = next(e for e in table.events if "loses the match" in e.text)
    assert list(lost.seats) == [1]  # the fewest chips


# -- One Hundred ----------------------------------------------------------------------------

SAFE_ON_100 = [
    ("K♠", 100), ("4♦", 100), ("10♦", 100), ("J♣", 90), ("5♦", 95), ("Q♥", 0), ("2♠", 200),
    ("A♥", 101), ("2♣", 102), ("3♥", 103), ("Q♣", 110), ("9♠", 109),
]  # fmt: skip


@pytest.mark.parametrize(("card", "after"), SAFE_ON_100)
def test_r_c2_04_every_card_on_exactly_100(table, card, after):
    s = table.build(HUNDRED, 3, hands={0: f"{card} …"}, total=100)
    s = table.ok(s, table.play(HUNDRED, 0, card))
    assert table.total(s) == after
    busted = after > 100
    assert table.eliminated(s) == ([0] if busted else [])
    assert table.match_phase(s) == ("DEAL_OVER" if busted else "DEAL_IN_PROGRESS")


def test_r_c2_04_a_black_ace_on_100_may_keep_100(table):
    s = table.build(HUNDRED, 3, hands={0: "A♠ …"}, total=100)
    s = table.ok(s, table.play(HUNDRED, 0, "A♠", sets=100))
    assert table.total(s) == 100
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"


@pytest.mark.parametrize(("before", "after", "out"), [(50, 100, []), (51, 102, [0]), (0, 0, [])])
def test_r_c2_04_the_two_of_spades_doubles_up_to_exactly_100(table, before, after, out):
    s = table.build(HUNDRED, 3, hands={0: "2♠ …"}, total=before)
    s = table.ok(s, table.play(HUNDRED, 0, "2♠"))
    assert table.total(s) == after
    assert table.eliminated(s) == out


def test_r_c2_04_a_red_ace_takes_no_choice(table):
    s = table.build(HUNDRED, 3, hands={0: "A♦ …"}, total=10)
    assert table.reason(s, table.play(HUNDRED, 0, "A♦", sets=50)) == "CHOICE_NOT_TAKEN"
    assert table.reason(s, table.play(HUNDRED, 0, "A♦", adds=11)) == "CHOICE_NOT_TAKEN"
    assert table.legal(s).count("A♦") == 1


def test_r_c2_04_a_black_ace_needs_a_total(table):
    s = table.build(HUNDRED, 3, hands={0: "A♠ …"}, total=10)
    assert table.reason(s, table.play(HUNDRED, 0, "A♠")) == "CHOICE_REQUIRED"
    assert table.reason(s, table.play(HUNDRED, 0, "A♠", adds=1)) == "CHOICE_NOT_TAKEN"
    assert table.total(table.ok(s, table.play(HUNDRED, 0, "A♠", sets=0))) == 0


def test_o_c2_6_other_queens_0_leave_the_queen_of_hearts_at_0(table):
    opts = {"other_queens": 0}
    s = table.build(HUNDRED, 3, hands={0: "Q♥ Q♣ Q♠ …"}, total=70, options=opts)
    assert table.total(table.ok(s, table.play(HUNDRED, 0, "Q♥"))) == 0
    assert table.total(table.ok(s, table.play(HUNDRED, 0, "Q♣"))) == 70
    assert table.total(table.ok(s, table.play(HUNDRED, 0, "Q♠"))) == 70


def test_o_c2_5_without_the_floor_negative_totals_play_on(table):
    opts = {"floor_zero": False}
    s = table.build(HUNDRED, 3, hands={0: "5♥ …", 1: "J♠ …", 2: "10♣ …"}, total=3, options=opts)
    s = table.ok(s, table.play(HUNDRED, 0, "5♥"))
    assert table.total(s) == -2
    s = table.ok(s, table.play(HUNDRED, 1, "J♠"))
    assert table.total(s) == -12
    s = table.ok(s, table.play(HUNDRED, 2, "10♣"))
    assert table.total(s) == 100  # a ten sets 100 from anywhere


def test_o_c2_5_without_the_floor_a_black_ace_still_sets_0_to_100(table):
    opts = {"floor_zero": False}
    s = table.build(HUNDRED, 3, hands={0: "A♣ …"}, total=-12, options=opts)
    assert [m for m in table.legal(s) if m.startswith("A♣")] == [f"A♣={t}" for t in range(101)]
    assert table.reason(s, table.play(HUNDRED, 0, "A♣", sets=-12)) == "CHOICE_OUT_OF_RANGE"
    assert table.total(table.ok(s, table.play(HUNDRED, 0, "A♣", sets=5))) == 5


def test_r_c2_04_a_four_reverses_round_a_seat_out_of_the_match(table):
    s = table.build(
        HUNDRED, 4, hands={1: "4♣ …", 0: "7♦ …", 3: "8♦ …"}, current=1, total=30,
        preset="gamerules", scores=[3, 3, 0, 3], eliminated=(2,),
    )  # fmt: skip
    s = table.ok(s, table.play(HUNDRED, 1, "4♣"))
    assert s.current_seat == 0
    s = table.ok(s, table.play(HUNDRED, 0, "7♦"))
    assert s.current_seat == 3
    s = table.ok(s, table.play(HUNDRED, 3, "8♦"))
    assert s.current_seat == 1  # P2 is out: skipped
    assert table.total(s) == 45


def test_r_c2_04_a_second_four_restores_clockwise(table):
    s = table.build(HUNDRED, 4, hands={1: "4♣ …", 0: "4♦ …"}, current=1, total=30)
    s = table.ok(s, table.play(HUNDRED, 1, "4♣"))
    s = table.ok(s, table.play(HUNDRED, 0, "4♦"))
    assert not table.reversed(s)
    assert s.current_seat == 1
    assert table.total(s) == 30


def test_r_c2_06_a_bust_with_one_other_player_left_ends_the_match(table):
    s = table.build(HUNDRED, 3, hands={0: "9♣ …"}, total=95, scores=[1, 1, 0], eliminated=(2,))
    s = table.ok(s, table.play(HUNDRED, 0, "9♣"))
    assert table.eliminated(s) == [0, 2]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [1]
    assert "SEAT_ELIMINATED" in table.event_kinds()


def test_r_c2_06_the_busting_dealer_is_out_and_the_deal_passes_on(table):
    s = table.build(HUNDRED, 4, hands={0: "Q♠ …"}, dealer=0, total=95)
    s = table.ok(s, table.play(HUNDRED, 0, "Q♠"))
    assert table.hand_size(s, 0) == 4  # the buster drew: the draw comes before the bust check
    s = table.next_deal(s)
    assert s.one_hundred.dealer == 1
    assert s.current_seat == 2
    assert [table.hand_size(s, seat) for seat in range(4)] == [0, 4, 4, 4]
    assert len(table.stock(s)) == 52 - 12
    assert table.total(s) == 0


def test_o_c2_3_a_life_lost_redeals_clockwise_to_everyone(table):
    s = table.build(
        HUNDRED, 3, hands={1: "Q♣ …"}, current=1, dealer=0, total=95, reversed=True,
        preset="gamerules",
    )  # fmt: skip
    s = table.ok(s, table.play(HUNDRED, 1, "Q♣"))
    assert table.scores(s) == [3, 2, 3]
    assert table.deal_points(s) == [0, -1, 0]
    s = table.next_deal(s)
    assert not table.reversed(s)
    assert (s.one_hundred.dealer, s.current_seat) == (1, 2)
    assert [table.hand_size(s, seat) for seat in range(3)] == [3, 3, 3]
    assert table.total(s) == 0


def test_o_c2_4_continue_keeps_the_direction_and_the_stock(table):
    opts = {"after_bust": "CONTINUE"}
    s = table.build(HUNDRED, 4, hands={0: "Q♠ …"}, total=95, reversed=True, options=opts)
    stock = table.stock(s)
    s = table.ok(s, table.play(HUNDRED, 0, "Q♠"))
    assert table.total(s) == 0
    assert table.reversed(s)
    assert s.current_seat == 3  # the next player counter-clockwise leads
    assert table.stock(s) == stock[1:]  # the buster drew before the bust check
    assert "CARDS_DRAWN" in table.event_kinds()


def test_o_c2_4_continue_a_second_bust_plays_on_with_two_left(table):
    opts = {"after_bust": "CONTINUE"}
    s = table.build(
        HUNDRED, 4, hands={1: "10♦ …"}, current=1, total=90, scores=[0, 1, 1, 1],
        eliminated=(0,), options=opts,
    )  # fmt: skip
    s = table.ok(s, table.play(HUNDRED, 1, "10♦"))  # 100: safe
    assert s.current_seat == 2
    s = table.build(
        HUNDRED, 4, hands={3: "2♠ …"}, current=3, total=60, scores=[0, 1, 1, 1],
        eliminated=(0,), options=opts,
    )  # fmt: skip
    s = table.ok(s, table.play(HUNDRED, 3, "2♠"))  # 120
    assert table.eliminated(s) == [0, 3]
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert s.current_seat == 1  # P0 is out: skipped
    assert table.total(s) == 0


def test_r_c2_03_three_card_hands_refill_to_three(table):
    s = table.build(HUNDRED, 3, hands={0: "7♦ …"}, stock="9♣ …", total=10, preset="gamerules")
    s = table.ok(s, table.play(HUNDRED, 0, "7♦"))
    assert table.hand_size(s, 0) == 3
    assert table.hand(s, 0)["9♣"] == 1  # the stock's top card


def test_e_c_7_when_every_card_busts_the_default_is_the_smallest_bust(table):
    s = table.build(HUNDRED, 3, hands={0: "Q♠ 9♦ 8♣ 6♥"}, total=95)
    assert table.default(s) == "6♥"


# -- 101 with chips -------------------------------------------------------------------------


def test_r_c3_05_an_ace_on_91_may_count_only_1(table):
    s = table.build(CHIPS, 3, hands={0: "A♥ 7♦ 8♠"}, total=91)
    assert table.legal(s) == ["7♦", "A♥+1", "8♠"]
    assert table.reason(s, table.play(CHIPS, 0, "A♥", adds=11)) == "WOULD_EXCEED_LIMIT"
    assert table.rejection(s, table.play(CHIPS, 0, "A♥", adds=11)).rule == "R-C3-05"
    assert table.total(table.ok(s, table.play(CHIPS, 0, "A♥", adds=1))) == 92


def test_r_c3_04_on_101_every_zero_or_minus_card_is_legal(table):
    s = table.build(CHIPS, 3, hands={0: "4♣ 9♦ K♠"}, total=101)
    assert table.legal(s) == ["4♣", "9♦", "K♠"]
    assert table.total(table.ok(s, table.play(CHIPS, 0, "K♠"))) == 101
    s = table.build(CHIPS, 3, hands={0: "10♥ J♥ Q♥"}, total=101)
    assert table.legal(s) == ["10♥"]
    assert table.total(table.ok(s, table.play(CHIPS, 0, "10♥"))) == 91


def test_o_c3_1_limit_100_an_ace_on_90_may_count_only_1(table):
    opts = {"limit": 100}
    s = table.build(CHIPS, 3, hands={0: "A♠ J♦ 2♣"}, total=90, options=opts)
    assert table.legal(s) == ["2♣", "J♦", "A♠+1"]
    assert table.reason(s, table.play(CHIPS, 0, "A♠", adds=11)) == "WOULD_EXCEED_LIMIT"
    assert table.total(table.ok(s, table.play(CHIPS, 0, "J♦"))) == 100


def test_r_c3_04_with_two_players_a_four_gives_the_turn_to_the_other(table):
    s = table.build(CHIPS, 2, hands={0: "4♠ …", 1: "4♦ …"}, total=30)
    s = table.ok(s, table.play(CHIPS, 0, "4♠"))
    assert s.current_seat == 1
    assert table.reversed(s)
    s = table.ok(s, table.play(CHIPS, 1, "4♦"))
    assert s.current_seat == 0
    assert not table.reversed(s)


ONE_HUNDRED_TABLE_IN_101 = [
    ("2♠", 50, 100), ("Q♥", 77, 0), ("Q♣", 77, 87), ("5♦", 77, 72), ("J♠", 77, 67),
    ("K♦", 77, 77), ("A♥", 77, 78), ("10♣", 7, 100), ("9♣", 77, 86),
]  # fmt: skip


@pytest.mark.parametrize(("card", "before", "after"), ONE_HUNDRED_TABLE_IN_101)
def test_o_c3_2_the_one_hundred_table_in_101(table, card, before, after):
    opts = {"card_table": "ONE_HUNDRED"}
    s = table.build(CHIPS, 3, hands={0: f"{card} …"}, total=before, options=opts)
    assert table.total(table.ok(s, table.play(CHIPS, 0, card))) == after


def test_o_c3_2_the_one_hundred_table_forbids_the_doubling_bust(table):
    opts = {"card_table": "ONE_HUNDRED"}
    s = table.build(CHIPS, 3, hands={0: "2♠ 3♥ 6♦"}, total=51, options=opts)
    assert table.legal(s) == ["6♦", "3♥"]
    assert table.reason(s, table.play(CHIPS, 0, "2♠")) == "WOULD_EXCEED_LIMIT"


def test_o_c3_2_the_one_hundred_table_on_100_a_red_ace_busts_so_concede(table):
    opts = {"card_table": "ONE_HUNDRED"}
    s = table.build(CHIPS, 3, hands={0: "A♥ 2♥ Q♠"}, total=100, options=opts)
    assert table.legal(s) == ["CONCEDE"]
    s = table.ok(s, table.concede(CHIPS, 0))
    assert table.scores(s) == [2, 3, 3]


def test_o_c3_3_a_minus_ten_saves_a_player_on_101(table):
    opts = {"ten_effect": "PLUS_OR_MINUS_10"}
    s = table.build(CHIPS, 3, hands={0: "10♠ 7♦ 8♠"}, total=101, options=opts)
    assert table.legal(s) == ["10♠-10"]
    assert table.reason(s, table.concede(CHIPS, 0)) == "MUST_PLAY_A_CARD"
    assert table.total(table.ok(s, table.play(CHIPS, 0, "10♠", adds=-10))) == 91


def test_o_c3_5_without_the_floor_a_king_still_sets_101(table):
    opts = {"floor_zero": False, "ten_effect": "PLUS_OR_MINUS_10"}
    s = table.build(CHIPS, 3, hands={0: "10♦ …", 1: "K♣ …"}, total=4, options=opts)
    s = table.ok(s, table.play(CHIPS, 0, "10♦", adds=-10))
    assert table.total(s) == -6
    s = table.ok(s, table.play(CHIPS, 1, "K♣"))
    assert table.total(s) == 101


def test_r_c3_06_a_dealer_out_of_chips_passes_the_deal_left(table):
    s = table.build(CHIPS, 3, hands={0: "7♦ 8♠ 5♥"}, dealer=0, total=101, scores=[1, 3, 3])
    s = table.ok(s, table.concede(CHIPS, 0))
    assert table.eliminated(s) == [0]
    assert table.match_phase(s) == "DEAL_OVER"
    assert sorted(s.match.deal_winners) == [1, 2]
    s = table.next_deal(s)
    assert (s.chips_101.dealer, s.current_seat) == (1, 2)
    assert [table.hand_size(s, seat) for seat in range(3)] == [0, 3, 3]


def test_a_c3_03_the_leader_out_of_chips_is_skipped_by_the_next_deal(table):
    s = table.build(CHIPS, 3, hands={1: "7♦ 8♠ 5♥"}, current=1, dealer=0, total=101,
                    scores=[3, 1, 3])  # fmt: skip
    s = table.ok(s, table.concede(CHIPS, 1))
    s = table.next_deal(s)
    assert (s.chips_101.dealer, s.current_seat) == (2, 0)
    assert table.scores(s) == [3, 0, 3]


def test_r_c3_03_the_player_draws_the_stocks_top_card(table):
    s = table.build(CHIPS, 3, hands={0: "6♦ …"}, stock="K♥ …", total=30)
    s = table.ok(s, table.play(CHIPS, 0, "6♦"))
    assert table.hand(s, 0)["K♥"] == 1
    assert table.hand_size(s, 0) == 3


def test_engine_a_seat_not_on_turn_may_not_play(table):
    s = table.build(CHIPS, 3, hands={0: "6♦ …", 1: "7♦ …"}, total=30)
    assert table.reason(s, table.play(CHIPS, 1, "7♦")) == "NOT_YOUR_TURN"


def test_o_c3_3_a_ten_either_way_is_floored_at_0(table):
    opts = {"ten_effect": "PLUS_OR_MINUS_10"}
    s = table.build(CHIPS, 3, hands={0: "10♥ …"}, total=5, options=opts)
    assert table.total(table.ok(s, table.play(CHIPS, 0, "10♥", adds=-10))) == 0
    assert table.total(table.ok(s, table.play(CHIPS, 0, "10♥", adds=10))) == 15


def test_o_c3_2_a_black_ace_of_the_one_hundred_table_is_never_stuck(table):
    opts = {"card_table": "ONE_HUNDRED"}
    s = table.build(CHIPS, 3, hands={0: "A♣ 2♥ 3♥"}, total=100, options=opts)
    assert table.legal(s) == [f"A♣={t}" for t in range(101)]
    assert table.reason(s, table.concede(CHIPS, 0)) == "MUST_PLAY_A_CARD"


def test_r_c1_03_leftovers_aside_stay_hidden_and_face_up_ones_are_shown(table):
    s = table.build(STO, 3, hands={0: "7♠ …"}, leftovers="A♣ K♥", total=0)
    view = api.get_view(service_pb2.GetViewRequest(state=s, seat=0)).view.sto
    assert (list(view.leftovers), view.leftovers_size) == ([], 2)
    opts = {"leftovers": "FACE_UP_START_TOTAL"}
    s = table.build(STO, 3, hands={0: "7♠ …"}, leftovers="A♣ K♥", total=15, options=opts)
    view = api.get_view(service_pb2.GetViewRequest(state=s, seat=1)).view.sto
    assert sorted(table.text(card) for card in view.leftovers) == ["A♣", "K♥"]
    assert view.total == 15
