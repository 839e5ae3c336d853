"""101 with chips (RULES.md part 3): every test example T-C3-… and every
resolution A-C3-… as a named test: a hand-built table, one move, the exact
result. P0..Pn-1 clockwise, P0 to act, the seed's options unless named."""

from __future__ import annotations

import pytest

G = "chips_101"


def test_t_c3_01_a_king_on_95_makes_101_and_is_legal(table):
    s = table.build(G, 3, hands={0: "K♠ …", 1: "9♥ …"}, total=95)  # P1 can play on
    assert "K♠" in table.legal(s)
    s = table.ok(s, table.play(G, 0, "K♠"))
    assert table.total(s) == 101
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"


def test_t_c3_03_on_101_without_a_legal_play_the_player_concedes_a_chip(table):
    s = table.build(G, 3, hands={0: "7♦ 8♠ 5♥"}, total=101)
    assert table.legal(s) == ["CONCEDE"]
    assert table.default(s) == "CONCEDE"
    s = table.ok(s, table.concede(G, 0))
    assert table.scores(s) == [2, 3, 3]
    assert "CONCEDED" in table.rule_events()
    assert "LIFE_LOST" in table.rule_events()
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s) == [-1, 0, 0]
    s = table.next_deal(s)
    assert table.total(s) == 0  # a new deal, total 0
    assert [table.hand_size(s, seat) for seat in range(3)] == [3, 3, 3]


def test_t_c3_04_an_ace_on_90_counts_11_or_1(table):
    s = table.build(G, 3, hands={0: "A♥ …"}, total=90)
    assert {"A♥+1", "A♥+11"} <= set(table.legal(s))
    assert table.total(table.ok(s, table.play(G, 0, "A♥", adds=11))) == 101
    assert table.total(table.ok(s, table.play(G, 0, "A♥", adds=1))) == 91


def test_t_c3_06_a_ten_on_5_floors_at_0(table):
    s = table.build(G, 3, hands={0: "10♣ …"}, total=5)
    assert table.total(table.ok(s, table.play(G, 0, "10♣"))) == 0


def test_t_c3_07_a_nine_on_70_holds(table):
    s = table.build(G, 3, hands={0: "9♥ …"}, total=70)
    assert table.total(table.ok(s, table.play(G, 0, "9♥"))) == 70


def test_t_c3_09_limit_100_a_king_makes_100(table):
    s = table.build(G, 3, hands={0: "K♦ …"}, total=40, options={"limit": 100})
    assert table.total(table.ok(s, table.play(G, 0, "K♦"))) == 100


def test_t_c3_09_limit_100_on_100_only_the_nine_is_legal(table):
    s = table.build(G, 3, hands={0: "2♥ 7♣ 9♦"}, total=100, options={"limit": 100})
    assert table.legal(s) == ["9♦"]
    assert table.total(table.ok(s, table.play(G, 0, "9♦"))) == 100
    assert table.reason(s, table.play(G, 0, "2♥")) == "WOULD_EXCEED_LIMIT"


def test_t_c3_09_limit_100_on_100_without_a_nine_the_player_concedes(table):
    s = table.build(G, 3, hands={0: "2♥ 7♣ 8♦"}, total=100, options={"limit": 100})
    assert table.legal(s) == ["CONCEDE"]
    s = table.ok(s, table.concede(G, 0))
    assert table.scores(s) == [2, 3, 3]


def test_t_c3_09_the_one_hundred_table_king_adds_0_and_ten_makes_100(table):
    opts = {"card_table": "ONE_HUNDRED"}
    s = table.build(G, 3, hands={0: "K♦ 10♠ …"}, total=40, options=opts)
    assert table.total(table.ok(s, table.play(G, 0, "K♦"))) == 40
    assert table.total(table.ok(s, table.play(G, 0, "10♠"))) == 100


def test_t_c3_10_an_empty_stock_is_made_from_the_pile_less_its_top(table):
    s = table.build(G, 3, hands={0: "6♦ …"}, total=30, pile="9♣ 2♦ 3♦", stock="")
    size = len(table.pile(s))
    s = table.ok(s, table.play(G, 0, "6♦"))
    assert table.total(s) == 36  # unchanged by the restock
    assert table.pile(s) == ["6♦"]
    assert len(table.stock(s)) == size - 1  # the old pile, one card drawn
    assert table.hand_size(s, 0) == 3


# -- the card table (R-C3-04) -------------------------------------------------------------

TABLE = [
    ("2♣", 2), ("3♦", 3), ("5♥", 5), ("6♠", 6), ("7♣", 7), ("8♦", 8), ("4♥", 0), ("9♠", 0),
    ("10♦", -10), ("J♣", 10), ("Q♥", 10),
]  # fmt: skip


@pytest.mark.parametrize(("card", "adds"), TABLE)
def test_r_c3_04_card_table(table, card, adds):
    s = table.build(G, 3, hands={0: f"{card} …"}, total=50)
    assert table.total(table.ok(s, table.play(G, 0, card))) == 50 + adds


def test_r_c3_04_a_king_sets_101(table):
    s = table.build(G, 3, hands={0: "K♣ …"}, total=3)
    assert table.total(table.ok(s, table.play(G, 0, "K♣"))) == 101


def test_r_c3_04_a_four_reverses(table):
    s = table.build(G, 4, hands={0: "4♠ …"}, total=3)
    s = table.ok(s, table.play(G, 0, "4♠"))
    assert table.reversed(s)
    assert s.current_seat == 3


def test_r_c3_04_an_ace_needs_its_value_chosen(table):
    s = table.build(G, 3, hands={0: "A♠ …"}, total=3)
    assert table.reason(s, table.play(G, 0, "A♠")) == "CHOICE_REQUIRED"
    assert table.reason(s, table.play(G, 0, "A♠", adds=5)) == "CHOICE_OUT_OF_RANGE"
    assert table.reason(s, table.play(G, 0, "A♠", sets=11)) == "CHOICE_NOT_TAKEN"
    assert table.rejection(s, table.play(G, 0, "A♠")).rule == "R-C3-04"


def test_o_c3_3_a_ten_adds_plus_or_minus_10(table):
    opts = {"ten_effect": "PLUS_OR_MINUS_10"}
    s = table.build(G, 3, hands={0: "10♠ …"}, total=50, options=opts)
    assert [m for m in table.legal(s) if m.startswith("10♠")] == ["10♠-10", "10♠+10"]
    assert table.total(table.ok(s, table.play(G, 0, "10♠", adds=10))) == 60
    assert table.total(table.ok(s, table.play(G, 0, "10♠", adds=-10))) == 40
    assert table.reason(s, table.play(G, 0, "10♠")) == "CHOICE_REQUIRED"
    assert table.rejection(s, table.play(G, 0, "10♠")).rule == "O-C3-3"


def test_o_c3_3_a_ten_plus_10_over_the_limit_is_refused(table):
    opts = {"ten_effect": "PLUS_OR_MINUS_10"}
    s = table.build(G, 3, hands={0: "10♠ …"}, total=95, options=opts)
    assert table.reason(s, table.play(G, 0, "10♠", adds=10)) == "WOULD_EXCEED_LIMIT"
    assert "10♠-10" in table.legal(s)


def test_o_c3_3_without_the_option_a_ten_takes_no_choice(table):
    s = table.build(G, 3, hands={0: "10♠ …"}, total=50)
    assert table.reason(s, table.play(G, 0, "10♠", adds=-10)) == "CHOICE_NOT_TAKEN"


def test_o_c3_4_chips_each_player_starts_with(table):
    s = table.new(G, 4, preset="pagat")
    assert table.scores(s) == [5, 5, 5, 5]
    assert table.scores(table.new(G, 4, options={"chips": 2})) == [2, 2, 2, 2]


def test_o_c3_5_without_the_floor_a_ten_goes_below_0(table):
    s = table.build(G, 3, hands={0: "10♣ …"}, total=5, options={"floor_zero": False})
    assert table.total(table.ok(s, table.play(G, 0, "10♣"))) == -5


def test_r_c3_06_the_last_chip_lost_is_out_and_the_last_holder_wins(table):
    s = table.build(G, 3, hands={0: "7♦ 8♠ 5♥"}, total=101, scores=[1, 2, 0], eliminated=(2,))
    s = table.ok(s, table.concede(G, 0))
    assert table.eliminated(s) == [0, 2]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [1]
    assert "SEAT_ELIMINATED" in table.event_kinds()


def test_r_c3_02_three_cards_each_and_the_seat_left_of_the_dealer_leads(table):
    s = table.new(G, 7)
    assert [table.hand_size(s, seat) for seat in range(7)] == [3] * 7
    assert len(table.stock(s)) == 52 - 21
    assert s.current_seat == (s.chips_101.dealer + 1) % 7


# -- resolutions (A-C3) and clarifications (C-C-2) -----------------------------------------


def test_a_c3_01_the_king_sets_the_limit_101(table):
    s = table.build(G, 3, hands={0: "K♥ …"}, total=60)
    assert table.total(table.ok(s, table.play(G, 0, "K♥"))) == 101


def test_a_c3_02_reaching_101_is_safe(table):
    s = table.build(G, 3, hands={0: "J♠ …", 1: "4♣ …"}, total=91)  # P1 can play on
    s = table.ok(s, table.play(G, 0, "J♠"))
    assert table.total(s) == 101
    assert table.scores(s) == [3, 3, 3]


def test_a_c3_03_the_deal_passes_left_after_a_chip_is_lost(table):
    s = table.build(G, 4, hands={2: "7♦ 8♠ 5♥"}, current=2, dealer=1, total=101)
    s = table.ok(s, table.concede(G, 2))
    s = table.next_deal(s)
    assert s.chips_101.dealer == 2
    assert s.current_seat == 3


def test_a_c3_04_no_voluntary_bust_and_no_concession_while_a_card_fits(table):
    s = table.build(G, 3, hands={0: "9♦ K♠ 8♣"}, total=99)
    assert set(table.legal(s)) == {"9♦", "K♠"}
    assert table.reason(s, table.play(G, 0, "8♣")) == "WOULD_EXCEED_LIMIT"
    assert table.rejection(s, table.play(G, 0, "8♣")).rule == "R-C3-05"
    assert table.reason(s, table.concede(G, 0)) == "MUST_PLAY_A_CARD"
    assert table.rejection(s, table.concede(G, 0)).rule == "A-C3-04"


def test_c_c_2_the_one_hundred_table_has_its_own_limit_and_no_ten_choice(table):
    opts = {"card_table": "ONE_HUNDRED", "limit": 101, "ten_effect": "PLUS_OR_MINUS_10"}
    s = table.build(G, 3, hands={0: "A♥ 10♥ Q♠"}, total=95, options=opts)
    # A red ace adds 1 (no choice); a ten sets 100; Q♠ +10 would make 105 > 100.
    assert table.legal(s) == ["10♥", "A♥"]
    s = table.build(G, 3, hands={0: "A♣ 3♥ 6♦"}, total=99, options=opts)
    assert [m for m in table.legal(s) if m.startswith("A♣")] == [f"A♣={t}" for t in range(101)]
    assert "3♥" not in table.legal(s)  # 102 > 100: the table's limit is 100
