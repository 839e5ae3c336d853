"""Second spec audit of the 101 family against shared/rules/shedding.md §0.5 and §1.

The first audit (test_spec_audit.py) pinned the interplay of effects, restocks
and thresholds. This second audit went through §1.1–§1.9 line by line again
(every card effect per version, every option of §1.7 alone and in the
combinations its dependency column names, every resolution of §1.8, every
situation of §1.9) and pins here what no other test file did: the options
that `ordinary_specials` makes inert (§1.7 O13: "disables O11, O12, O14, O15,
O16") and who leads when the last deal's winner has left the match (A1).
Each test is named after the rule it pins: a concrete position, the move, the
exact result.
"""

from __future__ import annotations

import pytest


def turn(table, state):
    """Who is to act and in which phase."""
    return state.current_seat, table.phase(state)


# -- §1.7 O13: ordinary_specials disables O11, O12, O14, O15, O16 --------------------------

# Every option O13 disables, set to its non-default value: the table is
# accepted (an inert option is not a conflict) and none of them acts.
INERT_UNDER_O13 = {
    "ordinary_specials": True,
    "transfer_accumulates": True,  # O12 (O11 is on in the HD preset)
    "eight_draw_mode": "THREE",  # O14
    "eight_last_must_cover": True,  # O15
    "kspades_draw": 5,  # O16
    "seven_spades_draw": 4,  # O31: the 7♠ is a 7, plain under O13 as well
}


def test_O13_a_last_eight_ends_the_deal_whatever_O14_and_O15_say(table):
    # §1.3.2 / O13: the 8 has no effect at all, so O15 (a last 8 must be
    # covered) and O14 (how to draw for it) have nothing to act on: P0's last
    # 8♣ on 8♦ ends the deal and P0 wins, with no cover duty.
    s = table.build("hd", 3, top="8♦", hands={0: "8♣"}, options=INERT_UNDER_O13)
    s = table.ok(s, table.play(0, "8♣"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]
    assert table.deal_points(s)[0] == 0


@pytest.mark.parametrize("card", ["K♠", "7♠", "6♠"])
def test_O13_king_and_seven_of_spades_and_six_are_plain_whatever_O12_O16_O31_say(table, card):
    # O13: K♠ (O16 says 5), 7♠ (O31 says 4) and the 6 (O11/O12) neither make
    # the next seat draw nor skip it, nor wait for an answer: P1 simply plays.
    s = table.build("hd", 3, top="9♠", hands={0: f"{card} J♣"}, options=INERT_UNDER_O13)
    p1, stock = table.hand(s, 1), table.stock(s)
    s = table.ok(s, table.play(0, card))
    assert turn(table, s) == (1, "PLAY")
    assert table.hand(s, 1) == p1
    assert table.stock(s) == stock
    assert s.hundred_and_one.pending_draw == 0


# -- A1: the previous deal's winner leads, or the next seat if he is out -------------------


def test_A1_a_winner_out_of_the_match_hands_the_lead_to_the_next_seat(table):
    # HD (LEAD_ANY), 3 seats, O18 on and O24 ELIMINATE_BELOW: P1 at -90 wins
    # the deal with Q♠ (-40), so his total -130 is below -101 and he is out
    # (C8). He cannot lead deal 2: the next seat still in, P2, leads it, any
    # card (RULES.md A1: "the next seat if he is out").
    options = {"queen_finish_bonus": True, "negative_limit": "ELIMINATE_BELOW"}
    s = table.build(
        "hd", 3, top="9♥", hands={0: "J♣", 1: "Q♠", 2: "J♦"}, current=1,
        scores=[10, -90, 20], options=options,
    )  # fmt: skip
    s = table.ok(s, table.play(1, "Q♠"))
    assert table.deal_winners(s) == [1]
    assert table.deal_points(s) == [2, -40, 2]
    assert table.scores(s) == [12, -130, 22]
    assert table.eliminated(s) == [False, True, False]
    assert table.match_phase(s) == "DEAL_OVER"
    s = table.next_deal(s)
    assert turn(table, s) == (2, "PLAY")
    assert not s.hundred_and_one.discard  # he leads any card
    assert table.hand_size(s, 1) == 0
    assert table.hand_size(s, 0) == table.hand_size(s, 2) == 5


# -- A30: the hand size is bounded by O2's rule alone ------------------------------------------


@pytest.mark.parametrize(
    ("options", "seats", "hand", "stock"),
    [({"hand_size": 17}, 2, 17, 2), ({"hand_size": 25, "deck_size": 52}, 2, 25, 2),
     ({"hand_size": 13, "deck_size": 52}, 3, 13, 13)],
)  # fmt: skip
def test_A30_a_hand_size_that_leaves_a_card_to_draw_is_dealt(table, options, seats, hand, stock):
    state = table.new("hd", seats, options)
    assert [len(h.cards) for h in state.hundred_and_one.hands] == [hand] * seats
    assert len(state.hundred_and_one.stock) == stock


def test_A30_a_hand_size_the_deck_cannot_deal_is_refused_naming_it():
    from croupier.engine import api
    from croupier.engine.errors import InvalidInput
    from croupier.engine.options import option_settings
    from croupier.v1 import service_pb2

    request = service_pb2.NewGameRequest(
        game="hundred_and_one", seat_count=2, seed=1, options=option_settings({"hand_size": 18})
    )
    with pytest.raises(InvalidInput) as refused:
        api.new_game(request)
    assert refused.value.violations == [
        ("options.hand_size", "2 players × 18 cards must be fewer than the 36-card deck")
    ]
