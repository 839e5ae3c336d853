"""101 test situations (shared/rules/shedding.md §1.9), play rows.

One test per row, named after its id: a hand-built table (the `table` fixture
of conftest.py), the row's move or short sequence, the exact expected result.
Conventions of §1.9: P0..Pn-1 clockwise, P0 to act, the default options of the
version named. Scoring rows are in test_scoring_situations.py. The tests after
the rows are cases the rules of §1.2–§1.6 imply but the table lacks.
"""

from __future__ import annotations

import pytest

ALL_PRESETS = ["hd", "cl", "ru", "alt"]
ALL_NAMES = {"NAME ♣", "NAME ♦", "NAME ♥", "NAME ♠"}


def turn(table, state):
    """Who is to act and in which phase."""
    return state.current_seat, table.phase(state)


# -- §1.9 rows ------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "seats"), [("cl", 3), ("ru", 3), ("alt", 3), ("hd", 2)])
def test_101_01_card_of_the_top_cards_rank_is_legal(table, preset, seats):
    # "any" version; an HD ten reverses play (§1.3.2), so HD is played with two
    # seats, where the reversal is invisible and the turn still goes to P1.
    s = table.build(preset, seats, top="10♥", hands={0: "10♣ J♣"})
    s = table.ok(s, table.play(0, "10♣"))
    assert table.top(s) == "10♣"
    assert table.active(s) == "♣"
    assert table.hand(s, 0) == table.bag("J♣")
    assert turn(table, s) == (1, "PLAY")


def test_101_03_queen_names_a_suit_and_the_card_under_it_stops_counting(table):
    s = table.build("cl", 3, top="10♥", hands={0: "Q♣ …", 1: "10♦ 7♠"})
    s = table.ok(s, table.play(0, "Q♣", "♠"))
    assert table.top(s) == "Q♣"
    assert table.active(s) == "♠"
    assert turn(table, s) == (1, "PLAY")
    # The 10♥ under the Queen no longer counts: 10♦ follows neither ♠ nor Q.
    assert table.reason(s, table.play(1, "10♦")) == "MUST_FOLLOW_SUIT_OR_RANK"
    p2, stock = table.hand(s, 2), table.stock(s)
    s = table.ok(s, table.play(1, "7♠"))
    assert table.hand(s, 1) == table.bag("10♦")
    assert table.hand(s, 2) == p2 + table.bag(" ".join(stock[:2]))
    assert table.stock(s) == stock[2:]
    assert turn(table, s) == (0, "PLAY")  # P2 drew 2 and was skipped


def test_101_04_queen_on_a_queen_names_a_new_suit(table):
    s = table.build("cl", 3, top="Q♦", active="♣", hands={1: "Q♥ …"}, current=1)
    s = table.ok(s, table.play(1, "Q♥", "♥"))
    assert table.top(s) == "Q♥"
    assert table.active(s) == "♥"
    assert turn(table, s) == (2, "PLAY")


@pytest.mark.parametrize(("seats", "next_seat"), [(3, 2), (2, 0)])
def test_101_06_ace_skips_the_next_player(table, seats, next_seat):
    s = table.build("cl", seats, top="10♥", hands={0: "A♥ …"})
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "A♥"))
    assert turn(table, s) == (next_seat, "PLAY")
    assert table.hand(s, 1) == p1  # skipped, nothing drawn
    if seats == 2:
        # P0 plays again: an ordinary turn on the A♥.
        hand = list(table.hand(s, 0).elements())
        assert table.legal(s, 0) == (table.plays_of(hand, "A♥", "♥") or {"DRAW"})


def test_101_07_nine_must_be_covered_by_drawing_until_a_card_fits(table):
    s = table.build("cl", 3, top="9♣", hands={0: "9♥ 7♦ J♣"}, stock="8♠ 10♥ A♦")
    s = table.ok(s, table.play(0, "9♥"))
    assert turn(table, s) == (0, "COVER")
    assert table.active(s) == "♥"
    # No ♥, no 9, no Queen: the only way on is to draw.
    assert table.legal(s, 0) == {"DRAW"}
    assert table.reason(s, table.play(0, "J♣")) == "MUST_COVER"
    assert table.reason(s, table.pass_turn(0)) == "MUST_COVER"
    s = table.ok(s, table.draw(0))  # 8♠ does not cover
    assert table.hand(s, 0) == table.bag("7♦ J♣ 8♠")
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))  # 10♥ covers and must be played at once
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"PLAY 10♥"}
    assert table.reason(s, table.pass_turn(0)) == "MUST_COVER"
    assert table.reason(s, table.draw(0)) == "MUST_COVER"
    assert table.reason(s, table.play(0, "8♠")) == "MUST_COVER"
    s = table.ok(s, table.play(0, "10♥"))
    assert turn(table, s) == (1, "PLAY")
    assert table.top(s) == "10♥"
    assert table.hand(s, 0) == table.bag("7♦ J♣ 8♠")
    assert table.stock(s) == ["A♦"]


@pytest.mark.parametrize(("accumulates", "p2_draws"), [(False, 1), (True, 2)])
def test_101_15_six_is_transferred_with_a_six(table, accumulates, p2_draws):
    s = table.build(
        "hd",
        4,
        top="9♥",
        hands={0: "6♥ …", 1: "6♣ 10♥"},
        options={"transfer_accumulates": accumulates},
    )
    s = table.ok(s, table.play(0, "6♥"))
    assert turn(table, s) == (1, "RESPOND")
    assert s.hundred_and_one.pending_draw == 1
    assert table.legal(s, 1) == {"ACCEPT", "PLAY 6♣"}
    s = table.ok(s, table.play(1, "6♣"))
    assert turn(table, s) == (2, "RESPOND")
    assert s.hundred_and_one.pending_draw == p2_draws
    assert table.hand(s, 1) == table.bag("10♥")  # P1 drew nothing
    p2, p3, stock = table.hand(s, 2), table.hand(s, 3), table.stock(s)
    s = table.ok(s, table.accept(2))
    assert table.hand(s, 2) == p2 + table.bag(" ".join(stock[:p2_draws]))
    assert table.hand(s, 3) == p3
    assert turn(table, s) == (3, "PLAY")
    assert s.hundred_and_one.pending_draw == 0


def test_101_16_only_a_fitting_six_or_seven_answers_a_pending_six(table):
    s = table.build(
        "hd",
        3,
        top="6♥",
        hands={1: "10♥ 7♥ 7♣ Q♠"},
        current=1,
        phase="RESPOND",
        pending=1,
    )
    assert table.reason(s, table.play(1, "10♥")) == "MUST_RESPOND_TO_PENALTY"
    assert table.reason(s, table.play(1, "Q♠")) == "MUST_RESPOND_TO_PENALTY"
    assert table.reason(s, table.play(1, "Q♠", "♥")) == "MUST_RESPOND_TO_PENALTY"
    assert table.reason(s, table.play(1, "7♣")) == "MUST_FOLLOW_SUIT_OR_RANK"
    assert table.reason(s, table.draw(1)) == "MUST_RESPOND_TO_PENALTY"
    assert table.legal(s, 1) == {"ACCEPT", "PLAY 7♥"}
    s = table.ok(s, table.play(1, "7♥"))
    assert turn(table, s) == (2, "RESPOND")
    assert s.hundred_and_one.pending_draw == 2
    assert table.hand(s, 1) == table.bag("10♥ 7♣ Q♠")


def test_101_18_eight_is_covered_by_drawing_until_a_card_fits(table):
    s = table.build(
        "hd",
        3,
        top="8♦",
        hands={0: "8♣ K♥"},
        stock="J♦ 3♣ 5♠",
        options={"deck_size": 52, "eight_draw_mode": "UNTIL"},
    )
    s = table.ok(s, table.play(0, "8♣"))
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))  # J♦ does not cover
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))  # 3♣ covers: it must be played
    assert table.legal(s, 0) == {"PLAY 3♣"}
    s = table.ok(s, table.play(0, "3♣"))
    assert turn(table, s) == (1, "PLAY")
    assert table.hand(s, 0) == table.bag("K♥ J♦")
    assert table.stock(s) == ["5♠"]


def test_101_19_eight_draw_three_then_the_duty_lapses(table):
    s = table.build(
        "hd",
        3,
        top="8♦",
        hands={0: "8♣ K♥"},
        stock="J♦ 4♥ 5♦ 2♣",
        options={"deck_size": 52, "eight_draw_mode": "THREE"},
    )
    s = table.ok(s, table.play(0, "8♣"))
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))  # one move draws the batch J♦ 4♥ 5♦
    assert table.events[-1].text == "P0 need not cover: no cover in the batch of three"
    assert turn(table, s) == (1, "PLAY")
    assert table.top(s) == "8♣"
    assert table.active(s) == "♣"
    assert table.hand(s, 0) == table.bag("K♥ J♦ 4♥ 5♦")
    assert table.stock(s) == ["2♣"]


def test_101_21_ten_reverses_the_direction(table):
    s = table.build("hd", 4, top="10♣", hands={0: "10♥ …"})
    s = table.ok(s, table.play(0, "10♥"))
    assert s.hundred_and_one.reversed
    assert turn(table, s) == (3, "PLAY")


def test_101_22_eight_covered_by_a_ten_reverses(table):
    s = table.build("hd", 3, top="8♦", hands={0: "8♣ 10♣ …"})
    s = table.ok(s, table.play(0, "8♣"))
    assert turn(table, s) == (0, "COVER")
    s = table.ok(s, table.play(0, "10♣"))
    assert s.hundred_and_one.reversed
    assert turn(table, s) == (2, "PLAY")


def test_101_24_ordinary_specials_make_seven_and_eight_plain(table):
    options = {"ordinary_specials": True}
    s = table.build("hd", 3, top="7♣", hands={0: "7♥ …"}, options=options)
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "7♥"))
    assert turn(table, s) == (1, "PLAY")
    assert s.hundred_and_one.pending_draw == 0
    assert table.hand(s, 1) == p1
    s = table.build("hd", 3, top="7♥", hands={0: "8♥ …"}, options=options)
    s = table.ok(s, table.play(0, "8♥"))
    assert turn(table, s) == (1, "PLAY")


def test_101_25_empty_stock_is_restocked_by_turning_the_discard_pile(table):
    s = table.build("hd", 3, discard="9♣ J♣ 6♦ 7♣", stock="", hands={1: "10♥ 8♦ K♥"}, current=1)
    assert table.legal(s, 1) == {"DRAW"}
    s = table.ok(s, table.draw(1))
    assert table.discard(s) == ["7♣"]
    assert table.stock(s) == ["J♣", "6♦"]  # the oldest discard came up first
    assert table.drawn(s) == "9♣"
    assert table.hand(s, 1) == table.bag("10♥ 8♦ K♥ 9♣")
    assert turn(table, s) == (1, "DRAWN")
    assert table.legal(s, 1) == {"PLAY 9♣", "PASS"}


def test_101_25_restock_shuffle_keeps_the_top_and_the_cards(table):
    s = table.build(
        "hd",
        3,
        discard="9♣ J♣ 6♦ 7♣",
        stock="",
        hands={1: "10♥ 8♦ K♥"},
        current=1,
        options={"restock_shuffle": True},
    )
    s = table.ok(s, table.draw(1))
    assert table.discard(s) == ["7♣"]
    drawn = table.drawn(s)
    assert drawn in {"9♣", "J♣", "6♦"}
    assert table.bag(" ".join(table.stock(s))) + table.bag(drawn) == table.bag("9♣ J♣ 6♦")
    assert table.hand(s, 1) == table.bag(f"10♥ 8♦ K♥ {drawn}")
    assert turn(table, s) == (1, "DRAWN")


def test_101_27_dealer_upcard_seven_of_spades_hits_the_player_on_his_left(table):
    s = table.find_deal("ru", 4, "7♠")
    dealer = s.hundred_and_one.dealer
    left, after, last = (dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4
    assert table.discard(s) == ["7♠"]
    assert table.hand_size(s, dealer) == 3
    assert table.hand_size(s, left) == 4 + 4  # drew 4 and is skipped
    assert table.hand_size(s, after) == 4
    assert table.hand_size(s, last) == 4
    assert len(table.stock(s)) == 36 - 16 - 4
    assert turn(table, s) == (after, "PLAY")


@pytest.mark.parametrize("dealer_can_cover", [True, False])
def test_101_28_dealer_must_cover_his_upcard_six(table, dealer_can_cover):
    def dealer_fits(state):
        hand = list(table.hand(state, state.hundred_and_one.dealer).elements())
        return any(table.follows(card, "6♦", "♦") for card in hand) == dealer_can_cover

    s = table.find_deal("ru", 4, "6♦", where=dealer_fits)
    dealer = s.hundred_and_one.dealer
    left = (dealer + 1) % 4
    assert turn(table, s) == (dealer, "COVER")
    assert table.hand_size(s, dealer) == 3
    assert table.reason(s, table.draw(left)) == "NOT_YOUR_TURN"
    hand = list(table.hand(s, dealer).elements())
    if dealer_can_cover:
        assert table.legal(s, dealer) == table.plays_of(hand, "6♦", "♦")
        return
    assert table.legal(s, dealer) == {"DRAW"}
    for _ in range(len(table.stock(s))):
        before = table.hand(s, dealer)
        s = table.ok(s, table.draw(dealer))
        (drawn,) = (table.hand(s, dealer) - before).elements()
        assert turn(table, s) == (dealer, "COVER")
        if table.follows(drawn, "6♦", "♦"):
            assert table.legal(s, dealer) == table.plays_of([drawn], "6♦", "♦")
            return
        assert table.legal(s, dealer) == {"DRAW"}
    raise AssertionError("no card in the stock covers the 6♦")


def test_101_30_ace_cannot_be_the_last_card(table):
    s = table.build("ru", 3, top="10♥", hands={0: "A♥", 2: "J♥ …"}, stock="9♥ …")
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "A♥"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.hand_size(s, 0) == 0
    assert table.hand(s, 1) == p1
    assert turn(table, s) == (2, "PLAY")
    s = table.ok(s, table.play(2, "J♥"))
    # P0's next turn: with no card he first draws one, then C3.3.
    assert turn(table, s) == (0, "PLAY")
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))
    assert table.hand(s, 0) == table.bag("9♥")
    assert turn(table, s) == (0, "DRAWN")
    assert table.legal(s, 0) == {"PLAY 9♥", "PASS"}
    s = table.ok(s, table.play(0, "9♥"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]


def test_101_31_seven_cannot_be_the_last_card(table):
    s = table.build("ru", 3, top="7♦", hands={0: "7♣"})
    p1, stock = table.hand(s, 1), table.stock(s)
    s = table.ok(s, table.play(0, "7♣"))
    assert table.hand(s, 1) == p1 + table.bag(" ".join(stock[:2]))
    assert table.hand_size(s, 0) == 0
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert turn(table, s) == (2, "PLAY")


def test_101_33_five_makes_the_previous_player_draw_two_and_skips_the_next(table):
    s = table.build("alt", 4, top="5♣", hands={1: "5♥ …"}, current=1)
    p0, p2, stock = table.hand(s, 0), table.hand(s, 2), table.stock(s)
    s = table.ok(s, table.play(1, "5♥"))
    assert table.hand(s, 0) == p0 + table.bag(" ".join(stock[:2]))
    assert table.hand(s, 2) == p2
    assert turn(table, s) == (3, "PLAY")


def test_101_34_five_of_spades_makes_the_previous_player_draw_four(table):
    s = table.build("alt", 4, top="2♠", hands={1: "5♠ …"}, current=1)
    p0, p2, stock = table.hand(s, 0), table.hand(s, 2), table.stock(s)
    s = table.ok(s, table.play(1, "5♠"))
    assert table.hand(s, 0) == p0 + table.bag(" ".join(stock[:4]))
    assert table.hand(s, 2) == p2
    assert turn(table, s) == (3, "PLAY")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_101_39_no_drawing_while_holding_a_legal_card(table, preset):
    s = table.build(preset, 3, top="10♥", hands={0: "10♣ J♠"})
    assert table.reason(s, table.draw(0)) == "MUST_PLAY_LEGAL_CARD"
    assert table.legal(s, 0) == {"PLAY 10♣"}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_101_40_after_drawing_only_the_drawn_card_may_be_played(table, preset):
    s = table.build(preset, 3, top="10♥", hands={0: "J♠ 8♣"}, stock="7♥")
    assert table.legal(s, 0) == {"DRAW"}
    assert table.reason(s, table.pass_turn(0)) == "MUST_DRAW_BEFORE_PASSING"
    s = table.ok(s, table.draw(0))
    assert table.drawn(s) == "7♥"
    assert turn(table, s) == (0, "DRAWN")
    assert table.reason(s, table.play(0, "J♠")) == "ONLY_DRAWN_CARD_PLAYABLE"
    assert table.reason(s, table.play(0, "7♥")) == "ACCEPTED"
    assert table.reason(s, table.pass_turn(0)) == "ACCEPTED"
    assert table.legal(s, 0) == {"PLAY 7♥", "PASS"}
    s = table.ok(s, table.pass_turn(0))
    assert turn(table, s) == (1, "PLAY")
    assert table.hand(s, 0) == table.bag("J♠ 8♣ 7♥")


def test_101_42_dealer_names_the_suit_of_his_upcard_queen(table):
    def left_holds_a_club(state):
        left = (state.hundred_and_one.dealer + 1) % 3
        return any(card[-1] == "♣" for card in table.hand(state, left))

    # A deal where P0 (left of the dealer) can follow ♣, so that his legal
    # moves show the order at work rather than a bare DRAW.
    s = table.find_deal("cl", 3, "Q♥", where=left_holds_a_club)
    dealer = s.hundred_and_one.dealer
    left = (dealer + 1) % 3
    assert turn(table, s) == (dealer, "NAME_SUIT")
    assert table.hand_size(s, dealer) == 4
    assert table.legal(s, dealer) == ALL_NAMES
    assert table.legal(s, left) == set()
    assert table.reason(s, table.draw(left)) == "NOT_YOUR_TURN"
    a_card = table.hand_list(s, dealer)[0]
    assert table.reason(s, table.play(dealer, a_card)) == "MUST_NAME_SUIT"
    s = table.ok(s, table.name_suit(dealer, "♣"))
    assert table.top(s) == "Q♥"
    assert table.active(s) == "♣"
    assert turn(table, s) == (left, "PLAY")
    hand = table.hand_list(s, left)
    assert table.legal(s, left) == (table.plays_of(hand, "Q♥", "♣") or {"DRAW"})


# -- cases the rules imply (§1.2–§1.6) that the table lacks ------------------------


def test_king_of_spades_is_not_wild(table):
    # C2, A9: K♠ goes only on a spade or on another King.
    s = table.build("cl", 3, top="10♥", hands={0: "K♠ …"})
    assert table.reason(s, table.play(0, "K♠")) == "MUST_FOLLOW_SUIT_OR_RANK"
    s = table.build("cl", 3, top="K♥", hands={0: "K♠ …"})
    p1, stock = table.hand(s, 1), table.stock(s)
    s = table.ok(s, table.play(0, "K♠"))
    assert table.hand(s, 1) == p1 + table.bag(" ".join(stock[:4]))  # CL: 4
    assert turn(table, s) == (2, "PLAY")
    s = table.build("cl", 3, top="Q♣", active="♠", hands={0: "K♠ …"})
    assert table.reason(s, table.play(0, "K♠")) == "ACCEPTED"


def test_queen_order_outranks_the_queens_own_suit(table):
    # C2: after Q♦ naming ♣ a diamond no longer follows.
    s = table.build("cl", 3, top="Q♦", active="♣", hands={1: "J♦ 7♣ …"}, current=1)
    assert table.reason(s, table.play(1, "J♦")) == "MUST_FOLLOW_SUIT_OR_RANK"
    assert table.reason(s, table.play(1, "7♣")) == "ACCEPTED"


def test_queen_without_a_named_suit_keeps_its_own(table):
    s = table.build("cl", 3, top="10♥", hands={0: "Q♣ …"})
    s = table.ok(s, table.play(0, "Q♣"))
    assert table.active(s) == "♣"


def test_ace_is_not_wild(table):
    s = table.build("cl", 3, top="10♥", hands={0: "A♣ …"})
    assert table.reason(s, table.play(0, "A♣")) == "MUST_FOLLOW_SUIT_OR_RANK"


@pytest.mark.parametrize("must_cover", [False, True])
def test_hd_eight_as_last_card(table, must_cover):
    # §1.3.3: an 8 that empties the hand wins unless eight_last_must_cover.
    s = table.build(
        "hd",
        3,
        top="8♦",
        hands={0: "8♣"},
        stock="J♦ 9♣ …",
        options={"eight_last_must_cover": must_cover},
    )
    s = table.ok(s, table.play(0, "8♣"))
    if not must_cover:
        assert table.match_phase(s) == "DEAL_OVER"
        assert table.deal_winners(s) == [0]
        return
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))  # J♦
    s = table.ok(s, table.draw(0))  # 9♣ covers
    assert table.legal(s, 0) == {"PLAY 9♣"}
    s = table.ok(s, table.play(0, "9♣"))
    assert table.hand(s, 0) == table.bag("J♦")
    assert turn(table, s) == (1, "PLAY")


def test_cl_nine_as_last_card_must_still_be_covered(table):
    # C6.5: a self-cover card never ends the round.
    s = table.build("cl", 3, top="9♣", hands={0: "9♥"}, stock="8♠ 10♥ …")
    s = table.ok(s, table.play(0, "9♥"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert turn(table, s) == (0, "COVER")
    s = table.ok(s, table.draw(0))
    s = table.ok(s, table.draw(0))
    s = table.ok(s, table.play(0, "10♥"))
    assert table.hand(s, 0) == table.bag("8♠")
    assert turn(table, s) == (1, "PLAY")


@pytest.mark.parametrize("queen_covers", [True, False])
def test_cl_queen_may_cover_a_nine(table, queen_covers):
    # O29 nine_cover_allows_queen (default on, A14).
    s = table.build(
        "cl",
        3,
        top="9♣",
        hands={0: "9♥ Q♠ J♣"},
        options={"nine_cover_allows_queen": queen_covers},
    )
    s = table.ok(s, table.play(0, "9♥"))
    expected = table.queen_plays("Q♠") if queen_covers else {"DRAW"}
    assert table.legal(s, 0) == expected


def test_ru_six_as_last_card_is_covered_and_the_cover_wins(table):
    # §1.5.3: under six_cover_by SELF a 6 cannot finish; its cover can.
    s = table.build("ru", 3, top="10♥", hands={0: "6♥"}, stock="J♥ …")
    s = table.ok(s, table.play(0, "6♥"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert turn(table, s) == (0, "COVER")
    s = table.ok(s, table.draw(0))
    assert table.legal(s, 0) == {"PLAY J♥"}
    s = table.ok(s, table.play(0, "J♥"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]


@pytest.mark.parametrize(("top", "last", "draws"), [("K♥", "K♠", 5), ("10♠", "7♠", 4)])
def test_ru_forbidden_last_card_hits_and_the_round_goes_on(table, top, last, draws):
    # §1.5.2/§1.5.3: RU K♠ draws 5, 7♠ draws 4; neither may finish.
    s = table.build("ru", 3, top=top, hands={0: last})
    p1, stock = table.hand(s, 1), table.stock(s)
    s = table.ok(s, table.play(0, last))
    assert table.hand(s, 1) == p1 + table.bag(" ".join(stock[:draws]))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert turn(table, s) == (2, "PLAY")


def test_ru_player_with_no_cards_hit_by_a_seven_draws_and_is_skipped(table):
    # §1.5.3: at 0 cards a penalty is drawn and the turn is lost as normal.
    s = table.build("ru", 3, top="10♥", hands={0: "", 2: "7♥ …"}, current=2)
    stock = table.stock(s)
    s = table.ok(s, table.play(2, "7♥"))
    assert table.hand(s, 0) == table.bag(" ".join(stock[:2]))
    assert turn(table, s) == (1, "PLAY")


@pytest.mark.parametrize("kspades_draw", [4, 5])
def test_hd_king_of_spades_is_not_transferable(table, kspades_draw):
    # §1.3.2: K♠ hits at once even with transfer_6_7 on (no RESPOND phase).
    s = table.build("hd", 3, top="K♥", hands={0: "K♠ …"}, options={"kspades_draw": kspades_draw})
    p1, stock = table.hand(s, 1), table.stock(s)
    s = table.ok(s, table.play(0, "K♠"))
    assert table.hand(s, 1) == p1 + table.bag(" ".join(stock[:kspades_draw]))
    assert turn(table, s) == (2, "PLAY")


@pytest.mark.parametrize(("card", "draws"), [("6♥", 1), ("7♥", 2)])
def test_hd_without_transfer_six_and_seven_hit_at_once(table, card, draws):
    s = table.build("hd", 3, top="9♥", hands={0: f"{card} …"}, options={"transfer_6_7": False})
    p1, stock = table.hand(s, 1), table.stock(s)
    s = table.ok(s, table.play(0, card))
    assert table.hand(s, 1) == p1 + table.bag(" ".join(stock[:draws]))
    assert turn(table, s) == (2, "PLAY")


def test_hd_accepting_a_seven_draws_two_and_loses_the_turn(table):
    s = table.build("hd", 3, top="7♥", hands={1: "K♥ …"}, current=1, phase="RESPOND", pending=2)
    p1, stock = table.hand(s, 1), table.stock(s)
    s = table.ok(s, table.accept(1))
    assert table.hand(s, 1) == p1 + table.bag(" ".join(stock[:2]))
    assert turn(table, s) == (2, "PLAY")


@pytest.mark.parametrize("preset", ["hd", "cl", "ru"])
def test_ace_with_two_players_gives_another_turn(table, preset):
    s = table.build(preset, 2, top="10♥", hands={0: "A♥ …"})
    s = table.ok(s, table.play(0, "A♥"))
    assert turn(table, s) == (0, "PLAY")


def test_hd_ten_with_two_players_passes_the_turn(table):
    s = table.build("hd", 2, top="10♣", hands={0: "10♥ …"})
    s = table.ok(s, table.play(0, "10♥"))
    assert turn(table, s) == (1, "PLAY")


def test_hd_reversed_direction_runs_counter_clockwise(table):
    s = table.build("hd", 4, top="9♣", hands={2: "J♣ …"}, current=2, reversed=True)
    s = table.ok(s, table.play(2, "J♣"))
    assert turn(table, s) == (1, "PLAY")
    s = table.build("hd", 4, top="9♣", hands={2: "10♣ …"}, current=2, reversed=True)
    s = table.ok(s, table.play(2, "10♣"))
    assert not s.hundred_and_one.reversed
    assert turn(table, s) == (3, "PLAY")


def test_alt_five_with_two_players_gives_another_turn(table):
    # §1.6: with two players prev = next: the opponent draws and is skipped.
    s = table.build("alt", 2, top="5♣", hands={0: "5♥ …"})
    p1, stock = table.hand(s, 1), table.stock(s)
    s = table.ok(s, table.play(0, "5♥"))
    assert table.hand(s, 1) == p1 + table.bag(" ".join(stock[:2]))
    assert turn(table, s) == (0, "PLAY")


@pytest.mark.parametrize(
    ("top", "card", "next_seat"),
    [("6♣", "6♥", 1), ("10♣", "10♥", 1), ("K♥", "K♠", 1), ("A♣", "A♥", 2)],
)
def test_hd_ordinary_specials_keep_only_ace_and_queen(table, top, card, next_seat):
    # O13: 6, 7, 8, 10 and K♠ lose their effects; A and Q keep theirs.
    s = table.build("hd", 4, top=top, hands={0: f"{card} …"}, options={"ordinary_specials": True})
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, card))
    assert not s.hundred_and_one.reversed
    assert table.hand(s, 1) == p1
    assert turn(table, s) == (next_seat, "PLAY")


@pytest.mark.parametrize(
    ("preset", "top", "card", "next_seat"),
    [
        ("cl", "7♣", "7♥", 1),  # CL: a 7 makes next(p) draw 2 and be skipped
        ("cl", "6♣", "6♥", 1),  # CL: a 6 makes next(p) draw 1 and be skipped
        ("cl", "K♥", "K♠", 1),  # K♠ makes next(p) draw 4
        ("ru", "6♣", "6♥", 1),  # RU: a 6 must be covered by its player (SELF)
        ("ru", "7♣", "7♠", 1),  # RU: 7♠ makes next(p) draw 4 (O31)
        ("cl", "A♣", "A♥", 2),  # the Ace keeps its skip
    ],
)
def test_o13_ordinary_specials_in_every_version(table, preset, top, card, next_seat):
    # O13 lists no dependency (§1.7: every option is independent unless one is
    # listed): 6, 7, 8, 10 and K♠ lose their effects in CL and RU as in HD.
    options = {"ordinary_specials": True}
    s = table.build(preset, 4, top=top, hands={0: f"{card} …"}, options=options)
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, card))
    assert s.hundred_and_one.pending_draw == 0
    assert table.hand(s, 1) == p1
    assert turn(table, s) == (next_seat, "PLAY")


def test_o13_leaves_the_cl_nine_its_cover(table):
    # The CL 9 is not one of O13's cards: its player must still cover it (C6).
    options = {"ordinary_specials": True}
    s = table.build("cl", 3, top="9♣", hands={0: "9♥ 10♥ …"}, options=options)
    s = table.ok(s, table.play(0, "9♥"))
    assert turn(table, s) == (0, "COVER")


def test_must_play_drawn_forbids_passing_on_a_legal_drawn_card(table):
    # O9.
    options = {"must_play_drawn": True}
    s = table.build("cl", 3, top="10♥", hands={0: "J♠ 8♣"}, stock="7♥ …", options=options)
    s = table.ok(s, table.draw(0))
    assert table.reason(s, table.pass_turn(0)) == "MUST_PLAY_DRAWN_CARD"
    assert table.legal(s, 0) == {"PLAY 7♥"}
    s = table.build("cl", 3, top="10♥", hands={0: "J♠ 8♣"}, stock="J♣ …", options=options)
    s = table.ok(s, table.draw(0))
    assert table.legal(s, 0) == {"PASS"}


def test_draw_rule_until_playable_draws_one_card_a_move_until_one_fits(table):
    # O7 UNTIL_PLAYABLE, read as one card per DRAW move, the turn kept until a
    # legal card comes, which must then be played.
    s = table.build(
        "cl",
        3,
        top="10♥",
        hands={0: "8♣"},
        stock="J♠ 7♥ …",
        options={"draw_rule": "UNTIL_PLAYABLE"},
    )
    s = table.ok(s, table.draw(0))  # J♠
    assert s.current_seat == 0
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))  # 7♥
    assert table.reason(s, table.pass_turn(0)) == "MUST_PLAY_DRAWN_CARD"
    assert table.legal(s, 0) == {"PLAY 7♥"}


def test_draw_once_only(table):
    s = table.build("cl", 3, top="10♥", hands={0: "J♠ 8♣"}, stock="K♣ …")
    s = table.ok(s, table.draw(0))
    assert table.reason(s, table.draw(0)) == "ALREADY_DRAWN"
    assert table.legal(s, 0) == {"PASS"}


def test_eight_draw_three_with_a_cover_in_the_batch_must_cover(table):
    s = table.build(
        "hd",
        3,
        top="8♦",
        hands={0: "8♣ K♥"},
        stock="J♦ 4♣ 5♦ 2♣",
        options={"deck_size": 52, "eight_draw_mode": "THREE"},
    )
    s = table.ok(s, table.play(0, "8♣"))
    s = table.ok(s, table.draw(0))
    assert turn(table, s) == (0, "COVER")
    assert s.hundred_and_one.cover_batch_drawn
    assert table.hand(s, 0) == table.bag("K♥ J♦ 4♣ 5♦")
    assert table.legal(s, 0) == {"PLAY 4♣"}
    assert table.reason(s, table.draw(0)) == "MUST_COVER"
    assert table.reason(s, table.pass_turn(0)) == "MUST_COVER"
    s = table.ok(s, table.play(0, "4♣"))
    assert turn(table, s) == (1, "PLAY")


def test_eliminated_seat_is_passed_over(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"}, eliminated=(1,))
    s = table.ok(s, table.play(0, "J♥"))
    assert turn(table, s) == (2, "PLAY")


def test_hd_lead_any_opening_accepts_every_card(table):
    # §1.3.1 LEAD_ANY: the leader leads any card on an empty discard pile.
    s = table.new("hd", 3, seed=7)
    leader = s.current_seat
    assert table.discard(s) == []
    assert table.phase(s) == "PLAY"
    hand = table.hand_list(s, leader)
    assert len(hand) == 5
    expected = set()
    for card in hand:
        expected |= table.queen_plays(card) if card[:-1] == "Q" else {f"PLAY {card}"}
    assert table.legal(s, leader) == expected


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (lambda t: t.play(1, "J♣"), "NOT_YOUR_TURN"),
        (lambda t: t.play(0, "10♣"), "CARD_NOT_IN_HAND"),
        (lambda t: t.accept(0), "NO_PENALTY_TO_ACCEPT"),
        (lambda t: t.name_suit(0, "♣"), "NO_SUIT_TO_NAME"),
    ],
)
def test_rejections_on_an_ordinary_turn(table, move, reason):
    s = table.build("cl", 3, top="10♥", hands={0: "J♥ 8♣", 1: "J♣ …"})
    assert table.reason(s, move(table)) == reason


def test_ru_six_cover_by_next_puts_the_duty_on_the_next_player(table):
    # O28 six_cover_by NEXT: next(p) covers, drawing until able (§1.5.2).
    options = {"six_cover_by": "NEXT"}
    s = table.build(
        "ru", 3, top="10♥", hands={0: "6♥ …", 1: "J♠ 8♣"}, stock="K♣ 9♥ …", options=options
    )
    s = table.ok(s, table.play(0, "6♥"))
    assert turn(table, s) == (1, "COVER")
    assert table.legal(s, 1) == {"DRAW"}
    s = table.ok(s, table.draw(1))  # K♣
    assert table.legal(s, 1) == {"DRAW"}
    s = table.ok(s, table.draw(1))  # 9♥
    assert table.legal(s, 1) == {"PLAY 9♥"}
    s = table.ok(s, table.play(1, "9♥"))
    assert table.hand(s, 1) == table.bag("J♠ 8♣ K♣")
    assert turn(table, s) == (2, "PLAY")


def test_ru_six_cover_by_next_lets_a_six_finish(table):
    # §1.5.3: under NEXT a 6 may be the last card.
    s = table.build("ru", 3, top="10♥", hands={0: "6♥"}, options={"six_cover_by": "NEXT"})
    s = table.ok(s, table.play(0, "6♥"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]


def test_cl_upcard_nine_must_be_covered_by_the_dealer(table):
    # §1.4.1 upcard effects: a 9 binds the dealer to cover it first.
    s = table.find_deal("cl", 3, "9♠")
    dealer = s.hundred_and_one.dealer
    assert turn(table, s) == (dealer, "COVER")
    hand = table.hand_list(s, dealer)
    assert table.legal(s, dealer) == (table.plays_of(hand, "9♠", "♠") or {"DRAW"})


def test_cl_upcard_ace_skips_the_player_left_of_the_dealer(table):
    s = table.find_deal("cl", 3, "A♠")
    dealer = s.hundred_and_one.dealer
    assert table.hand_size(s, (dealer + 1) % 3) == 5
    assert turn(table, s) == ((dealer + 2) % 3, "PLAY")


def test_cl_upcard_queen_without_upcard_effects_is_a_plain_start(table):
    # O5 off: the Queen's own suit is active and the player left of the dealer
    # moves at once.
    s = table.find_deal("cl", 3, "Q♥", options={"upcard_effects": False})
    dealer = s.hundred_and_one.dealer
    assert table.active(s) == "♥"
    assert turn(table, s) == ((dealer + 1) % 3, "PLAY")
