"""H17 (U16): a false "UNO!" and a false catch cost their maker 2 cards
whenever they are made (RULES.md H17, Acting seats; rules version 5).

shared H17 names the false catches: "target called in time, or does not hold
exactly one card, or window closed", and "an UNO call not accompanying a
penultimate play". So under U16 every seat in the round may move at every
moment the game is not paused; without U16 only the seats a window admits do.

Conventions of §2.14 (conftest.py): P0..P3 clockwise, P0 to act, the dealer
P3, the SEED profile, house rules off unless listed.
"""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.v1 import service_pb2

U16 = {"misplay_penalty": True}


def test_h17_every_seat_in_the_round_acts_and_may_shout_falsely(table):
    s = table.build(top="R7", hands={0: "R3 G5", 1: "Y1 Y2", 2: "B1 B2", 3: "G1 G2"}, options=U16)
    assert table.acting(s) == [0, 1, 2, 3]
    assert table.legal(s, 2) == {"UNO", "CATCH 0", "CATCH 1", "CATCH 3"}
    plain = table.build(top="R7", hands={0: "R3 G5", 1: "Y1 Y2", 2: "B1 B2", 3: "G1 G2"})
    assert table.acting(plain) == [0] and table.legal(plain, 2) == set()


def test_h17_catching_a_seat_that_called_in_time_costs_the_accuser_two(table):
    s = table.build(top="R7", hands={0: "R3 G5", 1: "Y1 Y2", 2: "B1 B2"}, options=U16)
    s = table.ok(s, table.play(0, "R3", uno=True))
    assert not s.uno.HasField("uno_offender")  # called in time: no catch window
    s = table.ok(s, "P2 CATCH 0")
    (shout,) = table.rule_events("FALSE_CALL")
    assert shout.seat == 2
    assert (table.size(s, 0), table.size(s, 2)) == (1, 2 + 2)
    assert table.turn(s) == (1, "PLAY")  # a side action: the turn is P1's still


def test_h17_catching_after_the_window_closed_costs_the_accuser_two(table):
    s = table.build(top="R7", hands={0: "R3 G5", 1: "Y1 Y2", 2: "B1 B2"}, options=U16)
    s = table.ok(s, table.play(0, "R3"), "P1 DRAW")  # P0 forgot; P1's draw closes the window
    assert not s.uno.HasField("uno_offender")
    s = table.ok(s, "P2 CATCH 0")
    (shout,) = table.rule_events("FALSE_CALL")
    assert shout.seat == 2
    assert (table.size(s, 0), table.size(s, 2)) == (1, 2 + 2)


def test_h17_catching_a_seat_without_one_card_costs_the_accuser_two(table):
    s = table.build(top="R7", hands={0: "R3 G5 G6", 1: "Y1 Y2", 2: "B1 B2"}, options=U16)
    s = table.ok(s, "P3 CATCH 1")
    (shout,) = table.rule_events("FALSE_CALL")
    assert shout.seat == 3
    assert (table.size(s, 1), table.size(s, 3)) == (2, 5 + 2)
    assert table.turn(s) == (0, "PLAY")


def test_h17_a_call_by_a_seat_not_to_act_with_no_card_played_costs_two(table):
    s = table.build(top="R7", hands={0: "R3 G5", 1: "Y1 Y2", 2: "B1 B2"}, options=U16)
    s = table.ok(s, "P2 UNO")
    (shout,) = table.rule_events("FALSE_CALL")
    assert shout.seat == 2
    assert table.size(s, 2) == 2 + 2 and table.turn(s) == (0, "PLAY")


def test_h17_without_u16_the_same_shouts_are_refused_with_no_change(table):
    s = table.build(top="R7", hands={0: "R3 G5", 1: "Y1 Y2", 2: "B1 B2"})
    s = table.ok(s, table.play(0, "R3", uno=True))
    assert table.reason(s, "P2 CATCH 0") == "NOT_YOUR_TURN"
    assert table.reason(s, "P2 UNO") == "NOT_YOUR_TURN"
    assert table.reason(s, "P1 CATCH 0") == "NOTHING_TO_CATCH"


def test_h17_a_finished_seat_does_not_act(table):
    # H12: a seat that has finished is out of the round, shouts included.
    opts = {**U16, "play_to_last": True}
    s = table.build(top="B3", hands={0: "B7 R1 R2", 1: ""}, finished=[1], options=opts)
    assert table.acting(s) == [0, 2, 3]


def test_h17_a_state_of_rules_version_4_is_played_with_every_seat_acting(table):
    # Version 4 listed only the seat to act here (no window open); its states
    # still load: the acting seats are not checked against these rules but
    # computed by them, for the listing, the gate, the view and the answer.
    s = table.build(top="R7", hands={0: "R3 G5", 1: "Y1 Y2", 2: "B1 B2"}, options=U16)
    old = type(s)()
    old.CopyFrom(s)
    old.rules_version = 4
    old.acting_seats[:] = [0]
    api.check_state(old)
    assert table.legal(old, 2) == {"UNO", "CATCH 0", "CATCH 1", "CATCH 3"}
    view = api.get_view(service_pb2.GetViewRequest(state=old, seat=2)).view
    assert list(view.acting_seats) == [0, 1, 2, 3] and view.rules_version == 4
    answer = api.apply_move(service_pb2.ApplyMoveRequest(state=old, move=table.move(2, "CATCH 0")))
    assert answer.accepted and answer.state.rules_version == 6
    assert list(answer.state.acting_seats) == [0, 1, 2, 3]
    # This version's own states are held to the list these rules give.
    s.acting_seats[:] = [0]
    with pytest.raises(InvalidInput, match=r"must be \[0, 1, 2, 3\] in this position"):
        api.check_state(s)


def test_h17_a_jump_in_the_window_does_not_admit_is_a_misplay(table):
    # H17: "an illegal PLAY attempt (own turn or jump-in)" costs 2, the card
    # staying in the hand: after the window closed, and on one's own card
    # without H2, as much as with a card not identical (D5: no window moves).
    opts = {**U16, "jump_in": True}
    hands = {0: "G7 R1 R2", 1: "Y1 Y2", 2: "G7 B1 B2"}
    s = table.build(top="G4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "G7"), "P1 DRAW")  # P1's draw closes the window
    assert not s.uno.jump_in_open
    assert {"JUMP G7", "JUMP B1", "JUMP B2"} <= table.legal(s, 2)
    s = table.ok(s, table.jump(2, "G7"))
    (misplay,) = table.rule_events("MISPLAYED")
    assert misplay.seat == 2
    assert table.hand(s, 2) >= table.bag("G7 B1 B2") and table.size(s, 2) == 3 + 2
    assert table.top(s) == "G7" and table.turn(s) == (1, "DRAWN")
    own = table.build(top="G4", hands={0: "G7 G7 R1"}, options=opts, stock="Y9 …")
    own = table.ok(own, table.play(0, "G7"))
    assert own.uno.jump_in_open and table.turn(own) == (1, "PLAY")  # P0 is not to act...
    own = table.ok(own, "P1 DRAW")
    assert table.turn(own) == (1, "DRAWN")
    own = table.ok(own, table.jump(0, "G7"))  # ...and jumps in on his own G7 without H2
    assert table.size(own, 0) == 2 + 2


def test_h17_without_u16_a_jump_in_the_window_does_not_admit_is_refused(table):
    opts = {"jump_in": True}
    hands = {0: "G7 R1 R2", 1: "Y1 Y2", 2: "G7 B1 B2"}
    s = table.build(top="G4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "G7"), "P1 DRAW")
    assert table.reason(s, table.jump(2, "G7")) == "NOT_YOUR_TURN"


# D17 (rules version 6): "UNO!" called with a play of another card than the
# second-to-last. H17 lists "an UNO call not accompanying a penultimate play"
# among the shouts that cost 2; the call is a flag of the PLAY (§2.6).


def test_d17_a_play_called_uno_with_three_cards_lands_and_costs_two(table):
    s = table.build(top="R4", hands={0: "R5 G1 Y1", 1: "Y7 Y8"}, stock="B1 B2 …", options=U16)
    assert "R5 UNO" in table.legal(s, 0)
    s = table.ok(s, table.play(0, "R5", uno=True))
    (shout,) = table.rule_events("FALSE_CALL")
    assert shout.seat == 0
    assert table.top(s) == "R5"
    assert table.hand(s, 0) == table.bag("G1 Y1 B1 B2")
    assert not s.uno.HasField("uno_offender")  # no catch window: 4 cards left
    assert table.turn(s) == (1, "PLAY")


def test_d17_a_jump_in_called_uno_with_three_cards_lands_and_costs_two(table):
    opts = {**U16, "jump_in": True}
    hands = {0: "R5 G1 G2", 1: "Y7 Y8", 2: "R5 Y2 Y3"}
    s = table.build(top="R4", hands=hands, stock="B1 B2 …", options=opts)
    s = table.ok(s, table.play(0, "R5"))
    assert "JUMP R5 UNO" in table.legal(s, 2)
    s = table.ok(s, table.jump(2, "R5", uno=True))
    (shout,) = table.rule_events("FALSE_CALL")
    assert shout.seat == 2
    assert table.hand(s, 2) == table.bag("Y2 Y3 B1 B2")
    assert table.turn(s) == (3, "PLAY")  # play goes on from the jumper (B16)


def test_d17_the_winning_card_called_uno_wins_the_round_uncharged(table):
    s = table.build(top="R4", hands={0: "R5", 1: "Y7 Y8"}, options=U16)
    s = table.ok(s, table.play(0, "R5", uno=True))
    assert table.rule_events("FALSE_CALL") == []
    assert table.size(s, 0) == 0
    assert table.match_phase(s) in ("DEAL_OVER", "MATCH_OVER")


def test_d17_a_misplay_called_uno_costs_two_not_four(table):
    # The card stays in the hand: nothing was played for the call to go with.
    s = table.build(top="R4", hands={0: "B5 G1 Y1", 1: "Y7 Y8"}, stock="B1 B2 B3 …", options=U16)
    assert "B5 UNO" in table.legal(s, 0)
    s = table.ok(s, table.play(0, "B5", uno=True))
    assert len(table.rule_events("MISPLAYED")) == 1
    assert table.rule_events("FALSE_CALL") == []
    assert table.hand(s, 0) == table.bag("B5 G1 Y1 B1 B2")
    assert table.turn(s) == (0, "PLAY")  # his turn goes on (B33)


def test_d17_without_u16_a_play_called_uno_out_of_place_is_refused(table):
    s = table.build(top="R4", hands={0: "R5 G1 Y1", 1: "Y7 Y8"})
    assert "R5 UNO" not in table.legal(s, 0)
    assert table.reason(s, table.play(0, "R5", uno=True)) == "UNO_CALL_NOT_DUE"
