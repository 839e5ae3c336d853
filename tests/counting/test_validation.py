"""Every consistency check of a counting state and every move-shape check,
reached by a hand-broken input: the field path and the problem (RULES.md,
"What a valid state holds")."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.v1 import game_pb2, service_pb2


def refusal(state: game_pb2.GameState) -> tuple[str, str]:
    with pytest.raises(InvalidInput) as error:
        api.check_state(state)
    return error.value.violations[0]


def sto(table, **kw):
    return table.build("sto", 3, hands={0: "A♠ …"}, total=20, **kw)


def hundred(table, **kw):
    return table.build("one_hundred", 3, hands={0: "A♥ …"}, total=20, **kw)


def chips(table, **kw):
    return table.build("chips_101", 3, hands={0: "A♥ …"}, total=20, **kw)


def test_players_must_be_the_seat_count(table) -> None:
    s = hundred(table)
    s.options.one_hundred.players = 4
    assert refusal(s)[0] == "state.options.one_hundred.players"


def test_one_hand_per_seat(table) -> None:
    s = chips(table)
    s.chips_101.hands.add()
    assert refusal(s) == ("state.chips_101.hands", "needs one hand per seat (3); got 4")


def test_the_whole_pack_and_nothing_else(table) -> None:
    s = chips(table)
    s.chips_101.hands[1].cards.append(s.chips_101.hands[2].cards[0])
    field, problem = refusal(s)
    assert field == "state.chips_101.hands[1].cards" and "appears too often" in problem
    s = sto(table)
    s.sto.pile.append(2)  # a 3♣: not in the 32-card pack
    field, problem = refusal(s)
    assert field == "state.sto.pile" and "is not in this game's deck" in problem


def test_sto_has_no_stock(table) -> None:
    s = sto(table)
    s.sto.stock.append(s.sto.hands[1].cards.pop())
    assert refusal(s)[0] == "state.sto.stock"


def test_sto_leftovers_are_32_mod_n(table) -> None:
    s = sto(table)
    s.sto.pile.append(s.sto.leftovers.pop())
    assert refusal(s) == (
        "state.sto.leftovers",
        "3 seats leave 2 of the 32 cards over; got 1",
    )


def test_sto_never_reverses(table) -> None:
    s = sto(table)
    s.sto.reversed = True
    assert refusal(s)[0] == "state.sto.reversed"


def test_only_sto_has_leftovers(table) -> None:
    s = hundred(table)
    s.one_hundred.leftovers.append(s.one_hundred.stock.pop())
    assert refusal(s)[0] == "state.one_hundred.leftovers"


def test_only_sto_with_chips_has_an_exact_hundred_seat(table) -> None:
    s = hundred(table)
    s.one_hundred.exact_hundred_seat = 0
    assert refusal(s)[0] == "state.one_hundred.exact_hundred_seat"
    s = sto(table)
    s.sto.exact_hundred_seat = 0
    assert refusal(s)[0] == "state.sto.exact_hundred_seat"


def test_the_exact_hundred_seat_exists_and_the_total_reached_100(table) -> None:
    s = table.build("sto", 3, preset="hundert", leftovers="7♣ 8♣", hands={0: "A♠ …"}, total=90)
    s.sto.exact_hundred_seat = 1
    assert refusal(s)[1] == "names a seat of the table, once the total has reached 100"
    s.sto.total = 100
    s.sto.exact_hundred_seat = 5
    assert refusal(s)[0] == "state.sto.exact_hundred_seat"


def test_no_hand_larger_than_a_deal_gives(table) -> None:
    s = chips(table)
    s.chips_101.hands[0].cards.append(s.chips_101.stock.pop())
    assert refusal(s) == ("state.chips_101.hands[0].cards", "holds 4 cards; at most 3")


def test_a_seat_out_of_the_match_holds_no_cards(table) -> None:
    s = chips(table, scores=[3, 3, 0], eliminated=(2,))
    s.chips_101.hands[2].cards.append(s.chips_101.stock.pop())
    assert refusal(s)[0] == "state.chips_101.hands[2].cards"


def test_no_partnerships(table) -> None:
    s = sto(table)
    s.seats[0].team = s.seats[1].team = 1
    assert refusal(s)[0] == "state.seats[0].team"


def test_lives_are_from_0_to_the_start(table) -> None:
    s = chips(table)
    s.seats[1].score = 4
    assert refusal(s)[0] == "state.seats[1].score"


def test_out_exactly_with_nothing_left(table) -> None:
    s = chips(table)
    s.seats[1].score = 0
    assert refusal(s)[0] == "state.seats[1].eliminated"


def test_nobody_leaves_sto(table) -> None:
    s = sto(table)
    s.sto.pile.extend(s.sto.hands[1].cards)
    del s.sto.hands[1].cards[:]
    s.seats[1].eliminated = True
    assert refusal(s)[0] == "state.seats[1].eliminated"


def test_sto_penalties_are_what_finished_deals_give(table) -> None:
    s = sto(table, deal_number=2)
    s.seats[1].score = 12  # one finished deal gives at most 11
    assert refusal(s) == ("state.seats[1].score", "1 finished deals give 0 to 11; got 12")
    s.seats[1].score = -1
    assert refusal(s)[0] == "state.seats[1].score"


def test_sto_chip_balances_are_bounded(table) -> None:
    s = table.build("sto", 3, preset="hundert", leftovers="7♣ 8♣", hands={0: "A♠ …"}, total=20)
    s.seats[0].score = -29
    assert refusal(s)[0] == "state.seats[0].score"


def test_a_lives_match_is_over_exactly_when_one_seat_is_left(table) -> None:
    s = chips(table)
    s.match.phase = game_pb2.MATCH_PHASE_MATCH_OVER
    s.match.winners.append(0)
    del s.acting_seats[:]
    assert refusal(s)[0] == "state.seats"


def test_sto_deals_stop_at_the_match_length(table) -> None:
    s = sto(table, deal_number=3)
    s.match.deal_number = 4
    assert refusal(s)[0] == "state.match.deal_number"


def test_a_sto_match_is_over_exactly_after_its_last_deal(table) -> None:
    s = sto(table, deal_number=3)
    s.match.phase = game_pb2.MATCH_PHASE_DEAL_OVER
    s.match.deal_winners.append(1)
    del s.acting_seats[:]
    assert refusal(s) == ("state.match.phase", "the match is over exactly after its last deal")


@pytest.mark.parametrize(("build", "total"), [(sto, 101), (sto, -1), (chips, 102), (hundred, -1)])
def test_a_total_in_play_is_a_safe_one(table, build, total) -> None:
    s = build(table)
    getattr(s, s.game).total = total
    assert refusal(s)[0] == f"state.{s.game}.total"


def test_face_up_leftovers_are_the_lowest_total(table) -> None:
    s = table.build("sto", 3, preset="hundert", leftovers="A♣ K♣", hands={0: "A♠ …"}, total=20)
    s.sto.total = 14
    assert refusal(s) == ("state.sto.total", "must be from 15 to 100 here; got 14")


def test_the_dealer_is_a_seat(table) -> None:
    s = chips(table)
    s.chips_101.dealer = 3
    assert refusal(s)[0] == "state.chips_101.dealer"


def test_the_seat_to_act_is_in_the_match(table) -> None:
    s = chips(table, scores=[3, 3, 0], eliminated=(2,))
    s.current_seat = 2
    del s.acting_seats[:]
    s.acting_seats.append(2)
    assert refusal(s) == ("state.current_seat", "the seat to act is out of the match")


def test_the_seat_to_act_holds_a_card(table) -> None:
    s = chips(table)
    s.chips_101.pile.extend(s.chips_101.hands[0].cards)
    del s.chips_101.hands[0].cards[:]
    assert refusal(s) == ("state.current_seat", "the seat to act holds no card")


# -- move shapes -----------------------------------------------------------------------


def apply(state, move):
    return api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))


def test_a_move_needs_an_action(table) -> None:
    s = chips(table)
    move = game_pb2.Move(seat=0)
    move.chips_101.SetInParent()
    with pytest.raises(InvalidInput) as error:
        apply(s, move)
    assert error.value.violations[0] == ("move.chips_101", "needs one action: play or concede")


@pytest.mark.parametrize("card", [0, 53, 54, 99])
def test_a_play_needs_one_of_the_52_cards(table, card) -> None:
    s = sto(table)
    move = game_pb2.Move(seat=0)
    move.sto.play.card = card  # type: ignore[assignment]
    with pytest.raises(InvalidInput) as error:
        apply(s, move)
    assert error.value.violations[0][0] == "move.sto.play.card"


def test_a_card_not_held_is_a_rejection(table) -> None:
    s = sto(table)
    assert table.reason(s, table.play("sto", 0, "A♠")) == "ACCEPTED"
    assert table.reason(s, table.play("sto", 0, "2♠")) == "CARD_NOT_IN_HAND"
    assert table.rejection(s, table.play("sto", 0, "2♠")).rule == "R-C1-04"
