"""The fourth spec audit of the counting games against rummy_and_counting.md
part 3 (§3.A «Сто», §3.B One Hundred, §3.C 101 with chips, §3.D
clarifications) and RULES.md: the points the spec leaves open that the
earlier audits did not pin (a hand shorter than a deal gives, a match ending
with every seat equal, the rule a rejected choice cites), the card that can
never break the limit (101's king), and option pairs at the limit. Each test:
a hand-built table, a move and its exact result. P0..Pn-1 clockwise, seed
options unless named."""

from __future__ import annotations

STO = "sto"
HUNDRED = "one_hundred"
CHIPS = "chips_101"


# -- §3.A «Сто» ---------------------------------------------------------------------------------


def test_a_c1_03_every_seat_equal_after_the_last_deal_nobody_loses(table):
    """R-C1-06 / A-C1-03: the last deal's bust leaves [2, 2, 2]. Every seat has
    the fewest penalty points, so all three share the win; nobody is named the
    match's loser (RULES.md A-C1-03: "When every seat stands equal nobody
    loses")."""
    s = table.build(
        STO, 3, hands={1: "J♣ …"}, current=1, total=100, scores=[2, 0, 2], deal_number=3
    )
    s = table.ok(s, table.play(STO, 1, "J♣"))
    assert table.total(s) == 102
    assert table.deal_points(s) == [0, 2, 0]
    assert table.scores(s) == [2, 2, 2]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0, 1, 2]
    assert "MATCH_LOST" not in table.rule_events()


def test_r_c1_06_the_most_penalty_after_the_last_deal_loses_alone(table):
    """R-C1-06: the same deal with P1 ahead by 1 makes P1 the only loser and
    P0, P2 the shared winners."""
    s = table.build(
        STO, 3, hands={1: "J♣ …"}, current=1, total=100, scores=[2, 1, 2], deal_number=3
    )
    s = table.ok(s, table.play(STO, 1, "J♣"))
    assert table.scores(s) == [2, 3, 2]
    assert table.winners(s) == [0, 2]
    lost = next(e for e in table.events if e.kind and "loses the match" in e.text)
    assert list(lost.seats) == [1]


# -- §3.B One Hundred ---------------------------------------------------------------------------


def test_r_c2_03_a_short_hand_draws_one_card_not_up_to_four(table):
    """R-C2-03 ("draw one card from the stock"), RULES.md E-C-1: a hand-built
    hand of one card plays it and draws exactly one, the stock's top; it is
    not topped up to four."""
    s = table.build(HUNDRED, 3, hands={0: "7♦"}, total=10, stock="2♣ 3♣ …")
    stock = table.stock(s)
    s = table.ok(s, table.play(HUNDRED, 0, "7♦"))
    assert table.total(s) == 17
    assert table.hand(s, 0) == {"2♣": 1}
    assert table.stock(s) == stock[1:]
    assert s.current_seat == 1


def test_o_c2_4_continue_after_a_reversal_the_counter_clockwise_neighbour_leads(table):
    """O-C2-4 CONTINUE ("next player leads"), RULES.md O-C2-4: the direction in
    force stands. P2 reversed the play earlier; P1 busts with Q♠ on 95; P1 is
    out and P0, the next counter-clockwise, leads at 0; the stock is the same
    less the buster's draw."""
    opts = {"after_bust": "CONTINUE"}
    s = table.build(HUNDRED, 4, hands={1: "Q♠ …"}, current=1, total=95, reversed=True, options=opts)
    stock = table.stock(s)
    s = table.ok(s, table.play(HUNDRED, 1, "Q♠"))
    assert table.eliminated(s) == [1]
    assert table.total(s) == 0
    assert table.reversed(s)
    assert s.current_seat == 0
    assert table.stock(s) == stock[1:]
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"


# -- §3.C 101 with chips ------------------------------------------------------------------------


def test_r_c3_03_a_short_hand_draws_one_card(table):
    """R-C3-03 ("then draw one card"), RULES.md E-C-1: as in One Hundred."""
    s = table.build(CHIPS, 3, hands={0: "7♦"}, total=10, stock="2♣ 3♣ …")
    s = table.ok(s, table.play(CHIPS, 0, "7♦"))
    assert table.hand(s, 0) == {"2♣": 1}


def test_r_c3_04_a_king_on_101_is_legal_so_its_holder_never_concedes(table):
    """R-C3-04 (K sets the total to 101) with R-C3-05 (legal when the result
    is ≤ 101): on 101 the king is the only legal card of [K♣ 7♦ 8♠]; CONCEDE
    is refused (A-C3-04) and the king keeps the total at 101."""
    s = table.build(CHIPS, 3, hands={0: "K♣ 7♦ 8♠"}, total=101)
    assert table.legal(s) == ["K♣"]
    rejection = table.rejection(s, table.concede(CHIPS, 0))
    assert rejection.rule == "A-C3-04"
    s = table.ok(s, table.play(CHIPS, 0, "K♣"))
    assert table.total(s) == 101
    assert s.current_seat == 1
    assert table.scores(s) == [3, 3, 3]


def test_o_c3_1_limit_100_a_king_on_100_keeps_100(table):
    """O-C3-1 limit 100 (T-C3-09: K sets the total to 100): on 100 the king
    is legal and leaves 100; 7♣ would make 107 and is not."""
    s = table.build(CHIPS, 3, hands={0: "K♣ 7♣ 8♦"}, total=100, options={"limit": 100})
    assert table.legal(s) == ["K♣"]
    assert table.total(table.ok(s, table.play(CHIPS, 0, "K♣"))) == 100


def test_o_c3_1_with_o_c3_3_limit_100_a_plus_ten_reaches_exactly_100(table):
    """limit 100 with ten_effect PLUS_OR_MINUS_10: on 90 a ten may add +10
    (100, safe) or −10; on 91 only −10 (+10 makes 101, which loses under limit
    100)."""
    opts = {"limit": 100, "ten_effect": "PLUS_OR_MINUS_10"}
    s = table.build(CHIPS, 3, hands={0: "10♠ 2♣ 3♣"}, total=90, options=opts)
    assert table.legal(s) == ["2♣", "3♣", "10♠-10", "10♠+10"]
    assert table.total(table.ok(s, table.play(CHIPS, 0, "10♠", adds=10))) == 100
    s = table.build(CHIPS, 3, hands={0: "10♠ 2♣ 3♣"}, total=91, options=opts)
    assert table.legal(s) == ["2♣", "3♣", "10♠-10"]
    assert table.reason(s, table.play(CHIPS, 0, "10♠", adds=10)) == "WOULD_EXCEED_LIMIT"


def test_e_c_5_a_ten_with_a_choice_under_minus_10_cites_r_c3_04(table):
    """E-C-5 and RULES.md Rejections: under MINUS_10 a ten takes no choice;
    the rejection cites the rule of its value, R-C3-04 (O-C3-3 is the rule
    only under PLUS_OR_MINUS_10)."""
    s = table.build(CHIPS, 3, hands={0: "10♠ …"}, total=50)
    rejection = table.rejection(s, table.play(CHIPS, 0, "10♠", adds=-10))
    assert rejection.rule == "R-C3-04"
    s = table.build(CHIPS, 3, hands={0: "10♠ …"}, total=50, preset="pagat")
    rejection = table.rejection(s, table.play(CHIPS, 0, "10♠", adds=5))
    assert rejection.rule == "O-C3-3"


def test_r_c3_05_an_ace_on_101_is_not_legal_even_as_1(table):
    """R-C3-04/05: an ace adds at least 1, so on 101 it is never legal;
    holding [A♥ 9♦ 6♣] only the nine (+0) may be played."""
    s = table.build(CHIPS, 3, hands={0: "A♥ 9♦ 6♣"}, total=101)
    assert table.legal(s) == ["9♦"]
    assert table.reason(s, table.play(CHIPS, 0, "A♥", adds=1)) == "WOULD_EXCEED_LIMIT"
