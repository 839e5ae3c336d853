"""Every ambiguity of rummy_and_counting.md §2.11 (A-M-*) and every
clarification of §2.13 (C-M-*), pinned by a test of the resolution RULES.md
states; and Croupier's own resolutions (K-M-*). P is seat 0, to act."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.v1 import service_pb2

MINE = (0, "[2♠ 3♠ 4♠]")


# -- A-M-01, A-M-02: the first card taken from the bridge ----------------------------------


def test_a_m_01_the_bridge_card_goes_into_a_new_meld_not_on_an_old_one(table):
    hand = {0: "8♦ K♣ 5♣"}
    layout = dict(hands=hand, melds=["[5♥ 6♥ 7♥]", MINE], bridge="9♠ 8♥", phase="DRAW")
    s = table.build(**layout)
    assert table.reason(s, table.take(0, "8♥")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    s = table.build(**layout, options={"bridge_card_may_be_laid_off": True})
    s = table.ok(s, table.take(0, "8♥"))
    s = table.ok(s, table.lay(s, 0, "8♥", 1, "high"))
    assert not s.most.bridge_card_owed
    table.ok(s, table.discard(s, 0, "K♣"))


def test_a_m_01_a_lay_off_of_the_owed_card_is_refused_by_default(table):
    # The 8♥ can go into [8♥ 8♦ 8♣]: the take is legal, the lay-off is not.
    s = table.build(
        hands={0: "8♦ 8♣ K♣ 5♣"}, melds=["[5♥ 6♥ 7♥]", MINE], bridge="9♠ 8♥", phase="DRAW"
    )
    s = table.ok(s, table.take(0, "8♥"))
    rejection = table.rejection(s, table.lay(s, 0, "8♥", 1, "high"))
    assert table.reason(s, table.lay(s, 0, "8♥", 1, "high")) == "BRIDGE_CARD_MUST_START_A_MELD"
    assert rejection.rule == "A-M-01"
    table.ok(s, table.meld(s, 0, "[8♥ 8♦ 8♣]"))


def test_a_m_02_the_newest_card_brings_the_duty_too(table):
    layout = dict(hands={0: "K♣ 5♣ 9♦"}, bridge="9♠ 8♥", phase="DRAW")
    s = table.build(**layout)
    assert table.reason(s, table.take(0, "8♥")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    s = table.build(**layout, options={"top_bridge_card_free": True})
    s = table.ok(s, table.take(0, "8♥"))
    assert (s.most.bridge_card_owed, table.rule_events()) == (False, ["BRIDGE_TAKEN"])
    # ... and still not older cards: the 9♠ would bring the 8♥ and the duty with it.
    s2 = table.build(**layout, options={"top_bridge_card_free": True})
    assert table.reason(s2, table.take(0, "9♠")) == "BRIDGE_CARD_CANNOT_BE_MELDED"


def test_k_m_2_a_free_newest_card_still_does_not_go_back_into_the_bridge(table):
    s = table.build(
        hands={0: "K♣ 5♣ 9♦"}, bridge="9♠ 8♥", phase="DRAW", options={"top_bridge_card_free": True}
    )
    s = table.ok(s, table.take(0, "8♥"))
    rejection = table.rejection(s, table.discard(s, 0, "8♥"))
    assert table.reason(s, table.discard(s, 0, "8♥")) == "DISCARD_OF_BRIDGE_CARD"
    assert rejection.rule == "K-M-2"
    assert "DISCARD 8H" not in table.legal(s)


def test_k_m_2_c_m_5_a_newest_card_alone_with_nothing_else_to_discard_is_refused(table):
    # Free or not, taking the 8♥ would leave nothing that may go into the bridge.
    s = table.build(
        hands={0: "9♣"},
        melds=["[8♣ JK→9♣ 10♣]"],
        bridge="8♥",
        phase="DRAW",
        options={"top_bridge_card_free": True, "exchange_requires_meld": True},
    )
    # C-M-5: the seat has not melded, so it may not count on K-M-3's exchange
    # after a take; C-M-1 refuses the take, and a draw keeps the way out.
    assert table.legal(s) == ["DRAW"]
    assert table.reason(s, table.take(0, "8♥")) == "TURN_COULD_NOT_BE_COMPLETED"
    table.ok(s, table.draw(0))


def test_k_m_3_without_exchange_requires_meld_the_take_stays_legal(table):
    s = table.build(
        hands={0: "9♣"},
        melds=["[8♣ JK→9♣ 10♣]"],
        bridge="8♥",
        phase="DRAW",
        options={"top_bridge_card_free": True},
    )
    assert table.legal(s) == ["DRAW", "TAKE 8H"]  # K-M-3: the 9♣ may be exchanged first
    s = table.ok(s, table.take(0, "8♥"))
    s = table.ok(s, table.exchange(0, "9♣"))
    table.ok(s, table.discard(s, 0, "JK"))


# -- A-M-03: who scores an exchanged card ----------------------------------------------


@pytest.mark.parametrize(("credit", "seat"), [("EXCHANGER", 0), ("MELD_OWNER", 1)])
def test_a_m_03_an_exchanged_card_scores_for(table, credit, seat):
    s = table.build(
        hands={0: "9♣ 4♦ 7♠"},
        melds=["[8♣ JK→9♣ 10♣]"],
        options={"exchanged_card_credit": credit},
    )
    s = table.ok(s, table.exchange(0, "9♣"))
    assert table.credited(s, 1)["9♣"] == seat


# -- A-M-04, A-M-10: a card and the joker standing for it ------------------------------------


def test_a_m_04_a_joker_may_not_stand_for_a_card_in_a_meld(table):
    # The seed's example: with [Q♠ Q♦ Q♣] on the table nobody melds [J♣ JK→Q♣ K♣].
    s = table.build(hands={0: "J♣ JK K♣ 4♦"}, melds=["[Q♠ Q♦ Q♣]"])
    assert table.reason(s, table.meld(s, 0, "[J♣ JK→Q♣ K♣]")) == "JOKER_IDENTITY_ON_TABLE"
    assert not [m for m in table.legal(s) if m.startswith("MELD")]


def test_a_m_04_a_card_a_joker_stands_for_is_only_exchanged(table):
    s = table.build(hands={0: "9♣ 9♥ 9♠ 7♣ 4♦"}, melds=["[8♣ JK→9♣ 10♣]", MINE, "[J♣ Q♣ K♣]"])
    assert table.reason(s, table.meld(s, 0, "[9♣ 9♥ 9♠]")) == "CARD_REPRESENTED_BY_JOKER"
    assert table.reason(s, table.discard(s, 0, "9♣")) == "CARD_REPRESENTED_BY_JOKER"
    # 7♣ on [8♣ JK→9♣ 10♣] is fine; nothing makes the 9♣ fit anywhere but in place of the joker.
    s = table.ok(s, table.exchange(0, "9♣"))
    assert table.melds(s)[0] == "[8♣ 9♣ 10♣]"


def test_a_m_04_a_joker_in_a_sequence_blocks_its_card_for_lay_offs(table):
    s = table.build(hands={0: "9♣ 4♦"}, melds=["[JK→9♣ 10♣ J♣]", MINE, "[6♣ 7♣ 8♣]"])
    assert table.reason(s, table.lay(s, 0, "9♣", 3, "high")) == "CARD_REPRESENTED_BY_JOKER"


def test_a_m_10_a_joker_may_not_stand_for_a_card_of_another_meld(table):
    # A's set [2♦ 2♣ 2♠], B's sequence [K♥ A♥ 2♥ 3♥]: the 2♥ is on the table, so no joker
    # may stand for it on A's set.
    melds = [(1, "[2♦ 2♣ 2♠]"), (2, "[K♥ A♥ 2♥ 3♥]"), (0, "[5♠ 6♠ 7♠]")]
    s = table.build(hands={0: "JK 4♦ 7♣"}, melds=melds)
    lay = table.lay(s, 0, "JK", 1, joker_as="2♥")
    assert table.reason(s, lay) == "JOKER_IDENTITY_ON_TABLE"
    assert "LAY RJ=2H ON 1" not in table.legal(s)


# -- A-M-05, C-M-3: jokers per meld --------------------------------------------------------


def test_a_m_05_any_number_of_jokers_with_a_natural(table):
    s = table.build(hands={0: "JK JK 7♣ 4♦"})
    assert table.reason(s, table.meld(s, 0, "[JK→6♣ 7♣ JK→8♣]")) == "ACCEPTED"


@pytest.mark.parametrize("naturals", [0, 1])
def test_c_m_3_min_naturals_per_meld_is_inert(table, naturals):
    s = table.build(
        hands={0: "JK JK 7♣ 4♦ 4♣"},
        melds=[MINE],
        options={"min_naturals_per_meld": naturals},
    )
    listed = table.legal(s)
    default = table.legal(table.build(hands={0: "JK JK 7♣ 4♦ 4♣"}, melds=[MINE]))
    assert listed == default
    assert "MELD [RJ=6C 7C BJ=8C]" in listed
    assert not [m for m in listed if m.startswith("MELD") and m.count("J=") == 3]


# -- A-M-06, C-M-2: the empty stock ---------------------------------------------------------


def test_a_m_06_an_empty_stock_ends_the_hand(table):
    s = table.build(
        3, hands={0: "K♣ 9♦", 1: "3♦ 4♦"}, melds=[MINE], bridge="8♥", stock="", phase="DRAW",
        spare=2,
    )  # fmt: skip
    s = table.ok(s, table.draw(0))
    assert table.rule_events() == ["STOCK_EXHAUSTED"]
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s)[:2] == [15 - 10 - 5, -10]
    assert table.winners(s) == []


def _empty_stock(table, reshuffled_at, **kw):
    return table.build(
        3,
        hands={0: "K♣ 9♦", 1: "3♦ 4♦"},
        melds=[MINE],
        bridge="8♥ 5♣ 7♠",
        stock="",
        phase="DRAW",
        spare=2,
        reshuffled_at=reshuffled_at,
        options={"stock_exhausted": "RESHUFFLE_BRIDGE"},
        **kw,
    )


def test_c_m_2_the_bridge_becomes_the_stock_when_a_card_reached_the_table(table):
    s = _empty_stock(table, reshuffled_at=0)
    s = table.ok(s, table.draw(0))
    assert table.kinds() == ["STOCK_RESTOCKED", "CARDS_DRAWN"]
    assert (table.bridge(s), table.stock_size(s), len(s.most.hands[0].cards)) == ([], 2, 3)
    assert s.most.table_cards_at_reshuffle == 3
    assert table.phase(s) == "PLAY"


def test_c_m_2_no_new_card_on_the_table_since_the_last_reshuffle_ends_the_hand(table):
    s = _empty_stock(table, reshuffled_at=3)
    s = table.ok(s, table.draw(0))
    assert table.rule_events() == ["STOCK_EXHAUSTED"]
    assert table.match_phase(s) == "DEAL_OVER"


# -- A-M-07, C-M-4: the match --------------------------------------------------------------


def _last_discard(table, scores, **kw):
    # Seat 0 goes out with the 3♦ and his [Q♥ K♥ A♥] (+35); seat 1 holds 4♦ 5♦ (-10).
    return table.build(
        2,
        hands={0: "3♦", 1: "4♦ 5♦"},
        melds=[(0, "[Q♥ K♥ A♥]")],
        scores=scores,
        filler=0,
        **kw,
    )


def test_a_m_07_the_highest_total_at_the_target_wins(table):
    s = _last_discard(table, [470, 520])
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert table.scores(s) == [505, 510]
    assert (table.match_phase(s), table.winners(s)) == ("MATCH_OVER", [1])


def test_a_m_07_equal_highest_totals_play_another_hand(table):
    s = _last_discard(table, [475, 510])
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert table.scores(s) == [510, 500]
    s = _last_discard(table, [475, 520])
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert table.scores(s) == [510, 510]
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.rule_events()[-1] == "TIE_AT_TARGET"
    s = table.next_deal(s)
    assert (table.match_phase(s), s.match.deal_number) == ("DEAL_IN_PROGRESS", 2)


def test_c_m_4_after_max_deals_the_highest_total_wins_and_ties_share(table):
    s = _last_discard(table, [0, 25], options={"max_deals": 3}, deal_number=3)
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert table.scores(s) == [35, 15]
    assert (table.match_phase(s), table.winners(s)) == ("MATCH_OVER", [0])
    s = _last_discard(table, [0, 45], options={"max_deals": 3}, deal_number=3)
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert (table.match_phase(s), table.winners(s)) == ("MATCH_OVER", [0, 1])
    s = _last_discard(table, [0, 45], options={"max_deals": 3}, deal_number=2)
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert table.match_phase(s) == "DEAL_OVER"


def test_c_m_4_a_tie_at_the_target_in_the_last_deal_is_shared(table):
    s = _last_discard(table, [475, 520], options={"max_deals": 2}, deal_number=2)
    s = table.ok(s, table.discard(s, 0, "3♦"))
    assert (table.match_phase(s), table.winners(s)) == ("MATCH_OVER", [0, 1])


# -- A-M-08: the lay-off prerequisite is per hand ----------------------------------------------


def test_a_m_08_a_meld_counts_for_lay_offs_in_its_own_hand_only(table):
    s = _last_discard(table, [0, 0])
    assert list(s.most.melded) == [True, False]
    s = table.ok(s, table.discard(s, 0, "3♦"))
    s = table.next_deal(s)
    assert list(s.most.melded) == [False, False]
    assert not s.most.melds


# -- A-M-09: players -------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "ok"), [(1, False), (2, True), (8, True), (9, False)])
def test_a_m_09_two_to_eight_players(table, seats, ok):
    request = service_pb2.NewGameRequest(game="most", preset="seed", seat_count=seats, seed=1)
    if ok:
        state = api.new_game(request).state
        assert [len(h.cards) for h in state.most.hands] == [6] * seats
    else:
        with pytest.raises(InvalidInput):
            api.new_game(request)


# -- C-M-1: no dead ends -------------------------------------------------------------------


def test_c_m_1_a_meld_that_leaves_the_bridge_card_no_meld_is_refused(table):
    # The 9♣ owed goes into [9♣ 9♥ 9♠]; melding the 9♥ away first would leave it none.
    s = table.build(hands={0: "9♣ 9♥ 9♠ 10♥ J♥ 4♦ K♠"}, bridge_card="9♣", melds=[MINE])
    rejection = table.rejection(s, table.meld(s, 0, "[9♥ 10♥ J♥]"))
    assert table.reason(s, table.meld(s, 0, "[9♥ 10♥ J♥]")) == "BRIDGE_CARD_CANNOT_BE_MELDED"
    assert rejection.rule == "C-M-1"
    assert "MELD [9H 10H JH]" not in table.legal(s)
    table.ok(s, table.meld(s, 0, "[9♣ 9♥ 9♠]"))


def test_c_m_1_the_hand_is_not_emptied_before_the_discard(table):
    # R-M-34: a meld of the last three cards leaves nothing to put into the bridge.
    s = table.build(hands={0: "5♥ 6♥ 7♥"})
    assert table.reason(s, table.meld(s, 0, "[5♥ 6♥ 7♥]")) == "NO_CARD_LEFT_TO_DISCARD"
    s = table.build(hands={0: "5♥ 6♥ 7♥"}, options={"go_out_without_discard": True})
    s = table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥]"))
    assert table.rule_events() == ["MELDED", "WENT_OUT"]
    assert table.deal_points(s)[0] == 15


# -- C-M-5, K-M-3: exchanging without a meld ------------------------------------------------


def test_c_m_5_exchange_requires_meld(table):
    layout = dict(hands={0: "9♣ 4♦ 7♠"}, melds=["[8♣ JK→9♣ 10♣]"])
    s = table.build(**layout, options={"exchange_requires_meld": True})
    rejection = table.rejection(s, table.exchange(0, "9♣"))
    assert table.reason(s, table.exchange(0, "9♣")) == "EXCHANGE_NEEDS_OWN_MELD"
    assert rejection.rule == "C-M-5"
    s = table.build(**layout, melded=[0], options={"exchange_requires_meld": True})
    table.ok(s, table.exchange(0, "9♣"))


def test_k_m_3_the_exchange_is_open_when_no_card_may_go_into_the_bridge(table):
    # P drew the 5♥ and holds the 9♣: a joker stands for each. Nothing may go into the
    # bridge, and P has not melded — the exchange is his way out all the same.
    s = table.build(
        hands={0: "9♣ 5♥"},
        melds=["[8♣ JK→9♣ 10♣]", "[JK→5♥ 6♥ 7♥]"],
        drawn="5♥",
        options={"exchange_requires_meld": True},
    )
    assert table.legal(s) == ["EXCHANGE 9C", "EXCHANGE 5H"]
    s = table.ok(s, table.exchange(0, "9♣"))
    assert table.reason(s, table.exchange(0, "5♥")) == "EXCHANGE_NEEDS_OWN_MELD"
    table.ok(s, table.discard(s, 0, "JK"))


def test_k_m_2_the_bridge_joker_laid_off_for_the_last_card_held_is_refused(table):
    # Regression (a random rum500 playout reached a dead end): P laid the joker he took from
    # the bridge on a set as the 2♠ he holds. The 2♠ could then leave his hand only in
    # exchange for that same joker, which may not go back into the bridge this turn.
    s = table.build(
        hands={0: "2♠ JK"},
        melds=[(1, "[2♣ 2♦ JK→2♥]"), (0, "[5♠ 6♠ 7♠]")],
        bridge_card="JK",
        options={"bridge_card_may_be_laid_off": True},
    )
    lay = table.lay(s, 0, "JK", 1, joker_as="2♠")
    assert table.reason(s, lay) == "TURN_COULD_NOT_BE_COMPLETED"
    assert table.legal(s) == ["LAY BJ ON 2 LOW", "LAY BJ ON 2 HIGH"]


# -- K-M-5: a turn ------------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "ends"), [("5♥ 6♥ 7♥ 9♣ K♦", False), ("5♥ 6♥ 7♥ K♦", True)])
def test_k_m_5_one_draw_then_melds_and_lay_offs_then_one_discard_ends_the_turn(table, hand, ends):
    s = table.build(hands={0: hand}, bridge="2♦", stock="8♥ …", phase="DRAW")
    # The draw comes first, and only once.
    assert table.legal(s) == ["DRAW"]  # the 2♦ could go into no meld (C-M-1)
    for move in (table.meld(s, 0, "[5♥ 6♥ 7♥]"), table.discard(s, 0, "K♦")):
        rejection = table.rejection(s, move)
        assert (table.reason(s, move), rejection.rule) == ("MUST_DRAW_FIRST", "K-M-5")
    s = table.ok(s, table.draw(0))
    assert (s.current_seat, table.phase(s)) == (0, "PLAY")
    assert table.hand(s, 0) == table.bag(f"{hand} 8♥")
    for move in (table.draw(0), table.take(0, "2♦")):
        rejection = table.rejection(s, move)
        assert (table.reason(s, move), rejection.rule) == ("ALREADY_DRAWN", "K-M-5")
    # Then melds and lay-offs, only by the seat whose turn it is.
    meld = table.meld(s, 1, "[5♥ 6♥ 7♥]")
    assert (table.reason(s, meld), table.rejection(s, meld).rule) == ("NOT_YOUR_TURN", "engine")
    s = table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥]"))
    s = table.ok(s, table.lay(s, 0, "8♥", 1, "high"))
    assert (s.current_seat, table.phase(s)) == (0, "PLAY")
    # One discard ends the turn: the next seat clockwise draws, or the hand
    # is over when the discard was the last card (R-M-40).
    s = table.ok(s, table.discard(s, 0, "K♦"))
    assert table.bridge(s) == ["2♦", "K♦"]
    if ends:
        assert "WENT_OUT" in table.rule_events()
        assert table.match_phase(s) == "DEAL_OVER"
    else:
        assert table.match_phase(s) == "DEAL_IN_PROGRESS"
        assert (s.current_seat, table.phase(s)) == (1, "DRAW")
        assert table.hand(s, 0) == table.bag("9♣")


# -- K-M-6: a hand kept going by the players' choice is not ended ----------------------


def test_k_m_6_free_newest_cards_can_circle_for_ever_by_choice_and_a_draw_stays_open(table):
    # 2 seats, top_bridge_card_free: each turn takes the newest bridge card
    # (no duty) and discards another. After six turns the hands, the bridge
    # and the stock are as they were: nothing in the rules ends such a hand,
    # and Croupier does not invent an end. Every turn could draw instead
    # (which uses up the stock), and the clock's default move does.
    s = table.build(
        2, hands={0: "K♣ 5♣", 1: "Q♦ 4♦"}, bridge="9♠", phase="DRAW",
        options={"top_bridge_card_free": True},
    )  # fmt: skip
    start = (table.hand(s, 0), table.hand(s, 1), table.bridge(s), table.stock_size(s))
    turns = [(0, "9♠", "K♣"), (1, "K♣", "Q♦"), (0, "Q♦", "9♠"),
             (1, "9♠", "K♣"), (0, "K♣", "Q♦"), (1, "Q♦", "9♠")]  # fmt: skip
    for seat, taken, given in turns:
        assert "DRAW" in table.legal(s, seat)
        assert table.default(s, seat) == "DRAW"
        s = table.ok(s, table.take(seat, taken))
        s = table.ok(s, table.discard(s, seat, given))
    assert (table.hand(s, 0), table.hand(s, 1), table.bridge(s), table.stock_size(s)) == start
    assert s.current_seat == 0 and table.phase(s) == "DRAW"
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
