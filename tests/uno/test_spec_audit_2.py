"""A second audit of UNO against shared/rules/shedding.md §0.5 and §2: multi-step
sequences where several rules act in one round, what each seat's view shows,
draw-pile exhaustion inside penalties, default moves, notation, scoring and
the match end; each in a concrete position with its exact expected result,
named after the rule it pins.

Conventions of §2.14 (conftest.py): P0..P3 clockwise, d = +1, P0 to act, the
dealer P3, the SEED profile, house rules off unless listed.
"""

from __future__ import annotations

import pytest

from croupier.engine.errors import FailedPrecondition
from croupier.engine.uno_cards import uno_card_text as card_text
from croupier.games.uno.notation import notation, parse_notation

# -- R9 / C-UNO-8: restocking inside a Wild Draw Four's penalty ----------------------------


def _wd4_on_an_empty_stock(table, p0="W+4 Y1 Y2", **kw):
    """P0 about to play W+4 on discard R1 G1 R9 with an empty stock; P2 and
    P3 hold the rest of the deck."""
    return table.build(discard="R1 G1 R9", hands={0: p0, 1: "B1 B2"}, stock="", **kw)


def test_c_uno_8_an_accepted_wild_draw_four_no_longer_keeps_the_card_under_it(table):
    # §0.5 RESTOCK takes every discard but the top; C-UNO-8 keeps the card
    # under a W+4 only while it "can still be challenged" — accepting ends that.
    s = _wd4_on_an_empty_stock(table)
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 ACCEPT")
    assert table.size(s, 1) == 2 + 3  # R1, G1, R9; the 4th draw is forfeited (B29)
    assert table.discard(s) == ["W+4"] and table.stock(s) == []
    assert table.turn(s) == (2, "PLAY")


def test_c_uno_8_a_final_wild_draw_four_accepted_draws_every_discard(table):
    s = _wd4_on_an_empty_stock(table, p0="W+4")
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 ACCEPT")
    assert table.match_phase(s) in ("DEAL_OVER", "MATCH_OVER")
    assert list(s.match.deal_winners) == [0]
    assert table.size(s, 1) == 2 + 3
    assert table.hand(s, 1) == table.bag("B1 B2 R1 G1 R9")


def test_d3_a_wild_draw_four_on_a_lost_turn_draws_every_discard(table):
    # P1 lost its turn (U6 SEED): the W+4 resolves at once (D3), nothing can
    # challenge it any more, so the card under it is drawn too.
    s = _wd4_on_an_empty_stock(table, turn_lost=[1])
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert table.size(s, 1) == 2 + 3
    assert list(s.uno.turn_lost) == []
    assert table.turn(s) == (2, "PLAY")


def test_r9_an_innocent_challenge_on_an_empty_stock_draws_every_discard(table):
    s = _wd4_on_an_empty_stock(table)
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 CHALLENGE")
    assert not table.rule_events("CHALLENGED")[0].uno.guilty
    assert table.size(s, 1) == 2 + 3  # 6 due, 3 to be had
    assert table.turn(s) == (2, "PLAY")


def test_u6_seed_a_guilty_player_draws_from_a_restock_under_the_reverted_top(table):
    s = _wd4_on_an_empty_stock(table, p0="W+4 R2 Y1")
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 CHALLENGE")
    assert table.rule_events("CHALLENGED")[0].uno.guilty
    assert table.discard(s) == ["R9"] and table.colour(s) == "R"
    assert table.hand(s, 0) == table.bag("W+4 R2 Y1 R1 G1")  # 4 due, 2 to be had
    assert list(s.uno.turn_lost) == [0]
    assert table.turn(s) == (1, "PLAY")


def test_h4_an_accepted_stack_draws_the_chain_s_own_cards_from_a_restock(table):
    opts = {"stacking": True}
    s = table.build(
        discard="Y5 R4",
        hands={0: "R+2 Y1 Y2", 1: "B+2 Y3 Y4", 2: "G+2 Y6 Y7", 3: "Y8"},
        stock="",
        options=opts,
    )
    s.uno.hands[3].cards.extend(s.uno.discard[:-2])  # the rest out of the way
    del s.uno.discard[:-2]
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "B+2"), table.play(2, "G+2"))
    assert table.pending(s) == ("DRAW_TWO", 6) and table.turn(s) == (3, "RESPOND")
    before = table.size(s, 3)
    s = table.ok(s, "P3 ACCEPT")
    assert table.size(s, 3) == before + 4  # Y5 R4 R+2 B+2; 2 forfeited
    assert table.discard(s) == ["G+2"]
    assert table.turn(s) == (0, "PLAY")


def test_h13_a_refill_restocks_when_the_stock_runs_out(table):
    opts = {"seven_rounds": True}
    s = table.build(
        discard="G1 G2 R7", hands={0: "R3", 1: "Y1", 2: "Y2", 3: "Y3"}, stock="",
        stages=[3, 7, 7, 7], options=opts,
    )  # fmt: skip
    s.uno.hands[3].cards.extend(s.uno.discard[:-3])
    del s.uno.discard[:-3]
    s = table.ok(s, table.play(0, "R3"))
    assert table.size(s, 0) == 2 and list(s.uno.stages) == [2, 7, 7, 7]
    assert table.discard(s) == ["R3"]
    assert table.turn(s) == (1, "PLAY")


# -- Views: what is hidden, what is revealed, and for how long ---------------------------------


def test_r7_a_challenge_reveals_the_hand_to_the_challenger_alone_until_the_next_move(table):
    s = table.build(top="R9", hands={0: "W+4 G5 B1", 1: "Y1 Y2"})
    s = table.ok(s, table.play(0, "W+4", "G"), "P1 CHALLENGE")
    assert table.bag(" ".join(card_text(c) for c in table.view(s, 1).uno.reveal.cards)) == (
        table.bag("G5 B1")
    )
    for seat in (0, 2, 3):
        assert not table.view(s, seat).uno.HasField("reveal")
    revealed = [cards for cards in table.seat_event_cards(1) if cards]
    assert table.bag("G5 B1") in [table.bag(" ".join(c)) for c in revealed]
    for seat in (0, 2, 3):  # the HAND_REVEALED event reaches them without the cards
        assert all(not cards or cards == ["W+4"] for cards in table.seat_event_cards(seat))
    s = table.ok(s, "P2 DRAW")  # innocent: P1 was skipped; the next move ends the view
    assert not table.view(s, 1).uno.HasField("reveal")


def test_0_5_a_drawn_card_is_shown_to_its_drawer_only(table):
    s = table.build(top="G2", hands={0: "R5 Y7"}, stock="G5 …")
    s = table.ok(s, "P0 DRAW")
    assert card_text(table.view(s, 0).uno.drawn_card) == "G5"
    for seat in (1, 2, 3):
        view = table.view(s, seat).uno
        assert view.drawn_card == 0 and "G5" not in {card_text(c) for c in view.hand}
        assert view.hand_sizes[0] == 3  # the size is public
        assert table.seat_event_cards(seat) == [[]]


def test_h6_the_offered_card_is_hidden_until_the_other_seat_gives(table):
    s = table.build(top="R4", hands={0: "R5 G2 B8", 2: "Y1 Y3"}, options={"swap_on_five": True})
    s = table.ok(s, table.play(0, "R5", swap=2, give="G2"))
    assert table.acting(s) == [2]
    assert card_text(table.view(s, 0).uno.card_swap.card) == "G2"
    for seat in (1, 2, 3):
        assert table.view(s, seat).uno.card_swap.card == 0
    s = table.ok(s, "P2 GIVE Y3")
    assert table.hand(s, 0) == table.bag("B8 Y3") and table.hand(s, 2) == table.bag("Y1 G2")
    for seat in (0, 2):
        assert sorted(map(tuple, table.seat_event_cards(seat))) == [("G2",), ("Y3",)]
    for seat in (1, 3):
        assert table.seat_event_cards(seat) == [[], []]
    assert table.turn(s) == (1, "PLAY") and table.acting(s) == [1]


# -- Several house rules in one round --------------------------------------------------------------


def test_h1_h4_h11_u4_a_deflected_stack_bounced_and_jumped_on(table):
    # P0 W+4>G on P1 (4); P1 G+2 (U4, H4: 6 on P2); P2 GRev bounces it back to
    # P1 (H11: same 6, d = -1); P3 jumps in with GRev (H1): d = +1, the 6 go
    # on to next(P3) = P0, who accepts and is skipped; P1 plays.
    opts = {"jump_in": True, "stacking": True, "reverse_bounce": True}
    s = table.build(
        top="R4",
        hands={0: "W+4 Y1 Y2", 1: "G+2 Y3 Y4", 2: "GRev Y5 Y6", 3: "GRev Y7 Y8"},
        options=opts,
    )
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert table.pending(s) == ("WILD_DRAW_FOUR", 4) and s.uno.challengeable
    s = table.ok(s, table.play(1, "G+2"))
    assert table.pending(s) == ("DRAW_TWO", 6) and table.turn(s) == (2, "RESPOND")
    assert not s.uno.challengeable
    s = table.ok(s, table.play(2, "GRev"))
    assert table.pending(s) == ("DRAW_TWO", 6) and table.turn(s) == (1, "RESPOND")
    assert table.direction(s) == -1
    s = table.ok(s, table.jump(3, "GRev"))
    assert table.pending(s) == ("DRAW_TWO", 6) and table.turn(s) == (0, "RESPOND")
    assert table.direction(s) == 1
    s = table.ok(s, "P0 ACCEPT")
    assert table.size(s, 0) == 2 + 6
    assert table.turn(s) == (1, "PLAY") and table.colour(s) == "G"


def test_h11_h12_a_bounce_passes_over_the_finished_player_of_the_draw_two(table):
    # P0 sheds his last card, R+2 (H12: finished); P1 bounces it with RRev:
    # the effect goes back against the direction, past P0, to P3.
    opts = {"play_to_last": True, "reverse_bounce": True}
    s = table.build(top="R4", hands={0: "R+2", 1: "RRev Y1"}, options=opts)
    s = table.ok(s, table.play(0, "R+2"))
    assert list(s.uno.finished) == [0] and table.turn(s) == (1, "RESPOND")
    s = table.ok(s, table.play(1, "RRev"))
    assert table.pending(s) == ("DRAW_TWO", 2) and table.turn(s) == (3, "RESPOND")
    assert table.direction(s) == -1


def test_d8_h6_then_h8_the_exchange_comes_before_the_slaps(table):
    # P0 plays his second-to-last card, R5, with "UNO!" and an exchange (H6)
    # under H8: P2 gives first, then the slap window; P2 is the last to slap.
    opts = {"swap_on_five": True, "uno_in_centre": True}
    s = table.build(top="R4", hands={0: "R5 G2", 2: "Y1 Y3"}, options=opts)
    s = table.ok(s, table.play(0, "R5", uno=True, swap=2, give="G2"))
    assert table.acting(s) == [2] and table.default(s, 2) == "GIVE Y1"
    assert table.reason(s, "P1 SLAP") == "NOT_YOUR_TURN"
    s = table.ok(s, "P2 GIVE Y1")
    assert table.hand(s, 0) == table.bag("Y1") and table.hand(s, 2) == table.bag("Y3 G2")
    assert table.acting(s) == [0, 1, 2, 3]
    assert table.default(s, 0) == "TIME" and table.default(s, 1) == "SLAP"
    assert table.reason(s, "P1 DRAW") == "SLAP_WINDOW_OPEN"
    s = table.ok(s, "P1 SLAP", "P3 SLAP", "P2 SLAP")
    assert table.size(s, 2) == 2 + 2
    assert table.turn(s) == (1, "PLAY") and table.acting(s) == [1]


def test_h8_h12_finished_seats_do_not_slap(table):
    opts = {"uno_in_centre": True, "play_to_last": True}
    s = table.build(top="R4", hands={0: "R5 G2", 1: "", 2: "Y1 Y3"}, finished=[1], options=opts)
    s = table.ok(s, table.play(0, "R5", uno=True))
    assert table.acting(s) == [0, 2, 3]
    assert table.reason(s, "P1 SLAP") == "NOT_YOUR_TURN"
    s = table.ok(s, "P2 SLAP", "P3 SLAP")
    assert not s.uno.HasField("slap") and table.size(s, 3) == 5 + 2
    assert table.turn(s) == (2, "PLAY")


def test_h16_r8_a_catch_of_four_waits_for_ready_before_the_next_turn(table):
    opts = {"politeness_ready": True, "uno_penalty": 4}
    s = table.build(top="R4", hands={0: "R5 G2"}, options=opts)
    s = table.ok(s, table.play(0, "R5"), "P2 CATCH 0")
    assert table.size(s, 0) == 1 + 4
    assert table.acting(s) == [0] and table.default(s, 0) == "READY"
    assert table.reason(s, "P1 DRAW") == "NOT_YOUR_TURN"
    s = table.ok(s, "P0 READY")
    assert table.turn(s) == (1, "PLAY")


def test_h12_lazy_several_finishers_first_wins_last_holder_loses_and_deals(table):
    opts = {"play_to_last": True}
    s = table.build(
        top="R4", hands={0: "R5", 1: "", 2: "R6", 3: "Y9 W"}, finished=[1], options=opts
    )
    s = table.ok(s, table.play(0, "R5"))
    assert list(s.uno.finished) == [1, 0] and table.turn(s) == (2, "PLAY")
    s = table.ok(s, table.play(2, "R6"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert list(s.match.deal_winners) == [1] and s.uno.round_loser == 3
    assert table.deal_points(s) == [0, 0, 0, 9 + 50]
    assert table.scores(s) == [0, 1, 0, 0]
    s = table.next_deal(s)
    assert s.uno.dealer == 3 and s.current_seat == 1


# -- Default moves ---------------------------------------------------------------------------------


def test_d14_default_moves_of_every_kind_of_acting_seat(table):
    opts = {"play_drawn": "MUST"}
    s = table.ok(table.build(top="G2", hands={0: "R5 Y7"}, stock="G5 …", options=opts), "P0 DRAW")
    assert table.default(s, 0) == "G5"  # U9 MUST: the legal drawn card
    s = table.ok(table.build(top="R2", hands={0: "R5 Y7"}, stock="W …", options=opts), "P0 DRAW")
    assert table.default(s, 0) == "W>R"  # a black card names red
    s = table.build("mattel", discard="W", colour="?", phase="NAME_COLOUR", hands={})
    assert table.default(s, 0) == "COLOUR R"
    s = table.ok(table.build(top="R9", hands={0: "W+4"}), table.play(0, "W+4", "G"))
    assert table.default(s, 1) == "ACCEPT"  # a final W+4 waiting for its answer
    s = table.build(top="R4", hands={0: "R2 Y1 Y2"}, options={"silent_trigger": "TWOS"})
    s = table.ok(s, table.play(0, "R2"))
    assert table.default(s, 1) == "DRAW"
    with pytest.raises(FailedPrecondition):
        table.default(s, 3)  # may only REPORT: never a default (rules 3)
    s = table.build(top="G4", hands={0: "G7 …", 2: "Y1"}, options={"jump_in": True})
    s = table.ok(s, table.play(0, "G7"))
    with pytest.raises(FailedPrecondition):
        table.default(s, 2)  # may only jump in, holds no G7


# -- Notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "R7", "GSkip", "BRev", "Y+2", "W>G", "W+4>B", "X+10>Y", "W", "B3 UNO", "W+4>R UNO",
        "G7 SWAP 2", "G7 UNO SWAP 0", "R5 SWAP 3 G2", "R5 UNO SWAP 1 W+4",
        "JUMP R7", "JUMP W>G UNO", "JUMP G7 SWAP 1", "JUMP B5 SWAP 0 Y9",
        "DRAW", "PASS", "ACCEPT", "CHALLENGE", "UNO", "SLAP", "TIME", "READY",
        "CATCH 0", "CATCH 2", "REPORT 1", "GIVE G2", "GIVE X+10", "COLOUR G",
    ],
)  # fmt: skip
def test_notation_every_move_kind_reads_back_as_itself(text):
    move = parse_notation(text, 3)
    assert notation(move) == text
    assert parse_notation(notation(move), 3) == move


def test_notation_every_listed_move_reads_back_as_itself(table):
    opts = {"seven_zero": True, "swap_on_five": True, "jump_in": True, "jump_in_own_card": True,
            "silent_trigger": "TWOS", "misplay_penalty": True}  # fmt: skip
    s = table.build(top="G5", hands={0: "G7 G5 W W+4 R2"}, options=opts)
    s = table.ok(s, table.play(0, "G5", swap=1, give="R2"), "P1 GIVE Y1")
    for seat in range(4):
        request_moves = table.legal(s, seat)
        assert request_moves
        for text in request_moves:
            assert notation(parse_notation(text, seat)) == text


# -- Scoring and the match end -------------------------------------------------------------------


LOSERS = {1: "R5 GSkip YRev B+2", 2: "W W+4 X+10", 3: "G0 Y9"}


def _out_with_every_kind(table, **options):
    opts = {"plus_ten": True, **options}
    hands = {0: "R3", **LOSERS}
    s = table.build(top="R7", hands=hands, stock="Y1 …", options=opts)
    return table.ok(s, table.play(0, "R3"))


def test_r11_winner_collects_counts_every_card_kind(table):
    s = _out_with_every_kind(table)
    assert table.deal_points(s) == [5 + 20 + 20 + 20 + 50 + 50 + 50 + 0 + 9, 0, 0, 0]
    assert table.scores(s) == [224, 0, 0, 0]


def test_r11_penalty_limit_counts_every_card_kind(table):
    s = _out_with_every_kind(table, scoring_method="PENALTY_LIMIT")
    assert table.deal_points(s) == [0, 65, 150, 9]


def test_h7_lazy_counts_every_card_kind_and_the_black_hand_loses(table):
    s = _out_with_every_kind(table, scoring_method="LAZY")
    assert table.deal_points(s) == [0, 65, 150, 9]
    assert s.uno.round_loser == 2 and table.scores(s) == [1, 0, 0, 0]


def test_h14_any_zero_under_winner_collects(table):
    s = _out_with_every_kind(table, zero_worth_50=True, zero50_scope="ANY_ZERO")
    assert table.deal_points(s)[0] == 224 - 0 + 50


def test_d11_lazy_a_tie_in_round_wins_shares_the_match(table):
    opts = {"scoring_method": "LAZY", "lazy_rounds": 2}
    s = table.build(top="R4", hands={1: "R6"}, current=1, scores=[1, 0, 0, 0], deal_number=2,
                    options=opts)  # fmt: skip
    s = table.ok(s, table.play(1, "R6"))
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.scores(s) == [1, 1, 0, 0]
    assert list(s.match.winners) == [0, 1]


def test_b30_penalty_limit_two_seats_reach_the_limit_the_rest_win(table):
    opts = {"scoring_method": "PENALTY_LIMIT", "limit": 100}
    s = table.build(top="R4", hands={0: "R6", 1: "W", 2: "Y9 YSkip", 3: "Y1"},
                    scores=[99, 50, 71, 98], options=opts)  # fmt: skip
    s = table.ok(s, table.play(0, "R6"))
    assert table.deal_points(s) == [0, 50, 29, 1]
    assert table.scores(s) == [99, 100, 100, 99]
    assert table.match_phase(s) == "MATCH_OVER"
    assert list(s.match.winners) == [0, 3]


# -- More rounds in which two rules meet ---------------------------------------------------------


def test_h1_b32_a_final_draw_two_jumped_in_under_stacking_draws_the_total(table):
    # P0's R+2 waits on P1; P2 jumps in with his last card, an identical R+2:
    # the round ends, and next(P2) = P3 draws the accumulated 4 (H1, H4, B32).
    opts = {"jump_in": True, "stacking": True}
    s = table.build(top="R4", hands={0: "R+2 Y1 Y2", 1: "Y3 Y4", 2: "R+2", 3: "Y5"}, options=opts)
    s = table.ok(s, table.play(0, "R+2"), table.jump(2, "R+2"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert list(s.match.deal_winners) == [2]
    assert table.size(s, 3) == 1 + 4 and table.size(s, 1) == 2


def test_h13_h12_a_hand_emptied_at_stage_one_finishes_and_play_goes_on(table):
    opts = {"seven_rounds": True, "play_to_last": True}
    s = table.build(top="R4", hands={0: "R5", 1: "Y1 Y2"}, stages=[1, 7, 7, 7], options=opts)
    s = table.ok(s, table.play(0, "R5"))
    assert list(s.uno.finished) == [0] and list(s.uno.stages) == [1, 7, 7, 7]
    assert table.size(s, 0) == 0 and table.turn(s) == (1, "PLAY")
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"


# -- D16: a bounce with the last card -------------------------------------------------------


def test_d16_a_bounce_with_the_last_card_sends_the_draw_to_the_seat_before(table):
    hands = {0: "R+2 Y5", 1: "RRev", 2: "Y2", 3: "B0"}
    s = table.build(top="R4", hands=hands, stock="G8 G9 …", options={"reverse_bounce": True})
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "RRev"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.hand(s, 0) == table.bag("Y5 G8 G9")
    # P1 collects P0's hand with the two cards drawn, P2's and P3's.
    assert table.deal_points(s) == [0, 5 + 8 + 9 + 2 + 0, 0, 0]


def test_d16_a_bounced_wild_draw_four_is_drawn_at_once_by_its_player(table):
    hands = {0: "W+4 Y5", 1: "GRev", 2: "Y2", 3: "B0"}
    s = table.build(top="R4", hands=hands, stock="G1 G2 G3 G6 …", options={"reverse_bounce": True})
    s = table.ok(s, table.play(0, "W+4", "G"), table.play(1, "GRev"))
    assert table.match_phase(s) == "DEAL_OVER"  # no challenge of one's own card
    assert table.hand(s, 0) == table.bag("Y5 G1 G2 G3 G6")


def test_d16_under_u13_off_a_bounce_with_the_last_card_draws_nothing(table):
    hands = {0: "R+2 Y5", 1: "RRev", 2: "Y2", 3: "B0"}
    opts = {"reverse_bounce": True, "final_draw_resolution": False}
    s = table.build(top="R4", hands=hands, stock="G8 G9 …", options=opts)
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "RRev"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.hand(s, 0) == table.bag("Y5")


def test_d16_a_bounced_stack_keeps_its_whole_count(table):
    hands = {0: "R+2 Y5", 1: "B+2 Y1", 2: "BRev", 3: "B0"}
    opts = {"reverse_bounce": True, "stacking": True}
    s = table.build(top="R4", hands=hands, stock="G1 G2 G3 G6 …", options=opts)
    s = table.ok(s, table.play(0, "R+2"), table.play(1, "B+2"), table.play(2, "BRev"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.hand(s, 1) == table.bag("Y1 G1 G2 G3 G6")
