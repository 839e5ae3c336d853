"""101 test situations (shared/rules/shedding.md §1.9), scoring rows.

Every row is played out end to end: a hand-built table where the winner holds
his last card, the final play, and the exact deal points, running totals,
eliminations and match result ApplyMove scored in the same call. Every seat's
hand is pinned so that every seat's points are known. The tests after the rows
cover the scoring rules of §1.3–§1.6 the table lacks.
"""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.errors import FailedPrecondition
from croupier.v1 import service_pb2


def finish(table, preset, seats, hands, last, *, top="10♥", winner=0, suit=None, **kw):
    """Lay out the table and let `winner` play his last card `last`."""
    state = table.build(preset, seats, top=top, hands=hands, current=winner, **kw)
    return table.ok(state, table.play(winner, last, suit))


# -- §1.9 rows ------------------------------------------------------------------


@pytest.mark.parametrize("named", [None, "♠", "♥", "♦", "♣"])
def test_101_09_finishing_on_the_queen_of_spades_scores_minus_40(table, named):
    hands = {0: "Q♠", 1: "A♣ 9♦", 2: "K♥ 6♠ J♦"}
    s = finish(table, "cl", 3, hands, "Q♠", top="7♥", suit=named)
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]
    assert table.deal_points(s) == [-40, 11, 12]
    assert table.scores(s) == [-40, 11, 12]


def test_101_10_hand_values(table):
    hands = {0: "J♥", 1: "A♣ 9♦ K♥ 6♠ J♦", 2: "8♣"}
    s = finish(table, "cl", 3, hands, "J♥")
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]
    assert table.deal_points(s) == [0, 11 + 0 + 4 + 6 + 2, 8]
    assert table.scores(s) == [0, 23, 8]
    assert table.reason(s, table.draw(1)) == "DEAL_OVER"


def test_101_12_first_bust_ends_the_match(table):
    hands = {0: "J♥", 1: "J♠", 2: "Q♦"}
    s = finish(table, "cl", 3, hands, "J♥", scores=[40, 60, 99])
    assert table.deal_points(s) == [0, 2, 3]
    assert table.scores(s) == [40, 62, 102]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0]  # lowest total among the non-busted
    assert table.eliminated(s) == [False, False, True]
    assert table.reason(s, table.draw(1)) == "MATCH_OVER"
    with pytest.raises(FailedPrecondition):
        api.next_deal(service_pb2.NextDealRequest(state=s))


def test_101_12_eliminate_continue_plays_on_without_the_busted_seat(table):
    hands = {0: "J♥", 1: "J♠", 2: "Q♦"}
    options = {"bust_rule": "ELIMINATE_CONTINUE"}
    s = finish(table, "cl", 3, hands, "J♥", scores=[40, 60, 99], options=options)
    assert table.deal_points(s) == [0, 2, 3]
    assert table.scores(s) == [40, 62, 102]
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.winners(s) == []
    assert table.eliminated(s) == [False, False, True]
    s = table.next_deal(s)
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert s.match.deal_number == 2
    assert table.eliminated(s) == [False, False, True]
    assert table.hand_size(s, 2) == 0
    assert table.hand_size(s, 0) > 0
    assert table.hand_size(s, 1) > 0
    assert s.current_seat != 2


def test_101_13_exactly_100_becomes_50(table):
    hands = {0: "8♦", 1: "J♥", 2: "J♣"}
    s = finish(table, "hd", 3, hands, "J♥", winner=1, scores=[92, 0, 0])
    assert table.deal_winners(s) == [1]
    assert table.deal_points(s) == [8, 0, 2]
    assert table.scores(s) == [50, 0, 2]
    assert table.match_phase(s) == "DEAL_OVER"


def test_101_34_five_as_last_card_prev_draws_four_before_scoring(table):
    hands = {0: "10♣", 1: "5♠", 2: "J♥", 3: "K♥"}
    s = finish(table, "alt", 4, hands, "5♠", top="2♠", winner=1, stock="2♥ 3♥ 4♥ J♦ …")
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [1]
    assert table.deal_points(s) == [10 + 2 + 3 + 4 + 2, 0, 2, 4]


@pytest.mark.parametrize(
    ("preset", "hands", "points"),
    [
        ("ru", {1: "Q♥", 2: "Q♠", 3: "9♠ 9♦"}, [0, 20, 40, 0]),
        ("alt", {1: "Q♥ 2♣", 2: "Q♠", 3: "9♠ 9♦"}, [0, 3 + 2, 40, 0]),
    ],
)
def test_101_36_lone_queen_scores_20_or_40(table, preset, hands, points):
    s = finish(table, preset, 4, {0: "J♥", **hands}, "J♥")
    assert table.deal_points(s) == points
    assert table.scores(s) == points


@pytest.mark.parametrize(
    ("limit", "start", "total", "out"),
    [
        (None, -90, 0, False),  # RU default RESET_AT_OR_BELOW: -130 → 0
        ("RESET_EXACT", -90, -130, False),
        ("RESET_EXACT", -61, 0, False),
        ("ELIMINATE_BELOW", -90, -130, True),
    ],
)
def test_101_37_negative_limit(table, limit, start, total, out):
    options = {"negative_limit": limit} if limit else {}
    hands = {0: "Q♠", 1: "J♣", 2: "J♦"}
    s = finish(table, "ru", 3, hands, "Q♠", scores=[start, 0, 0], options=options)
    assert table.deal_points(s) == [-40, 2, 2]
    assert table.scores(s) == [total, 2, 2]
    assert table.eliminated(s) == [out, False, False]
    assert table.match_phase(s) == "DEAL_OVER"


# -- scoring rules the table lacks (§1.2–§1.6) ---------------------------------------


@pytest.mark.parametrize(("preset", "bonus"), [("cl", -20), ("ru", -20), ("hd", 0)])
def test_finishing_queen_bonus(table, preset, bonus):
    # CL/RU −20 for a Queen (§1.4.3, §1.5.4); HD has no bonus by default (A4).
    hands = {0: "Q♥", 1: "J♣", 2: "J♦"}
    s = finish(table, preset, 3, hands, "Q♥", top="10♣")
    assert table.deal_points(s) == [bonus, 2, 2]


def test_hd_queen_finish_bonus_option(table):
    hands = {0: "Q♠", 1: "J♣", 2: "J♦"}
    s = finish(table, "hd", 3, hands, "Q♠", options={"queen_finish_bonus": True})
    assert table.deal_points(s) == [-40, 2, 2]


@pytest.mark.parametrize(("preset", "total"), [("hd", 50), ("cl", 100)])
def test_exactly_100_only_in_hd(table, preset, total):
    hands = {0: "8♦", 1: "J♥", 2: "J♣"}
    s = finish(table, preset, 3, hands, "J♥", winner=1, scores=[92, 0, 0])
    assert table.scores(s)[0] == total


@pytest.mark.parametrize("preset", ["hd", "cl", "ru", "alt"])
def test_exactly_101_resets_to_zero(table, preset):
    hands = {0: "A♣", 1: "J♥", 2: "J♣"}
    s = finish(table, preset, 3, hands, "J♥", winner=1, scores=[90, 0, 0])
    assert table.deal_points(s) == [11, 0, 2]
    assert table.scores(s) == [0, 0, 2]
    assert table.eliminated(s) == [False, False, False]


def test_hd_above_101_eliminates_and_the_others_play_on(table):
    hands = {0: "A♣", 1: "J♥", 2: "J♣"}
    s = finish(table, "hd", 3, hands, "J♥", winner=1, scores=[95, 0, 0])
    assert table.scores(s) == [106, 0, 2]
    assert table.eliminated(s) == [True, False, False]
    assert table.match_phase(s) == "DEAL_OVER"


def test_hd_last_player_standing_wins_the_match(table):
    hands = {0: "J♥", 1: "A♣"}
    s = finish(table, "hd", 3, hands, "J♥", scores=[10, 95, 104], eliminated=(2,))
    assert table.deal_points(s)[:2] == [0, 11]
    assert table.scores(s)[:2] == [10, 106]
    assert table.eliminated(s) == [False, True, True]
    assert table.match_phase(s) == "MATCH_OVER"
    assert table.winners(s) == [0]


@pytest.mark.parametrize(("k40", "points"), [(False, 4 + 6), (True, 40 + 6)])
def test_hd_king_of_spades_left_in_hand(table, k40, points):
    # O17 kspades_in_hand_40: K♠ scores 40 instead of 4 (A8).
    hands = {0: "J♥", 1: "K♠ 6♣", 2: "J♣"}
    s = finish(table, "hd", 3, hands, "J♥", options={"kspades_in_hand_40": k40})
    assert table.deal_points(s) == [0, points, 2]


@pytest.mark.parametrize(("resolve", "p1_points"), [(True, 2 + 11 + 4), (False, 2)])
def test_final_seven_is_drawn_before_scoring(table, resolve, p1_points):
    # C7 / O27 resolve_final_penalty: the target draws, no transfer possible.
    hands = {0: "7♥", 1: "J♣", 2: "J♦"}
    s = finish(
        table,
        "hd",
        3,
        hands,
        "7♥",
        stock="A♣ K♣ …",
        options={"resolve_final_penalty": resolve},
    )
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]
    assert table.deal_points(s) == [0, p1_points, 2]


@pytest.mark.parametrize(
    ("preset", "top", "last", "drawn"),
    [
        ("cl", "10♥", "6♥", "A♣"),
        ("cl", "K♥", "K♠", "A♣ K♣ 10♣ 8♣"),
        ("hd", "K♥", "K♠", "A♣ K♣ 10♣ 8♣"),
    ],
)
def test_final_penalty_card_is_drawn_before_scoring(table, preset, top, last, drawn):
    hands = {0: last, 1: "J♣", 2: "J♦"}
    s = finish(table, preset, 3, hands, last, top=top, stock="A♣ K♣ 10♣ 8♣ …")
    points = {"A": 11, "K": 4, "10": 10, "8": 8}
    assert table.deal_points(s) == [0, 2 + sum(points[c[:-1]] for c in drawn.split()), 2]


def test_lone_queen_any_single_queen_scope(table):
    # O20 ANY_SINGLE_QUEEN: one Queen among other cards scores 20 (Q♠ 40).
    hands = {0: "J♥", 1: "Q♥ 2♣", 2: "Q♠ 3♦", 3: "Q♦ Q♣"}
    s = finish(table, "alt", 4, hands, "J♥", options={"lone_queen_scope": "ANY_SINGLE_QUEEN"})
    assert table.deal_points(s) == [0, 20 + 2, 40 + 3, 3 + 3]


def test_lone_queen_only_card_scope_ignores_queens_among_other_cards(table):
    hands = {0: "J♥", 1: "Q♥ 2♣", 2: "Q♠ 3♦", 3: "Q♦ Q♣"}
    s = finish(table, "alt", 4, hands, "J♥")
    assert table.deal_points(s) == [0, 3 + 2, 3 + 3, 3 + 3]


def test_alt_low_cards_score_face_value(table):
    hands = {0: "J♥", 1: "2♣ 3♦ 4♥ 5♠", 2: "9♣ 10♦ A♠"}
    s = finish(table, "alt", 3, hands, "J♥")
    assert table.deal_points(s) == [0, 2 + 3 + 4 + 5, 0 + 10 + 11]


# -- the scoring functions directly (the end-to-end tests above are the contract) --


def test_scoring_functions_on_the_rows(table):
    from croupier.games.hundred_and_one import scoring
    from croupier.games.hundred_and_one.rules import rules_for

    def rules(preset, **options):
        return rules_for(table.new(preset, 3, options).options.hundred_and_one)

    def hand(text):
        return [table.c(card) for card in text.split()]

    cl, hd, ru = rules("cl"), rules("hd"), rules("ru")
    alt = rules_for(table.new("alt", 3).options.hundred_and_one)
    assert scoring.hand_points(hand("A♣ 9♦ K♥ 6♠ J♦"), cl) == 23  # 101-10
    assert scoring.hand_points(hand("Q♥"), ru) == 20  # 101-36
    assert scoring.hand_points(hand("Q♠"), ru) == 40
    assert scoring.hand_points(hand("Q♥ 2♣"), alt) == 5
    assert scoring.hand_points(hand("9♠ 9♦"), ru) == 0
    assert scoring.hand_points(hand("Q♥"), cl) == 3
    assert scoring.winner_points(table.c("Q♠"), cl) == -40  # 101-09
    assert scoring.winner_points(table.c("Q♠"), hd) == 0
    assert scoring.settle(92 + 8, hd) == (50, False)  # 101-13
    assert scoring.settle(99 + 3, cl) == (102, True)  # 101-12
    assert scoring.settle(-90 - 40, ru) == (0, False)  # 101-37
    assert scoring.settle(101, cl) == (0, False)
