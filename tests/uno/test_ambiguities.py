"""Every resolution of §2.13 (B1 … B35) pinned by a test, named after its id;
and the engine decisions (D*) no other module names.

Where a §2.14 situation already pins a resolution, the test here names it
and checks the resolution's own point (the situation file has the row)."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.engine import api
from croupier.engine.errors import FailedPrecondition
from croupier.engine.uno_cards import parse_uno_card
from croupier.games.uno.rules import rules_for
from croupier.games.uno.scoring import hand_points, lazy_loser
from croupier.v1 import game_pb2, service_pb2

from .conftest import reason_name, text_of


def first_card_round(table, preset, card, options=None, seats=4):
    """The first seed (dealer drawn by lot) whose first card is `card`."""
    opts = {"dealer_selection": "RANDOM", **(options or {})}
    for seed in range(3000):
        state = table.new(preset, seats, opts, seed)
        if state.uno.discard[0] == parse_uno_card(card):
            return state
    raise AssertionError(f"no seed turns {card} first")


def test_b01_a_draw_two_answers_a_draw_two_in_the_seed_rules_only(table):
    hands = {0: "R+2 …", 1: "G+2 Y1 Y2"}
    seed = table.ok(table.build(top="R4", hands=hands), table.play(0, "R+2"))
    assert "G+2" in table.legal(seed, 1)
    mattel = table.ok(table.build("mattel", top="R4", hands=hands), table.play(0, "R+2"))
    assert table.turn(mattel) == (2, "PLAY")  # MATTEL: P1 drew and was skipped


def test_b02_a_draw_two_of_the_named_colour_answers_a_wild_draw_four(table):
    hands = {0: "W+4 …", 1: "G+2 B+2 Y1"}
    seed = table.ok(table.build(top="R4", hands=hands), table.play(0, "W+4", "G"))
    assert table.legal(seed, 1) == {"G+2", "ACCEPT", "CHALLENGE"}
    mattel = table.ok(table.build("mattel", top="R4", hands=hands), table.play(0, "W+4", "G"))
    assert table.legal(mattel, 1) == {"ACCEPT", "CHALLENGE"}


@pytest.mark.parametrize("card", ["RSkip", "G+2", "BRev", "W"])
def test_b03_action_first_cards_act_only_under_mattel(table, card):
    numbers = {parse_uno_card(f"{c}{n}") for c in "RYGB" for n in range(10)}
    for seed in range(40):
        state = table.new("seed", 4, {"dealer_selection": "RANDOM"}, seed)
        assert state.uno.discard[-1] in numbers
    state = first_card_round(table, "mattel", card)
    assert table.top(state) == card


def test_b04_mattel_reverse_first_the_dealer_plays_first_or_his_right(table):
    state = first_card_round(table, "mattel", "BRev")
    dealer = state.uno.dealer
    assert table.direction(state) == -1
    assert table.turn(state) == (dealer, "PLAY")
    state = first_card_round(table, "mattel", "BRev", {"reverse_first_card": "RIGHT_OF_DEALER"})
    assert table.turn(state) == ((state.uno.dealer - 1) % 4, "PLAY")


def deal_with_first(table, state, card, tries=4000):
    """NextDeal from `state` with the first rng counter (from the state's own)
    that turns `card` first, and its response (state and events)."""
    want = parse_uno_card(card)
    for k in range(tries):
        s = type(state)()
        s.CopyFrom(state)
        s.rng_counter = state.rng_counter + k
        response = api.next_deal(service_pb2.NextDealRequest(state=s))
        if response.state.uno.discard[0] == want:
            return response
    raise AssertionError(f"no counter turns {card} first")


def lazy_round_over(table, options=None):
    """H7 (LAZY): P2 goes out, P0 holds the highest hand (W: 50), so the
    next round is dealt by P0 (the loser) and led by P2 (the winner): the
    leader does not sit at the dealer's left."""
    opts = {"scoring_method": "LAZY", **(options or {})}
    hands = {0: "W Y1", 1: "Y2", 2: "G6", 3: "B3"}
    s = table.build("mattel", top="G5", hands=hands, current=2, options=opts)
    s = table.ok(s, table.play(2, "G6"))
    assert s.uno.round_loser == 0 and list(s.match.deal_winners) == [2]
    return s


def _deal_started(response):
    return next(e for e in response.events if e.kind == game_pb2.EVENT_KIND_DEAL_STARTED)


def test_b04_u2_under_h7_a_reverse_first_card_the_dealer_plays_first(table):
    # U2 DEALER_FIRST names the dealer (P0, H7's loser), not the seat before
    # the leader (P2, H7's winner): the old code gave P1 the turn.
    response = deal_with_first(table, lazy_round_over(table), "RRev")
    s = response.state
    assert s.uno.dealer == 0 and table.direction(s) == -1
    assert table.turn(s) == (0, "PLAY")
    assert _deal_started(response).target_seat == 0


def test_b04_u2_under_h7_a_reverse_first_card_right_of_dealer(table):
    # RIGHT_OF_DEALER: the seat to the dealer's right, P3 (the old code: P0).
    options = {"reverse_first_card": "RIGHT_OF_DEALER"}
    response = deal_with_first(table, lazy_round_over(table, options), "RRev")
    s = response.state
    assert s.uno.dealer == 0 and table.direction(s) == -1
    assert table.turn(s) == (3, "PLAY")
    assert _deal_started(response).target_seat == 3


def test_b04_u2_under_h12_a_reverse_first_card_the_last_holder_deals_and_plays(table):
    # H12 (LAZY follows): P2 finished first, P1 second; P3 sheds its last
    # card, so P0, the last holder, loses and deals, and P2 leads. A Reverse
    # first card (DEALER_FIRST): the dealer P0 plays first (the old code: P1).
    st = table.build("mattel", top="G5", hands={0: "W Y1", 1: "", 2: "", 3: "G8"}, current=3,
                     finished=[2, 1], options={"play_to_last": True})  # fmt: skip
    st = table.ok(st, table.play(3, "G8"))
    assert st.uno.round_loser == 0 and list(st.match.deal_winners) == [2]
    s = deal_with_first(table, st, "YRev").state
    assert s.uno.dealer == 0 and table.direction(s) == -1
    assert table.turn(s) == (0, "PLAY")


@pytest.mark.parametrize(("card", "turn"), [("GSkip", (3, "PLAY")), ("W", (2, "NAME_COLOUR")),
                                            ("Y+2", (3, "PLAY")), ("R7", (2, "PLAY"))])  # fmt: skip
def test_b04_under_h7_the_other_first_cards_act_on_the_leader(table, card, turn):
    # U1: a Skip or +2 acts on the leader (H7's winner P2), a Wild is named
    # by him; unchanged by the U2 fix. DEAL_STARTED names who plays first.
    response = deal_with_first(table, lazy_round_over(table), card)
    assert table.turn(response.state) == turn
    assert _deal_started(response).target_seat == turn[0]


@pytest.mark.parametrize("rev", ["DEALER_FIRST", "RIGHT_OF_DEALER"])
@pytest.mark.parametrize("n", [2, 3, 5])
def test_b04_deal_started_names_the_seat_that_plays_first(table, n, rev):
    # R2's normal case (the leader at the dealer's left): the turn after a
    # Reverse first card is what it always was (the dealer, or his right;
    # D9 with two players), and DEAL_STARTED's target_seat names that seat
    # (it named the leader, P1, who does not play first).
    hands = {k: ["Y1", "Y2", "Y3", "Y4", "Y5"][k] for k in range(n)}
    hands[1] = "G6"
    s = table.build("mattel", seats=n, top="G5", hands=hands, current=1, dealer=n - 1,
                    options={"reverse_first_card": rev})  # fmt: skip
    s = table.ok(s, table.play(1, "G6"))
    response = deal_with_first(table, s, "BRev")
    nxt = response.state
    assert nxt.uno.dealer == 0 and table.direction(nxt) == -1
    expected = 0 if n == 2 or rev == "DEALER_FIRST" else n - 1
    assert table.turn(nxt) == (expected, "PLAY")
    assert _deal_started(response).target_seat == expected


def test_b05_mattel_wild_first_the_first_player_names_the_colour_or_it_returns(table):
    state = first_card_round(table, "mattel", "W")
    first = (state.uno.dealer + 1) % 4
    assert table.turn(state) == (first, "NAME_COLOUR")
    assert table.legal(state, first) == {"COLOUR R", "COLOUR Y", "COLOUR G", "COLOUR B"}
    state = table.ok(state, table.move(first, "COLOUR G"))
    assert table.turn(state) == (first, "PLAY")
    assert table.colour(state) == "G"
    for seed in range(300):
        state = table.new("mattel", 4, {"wild_first_card": "RETURN"}, seed)
        assert table.top(state) not in ("W", "W+4")


def test_b06_mattel_draw_two_first_the_first_player_draws_two_and_is_skipped(table):
    state = first_card_round(table, "mattel", "G+2")
    first = (state.uno.dealer + 1) % 4
    assert table.size(state, first) == 7 + 2
    assert table.turn(state) == ((first + 1) % 4, "PLAY")


def test_b07_a_player_may_draw_holding_a_legal_card(table):
    s = table.build(top="G2", hands={0: "G9 R1"})
    assert table.legal(s, 0) == {"G9", "G9 UNO", "DRAW"}


def test_b08_a_legal_drawn_card_may_be_kept(table):
    s = table.ok(table.build(top="G2", hands={0: "R5 Y7"}, stock="G5 …"), "P0 DRAW")
    assert table.legal(s, 0) == {"G5", "PASS"}


def test_b09_challenge_outcomes(table):
    hands = {0: "R2 W+4 G5", 1: "Y1 Y2 Y3"}
    s = table.build(top="R9", hands=hands, stock="B1 B2 B3 B4 …")
    s = table.ok(s, table.play(0, "W+4", "B"), "P1 CHALLENGE")
    # SEED, guilty: the card goes back, he draws 4, top and colour revert,
    # he loses his next turn; the challenger takes a normal turn.
    assert table.hand(s, 0) == table.bag("R2 G5 W+4 B1 B2 B3 B4")
    assert table.top(s) == "R9" and table.colour(s) == "R"
    assert list(s.uno.turn_lost) == [0]
    assert table.turn(s) == (1, "PLAY")
    s = table.ok(s, "P1 DRAW", "P1 PASS", "P2 DRAW", "P2 PASS", "P3 DRAW", "P3 PASS")
    assert table.turn(s) == (1, "PLAY")  # P0's turn was lost
    assert list(s.uno.turn_lost) == []
    mattel = table.build(top="R9", hands=hands, options={"challenge_outcome": "MATTEL"})
    mattel = table.ok(mattel, table.play(0, "W+4", "B"), "P1 CHALLENGE")
    assert table.top(mattel) == "W+4" and table.colour(mattel) == "B"
    assert table.turn(mattel) == (1, "PLAY")


def test_b10_strict_enforcement_refuses_the_bluff(table):
    s = table.build(top="R9", hands={0: "R2 W+4"}, options={"wd4_enforcement": "STRICT"})
    assert "W+4>B" not in table.legal(s, 0)
    assert not s.options.uno.challenge_enabled  # C-UNO-6: it follows STRICT


def test_b11_a_final_wild_draw_four_is_always_innocent(table):
    s = table.ok(table.build(top="R2", hands={0: "W+4"}), table.play(0, "W+4", "G"))
    s = table.ok(s, "P1 CHALLENGE")
    assert not table.rule_events("CHALLENGED")[0].uno.guilty


def test_b12_uno_call_timing_is_an_option(table):
    for timing, offender_acts in (("DURING_PLAY", False), ("UNTIL_CAUGHT", True)):
        s = table.build(top="R7", hands={0: "R3 G5"}, options={"uno_call_timing": timing})
        s = table.ok(s, table.play(0, "R3"))
        assert (0 in table.acting(s)) == offender_acts


def test_b13_no_uno_obligation_from_an_exchange(table):
    s = table.build(top="Y3", hands={0: "Y0 R1 R2", 3: "G4"}, options={"seven_zero": True})
    s = table.ok(s, table.play(0, "Y0"))
    assert table.size(s, 0) == 1  # P3's single card passed to P0
    assert not s.uno.HasField("uno_offender")


def test_b14_any_play_or_draw_closes_the_catch_window_a_jump_in_too(table):
    opts = {"jump_in": True}
    s = table.build(top="G4", hands={0: "G7 Y1", 2: "G7 B1 B2"}, options=opts)
    s = table.ok(s, table.play(0, "G7"))
    assert s.uno.uno_offender == 0
    s = table.ok(s, table.jump(2, "G7"))
    assert not s.uno.HasField("uno_offender")
    assert table.reason(s, "P3 CATCH 0") == "NOTHING_TO_CATCH"
    s = table.build(top="G4", hands={0: "G7 Y1"}, options=opts)
    s = table.ok(s, table.play(0, "G7"), "P1 DRAW")
    assert table.reason(s, "P3 CATCH 0") == "NOT_YOUR_TURN"


def test_b15_stacking_mixed_types_challenges_and_a_second_own_card(table):
    stack = {"stacking": True}
    s = table.build(top="R4", hands={0: "R+2 …", 1: "W+4 Y1 Y2"}, options=stack)
    s = table.ok(s, table.play(0, "R+2"))
    assert table.reason(s, table.play(1, "W+4", "G")) == "NOT_A_PERMITTED_ANSWER"
    mixed = table.build(top="R4", hands={0: "R+2 …", 1: "W+4 Y1 Y2"},
                        options={**stack, "stack_mixed": True})  # fmt: skip
    mixed = table.ok(mixed, table.play(0, "R+2"), table.play(1, "W+4", "G"))
    assert table.pending(mixed) == ("WILD_DRAW_FOUR", 6)
    # Inside a stack only the latest Wild Draw Four is challenged, for the total.
    hands = {0: "W+4 R1 R2", 1: "W+4 Y1 Y2", 2: "B5 B6"}
    s = table.build(top="R4", hands=hands, options=stack)
    s = table.ok(s, table.play(0, "W+4", "Y"), table.play(1, "W+4", "G"))
    assert table.pending(s) == ("WILD_DRAW_FOUR", 8)
    s = table.ok(s, "P2 CHALLENGE")  # P1 held yellow when the colour was yellow: guilty
    assert table.size(s, 1) == 2 + 1 + 8  # his card back and the whole total
    assert table.turn(s) == (2, "PLAY")
    # One card per play; a second identical card is a jump-in of its own (H2).
    h2 = {**stack, "jump_in": True, "jump_in_own_card": True}
    s = table.build(top="R4", hands={0: "R+2 …", 1: "B+2 B+2 Y1"}, options=h2)
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "B+2"), table.jump(1, "B+2"))
    assert table.pending(s) == ("DRAW_TWO", 6)
    assert table.turn(s) == (2, "RESPOND")


def test_b16_a_jump_in_over_a_pending_penalty_supersedes_it(table):
    for stacking, count in ((False, 2), (True, 4)):
        opts = {"jump_in": True, "stacking": stacking}
        s = table.build(top="R4", hands={0: "R+2 …", 1: "Y1 Y2", 2: "R+2 B1"}, options=opts)
        s = table.ok(s, table.play(0, "R+2"), table.jump(2, "R+2"))
        assert table.size(s, 1) == 2  # skipped over, nothing drawn
        assert table.pending(s) == ("DRAW_TWO", count)
        assert table.turn(s) == (3, "RESPOND")


def test_b17_a_reverse_bounces_a_skip_and_a_wild_draw_four_unchanged(table):
    opts = {"reverse_bounce": True, "stacking": True}
    s = table.build(top="R4", hands={0: "RSkip Y1 Y2", 1: "RRev Y3"}, options=opts)
    s = table.ok(s, table.play(0, "RSkip"), table.play(1, "RRev"))
    assert table.pending(s) == ("SKIP", 0) and table.turn(s) == (0, "RESPOND")
    s = table.ok(s, "P0 ACCEPT")
    assert table.turn(s) == (3, "PLAY")
    s = table.build(top="R4", hands={0: "W+4 Y1 Y2", 1: "GRev BRev Y3"}, options=opts)
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert table.reason(s, table.play(1, "BRev")) == "NOT_A_PERMITTED_ANSWER"
    s = table.ok(s, table.play(1, "GRev"))
    assert table.pending(s) == ("WILD_DRAW_FOUR", 4)  # not cumulative
    assert "CHALLENGE" not in table.legal(s, 0)  # nobody challenges his own card


def test_b18_a_seven_names_its_exchange(table):
    s = table.build(top="B3", hands={0: "B7 R1 R2"}, options={"seven_zero": True})
    assert table.reason(s, table.play(0, "B7")) == "SWAP_CHOICE_INVALID"
    assert table.legal(s, 0) >= {"B7 SWAP 1", "B7 SWAP 2", "B7 SWAP 3"}


def test_b19_twos_silence_until_the_two_players_next_turn_with_exemptions(table):
    opts = {"silent_trigger": "TWOS"}
    hands = {0: "R2 R5 Y1", 1: "R6 …", 2: "R7 …", 3: "R8 …"}
    s = table.build(top="R4", hands=hands, options=opts)
    s = table.ok(s, table.play(0, "R2"))
    assert s.uno.silence and s.uno.silence_seat == 0
    assert table.acting(s) == [0, 1, 2, 3]
    s = table.ok(s, table.play(1, "R6"), table.play(2, "R7"))
    assert s.uno.silence
    s = table.ok(s, table.play(3, "R8"))
    assert not s.uno.silence  # P0's turn began
    s = table.ok(table.build(top="R4", hands=hands, options=opts), table.play(0, "R2"))
    s = table.ok(s, "P3 REPORT 2")
    assert table.size(s, 2) == 4 + 2 and not s.uno.silence


def test_b20_a_five_exchange_is_optional_and_blind(table):
    s = table.build(top="R3", hands={0: "R5 G2"}, options={"swap_on_five": True})
    assert {"R5 UNO", "R5 SWAP 1 G2", "R5 SWAP 3 G2"} <= table.legal(s, 0)


def test_b21_lazy_loser_ties_go_nearest_clockwise_from_the_winner():
    from croupier.v1 import uno_pb2

    rules = rules_for(uno_pb2.UnoOptions(scoring_method=uno_pb2.UNO_SCORING_METHOD_LAZY))
    cards = {t: parse_uno_card(t) for t in ("R9", "B9", "G1")}
    hands = [[cards["R9"]], [cards["G1"]], [], [cards["B9"]]]
    assert lazy_loser(hands, winner=2, rules=rules) == 3
    assert lazy_loser(hands, winner=3, rules=rules) == 0


@pytest.mark.parametrize(
    ("winner", "hands", "loser"),
    [(2, {2: "G2", 0: "R9", 1: "G1", 3: "B9"}, 3), (3, {3: "G2", 0: "R9", 1: "G1", 2: "B9"}, 0)],
)
def test_b21_lazy_the_nearest_tied_seat_clockwise_loses(table, winner, hands, loser):
    # B21 through a round's end (H7): two seats hold 9, the highest; the tied
    # seat nearest clockwise from the winner loses the round (and deals next).
    s = table.build(top="G5", hands=hands, current=winner, options={"scoring_method": "LAZY"})
    s = table.ok(s, table.play(winner, "G2"))
    assert list(s.match.deal_winners) == [winner]
    assert s.uno.round_loser == loser


def test_b22_time_up_every_seat_that_has_not_slapped_draws_two(table):
    s = table.build(top="R4", hands={0: "R5 G1"}, options={"uno_in_centre": True})
    s = table.ok(s, table.play(0, "R5", uno=True), "P1 SLAP", "P0 TIME")
    assert table.size(s, 1) == 5
    assert table.size(s, 2) == table.size(s, 3) == 5 + 2


def test_b23_the_colour_wheel(table):
    opts = {"colour_rotation": True}
    wheel = {("R", False): "B", ("B", False): "G", ("G", False): "Y", ("Y", False): "R"}
    wheel |= {("R", True): "Y", ("Y", True): "G", ("G", True): "B", ("B", True): "R"}
    for (colour, reversed_), after in wheel.items():
        s = table.build(top=f"{colour}4", hands={0: "W Y1"}, reversed=reversed_, options=opts)
        assert table.colour(table.ok(s, table.play(0, "W"))) == after


def test_b24_plus_ten_is_wild_like_skips_scores_50_and_stacks_only_on_itself(table):
    opts = {"plus_ten": True}
    s = table.build(top="R4", hands={0: "X+10 Y1", 1: "B+2 Y2"}, options=opts)
    s = table.ok(s, table.play(0, "X+10", "B"))
    assert table.size(s, 1) == 2 + 10 and table.turn(s) == (2, "PLAY")
    assert table.colour(s) == "B"
    assert hand_points([parse_uno_card("X+10")], rules_for(s.options.uno)) == 50
    stack = {**opts, "stacking": True}
    s = table.build(top="R4", hands={0: "X+10 Y1", 1: "X+10 B+2 Y2"}, options=stack)
    s = table.ok(s, table.play(0, "X+10", "B"))
    assert table.reason(s, table.play(1, "B+2")) == "NOT_A_PERMITTED_ANSWER"
    s = table.ok(s, table.play(1, "X+10", "G"))
    assert table.pending(s) == ("PLUS_TEN", 20)


def test_b25_play_to_the_last_placement_only(table):
    opts = {"play_to_last": True}
    s = table.build(seats=3, top="R4", hands={0: "R5", 1: "R6", 2: "Y1 Y2"}, dealer=2,
                    options=opts)  # fmt: skip
    assert s.options.uno.scoring_method == 3  # LAZY follows play_to_last (C-UNO-6)
    s = table.ok(s, table.play(0, "R5"))
    assert list(s.uno.finished) == [0] and table.turn(s) == (1, "PLAY")
    s = table.ok(s, table.play(1, "R6"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert list(s.match.deal_winners) == [0]
    assert s.uno.round_loser == 2


def test_b26_seven_rounds_calls_every_time_and_refills_from_the_stock(table):
    opts = {"seven_rounds": True}
    s = table.build(top="R4", hands={0: "R5"}, stages=[3, 7, 7, 7], options=opts)
    s = table.ok(s, table.play(0, "R5"))
    assert table.size(s, 0) == 2 and list(s.uno.stages) == [2, 7, 7, 7]
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    s = table.build(top="R4", hands={0: "R5 R6"}, stages=[2, 7, 7, 7], options=opts)
    s = table.ok(s, table.play(0, "R5"))
    assert s.uno.uno_offender == 0  # a penultimate play at any stage


def test_b27_every_zero_with_any_zero_scope(table):
    s = table.new(options={"zero_worth_50": True, "zero50_scope": "ANY_ZERO"})
    hand = [parse_uno_card(t) for t in ("B0", "R0", "R3")]
    assert hand_points(hand, rules_for(s.options.uno)) == 103


def test_b28_h2o_needs_penalty_limit(table):
    s = table.new(options={"h2o_finish_bonus": True})
    assert s.options.uno.scoring_method == 2  # PENALTY_LIMIT follows H15


def test_b29_draws_from_two_empty_piles_are_forfeited(table):
    s = table.build(top="R4", hands={0: "Y1", 1: "Y2", 2: "Y3"}, stock="")
    # Every other card in P3's hand: stock and discard pile (but its top) empty.
    s.uno.hands[3].cards.extend(s.uno.discard[:-1])
    del s.uno.discard[:-1]
    s = table.ok(s, "P0 DRAW")
    assert table.size(s, 0) == 1
    assert table.turn(s) == (1, "PLAY")


def test_b30_everyone_at_the_limit_loses(table):
    hands = {0: "R5", 1: "W W", 2: "W+4 W+4", 3: "Y1"}
    s = table.build(top="R4", hands=hands, scores=[0, 150, 150, 0],
                    options={"scoring_method": "PENALTY_LIMIT"})  # fmt: skip
    s = table.ok(s, table.play(0, "R5"))
    assert table.match_phase(s) == "MATCH_OVER"
    assert sorted(s.match.winners) == [0, 3]


def test_b32_a_final_draw_card_under_stacking_draws_the_total(table):
    s = table.build(top="R4", hands={0: "R+2 …", 1: "B+2", 2: "Y1 Y2"}, options={"stacking": True})
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "B+2"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.size(s, 2) == 2 + 4


def test_b35_any_wild_jumps_in_on_a_wild_and_names_a_new_colour(table):
    s = table.build(top="R4", hands={0: "W Y1", 2: "W B1"}, options={"jump_in": True})
    s = table.ok(s, table.play(0, "W", "G"), table.jump(2, "W", "R"))
    assert table.colour(s) == "R"
    assert table.turn(s) == (3, "PLAY")


def test_b31_a_two_player_reverse_is_a_skip_unless_u12_is_off(table):
    s = table.build(seats=2, top="R4", hands={0: "RRev G1", 1: "Y1 Y2"})
    assert table.turn(table.ok(s, table.play(0, "RRev"))) == (0, "PLAY")
    off = table.build(seats=2, top="R4", hands={0: "RRev G1", 1: "Y1 Y2"},
                      options={"two_player_reverse_is_skip": False})  # fmt: skip
    off = table.ok(off, table.play(0, "RRev"))
    assert table.turn(off) == (1, "PLAY") and table.direction(off) == -1


def test_b33_after_a_misplay_the_turn_goes_on(table):
    s = table.build(top="G2", hands={0: "R5 G8"}, options={"misplay_penalty": True})
    s = table.ok(s, table.play(0, "R5"), table.play(0, "G8"))
    assert table.turn(s) == (1, "PLAY")


def test_b34_an_unusable_first_card_goes_back_at_a_random_place(table):
    from croupier.games.uno import deal as dealing
    from croupier.games.uno.table import Table as Round

    places = set()
    for seed in range(20):
        state = table.new(seed=seed)
        stock = [parse_uno_card(t) for t in ("RSkip", "Y4", "B1", "G2", "R3", "Y5")]
        dealing._first_card(Round(state), stock)
        places.add(stock.index(parse_uno_card("RSkip")))
    assert len(places) > 2


# -- engine decisions no other module names (RULES.md "Engine decisions") ------------------------


def test_d7_the_revealed_hand_is_the_hand_at_the_challenge_shown_to_the_challenger_only(table):
    """D7 (R7): P1 challenges P0's Wild Draw Four; P0 is guilty (R2 is of the
    colour before it), so the card goes back and he draws 4 — yet P1 is shown
    the hand as it was at the challenge, R2 G5, in his view alone, until the
    next move of anyone."""
    s = table.build(top="R9", hands={0: "R2 W+4 G5", 1: "Y1 Y2 Y3"}, stock="B1 B2 B3 B4 …")
    s = table.ok(s, table.play(0, "W+4", "B"), "P1 CHALLENGE")
    assert table.hand(s, 0) == table.bag("R2 G5 W+4 B1 B2 B3 B4")
    shown = table.view(s, 1).uno.reveal
    assert shown.owner == 0
    assert Counter(text_of(v) for v in shown.cards) == table.bag("R2 G5")
    for seat in (0, 2, 3):
        assert not table.view(s, seat).uno.HasField("reveal")
    (revealed,) = table.rule_events("HAND_REVEALED")
    assert list(revealed.visible_to) == [1]
    assert Counter(text_of(v) for v in revealed.uno_cards) == table.bag("R2 G5")
    s = table.ok(s, "P1 DRAW")
    for seat in range(4):
        assert not table.view(s, seat).uno.HasField("reveal")


def test_d10_under_h9_a_wild_first_card_is_named_by_the_first_player(table):
    """D10: under H9 a black card names no colour (the wheel turns from the
    current one, B23), but a Wild turned first under U1a FIRST_PLAYER_CHOOSES
    has no colour to turn from: the first player names it, any of the four."""
    state = first_card_round(table, "mattel", "W", {"colour_rotation": True})
    first = (state.uno.dealer + 1) % 4
    assert table.turn(state) == (first, "NAME_COLOUR")
    assert table.colour(state) == "-"
    assert table.legal(state, first) == {"COLOUR R", "COLOUR Y", "COLOUR G", "COLOUR B"}
    state = table.ok(state, table.move(first, "COLOUR Y"))
    assert table.turn(state) == (first, "PLAY")
    assert (table.top(state), table.colour(state)) == ("W", "Y")


def test_d12_a_report_names_another_seat_still_in_the_round_and_is_taken_as_said(table):
    """D12 (H5): during a silence every seat in the round may report any
    other seat still in it — the engine cannot hear who spoke, so it takes
    the back end's word: the reported seat draws 2 and the silence ends. A
    seat never reports itself nor a seat out of the round (NO_SILENCE, H5),
    and a seat whose only moves are reports has no default (D14)."""
    opts = {"silent_trigger": "TWOS"}
    hands = {0: "R2 R5 Y1", 1: "Y6 Y7 Y8", 2: "B6 B7 B8", 3: "G6 G7 G8"}
    s = table.ok(table.build(top="R4", hands=hands, options=opts), table.play(0, "R2"))
    assert table.acting(s) == [0, 1, 2, 3]
    assert table.legal(s, 3) == {"REPORT 0", "REPORT 1", "REPORT 2"}
    assert {m for m in table.legal(s, 1) if m.startswith("REPORT")} == {
        "REPORT 0",
        "REPORT 2",
        "REPORT 3",
    }
    refused = table.apply(s, table.move(3, "REPORT 3"))
    assert not refused.accepted
    assert (reason_name(refused.rejection), refused.rejection.rule) == ("NO_SILENCE", "H5")
    with pytest.raises(FailedPrecondition):
        table.default(s, 3)
    after = table.ok(s, "P3 REPORT 2")
    assert table.hand(after, 2) == table.bag("B6 B7 B8") + table.bag(" ".join(table.stock(s)[:2]))
    assert not after.uno.silence
    assert table.turn(after) == (1, "PLAY")
    # H12: a seat that has finished is out of the round, and out of reach.
    opts = {"silent_trigger": "TWOS", "play_to_last": True}
    hands = {0: "R2 R5 Y1", 1: "Y6 Y7 Y8", 2: "", 3: "G6 G7 G8"}
    s = table.build(top="R4", hands=hands, finished=[2], options=opts)
    s = table.ok(s, table.play(0, "R2"))
    assert table.acting(s) == [0, 1, 3]
    assert table.legal(s, 3) == {"REPORT 0", "REPORT 1"}
    refused = table.apply(s, table.move(3, "REPORT 2"))
    assert (reason_name(refused.rejection), refused.rejection.rule) == ("NO_SILENCE", "H5")


@pytest.mark.parametrize(
    ("card", "options", "shown"),
    [
        ("R5", {"jump_in": True}, True),  # H1, a card with a twin
        ("R5", {}, False),  # no H1
        ("W+4", {"jump_in": True}, False),  # H1, but nobody jumps in on a W+4 (D1)
    ],
)
def test_d15_a_view_shows_the_jump_in_window_only_when_seats_may_jump_in(
    table, card, options, shown
):
    """D15: the state marks every card that lands (C-UNO-3), whatever the
    options; a view shows the window open (`jump_in_open`, "jump-in open")
    only as the acting seats do: under H1, on a card of D1. The next turn
    action closes it (C-UNO-3)."""
    s = table.build(top="R4", hands={0: f"{card} Y1 Y2 Y3"}, options=options)
    s = table.ok(s, table.play(0, card, "G" if card == "W+4" else None))
    assert s.uno.jump_in_open
    assert table.acting(s) == ([1, 2, 3] if shown else [1])
    for seat in range(4):
        view = table.view(s, seat)
        assert view.uno.jump_in_open == shown
        assert ("jump-in open" in api.view_text(view)) == shown
    s = table.ok(s, "P1 ACCEPT" if card == "W+4" else "P1 DRAW")
    assert not s.uno.jump_in_open
    assert not any(table.view(s, seat).uno.jump_in_open for seat in range(4))
