"""An audit of UNO against shared/rules/shedding.md §0.5 and §2: rules, options
and interactions that no other test pins, each in a concrete position with
its exact expected result, named after the rule it pins.

Conventions of §2.14 (conftest.py): P0..P3 clockwise, d = +1, P0 to act, the
dealer P3, the SEED profile, house rules off unless listed.
"""

from __future__ import annotations

from croupier.engine.uno_cards import parse_uno_card

# -- 2.3.1 legality ---------------------------------------------------------------------------


def test_2_3_1_an_action_card_matches_only_its_own_symbol_in_another_colour(table):
    s = table.build(top="RSkip", hands={0: "BSkip BRev B+2 G5 R+2"})
    assert table.reason(s, table.play(0, "BSkip")) == "ACCEPTED"
    assert table.reason(s, table.play(0, "BRev")) == "MUST_MATCH_COLOUR_OR_SYMBOL"
    assert table.reason(s, table.play(0, "B+2")) == "MUST_MATCH_COLOUR_OR_SYMBOL"
    assert table.reason(s, table.play(0, "G5")) == "MUST_MATCH_COLOUR_OR_SYMBOL"
    assert table.reason(s, table.play(0, "R+2")) == "ACCEPTED"  # the colour


def test_2_3_1_a_draw_two_on_an_accepted_draw_two_is_a_new_effect(table):
    # P1 accepted R+2; P2 follows it with B+2 (symbol on symbol, any colour):
    # a fresh +2 on P3 of 2 cards, not an answer to anything.
    s = table.build(top="R4", hands={0: "R+2 …", 1: "Y1 Y2", 2: "B+2 Y3 Y4"})
    s = table.ok(s, table.play(0, "R+2"), "P1 ACCEPT")
    assert table.turn(s) == (2, "PLAY") and table.size(s, 1) == 4
    s = table.ok(s, table.play(2, "B+2"))
    assert table.pending(s) == ("DRAW_TWO", 2)
    assert table.turn(s) == (3, "RESPOND")
    assert table.colour(s) == "B"


# -- 2.3.2 draw, play the drawn card ------------------------------------------------------------


def test_u8_off_a_wild_in_hand_forbids_drawing(table):
    s = table.build(top="G2", hands={0: "W R5"}, options={"voluntary_draw": False})
    assert table.reason(s, "P0 DRAW") == "MUST_PLAY_A_LEGAL_CARD"
    assert table.legal(s, 0) == {f"W>{c}{u}" for c in "RYGB" for u in ("", " UNO")}


def test_u8_off_strict_a_permitted_wild_draw_four_forbids_drawing(table):
    # STRICT: W+4 is legal holding no card of the current colour (blue), and
    # a player holding a legal card may not draw with voluntary_draw off.
    opts = {"voluntary_draw": False, "wd4_enforcement": "STRICT"}
    s = table.build(top="B2", hands={0: "W+4 R5"}, options=opts)
    assert table.reason(s, "P0 DRAW") == "MUST_PLAY_A_LEGAL_CARD"
    assert table.reason(s, table.play(0, "W+4", "R", uno=True)) == "ACCEPTED"


def test_u9_must_a_drawn_wild_draw_four_forbidden_by_strict_may_be_kept(table):
    opts = {"play_drawn": "MUST", "wd4_enforcement": "STRICT"}
    s = table.build(top="G2", hands={0: "G5 R1"}, stock="W+4 …", options=opts)
    s = table.ok(s, "P0 DRAW")
    assert table.legal(s, 0) == {"PASS"}  # P0 holds G5: the W+4 is not legal
    s = table.ok(s, "P0 PASS")
    assert table.turn(s) == (1, "PLAY")
    assert table.hand(s, 0) == table.bag("G5 R1 W+4")


def test_2_6_a_drawn_card_played_as_second_to_last_needs_the_call(table):
    s = table.build(top="G2", hands={0: "Y1"}, stock="G5 …")
    s = table.ok(s, "P0 DRAW")
    assert table.legal(s, 0) == {"G5", "G5 UNO", "PASS"}
    s = table.ok(s, table.play(0, "G5"))
    assert s.uno.uno_offender == 0
    s = table.ok(s, "P3 CATCH 0")
    assert table.size(s, 0) == 1 + 2
    assert table.turn(s) == (1, "PLAY")


# -- 2.5 Wild Draw Four -----------------------------------------------------------------------


def test_2_5_matching_numbers_and_wilds_do_not_make_a_wild_draw_four_guilty(table):
    s = table.build(top="R9", hands={0: "B9 W W+4", 1: "Y1 Y2"})
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 CHALLENGE")
    assert not table.rule_events("CHALLENGED")[0].uno.guilty
    assert table.size(s, 1) == 2 + 6
    assert table.turn(s) == (2, "PLAY")
    assert table.hand(s, 0) == table.bag("B9 W")


def test_2_5_guilt_is_judged_on_the_colour_before_not_the_named_colour(table):
    s = table.build(top="R9", hands={0: "G5 G6 W+4", 1: "Y1 Y2"})
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 CHALLENGE")
    assert not table.rule_events("CHALLENGED")[0].uno.guilty
    assert table.size(s, 1) == 2 + 6 and table.colour(s) == "G"


def test_2_5_a_drawn_wild_draw_four_played_holding_the_colour_is_guilty(table):
    s = table.build(top="R9", hands={0: "R2 Y3", 1: "Y1 Y2"}, stock="W+4 B1 B2 B3 B4 …")
    s = table.ok(s, "P0 DRAW", table.play(0, "W+4", "B"), "P1 CHALLENGE")
    assert table.rule_events("CHALLENGED")[0].uno.guilty
    assert table.hand(s, 0) == table.bag("R2 Y3 W+4 B1 B2 B3 B4")
    assert table.top(s) == "R9" and table.colour(s) == "R"
    assert table.turn(s) == (1, "PLAY")


def test_u6_seed_guilty_revert_restores_the_colour_a_wild_named(table):
    s = table.build(discard="R4 W[G]", hands={0: "G1 Y5 W+4", 1: "Y1 Y2"})
    s = table.ok(s, table.play(0, "W+4", "Y"), "P1 CHALLENGE")
    assert table.top(s) == "W" and table.colour(s) == "G"
    assert table.turn(s) == (1, "PLAY")
    assert table.reason(s, table.play(1, "Y1")) == "MUST_MATCH_COLOUR_OR_SYMBOL"


def test_u5_off_a_final_wild_draw_four_is_drawn_at_once_without_deflection(table):
    s = table.build(top="R2", hands={0: "W+4", 1: "G+2 Y1"}, options={"challenge_enabled": False})
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.size(s, 1) == 2 + 4
    assert list(s.match.deal_winners) == [0]


# -- 2.6 UNO call and catch -------------------------------------------------------------------


def test_2_6_two_players_the_opponent_catches_before_the_offender_plays_again(table):
    s = table.build(seats=2, top="R4", hands={0: "RSkip G5", 1: "Y1 Y2"})
    s = table.ok(s, table.play(0, "RSkip"))
    assert table.turn(s) == (0, "PLAY") and s.uno.uno_offender == 0
    caught = table.ok(s, "P1 CATCH 0")
    assert table.size(caught, 0) == 1 + 2
    assert table.turn(caught) == (0, "PLAY")
    drew = table.ok(s, "P0 DRAW")  # the offender's own turn action closes the window
    assert table.reason(drew, "P1 CATCH 0") == "NOT_YOUR_TURN"


def test_c_uno_4_an_effect_resolved_at_once_leaves_the_catch_window_open(table):
    # MATTEL: P1 draws 2 and is skipped as part of P0's move (D4); P2 has not
    # begun a turn, so P0 may still be caught.
    s = table.build("mattel", top="R4", hands={0: "R+2 G5", 1: "Y1 Y2"})
    s = table.ok(s, table.play(0, "R+2"))
    assert table.turn(s) == (2, "PLAY") and table.size(s, 1) == 4
    s = table.ok(s, "P3 CATCH 0")
    assert table.size(s, 0) == 1 + 2


def test_h1_a_jump_in_leaving_one_card_needs_its_own_call(table):
    s = table.build(top="G4", hands={0: "G7 …", 2: "G7 B1"}, options={"jump_in": True})
    s = table.ok(s, table.play(0, "G7"), table.jump(2, "G7"))
    assert s.uno.uno_offender == 2
    assert table.turn(s) == (3, "PLAY")
    s = table.ok(s, "P0 CATCH 2")
    assert table.size(s, 2) == 1 + 2


def test_2_6_going_out_by_a_jump_in_leaves_nothing_to_catch(table):
    opts = {"jump_in": True, "jump_in_own_card": True}
    s = table.build(top="G4", hands={0: "G7 G7", 1: "Y1 Y2", 2: "Y3", 3: "Y4"}, options=opts)
    s = table.ok(s, table.play(0, "G7"))
    assert s.uno.uno_offender == 0
    s = table.ok(s, table.jump(0, "G7"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert list(s.match.deal_winners) == [0]
    assert table.deal_points(s) == [1 + 2 + 3 + 4, 0, 0, 0]


def test_h8_without_the_call_the_catch_window_applies_instead(table):
    s = table.build(top="R4", hands={0: "R5 G1"}, options={"uno_in_centre": True})
    s = table.ok(s, table.play(0, "R5"))
    assert not s.uno.HasField("slap") and s.uno.uno_offender == 0
    s = table.ok(s, "P2 CATCH 0")
    assert table.size(s, 0) == 1 + 2
    assert table.turn(s) == (1, "PLAY")


def test_u10_until_caught_a_call_after_the_window_closed_is_no_move(table):
    s = table.build(top="R7", hands={0: "R3 G5"}, options={"uno_call_timing": "UNTIL_CAUGHT"})
    s = table.ok(s, table.play(0, "R3"), "P1 DRAW")
    assert not s.uno.HasField("uno_offender")
    assert table.reason(s, "P0 UNO") == "NOT_YOUR_TURN"


def test_u16_a_false_catch_costs_the_accuser_two(table):
    # While P0's catch window is open, P2 accuses P1, who holds 2 cards.
    opts = {"misplay_penalty": True}
    s = table.build(top="R7", hands={0: "R3 G5", 1: "Y3 Y4", 2: "Y1 Y2"}, options=opts)
    s = table.ok(s, table.play(0, "R3"), "P2 CATCH 1")
    assert table.rule_events("FALSE_CALL")
    assert table.size(s, 2) == 2 + 2 and table.size(s, 1) == 2
    assert s.uno.uno_offender == 0  # a side action: the window stays open
    s = table.ok(s, "P3 CATCH 0")
    assert table.size(s, 0) == 1 + 2
    assert table.turn(s) == (1, "PLAY")


def test_u16_a_jump_in_with_a_card_not_identical_is_a_misplay(table):
    opts = {"jump_in": True, "misplay_penalty": True}
    s = table.build(top="G4", hands={0: "G7 …", 2: "G8 G7 Y1"}, options=opts)
    s = table.ok(s, table.play(0, "G7"), table.jump(2, "G8"))
    assert table.hand(s, 2) >= table.bag("G8 G7 Y1") and table.size(s, 2) == 3 + 2
    assert s.uno.jump_in_open  # D5: a misplay closes no window
    s = table.ok(s, table.jump(2, "G7"))
    assert table.turn(s) == (3, "PLAY")


# -- 2.7 / 0.5 draw-pile exhaustion -----------------------------------------------------------


def test_0_5_a_penalty_draw_restocks_between_single_draws(table):
    s = table.build(discard="R1 G3 R4", hands={0: "R+2 Y1 Y2", 1: "Y3 Y4", 2: "Y5"}, stock="Y9")
    s.uno.hands[3].cards.extend(s.uno.discard[:-3])  # everything else out of the way
    del s.uno.discard[:-3]
    s = table.ok(s, table.play(0, "R+2"), "P1 ACCEPT")
    hand = table.hand(s, 1)
    assert hand >= table.bag("Y3 Y4 Y9") and table.size(s, 1) == 4
    assert table.discard(s) == ["R+2"]
    recycled = table.stock(s) + [c for c in hand.elements() if c[0] != "Y"]
    assert sorted(recycled) == ["G3", "R1", "R4"]
    assert table.turn(s) == (2, "PLAY")


# -- 2.9 two players --------------------------------------------------------------------------


def test_2_9_two_players_after_an_accepted_wild_draw_four_the_player_plays_again(table):
    s = table.build(seats=2, top="R4", hands={0: "W+4 Y1 Y2", 1: "B1 B2"})
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 ACCEPT")
    assert table.size(s, 1) == 2 + 4
    assert table.turn(s) == (0, "PLAY") and table.colour(s) == "G"


def test_2_9_two_players_an_innocent_challenge_gives_the_turn_back(table):
    s = table.build(seats=2, top="R4", hands={0: "W+4 Y1 Y2", 1: "B1 B2"})
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 CHALLENGE")
    assert table.size(s, 1) == 2 + 6
    assert table.turn(s) == (0, "PLAY")


def test_u6_seed_two_players_a_guilty_player_loses_his_next_turn(table):
    s = table.build(seats=2, top="R9", hands={0: "R2 W+4 G5", 1: "R3 R6 Y1"}, stock="B1 B2 B3 B4 …")
    s = table.ok(s, table.play(0, "W+4", "B"), "P1 CHALLENGE")
    assert table.hand(s, 0) == table.bag("R2 W+4 G5 B1 B2 B3 B4")
    assert table.turn(s) == (1, "PLAY")
    s = table.ok(s, table.play(1, "R3"))
    assert table.turn(s) == (1, "PLAY")  # P0's turn was lost
    assert list(s.uno.turn_lost) == []


# -- 2.2 first card (MATTEL) and the next round -----------------------------------------------


def _first_card_round(table, card, seats=4, options=None):
    opts = {"dealer_selection": "RANDOM", **(options or {})}
    for seed in range(3000):
        state = table.new("mattel", seats, opts, seed)
        if state.uno.discard[0] == parse_uno_card(card):
            return state
    raise AssertionError(f"no seed turns {card} first")


def test_u1_mattel_a_skip_first_card_skips_the_first_player(table):
    s = _first_card_round(table, "GSkip")
    first = (s.uno.dealer + 1) % 4
    assert table.size(s, first) == 7
    assert table.turn(s) == ((first + 1) % 4, "PLAY")
    assert table.direction(s) == 1


def test_u1_mattel_a_draw_two_first_card_with_two_players_the_dealer_plays(table):
    s = _first_card_round(table, "Y+2", seats=2)
    dealer = s.uno.dealer
    assert table.size(s, 1 - dealer) == 7 + 2
    assert table.turn(s) == (dealer, "PLAY")


def test_u2_mattel_reverse_first_card_with_three_players(table):
    s = _first_card_round(table, "RRev", seats=3)
    dealer = s.uno.dealer
    assert table.direction(s) == -1 and table.turn(s) == (dealer, "PLAY")
    s = table.ok(s, table.move(dealer, "DRAW"), table.move(dealer, "PASS"))
    assert table.turn(s) == ((dealer - 1) % 3, "PLAY")  # counter-clockwise


def test_2_2_the_next_round_is_dealt_by_the_next_seat_clockwise(table):
    s = table.build(top="R3", hands={0: "R7", 1: "Y1", 2: "Y2", 3: "Y3"}, dealer=3)
    s = table.ok(s, table.play(0, "R7"))
    assert table.match_phase(s) == "DEAL_OVER" and table.scores(s) == [6, 0, 0, 0]
    s = table.next_deal(s)
    assert s.uno.dealer == 0
    assert table.turn(s) == (1, "PLAY")
    assert all(table.size(s, seat) == 7 for seat in range(4))
    assert table.scores(s) == [6, 0, 0, 0] and s.match.deal_number == 2


# -- 2.8 scoring and the match ----------------------------------------------------------------


def test_u15_winner_collects_reaching_the_target_exactly_ends_the_match(table):
    hands = {0: "R7", 1: "Y9", 2: "Y1", 3: "B0"}
    s = table.build(top="R3", hands=hands, scores=[490, 480, 0, 0])
    s = table.ok(s, table.play(0, "R7"))
    assert table.scores(s) == [500, 480, 0, 0]
    assert table.match_phase(s) == "MATCH_OVER" and list(s.match.winners) == [0]


def test_u15_penalty_limit_reaching_the_limit_exactly_loses(table):
    hands = {0: "R7", 1: "R9 R1", 2: "Y1", 3: "B0"}
    s = table.build(
        top="R3", hands=hands, scores=[0, 190, 0, 0], options={"scoring_method": "PENALTY_LIMIT"}
    )
    s = table.ok(s, table.play(0, "R7"))
    assert table.deal_points(s) == [0, 10, 1, 0]
    assert table.scores(s) == [0, 200, 1, 0]
    assert table.match_phase(s) == "MATCH_OVER" and sorted(s.match.winners) == [0, 2, 3]


def test_u15_penalty_limit_below_the_limit_goes_on(table):
    hands = {0: "R7", 1: "R9", 2: "W+4", 3: "BSkip"}
    s = table.build(
        top="R3",
        hands=hands,
        scores=[150, 190, 149, 179],
        options={"scoring_method": "PENALTY_LIMIT"},
    )
    s = table.ok(s, table.play(0, "R7"))
    assert table.scores(s) == [150, 199, 199, 199]
    assert table.match_phase(s) == "DEAL_OVER"


def test_h14_a_lone_zero_scores_50_at_round_end(table):
    hands = {0: "R7", 1: "B0", 2: "R0 R3", 3: "Y0 W"}
    s = table.build(top="R3", hands=hands, options={"zero_worth_50": True})
    s = table.ok(s, table.play(0, "R7"))
    assert table.deal_points(s) == [50 + 3 + 50, 0, 0, 0]


def test_h14_penalty_limit_a_lone_zero_costs_its_holder_50(table):
    hands = {0: "R7", 1: "B0", 2: "R0 R3", 3: "Y1"}
    s = table.build(
        top="R3", hands=hands, options={"zero_worth_50": True, "scoring_method": "PENALTY_LIMIT"}
    )
    s = table.ok(s, table.play(0, "R7"))
    assert table.deal_points(s) == [0, 50, 3, 1]


def test_u13_a_final_draw_two_under_stacking_cannot_be_stacked_on_and_counts(table):
    hands = {0: "R+2", 1: "B+2 Y1", 2: "Y2", 3: "B0"}
    s = table.build(top="R4", hands=hands, stock="R9 G8 …", options={"stacking": True})
    s = table.ok(s, table.play(0, "R+2"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.hand(s, 1) == table.bag("B+2 Y1 R9 G8")
    assert table.deal_points(s) == [20 + 1 + 9 + 8 + 2 + 0, 0, 0, 0]


# -- house rules ------------------------------------------------------------------------------


def test_h1_a_jumped_in_reverse_flips_back_and_play_goes_on_from_the_jumper(table):
    s = table.build(top="R4", hands={0: "RRev …", 1: "RRev Y1 Y2"}, options={"jump_in": True})
    s = table.ok(s, table.play(0, "RRev"))
    assert table.direction(s) == -1 and table.turn(s) == (3, "PLAY")
    s = table.ok(s, table.jump(1, "RRev"))
    assert table.direction(s) == 1
    assert table.turn(s) == (2, "PLAY")


def test_h1_a_jump_in_with_the_last_card_wins_the_round(table):
    hands = {0: "G7 Y5", 1: "Y1", 2: "G7", 3: "Y2 Y3"}
    s = table.build(top="G4", hands=hands, options={"jump_in": True})
    s = table.ok(s, table.play(0, "G7", uno=True), table.jump(2, "G7"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert list(s.match.deal_winners) == [2]
    assert table.deal_points(s) == [0, 0, 5 + 1 + 2 + 3, 0]


def test_h1_a_jumped_in_seven_exchanges_hands_for_the_jumper(table):
    opts = {"jump_in": True, "seven_zero": True}
    hands = {0: "B7 R1 R2", 1: "Y1 Y2", 2: "B7 G3 G4", 3: "Y3"}
    s = table.build(top="B3", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "B7", swap=3))
    assert table.hand(s, 0) == table.bag("Y3") and table.hand(s, 3) == table.bag("R1 R2")
    s = table.ok(s, table.jump(2, "B7", swap=1))
    assert table.hand(s, 2) == table.bag("Y1 Y2")
    assert table.hand(s, 1) == table.bag("G3 G4")
    assert table.turn(s) == (3, "PLAY")


def test_h2_two_skips_skip_the_next_player_once(table):
    opts = {"jump_in": True, "jump_in_own_card": True}
    s = table.build(top="R4", hands={0: "RSkip RSkip Y1 Y2", 1: "Y3 Y4"}, options=opts)
    s = table.ok(s, table.play(0, "RSkip"), table.jump(0, "RSkip"))
    assert table.pending(s) == ("SKIP", 0) and table.turn(s) == (1, "RESPOND")
    s = table.ok(s, "P1 ACCEPT")
    assert table.turn(s) == (2, "PLAY") and table.size(s, 1) == 2


def test_h2_two_draw_twos_without_stacking_draw_two(table):
    opts = {"jump_in": True, "jump_in_own_card": True}
    s = table.build(top="R4", hands={0: "R+2 R+2 Y1 Y2", 1: "Y3 Y4"}, options=opts)
    s = table.ok(s, table.play(0, "R+2"), table.jump(0, "R+2"))
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (1, "RESPOND")
    s = table.ok(s, "P1 ACCEPT")
    assert table.size(s, 1) == 2 + 2 and table.turn(s) == (2, "PLAY")


def test_h3_a_zero_passes_hands_against_the_clock_when_play_is_reversed(table):
    hands = {0: "Y0 B7 R1", 1: "G1 G2", 2: "G3", 3: "G4 G5 G6"}
    s = table.build(top="Y3", hands=hands, reversed=True, options={"seven_zero": True})
    s = table.ok(s, table.play(0, "Y0"))
    assert table.hand(s, 3) == table.bag("B7 R1")  # P0 → P3
    assert table.hand(s, 2) == table.bag("G4 G5 G6")  # P3 → P2
    assert table.hand(s, 1) == table.bag("G3")  # P2 → P1
    assert table.hand(s, 0) == table.bag("G1 G2")  # P1 → P0
    assert table.turn(s) == (3, "PLAY")


def test_h3_a_zero_passes_over_finished_seats_under_h12(table):
    opts = {"seven_zero": True, "play_to_last": True}
    hands = {0: "Y0 R1", 1: "", 2: "G3", 3: "G4 G5"}
    s = table.build(top="Y3", hands=hands, finished=[1], options=opts)
    s = table.ok(s, table.play(0, "Y0"))
    assert table.hand(s, 2) == table.bag("R1")
    assert table.hand(s, 3) == table.bag("G3")
    assert table.hand(s, 0) == table.bag("G4 G5")
    assert table.size(s, 1) == 0
    assert table.turn(s) == (2, "PLAY")


def test_h3_a_seven_with_two_players_swaps_with_the_opponent(table):
    s = table.build(seats=2, top="B3", hands={0: "B7 R1 R2", 1: "G1"}, options={"seven_zero": True})
    assert table.reason(s, table.play(0, "B7")) == "SWAP_CHOICE_INVALID"
    s = table.ok(s, table.play(0, "B7", swap=1))
    assert table.hand(s, 0) == table.bag("G1") and table.hand(s, 1) == table.bag("R1 R2")
    assert not s.uno.HasField("uno_offender")  # B13
    assert table.turn(s) == (1, "PLAY")


def test_h4_an_innocent_challenge_inside_a_stack_costs_the_total_plus_two(table):
    hands = {0: "W+4 Y1 Y2", 1: "W+4 B1 B2", 2: "G5 G6"}
    s = table.build(top="R4", hands=hands, options={"stacking": True})
    s = table.ok(s, table.play(0, "W+4", "Y"), table.play(1, "W+4", "G"), "P2 CHALLENGE")
    assert not table.rule_events("CHALLENGED")[0].uno.guilty
    assert table.size(s, 2) == 2 + 8 + 2
    assert table.turn(s) == (3, "PLAY") and table.colour(s) == "G"


def test_h4_mattel_outcome_a_guilty_stacker_draws_the_total_and_the_card_stays(table):
    hands = {0: "W+4 R1 R2", 1: "W+4 Y1 Y2", 2: "B5 B6"}
    opts = {"stacking": True, "challenge_outcome": "MATTEL"}
    s = table.build(top="R4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "W+4", "Y"), table.play(1, "W+4", "G"), "P2 CHALLENGE")
    assert table.rule_events("CHALLENGED")[0].uno.guilty
    assert table.size(s, 1) == 2 + 8
    assert table.top(s) == "W+4" and table.colour(s) == "G"
    assert table.turn(s) == (2, "PLAY") and table.size(s, 2) == 2


def test_h4_a_draw_two_of_the_named_colour_on_a_wild_draw_four_adds_two(table):
    hands = {0: "W+4 Y1 Y2", 1: "G+2 B1", 2: "B2 B3"}
    s = table.build(top="R4", hands=hands, options={"stacking": True})
    s = table.ok(s, table.play(0, "W+4", "G"), table.play(1, "G+2"))
    assert table.pending(s) == ("DRAW_TWO", 6) and table.turn(s) == (2, "RESPOND")
    assert "CHALLENGE" not in table.legal(s, 2)
    s = table.ok(s, "P2 ACCEPT")
    assert table.size(s, 2) == 2 + 6 and table.turn(s) == (3, "PLAY")


def test_h4_a_final_wild_draw_four_cannot_be_stacked_on(table):
    s = table.build(top="R2", hands={0: "W+4", 1: "W+4 Y1"}, options={"stacking": True})
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert table.legal(s, 1) == {"ACCEPT", "CHALLENGE"}
    assert table.reason(s, table.play(1, "W+4", "B")) == "NOT_A_PERMITTED_ANSWER"


def test_h9_the_automatic_colour_is_the_named_colour_for_deflection(table):
    hands = {0: "W+4 Y1 Y2", 1: "G+2 B+2 Y3"}
    s = table.build(top="R4", hands=hands, options={"colour_rotation": True})
    s = table.ok(s, table.play(0, "W+4"))
    assert table.colour(s) == "B"
    assert table.reason(s, table.play(1, "G+2")) == "NOT_A_PERMITTED_ANSWER"
    s = table.ok(s, table.play(1, "B+2"))
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (2, "RESPOND")


def test_h10_a_plus_ten_cannot_be_bounced(table):
    opts = {"plus_ten": True, "reverse_bounce": True}
    s = table.build(top="R4", hands={0: "X+10 Y1", 1: "BRev Y2"}, options=opts)
    s = table.ok(s, table.play(0, "X+10", "B"))
    assert table.size(s, 1) == 2 + 10
    assert table.turn(s) == (2, "PLAY") and table.direction(s) == 1


def test_h11_a_bounce_bounced_back_keeps_the_count_under_stacking(table):
    opts = {"reverse_bounce": True, "stacking": True}
    hands = {0: "R+2 RRev Y1", 1: "RRev Y2 Y3"}
    s = table.build(top="R4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "RRev"))
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (0, "RESPOND")
    s = table.ok(s, table.play(0, "RRev", uno=True))
    assert table.direction(s) == 1
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (1, "RESPOND")
    s = table.ok(s, "P1 ACCEPT")
    assert table.size(s, 1) == 2 + 2 and table.turn(s) == (2, "PLAY")


def test_h11_a_bounced_wild_draw_four_is_deflected_by_its_player(table):
    hands = {0: "W+4 G+2 Y1", 1: "GRev Y2", 3: "B1 B2"}
    s = table.build(top="R4", hands=hands, options={"reverse_bounce": True})
    s = table.ok(s, table.play(0, "W+4", "G"), table.play(1, "GRev"))
    assert table.turn(s) == (0, "RESPOND") and table.pending(s) == ("WILD_DRAW_FOUR", 4)
    s = table.ok(s, table.play(0, "G+2", uno=True))
    assert table.pending(s) == ("DRAW_TWO", 2)
    assert table.turn(s) == (3, "RESPOND")  # d = −1 after the bounce


def test_h12_two_left_a_reverse_is_a_skip(table):
    opts = {"play_to_last": True}
    hands = {0: "", 1: "RRev Y1 Y2", 2: "Y3 Y4"}
    s = table.build(seats=3, top="R4", hands=hands, current=1, dealer=2, finished=[0], options=opts)
    s = table.ok(s, table.play(1, "RRev"))
    assert table.turn(s) == (1, "PLAY")
    assert table.size(s, 2) == 2


def test_h12_the_last_finisher_s_draw_two_is_drawn_by_the_last_holder(table):
    opts = {"play_to_last": True}
    hands = {0: "", 1: "R+2", 2: "Y3 Y4"}
    s = table.build(seats=3, top="R4", hands=hands, current=1, dealer=2, finished=[0], options=opts)
    s = table.ok(s, table.play(1, "R+2"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.size(s, 2) == 2 + 2
    assert list(s.uno.finished) == [0, 1]
    assert list(s.match.deal_winners) == [0] and s.uno.round_loser == 2


def test_h13_a_last_draw_two_above_stage_one_refills_and_still_acts(table):
    s = table.build(
        top="R4", hands={0: "R+2", 1: "Y1 Y2"}, stages=[3, 7, 7, 7], options={"seven_rounds": True}
    )
    s = table.ok(s, table.play(0, "R+2"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.size(s, 0) == 2 and list(s.uno.stages) == [2, 7, 7, 7]
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (1, "RESPOND")


def test_h13_a_hand_emptied_at_stage_one_wins_the_round(table):
    hands = {0: "R5", 1: "Y1", 2: "Y2", 3: "Y3"}
    s = table.build(top="R4", hands=hands, stages=[1, 4, 7, 7], options={"seven_rounds": True})
    s = table.ok(s, table.play(0, "R5"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert list(s.match.deal_winners) == [0] and table.deal_points(s) == [6, 0, 0, 0]


def test_h13_a_penalty_draw_does_not_change_the_stage(table):
    s = table.build(
        top="R4",
        hands={0: "R+2 Y5", 1: "Y1 Y2"},
        stages=[7, 5, 7, 7],
        options={"seven_rounds": True},
    )
    s = table.ok(s, table.play(0, "R+2", uno=True), "P1 ACCEPT")
    assert table.size(s, 1) == 4 and list(s.uno.stages) == [7, 5, 7, 7]


# -- further interactions ---------------------------------------------------------------------


def test_u6_seed_guilty_inside_a_stack_reverts_to_the_previous_wild_draw_four(table):
    hands = {0: "W+4 R1 R2", 1: "W+4 Y1 Y2", 2: "B5 B6"}
    s = table.build(top="R4", hands=hands, options={"stacking": True})
    s = table.ok(s, table.play(0, "W+4", "Y"), table.play(1, "W+4", "G"), "P2 CHALLENGE")
    assert table.top(s) == "W+4" and table.colour(s) == "Y"  # P0's card and colour
    assert table.pending(s) is None and table.turn(s) == (2, "PLAY")
    assert list(s.uno.turn_lost) == [1]
    assert table.reason(s, table.play(2, "B5")) == "MUST_MATCH_COLOUR_OR_SYMBOL"


def test_u6_seed_guilty_mixed_stack_reverts_to_the_draw_two_and_cancels_it(table):
    opts = {"stacking": True, "stack_mixed": True}
    hands = {0: "R+2 Y1 Y2", 1: "W+4 R5 B1", 2: "R6 B5"}
    s = table.build(top="R4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "W+4", "G"))
    assert table.pending(s) == ("WILD_DRAW_FOUR", 6)
    s = table.ok(s, "P2 CHALLENGE")  # guilty: P1 held R5 when the colour was red
    assert table.hand(s, 1) >= table.bag("W+4 R5 B1") and table.size(s, 1) == 3 + 6
    assert table.top(s) == "R+2" and table.colour(s) == "R"
    assert table.pending(s) is None and table.turn(s) == (2, "PLAY")
    assert table.size(s, 2) == 2
    s = table.ok(s, table.play(2, "R6"))
    assert table.turn(s) == (3, "PLAY")


def test_d3_a_lost_turn_is_consumed_by_a_draw_two_aimed_at_it(table):
    hands = {0: "R2 W+4 G5", 1: "Y1 Y2", 3: "R+2 Y3"}
    s = table.build(top="R9", hands=hands, stock="B1 B2 B3 B4 B5 B6 …")
    s = table.ok(s, table.play(0, "W+4", "B"), "P1 CHALLENGE")
    assert list(s.uno.turn_lost) == [0]
    s = table.ok(s, "P1 DRAW", "P1 PASS", "P2 DRAW", "P2 PASS", table.play(3, "R+2"))
    assert table.size(s, 0) == 7 + 2  # drew at once: no answer from a lost turn
    assert list(s.uno.turn_lost) == [] and table.turn(s) == (1, "PLAY")


def test_u4_a_deflected_wild_draw_four_goes_on_as_a_plain_draw_two(table):
    hands = {0: "W+4 Y1 Y2", 1: "G+2 Y3", 2: "B+2 Y4", 3: "Y5 Y6"}
    s = table.build(top="R4", hands=hands)
    s = table.ok(s, table.play(0, "W+4", "G"), table.play(1, "G+2"), table.play(2, "B+2"))
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (3, "RESPOND")
    s = table.ok(s, "P3 ACCEPT")
    assert table.size(s, 3) == 2 + 2 and table.turn(s) == (0, "PLAY") and table.colour(s) == "B"


def test_h1_mattel_only_the_identical_card_answers_a_draw_two(table):
    hands = {0: "R+2 Y1 Y2", 1: "B+2 R+2 Y3"}
    s = table.build("mattel", top="R4", hands=hands, options={"jump_in": True})
    s = table.ok(s, table.play(0, "R+2"))
    assert table.turn(s) == (1, "RESPOND")
    assert table.reason(s, table.play(1, "B+2")) == "NOT_A_PERMITTED_ANSWER"
    s = table.ok(s, table.play(1, "R+2"))
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (2, "RESPOND")


def test_c_uno_3_an_accept_closes_the_jump_in_window(table):
    hands = {0: "R+2 Y1 Y2", 1: "Y3 Y4", 3: "R+2 B1"}
    s = table.build(top="R4", hands=hands, options={"jump_in": True})
    s = table.ok(s, table.play(0, "R+2"), "P1 ACCEPT")
    assert table.acting(s) == [2]
    assert table.reason(s, table.jump(3, "R+2")) == "NOT_YOUR_TURN"


def test_h5_twos_a_later_two_moves_the_end_of_the_silence(table):
    hands = {0: "R2 R5 Y1", 1: "B2 B6 Y2", 2: "B7 …", 3: "B8 …"}
    s = table.build(top="R4", hands=hands, options={"silent_trigger": "TWOS"})
    s = table.ok(s, table.play(0, "R2"), table.play(1, "B2"))
    assert s.uno.silence and s.uno.silence_seat == 1
    s = table.ok(s, table.play(2, "B7"), table.play(3, "B8"))
    assert s.uno.silence  # P0's turn began, but the latest 2 is P1's
    s = table.ok(s, "P0 DRAW", "P0 PASS")
    assert not s.uno.silence  # P1's turn began


def test_h10_a_final_plus_ten_is_drawn_and_counted(table):
    hands = {0: "X+10", 1: "Y1", 2: "X+10", 3: "Y2"}
    s = table.build(top="R4", hands=hands, options={"plus_ten": True}, stock="R9 R8 R7 R6 R5 …")
    s = table.ok(s, table.play(0, "X+10", "G"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.size(s, 1) == 1 + 10
    drawn = table.hand(s, 1)
    assert (
        table.deal_points(s)[0]
        == sum(
            int(t[1:]) if t[1:].isdigit() else 20 if t[0] in "RYGB" else 50
            for t in drawn.elements()
        )
        + 50
        + 2
    )


def test_h12_a_skip_passes_over_a_finished_seat(table):
    opts = {"play_to_last": True}
    hands = {0: "", 3: "RSkip Y1 Y2"}
    s = table.build(top="R4", hands=hands, current=3, finished=[0], options=opts)
    s = table.ok(s, table.play(3, "RSkip"))
    assert table.turn(s) == (2, "PLAY")  # P1 skipped, P0 gone


def test_h12_no_exchange_with_a_finished_seat(table):
    opts = {"play_to_last": True, "seven_zero": True}
    s = table.build(top="B3", hands={0: "B7 R1 R2", 1: ""}, finished=[1], options=opts)
    assert table.reason(s, table.play(0, "B7", swap=1)) == "SWAP_CHOICE_INVALID"
    assert table.reason(s, table.play(0, "B7", swap=2)) == "ACCEPTED"


def test_u16_a_call_without_a_second_to_last_card_costs_two(table):
    s = table.build(top="R4", hands={0: "R5 Y1 Y2"}, options={"misplay_penalty": True})
    s = table.ok(s, "P0 UNO")
    assert table.rule_events("FALSE_CALL")
    assert table.size(s, 0) == 3 + 2 and table.turn(s) == (0, "PLAY")


def test_2_8_a_challenged_final_wild_draw_four_counts_the_six_cards(table):
    hands = {0: "W+4", 1: "Y1 Y2", 2: "Y3", 3: "B0"}
    s = table.build(top="R2", hands=hands, stock="R9 R8 R7 R6 R5 R4 …")
    s = table.ok(s, table.play(0, "W+4", "R"), "P1 CHALLENGE")
    assert table.hand(s, 1) == table.bag("Y1 Y2 R9 R8 R7 R6 R5 R4")
    assert table.deal_points(s) == [1 + 2 + 9 + 8 + 7 + 6 + 5 + 4 + 3 + 0, 0, 0, 0]


def test_2_2_every_round_starts_clockwise(table):
    s = table.build(top="R3", hands={0: "R7", 1: "Y1"}, reversed=True)
    s = table.ok(s, table.play(0, "R7"))
    s = table.next_deal(s)
    assert table.direction(s) == 1 and table.turn(s) == (1, "PLAY")


def test_d3_a_final_wild_draw_four_on_a_seat_that_lost_its_turn_is_drawn_by_it(table):
    # P1 lost its next turn to a guilty challenge (U6 SEED); P0's last card, a
    # Wild Draw Four, targets P1: P1 draws the 4 (U13) at once (D3), the
    # effect is never passed on to P2.
    hands = {0: "W+4", 1: "Y1 Y2", 2: "Y3 Y4", 3: "Y5"}
    s = table.build(top="R2", hands=hands, turn_lost=[1], stock="R9 R8 R7 R6 …")
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.hand(s, 1) == table.bag("Y1 Y2 R9 R8 R7 R6")
    assert table.size(s, 2) == 2
    assert table.deal_points(s) == [1 + 2 + 9 + 8 + 7 + 6 + 3 + 4 + 5, 0, 0, 0]


def test_2_9_two_players_a_deflected_draw_two_comes_back(table):
    s = table.build(seats=2, top="R4", hands={0: "R+2 Y1 Y2", 1: "B+2 Y3"})
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "B+2", uno=True))
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (0, "RESPOND")
    s = table.ok(s, "P0 ACCEPT")
    assert table.size(s, 0) == 2 + 2 and table.turn(s) == (1, "PLAY")


def test_h4_four_draw_twos_in_a_row_the_fifth_player_draws_eight(table):
    hands = {0: "R+2 Y1 Y2", 1: "B+2 Y3", 2: "G+2 Y4", 3: "Y+2 Y5"}
    s = table.build(top="R4", hands=hands, options={"stacking": True})
    s = table.ok(
        s,
        table.play(0, "R+2"),
        table.play(1, "B+2", uno=True),
        table.play(2, "G+2", uno=True),
        table.play(3, "Y+2", uno=True),
    )
    assert table.pending(s) == ("DRAW_TWO", 8) and table.turn(s) == (0, "RESPOND")
    s = table.ok(s, "P0 ACCEPT")
    assert table.size(s, 0) == 2 + 8 and table.turn(s) == (1, "PLAY")


def test_h4_strict_a_stacked_wild_draw_four_needs_no_card_of_the_named_colour(table):
    opts = {"stacking": True, "wd4_enforcement": "STRICT"}
    s = table.build(top="R4", hands={0: "W+4 Y1 Y2", 1: "W+4 G1 R1"}, options=opts)
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert table.reason(s, table.play(1, "W+4", "B")) == "WILD_DRAW_FOUR_WITH_CURRENT_COLOUR"
    assert table.legal(s, 1) == {"ACCEPT"}  # the challenge follows STRICT: off
    s = table.build(top="R4", hands={0: "W+4 Y1 Y2", 1: "W+4 B1 R1"}, options=opts)
    s = table.ok(s, table.play(0, "W+4", "G"), table.play(1, "W+4", "B"))
    assert table.pending(s) == ("WILD_DRAW_FOUR", 8)


def test_h5_black_a_wild_that_finishes_a_seat_under_h12_still_imposes_silence(table):
    # H5 BLACK: silence from a Wild until the colour changes; H12: the round
    # goes on after P0 sheds his last card, and that card still acts.
    opts = {"play_to_last": True, "silent_trigger": "BLACK"}
    hands = {0: "W", 1: "G5 Y1", 2: "Y5 Y2", 3: "Y3 Y4"}
    s = table.build(top="R4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "W", "G"))
    assert list(s.uno.finished) == [0] and table.turn(s) == (1, "PLAY")
    assert s.uno.silence
    s = table.ok(s, table.play(1, "G5", uno=True))
    assert s.uno.silence  # still green
    s = table.ok(s, table.play(2, "Y5", uno=True))
    assert not s.uno.silence  # the colour changed


def test_h5_twos_a_two_that_finishes_a_seat_under_h12_silences_until_the_round_ends(table):
    opts = {"play_to_last": True, "silent_trigger": "TWOS"}
    hands = {0: "R2", 1: "R5 Y1 Y6", 2: "R6 Y2 Y7", 3: "R7 Y3 Y8"}
    s = table.build(top="R4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "R2"))
    assert list(s.uno.finished) == [0] and s.uno.silence
    s = table.ok(s, table.play(1, "R5"), table.play(2, "R6"), table.play(3, "R7"))
    assert s.uno.silence and table.turn(s) == (1, "PLAY")  # P0's turn never comes
    s = table.ok(s, "P2 REPORT 3")
    assert table.size(s, 3) == 2 + 2 and not s.uno.silence


def test_2_2_an_upturned_zero_or_two_has_no_house_effect(table):
    opts = {"seven_zero": True, "silent_trigger": "TWOS", "dealer_selection": "RANDOM"}
    seen = set()
    for seed in range(400):
        s = table.new("seed", 4, opts, seed)
        top = table.top(s)
        if top[1:] in ("0", "2"):
            seen.add(top[1:])
            assert all(table.size(s, seat) == 7 for seat in range(4))
            assert not s.uno.silence
            assert table.turn(s) == ((s.uno.dealer + 1) % 4, "PLAY")
        if seen == {"0", "2"}:
            break
    assert seen == {"0", "2"}


def test_h7_h14_a_lone_zero_makes_its_holder_the_lazy_loser(table):
    opts = {"scoring_method": "LAZY", "zero_worth_50": True}
    hands = {0: "R7", 1: "R9 R8 B9 B8", 2: "B0", 3: "Y1"}
    s = table.build(top="R3", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "R7"))
    assert table.deal_points(s) == [0, 34, 50, 1]
    assert s.uno.round_loser == 2
    s = table.next_deal(s)
    assert s.uno.dealer == 2 and table.turn(s) == (0, "PLAY")


def test_h16_a_stacked_penalty_of_four_waits_for_ready(table):
    opts = {"stacking": True, "politeness_ready": True}
    hands = {0: "R+2 Y1 Y2", 1: "B+2 Y3 Y4", 2: "Y5 Y6"}
    s = table.build(top="R4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "B+2"), "P2 ACCEPT")
    assert table.size(s, 2) == 2 + 4
    assert table.acting(s) == [2] and table.legal(s, 2) == {"READY"}
    s = table.ok(s, "P2 READY")
    assert table.turn(s) == (3, "PLAY") and table.acting(s) == [3]


def test_h16_an_innocent_challenge_waits_for_the_challenger_s_ready(table):
    opts = {"politeness_ready": True}
    s = table.build(top="R9", hands={0: "G5 W+4 B1", 1: "Y1 Y2"}, options=opts)
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 CHALLENGE")
    assert table.size(s, 1) == 2 + 6
    assert table.acting(s) == [1] and table.legal(s, 1) == {"READY"}
    s = table.ok(s, "P1 READY")
    assert table.turn(s) == (2, "PLAY")


def test_u13_a_final_skip_under_jump_in_and_bounce_ends_the_round_at_once(table):
    opts = {"jump_in": True, "reverse_bounce": True}
    s = table.build(top="R4", hands={0: "RSkip", 1: "RRev RSkip Y1"}, options=opts)
    s = table.ok(s, table.play(0, "RSkip"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.size(s, 1) == 3 and list(s.match.deal_winners) == [0]


def test_h4_mattel_stacking_a_draw_two_never_answers_a_wild_draw_four(table):
    hands = {0: "W+4 Y1 Y2", 1: "G+2 W+4 B1", 2: "B2 B3"}
    s = table.build("mattel", top="R4", hands=hands, options={"stacking": True})
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert table.reason(s, table.play(1, "G+2")) == "NOT_A_PERMITTED_ANSWER"  # U4 NONE
    s = table.ok(s, table.play(1, "W+4", "Y"))
    assert table.pending(s) == ("WILD_DRAW_FOUR", 8) and table.turn(s) == (2, "RESPOND")


def test_h1_two_players_a_skip_waits_and_the_identical_skip_sends_it_back(table):
    opts = {"jump_in": True}
    s = table.build(seats=2, top="R4", hands={0: "RSkip Y1 Y2", 1: "RSkip B1"}, options=opts)
    s = table.ok(s, table.play(0, "RSkip"))
    assert table.pending(s) == ("SKIP", 0) and table.turn(s) == (1, "RESPOND")
    assert table.legal(s, 1) == {"RSkip", "RSkip UNO", "ACCEPT"}
    accepted = table.ok(s, "P1 ACCEPT")
    assert table.turn(accepted) == (0, "PLAY")
    s = table.ok(s, table.play(1, "RSkip", uno=True))
    assert table.turn(s) == (0, "RESPOND")
    s = table.ok(s, "P0 ACCEPT")
    assert table.turn(s) == (1, "PLAY")


def test_h10_a_plus_ten_is_never_refused_by_strict_nor_jumped_in_on(table):
    opts = {"plus_ten": True, "wd4_enforcement": "STRICT", "jump_in": True}
    s = table.build(top="R4", hands={0: "X+10 R1 R2", 2: "X+10 Y1"}, options=opts)
    s = table.ok(s, table.play(0, "X+10", "G"))
    assert table.size(s, 1) == 5 + 10 and table.turn(s) == (2, "PLAY")
    assert table.acting(s) == [2]
    assert table.reason(s, table.jump(3, "X+10", "B")) == "NOT_YOUR_TURN"
