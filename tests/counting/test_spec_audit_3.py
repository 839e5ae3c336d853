"""A third audit of the counting games against rummy_and_counting.md part 3:
the turn model's order (the draw before the bust check), every seat count's
deal, chips and lives to the last survivor, option pairs, match ends and
ties, each in a concrete position with its exact expected result. P0..Pn-1
clockwise, seed options unless named."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.engine import api
from croupier.v1 import counting_pb2 as sto_pb
from croupier.v1 import game_pb2, service_pb2

STO = "sto"
HUNDRED = "one_hundred"
CHIPS = "chips_101"


# -- part 3 preamble: "play → new total → [draw if the game refills] → bust check" ----------------


def test_preamble_the_buster_draws_before_the_bust_check_under_continue(table):
    """The part 3 turn model: with `after_bust` CONTINUE the buster refills
    first, so four cards (his three and the one drawn) go under the pile and
    the stock is one card shorter."""
    opts = {"after_bust": "CONTINUE"}
    s = table.build(HUNDRED, 4, hands={0: "Q♠ 2♣ 3♣ 6♣"}, total=95, stock="7♦ …", options=opts)
    stock_before = len(table.stock(s))
    s = table.ok(s, table.play(HUNDRED, 0, "Q♠"))
    assert table.eliminated(s) == [0]
    assert len(table.stock(s)) == stock_before - 1
    assert Counter(table.pile(s)[:4]) == Counter(["2♣", "3♣", "6♣", "7♦"])


def test_r_c2_06_the_buster_does_not_draw_under_redeal(table):
    """Under REDEAL the order cannot be seen: the deal ends with the bust."""
    s = table.build(HUNDRED, 4, hands={0: "Q♠ …"}, total=95)
    s = table.ok(s, table.play(HUNDRED, 0, "Q♠"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.eliminated(s) == [0]


# -- deals for the extreme seat counts ------------------------------------------------------------


@pytest.mark.parametrize(
    "seats,each,left",
    [(3, 10, 2), (4, 8, 0), (5, 6, 2), (6, 5, 2), (7, 4, 4), (8, 4, 0), (9, 3, 5), (10, 3, 2)],
)
def test_r_c1_03_every_seat_count(table, seats, each, left):
    s = table.new(STO, seats)
    d = s.sto
    assert [len(h.cards) for h in d.hands] == [each] * seats
    assert len(d.leftovers) == left
    assert d.total == 0
    assert s.current_seat == (d.dealer + 1) % seats


@pytest.mark.parametrize("seats", [3, 7, 9, 10])
def test_r_c1_03_face_up_leftovers_start_the_total_for_every_seat_count(table, seats):
    s = table.new(STO, seats, options={"leftovers": "FACE_UP_START_TOTAL"})
    value = {7: 7, 8: 8, 9: 9, 10: 10, 11: 2, 12: 3, 13: 4, 14: 11}
    from croupier.engine.cards import RANK_OF

    assert s.sto.total == sum(value[RANK_OF[v]] for v in s.sto.leftovers)


def test_c_c_1_ten_players_three_cards_two_packs(table):
    s = table.new(HUNDRED, 10, preset="gamerules")
    d = s.one_hundred
    assert [len(h.cards) for h in d.hands] == [3] * 10
    assert len(d.stock) == 104 - 30
    assert [seat.score for seat in s.seats] == [3] * 10


def test_c_c_1_six_players_one_pack(table):
    s = table.new(HUNDRED, 6, preset="gamerules")
    d = s.one_hundred
    assert len(d.stock) + sum(len(h.cards) for h in d.hands) + len(d.pile) == 52


@pytest.mark.parametrize("seats", [2, 7])
def test_r_c3_02_extreme_seat_counts(table, seats):
    s = table.new(CHIPS, seats)
    d = s.chips_101
    assert [len(h.cards) for h in d.hands] == [3] * seats
    assert len(d.stock) == 52 - 3 * seats
    assert d.total == 0 and not d.reversed
    assert [seat.score for seat in s.seats] == [3] * seats
    assert s.current_seat == (d.dealer + 1) % seats


# -- «Сто» chips with more seats: the numbers recomputed ------------------------------------------


def test_o_c1_4_hundert_five_players_overshoot_seven(table):
    opts = {"settlement": "HUNDERT_CHIPS"}
    s = table.build(STO, 5, hands={2: "A♠ …"}, total=96, current=2, options=opts)
    s = table.ok(s, table.play(STO, 2, "A♠"))  # 107: overshoot 7
    assert table.deal_points(s) == [7, 7, -28, 7, 7]
    assert table.scores(s) == [7, 7, -28, 7, 7]


def test_o_c1_4_feder_five_players_exact_then_bust(table):
    opts = {"settlement": "FEDER_CHIPS"}
    s = table.build(STO, 5, hands={0: "J♠ …", 1: "Q♦ …"}, total=98, options=opts)
    s = table.ok(s, table.play(STO, 0, "J♠"))  # exactly 100: +1 from each of 4
    assert table.scores(s) == [4, -1, -1, -1, -1]
    s = table.ok(s, table.play(STO, 1, "Q♦"))  # 103: pays 1 to each of 4
    assert table.scores(s) == [5, -5, 0, 0, 0]
    assert table.deal_points(s) == [5, -5, 0, 0, 0]


def test_o_c1_4_hundert_exact_100_collects_3_from_each_of_four(table):
    opts = {"settlement": "HUNDERT_CHIPS"}
    s = table.build(STO, 5, hands={0: "10♠ …", 1: "A♦ …"}, total=90, options=opts)
    s = table.ok(s, table.play(STO, 0, "10♠"))
    assert table.scores(s) == [12, -3, -3, -3, -3]
    s = table.ok(s, table.play(STO, 1, "A♦"))  # 111: 11 to each of 4
    assert table.scores(s) == [23, -47, 8, 8, 8]
    assert table.deal_points(s) == [23, -47, 8, 8, 8]


# -- match end at the exact number of deals, ties -------------------------------------------------


def test_r_c1_06_one_deal_match_ties_for_best_and_worst(table):
    s = table.build(STO, 4, hands={1: "A♠ …"}, total=95, current=1,
                    options={"deals_per_match": 1})  # fmt: skip
    s = table.ok(s, table.play(STO, 1, "A♠"))  # 106: +6 for seat 1
    assert table.scores(s) == [0, 6, 0, 0]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0, 2, 3]
    lost = [e for e in table.events if e.kind == game_pb2.EVENT_KIND_GAME_RULE]
    assert any(sorted(e.seats) == [1] for e in lost if "loses the match" in e.text)


def test_r_c1_06_penalty_tie_for_the_fewest_shares_the_win(table):
    s = table.build(STO, 3, hands={1: "7♠ …"}, total=95, current=1,
                    scores=[4, 0, 4], deal_number=3)  # fmt: skip
    s = table.ok(s, table.play(STO, 1, "7♠"))  # 102: +2 for seat 1
    assert table.scores(s) == [4, 2, 4]
    assert table.winners(s) == [1]
    s2 = table.build(STO, 3, hands={1: "J♠ …"}, total=99, current=1,
                     scores=[1, 0, 4], deal_number=3)  # fmt: skip
    s2 = table.ok(s2, table.play(STO, 1, "J♠"))  # 101: +1 → [1, 1, 4]
    assert table.winners(s2) == [0, 1]


def test_r_c1_06_deal_two_of_three_is_not_the_end(table):
    s = table.build(STO, 3, hands={1: "J♠ …"}, total=99, current=1, deal_number=2)
    s = table.ok(s, table.play(STO, 1, "J♠"))
    assert table.match_phase(s) == "DEAL_OVER"
    s = table.next_deal(s)
    assert s.match.deal_number == 3
    assert s.sto.dealer == 1 and s.current_seat == 2  # dealer was 2−1=... see build


# -- One Hundred: lives and the last survivor -----------------------------------------------------


def test_o_c2_3_two_left_one_life_each_the_bust_ends_the_match(table):
    opts = {"lives": 3}
    s = table.build(HUNDRED, 4, hands={3: "10♠ …", 0: "2♥ …"}, total=50, current=3,
                    scores=[1, 0, 0, 2], eliminated=(1, 2), options=opts)  # fmt: skip
    s = table.ok(s, table.play(HUNDRED, 3, "10♠"))  # 100, safe
    assert table.total(s) == 100
    assert s.current_seat == 0
    s = table.ok(s, table.play(HUNDRED, 0, "2♥"))  # 102: last life lost
    assert table.eliminated(s) == [0, 1, 2]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [3]
    assert table.deal_points(s) == [-1, 0, 0, 0]


def test_o_c2_3_a_life_lost_not_the_last_redeals_to_all_still_in(table):
    opts = {"lives": 3}
    s = table.build(HUNDRED, 4, hands={0: "9♠ …"}, total=95, scores=[2, 0, 1, 3],
                    eliminated=(1,), dealer=3, options=opts)  # fmt: skip
    s = table.ok(s, table.play(HUNDRED, 0, "9♠"))
    assert table.scores(s) == [1, 0, 1, 3]
    assert table.match_phase(s) == "DEAL_OVER"
    s = table.next_deal(s)
    # dealer 3 → next in is 0 (seat 0 still has a life); 0 deals, 2 leads (1 is out)
    assert s.one_hundred.dealer == 0
    assert s.current_seat == 2
    assert len(s.one_hundred.hands[1].cards) == 0
    assert s.one_hundred.total == 0 and not s.one_hundred.reversed


# -- 101 with chips: chips and the last survivor --------------------------------------------------


def test_r_c3_06_two_players_last_chip(table):
    s = table.build(CHIPS, 2, hands={0: "7♦ 8♠ 5♥"}, total=101, scores=[1, 3])
    assert table.legal(s) == ["CONCEDE"]
    s = table.ok(s, table.concede(CHIPS, 0))
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [1]
    assert table.eliminated(s) == [0]


def test_r_c3_05_concede_not_allowed_with_a_nine(table):
    s = table.build(CHIPS, 3, hands={0: "7♦ 9♠ 5♥"}, total=101)
    assert table.legal(s) == ["9♠"]
    assert table.reason(s, table.concede(CHIPS, 0)) == "MUST_PLAY_A_CARD"


def test_c_c_2_one_hundred_table_limit_101_option_is_inert(table):
    opts = {"card_table": "ONE_HUNDRED", "limit": 101}
    s = table.build(CHIPS, 3, hands={0: "2♥ 3♦ 6♣"}, total=99, options=opts)
    assert table.legal(s) == ["CONCEDE"]
    s = table.build(CHIPS, 3, hands={0: "A♥ 3♦ 6♣"}, total=99, options=opts)
    assert table.legal(s) == ["A♥"]


def test_c_c_2_one_hundred_table_with_floor_off(table):
    opts = {"card_table": "ONE_HUNDRED", "floor_zero": False}
    s = table.build(CHIPS, 3, hands={0: "J♦ …"}, total=4, options=opts)
    s = table.ok(s, table.play(CHIPS, 0, "J♦"))
    assert table.total(s) == -6


def test_o_c3_3_pagat_ten_on_95(table):
    s = table.build(CHIPS, 3, hands={0: "10♣ 7♦ 8♠"}, total=95, preset="pagat")
    assert table.legal(s) == ["10♣-10"]
    s = table.build(CHIPS, 3, hands={0: "10♣ 7♦ 8♠"}, total=91, preset="pagat")
    assert table.legal(s) == ["10♣-10", "10♣+10", "7♦", "8♠"]  # FrenchCard order: suit first


# -- option combinations at NewGame ---------------------------------------------------------------


def test_a_c1_02_hundert_values_bring_their_leftovers_face_up(table):
    """A-C1-02: SKAT_HUNDERT alone deals the leftovers face up as the start
    total; a table may still set them aside itself (§0.1: options are
    independent unless a conflict is listed; A-C1-02 lists none)."""
    named = table.new(STO, 3, options={"card_values": "SKAT_HUNDERT"})
    assert named.options.sto.leftovers == sto_pb.STO_LEFTOVERS_FACE_UP_START_TOTAL
    aside = table.new(STO, 3, options={"card_values": "SKAT_HUNDERT", "leftovers": "ASIDE"})
    assert aside.options.sto.leftovers == sto_pb.STO_LEFTOVERS_ASIDE
    hundert = table.new(STO, 3, preset="hundert", options={"leftovers": "ASIDE"})
    assert hundert.options.sto.leftovers == sto_pb.STO_LEFTOVERS_ASIDE


SKAT_FACE_UP_FEDER = {
    "card_values": "SKAT_HUNDERT", "leftovers": "FACE_UP_START_TOTAL", "settlement": "FEDER_CHIPS"
}  # fmt: skip
FACE_UP_HUNDERT_ONE_DEAL = {
    "leftovers": "FACE_UP_START_TOTAL", "settlement": "HUNDERT_CHIPS", "deals_per_match": 1
}  # fmt: skip


@pytest.mark.parametrize("opts", [SKAT_FACE_UP_FEDER, FACE_UP_HUNDERT_ONE_DEAL])
def test_sto_option_pairs_are_accepted(table, opts):
    s = table.new(STO, 7, options=opts)
    assert len(s.sto.leftovers) == 4


def test_o_c1_1_skat_face_up_7_on_100_collects_nothing_and_8_neither(table):
    opts = {"card_values": "SKAT_HUNDERT", "leftovers": "FACE_UP_START_TOTAL",
            "settlement": "HUNDERT_CHIPS"}  # fmt: skip
    s = table.build(STO, 3, hands={0: "K♠ …", 1: "7♦ …", 2: "J♣ …"}, total=96,
                    leftovers="A♠ 10♠", options=opts)  # fmt: skip
    s = table.ok(s, table.play(STO, 0, "K♠"))  # 100 exactly: +3 from each
    assert table.scores(s) == [6, -3, -3]
    s = table.ok(s, table.play(STO, 1, "7♦"))  # 100 again: no payment
    assert table.scores(s) == [6, -3, -3]
    s = table.ok(s, table.play(STO, 2, "J♣"))  # 102: pays 2 to each
    assert table.scores(s) == [8, -1, -7]
    assert table.deal_points(s) == [8, -1, -7]


# -- T-C1-04 / T-C1-03 recomputed -----------------------------------------------------------------


def test_t_c1_04_each_card_on_92_its_penalty(table):
    for card, penalty in (("A♠", 3), ("10♠", 2), ("9♠", 1)):
        s = table.build(STO, 3, hands={0: f"{card} …"}, total=92)
        s = table.ok(s, table.play(STO, 0, card))
        assert table.deal_points(s)[0] == penalty  # 92 + 11, 10, 9 over 100


# -- views ----------------------------------------------------------------------------------------


def test_views_hide_other_hands_and_the_stock_in_one_hundred(table):
    s = table.build(HUNDRED, 3, hands={0: "7♦ 8♦ 9♦ 6♦", 1: "2♣ 3♣ 5♣ 6♣"}, total=10)
    for seat in range(3):
        v = api.get_view(service_pb2.GetViewRequest(state=s, seat=seat)).view.one_hundred
        assert list(v.hand) == list(s.one_hundred.hands[seat].cards)
        assert list(v.hand_sizes) == [4, 4, 4]
        assert v.stock_size == len(s.one_hundred.stock)
        assert v.total == 10
