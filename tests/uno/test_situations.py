"""UNO test situations (shared/rules/shedding.md §2.14), one test per row.

A hand-built table (the `table` fixture of conftest.py), the row's move or
short sequence, the exact expected result. Conventions of §2.14: P0..P3
clockwise, d = +1, P0 to act, the dealer P3, SEED profile, house rules off
unless listed; C = the current colour.
"""

from __future__ import annotations

import pytest

from croupier.engine.uno_cards import parse_uno_card
from croupier.games.uno import deal as dealing
from croupier.games.uno.rules import rules_for
from croupier.games.uno.scoring import hand_points
from croupier.games.uno.table import Table as Round
from croupier.v1 import uno_pb2 as pb


def test_uno_01_a_number_matches_by_number_a_symbol_never(table):
    s = table.build(top="R7", hands={0: "B7 BSkip G2"})
    assert table.reason(s, table.play(0, "B7")) == "ACCEPTED"
    assert table.reason(s, table.play(0, "BSkip")) == "MUST_MATCH_COLOUR_OR_SYMBOL"
    assert table.reason(s, table.play(0, "G2")) == "MUST_MATCH_COLOUR_OR_SYMBOL"
    assert table.legal(s, 0) == {"B7", "DRAW"}


def test_uno_03_after_a_black_card_only_the_named_colour_counts(table):
    s = table.build(top="W[G]", hands={0: "G3 R3 W Y+2"})
    assert table.reason(s, table.play(0, "G3")) == "ACCEPTED"
    assert table.reason(s, table.play(0, "R3")) == "MUST_MATCH_COLOUR_OR_SYMBOL"
    assert table.reason(s, table.play(0, "W", "R")) == "ACCEPTED"
    assert table.reason(s, table.play(0, "Y+2")) == "MUST_MATCH_COLOUR_OR_SYMBOL"


def test_uno_04_a_wild_draw_four_bluff_is_legal_unless_strict(table):
    hands = {0: "R2 W+4 G5"}
    s = table.build(top="R9", hands=hands)
    s = table.ok(s, table.play(0, "W+4", "B"))  # illegal in fact: P0 holds R2
    assert table.pending(s) == ("WILD_DRAW_FOUR", 4)
    assert table.turn(s) == (1, "RESPOND")
    assert table.colour(s) == "B"
    strict = table.build(top="R9", hands=hands, options={"wd4_enforcement": "STRICT"})
    assert table.reason(strict, table.play(0, "W+4", "B")) == "WILD_DRAW_FOUR_WITH_CURRENT_COLOUR"


def test_uno_06_an_innocent_player_costs_the_challenger_six_cards(table):
    s = table.build(top="R9", hands={0: "G5 B1 W+4", 1: "Y1 Y2"})
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 CHALLENGE")
    assert table.size(s, 1) == 2 + 6
    assert table.turn(s) == (2, "PLAY")  # P1 was skipped
    assert table.colour(s) == "G"
    assert table.top(s) == "W+4"
    # The challenger, and nobody else, saw P0's hand (§2.5).
    reveal = table.rule_events("HAND_REVEALED")[0]
    assert list(reveal.visible_to) == [1]
    assert table.seat_event_cards(1)[1] == ["G5", "B1"]
    assert all(cards == [] for cards in table.seat_event_cards(2)[:2])
    assert sorted(table.view(s, 1).uno.reveal.cards) == sorted(s.uno.hands[0].cards)
    assert not table.view(s, 2).uno.HasField("reveal")


def test_uno_07_mattel_outcome_a_guilty_player_draws_four_and_the_card_stays(table):
    s = table.build("mattel", top="R9", hands={0: "R2 W+4 G5", 1: "Y1 Y2"})
    s = table.ok(s, table.play(0, "W+4", "B"), "P1 CHALLENGE")
    assert table.hand(s, 0) >= table.bag("R2 G5") and table.size(s, 0) == 2 + 4
    assert table.top(s) == "W+4" and table.colour(s) == "B"
    assert table.turn(s) == (1, "PLAY")  # a normal turn
    assert table.size(s, 1) == 2


def test_uno_09_a_deflected_draw_two_is_not_cumulative(table):
    s = table.build(top="R4", hands={0: "R+2 …", 1: "B+2 …"})
    s = table.ok(s, table.play(0, "R+2"))
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (1, "RESPOND")
    s = table.ok(s, table.play(1, "B+2"))
    size = table.size(s, 2)
    s = table.ok(s, "P2 ACCEPT")
    assert table.size(s, 2) == size + 2
    assert table.turn(s) == (3, "PLAY")
    assert table.colour(s) == "B"


def test_uno_10_mattel_a_draw_two_resolves_at_once(table):
    s = table.build("mattel", top="R4", hands={0: "R+2 …", 1: "B+2 Y3"})
    s = table.ok(s, table.play(0, "R+2"))
    assert table.size(s, 1) == 4  # P1 drew 2 and was skipped
    assert table.turn(s) == (2, "PLAY")
    assert table.reason(s, table.play(1, "B+2")) == "NOT_YOUR_TURN"


def test_uno_12_a_wild_draw_four_is_deflected_only_by_a_draw_two_of_the_named_colour(table):
    s = table.build(top="R4", hands={0: "W+4 …", 1: "G+2 R+2 …"})
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert table.reason(s, table.play(1, "R+2")) == "NOT_A_PERMITTED_ANSWER"
    s = table.ok(s, table.play(1, "G+2"))
    assert table.pending(s) == ("DRAW_TWO", 2)
    assert table.turn(s) == (2, "RESPOND")


def test_uno_13_stacked_draw_twos_add_up(table):
    hands = {0: "R+2 …", 1: "B+2 …", 2: "G+2 …", 3: "Y5 Y6"}
    s = table.build(top="R4", hands=hands, options={"stacking": True})
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "B+2"), table.play(2, "G+2"))
    assert table.pending(s) == ("DRAW_TWO", 6)
    s = table.ok(s, "P3 ACCEPT")
    assert table.size(s, 3) == 2 + 6
    assert table.turn(s) == (0, "PLAY")


def test_uno_15_one_card_per_play_even_when_stacking(table):
    s = table.build(top="R4", hands={0: "R+2 …", 1: "B+2 G+2 Y1"}, options={"stacking": True})
    s = table.ok(s, table.play(0, "R+2"))
    # A play carries exactly one card (UnoMove.Play.card is one field); after
    # the first +2 the turn is P2's, so the second card is not P1's to play.
    s = table.ok(s, table.play(1, "B+2"))
    assert table.turn(s) == (2, "RESPOND")
    assert table.reason(s, table.play(1, "G+2")) == "NOT_YOUR_TURN"


def test_uno_16_an_action_first_card_goes_back_and_no_jump_in_on_the_first_card(table):
    s = table.new("seed", 4, {"jump_in": True})
    round_ = Round(s)
    stock = [parse_uno_card(t) for t in ("RSkip", "Y4", "B1", "G2", "R3")]
    assert dealing._first_card(round_, stock) == parse_uno_card("Y4")
    assert sorted(stock) == sorted(parse_uno_card(t) for t in ("RSkip", "B1", "G2", "R3"))
    # A dealt round: whatever the first card, P0 (left of the dealer P3)
    # plays first, nobody may jump in on it.
    for seed in range(200):
        s = table.new("seed", 4, {"jump_in": True, "dealer_selection": "RANDOM"}, seed)
        if s.uno.dealer == 3 and table.rule_events("FIRST_CARD_RETURNED"):
            break
    else:
        raise AssertionError("no seed turned an action card first")
    first = table.top(s)
    assert first[1:].isdigit()
    assert table.turn(s) == (0, "PLAY")
    assert table.acting(s) == [0]
    assert table.reason(s, table.jump(2, first)) == "NOT_YOUR_TURN"


def test_uno_18_after_a_draw_only_the_drawn_card_may_be_played(table):
    s = table.build(top="G2", hands={0: "R5 Y7"}, stock="G5 …")
    assert table.reason(s, "P0 DRAW") == "ACCEPTED"
    s = table.ok(s, "P0 DRAW")
    assert table.reason(s, table.play(0, "R5")) == "ONLY_DRAWN_CARD_PLAYABLE"
    assert table.reason(s, table.play(0, "G5")) == "ACCEPTED"
    s = table.ok(s, "P0 PASS")
    assert table.turn(s) == (1, "PLAY")
    assert table.hand(s, 0) == table.bag("R5 Y7 G5")


def test_uno_19_drawing_with_a_legal_card_in_hand(table):
    s = table.build(top="G2", hands={0: "G9 R1"}, stock="Y1 …")
    s = table.ok(s, "P0 DRAW")
    assert table.hand(s, 0) == table.bag("G9 R1 Y1")
    assert table.reason(s, table.play(0, "G9")) == "ONLY_DRAWN_CARD_PLAYABLE"
    assert table.legal(s, 0) == {"PASS"}
    s = table.ok(s, "P0 PASS")
    assert table.turn(s) == (1, "PLAY")
    off = table.build(top="G2", hands={0: "G9 R1"}, stock="Y1 …", options={"voluntary_draw": False})
    assert table.reason(off, "P0 DRAW") == "MUST_PLAY_A_LEGAL_CARD"


def test_uno_21_a_late_uno_call_protects_only_until_caught(table):
    # UNO-20 (the row UNO-21 refers to): P0 [R3, G5], top R7, P0 plays R3
    # without calling "UNO!".
    for timing, caught in (("DURING_PLAY", True), ("UNTIL_CAUGHT", False)):
        s = table.build(top="R7", hands={0: "R3 G5"}, options={"uno_call_timing": timing})
        s = table.ok(s, table.play(0, "R3"))
        assert s.uno.uno_offender == 0
        if caught:
            # A late call is no move at all: P0 is not among the acting seats.
            assert 0 not in table.acting(s)
            assert table.reason(s, "P0 UNO") == "NOT_YOUR_TURN"
            s = table.ok(s, "P2 CATCH 0")
            assert table.size(s, 0) == 1 + 2
        else:
            s = table.ok(s, "P0 UNO")
            # P0 is safe: the catch window closed, nobody but P1 acts.
            assert table.acting(s) == [1]
            assert table.reason(s, "P2 CATCH 0") == "NOT_YOUR_TURN"
            assert table.size(s, 0) == 1


def test_uno_22_two_players_skip_reverse_and_draw_two_give_the_turn_back(table):
    for card in ("RRev", "RSkip"):
        s = table.build(seats=2, top="R4", hands={0: f"{card} G1", 1: "Y1 Y2"})
        s = table.ok(s, table.play(0, card))
        assert table.turn(s) == (0, "PLAY")
        assert table.size(s, 1) == 2
    s = table.build(seats=2, top="R4", hands={0: "R+2 G1", 1: "Y1 Y2"})
    s = table.ok(s, table.play(0, "R+2"))
    assert table.turn(s) == (1, "RESPOND")
    s = table.ok(s, "P1 ACCEPT")
    assert table.size(s, 1) == 4
    assert table.turn(s) == (0, "PLAY")


def test_uno_24_nobody_jumps_in_with_a_wild_draw_four(table):
    s = table.build(top="R4", hands={0: "W+4 …", 2: "W+4 Y1 Y2"}, options={"jump_in": True})
    s = table.ok(s, table.play(0, "W+4", "B"))
    assert 2 not in table.acting(s)  # no window opens on a Wild Draw Four
    assert table.reason(s, table.jump(2, "W+4", "G")) == "NOT_YOUR_TURN"


def test_uno_25_jumping_in_on_ones_own_card_needs_h2(table):
    hands = {0: "G7 G7 Y1", 1: "Y2 Y3"}
    s = table.build(top="G4", hands=hands, options={"jump_in": True})
    s = table.ok(s, table.play(0, "G7"))
    assert table.reason(s, table.jump(0, "G7")) == "NOT_YOUR_TURN"
    h2 = {"jump_in": True, "jump_in_own_card": True}
    s = table.build(top="G4", hands=hands, options=h2)
    s = table.ok(s, table.play(0, "G7"))
    assert table.reason(s, table.jump(0, "G7")) == "ACCEPTED"
    s = table.ok(s, "P1 DRAW")  # P1 acted first: the window is closed
    assert table.acting(s) == [1]
    assert table.reason(s, table.jump(0, "G7")) == "NOT_YOUR_TURN"


def test_uno_27_seven_zero(table):
    opts = {"seven_zero": True}
    hands = {0: "Y0 B7 R1", 1: "G1 G2", 2: "G3", 3: "G4 G5 G6"}
    s = table.build(top="Y3", hands=hands, options=opts)
    after = table.ok(s, table.play(0, "Y0"))
    assert table.hand(after, 1) == table.bag("B7 R1")  # P0 → P1
    assert table.hand(after, 2) == table.bag("G1 G2")  # P1 → P2
    assert table.hand(after, 3) == table.bag("G3")  # P2 → P3
    assert table.hand(after, 0) == table.bag("G4 G5 G6")  # P3 → P0
    s = table.build(top="B3", hands=hands, options=opts)
    after = table.ok(s, table.play(0, "B7", swap=2))
    assert table.hand(after, 0) == table.bag("G3")
    assert table.hand(after, 2) == table.bag("Y0 R1")
    last = table.build(top="B3", hands={0: "B7", 2: "G3"}, options=opts)
    assert table.reason(last, table.play(0, "B7", swap=2)) == "SWAP_CHOICE_INVALID"
    after = table.ok(last, table.play(0, "B7"))
    assert table.match_phase(after) == "DEAL_OVER"
    assert table.hand(after, 2) == table.bag("G3")


def test_uno_28_a_five_exchanges_one_card_each_chosen_by_its_giver(table):
    opts = {"swap_on_five": True}
    s = table.build(top="R3", hands={0: "R5 G2 Y1", 3: "W B9"}, options=opts)
    s = table.ok(s, table.play(0, "R5", swap=3, give="G2"))
    assert table.acting(s) == [3]
    # P3 does not see the offered card before giving its own (B20).
    assert not table.view(s, 3).uno.card_swap.card
    s = table.ok(s, "P3 GIVE W")
    assert table.hand(s, 0) == table.bag("Y1 W")
    assert table.hand(s, 3) == table.bag("B9 G2")
    assert table.turn(s) == (1, "PLAY")
    declined = table.build(top="R3", hands={0: "R5 G2 Y1", 3: "W B9"}, options=opts)
    declined = table.ok(declined, table.play(0, "R5"))
    assert table.turn(declined) == (1, "PLAY")
    assert table.hand(declined, 3) == table.bag("W B9")


def test_uno_30_automatic_colour_rotation(table):
    opts = {"colour_rotation": True}
    s = table.build(top="R4", hands={0: "W …"}, options=opts)
    assert table.reason(s, table.play(0, "W", "G")) == "COLOUR_CHOICE_INVALID"
    s = table.ok(s, table.play(0, "W"))
    assert table.colour(s) == "B"
    s = table.build(top="Y4", hands={0: "W+4 …"}, reversed=True, options=opts)
    s = table.ok(s, table.play(0, "W+4"))
    assert table.colour(s) == "G"
    assert table.pending(s) == ("WILD_DRAW_FOUR", 4)
    assert table.turn(s) == (3, "RESPOND")  # d = −1: P3 is next


def test_uno_31_a_reverse_of_the_colour_bounces_a_draw_two(table):
    opts = {"reverse_bounce": True}
    s = table.build(top="R4", hands={0: "R+2 Y1 Y2", 1: "RRev BRev Y3"}, options=opts)
    s = table.ok(s, table.play(0, "R+2"))
    assert table.reason(s, table.play(1, "BRev")) == "NOT_A_PERMITTED_ANSWER"
    s = table.ok(s, table.play(1, "RRev"))
    assert table.direction(s) == -1
    assert table.pending(s) == ("DRAW_TWO", 2)
    assert table.turn(s) == (0, "RESPOND")
    s = table.ok(s, "P0 ACCEPT")
    assert table.size(s, 0) == 2 + 2
    assert table.turn(s) == (3, "PLAY")


def test_uno_33_a_final_draw_two_is_drawn_and_counted(table):
    s = table.build(top="B3", hands={0: "B+2", 1: "Y1 Y2", 2: "Y3", 3: "Y4"}, stock="R9 R8 …")
    s = table.ok(s, table.play(0, "B+2"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.hand(s, 1) == table.bag("Y1 Y2 R9 R8")
    assert table.deal_points(s)[0] == (1 + 2 + 9 + 8) + 3 + 4


def test_uno_34_the_winner_collects_the_other_hands(table):
    hands = {0: "R7", 1: "R5 GSkip W", 2: "Y9 W+4", 3: "B0"}
    s = table.build(top="R3", hands=hands)
    s = table.ok(s, table.play(0, "R7"))
    assert table.deal_points(s) == [134, 0, 0, 0]
    assert table.scores(s) == [134, 0, 0, 0]


def test_uno_36_a_lone_zero_is_worth_50(table):
    s = table.new(options={"zero_worth_50": True})
    rules = rules_for(s.options.uno)
    assert hand_points([parse_uno_card("B0")], rules) == 50
    assert hand_points([parse_uno_card("B0"), parse_uno_card("R3")], rules) == 3


def test_uno_36_a_lone_zero_is_worth_50_when_the_round_is_scored(table):
    # H14 through a round's end: under PENALTY_LIMIT each seat scores its own
    # hand, so the values show one by one — a lone B0 50, G0 with R3 3.
    options = {"zero_worth_50": True, "scoring_method": "PENALTY_LIMIT"}
    hands = {0: "R7", 1: "B0", 2: "G0 R3", 3: "Y1"}
    s = table.build(top="R5", hands=hands, options=options)
    s = table.ok(s, table.play(0, "R7"))
    assert table.deal_points(s) == [0, 50, 3, 1]


@pytest.mark.parametrize(
    ("label", "total"), [("", 70), (" H2O+1", 50), (" H2O+2", 30)], ids=["none", "+1", "wild+2"]
)
def test_uno_37_the_h2o_finishing_bonus(table, label, total):
    # H15 under PENALTY_LIMIT (which it brings, C-UNO-6); C-UNO-7: "+1" and
    # wild "+2" are labels of the finishing card, named by the play. P0 at 70
    # goes out: 50 with "+1", 30 with wild "+2"; the others score their hands.
    hands = {0: "R5", 1: "G7", 2: "B9 Y1", 3: "R+2"}
    s = table.build(top="R4", hands=hands, scores=[70, 0, 0, 0],
                    options={"h2o_finish_bonus": True})  # fmt: skip
    assert {"R5", "R5 H2O+1", "R5 H2O+2"} <= table.legal(s, 0)
    s = table.ok(s, table.move(0, "R5" + label))
    assert table.scores(s) == [total, 7, 10, 20]
    assert table.deal_points(s) == [total - 70, 7, 10, 20]


def test_h15_a_final_wild_draw_four_keeps_its_label_until_its_answer(table):
    # The round a final W+4 ends is scored once its target answers (B11): the
    # label waits in the state (`finishing_label`) and counts then.
    hands = {0: "W+4", 1: "G7", 2: "B9", 3: "Y1"}
    s = table.build(top="R4", hands=hands, scores=[70, 0, 0, 0],
                    options={"h2o_finish_bonus": True})  # fmt: skip
    s = table.ok(s, table.move(0, "W+4>G H2O+2"))
    assert table.turn(s) == (1, "RESPOND")
    assert s.uno.finishing_label == pb.UNO_H2O_LABEL_WILD_PLUS_TWO
    s = table.ok(s, "P1 ACCEPT")
    assert table.scores(s)[0] == 30


@pytest.mark.parametrize(
    ("options", "hands", "why"),
    [({"h2o_finish_bonus": True}, {0: "R5 G1"}, "an H2O label goes only with the card that "
      "wins the round"),
     ({}, {0: "R5"}, "an H2O label goes only with h2o_finish_bonus (H15)")],
    ids=["not-the-last-card", "no-h15"],
)  # fmt: skip
def test_h15_a_label_is_refused_where_no_card_wins_the_round(table, options, hands, why):
    s = table.build(top="R4", hands=hands, options=options)
    answer = table.apply(s, table.move(0, "R5 H2O+1"))
    assert not answer.accepted
    assert answer.rejection.message == why and answer.rejection.rule == "H15"
    assert "R5 H2O+1" not in table.legal(s, 0)


def test_uno_39_lazy_scoring_the_loser_deals_the_winner_leads(table):
    hands = {0: "R9 R8 R7 G6", 1: "B9 Y9 B8 Y8 Y5 G6", 2: "G2", 3: "R5 R4 G3"}
    # hand values: P0 30, P1 45, P3 12
    s = table.build(top="G5", hands=hands, current=2, options={"scoring_method": "LAZY"})
    s = table.ok(s, table.play(2, "G2"))
    assert list(s.match.deal_winners) == [2]
    assert s.uno.round_loser == 1
    s = table.next_deal(s)
    assert s.uno.dealer == 1
    assert table.turn(s) == (2, "PLAY")  # the seed's first card is a number: no effect


def test_uno_40_uno_in_the_centre_the_last_to_slap_draws_two(table):
    s = table.build(top="R4", hands={0: "R5 G1", 2: "Y1 Y2"}, options={"uno_in_centre": True})
    s = table.ok(s, table.play(0, "R5", uno=True))
    assert table.acting(s) == [0, 1, 2, 3]
    s = table.ok(s, "P1 SLAP", "P3 SLAP")
    assert table.reason(s, "P1 SLAP") == "NOT_YOUR_TURN"
    s = table.ok(s, "P2 SLAP")
    assert table.size(s, 2) == 2 + 2
    assert table.turn(s) == (1, "PLAY")
    assert table.acting(s) == [1]


def test_uno_42_restock_shuffles_the_discards_but_the_top(table):
    s = table.build(
        top=None,
        discard="R1 G1 W[G] G5",
        hands={0: "R2", 1: "Y1", 2: "Y2", 3: "Y3"},
        stock="",
        colour="G",
    )
    pile = [c for c in table.discard(s)]
    assert pile[-1] == "G5"
    s = table.ok(s, "P0 DRAW")
    assert table.discard(s) == ["G5"]
    assert table.colour(s) == "G"
    assert sorted(table.stock(s) + [t for t in table.hand(s, 0).elements() if t != "R2"]) == sorted(
        [t for t in pile[:-1]]
    )


def test_uno_43_a_misplay_costs_two_cards_with_u16(table):
    s = table.build(top="G2", hands={0: "R5 G8"}, stock="Y1 Y2 …")
    assert table.reason(s, table.play(0, "R5")) == "MUST_MATCH_COLOUR_OR_SYMBOL"
    on = table.build(top="G2", hands={0: "R5 G8"}, stock="Y1 Y2 …",
                     options={"misplay_penalty": True})  # fmt: skip
    after = table.ok(on, table.play(0, "R5"))
    assert table.hand(after, 0) == table.bag("R5 G8 Y1 Y2")
    assert table.turn(after) == (0, "PLAY")
    assert table.top(after) == "G2"


def test_uno_45_a_final_wild_draw_four_may_be_challenged_in_vain(table):
    for challenge in (False, True):
        s = table.build(top="R2", hands={0: "W+4", 1: "Y1 Y2"})
        s = table.ok(s, table.play(0, "W+4", "R"))
        assert table.turn(s) == (1, "RESPOND")
        assert table.legal(s, 1) == {"ACCEPT", "CHALLENGE"}
        s = table.ok(s, "P1 CHALLENGE" if challenge else "P1 ACCEPT")
        assert table.match_phase(s) == "DEAL_OVER"
        assert table.size(s, 1) == 2 + (6 if challenge else 4)
        assert list(s.match.deal_winners) == [0]


def test_uno_46_a_skip_without_answers_is_applied_at_once(table):
    s = table.build(top="R3", hands={0: "RSkip …"})
    s = table.ok(s, table.play(0, "RSkip"))
    assert table.turn(s) == (2, "PLAY")
    assert table.acting(s) == [2]


def test_uno_48_two_reverses_restore_the_direction(table):
    opts = {"jump_in": True, "jump_in_own_card": True}
    s = table.build(top="R3", hands={0: "RRev RRev Y1"}, options=opts)
    s = table.ok(s, table.play(0, "RRev"))
    assert table.turn(s) == (3, "PLAY")
    s = table.ok(s, table.jump(0, "RRev"))
    assert table.direction(s) == 1
    assert table.turn(s) == (1, "PLAY")
