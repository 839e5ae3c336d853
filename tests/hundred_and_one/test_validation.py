"""Every refusal of 101's state and move checks, each reached by a hand-broken input.

`validate.py` checks the 101 part of a state before any rule runs, and the
shape of a 101 move; `options.py` the dependencies between options (§1.7).
Each case starts from a valid table (a hand-built position or a real deal),
breaks one thing, and names the field path and the message of the refusal.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.engine import api, cards
from croupier.engine.errors import InvalidInput
from croupier.games.hundred_and_one.rules import rules_for
from croupier.games.hundred_and_one.scoring import most_hand_points
from croupier.v1 import game_pb2, service_pb2
from croupier.v1 import hundred_and_one_pb2 as h1

DEAL = "state.hundred_and_one"
OPTIONS = "state.options.hundred_and_one"
State = game_pb2.GameState


def refusal(state: State) -> tuple[str, str]:
    """The (field path, message) of the first violation checking `state` raises."""
    with pytest.raises(InvalidInput) as caught:
        api.check_state(state)
    return caught.value.violations[0]


def phase(name: str) -> int:
    return h1.HundredAndOnePhase.Value(f"HUNDRED_AND_ONE_PHASE_{name}")


def highest_total(state: State) -> int:
    return 101 + most_hand_points(rules_for(state.options.hundred_and_one))


# -- the table around the deal ---------------------------------------------------------


def test_players_option_disagrees_with_the_seats(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"})
    s.options.hundred_and_one.players = 4
    assert refusal(s) == (f"{OPTIONS}.players", "says 4 players but the state has 3 seats")


def test_one_hand_per_seat(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"})
    s.hundred_and_one.hands.add()
    assert refusal(s) == (f"{DEAL}.hands", "needs one hand per seat (3); got 4")


def test_101_has_no_partnerships(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"})
    s.seats[1].team = s.seats[2].team = 2
    assert refusal(s) == ("state.seats[1].team", "101 has no partnerships: must be 0; got 2")


# -- conservation (C: every state holds exactly its deck) --------------------------------


def test_a_card_held_twice(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …", 1: "9♣ …"})
    s.hundred_and_one.hands[1].cards.append(table.c("J♥"))
    field, problem = refusal(s)
    assert field == f"{DEAL}.hands[0].cards"
    assert problem == (
        f"card JH ({table.c('J♥')}) appears too often: 2 copies, the deck has 1 "
        f"(in {DEAL}.hands[0].cards, {DEAL}.hands[1].cards)"
    )


def test_a_card_missing(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"}, stock="A♠ …")
    s.hundred_and_one.stock.remove(table.c("A♠"))
    assert refusal(s) == (DEAL, "card AS is missing")


def test_a_card_of_another_deck(table):
    # The 2♣ is in the 52-card pack only.
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"}, stock="A♠ …")
    s.hundred_and_one.stock.remove(table.c("A♠"))
    s.hundred_and_one.stock.append(cards.card(2, cards.CLUBS))
    field, problem = refusal(s)
    assert (field, problem) == (f"{DEAL}.stock", "card 2C (1) is not in this game's deck")


# -- seats in and out of the match --------------------------------------------------------


def test_a_seat_out_of_the_match_holds_no_cards(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"})
    s.seats[1].eliminated = True
    s.seats[1].score = 102
    assert refusal(s) == (f"{DEAL}.hands[1].cards", "a seat out of the match holds no cards")


def test_a_match_in_play_needs_two_seats_in_it(table):
    s = table.build("hd", 2, top="10♥", hands={0: "J♥ …"}, eliminated=(1,))
    assert refusal(s) == ("state.seats", "a match in play needs two seats still in it")


def test_the_seat_to_act_is_not_out_of_the_match(table):
    s = table.build("hd", 3, top="10♥", hands={1: "J♥ …"}, current=1, eliminated=(0,))
    s.current_seat = 0
    assert refusal(s) == ("state.current_seat", "the seat to act is out of the match")


# -- totals (C8): settled, bounded --------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "total", "message"),
    [
        ("hd", 102, "a total of 102 puts a seat out of the match; it is not eliminated"),
        ("hd", 2**63 - 1, f"a total of {2**63 - 1} puts a seat out of the match; it is not "
                          "eliminated"),
        ("hd", 100, "a total of 100 is reset to 50 (C8): it never stands"),
        ("hd", 101, "a total of 101 is reset to 0 (C8): it never stands"),
        ("ru", -101, "a total of -101 is reset to 0 (C8): it never stands"),
        ("hd", -5, "below the lowest total these options allow (0)"),
        ("cl", -(2**63), f"below the lowest total these options allow ({-40 * (2**32 - 1)})"),
    ],
)  # fmt: skip
def test_a_seat_in_the_match_holds_a_total_the_rules_leave_standing(table, preset, total, message):
    s = table.build(preset, 3, top="10♥", hands={0: "J♥ …"})
    s.seats[1].score = total
    assert refusal(s) == ("state.seats[1].score", message)


def test_an_eliminated_seat_holds_a_total_that_put_it_out(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"}, eliminated=(2,))
    s.seats[2].score = 50
    assert refusal(s) == (
        "state.seats[2].score",
        "an eliminated seat holds a total that put it out; 50 does not",
    )


def test_an_eliminated_seats_total_is_one_a_deal_can_reach(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"}, eliminated=(2,))
    s.seats[2].score = 2**63 - 1
    high = highest_total(s)
    assert refusal(s) == (
        "state.seats[2].score",
        f"no deal takes a total to {2**63 - 1} (the bounds are -40 to {high})",
    )


def test_totals_at_the_edges_of_the_bounds_are_accepted(table):
    s = table.build("ru", 3, top="10♥", hands={0: "J♥ …"}, eliminated=(2,))
    s.seats[1].score = -100  # RESET_AT_OR_BELOW leaves -100 standing
    s.seats[2].score = highest_total(s)
    api.check_state(s)


# -- the last deal's record ---------------------------------------------------------------


def test_a_101_deal_has_one_winner(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"})
    s.match.deal_number = 2
    s.match.deal_winners.extend([0, 1])
    assert refusal(s) == (
        "state.match.deal_winners",
        "a 101 deal has one winner (the seat that went out)",
    )


def test_a_finished_deal_names_its_winner(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"})
    s.match.phase = game_pb2.MATCH_PHASE_DEAL_OVER
    s.hundred_and_one.phase = phase("DEAL_OVER")
    del s.acting_seats[:]
    assert refusal(s) == ("state.match.deal_winners", "a finished deal names its winner")


@pytest.mark.parametrize("points", [-41, 10**6])
def test_deal_points_are_points_one_deal_can_give(table, points):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"})
    s.match.deal_number = 2
    s.match.deal_winners.append(0)
    s.match.deal_points.extend([0, points, 3])
    high = highest_total(s) - 101
    assert refusal(s) == (
        "state.match.deal_points[1]",
        f"one deal gives -40 to {high} points; got {points}",
    )


# -- the deal ---------------------------------------------------------------------------------


def test_the_dealer_is_a_seat(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"}, dealer=5)
    assert refusal(s) == (f"{DEAL}.dealer", "seat 5 does not exist")


def test_an_unknown_phase(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"})
    s.hundred_and_one.phase = 99  # type: ignore[assignment]
    assert refusal(s) == (f"{DEAL}.phase", "unknown phase 99")


def test_deal_over_exactly_when_the_match_says_so(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"}, phase="DEAL_OVER")
    assert refusal(s) == (
        f"{DEAL}.phase",
        "must be DEAL_OVER exactly when the match phase is not in progress",
    )


def test_only_a_lead_starts_from_an_empty_discard_pile(table):
    s = table.build("hd", 3, discard="", hands={0: "J♥ …"}, phase="COVER")
    assert refusal(s) == (
        f"{DEAL}.discard",
        "only a lead (phase PLAY) starts from an empty discard pile",
    )


def test_no_active_suit_on_an_empty_discard_pile(table):
    s = table.build("hd", 3, discard="", hands={0: "J♥ …"}, active="♥")
    assert refusal(s) == (f"{DEAL}.active_suit", "must be unset while the discard pile is empty")


def test_an_active_suit_on_a_card(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"})
    s.hundred_and_one.active_suit = 0  # type: ignore[assignment]
    assert refusal(s) == (
        f"{DEAL}.active_suit",
        "must name a suit when a card is on the discard pile",
    )


def test_the_active_suit_is_the_tops_unless_a_queen_named_it(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♥ …"}, active="♠")
    assert refusal(s) == (
        f"{DEAL}.active_suit",
        "must be the top card's suit unless the top is a Queen",
    )


# -- the turn's own fields ----------------------------------------------------------------------


def test_the_drawn_card_is_in_the_hand(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♣ 8♣"}, phase="DRAWN", drawn="A♠")
    assert refusal(s) == (f"{DEAL}.drawn_card", "must be a card in the hand of the seat to act")


def test_a_drawn_card_only_in_phase_drawn(table):
    s = table.build("hd", 3, top="10♥", hands={0: "J♣ 8♣"}, drawn="J♣")
    assert refusal(s) == (f"{DEAL}.drawn_card", "is set only in phase DRAWN")


def test_respond_needs_a_transferable_card_on_top(table):
    s = table.build("hd", 3, top="8♥", hands={1: "J♣ …"}, current=1, phase="RESPOND", pending=1)
    assert refusal(s) == (
        f"{DEAL}.phase",
        "RESPOND needs a transferable 6 or 7 on top (transfer_6_7)",
    )


def test_respond_pending_is_the_count_of_the_card_on_top(table):
    s = table.build("hd", 3, top="6♥", hands={1: "J♣ …"}, current=1, phase="RESPOND", pending=3)
    assert refusal(s) == (f"{DEAL}.pending_draw", "must be 1, the count of 6H; got 3")


def test_respond_pending_accumulates_at_most_a_whole_chain(table):
    # Four 6s (1 each) and four 7s (2 each, the 7♠ too in HD): 12 at most.
    options = {"transfer_accumulates": True}
    s = table.build(
        "hd", 3, top="7♥", hands={1: "J♣ …"}, current=1, phase="RESPOND", pending=13,
        options=options,
    )  # fmt: skip
    assert refusal(s) == (f"{DEAL}.pending_draw", "must be from 2 to 12 (a whole chain); got 13")


def test_a_pending_count_only_in_phase_respond(table):
    s = table.build("hd", 3, top="6♥", hands={0: "J♣ …"}, pending=1)
    assert refusal(s) == (f"{DEAL}.pending_draw", "is set only in phase RESPOND")


def test_a_drawn_batch_without_a_cover_has_lapsed(table):
    options = {"eight_draw_mode": "THREE"}
    s = table.build(
        "hd", 3, top="8♥", hands={0: "J♣ 9♣"}, phase="COVER", batch_drawn=True, options=options
    )
    assert refusal(s) == (f"{DEAL}.cover_batch_drawn", "a drawn batch without a cover has lapsed")


def test_a_drawn_batch_only_in_phase_cover(table):
    s = table.build("hd", 3, top="8♥", hands={0: "J♥ 9♣"}, batch_drawn=True)
    assert refusal(s) == (f"{DEAL}.cover_batch_drawn", "is set only in phase COVER")


def test_naming_a_suit_needs_a_queen_on_top(table):
    s = table.build("cl", 3, top="10♥", hands={0: "J♥ …"}, phase="NAME_SUIT")
    assert refusal(s) == (f"{DEAL}.phase", "NAME_SUIT needs a Queen on the discard pile")


def test_the_seat_that_leads_holds_a_card(table):
    s = table.build("hd", 3, discard="", hands={0: ""})
    assert refusal(s) == (f"{DEAL}.hands", "the seat that leads needs a card")


# -- option dependencies in a state (§1.7, last column) ------------------------------------


@pytest.mark.parametrize(
    ("preset", "seats", "option", "value", "message"),
    [
        ("hd", 4, "hand_size", 9, "4 players × 9 cards must be fewer than the 36-card deck"),
        ("hd", 3, "upcard_effects", False, "may only be turned off with DEALER_UPCARD"),
        ("hd", 3, "first_move_any", True, "needs opening DEALER_UPCARD"),
        ("cl", 3, "transfer_accumulates", True, "needs transfer_6_7"),
        ("cl", 3, "eight_draw_mode", h1.HUNDRED_AND_ONE_EIGHT_DRAW_MODE_THREE,
         "THREE needs effects HD (only the HD eight must be covered)"),
        ("cl", 3, "eight_last_must_cover", True, "needs effects HD"),
        ("hd", 3, "six_cover_by", h1.HUNDRED_AND_ONE_SIX_COVER_BY_NEXT,
         "NEXT needs effects RU (only the RU six must be covered)"),
        ("hd", 3, "nine_cover_allows_queen", False,
         "may only be turned off with effects CL (only the CL nine must be covered)"),
        ("hd", 3, "lone_queen_scope", h1.HUNDRED_AND_ONE_LONE_QUEEN_SCOPE_ANY_SINGLE_QUEEN,
         "ANY_SINGLE_QUEEN needs lone_queen_penalty"),
        ("hd", 3, "fives_active", True, "needs deck_size 52"),
    ],
)  # fmt: skip
def test_an_option_whose_dependency_is_not_met_is_refused_in_a_state(
    table, preset, seats, option, value, message
):
    s = table.new(preset, seats)
    setattr(s.options.hundred_and_one, option, value)
    assert refusal(s) == (f"{OPTIONS}.{option}", message)


# -- the shape of a move ----------------------------------------------------------------------


def _play(card: int, suit: int = 0) -> game_pb2.Move:
    move = game_pb2.Move(seat=0)
    move.hundred_and_one.play.card = card  # type: ignore[assignment]
    move.hundred_and_one.play.named_suit = suit  # type: ignore[assignment]
    return move


def _no_action() -> game_pb2.Move:
    move = game_pb2.Move(seat=0)
    move.hundred_and_one.SetInParent()
    return move


def _name_no_suit() -> game_pb2.Move:
    move = game_pb2.Move(seat=0)
    move.hundred_and_one.name_suit.SetInParent()
    return move


MOVE = "move.hundred_and_one"


@pytest.mark.parametrize(
    ("build", "path", "message"),
    [
        (_no_action, MOVE, "needs one action: play, draw, pass, accept or name_suit"),
        (lambda: _play(0), f"{MOVE}.play.card", "needs one of the 52 suited cards; got 0"),
        (lambda: _play(cards.RED_JOKER), f"{MOVE}.play.card",
         f"needs one of the 52 suited cards; got {cards.RED_JOKER}"),
        (lambda: _play(cards.card(cards.QUEEN, cards.HEARTS), 9), f"{MOVE}.play.named_suit",
         "a Queen names one of the four suits (unset: its own); got 9"),
        (lambda: _play(cards.card(10, cards.HEARTS), cards.SPADES), f"{MOVE}.play.named_suit",
         "only a Queen names a suit; 10H does not"),
        (_name_no_suit, f"{MOVE}.name_suit.suit", "needs a suit; got 0"),
    ],
    ids=["no_action", "no_card", "joker", "queen_names_no_suit_known", "ten_names_a_suit",
         "name_no_suit"],
)  # fmt: skip
def test_a_malformed_move_is_refused_naming_its_field(
    table, build: Callable[[], game_pb2.Move], path, message
):
    s = table.build("hd", 3, top="10♥", hands={0: "Q♥ 10♣ …"})
    request = service_pb2.ApplyMoveRequest(state=s, move=build())
    with pytest.raises(InvalidInput) as caught:
        api.apply_move(request)
    assert caught.value.violations[0] == (path, message)


# -- totals at the edge of a deal's sums (issue 7: sint64 overflow) ----------------------


def test_the_deal_ending_move_with_every_total_at_2_63_minus_1_is_refused(table):
    # Decision: refuse, not saturate (RULES.md, "What a valid state holds").
    s = table.build("hd", 3, top="10♥", hands={0: "J♥", 1: "K♠ A♣", 2: "10♣"})
    for seat in s.seats:
        seat.score = 2**63 - 1
    with pytest.raises(InvalidInput) as caught:
        table.apply(s, table.play(0, "J♥"))
    assert caught.value.violations[0] == (
        "state.seats[0].score",
        f"a total of {2**63 - 1} puts a seat out of the match; it is not eliminated",
    )


def test_the_deal_ending_move_at_the_highest_standing_totals_scores_exactly(table):
    s = table.build(
        "hd", 3, top="10♥", hands={0: "J♥", 1: "K♠ A♣", 2: "10♣"}, scores=[99, 99, 99],
        options={"kspades_in_hand_40": True},
    )  # fmt: skip
    s = table.ok(s, table.play(0, "J♥"))
    assert table.deal_points(s) == [0, 40 + 11, 10]
    assert table.scores(s) == [99, 150, 109]
    assert table.eliminated(s) == [False, True, True]
    assert table.winners(s) == [0]


def test_a_chains_restock_only_in_phase_cover(table):
    s = table.build("hd", 3, top="8♥", hands={0: "J♥ 9♣"})
    s.hundred_and_one.cover_restocked = True
    assert refusal(s) == (f"{DEAL}.cover_restocked", "is set only in phase COVER")
