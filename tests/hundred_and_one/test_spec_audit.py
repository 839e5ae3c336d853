"""Audit of the 101 family against shared/rules/shedding.md §0 and §1.

Cases the spec's own §1.9 table and the other test files do not pin: the
interplay of effects (reversal with skips and fives, transfers in chains and
as last cards, cover cards covering cover cards, forbidden finishes reached
through a cover or a drawn card), restocking in the middle of a penalty or a
batch, upcard effects per version, and the scoring thresholds at their exact
edges. Each test is named after the rule it pins: a concrete position, the
move, the exact result.
"""

from __future__ import annotations

import pytest

from croupier.engine import cards
from spec_notation import text_of


def turn(table, state):
    """Who is to act and in which phase."""
    return state.current_seat, table.phase(state)


def rest(deck_size: int, *taken: str) -> str:
    """Every card of the pack but `taken`, in the spec's notation."""
    deck = cards.deck(lowest_rank=6 if deck_size == 36 else 2)
    return " ".join(t for t in map(text_of, deck) if t not in taken)


def finish(table, preset, seats, hands, last, *, top="10♥", winner=0, suit=None, **kw):
    """Lay out the table and let `winner` play his last card `last`."""
    state = table.build(preset, seats, top=top, hands=hands, current=winner, **kw)
    return table.ok(state, table.play(winner, last, suit))


# -- direction (HD 10) with skips, penalties and fives ---------------------------------


def test_C4_hd_reversed_ace_skips_the_seat_before(table):
    # §1.3.2: with d = -1, next(P0) is P3; the Ace skips him and P2 acts.
    s = table.build("hd", 4, top="10♥", hands={0: "A♥ …"}, reversed=True)
    p3 = table.hand(s, 3)
    s = table.ok(s, table.play(0, "A♥"))
    assert table.hand(s, 3) == p3
    assert turn(table, s) == (2, "PLAY")
    assert s.hundred_and_one.reversed


def test_1_3_4_hd_reversed_six_targets_the_seat_before(table):
    s = table.build("hd", 4, top="9♥", hands={0: "6♥ …"}, reversed=True)
    s = table.ok(s, table.play(0, "6♥"))
    assert turn(table, s) == (3, "RESPOND")
    assert s.hundred_and_one.pending_draw == 1


def test_A18_five_previous_player_follows_the_current_direction(table):
    # HD 52 cards with fives_active, direction reversed: prev(P1) is P2 (draws
    # 2), next(P1) is P0 (skipped), so P3 acts.
    options = {"deck_size": 52, "fives_active": True}
    s = table.build("hd", 4, top="9♥", hands={1: "5♥ …"}, current=1, reversed=True, options=options)
    p0, p2, stock = table.hand(s, 0), table.hand(s, 2), table.stock(s)
    s = table.ok(s, table.play(1, "5♥"))
    assert table.hand(s, 2) == p2 + table.bag(" ".join(stock[:2]))
    assert table.hand(s, 0) == p0
    assert turn(table, s) == (3, "PLAY")


def test_A18_five_previous_player_passes_over_an_eliminated_seat(table):
    # ALT 4 seats, P0 out of the match: prev(P2) = P1 draws 2, P3 is skipped,
    # and the turn comes back round to P1 (P0 is passed over).
    s = table.build("alt", 4, top="5♣", hands={2: "5♥ …"}, current=2, eliminated=(0,))
    p1, p3, stock = table.hand(s, 1), table.hand(s, 3), table.stock(s)
    s = table.ok(s, table.play(2, "5♥"))
    assert table.hand(s, 1) == p1 + table.bag(" ".join(stock[:2]))
    assert table.hand(s, 3) == p3
    assert turn(table, s) == (1, "PLAY")


def test_A32_alt_five_with_three_players_the_drawer_plays_next(table):
    # 3 seats: P1's five makes P0 draw 2 and skips P2; P0 is not skipped.
    s = table.build("alt", 3, top="5♣", hands={1: "5♥ …"}, current=1)
    p0, p2, stock = table.hand(s, 0), table.hand(s, 2), table.stock(s)
    s = table.ok(s, table.play(1, "5♥"))
    assert table.hand(s, 0) == p0 + table.bag(" ".join(stock[:2]))
    assert table.hand(s, 2) == p2
    assert turn(table, s) == (0, "PLAY")


def test_A31_next_deal_runs_clockwise_after_a_reversed_deal(table):
    # C9: the direction resets; LEAD_ANY: the deal's winner leads.
    s = finish(table, "hd", 3, {0: "J♥", 1: "J♠", 2: "J♦"}, "J♥", reversed=True)
    assert table.match_phase(s) == "DEAL_OVER"
    s = table.next_deal(s)
    assert not s.hundred_and_one.reversed
    assert turn(table, s) == (0, "PLAY")
    assert table.discard(s) == []


# -- HD transfer of 6 and 7 (§1.3.4) ---------------------------------------------------


@pytest.mark.parametrize(("accumulates", "pending"), [(False, 1), (True, 3)])
def test_1_3_4_a_six_passes_on_a_seven_with_its_own_count(table, accumulates, pending):
    # 6♥ on 7♥ is legal by suit; the six's own count (1) replaces the seven's
    # 2 unless transfer_accumulates (2 + 1).
    s = table.build(
        "hd", 3, top="7♥", hands={1: "6♥ J♣"}, current=1, phase="RESPOND", pending=2,
        options={"transfer_accumulates": accumulates},
    )  # fmt: skip
    s = table.ok(s, table.play(1, "6♥"))
    assert turn(table, s) == (2, "RESPOND")
    assert s.hundred_and_one.pending_draw == pending
    assert table.hand(s, 1) == table.bag("J♣")


def test_O12_a_chain_of_transfers_accumulates_with_one_skip(table):
    # 6♥ (1) → 7♥ (+2) → 7♣ (+2): P3 draws 5 and only P3 is skipped.
    s = table.build(
        "hd", 4, top="9♥", hands={0: "6♥ …", 1: "7♥ J♠", 2: "7♣ J♦"},
        options={"transfer_accumulates": True},
    )  # fmt: skip
    s = table.ok(s, table.play(0, "6♥"))
    s = table.ok(s, table.play(1, "7♥"))
    assert turn(table, s) == (2, "RESPOND")
    assert s.hundred_and_one.pending_draw == 3
    s = table.ok(s, table.play(2, "7♣"))
    assert turn(table, s) == (3, "RESPOND")
    assert s.hundred_and_one.pending_draw == 5
    p3, stock = table.hand(s, 3), table.stock(s)
    s = table.ok(s, table.accept(3))
    assert table.hand(s, 3) == p3 + table.bag(" ".join(stock[:5]))
    assert table.hand(s, 1) == table.bag("J♠")
    assert table.hand(s, 2) == table.bag("J♦")
    assert turn(table, s) == (0, "PLAY")


def test_1_3_4_two_players_a_transfer_comes_back_to_the_first_player(table):
    s = table.build("hd", 2, top="9♥", hands={0: "7♥ …", 1: "7♣ J♠"})
    s = table.ok(s, table.play(0, "7♥"))
    assert turn(table, s) == (1, "RESPOND")
    s = table.ok(s, table.play(1, "7♣"))
    assert turn(table, s) == (0, "RESPOND")
    assert s.hundred_and_one.pending_draw == 2
    p0, stock = table.hand(s, 0), table.stock(s)
    s = table.ok(s, table.accept(0))
    assert table.hand(s, 0) == p0 + table.bag(" ".join(stock[:2]))
    assert turn(table, s) == (1, "PLAY")


@pytest.mark.parametrize(("accumulates", "p2_points"), [(False, 2 + 11 + 4), (True, 2 + 33)])
def test_A10_a_transfer_with_the_last_card_ends_the_deal_and_its_target_draws(
    table, accumulates, p2_points
):
    # P1 passes the pending 7 on with his last card: the deal ends, P2 draws
    # the new card's count (2; 4 when accumulated) before scoring, no answer.
    s = table.build(
        "hd", 3, top="7♥", hands={0: "J♠", 1: "7♣", 2: "J♦"}, current=1, phase="RESPOND",
        pending=2, stock="A♦ K♦ 10♦ 8♦ …", options={"transfer_accumulates": accumulates},
    )  # fmt: skip
    s = table.ok(s, table.play(1, "7♣"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [1]
    assert table.deal_points(s) == [2, 0, p2_points]


# -- draw penalties, self-cover chains -------------------------------------------------


def test_C5_hd_two_players_king_of_spades_gives_another_turn(table):
    s = table.build("hd", 2, top="K♥", hands={0: "K♠ …"})
    p1, stock = table.hand(s, 1), table.stock(s)
    s = table.ok(s, table.play(0, "K♠"))
    assert table.hand(s, 1) == p1 + table.bag(" ".join(stock[:4]))
    assert turn(table, s) == (0, "PLAY")
    assert table.active(s) == "♠"


@pytest.mark.parametrize(("cover", "next_turn", "reversed_"), [("A♣", 2, False), ("10♣", 3, True)])
def test_C6_2_a_cover_that_must_be_covered_binds_again_and_acts_as_it_always_does(
    table, cover, next_turn, reversed_
):
    # HD, four seats: P0's 8♠ binds him to cover it (C6); the 8♣, the only
    # cover he holds, must itself be covered and binds him again. Its cover
    # then acts as ever: the Ace skips P1, the 10 reverses (next is P3).
    s = table.build("hd", 4, top="7♠", hands={0: "8♠ 8♣ A♣ 10♣ J♦", 1: "9♥ …"})
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "8♠"))
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"PLAY 8♣"}
    s = table.ok(s, table.play(0, "8♣"))
    assert turn(table, s) == (0, "COVER")
    assert table.active(s) == "♣"
    assert table.legal(s, 0) == {"PLAY A♣", "PLAY 10♣"}
    s = table.ok(s, table.play(0, cover))
    assert turn(table, s) == (next_turn, "PLAY")
    assert s.hundred_and_one.reversed == reversed_
    assert table.hand(s, 0) == table.bag("A♣ 10♣ J♦") - table.bag(cover)
    assert table.hand(s, 1) == p1  # nobody drew


def test_C6_4_hd_eight_covered_by_a_six_makes_the_next_player_answer(table):
    s = table.build("hd", 3, top="8♦", hands={0: "8♣ 6♣ …"})
    s = table.ok(s, table.play(0, "8♣"))
    assert turn(table, s) == (0, "COVER")
    s = table.ok(s, table.play(0, "6♣"))
    assert turn(table, s) == (1, "RESPOND")
    assert s.hundred_and_one.pending_draw == 1


def test_C6_4_cl_nine_covered_by_a_last_nine_binds_again(table):
    # P0 covers 9♥ with his last card 9♣: a new duty on an empty hand (C6.5),
    # the deal goes on; J♥ no longer covers (active ♣), 10♣ does.
    s = table.build("cl", 3, top="9♠", hands={0: "9♥ 9♣"}, stock="J♥ 10♣ …")
    s = table.ok(s, table.play(0, "9♥"))
    s = table.ok(s, table.play(0, "9♣"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.hand_size(s, 0) == 0
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))  # J♥
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))  # 10♣
    assert table.legal(s, 0) == {"PLAY 10♣"}
    s = table.ok(s, table.play(0, "10♣"))
    assert table.hand(s, 0) == table.bag("J♥")
    assert turn(table, s) == (1, "PLAY")


def test_O29_off_only_a_queen_of_the_nines_suit_covers(table):
    # CL nine_cover_allows_queen off: «или той же самой мастью» still admits
    # Q♥ on 9♥ (same suit), which names any suit; Q♠ does not cover.
    s = table.build(
        "cl", 3, top="9♣", hands={0: "9♥ Q♥ Q♠ J♣"}, options={"nine_cover_allows_queen": False}
    )
    s = table.ok(s, table.play(0, "9♥"))
    assert table.legal(s, 0) == table.queen_plays("Q♥")
    assert table.reason(s, table.play(0, "Q♠")) == "MUST_COVER"
    s = table.ok(s, table.play(0, "Q♥", "♣"))
    assert table.active(s) == "♣"
    assert turn(table, s) == (1, "PLAY")


def test_C7_ru_six_covered_by_a_drawn_ace_cannot_finish(table):
    # RU: P0's last card 6♥ must be covered; he draws A♥, must play it, and an
    # Ace may not finish: P1 is skipped, P0 stays in with no cards.
    s = table.build("ru", 3, top="10♥", hands={0: "6♥"}, stock="A♥ …")
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "6♥"))
    s = table.ok(s, table.draw(0))
    assert table.legal(s, 0) == {"PLAY A♥"}
    s = table.ok(s, table.play(0, "A♥"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.hand_size(s, 0) == 0
    assert table.hand(s, 1) == p1
    assert turn(table, s) == (2, "PLAY")


def test_C7_ru_six_covered_by_the_queen_of_spades_finishes_for_minus_40(table):
    s = table.build("ru", 3, top="10♥", hands={0: "6♥ Q♠", 1: "J♣", 2: "J♦"})
    s = table.ok(s, table.play(0, "6♥"))
    s = table.ok(s, table.play(0, "Q♠", "♦"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]
    assert table.deal_points(s) == [-40, 2, 2]


def test_C7_hd_eight_last_must_cover_a_last_seven_finishes_and_hits(table):
    # O15 on: the last 8 is covered by the drawn 7♣, which empties the hand
    # and ends the deal; P1 draws its 2 before scoring (O27).
    s = table.build(
        "hd", 3, top="8♦", hands={0: "8♣", 1: "J♠", 2: "J♦"}, stock="7♣ A♦ K♦ …",
        options={"eight_last_must_cover": True},
    )  # fmt: skip
    s = table.ok(s, table.play(0, "8♣"))
    s = table.ok(s, table.draw(0))
    s = table.ok(s, table.play(0, "7♣"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]
    assert table.deal_points(s) == [0, 2 + 11 + 4, 2]


@pytest.mark.parametrize("preset", ["hd", "cl"])
def test_O25_an_ace_may_finish_outside_ru(table, preset):
    # HD and CL have no forbidden finishing cards.
    s = finish(table, preset, 2, {0: "A♥", 1: "J♠"}, "A♥")
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]
    assert table.deal_points(s) == [0, 2]


# -- forbidden finishes (§1.5.3, A21) ---------------------------------------------------


def test_A21_ru_two_players_last_ace_brings_the_turn_back_to_an_empty_hand(table):
    s = table.build("ru", 2, top="10♥", hands={0: "A♥"})
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "A♥"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.hand(s, 1) == p1
    assert turn(table, s) == (0, "PLAY")
    assert table.legal(s, 0) == {"DRAW"}


def test_A21_ru_empty_hand_draws_a_seven_and_still_cannot_finish(table):
    s = table.build("ru", 3, top="10♥", hands={0: ""}, stock="7♥ A♣ K♣ …")
    p1 = table.hand(s, 1)
    s = table.ok(s, table.draw(0))
    assert turn(table, s) == (0, "DRAWN")
    assert table.legal(s, 0) == {"PLAY 7♥", "PASS"}
    s = table.ok(s, table.play(0, "7♥"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.hand_size(s, 0) == 0
    assert table.hand(s, 1) == p1 + table.bag("A♣ K♣")
    assert turn(table, s) == (2, "PLAY")


# -- the opening (§1.3.1, §1.4.1, §1.5.1, A24) -------------------------------------------


def test_1_3_1_a_led_eight_obliges_the_leader_to_play_again(table):
    s = table.build("hd", 3, discard="", hands={0: "8♣ J♣ 10♥ A♦ K♦"})
    s = table.ok(s, table.play(0, "8♣"))
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"PLAY J♣"}


def test_1_3_1_a_led_six_hits_the_next_player(table):
    s = table.build("hd", 3, discard="", hands={0: "6♥ J♣ 10♥ A♦ K♦"})
    s = table.ok(s, table.play(0, "6♥"))
    assert turn(table, s) == (1, "RESPOND")
    assert s.hundred_and_one.pending_draw == 1


def test_A24_hd_dealer_upcard_ten_reverses_before_anyone_plays(table):
    s = table.find_deal("hd", 4, "10♥", options={"opening": "DEALER_UPCARD"})
    dealer = s.hundred_and_one.dealer
    assert s.hundred_and_one.reversed
    assert table.hand_size(s, dealer) == 4
    assert turn(table, s) == ((dealer - 1) % 4, "PLAY")


def test_A24_hd_dealer_upcard_seven_may_be_passed_on(table):
    s = table.find_deal("hd", 3, "7♦", options={"opening": "DEALER_UPCARD"})
    left = (s.hundred_and_one.dealer + 1) % 3
    assert turn(table, s) == (left, "RESPOND")
    assert s.hundred_and_one.pending_draw == 2
    assert table.hand_size(s, left) == 5


def test_A24_alt_dealer_upcard_five_hits_the_seat_before_the_dealer(table):
    s = table.find_deal("alt", 4, "5♥")
    dealer = s.hundred_and_one.dealer
    assert table.hand_size(s, dealer) == 3
    assert table.hand_size(s, (dealer + 3) % 4) == 4 + 2  # prev(dealer) draws 2
    assert table.hand_size(s, (dealer + 1) % 4) == 4  # next(dealer) skipped
    assert table.hand_size(s, (dealer + 2) % 4) == 4
    assert len(table.stock(s)) == 52 - 16 - 2
    assert turn(table, s) == ((dealer + 2) % 4, "PLAY")


def test_A24_ru_two_players_upcard_ace_the_dealer_moves_again(table):
    s = table.find_deal("ru", 2, "A♣")
    dealer = s.hundred_and_one.dealer
    assert table.hand_size(s, 1 - dealer) == 4
    assert table.hand_size(s, dealer) == 3
    assert turn(table, s) == (dealer, "PLAY")


# -- drawing and restocking (§0.5, C3) --------------------------------------------------


def test_0_5_a_penalty_restocks_in_the_middle_of_the_draw(table):
    # CL K♠: P1 draws A♣, the discards under K♠ are turned over (oldest on
    # top) and he draws 9♣ J♣ 6♦; K♥ stays as the stock.
    s = table.build("cl", 3, discard="9♣ J♣ 6♦ K♥", stock="A♣", hands={0: "K♠ 7♦"})
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "K♠"))
    assert table.hand(s, 1) == p1 + table.bag("A♣ 9♣ J♣ 6♦")
    assert table.stock(s) == ["K♥"]
    assert table.discard(s) == ["K♠"]
    assert turn(table, s) == (2, "PLAY")


def test_0_5_a_penalty_draws_what_is_left_and_still_skips(table):
    # CL 2 seats, stock empty, only K♥ under the top: P1 draws K♥ (restocked),
    # the other three draws are forfeited, and P1 is still skipped.
    s = table.build(
        "cl", 2, discard="K♥", stock="", hands={0: "K♠ 7♣", 1: rest(36, "K♥", "K♠", "7♣")}
    )
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "K♠"))
    assert table.hand(s, 1) == p1 + table.bag("K♥")
    assert table.stock(s) == []
    assert table.discard(s) == ["K♠"]
    assert turn(table, s) == (0, "PLAY")


def test_O14_three_batch_restocks_in_the_middle(table):
    # HD THREE: the batch takes J♦, then the discards under 8♣ are turned over
    # and it takes 4♣ 5♦; 4♣ covers and must be played.
    s = table.build(
        "hd", 3, discard="4♣ 5♦ 8♦", stock="J♦", hands={0: "8♣ K♥"},
        options={"deck_size": 52, "eight_draw_mode": "THREE"},
    )  # fmt: skip
    s = table.ok(s, table.play(0, "8♣"))
    s = table.ok(s, table.draw(0))
    assert table.hand(s, 0) == table.bag("K♥ J♦ 4♣ 5♦")
    assert table.stock(s) == ["8♦"]
    assert table.discard(s) == ["8♣"]
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"PLAY 4♣"}


def test_O7_until_playable_ends_the_turn_when_the_piles_run_dry(table):
    s = table.build(
        "cl", 2, discard="10♥", stock="J♠", hands={0: "8♣", 1: rest(36, "10♥", "J♠", "8♣")},
        options={"draw_rule": "UNTIL_PLAYABLE"},
    )  # fmt: skip
    s = table.ok(s, table.draw(0))
    assert turn(table, s) == (0, "DRAWN")
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))  # nothing left: the turn ends
    assert table.hand(s, 0) == table.bag("8♣ J♠")
    assert turn(table, s) == (1, "PLAY")


# -- scoring thresholds and match end (C8, §1.3.5–§1.5.4) --------------------------------


def test_1_4_3_cl_totals_have_no_lower_limit(table):
    hands = {0: "Q♠", 1: "J♣", 2: "J♦"}
    s = finish(table, "cl", 3, hands, "Q♠", scores=[-90, 0, 0])
    assert table.scores(s) == [-130, 2, 2]
    assert table.eliminated(s) == [False, False, False]
    assert table.match_phase(s) == "DEAL_OVER"


@pytest.mark.parametrize(("limit", "total"), [(None, 0), ("ELIMINATE_BELOW", -101)])
def test_O24_a_total_of_exactly_minus_101(table, limit, total):
    # RESET_AT_OR_BELOW (RU default) resets -101; ELIMINATE_BELOW keeps it
    # (only below -101 is out).
    options = {"negative_limit": limit} if limit else {}
    hands = {0: "Q♠", 1: "J♣", 2: "J♦"}
    s = finish(table, "ru", 3, hands, "Q♠", scores=[-61, 0, 0], options=options)
    assert table.scores(s) == [total, 2, 2]
    assert table.eliminated(s) == [False, False, False]
    assert table.match_phase(s) == "DEAL_OVER"


def test_A29_cl_first_bust_lowest_totals_share_the_win(table):
    hands = {0: "J♥", 1: "J♠", 2: "Q♦"}
    s = finish(table, "cl", 3, hands, "J♥", scores=[40, 38, 99])
    assert table.scores(s) == [40, 40, 102]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0, 1]


def test_O22_cl_exactly_101_is_reset_not_a_bust(table):
    hands = {0: "J♥", 1: "J♠", 2: "J♦"}
    s = finish(table, "cl", 3, hands, "J♥", scores=[40, 0, 99])
    assert table.scores(s) == [40, 2, 0]
    assert table.eliminated(s) == [False, False, False]
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.winners(s) == []


def test_1_3_5_hd_two_seats_out_in_one_deal_the_last_one_wins(table):
    hands = {0: "J♥", 1: "A♣", 2: "8♣"}
    s = finish(table, "hd", 3, hands, "J♥", scores=[10, 95, 99])
    assert table.deal_points(s) == [0, 11, 8]
    assert table.scores(s) == [10, 106, 107]
    assert table.eliminated(s) == [False, True, True]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0]


def test_A34_king_of_spades_scores_40_under_ordinary_specials(table):
    options = {"ordinary_specials": True, "kspades_in_hand_40": True}
    s = finish(table, "hd", 3, {0: "J♥", 1: "K♠", 2: "J♦"}, "J♥", options=options)
    assert table.deal_points(s) == [0, 40, 2]


def test_C8_an_empty_handed_non_winner_scores_zero(table):
    # RU: P1 went out on a forbidden card and holds nothing when P0 wins.
    s = finish(table, "ru", 3, {0: "J♥", 1: "", 2: "K♣"}, "J♥")
    assert table.deal_points(s) == [0, 0, 4]


@pytest.mark.parametrize(("preset", "points"), [("hd", 3), ("cl", 3), ("ru", 40)])
def test_O19_a_lone_queen_of_spades_only_in_ru(table, preset, points):
    s = finish(table, preset, 3, {0: "J♥", 1: "Q♠", 2: "J♦"}, "J♥")
    assert table.deal_points(s) == [0, points, 2]


@pytest.mark.parametrize(
    ("options", "total", "out"),
    [
        ({"exact_101_reset": False}, 101, False),  # 101 is not above 101
        ({"reset_100_to_50": False}, 100, False),
    ],
)
def test_O21_O22_hd_threshold_resets_switched_off(table, options, total, out):
    hands = {0: "J♥", 1: "A♣", 2: "J♦"}
    start = total - 11
    s = finish(table, "hd", 3, hands, "J♥", scores=[0, start, 0], options=options)
    assert table.scores(s) == [0, total, 2]
    assert table.eliminated(s)[1] is out
    assert table.match_phase(s) == "DEAL_OVER"


# -- more interactions ------------------------------------------------------------------


def test_O14_a_new_eight_duty_gets_a_new_batch_of_three(table):
    # THREE: the batch J♦ 8♥ 5♦ holds one cover, 8♥, which binds again; the
    # new duty (active ♥) may draw its own batch 2♥ 3♥ 4♠.
    s = table.build(
        "hd", 3, top="8♦", hands={0: "8♣ K♠"}, stock="J♦ 8♥ 5♦ 2♥ 3♥ 4♠ …",
        options={"deck_size": 52, "eight_draw_mode": "THREE"},
    )  # fmt: skip
    s = table.ok(s, table.play(0, "8♣"))
    s = table.ok(s, table.draw(0))
    assert table.legal(s, 0) == {"PLAY 8♥"}
    s = table.ok(s, table.play(0, "8♥"))
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))
    assert table.hand(s, 0) == table.bag("K♠ J♦ 5♦ 2♥ 3♥ 4♠")
    assert table.legal(s, 0) == {"PLAY 2♥", "PLAY 3♥"}


def test_A12_restocking_keeps_the_named_suit_of_the_queen_on_top(table):
    # Q♣ on top named ♠; the restock turns Q♦ J♣ 9♥ over, Q♦ comes up first,
    # and ♠ is still the suit to follow.
    s = table.build(
        "cl", 3, discard="Q♦ J♣ 9♥ Q♣", stock="", active="♠", hands={1: "10♥ 8♦ K♥"}, current=1
    )
    assert table.legal(s, 1) == {"DRAW"}
    s = table.ok(s, table.draw(1))
    assert table.drawn(s) == "Q♦"
    assert table.discard(s) == ["Q♣"]
    assert table.stock(s) == ["J♣", "9♥"]
    assert table.active(s) == "♠"
    assert table.legal(s, 1) == table.queen_plays("Q♦") | {"PASS"}


def test_O28_next_the_seat_covering_with_its_last_card_wins(table):
    options = {"six_cover_by": "NEXT"}
    s = table.build("ru", 3, top="10♥", hands={0: "6♥ J♠", 1: "9♥", 2: "K♣"}, options=options)
    s = table.ok(s, table.play(0, "6♥"))
    assert turn(table, s) == (1, "COVER")
    s = table.ok(s, table.play(1, "9♥"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [1]
    assert table.deal_points(s) == [2, 0, 4]


def test_O28_next_a_six_covered_by_a_six_binds_the_seat_after(table):
    options = {"six_cover_by": "NEXT"}
    s = table.build("ru", 3, top="10♥", hands={0: "6♥ …", 1: "6♣ J♠"}, options=options)
    s = table.ok(s, table.play(0, "6♥"))
    s = table.ok(s, table.play(1, "6♣"))
    assert turn(table, s) == (2, "COVER")
    assert table.active(s) == "♣"


def test_O28_next_upcard_six_is_covered_by_the_player_left_of_the_dealer(table):
    s = table.find_deal("ru", 3, "6♦", options={"six_cover_by": "NEXT"})
    left = (s.hundred_and_one.dealer + 1) % 3
    assert turn(table, s) == (left, "COVER")
    assert table.hand_size(s, left) == 4


@pytest.mark.parametrize(
    ("preset", "seats", "upcard", "dealer_cards", "other_cards", "deck"),
    [
        ("cl", 4, "J♥", 4, 5, 36),
        ("ru", 5, "J♥", 3, 4, 36),
        ("alt", 8, "J♥", 3, 4, 52),
    ],
)
def test_1_4_1_1_5_1_the_deal_with_the_dealers_upcard(
    table, preset, seats, upcard, dealer_cards, other_cards, deck
):
    s = table.find_deal(preset, seats, upcard)
    dealer = s.hundred_and_one.dealer
    for seat in range(seats):
        expected = dealer_cards if seat == dealer else other_cards
        assert table.hand_size(s, seat) == expected
    assert table.discard(s) == [upcard]
    assert len(table.stock(s)) == deck - seats * other_cards
    assert turn(table, s) == ((dealer + 1) % seats, "PLAY")


def test_1_3_1_hd_deal_five_each_and_the_leader_leads(table):
    s = table.new("hd", 4, seed=3)
    assert [table.hand_size(s, seat) for seat in range(4)] == [5, 5, 5, 5]
    assert table.discard(s) == []
    assert len(table.stock(s)) == 36 - 20
    assert turn(table, s) == (s.hundred_and_one.dealer, "PLAY")


def test_C7_ru_transfer_with_a_last_seven_is_forbidden_and_passes_on(table):
    # RU with transfer_6_7: P1 answers the pending 7♥ with his last card 7♣;
    # a 7 may not finish, so P1 stays in with no cards and P2 must answer.
    s = table.build(
        "ru", 3, top="7♥", hands={1: "7♣"}, current=1, phase="RESPOND", pending=2,
        options={"transfer_6_7": True},
    )  # fmt: skip
    s = table.ok(s, table.play(1, "7♣"))
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.hand_size(s, 1) == 0
    assert turn(table, s) == (2, "RESPOND")
    assert s.hundred_and_one.pending_draw == 2


@pytest.mark.parametrize(("preset", "draws"), [("cl", 4), ("ru", 5)])
def test_A24_upcard_king_of_spades_hits_the_player_left_of_the_dealer(table, preset, draws):
    s = table.find_deal(preset, 3, "K♠")
    dealer = s.hundred_and_one.dealer
    hand = 5 if preset == "cl" else 4
    assert table.hand_size(s, (dealer + 1) % 3) == hand + draws
    assert table.hand_size(s, (dealer + 2) % 3) == hand
    assert turn(table, s) == ((dealer + 2) % 3, "PLAY")


def test_O27_off_a_last_five_makes_nobody_draw(table):
    hands = {0: "10♣", 1: "5♠", 2: "J♥", 3: "K♥"}
    s = finish(
        table, "alt", 4, hands, "5♠", top="2♠", winner=1, stock="2♥ 3♥ 4♥ J♦ …",
        options={"resolve_final_penalty": False},
    )  # fmt: skip
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_points(s) == [10, 0, 2, 4]
    assert table.stock(s)[:4] == ["2♥", "3♥", "4♥", "J♦"]


def test_O6_ru_first_move_any_a_chosen_six_binds_the_dealer_to_cover(table):
    s = table.build(
        "ru", 3, discard="", hands={2: "6♥ 9♥ J♠ K♣"}, current=2, dealer=2,
        options={"first_move_any": True},
    )  # fmt: skip
    s = table.ok(s, table.play(2, "6♥"))
    assert turn(table, s) == (2, "COVER")
    assert table.legal(s, 2) == {"PLAY 9♥"}
    s = table.ok(s, table.play(2, "9♥"))
    assert turn(table, s) == (0, "PLAY")


def test_0_5_a_penalty_waits_for_an_answer_even_when_the_target_cannot_pass_it_on(table):
    # §0.5 REC: whether a response is possible depends on the options only,
    # never on the target's hand, so P1 without a 6 or 7 still answers.
    s = table.build("hd", 3, top="9♥", hands={0: "7♥ …", 1: "J♠ K♣"})
    s = table.ok(s, table.play(0, "7♥"))
    assert turn(table, s) == (1, "RESPOND")
    assert table.hand(s, 1) == table.bag("J♠ K♣")
    assert table.legal(s, 1) == {"ACCEPT"}
