"""The fourth spec audit of UNO (shared/rules/shedding.md §0.5, §2): option
pairs that §2.12 does not name, played in a position where both rules act,
and edge positions — a last card that is an action card or a stacked Wild
Draw Four, draws from an exhausted pile, ten seats, the first card under the
house rules that would answer it.

This audit confirmed no divergence from the rules in these positions; each
test pins the result the rules give, so that a change that breaks one of
these interactions is caught. The points it left open (readings RULES.md
documents) are listed in the audit's report.

Conventions of §2.14 (conftest.py): P0..P3 clockwise, d = +1, P0 to act, the
dealer P3, the SEED profile, house rules off unless listed.
"""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.uno_cards import KIND_OF, Kind
from croupier.v1 import service_pb2
from croupier.v1 import uno_pb2 as pb

from .conftest import settings

# -- H1 + H4 + R8: a jumped-in draw card in a stack, and the catch window ---------------


def test_h1_h4_r8_a_jumped_in_draw_two_adds_up_and_its_missed_call_is_caught_until_the_next_play(
    table,
):
    # H1: a jumped-in +2 makes next(jumper) answer the previous total + 2 (B16,
    # H4); it needs its own "UNO!" (H1), and the catch window closes at the
    # next play (C-UNO-4) — here the stacked answer of P3.
    opts = {"jump_in": True, "stacking": True}
    hands = {0: "R+2 G1", 1: "Y1 Y2 Y3", 2: "R+2 B5", 3: "B+2 Y4 Y6"}
    s = table.build(top="R4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "R+2", uno=True), table.jump(2, "R+2"))
    assert table.turn(s) == (3, "RESPOND") and table.pending(s) == ("DRAW_TWO", 4)
    assert s.uno.uno_offender == 2 and table.legal(s, 1) == {"CATCH 2"}  # P1 was jumped over
    caught = table.ok(s, "P1 CATCH 2")
    assert table.size(caught, 2) == 1 + 2 and table.pending(caught) == ("DRAW_TWO", 4)
    s = table.ok(s, table.play(3, "B+2"))
    assert not s.uno.HasField("uno_offender")
    assert table.turn(s) == (0, "RESPOND") and table.pending(s) == ("DRAW_TWO", 6)
    s = table.ok(s, "P0 ACCEPT")
    assert table.size(s, 0) == 1 + 6 and table.turn(s) == (1, "PLAY")


# -- §2.9 + H4 + R7 + U13: two players, a last Wild Draw Four stacked on a bluff ---------


def test_2_9_h4_a_last_wild_draw_four_stacked_on_a_bluff_is_challenged_in_vain(table):
    # P0's W+4 is a bluff (he holds R1 on R4), but P1 answers it with his last
    # card, a W+4 (H4: 8). Only the latest W+4 may be challenged (H4); a last
    # card is always innocent (§2.5), so P0 draws T + 2 = 10, counted (§2.8).
    hands = {0: "W+4 R1", 1: "W+4"}
    stock = "G1 G2 G3 G4 G5 G6 G7 G8 G9 G1 …"
    s = table.build(seats=2, top="R4", hands=hands, stock=stock, options={"stacking": True})
    s = table.ok(s, table.play(0, "W+4", "B", uno=True))
    assert table.legal(s, 1) >= {"ACCEPT", "CHALLENGE", "W+4>G"}
    s = table.ok(s, table.play(1, "W+4", "G"))
    assert table.turn(s) == (0, "RESPOND") and table.pending(s) == ("WILD_DRAW_FOUR", 8)
    assert table.legal(s, 0) == {"ACCEPT", "CHALLENGE"}  # no answer to a last card
    s = table.ok(s, "P0 CHALLENGE")
    assert table.rule_events("CHALLENGED")[0].uno.guilty is False
    assert table.hand(s, 0) == table.bag("R1 G1 G1 G2 G3 G4 G5 G6 G7 G8 G9")
    assert table.deal_points(s) == [0, 1 + 1 + 1 + sum(range(2, 10))]
    assert table.match_phase(s) == "DEAL_OVER"


# -- H10 + H4 + U13: a last "+10" stacked on a "+10" --------------------------------------


def test_h10_h4_u13_a_last_plus_ten_on_a_plus_ten_draws_twenty(table):
    opts = {"plus_ten": True, "stacking": True}
    hands = {0: "X+10", 1: "G5 G6", 2: "Y1", 3: "Y3"}
    s = table.build(top="X+10", colour="G", hands=hands, phase="RESPOND",
                    pending=("PLUS_TEN", 10), top_player=3, options=opts)  # fmt: skip
    s = table.ok(s, table.play(0, "X+10", "R"))
    assert table.match_phase(s) == "DEAL_OVER" and table.size(s, 1) == 2 + 20
    assert table.deal_points(s)[0] == sum(table.deal_points(s)) > 0


# -- H4 stack_mixed + U7 STRICT ---------------------------------------------------------------


def test_h4_stack_mixed_strict_a_wild_draw_four_on_a_draw_two_needs_no_card_of_its_colour(table):
    # H4: the 2.5 condition applies to a stacked W+4; on a +2 (stack_mixed) the
    # current colour is the +2's. STRICT refuses it while P0 holds R1.
    opts = {"stack_mixed": True, "wd4_enforcement": "STRICT"}
    s = table.build(top="R+2", hands={0: "W+4 R1 G3"}, phase="RESPOND",
                    pending=("DRAW_TWO", 2), top_player=3, options=opts)  # fmt: skip
    assert table.reason(s, table.play(0, "W+4", "B")) == "WILD_DRAW_FOUR_WITH_CURRENT_COLOUR"
    assert table.legal(s, 0) == {"ACCEPT"}
    s = table.build(top="R+2", hands={0: "W+4 G3"}, phase="RESPOND",
                    pending=("DRAW_TWO", 2), top_player=3, options=opts)  # fmt: skip
    s = table.ok(s, table.play(0, "W+4", "B"))
    assert table.turn(s) == (1, "RESPOND") and table.pending(s) == ("WILD_DRAW_FOUR", 6)
    assert "CHALLENGE" not in table.legal(s, 1)  # STRICT: challenges are off (C-UNO-6)


# -- H1 + H6: a jumped-in 5 ---------------------------------------------------------------------


def test_h1_h6_a_jumped_in_five_offers_the_jumper_s_exchange(table):
    # §2.12 "H1 + H3/H6: jump-in 0/7/5 triggers the house effect for the jumper".
    opts = {"jump_in": True, "swap_on_five": True}
    hands = {0: "R5 G1", 1: "Y1 Y2", 2: "R5 B3 B4", 3: "Y3"}
    s = table.build(top="R4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "R5", uno=True))
    assert "JUMP R5 SWAP 0 B3" in table.legal(s, 2)
    s = table.ok(s, table.jump(2, "R5", swap=0, give="B3"))
    assert table.acting(s) == [0]  # the exchange waits for P0's card (H6)
    s = table.ok(s, "P0 GIVE G1")
    assert table.hand(s, 0) == table.bag("B3") and table.hand(s, 2) == table.bag("B4 G1")
    assert table.turn(s) == (3, "PLAY")  # play goes on from the jumper; P1 was jumped over


# -- H11 with four players: a Skip bounced back -------------------------------------------------


def test_h11_a_skip_bounced_back_skips_its_player_and_play_goes_on_reversed(table):
    # H11: "A Skip bounced back skips the player who played the Skip"; the
    # direction stays flipped, so P3 plays next.
    hands = {0: "RSkip RRev G1", 1: "RRev Y2", 2: "B3 B4", 3: "Y3"}
    s = table.build(top="R4", hands=hands, options={"reverse_bounce": True})
    s = table.ok(s, table.play(0, "RSkip"))
    assert table.turn(s) == (1, "RESPOND") and table.pending(s) == ("SKIP", 0)
    s = table.ok(s, table.play(1, "RRev", uno=True))
    assert table.turn(s) == (0, "RESPOND") and table.direction(s) == -1
    assert table.legal(s, 0) == {"ACCEPT", "RRev", "RRev UNO"}
    s = table.ok(s, "P0 ACCEPT")
    assert table.turn(s) == (3, "PLAY") and table.size(s, 0) == 2


# -- §0.5 / R9: an exhausted pile with only the top card ----------------------------------------


def test_0_5_a_draw_on_an_empty_stock_with_only_the_top_discarded_is_forfeited(table):
    # RESTOCK finds nothing to shuffle (the top stays): the draw is forfeited
    # (B29) and the turn passes (R4).
    s = table.build(discard="R4", hands={0: "G5 G6", 1: "Y1 Y2"}, stock="")
    s = table.ok(s, "P0 DRAW")
    assert table.size(s, 0) == 2 and table.turn(s) == (1, "PLAY")
    s = table.build(discard="R+2", hands={0: "G5 G6", 1: "Y1 Y2"}, stock="Y9",
                    phase="RESPOND", pending=("DRAW_TWO", 2), top_player=3)  # fmt: skip
    s = table.ok(s, "P0 ACCEPT")
    assert table.hand(s, 0) == table.bag("G5 G6 Y9")  # the second card is forfeited
    assert table.turn(s) == (1, "PLAY") and table.discard(s) == ["R+2"]


# -- U12 off: two players, a Reverse that only flips ---------------------------------------------


def test_u12_off_two_players_a_reverse_hands_the_turn_to_the_opponent(table):
    opts = {"two_player_reverse_is_skip": False}
    s = table.build(seats=2, top="R4", hands={0: "RRev G1 G2", 1: "Y1 Y2"}, options=opts)
    s = table.ok(s, table.play(0, "RRev"))
    assert table.turn(s) == (1, "PLAY") and table.direction(s) == -1


# -- §2.2 at ten seats: the first card under MATTEL with answering house rules ---------------------


ANSWERING = {"jump_in": True, "stacking": True, "reverse_bounce": True}


@pytest.mark.parametrize("options", [{}, ANSWERING])
def test_2_2_ten_seats_mattel_first_cards_act_without_answer(options):
    # §2.2.3: Skip / +2 — the dealer's left is skipped (+2: draws 2 first), no
    # answer possible even where H1, H4 or H11 would give one later; Reverse —
    # the dealer plays, counter-clockwise (U2 DEALER_FIRST); Wild — the dealer's
    # left names the colour (U1a). Seed: a number card always starts.
    seen = set()
    for seed in range(60):
        for preset in ("seed", "mattel"):
            request = service_pb2.NewGameRequest(
                game="uno", preset=preset, seat_count=10, seed=seed, options=settings(options)
            )
            state = api.new_game(request).state
            deal = state.uno
            dealer, first, top = deal.dealer, (deal.dealer + 1) % 10, deal.discard[-1]
            kind = _kind(top)
            seen.add((preset, kind))
            sizes = [len(h.cards) for h in deal.hands]
            assert deal.pending_kind == 0
            if preset == "seed":
                assert kind == "number" and state.current_seat == first
            elif kind in ("skip", "draw_two"):
                assert state.current_seat == (first + 1) % 10
                assert sizes[first] == (9 if kind == "draw_two" else 7)
            elif kind == "reverse":
                assert state.current_seat == dealer and deal.reversed
            elif kind == "wild":
                assert state.current_seat == first and deal.phase == pb.UNO_PHASE_NAME_COLOUR
            else:
                assert kind == "number" and state.current_seat == first
    assert ("mattel", "number") in seen and ("seed", "number") in seen


def _kind(card: int) -> str:
    return {
        Kind.NUMBER: "number",
        Kind.SKIP: "skip",
        Kind.REVERSE: "reverse",
        Kind.DRAW_TWO: "draw_two",
        Kind.WILD: "wild",
    }.get(KIND_OF[card], "other")


# -- U9 MUST × R7: a drawn Wild Draw Four that would be a bluff is not owed ---------------


@pytest.mark.parametrize(
    ("hand", "owed"),
    [("R1 G2", False), ("G2 B3", True)],
    ids=["bluff-not-owed", "fair-owed"],
)
def test_u9_must_a_drawn_wild_draw_four_is_owed_only_when_rule_7_allows_it(table, hand, owed):
    # §2.3.2 item 2: "if the drawn card is legal (W+4: see 2.5)". Holding R1
    # on red, the drawn W+4 fails §2.5's condition: under CHALLENGE_ONLY it
    # may still be played (a bluff), but U9 MUST does not oblige it, so PASS
    # stays open (it was refused MUST_PLAY_DRAWN_CARD). Holding no red, it is
    # legal and owed.
    s = table.build(top="R4", hands={0: hand}, stock="W+4 …", options={"play_drawn": "MUST"})
    s = table.ok(s, "P0 DRAW")
    legal = table.legal(s, 0)
    assert ("PASS" in legal) == (not owed)
    assert any(move.startswith("W+4") for move in legal)
    if owed:
        assert table.reason(s, "P0 PASS") == "MUST_PLAY_DRAWN_CARD"
        assert table.default(s, 0).startswith("W+4")
    else:
        passed = table.ok(s, "P0 PASS")
        assert table.turn(passed) == (1, "PLAY")
        assert table.default(s, 0) == "PASS"
