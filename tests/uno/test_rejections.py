"""Every UNO rejection reason reached by a move in a hand-built position, with
the rule it cites; the notation of every kind of move reads back as itself;
the views say what each seat may see."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.games.uno import GAME
from croupier.games.uno.notation import notation, parse_notation
from croupier.v1 import service_pb2
from croupier.v1 import uno_pb2 as pb


def rejection(table, state, move):
    response = table.apply(state, table.move(move[0], move[1]) if isinstance(move, tuple) else move)
    assert not response.accepted
    name = api.rejection_name(response.rejection)
    return name.removeprefix("UNO_").removeprefix("REJECTION_REASON_"), (response.rejection.rule)


def test_turn_rejections(table):
    s = table.build(top="G2", hands={0: "R5 G7 W", 1: "G1 Y1", 2: "G2 Y2"})
    assert rejection(table, s, table.play(0, "R5")) == ("MUST_MATCH_COLOUR_OR_SYMBOL", "R3")
    assert rejection(table, s, table.play(0, "W")) == ("COLOUR_CHOICE_INVALID", "R6")
    assert rejection(table, s, table.play(0, "G7", uno=True)) == ("UNO_CALL_NOT_DUE", "R8")
    assert rejection(table, s, (0, "PASS")) == ("MUST_DRAW_BEFORE_PASSING", "R4")
    assert rejection(table, s, (0, "ACCEPT")) == ("NOTHING_TO_ACCEPT", "R6")
    assert rejection(table, s, (0, "CHALLENGE")) == ("NOTHING_TO_CHALLENGE", "R7")
    assert rejection(table, s, (0, "UNO")) == ("UNO_CALL_NOT_DUE", "R8")
    assert rejection(table, s, (0, "CATCH 1")) == ("NOTHING_TO_CATCH", "R8")
    assert rejection(table, s, (0, "CATCH 0")) == ("NOTHING_TO_CATCH", "R8")
    assert rejection(table, s, (0, "SLAP")) == ("SLAP_NOT_DUE", "H8")
    assert rejection(table, s, (0, "TIME")) == ("SLAP_NOT_DUE", "H8")
    assert rejection(table, s, (0, "REPORT 1")) == ("NO_SILENCE", "H5")
    assert rejection(table, s, (0, "GIVE G7")) == ("NOT_DUE_NOW", "H6")
    assert rejection(table, s, (0, "COLOUR G")) == ("NOT_DUE_NOW", "U1a")
    assert rejection(table, s, (0, "READY")) == ("NOT_DUE_NOW", "H16")
    assert rejection(table, s, table.jump(0, "G7")) == ("JUMP_IN_NOT_ALLOWED", "H1")
    assert rejection(table, s, table.play(0, "G1")) == ("CARD_NOT_IN_HAND", "R4")
    drawn = table.ok(s, "P0 DRAW")
    assert rejection(table, drawn, (0, "DRAW")) == ("ALREADY_DRAWN", "R4")
    off = table.build(top="G2", hands={0: "R5 G7"}, options={"voluntary_draw": False})
    assert rejection(table, off, (0, "DRAW")) == ("MUST_PLAY_A_LEGAL_CARD", "U8")
    h9 = table.build(top="G2", hands={0: "W G7"}, options={"colour_rotation": True})
    assert rejection(table, h9, table.play(0, "W", "R")) == ("COLOUR_CHOICE_INVALID", "H9")


def test_pending_rejections(table):
    s = table.ok(table.build(top="R4", hands={0: "R+2 …", 1: "R5 B+2 Y1"}), table.play(0, "R+2"))
    assert rejection(table, s, table.play(1, "R5")) == ("NOT_A_PERMITTED_ANSWER", "R6")
    assert rejection(table, s, (1, "DRAW")) == ("MUST_ANSWER_PENDING_EFFECT", "R6")
    assert rejection(table, s, (1, "PASS")) == ("MUST_ANSWER_PENDING_EFFECT", "R6")
    assert rejection(table, s, (1, "CHALLENGE")) == ("NOTHING_TO_CHALLENGE", "R7")


def test_jump_in_rejections(table):
    opts = {"jump_in": True}
    s = table.ok(table.build(top="G4", hands={0: "G7 …", 2: "G8 G9 Y1"}, options=opts),
                 table.play(0, "G7"))  # fmt: skip
    assert rejection(table, s, table.jump(2, "G8")) == ("JUMP_IN_NOT_IDENTICAL", "H1")
    assert rejection(table, s, table.jump(3, "G7")) == ("CARD_NOT_IN_HAND", "H1")
    assert rejection(table, s, table.jump(1, "G7")) == ("JUMP_IN_NOT_ALLOWED", "H1")  # P1's turn
    assert rejection(table, s, table.play(2, "G8")) == ("OUT_OF_TURN", "R4")
    assert rejection(table, s, (2, "DRAW")) == ("OUT_OF_TURN", "R4")
    turn = table.build(top="G4", hands={0: "G4 …"}, top_player=3, jump_in_open=True, options=opts)
    assert rejection(table, turn, table.jump(0, "G4")) == ("JUMP_IN_NOT_ALLOWED", "H1")


def test_choice_and_strict_rejections(table):
    strict = table.build(top="R4", hands={0: "W+4 R1"}, options={"wd4_enforcement": "STRICT"})
    assert rejection(table, strict, table.play(0, "W+4", "G")) == (
        "WILD_DRAW_FOUR_WITH_CURRENT_COLOUR",
        "U7",
    )
    seven = table.build(top="R4", hands={0: "R7 Y1 Y2"}, options={"seven_zero": True})
    assert rejection(table, seven, table.play(0, "R7", swap=0)) == ("SWAP_CHOICE_INVALID", "H3")
    five = table.build(top="R4", hands={0: "R5 Y1"}, options={"swap_on_five": True})
    assert rejection(table, five, table.play(0, "R5", swap=1, give="G9")) == (
        "SWAP_CHOICE_INVALID",
        "H6",
    )
    plain = table.build(top="R4", hands={0: "R5 Y1"})
    assert rejection(table, plain, table.play(0, "R5", swap=1, give="Y1")) == (
        "SWAP_CHOICE_INVALID",
        "H6",
    )
    must = table.build(top="G2", hands={0: "R5 Y7"}, stock="G5 …", options={"play_drawn": "MUST"})
    assert rejection(table, table.ok(must, "P0 DRAW"), (0, "PASS")) == (
        "MUST_PLAY_DRAWN_CARD",
        "U9",
    )


def test_overlay_rejections(table):
    s = table.ok(
        table.build(top="R3", hands={0: "R5 G2 Y1"}, options={"swap_on_five": True}),
        table.play(0, "R5", swap=3, give="G2"),
    )
    assert rejection(table, s, (3, "DRAW")) == ("MUST_GIVE_A_CARD", "H6")
    s = table.ok(
        table.build(top="R4", hands={0: "W+4 Y1 Y2"}, options={"politeness_ready": True}),
        table.play(0, "W+4", "G"),
        "P1 ACCEPT",
    )
    assert rejection(table, s, (1, "DRAW")) == ("MUST_SAY_READY", "H16")
    s = table.ok(
        table.build(top="R4", hands={0: "R5 G1"}, options={"uno_in_centre": True}),
        table.play(0, "R5", uno=True),
    )
    assert rejection(table, s, (1, "DRAW")) == ("SLAP_WINDOW_OPEN", "H8")
    assert rejection(table, s, (0, "SLAP")) == ("SLAP_NOT_DUE", "H8")
    assert rejection(table, s, (1, "TIME")) == ("SLAP_NOT_DUE", "H8")


def test_a_wild_first_card_is_named_first(table):
    for seed in range(3000):
        state = table.new("mattel", 4, {"dealer_selection": "RANDOM"}, seed)
        if state.uno.phase == pb.UNO_PHASE_NAME_COLOUR:
            break
    first = state.current_seat
    assert rejection(table, state, (first, "DRAW")) == ("MUST_NAME_COLOUR", "U1a")
    card = next(c for c in state.uno.hands[first].cards)
    move = table.move(first, "DRAW")
    move.uno.play.card = card
    assert rejection(table, state, move)[0] == "MUST_NAME_COLOUR"


TEXTS = ["R7", "W>G", "W+4>B", "B3 UNO", "G7 SWAP 2", "R5 SWAP 3 G2", "R5 UNO SWAP 1 Y9",
         "JUMP R7", "JUMP W>R", "DRAW", "PASS", "ACCEPT", "CHALLENGE", "UNO", "CATCH 2", "SLAP",
         "TIME", "REPORT 1", "GIVE G2", "COLOUR G", "READY", "X+10>Y", "W"]  # fmt: skip


@pytest.mark.parametrize("text", TEXTS)
def test_every_move_has_one_text_that_reads_back(text):
    move = parse_notation(text, 3)
    assert notation(move) == text
    GAME.check_move_shape(move)


@pytest.mark.parametrize("text", ["", "R7 SWAP", "R7 UNO X", "PLAY", "W>Q", "GIVE", "CATCH"])
def test_a_text_that_is_no_move_is_refused(text):
    with pytest.raises(ValueError):
        parse_notation(text, 0)


def test_views_show_each_seat_what_it_may_see(table):
    s = table.build(top="R9", hands={0: "G5 B1 W+4", 1: "Y1 Y2"}, options={"seven_rounds": True},
                    stages=[7, 7, 7, 7])  # fmt: skip
    s = table.ok(s, table.play(0, "W+4", "G"))
    view = table.view(s, 1)
    assert list(view.uno.hand) == list(s.uno.hands[1].cards)
    assert list(view.uno.hand_sizes) == [2, 2, 5, 5]
    assert view.uno.pending_kind == pb.UNO_PENDING_KIND_WILD_DRAW_FOUR
    text = GAME.view_text(view)
    assert text.startswith("hand Y1 Y2, top W+4, colour G") and "pending wild_draw_four 4" in text
    assert "challengeable" in text and "stages 7/7/7/7" in text
    s = table.ok(s, "P1 CHALLENGE")
    assert "saw P0: G5 B1" in GAME.view_text(table.view(s, 1))
    assert "saw" not in GAME.view_text(table.view(s, 2))
    request = service_pb2.GetViewRequest(state=s, seat=3)
    assert not api.get_view(request).view.uno.drawn_card


def test_h6_the_last_card_five_offers_no_exchange(table):
    five = table.build(top="R4", hands={0: "R5"}, options={"swap_on_five": True})
    answer = table.apply(five, table.play(0, "R5", swap=1, give="G9"))
    assert not answer.accepted
    assert answer.rejection.message == "the 5 is the last card: no exchange (H6)"


def test_a_wrong_answer_to_a_pending_effect_says_every_way_out(table):
    # §2.4 (SEED): a Wild Draw Four naming green is answered by the green +2,
    # accepted, or challenged; R+2 is none of them.
    s = table.ok(table.build(top="R4", hands={0: "W+4 …", 1: "R+2 G+2 Y1"}),
                 table.play(0, "W+4", "G"))  # fmt: skip
    answer = table.apply(s, table.play(1, "R+2"))
    assert (answer.rejection.message, answer.rejection.rule) == (
        "R+2 does not answer the pending effect: answer with G+2, accept it or challenge",
        "R6",
    )
    mattel = table.ok(table.build("mattel", top="R4", hands={0: "R+2 …", 1: "B+2 Y1"}),
                      table.play(0, "R+2"))  # fmt: skip
    assert mattel.uno.phase != pb.UNO_PHASE_RESPOND  # MATTEL: drawn at once, nothing to answer
