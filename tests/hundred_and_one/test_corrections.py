"""Corrections of rules version 2 (RULES.md, "Corrections in rules version 2").

Each was found by comparing the engine with an independent reading of the
rules (issue 6, item 11). One regression test per correction, at the exact
position, named after what the rules say; the behaviour before the correction
is in each test's comment.
"""

from __future__ import annotations

import random

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.games.hundred_and_one.legal import candidate_moves
from croupier.v1 import service_pb2

PLAIN_FIRST_CARD = {"first_move_any": True, "upcard_effects": False}


def turn(table, state):
    return state.current_seat, table.phase(state)


# -- 1. first_move_any with upcard_effects off: the first card is plain (O5, O6) ----


@pytest.mark.parametrize("card", ["7♥", "6♥", "K♠", "A♥", "9♥"])
def test_first_move_any_without_upcard_effects_the_dealers_first_card_is_plain(table, card):
    # CL, 2 seats, the dealer P1 leads from his full hand. Before: a 7♥ made
    # P0 draw 2 and skipped him; a 9 bound P1 to cover it; an ace skipped P0.
    s = table.build(
        "cl", 2, discard="", hands={1: f"{card} J♣ 10♣ 8♣ 8♦"}, current=1, dealer=1,
        options=PLAIN_FIRST_CARD,
    )  # fmt: skip
    p0 = table.hand(s, 0)
    s = table.ok(s, table.play(1, card))
    assert table.discard(s) == [card]
    assert table.active(s) == card[-1]
    assert turn(table, s) == (0, "PLAY")
    assert table.hand(s, 0) == p0  # nothing drawn, nobody skipped


def test_first_move_any_without_upcard_effects_a_first_queen_keeps_its_own_suit(table):
    s = table.build(
        "cl", 2, discard="", hands={1: "Q♠ J♣ 10♣ 8♣ 8♦"}, current=1, dealer=1,
        options=PLAIN_FIRST_CARD,
    )  # fmt: skip
    # The Queen's one spelling names its own suit (before: any of the four).
    assert {m for m in table.legal(s, 1) if m.startswith("PLAY Q")} == {"PLAY Q♠>♠"}
    assert table.reason(s, table.play(1, "Q♠", "♥")) == "NO_SUIT_TO_NAME"
    s = table.ok(s, table.play(1, "Q♠"))
    assert table.active(s) == "♠"
    assert turn(table, s) == (0, "PLAY")


def test_first_move_any_with_upcard_effects_the_first_card_acts_in_full(table):
    # Unchanged: with O5 on the chosen first card is the dealer's move (A24).
    s = table.build(
        "cl", 2, discard="", hands={1: "7♥ J♣ 10♣ 8♣ 8♦"}, current=1, dealer=1,
        options={"first_move_any": True}, stock="A♦ K♦ …",
    )  # fmt: skip
    p0 = table.hand(s, 0)
    s = table.ok(s, table.play(1, "7♥"))
    assert table.hand(s, 0) == p0 + table.bag("A♦ K♦")
    assert turn(table, s) == (1, "PLAY")  # P0 drew 2 and was skipped


# -- 2. a NEXT cover duty that lapses on an empty hand wins nothing (C6.3, §1.5.3) -


def test_a_lapsed_next_cover_duty_on_an_empty_hand_does_not_win_the_deal(table):
    # RU six_cover_by NEXT: P0's 6♠ binds P1, who holds no cards (he went out
    # on a forbidden card) and finds nothing to draw. Before: P1 won the deal.
    s = table.build(
        "ru", 3, discard="6♠", stock="", hands={1: ""}, current=1, phase="COVER",
        options={"six_cover_by": "NEXT"},
    )  # fmt: skip
    assert table.legal(s, 1) == {"DRAW"}
    s = table.ok(s, table.draw(1))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert turn(table, s) == (2, "PLAY")
    assert table.hand_size(s, 1) == 0  # still in the deal with no cards


def test_a_lapsed_self_cover_duty_on_an_empty_hand_still_wins_the_deal(table):
    # Unchanged: C6.3 is the self-cover of the seat that played its last card.
    s = table.build("ru", 3, discard="6♠", stock="", hands={0: ""}, phase="COVER")
    s = table.ok(s, table.draw(0))
    assert table.match_phase(s) in ("DEAL_OVER", "MATCH_OVER")
    assert table.deal_winners(s) == [0]


# -- 3. transfer_6_7 in every version (O11, §1.3.4) ----------------------------------


@pytest.mark.parametrize("preset", ["cl", "ru", "alt"])
def test_transfer_6_7_is_available_outside_hd(table, preset):
    # Before: NewGame refused the option outside effects HD.
    state = table.new(preset, 3, {"transfer_6_7": True})
    assert state.options.hundred_and_one.transfer_6_7


def test_cl_with_transfer_a_six_is_passed_on_with_a_six(table):
    options = {"transfer_6_7": True}
    s = table.build("cl", 3, top="10♥", hands={0: "6♥ …", 1: "6♣ J♠"}, options=options)
    s = table.ok(s, table.play(0, "6♥"))
    assert turn(table, s) == (1, "RESPOND")
    assert s.hundred_and_one.pending_draw == 1
    assert table.legal(s, 1) == {"PLAY 6♣", "ACCEPT"}
    s = table.ok(s, table.play(1, "6♣"))
    assert turn(table, s) == (2, "RESPOND")
    assert s.hundred_and_one.pending_draw == 1


def test_ru_with_transfer_only_a_seven_passes_a_seven_on(table):
    # RU sixes are cover cards, not draw cards: they pass nothing on.
    options = {"transfer_6_7": True}
    s = table.build("ru", 3, top="10♥", hands={0: "7♥ …", 1: "7♣ 6♥ J♠"}, options=options)
    s = table.ok(s, table.play(0, "7♥"))
    assert turn(table, s) == (1, "RESPOND")
    assert s.hundred_and_one.pending_draw == 2
    assert table.legal(s, 1) == {"PLAY 7♣", "ACCEPT"}
    assert table.reason(s, table.play(1, "6♥")) == "MUST_RESPOND_TO_PENALTY"
    s = table.ok(s, table.play(1, "7♣"))
    assert turn(table, s) == (2, "RESPOND")
    assert s.hundred_and_one.pending_draw == 2


def test_ru_with_transfer_a_six_is_still_covered(table):
    options = {"transfer_6_7": True}
    s = table.build("ru", 3, top="10♥", hands={0: "6♥ 9♥ J♠"}, options=options)
    s = table.ok(s, table.play(0, "6♥"))
    assert turn(table, s) == (0, "COVER")


def test_alt_with_transfer_the_seven_of_spades_passes_on_its_four(table):
    options = {"transfer_6_7": True, "transfer_accumulates": True}
    s = table.build("alt", 3, top="10♠", hands={0: "7♠ …", 1: "7♦ J♣"}, options=options)
    s = table.ok(s, table.play(0, "7♠"))
    assert s.hundred_and_one.pending_draw == 4  # seven_spades_draw in ALT
    p2, stock = table.hand(s, 2), table.stock(s)
    s = table.ok(s, table.play(1, "7♦"))
    assert s.hundred_and_one.pending_draw == 6  # accumulated: 4 + 2
    s = table.ok(s, table.accept(2))
    assert table.hand(s, 2) == p2 + table.bag(" ".join(stock[:6]))
    assert turn(table, s) == (0, "PLAY")


def test_ru_respond_phase_on_a_six_is_refused_as_malformed(table):
    # A RESPOND phase needs a card that passes on; an RU six does not.
    s = table.build(
        "ru", 3, top="6♥", hands={1: "J♠ …"}, current=1, phase="RESPOND", pending=1,
        options={"transfer_6_7": True},
    )  # fmt: skip
    with pytest.raises(InvalidInput) as caught:
        api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=s, seat=1))
    assert caught.value.violations[0][0] == "state.hundred_and_one.phase"


# -- 4. FIRST_BUST_ENDS with ELIMINATE_BELOW (O23, O24) --------------------------------


def test_first_bust_ends_with_eliminate_below_a_total_below_minus_101_ends_the_match(table):
    # Decision (RULES.md): going below -101 under ELIMINATE_BELOW is leaving
    # the match like going above 101, so under FIRST_BUST_ENDS it ends the
    # match; the lowest total among the seats still in wins.
    options = {"negative_limit": "ELIMINATE_BELOW"}
    s = table.build(
        "cl", 3, top="10♠", hands={0: "Q♠", 1: "J♣", 2: "K♦"}, scores=[-90, 30, 20],
        options=options,
    )  # fmt: skip
    s = table.ok(s, table.play(0, "Q♠"))
    assert table.deal_points(s) == [-40, 2, 4]
    assert table.scores(s) == [-130, 32, 24]
    assert table.eliminated(s) == [True, False, False]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [2]


# -- the checker and the generator agree under the corrected options ------------------


CORRECTED_TABLES = [
    ("cl", {"first_move_any": True, "upcard_effects": False}),
    ("ru", {"first_move_any": True, "upcard_effects": False, "six_cover_by": "NEXT"}),
    ("cl", {"transfer_6_7": True, "transfer_accumulates": True}),
    ("ru", {"transfer_6_7": True}),
    ("alt", {"transfer_6_7": True, "transfer_accumulates": True}),
    ("cl", {"negative_limit": "ELIMINATE_BELOW"}),
]


@pytest.mark.parametrize(("preset", "options"), CORRECTED_TABLES)
def test_check_agrees_with_generation_under_the_corrected_options(table, preset, options):
    # Every candidate move of the seat to act is accepted exactly when listed,
    # along a seeded random match (the conformance suite does this per preset).
    choose = random.Random(11)
    state = table.new(preset, 3, options, seed=11)
    for _ in range(300):
        if table.match_phase(state) == "MATCH_OVER":
            break
        if table.match_phase(state) == "DEAL_OVER":
            state = table.next_deal(state)
        seat = state.current_seat
        listed = table.legal(state, seat)
        accepted = {}
        for move in candidate_moves(state, seat):
            answer = table.apply(state, move)
            if answer.accepted:
                accepted[table.move_text(move)] = answer.state
        assert set(accepted) == listed
        state = accepted[choose.choice(sorted(accepted))]
