"""One Hundred (RULES.md part 2): every test example T-C2-… and every
resolution A-C2-… as a named test: a hand-built table, one move, the exact
result. P0..Pn-1 clockwise, P0 to act, the seed's options unless named."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.engine.errors import InvalidInput

G = "one_hundred"


def test_t_c2_01_a_seven_on_0_makes_7(table):
    s = table.build(G, 3, hands={0: "7♦ …"}, total=0)
    s = table.ok(s, table.play(G, 0, "7♦"))
    assert table.total(s) == 7
    assert table.hand_size(s, 0) == 4  # refilled (R-C2-03)
    assert s.current_seat == 1


def test_t_c2_03_two_of_spades_on_60_makes_120_and_eliminates(table):
    s = table.build(G, 4, hands={0: "2♠ …"}, total=60)
    s = table.ok(s, table.play(G, 0, "2♠"))
    assert table.total(s) == 120
    assert table.eliminated(s) == [0]
    assert table.match_phase(s) == "DEAL_OVER"  # A-C2-02: a redeal follows
    assert table.deal_points(s) == [-1, 0, 0, 0]
    assert "BUSTED" in table.rule_events()
    s = table.next_deal(s)
    assert table.total(s) == 0
    assert table.hand_size(s, 0) == 0
    assert [table.hand_size(s, seat) for seat in (1, 2, 3)] == [4, 4, 4]


def test_t_c2_04_a_ten_on_97_makes_100_and_is_safe(table):
    s = table.build(G, 3, hands={0: "10♣ …"}, total=97)
    s = table.ok(s, table.play(G, 0, "10♣"))
    assert table.total(s) == 100
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.eliminated(s) == []


def test_t_c2_06_a_jack_on_8_floors_at_0(table):
    s = table.build(G, 3, hands={0: "J♥ …"}, total=8)
    s = table.ok(s, table.play(G, 0, "J♥"))
    assert table.total(s) == 0


def test_t_c2_07_a_black_ace_sets_the_chosen_total(table):
    s = table.build(G, 3, hands={0: "A♣ …"}, total=12)
    assert table.total(table.ok(s, table.play(G, 0, "A♣", sets=73))) == 73
    assert [m for m in table.legal(s) if m.startswith("A♣")] == [f"A♣={t}" for t in range(101)]


@pytest.mark.parametrize("chosen", [101, -1])
def test_t_c2_07_a_black_ace_choosing_outside_0_to_100_is_refused(table, chosen):
    s = table.build(G, 3, hands={0: "A♣ …"}, total=12)
    rejection = table.rejection(s, table.play(G, 0, "A♣", sets=chosen))
    assert table.reason(s, table.play(G, 0, "A♣", sets=chosen)) == "CHOICE_OUT_OF_RANGE"
    assert rejection.rule == "R-C2-04"


@pytest.mark.parametrize(("card", "total"), [("5♦", 45), ("5♠", 55), ("2♥", 52), ("A♦", 51)])
def test_t_c2_09_on_50(table, card, total):
    s = table.build(G, 3, hands={0: f"{card} …"}, total=50)
    assert table.total(table.ok(s, table.play(G, 0, card))) == total


def test_t_c2_10_a_four_reverses_the_direction(table):
    # P1..P4 of the example are seats 0..3; P2 (seat 1) plays 4♣.
    s = table.build(G, 4, hands={1: "4♣ …", 0: "7♦ …"}, current=1, total=30)
    s = table.ok(s, table.play(G, 1, "4♣"))
    assert table.total(s) == 30
    assert table.reversed(s)
    assert "DIRECTION_REVERSED" in table.event_kinds()
    assert s.current_seat == 0  # P1
    s = table.ok(s, table.play(G, 0, "7♦"))
    assert s.current_seat == 3  # then P4


def test_t_c2_12_an_empty_stock_is_made_from_the_pile_less_its_top(table):
    s = table.build(G, 3, hands={0: "7♦ …"}, total=40, pile="2♣ 3♣ 6♥", stock="")
    before, held = table.pile(s), table.hand(s, 0)
    assert not table.stock(s) and before[-3:] == ["2♣", "3♣", "6♥"]
    s = table.ok(s, table.play(G, 0, "7♦"))
    assert table.total(s) == 47  # unchanged by the restock
    assert table.pile(s) == ["7♦"]  # the top stays
    assert table.hand_size(s, 0) == 4  # P drew from the new stock
    drawn = table.hand(s, 0) - (held - Counter(["7♦"]))
    assert sorted(table.stock(s) + list(drawn.elements())) == sorted(before)
    assert "STOCK_RESTOCKED" in table.event_kinds()


def test_r_c2_07_the_restock_is_shuffled_from_the_state(table):
    s = table.build(G, 3, hands={0: "7♦ …"}, total=40, pile="2♣ 3♣ 6♥ 8♥ 9♥ 6♣", stock="")
    after = table.ok(s, table.play(G, 0, "7♦"))
    again = table.ok(s, table.play(G, 0, "7♦"))
    assert table.stock(after) == table.stock(again)
    assert after.rng_counter > s.rng_counter


# -- the card table (R-C2-04, A-C2-01, A-C2-04) -------------------------------------------

TABLE = [
    ("A♥", 30, 31), ("2♠", 30, 60), ("2♦", 30, 32), ("3♣", 30, 33), ("4♥", 30, 30),
    ("5♥", 30, 25), ("5♣", 30, 35), ("6♠", 30, 36), ("9♦", 30, 39), ("10♥", 30, 100),
    ("J♠", 30, 20), ("Q♥", 30, 0), ("Q♠", 30, 40), ("Q♦", 30, 40), ("K♣", 30, 30),
]  # fmt: skip


@pytest.mark.parametrize(("card", "before", "after"), TABLE)
def test_r_c2_04_card_table(table, card, before, after):
    s = table.build(G, 3, hands={0: f"{card} …"}, total=before)
    assert table.total(table.ok(s, table.play(G, 0, card))) == after


def test_a_c2_01_the_two_of_spades_doubles_not_the_queens(table):
    s = table.build(G, 3, hands={0: "2♠ Q♣ …"}, total=21)
    assert table.total(table.ok(s, table.play(G, 0, "2♠"))) == 42
    assert table.total(table.ok(s, table.play(G, 0, "Q♣"))) == 31


def test_a_c2_02_after_an_elimination_the_next_dealer_redeals_at_0(table):
    s = table.build(G, 4, hands={2: "10♠ …", 3: "A♦ …"}, current=3, dealer=1, total=100)
    s = table.ok(s, table.play(G, 3, "A♦"))  # 101: P3 is out
    assert table.eliminated(s) == [3]
    s = table.next_deal(s)
    assert s.one_hundred.dealer == 2
    assert s.current_seat == 0  # left of the dealer, skipping P3
    assert table.total(s) == 0
    assert not table.reversed(s)


def test_a_c2_03_negative_totals_floor_at_0(table):
    s = table.build(G, 3, hands={0: "5♥ …"}, total=3)
    assert table.total(table.ok(s, table.play(G, 0, "5♥"))) == 0


def test_a_c2_05_a_voluntary_bust_is_legal(table):
    s = table.build(G, 3, hands={0: "10♠ 9♠ 2♣ …"}, total=95)
    assert {"10♠", "9♠", "2♣"} <= set(table.legal(s))
    assert table.eliminated(table.ok(s, table.play(G, 0, "9♠"))) == [0]
    assert table.reason(s, table.concede(G, 0)) == "MUST_PLAY_A_CARD"
    assert table.rejection(s, table.concede(G, 0)).rule == "A-C2-05"


def test_a_c2_06_the_seed_defaults_and_the_published_options(table):
    seed = table.new(G, 5)
    assert [table.hand_size(seed, seat) for seat in range(5)] == [4] * 5
    assert table.scores(seed) == [1] * 5
    published = table.new(G, 6, preset="gamerules")
    assert [table.hand_size(published, seat) for seat in range(6)] == [3] * 6
    assert table.scores(published) == [3] * 6


def test_a_c2_06_the_seed_preset_seats_three_to_five(table):
    with pytest.raises(InvalidInput):
        table.new(G, 6)


# -- options (O-C2) and clarifications (C-C-1, C-C-3) -----------------------------------


def test_o_c2_3_with_lives_a_bust_costs_one_and_starts_a_new_deal(table):
    s = table.build(G, 3, hands={0: "10♠ …"}, total=95, preset="gamerules", scores=[2, 3, 3])
    s = table.ok(s, table.play(G, 0, "10♠"))  # 100: safe
    s = table.build(G, 3, hands={0: "Q♠ …"}, total=95, preset="gamerules", scores=[2, 3, 3])
    s = table.ok(s, table.play(G, 0, "Q♠"))  # 105
    assert table.scores(s) == [1, 3, 3]
    assert table.eliminated(s) == []
    assert "LIFE_LOST" in table.rule_events()
    assert table.match_phase(s) == "DEAL_OVER"


def test_o_c2_3_the_last_life_lost_is_out_and_the_last_player_left_wins(table):
    s = table.build(
        G, 3, hands={0: "Q♠ …"}, total=95, preset="gamerules", scores=[1, 2, 0], eliminated=(2,)
    )
    s = table.ok(s, table.play(G, 0, "Q♠"))
    assert table.eliminated(s) == [0, 2]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [1]


def test_o_c2_4_continue_discards_the_busters_cards_and_plays_on_at_0(table):
    opts = {"after_bust": "CONTINUE"}
    s = table.build(G, 4, hands={0: "Q♠ 2♣ 3♣ 6♣"}, total=95, options=opts)
    s = table.ok(s, table.play(G, 0, "Q♠"))
    assert table.eliminated(s) == [0]
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.total(s) == 0
    assert table.pile(s)[:3] == ["2♣", "3♣", "6♣"]  # face up under the pile (E-C-4)
    assert table.pile(s)[-1] == "Q♠"
    assert table.hand_size(s, 0) == 0
    assert s.current_seat == 1
    assert "TOTAL_RESET" in table.rule_events()


def test_o_c2_4_continue_ends_the_match_when_one_player_is_left(table):
    opts = {"after_bust": "CONTINUE"}
    s = table.build(G, 3, hands={0: "Q♠ …"}, total=95, eliminated=(2,), options=opts)
    s = table.ok(s, table.play(G, 0, "Q♠"))
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [1]


def test_c_c_3_continue_with_lives_is_refused(table):
    with pytest.raises(InvalidInput) as error:
        table.new(G, 3, options={"after_bust": "CONTINUE", "lives": 3})
    assert error.value.violations[0][0] == "options.after_bust"


def test_o_c2_5_without_the_floor_totals_go_negative(table):
    s = table.build(G, 3, hands={0: "J♥ …"}, total=8, options={"floor_zero": False})
    assert table.total(table.ok(s, table.play(G, 0, "J♥"))) == -2


def test_e_c_2_a_two_of_spades_doubles_a_negative_total_down_to_the_floor(table):
    opts = {"floor_zero": False}
    s = table.build(G, 3, hands={0: "2♠ …"}, total=-40, options=opts)
    assert table.total(table.ok(s, table.play(G, 0, "2♠"))) == -80
    s = table.build(G, 3, hands={0: "2♠ …"}, total=-999_000, options=opts)
    assert table.total(table.ok(s, table.play(G, 0, "2♠"))) == -1_000_000


def test_o_c2_6_other_queens_may_add_nothing(table):
    s = table.build(G, 3, hands={0: "Q♦ …"}, total=30, options={"other_queens": 0})
    assert table.total(table.ok(s, table.play(G, 0, "Q♦"))) == 30


def test_c_c_1_seven_players_play_with_two_packs(table):
    s = table.new(G, 7, preset="gamerules")
    deal = s.one_hundred
    held = sum(len(h.cards) for h in deal.hands) + len(deal.stock) + len(deal.pile)
    assert held == 104
    six = table.new(G, 6, preset="gamerules")
    assert sum(len(h.cards) for h in six.one_hundred.hands) + len(six.one_hundred.stock) == 52


def test_c_c_1_two_identical_cards_are_listed_once(table):
    s = table.build(G, 7, hands={0: "7♦ 7♦ 2♣"}, total=10, preset="gamerules")
    assert table.legal(s).count("7♦") == 1
    s = table.ok(s, table.play(G, 0, "7♦"))
    assert table.hand(s, 0)["7♦"] == 1
