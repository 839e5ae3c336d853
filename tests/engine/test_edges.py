"""Arithmetic at the edges and garbage in the envelope (issue 7, items 1 and 2).

Each input here once became an exception inside the engine (INTERNAL over
the wire) or was accepted and carried into the next state. Now each is a
precise INVALID_ARGUMENT naming the field, or a documented wrap-around (the
random stream's counter, engine/rng.py). One test per input, named after it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.engine import api, rng
from croupier.engine.errors import InvalidInput
from croupier.v1 import game_pb2, service_pb2

UINT64_MAX = 2**64 - 1
UINT32_MAX = 2**32 - 1
SINT64_MAX = 2**63 - 1
State = game_pb2.GameState


def dealt(preset: str = "hd", seats: int = 3, seed: int = 1) -> State:
    request = service_pb2.NewGameRequest(
        game="hundred_and_one", preset=preset, seat_count=seats, seed=seed
    )
    return api.new_game(request).state


def first_legal(state: State) -> game_pb2.Move:
    request = service_pb2.ListLegalMovesRequest(state=state, seat=state.acting_seats[0])
    return api.list_legal_moves(request).moves[0].move


def apply(state: State, move: game_pb2.Move) -> service_pb2.ApplyMoveResponse:
    return api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))


def next_deal(state: State) -> service_pb2.NextDealResponse:
    return api.next_deal(service_pb2.NextDealRequest(state=state))


def to_deal_end(state: State) -> State:
    """Play the first legal move until the deal ends (a seeded, finite playout)."""
    for _ in range(2000):
        if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
            return state
        response = apply(state, first_legal(state))
        assert response.accepted
        state = response.state
    raise AssertionError("the deal did not end in 2000 moves")


def deal_over(seed: int = 1) -> State:
    """A state just after a deal that did not end the match."""
    for s in range(seed, seed + 50):
        state = to_deal_end(dealt(seed=s))
        if state.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            return state
    raise AssertionError("no deal in 50 seeds left the match going")


def refusal(call: Callable[[], object]) -> tuple[str, str]:
    with pytest.raises(InvalidInput) as caught:
        call()
    return caught.value.violations[0]


# -- counters at their maximum ------------------------------------------------------------


def test_a_legal_move_at_move_number_2_64_minus_1_is_refused() -> None:
    state = dealt()
    move = first_legal(state)
    state.move_number = UINT64_MAX
    assert refusal(lambda: apply(state, move)) == (
        "state.move_number",
        "is at its maximum: no further move can be counted",
    )
    # None is offered there either (fuzz F2, F12): the state is valid, and final.
    request = service_pb2.ListLegalMovesRequest(state=state, seat=state.acting_seats[0])
    assert not api.list_legal_moves(request).moves


def test_the_last_countable_move_is_counted() -> None:
    state = dealt()
    state.move_number = UINT64_MAX - 1
    response = apply(state, first_legal(state))
    assert response.accepted
    assert response.state.move_number == UINT64_MAX


def test_next_deal_at_deal_number_2_32_minus_1_is_refused() -> None:
    state = deal_over()
    state.match.deal_number = UINT32_MAX
    assert refusal(lambda: next_deal(state)) == (
        "state.match.deal_number",
        "is at its maximum: no further deal",
    )


def test_next_deal_with_the_random_counter_near_2_64_wraps_around() -> None:
    # The stream is a cycle of 2^64 draws: the draw after the last is the first.
    state = deal_over()
    state.rng_counter = UINT64_MAX - 2
    after = next_deal(state).state
    assert 0 < after.rng_counter < 1000  # a shuffle's worth of draws past the wrap
    api.check_state(after)  # a valid state: it plays on
    assert first_legal(after)


def test_the_random_counter_wraps_from_its_maximum_to_zero() -> None:
    state = State(seed=UINT64_MAX, rng_counter=UINT64_MAX)
    assert rng.next_u64(state) == rng.mix(UINT64_MAX, UINT64_MAX)
    assert state.rng_counter == 0
    assert rng.next_u64(state) == rng.mix(UINT64_MAX, 0)


# -- totals that would overflow sint64 ------------------------------------------------------


def test_the_deal_ending_move_with_every_total_at_2_63_minus_1_is_refused() -> None:
    # Decision: refuse, not saturate. No 101 total can come near sint64: a seat
    # in the match holds at most 101, an eliminated one 101 plus one hand.
    state = dealt()
    for seat in state.seats:
        seat.score = SINT64_MAX
    assert refusal(lambda: apply(state, first_legal(state))) == (
        "state.seats[0].score",
        f"a total of {SINT64_MAX} puts a seat out of the match; it is not eliminated",
    )


def test_an_eliminated_seat_at_2_63_minus_1_is_refused() -> None:
    state = dealt(seats=4)
    out = next(i for i in range(4) if i != state.current_seat)
    state.seats[out].eliminated = True
    state.seats[out].score = SINT64_MAX
    state.hundred_and_one.stock.extend(state.hundred_and_one.hands[out].cards)
    del state.hundred_and_one.hands[out].cards[:]
    field, message = refusal(lambda: api.check_state(state))
    assert field == f"state.seats[{out}].score"
    assert message.startswith(f"no deal takes a total to {SINT64_MAX}")


def test_the_lowest_total_a_seat_may_hold_is_refused_below_its_bound() -> None:
    # CL: finishing Queens lower a total by at most 40 a deal, for at most
    # 2^32 - 1 deals; below that no match can go, and sums stay in sint64.
    state = dealt("cl")
    state.seats[0].score = -(2**63)
    assert refusal(lambda: api.check_state(state)) == (
        "state.seats[0].score",
        f"below the lowest total these options allow ({-40 * UINT32_MAX})",
    )


# -- garbage in the match record and the seats ------------------------------------------------


def test_next_deal_after_a_deal_won_by_seat_99_is_refused() -> None:
    state = deal_over()
    state.match.deal_winners[0] = 99
    assert refusal(lambda: next_deal(state)) == (
        "state.match.deal_winners[0]",
        "seat 99 does not exist (the table has 3)",
    )


def test_match_winners_naming_a_seat_that_does_not_exist_are_refused() -> None:
    state = deal_over()
    state.match.winners.append(7)
    assert refusal(lambda: next_deal(state)) == (
        "state.match.winners[0]",
        "seat 7 does not exist (the table has 3)",
    )


def test_match_winners_while_no_match_is_over_are_refused() -> None:
    state = deal_over()
    state.match.winners.append(0)
    assert refusal(lambda: next_deal(state)) == (
        "state.match.winners",
        "the match is not over: must be empty",
    )


def test_absurd_deal_points_during_the_first_deal_are_refused() -> None:
    state = dealt()
    state.match.deal_points.extend([10**18, -(10**18), 0])
    assert refusal(lambda: apply(state, first_legal(state))) == (
        "state.match.deal_points",
        "no deal has ended yet: must be empty",
    )


def test_absurd_deal_points_after_a_deal_are_refused() -> None:
    state = deal_over()
    state.match.deal_points[1] = 10**18
    field, message = refusal(lambda: next_deal(state))
    assert field == "state.match.deal_points[1]"
    assert message.endswith(f"got {10**18}")


def test_a_total_past_the_elimination_limit_with_nobody_eliminated_is_refused() -> None:
    state = dealt()
    state.seats[2].score = 150
    assert refusal(lambda: apply(state, first_legal(state))) == (
        "state.seats[2].score",
        "a total of 150 puts a seat out of the match; it is not eliminated",
    )


def test_a_team_number_with_no_partner_is_refused() -> None:
    state = dealt()
    state.seats[1].team = 7
    assert refusal(lambda: apply(state, first_legal(state))) == (
        "state.seats[1].team",
        "team 7 has no partner",
    )


def test_a_state_refused_for_garbage_is_refused_by_every_call() -> None:
    state = deal_over()
    state.match.deal_winners[0] = 99
    calls = [
        lambda: next_deal(state),
        lambda: api.get_view(service_pb2.GetViewRequest(state=state, seat=0)),
        lambda: api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=state, seat=0)),
    ]
    for call in calls:
        assert refusal(call)[0] == "state.match.deal_winners[0]"


# -- the paths these tests would otherwise leave unrun -------------------------------------------


def test_validate_only_answers_without_a_state() -> None:
    state = dealt()
    request = service_pb2.ApplyMoveRequest(state=state, move=first_legal(state), validate_only=True)
    response = api.apply_move(request)
    assert response.accepted
    assert not response.HasField("state")


def test_new_game_and_next_deal_give_each_seat_its_events() -> None:
    request = service_pb2.NewGameRequest(
        game="hundred_and_one", preset="cl", seat_count=3, seed=4, seat_events=True
    )
    assert [e.seat for e in api.new_game(request).seat_events] == [0, 1, 2]
    following = api.next_deal(service_pb2.NextDealRequest(state=deal_over(), seat_events=True))
    assert [e.seat for e in following.seat_events] == [0, 1, 2]


def test_a_view_reads_as_one_line_of_its_games_words() -> None:
    view = api.get_view(service_pb2.GetViewRequest(state=dealt(), seat=0)).view
    assert api.view_text(view)


def test_the_checked_options_cache_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api._checked_options, "bound", 1)
    api._checked_options.clear()
    api.check_state(dealt("hd"))
    api.check_state(dealt("cl"))
    assert len(api._checked_options) == 1
