"""«Сто», 32 cards (RULES.md part 1): every test example T-C1-… and every
resolution A-C1-… as a named test: a hand-built table, one move, the exact
result. P0..Pn-1 clockwise, P0 to act, the seed's options unless named."""

from __future__ import annotations

import pytest

G = "sto"


def test_t_c1_01_ten_queen_seven_make_10_13_20(table):
    s = table.build(G, 3, hands={0: "10♠ …", 1: "Q♦ …", 2: "7♣ …"}, total=0, pile="")
    s = table.ok(s, table.play(G, 0, "10♠"))
    assert table.total(s) == 10
    s = table.ok(s, table.play(G, 1, "Q♦"))
    assert table.total(s) == 13  # A-C1-01: a Queen is 3, as the table says
    s = table.ok(s, table.play(G, 2, "7♣"))
    assert table.total(s) == 20
    assert s.current_seat == 0


def test_t_c1_03_jack_on_98_is_safe_and_the_next_card_busts(table):
    s = table.build(G, 3, hands={0: "J♠ …", 1: "J♥ …"}, total=98, pile="A♠ A♥")
    s = table.ok(s, table.play(G, 0, "J♠"))
    assert table.total(s) == 100  # exactly 100 is not a loss (R-C1-05)
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert s.current_seat == 1
    # Every card is worth 2 or more with the seed's values: P1 must bust.
    assert all(table.total(table.ok(s, table.play(G, 1, card))) > 100 for card in table.hand(s, 1))
    s = table.ok(s, table.play(G, 1, "J♥"))
    assert table.total(s) == 102
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s) == [0, 2, 0]
    assert table.scores(s) == [0, 2, 0]
    assert "BUSTED" in table.rule_events()


def test_t_c1_04_on_92_every_card_busts_and_the_nine_costs_least(table):
    s = table.build(G, 3, hands={0: "A♦ 10♦ 9♦ …"}, total=92)
    assert set(table.legal(s)) >= {"A♦", "10♦", "9♦"}  # A-C1-04: busting is legal
    penalties = {}
    for card in ("A♦", "10♦", "9♦"):
        after = table.ok(s, table.play(G, 0, card))
        penalties[card] = table.deal_points(after)[0]
    assert penalties == {"A♦": 3, "10♦": 2, "9♦": 1}


def test_t_c1_06_three_players_get_ten_cards_and_two_leftovers_aside(table):
    s = table.new(G, 3)
    deal = s.sto
    assert [len(h.cards) for h in deal.hands] == [10, 10, 10]
    assert len(deal.leftovers) == 2
    assert deal.total == 0  # set aside, not counted


def test_t_c1_06_face_up_leftovers_ace_and_king_start_the_total_at_15(table):
    opts = {"leftovers": "FACE_UP_START_TOTAL"}
    s = table.build(G, 3, hands={0: "7♠ …"}, leftovers="A♣ K♥", total=15, options=opts)
    s = table.ok(s, table.play(G, 0, "7♠"))
    assert table.total(s) == 22  # the first card adds to 15


def test_t_c1_06_a_dealt_face_up_deal_starts_from_its_leftovers(table):
    s = table.new(G, 3, options={"leftovers": "FACE_UP_START_TOTAL"})
    values = {"7": 7, "8": 8, "9": 9, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
    assert table.total(s) == sum(values[card[:-1]] for card in table.leftovers(s))


def test_t_c1_07_skat_hundert_a_nine_on_60_leaves_60(table):
    s = table.build(G, 3, hands={0: "9♣ …"}, total=60, preset="hundert")
    s = table.ok(s, table.play(G, 0, "9♣"))
    assert table.total(s) == 60


def test_t_c1_09_five_players_get_six_cards_and_two_leftovers(table):
    s = table.new(G, 5)
    assert [len(h.cards) for h in s.sto.hands] == [6] * 5
    assert len(s.sto.leftovers) == 2


@pytest.mark.parametrize(("seats", "size", "left"), [(4, 8, 0), (7, 4, 4), (9, 3, 5), (10, 3, 2)])
def test_r_c1_03_hands_are_32_divided_by_the_players(table, seats, size, left):
    s = table.new(G, seats)
    assert [len(h.cards) for h in s.sto.hands] == [size] * seats
    assert len(s.sto.leftovers) == left


def test_r_c1_03_the_seat_left_of_the_dealer_leads_and_the_deal_passes_clockwise(table):
    s = table.new(G, 4)
    dealer = s.sto.dealer
    assert s.current_seat == (dealer + 1) % 4
    s = table.ok(s, table.play(G, s.current_seat, table.text(s.sto.hands[s.current_seat].cards[0])))
    assert s.current_seat == (dealer + 2) % 4


def test_a_c1_01_the_queen_counts_three_not_two(table):
    s = table.build(G, 3, hands={0: "Q♠ …"}, total=10)
    assert table.total(table.ok(s, table.play(G, 0, "Q♠"))) == 13


def test_a_c1_02_skat_hundert_alone_turns_the_leftovers_up_to_start_the_total(table):
    s = table.new(G, 3, options={"card_values": "SKAT_HUNDERT"})
    leftovers = [table.text(c) for c in s.sto.leftovers]
    assert len(leftovers) == 2  # 32 cards, 3 hands of 10
    values = {"A": 11, "1": 10, "K": 4, "Q": 3, "J": 2}  # 9, 8, 7: 0 (O-C1-1)
    assert table.total(s) == sum(values.get(card[0], 0) for card in leftovers)


def test_a_c1_02_skat_hundert_with_leftovers_set_aside_plays_to_the_last_card(table):
    # Nobody need go over 100 then: a deal that runs out of cards ends with no
    # loser (E-C-1).
    opts = {"card_values": "SKAT_HUNDERT", "leftovers": "ASIDE", "deals_per_match": 1}
    s = table.build(G, 3, hands={0: "9♠", 1: "8♠", 2: "7♠"}, total=90, options=opts)
    for seat, card in ((0, "9♠"), (1, "8♠"), (2, "7♠")):
        s = table.ok(s, table.play(G, seat, card))
    assert table.total(s) == 90
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.deal_points(s) == [0, 0, 0]


def test_a_c1_03_a_tie_for_most_penalty_makes_co_losers(table):
    opts = {"deals_per_match": 1}
    s = table.build(G, 3, hands={0: "A♠ …"}, total=95, scores=[0, 0, 0], options=opts)
    s = table.ok(s, table.play(G, 0, "A♠"))
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [1, 2]  # the fewest penalty points
    assert "MATCH_LOST" in table.rule_events()
    lost = next(e for e in table.events if "loses the match" in e.text)
    assert list(lost.seats) == [0]


def test_a_c1_03_co_losers_share_the_match_lost_event(table):
    opts = {"deals_per_match": 2}
    s = table.build(
        G, 3, hands={1: "A♠ …"}, current=1, total=95, scores=[6, 0, 0], deal_number=2, options=opts
    )
    s = table.ok(s, table.play(G, 1, "A♠"))  # P1: 6 penalty points, as P0
    assert table.scores(s) == [6, 6, 0]
    assert table.winners(s) == [2]
    lost = next(e for e in table.events if "loses the match" in e.text)
    assert list(lost.seats) == [0, 1]


def test_a_c1_04_a_bust_is_legal_while_holding_a_safe_card(table):
    s = table.build(G, 3, hands={0: "A♠ J♠ …"}, total=95)
    assert {"A♠", "J♠"} <= set(table.legal(s))
    assert table.deal_points(table.ok(s, table.play(G, 0, "A♠"))) == [6, 0, 0]


def test_r_c1_04_there_is_no_conceding(table):
    s = table.build(G, 3, hands={0: "A♠ …"}, total=95)
    rejection = table.rejection(s, table.concede(G, 0))
    assert table.reason(s, table.concede(G, 0)) == "MUST_PLAY_A_CARD"
    assert rejection.rule == "R-C1-04"


def test_r_c1_04_a_card_takes_no_choice(table):
    s = table.build(G, 3, hands={0: "A♠ …"}, total=10)
    assert table.reason(s, table.play(G, 0, "A♠", adds=11)) == "CHOICE_NOT_TAKEN"
    assert table.reason(s, table.play(G, 0, "A♠", sets=50)) == "CHOICE_NOT_TAKEN"
    assert table.legal(s).count("A♠") == 1


def test_r_c1_06_three_deals_make_the_match_and_the_fewest_penalty_wins(table):
    s = table.build(G, 3, hands={2: "10♦ …"}, current=2, total=95, scores=[4, 9, 0], deal_number=3)
    s = table.ok(s, table.play(G, 2, "10♦"))
    assert table.scores(s) == [4, 9, 5]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0]
    lost = next(e for e in table.events if "loses the match" in e.text)
    assert list(lost.seats) == [1]


def test_o_c1_3_deals_per_match_sets_the_length(table):
    opts = {"deals_per_match": 5}
    s = table.build(G, 3, hands={0: "10♦ …"}, total=95, deal_number=3, options=opts)
    s = table.ok(s, table.play(G, 0, "10♦"))
    assert table.match_phase(s) == "DEAL_OVER"
    s = table.next_deal(s)
    assert s.match.deal_number == 4


# -- chips (O-C1-4, C-C-4) ---------------------------------------------------------------


def hundert(table, **kw):
    """A Hundert table: 9, 8, 7 worth 0, the leftovers 7♣ 8♣ (worth 0) face up."""
    return table.build(G, 3, preset="hundert", leftovers="7♣ 8♣", **kw)


def test_c_c_4_exactly_100_collects_3_from_each_opponent_at_once(table):
    s = hundert(table, hands={0: "Q♠ …"}, total=97)
    s = table.ok(s, table.play(G, 0, "Q♠"))
    assert table.total(s) == 100
    assert table.scores(s) == [6, -3, -3]
    assert "EXACT_HUNDRED" in table.rule_events()
    assert s.sto.exact_hundred_seat == 0
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"


def test_c_c_4_only_the_card_from_below_100_collects(table):
    s = hundert(table, hands={0: "Q♠ …", 1: "9♠ …", 2: "A♠ …"}, total=97)
    s = table.ok(s, table.play(G, 0, "Q♠"))
    s = table.ok(s, table.play(G, 1, "9♠"))  # 100 stays 100: no payment
    assert table.total(s) == 100
    assert "EXACT_HUNDRED" not in table.rule_events()
    assert table.scores(s) == [6, -3, -3]
    s = table.ok(s, table.play(G, 2, "A♠"))  # 111: P2 pays 11 to each
    assert table.scores(s) == [17, 8, -25]
    # The deal's points hold the exact-100 payment too.
    assert table.deal_points(s) == [17, 8, -25]


def test_o_c1_4_feder_chips_pay_one_each_way(table):
    opts = {"settlement": "FEDER_CHIPS"}
    s = table.build(G, 4, hands={0: "J♠ …", 1: "A♠ …"}, total=98, options=opts)
    s = table.ok(s, table.play(G, 0, "J♠"))
    assert table.scores(s) == [3, -1, -1, -1]
    s = table.ok(s, table.play(G, 1, "A♠"))
    assert table.scores(s) == [4, -4, 0, 0]
    assert table.deal_points(s) == [4, -4, 0, 0]


def test_c_c_4_under_chips_the_most_chips_win_and_the_fewest_lose(table):
    opts = {"deals_per_match": 1}
    s = hundert(table, hands={0: "A♠ …"}, total=95, options=opts)
    s = table.ok(s, table.play(G, 0, "A♠"))  # 106: P0 pays 6 to each
    assert table.scores(s) == [-12, 6, 6]
    assert table.winners(s) == [1, 2]
    lost = next(e for e in table.events if "loses the match" in e.text)
    assert list(lost.seats) == [0]


def test_c_c_4_penalty_points_never_collect_for_exactly_100(table):
    s = table.build(G, 3, hands={0: "J♠ …"}, total=98)
    s = table.ok(s, table.play(G, 0, "J♠"))
    assert table.scores(s) == [0, 0, 0]
    assert not s.sto.HasField("exact_hundred_seat")
