"""A second audit of «Мост» against rummy_and_counting.md PART 2: option
combinations around the look-ahead of C-M-1 (takes of several cards, jokers
among them, first melds that open an exchange or a lay-off, going out
without a discard), the empty stock (R-M-23, C-M-2), scoring at the end of a
hand (R-M-41), the deal for every seat count (R-M-04, R-M-05), views, the
default move in each part of a turn, and the legal-move list against the
moves the engine accepts in crowded positions. Each test is named after the
rule it pins. P is seat 0, to act; melds on the table were laid by seat 1
unless said otherwise."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.engine import api, cards
from croupier.engine.melds import SEQUENCE
from croupier.games.most import legal as generator
from croupier.games.most.forming import formable
from croupier.games.most.position import Position
from croupier.games.most.rules import rules_for
from croupier.v1 import most_pb2 as pb
from croupier.v1 import service_pb2

MINE = (0, "[2♠ 3♠ 4♠]")
LAY_OFF = {"bridge_card_may_be_laid_off": True}
GO_OUT = {"go_out_without_discard": True}
NEEDS_MELD = {"exchange_requires_meld": True}
TOP_FREE = {"top_bridge_card_free": True}
RESHUFFLE = {"stock_exhausted": "RESHUFFLE_BRIDGE"}


# -- C-M-1: takes of several cards, jokers among them ------------------------------------------


def test_c_m_1_the_first_card_taken_melds_with_a_joker_taken_along(table):
    s = table.build(hands={0: "7♥ 4♦ 5♣"}, bridge="K♦ 7♠ JK", phase="DRAW")
    assert table.legal(s) == ["DRAW", "TAKE 7S"]
    assert table.reason(s, table.take(0, "JK")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    s = table.ok(s, table.take(0, "7♠"))
    assert table.hand(s, 0) == table.bag("7♥ 4♦ 5♣ 7♠ JK")
    s = table.ok(s, table.meld(s, 0, "[7♥ 7♠ JK→7♦]"))
    s = table.ok(s, table.discard(s, 0, "4♦"))
    assert table.bridge(s) == ["K♦", "4♦"]


def test_c_m_1_a_joker_taken_first_melds_with_the_other_joker_taken_along(table):
    # Both jokers in the bridge with the 7♠ between them: from the first joker P takes all
    # three and melds them; from the 7♠ he gets one joker only, too few. (From the K♦ the
    # two jokers make [K♦ JK JK].)
    s = table.build(hands={0: "4♦ 9♣"}, bridge="K♦ JK 7♠ JK", phase="DRAW")
    assert table.legal(s) == ["DRAW", "TAKE KD", "TAKE RJ"]
    s = table.ok(s, table.take(0, "JK"))
    assert s.most.bridge_card == cards.RED_JOKER and s.most.bridge_card_owed
    assert table.reason(s, table.discard(s, 0, "4♦")) == "BRIDGE_CARD_NOT_MELDED"
    s = table.ok(s, table.meld(s, 0, "[7♠ JK→7♦ JK→7♥]"))
    assert not s.most.bridge_card_owed
    s = table.ok(s, table.discard(s, 0, "9♣"))
    assert table.melds(s) == ["[7♠ JK→7♦ JK→7♥]"]


def test_c_m_1_a_take_that_frees_a_jokers_card_from_the_bridge(table):
    # The 9♦ and 10♦ leave the bridge together: the joker may then stand for the 9♦, and
    # the taken 9♦ goes to the hand freely (only the first card is owed) and is discarded.
    s = table.build(hands={0: "8♦ JK 4♣"}, bridge="Q♣ 10♦ 9♦", phase="DRAW")
    assert table.legal(s) == ["DRAW", "TAKE 10D", "TAKE 9D"]
    s = table.ok(s, table.take(0, "10♦"))
    s = table.ok(s, table.meld(s, 0, "[8♦ JK→9♦ 10♦]"))
    # R-M-13: the 9♦ is now stood for by the joker: it may not go into the bridge.
    assert table.reason(s, table.discard(s, 0, "9♦")) == "CARD_REPRESENTED_BY_JOKER"
    s = table.ok(s, table.discard(s, 0, "4♣"))
    assert table.bridge(s) == ["Q♣", "4♣"]


# -- C-M-5 with C-M-1: exchange_requires_meld --------------------------------------------------


def test_c_m_5_a_first_meld_opens_the_exchange_that_the_bridge_card_needs(table):
    s = table.build(
        hands={0: "9♣ 7♥ 2♦ 3♦ 4♦ 5♣"},
        melds=["[8♣ JK→9♣ 10♣]"],
        bridge="K♦ 7♠",
        phase="DRAW",
        options=NEEDS_MELD,
    )
    assert table.legal(s) == ["DRAW", "TAKE 7S"]
    s = table.ok(s, table.take(0, "7♠"))
    assert table.reason(s, table.exchange(0, "9♣")) == "EXCHANGE_NEEDS_OWN_MELD"
    s = table.ok(s, table.meld(s, 0, "[2♦ 3♦ 4♦]"))
    s = table.ok(s, table.exchange(0, "9♣"))
    s = table.ok(s, table.meld(s, 0, "[7♥ 7♠ JK→7♦]"))
    s = table.ok(s, table.discard(s, 0, "5♣"))
    assert table.melds(s)[0] == "[8♣ 9♣ 10♣]"


@pytest.mark.parametrize(("options", "melded"), [(TOP_FREE, []), ({**NEEDS_MELD, **TOP_FREE}, [0])])
def test_k_m_2_a_free_newest_card_with_a_stood_for_card_exchange_then_discard(
    table, options, melded
):
    # After taking the 4♠ free P holds it (not to go back, K-M-2) and the 9♣ a joker stands
    # for (R-M-13): a seat that may exchange finishes by exchanging and discarding the joker.
    s = table.build(
        hands={0: "9♣"}, melds=["[8♣ JK→9♣ 10♣]"], bridge="K♦ 4♠", phase="DRAW",
        melded=melded, options=options,
    )  # fmt: skip
    assert table.legal(s) == ["DRAW", "TAKE 4S"]
    s = table.ok(s, table.take(0, "4♠"))
    assert table.legal(s) == ["EXCHANGE 9C"]
    s = table.ok(s, table.exchange(0, "9♣"))
    s = table.ok(s, table.discard(s, 0, "JK"))
    assert table.hand(s, 0) == table.bag("4♠")


def test_k_m_3_a_stood_for_card_drawn_from_the_stock_may_still_be_exchanged(table):
    # The draw cannot be refused (it would reveal the card): K-M-3 opens the exchange.
    s = table.build(
        hands={0: "9♣"},
        melds=["[8♣ JK→9♣ 10♣]", "[JK→5♥ 6♥ 7♥]"],
        stock="5♥ …",
        phase="DRAW",
        options={**NEEDS_MELD, **TOP_FREE},
    )
    s = table.ok(s, table.draw(0))
    assert table.legal(s) == ["EXCHANGE 9C", "EXCHANGE 5H"]


TWO_EXCHANGES = dict(
    hands={0: "9♣ 5♥ 4♦"},
    melds=["[8♣ JK→9♣ 10♣]", "[JK→5♥ 6♥ 7♥]"],
    bridge="7♠",
    phase="DRAW",
)


@pytest.mark.parametrize(
    ("options", "melded", "legal"),
    [
        ({}, [], ["DRAW", "TAKE 7S"]),
        (NEEDS_MELD, [], ["DRAW"]),
        (NEEDS_MELD, [0], ["DRAW", "TAKE 7S"]),
    ],
)
def test_c_m_1_the_bridge_card_melded_with_both_jokers_won_by_exchanges(
    table, options, melded, legal
):
    # The 7♠ has no partner in P's hand: it needs both table jokers (not as the 7♥, which
    # lies in a meld), each won by exchanging the card it stands for (C-M-5 closes that to a
    # seat that has not melded).
    s = table.build(**TWO_EXCHANGES, melded=melded, options=options)
    assert table.legal(s) == legal
    if "TAKE 7S" not in legal:
        assert table.reason(s, table.take(0, "7♠")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
        return
    s = table.ok(s, table.take(0, "7♠"))
    s = table.ok(s, table.exchange(0, "9♣"))
    s = table.ok(s, table.exchange(0, "5♥"))
    assert table.reason(s, table.meld(s, 0, "[7♠ JK→7♦ JK→7♥]")) == "JOKER_IDENTITY_ON_TABLE"
    s = table.ok(s, table.meld(s, 0, "[7♠ JK→7♣ JK→7♦]"))
    s = table.ok(s, table.discard(s, 0, "4♦"))
    assert table.melds(s) == ["[8♣ 9♣ 10♣]", "[5♥ 6♥ 7♥]", "[7♠ JK→7♣ JK→7♦]"]


# -- A-M-01 with C-M-1: bridge_card_may_be_laid_off --------------------------------------------


@pytest.mark.parametrize("extra", [{}, NEEDS_MELD])
def test_a_m_01_a_first_meld_of_cards_taken_along_opens_the_lay_off_of_the_bridge_card(
    table, extra
):
    layout = dict(
        hands={0: "K♠ 5♣"}, melds=["[5♥ 6♥ 7♥]"], bridge="9♠ 8♥ K♣ K♦", phase="DRAW"
    )  # fmt: skip
    s = table.build(**layout, options=extra)
    assert table.reason(s, table.take(0, "8♥")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    s = table.build(**layout, options={**LAY_OFF, **extra})
    assert "TAKE 8H" in table.legal(s)
    s = table.ok(s, table.take(0, "8♥"))
    s = table.ok(s, table.meld(s, 0, "[K♣ K♦ K♠]"))
    s = table.ok(s, table.lay(s, 0, "8♥", 1, "high"))
    s = table.ok(s, table.discard(s, 0, "5♣"))
    assert table.melds(s) == ["[5♥ 6♥ 7♥ 8♥]", "[K♣ K♦ K♠]"]


def test_a_m_01_the_bridge_card_laid_off_after_a_card_of_its_suit(table):
    # The 9♥ reaches [5♥ 6♥ 7♥] once P's 8♥ lies there.
    s = table.build(
        hands={0: "8♥ K♣"}, melds=["[5♥ 6♥ 7♥]", MINE], bridge="4♦ 9♥", phase="DRAW",
        options=LAY_OFF,
    )  # fmt: skip
    s = table.ok(s, table.take(0, "9♥"))
    assert table.reason(s, table.lay(s, 0, "9♥", 1, "high")) == "LAY_OFF_DOES_NOT_FIT"
    s = table.ok(s, table.lay(s, 0, "8♥", 1, "high"))
    s = table.ok(s, table.lay(s, 0, "9♥", 1, "high"))
    s = table.ok(s, table.discard(s, 0, "K♣"))
    assert table.credited(s, 1) == {"5♥": 1, "6♥": 1, "7♥": 1, "8♥": 0, "9♥": 0}


def test_r_m_34_the_bridge_card_laid_off_last_goes_out_without_discard(table):
    # P holds only the 8♥: taking the 9♥ he can lay both off, which empties his hand. That
    # is a dead end by default (no discard left) and goes out under go_out_without_discard.
    layout = dict(hands={0: "8♥"}, melds=["[5♥ 6♥ 7♥]", MINE], bridge="4♦ 9♥", phase="DRAW")
    s = table.build(**layout, options=LAY_OFF)
    assert table.reason(s, table.take(0, "9♥")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    assert table.legal(s) == ["DRAW"]
    s = table.build(**layout, options={**LAY_OFF, **GO_OUT})
    s = table.ok(s, table.take(0, "9♥"))
    s = table.ok(s, table.lay(s, 0, "8♥", 1, "high"))
    s = table.ok(s, table.lay(s, 0, "9♥", 1, "high"))
    assert table.rule_events() == ["LAID_OFF", "WENT_OUT"]
    assert table.deal_points(s)[0] == 15 + 5 + 5


def test_r_m_13_a_joker_laid_on_a_set_may_not_be_a_card_of_the_bridge(table):
    s = table.build(hands={0: "JK 9♣ 4♦"}, melds=["[5♣ 5♥ 5♠]", MINE], bridge="K♣ 5♦")
    assert table.reason(s, table.lay(s, 0, "JK", 1, joker_as="5♦")) == "JOKER_IDENTITY_ON_TABLE"
    assert not [m for m in table.legal(s) if "ON 1" in m]


# -- R-M-34 with C-M-1: a take that melds and then goes out ---------------------------------------


def test_r_m_34_a_take_melded_and_then_the_rest_melded_goes_out(table):
    layout = dict(hands={0: "9♥ 9♠ 5♥ 6♥"}, bridge="K♦ 9♣ 7♥", phase="DRAW")
    s = table.build(**layout)
    s = table.ok(s, table.take(0, "9♣"))
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))
    assert table.reason(s, table.meld(s, 0, "[5♥ 6♥ 7♥]")) == "NO_CARD_LEFT_TO_DISCARD"
    s = table.build(**layout, options=GO_OUT)
    s = table.ok(s, table.take(0, "9♣"))
    # The other meld first: the 9♣ is still owed, and its meld then empties the hand.
    s = table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥]"))
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))
    assert table.rule_events() == ["MELDED", "WENT_OUT"]
    assert (table.deal_points(s)[0], table.bridge(s)) == (15 + 15, ["K♦"])


def test_r_m_34_a_meld_that_empties_the_hand_but_leaves_the_bridge_card_owed(table):
    # go_out_without_discard: the hand may not be emptied while the bridge card is owed.
    s = table.build(hands={0: "5♥ 6♥ 7♥ 9♥ 9♠"}, bridge="K♦ 9♣", phase="DRAW", options=GO_OUT)
    s = table.ok(s, table.take(0, "9♣"))
    s = table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥]"))
    assert table.legal(s) == ["MELD [9C 9H 9S]"]


# -- R-M-23, C-M-2: the empty stock ----------------------------------------------------------------


def test_c_m_2_a_lay_off_since_the_last_reshuffle_allows_another(table):
    # Three cards on the table at the last reshuffle; P lays off a fourth, the stock is empty:
    # the next seat's draw turns the bridge into the stock again.
    s = table.build(
        3, hands={0: "8♥ K♣ 4♣"}, melds=[(0, "[5♥ 6♥ 7♥]")], bridge="4♦", stock="", spare=2,
        reshuffled_at=3, options=RESHUFFLE,
    )  # fmt: skip
    s = table.ok(s, table.lay(s, 0, "8♥", 1, "high"))
    s = table.ok(s, table.discard(s, 0, "K♣"))
    s = table.ok(s, table.draw(1))
    assert table.kinds() == ["STOCK_RESTOCKED", "CARDS_DRAWN"]
    assert (table.bridge(s), table.stock_size(s), s.most.table_cards_at_reshuffle) == ([], 1, 4)
    # Nothing more reaches the table: the next empty stock ends the hand.
    s = table.ok(s, table.discard(s, 1, table.text(s.most.hands[1].cards[0])))
    s = table.ok(s, table.draw(2))
    s = table.ok(s, table.discard(s, 2, table.text(s.most.hands[2].cards[0])))
    s = table.ok(s, table.draw(0))
    assert table.rule_events() == ["STOCK_EXHAUSTED"]
    assert table.match_phase(s) == "DEAL_OVER"


def test_r_m_23_end_hand_scores_every_seat_with_nobody_out(table):
    # Seat 1's [J♥ Q♥ K♥] carries P's A♥ and seat 2's joker as the 10♥ (0 points).
    s = table.build(
        3,
        hands={0: "K♣ JK", 1: "3♦", 2: "A♠ 2♣"},
        melds=[(1, "[JK→10♥ J♥ Q♥ K♥ A♥]", {"A♥": 0, "JK": 2}), MINE],
        bridge="8♥",
        stock="",
        phase="DRAW",
        filler=0,
        spare=2,
    )
    s = table.ok(s, table.draw(0))
    assert table.kinds() == ["STOCK_EXHAUSTED", "DEAL_ENDED"]
    hand2 = sum(
        {"A": 15, "10": 10, "J": 10, "Q": 10, "K": 10}.get(table.text(v)[:-1], 5)
        for v in s.most.hands[2].cards
    )
    assert table.deal_points(s) == [15 + 15 - 10 - 100, 30 - 5, 0 - hand2]
    assert list(s.match.deal_winners) == [1]


# -- R-M-41: scoring ------------------------------------------------------------------------------


def test_r_m_41_two_jokers_in_hand_and_aces_at_both_ends(table):
    s = table.build(
        2,
        hands={0: "K♣", 1: "JK JK A♣"},
        melds=[(0, "[5♠ 6♠ 7♠]"), (1, "[Q♦ K♦ A♦]"), (1, "[A♥ 2♥ 3♥]")],
        filler=0,
    )
    s = table.ok(s, table.discard(s, 0, "K♣"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s)[1] == (10 + 10 + 15) + (15 + 5 + 5) - (100 + 100 + 15)


def test_r_m_41_an_exchanged_joker_kept_in_hand_costs_100(table):
    # P exchanges the 9♣ and keeps the joker; the stock runs out before he plays it.
    s = table.build(
        2,
        hands={0: "9♣ 4♦ 5♦", 1: "K♠"},
        melds=[(1, "[8♣ JK→9♣ 10♣]")],
        stock="",
        filler=0,
        spare=1,
    )
    s = table.ok(s, table.exchange(0, "9♣"))
    s = table.ok(s, table.discard(s, 0, "4♦"))
    s = table.ok(s, table.draw(1))
    assert table.rule_events() == ["STOCK_EXHAUSTED"]
    assert table.deal_points(s)[0] == 5 - 5 - 100
    assert table.credited(s, 1) == {"8♣": 1, "9♣": 0, "10♣": 1}


def test_r_m_42_totals_carry_negative_hands_and_the_leader_at_the_target_wins(table):
    # Seat 1 reaches the target with a lower hand score than P's and still wins on total.
    s = table.build(
        2,
        hands={0: "3♦", 1: "4♦"},
        melds=[(0, "[Q♥ K♥ A♥]"), (1, "[5♣ 6♣ 7♣]")],
        scores=[-200, 490],
        filler=0,
    )
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert table.deal_points(s) == [35, 10]
    assert table.scores(s) == [-165, 500]
    assert (table.match_phase(s), table.winners(s)) == ("MATCH_OVER", [1])
    assert list(s.match.deal_winners) == [0]


# -- R-M-04, R-M-05: the deal ----------------------------------------------------------------------


@pytest.mark.parametrize("seats", range(2, 9))
def test_r_m_05_every_seat_count_gets_six_cards_and_one_bridge_card(table, seats):
    s = table.new(seats, seed=seats)
    d = s.most
    assert [len(h.cards) for h in d.hands] == [6] * seats
    assert (len(d.bridge), len(d.stock)) == (1, 54 - 6 * seats - 1)
    every = [v for h in d.hands for v in h.cards] + list(d.stock) + list(d.bridge)
    assert Counter(every) == Counter(cards.pack_54())
    assert s.current_seat == (d.dealer + 1) % seats
    assert (list(d.melded), len(d.melds), table.phase(s)) == ([False] * seats, 0, "DRAW")


@pytest.mark.parametrize("seats", [3, 8])
def test_r_m_04_the_next_hand_is_dealt_by_the_next_seat_and_starts_afresh(table, seats):
    s = table.build(
        seats, hands={0: "3♦"}, melds=[(0, "[Q♥ K♥ A♥]")], bridge="9♦", dealer=seats - 1,
        reshuffled_at=3, scores=[10] * seats, options=RESHUFFLE,
    )  # fmt: skip
    s = table.ok(s, table.discard(s, 0, "3♦"))
    points = table.deal_points(s)
    s = table.next_deal(s)
    d = s.most
    assert (d.dealer, s.current_seat, s.match.deal_number) == (0, 1, 2)
    assert table.scores(s) == [10 + p for p in points]
    assert [len(h.cards) for h in d.hands] == [6] * seats
    assert (len(d.melds), list(d.melded), d.table_cards_at_reshuffle) == (0, [False] * seats, 0)
    assert (d.bridge_card, d.bridge_card_owed, d.drawn_card) == (0, False, 0)


# -- Views -----------------------------------------------------------------------------------------


def _view(s, seat):
    return api.get_view(service_pb2.GetViewRequest(state=s, seat=seat)).view.most


def test_views_show_everyone_the_bridge_card_taken_and_its_duty(table):
    s = table.build(
        3, hands={0: "9♥ 9♠ 4♦", 1: "K♠ K♦"}, melds=[(2, "[J♥ Q♥ K♥]")],
        bridge="5♦ 9♣ 7♥", phase="DRAW",
    )  # fmt: skip
    s = table.ok(s, table.take(0, "9♣"))
    for seat in range(3):
        v = _view(s, seat)
        assert (table.text(v.bridge_card), v.bridge_card_owed, v.drawn_card) == ("9♣", True, 0)
        assert [table.text(c) for c in v.bridge] == ["5♦"]
        assert list(v.hand_sizes) == [5, 2, 6]
        assert list(v.melded) == [False, False, True]
    s = table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))
    v = _view(s, 1)
    assert (v.bridge_card_owed, list(v.melded), list(v.table_points)) == (
        False,
        [True, False, True],
        [15, 0, 30],
    )
    assert [table.text(c) for c in v.hand] == ["K♠", "K♦"]


def test_views_after_the_hand_hold_no_turn(table):
    s = table.build(2, hands={0: "3♦", 1: "4♦"}, melds=[(0, "[Q♥ K♥ A♥]")], drawn="3♦", filler=0)
    s = table.ok(s, table.discard(s, 0, "3♦"))
    for seat in range(2):
        v = _view(s, seat)
        assert (v.phase, v.drawn_card, v.bridge_card) == (pb.MOST_PHASE_DEAL_OVER, 0, 0)


# -- Default move ----------------------------------------------------------------------------------


def _default_turn(table, s, limit=8):
    """Play default moves until the seat to act changes or the hand ends."""
    seat = s.current_seat
    played = []
    for _ in range(limit):
        text = table.default(s)
        assert text in table.legal(s)
        played.append(text)
        move = api.default_move(service_pb2.DefaultMoveRequest(state=s, seat=seat)).move.move
        s = table.ok(s, move)
        if s.current_seat != seat or table.match_phase(s) != "DEAL_IN_PROGRESS":
            return s, played
    raise AssertionError(f"the default moves do not end the turn: {played}")


def test_default_move_on_an_empty_stock_draws_and_ends_the_hand(table):
    s = table.build(
        3, hands={0: "K♣ 9♦"}, melds=[MINE], bridge="8♥", stock="", phase="DRAW", spare=2
    )  # fmt: skip
    s, played = _default_turn(table, s)
    assert played == ["DRAW"]
    assert table.match_phase(s) == "DEAL_OVER"


def test_default_move_after_a_free_newest_card_discards_another(table):
    s = table.build(hands={0: "K♣ 5♣"}, bridge="9♦ 8♥", phase="DRAW", options=TOP_FREE)
    s = table.ok(s, table.take(0, "8♥"))
    s, played = _default_turn(table, s)
    assert played == ["DISCARD 5C"]
    assert table.bridge(s) == ["9♦", "5♣"]


def test_default_move_melds_the_owed_card_not_another_meld(table):
    s = table.build(hands={0: "2♣ 3♣ 4♣ 9♦ 9♥ 9♠ K♣"}, bridge_card="9♦")
    assert table.legal(s)[0] == "MELD [2C 3C 4C]"
    s, played = _default_turn(table, s)
    assert played[0] == "MELD [9D 9H 9S]"
    assert played[-1].startswith("DISCARD")


def test_default_move_lays_off_the_owed_card_when_only_that_places_it(table):
    s = table.build(
        hands={0: "8♥ K♣"}, melds=["[5♥ 6♥ 7♥]", MINE], bridge_card="8♥", options=LAY_OFF
    )  # fmt: skip
    s, played = _default_turn(table, s)
    assert played == ["LAY 8H ON 1 HIGH", "DISCARD KC"]


def test_default_move_exchanges_when_nothing_may_go_into_the_bridge(table):
    s = table.build(
        hands={0: "9♣ 5♥"}, melds=["[8♣ JK→9♣ 10♣]", "[JK→5♥ 6♥ 7♥]"], drawn="5♥",
        options=NEEDS_MELD,
    )  # fmt: skip
    s, played = _default_turn(table, s)
    assert played[0] == "EXCHANGE 9C"
    assert played[-1] == "DISCARD RJ" or played[-1] == "DISCARD BJ"


def test_default_move_takes_the_jokers_the_bridge_card_needs(table):
    s = table.build(**TWO_EXCHANGES)
    s = table.ok(s, table.take(0, "7♠"))
    s, played = _default_turn(table, s)
    assert played[:2] == ["EXCHANGE 9C", "EXCHANGE 5H"]
    assert played[-1] == "DISCARD 4D"
    assert table.melds(s)[2].startswith("[7♠")


# -- Legal moves: exactly the moves the engine accepts ---------------------------------------------


def _tries(state):
    """Well-formed moves of the seat to act, far more than the legal ones."""
    seat = state.current_seat
    deal = state.most
    if deal.phase == pb.MOST_PHASE_DRAW:
        return [generator.draw(seat)] + [generator.take(seat, v) for v in deal.bridge]
    hand = sorted(deal.hands[seat].cards)
    out = [generator.discard(seat, v) for v in hand]
    out += [generator.exchange(seat, v) for v in hand if not cards.is_joker(v)]
    pos = Position.read(state, rules_for(state.options.most))
    suits = (cards.CLUBS, cards.DIAMONDS, cards.HEARTS, cards.SPADES)
    for m in pos.melds:
        for v in hand:
            for end in (0, pb.MOST_END_LOW, pb.MOST_END_HIGH):
                out.append(generator.lay_off(seat, m.id, v, end))
                if cards.is_joker(v) and m.meld.kind != SEQUENCE and end == 0:
                    for suit in suits:
                        ident = cards.card(m.meld.low, suit)
                        out.append(generator.lay_off(seat, m.id, v, 0, ident))
    for meld_cards, joker_as in formable(hand, max_cards=5):
        out.append(generator.meld(seat, meld_cards, joker_as))
    return out


def _accepted(state):
    out = set()
    for move in _tries(state):
        response = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))
        if response.accepted:
            out.add(response.notation)
    return out


CROWDED = dict(
    hands={0: "JK 9♣ 5♦ 6♦ 7♦ A♠ 2♥ Q♣ 10♥"},
    melds=[
        "[8♣ JK→9♣ 10♣]",
        "[Q♥ K♥ A♥]",
        (2, "[5♣ 5♥ 5♠]"),
        (0, "[J♦ Q♦ K♦ A♦]"),
    ],
    bridge="3♠ 8♦ 4♦",
)


@pytest.mark.parametrize(
    "options",
    [{}, {**LAY_OFF, **TOP_FREE, **RESHUFFLE}, {**NEEDS_MELD, **GO_OUT}, {**LAY_OFF, **GO_OUT}],
)
@pytest.mark.parametrize("situation", ["draw", "play", "owed", "unmelded"])
def test_legal_moves_are_exactly_the_accepted_ones_in_crowded_positions(table, options, situation):
    layout = {k: v for k, v in CROWDED.items()}
    if situation == "draw":
        layout["hands"] = {0: "9♣ 5♦ 6♦ A♠ 2♥ Q♣ 10♥ 9♦"}
        s = table.build(**layout, phase="DRAW", options=options)
    elif situation == "play":
        s = table.build(**layout, drawn="10♥", options=options)
    elif situation == "owed":
        s = table.build(**layout, bridge_card="2♥", options=options)
    else:
        layout["melds"] = [*layout["melds"][:3], (1, "[J♦ Q♦ K♦ A♦]")]
        s = table.build(**layout, bridge_card="10♥", owed=False, options=options)
    listed = table.legal(s)
    assert len(listed) > 3
    assert _accepted(s) == set(listed)


def test_c_m_2_an_exchange_since_the_last_reshuffle_allows_another(table):
    # Three cards on the table at the last reshuffle, one of them a joker; P exchanges
    # the 6♥ for it (a natural reaches the table, the count stays 3), the stock is
    # empty: the next seat's draw turns the bridge into the stock again.
    s = table.build(
        3, hands={0: "6♥ K♣ 4♣"}, melds=[(0, "[5♥ JK→6♥ 7♥]")], bridge="4♦", stock="", spare=2,
        reshuffled_at=3, options=RESHUFFLE,
    )  # fmt: skip
    s = table.ok(s, table.exchange(0, "6♥"))
    assert s.most.exchanged_since_reshuffle
    s = table.ok(s, table.discard(s, 0, "K♣"))
    s = table.ok(s, table.draw(1))
    assert table.kinds() == ["STOCK_RESTOCKED", "CARDS_DRAWN"]
    assert not s.most.exchanged_since_reshuffle and s.most.table_cards_at_reshuffle == 3
    # Nothing more reaches the table: the next empty stock ends the hand.
    s = table.ok(s, table.discard(s, 1, table.text(s.most.hands[1].cards[0])))
    s = table.ok(s, table.draw(2))
    s = table.ok(s, table.discard(s, 2, table.text(s.most.hands[2].cards[0])))
    s = table.ok(s, table.draw(0))
    assert table.rule_events() == ["STOCK_EXHAUSTED"]
