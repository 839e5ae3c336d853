"""DefaultMove (RULES.md "Default move", D14): the move an acting seat is
deemed to make, pinned case by case with a concrete position and the exact
move. Never a move the rules penalise (U16's misplays, false calls and
catches), never a REPORT; a deemed play of the second-to-last card calls
"UNO!"; a seat that owes nothing may have no default (FAILED_PRECONDITION)."""

from __future__ import annotations

import pytest

from croupier.engine.errors import FailedPrecondition
from croupier.games.uno import GAME

U16 = {"misplay_penalty": True}


# -- the seat to act ---------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, U16], ids=["plain", "u16"])
def test_u8_off_the_default_is_the_first_legal_card_never_a_misplay(table, options):
    # U16 lists every card of the hand; R5 (listed first) would be a misplay.
    s = table.build(top="G2", hands={0: "R5 G7 Y9"}, options={"voluntary_draw": False, **options})
    if options:
        assert {"R5", "Y9"} <= table.legal(s, 0)
    assert table.default(s, 0) == "G7"


def test_u16_u8_off_applying_the_default_makes_progress(table):
    # The misplay default stayed P0's turn, drawing 2 each time.
    s = table.build(top="G2", hands={0: "R5 G7 Y9"}, options={"voluntary_draw": False, **U16})
    s = table.ok(s, table.move(0, table.default(s, 0)))
    assert table.hand(s, 0) == table.bag("R5 Y9") and table.turn(s) == (1, "PLAY")


def test_u16_u8_off_a_black_card_names_red(table):
    s = table.build(top="G2", hands={0: "R5 W Y9"}, options={"voluntary_draw": False, **U16})
    assert table.default(s, 0) == "W>R"


@pytest.mark.parametrize("options", [{}, U16], ids=["plain", "u16"])
def test_u9_must_the_default_is_the_drawn_card(table, options):
    opts = {"play_drawn": "MUST", **options}
    s = table.build(top="G2", hands={0: "R5 Y7"}, stock="G5 …", options=opts)
    s = table.ok(s, "P0 DRAW")
    assert table.default(s, 0) == "G5"


def test_u16_respond_the_default_is_accept_not_a_misplayed_answer(table):
    s = table.build(top="R4", hands={0: "R+2 …", 1: "B5 Y1"}, options=U16)
    s = table.ok(s, table.play(0, "R+2"))
    assert table.turn(s) == (1, "RESPOND") and "B5" in table.legal(s, 1)
    assert table.default(s, 1) == "ACCEPT"


# -- the second-to-last card calls "UNO!" --------------------------------------------------------


@pytest.mark.parametrize("options", [{}, U16], ids=["plain", "u16"])
def test_r8_a_deemed_play_of_the_second_to_last_card_calls_uno(table, options):
    s = table.build(top="G2", hands={0: "G7 R5"}, options={"voluntary_draw": False, **options})
    assert table.default(s, 0) == "G7 UNO"
    s = table.ok(s, table.move(0, "G7 UNO"))
    assert not s.uno.HasField("uno_offender")  # nobody may catch P0


def test_r8_a_deemed_drawn_card_that_leaves_one_card_calls_uno(table):
    s = table.build(top="G2", hands={0: "R5"}, stock="G5 …", options={"play_drawn": "MUST"})
    s = table.ok(s, "P0 DRAW")
    assert table.default(s, 0) == "G5 UNO"


def test_r8_h3_a_deemed_seven_calls_uno_and_names_the_first_seat(table):
    opts = {"voluntary_draw": False, "seven_zero": True}
    s = table.build(top="G2", hands={0: "G7 R5"}, options=opts)
    assert table.default(s, 0) == "G7 UNO SWAP 1"


def test_r8_h1_a_deemed_jump_in_of_the_second_to_last_card_calls_uno(table):
    s = table.build(top="G4", hands={0: "G7 Y1 Y2", 2: "G7 Y3"}, options={"jump_in": True})
    s = table.ok(s, table.play(0, "G7"))
    assert table.default(s, 2) == "JUMP G7 UNO"


# -- seats that owe nothing (D14) ------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, U16], ids=["plain", "u16"])
def test_h1_a_seat_without_the_identical_card_has_no_default(table, options):
    # Under U16 it lists JUMP Y3 and JUMP B4 (misplays costing 2 cards).
    s = table.build(
        top="G4", hands={0: "G7 Y1 Y2", 2: "Y3 B4"}, options={"jump_in": True, **options}
    )
    s = table.ok(s, table.play(0, "G7"))
    assert 2 in table.acting(s)
    assert ("JUMP Y3" in table.legal(s, 2)) == bool(options)
    with pytest.raises(FailedPrecondition):
        table.default(s, 2)
    assert not GAME.owes_move(s, 2) and GAME.owes_move(s, 1)


@pytest.mark.parametrize("options", [{}, U16], ids=["plain", "u16"])
def test_r8_a_catcher_s_default_is_the_catch_never_a_false_call(table, options):
    # P0 plays his second-to-last card without "UNO!". Under U16, P2's first
    # listed move is a false "UNO" (2 cards).
    s = table.build(top="R4", hands={0: "R5 Y1", 1: "Y3 Y4"}, options=options)
    s = table.ok(s, table.play(0, "R5"))
    assert table.default(s, 2) == "CATCH 0"
    after = table.ok(s, table.move(2, "CATCH 0"))
    assert table.size(after, 2) == table.size(s, 2) and table.size(after, 0) == 1 + 2


def test_u10_until_caught_the_offender_calls_and_the_others_catch(table):
    s = table.build("mattel", top="R4", hands={0: "R5 Y1", 1: "Y3 Y4"})
    s = table.ok(s, table.play(0, "R5"))
    assert table.default(s, 0) == "UNO"
    assert table.default(s, 2) == "CATCH 0"
    assert table.default(s, 1) == "DRAW"


def test_c_uno_11_under_u16_during_play_the_offender_has_no_default(table):
    # U16 lets the offender act, but his late call is false (C-UNO-11), and
    # so is every catch he could make: no default.
    s = table.build(top="R4", hands={0: "R5 Y1", 1: "Y3 Y4"}, options=U16)
    s = table.ok(s, table.play(0, "R5"))
    assert 0 in table.acting(s) and "UNO" in table.legal(s, 0)
    with pytest.raises(FailedPrecondition):
        table.default(s, 0)
    mattel = table.build("mattel", top="R4", hands={0: "R5 Y1", 1: "Y3 Y4"}, options=U16)
    mattel = table.ok(mattel, table.play(0, "R5"))
    assert table.default(mattel, 0) == "UNO"  # UNTIL_CAUGHT: his call protects him


def test_u16_a_seat_with_only_reports_and_false_calls_and_catches_has_no_default(table):
    # TWOS silence lets P3 act; under U16 it lists "UNO" and every CATCH
    # (all false: 2 cards each) beside its REPORTs.
    s = table.build(top="R4", hands={0: "R2 Y1 Y2"}, options={"silent_trigger": "TWOS", **U16})
    s = table.ok(s, table.play(0, "R2"))
    assert {"UNO", "CATCH 0", "REPORT 0"} <= table.legal(s, 3)
    with pytest.raises(FailedPrecondition):
        table.default(s, 3)


def test_h5_a_report_is_never_a_default(table):
    # TWOS silence: P3 may only REPORT (another seat then draws 2): no default.
    s = table.build(top="R4", hands={0: "R2 Y1 Y2"}, options={"silent_trigger": "TWOS"})
    s = table.ok(s, table.play(0, "R2"))
    assert table.legal(s, 3) == {"REPORT 0", "REPORT 1", "REPORT 2"}
    with pytest.raises(FailedPrecondition):
        table.default(s, 3)
    assert table.default(s, 1) == "DRAW"  # the seat to act


def test_h5_a_due_catch_comes_before_any_report(table):
    s = table.build(top="R4", hands={0: "R2 Y1"}, options={"silent_trigger": "TWOS"})
    s = table.ok(s, table.play(0, "R2"))
    assert "REPORT 0" in table.legal(s, 3)
    assert table.default(s, 3) == "CATCH 0"
