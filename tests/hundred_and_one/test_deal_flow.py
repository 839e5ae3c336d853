"""From one deal to the next (C9, A1, A25, A31): who deals or leads, the
direction, the deal itself; and what NextDeal refuses."""

from __future__ import annotations

import random

import pytest

from croupier.engine import api
from croupier.engine.errors import FailedPrecondition
from croupier.v1 import game_pb2, hundred_and_one_pb2, service_pb2

IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
DEAL_OVER = game_pb2.MATCH_PHASE_DEAL_OVER


def _new(preset: str, seats: int, seed: int) -> game_pb2.GameState:
    request = service_pb2.NewGameRequest(
        game="hundred_and_one", preset=preset, seat_count=seats, seed=seed
    )
    return api.new_game(request).state


def _play_to_deal_end(state: game_pb2.GameState, seed: int) -> game_pb2.GameState:
    """Random legal moves until the deal is over (deterministic per seed)."""
    rnd = random.Random(seed)
    while state.match.phase == IN_PROGRESS:
        request = service_pb2.ListLegalMovesRequest(state=state, seat=state.current_seat)
        move = rnd.choice(api.list_legal_moves(request).moves).move
        state = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move)).state
    return state


def _next(state: game_pb2.GameState) -> game_pb2.GameState:
    return api.next_deal(service_pb2.NextDealRequest(state=state)).state


@pytest.mark.parametrize("seed", range(4))
def test_with_a_dealer_the_deal_passes_clockwise_to_the_next_seat_in_play(seed: int) -> None:
    state = _play_to_deal_end(_new("cl", 4, seed), seed)
    if state.match.phase != DEAL_OVER:
        pytest.skip("this deal ended the match")
    dealer = state.hundred_and_one.dealer
    after = _next(state)
    expected = (dealer + 1) % 4
    while after.seats[expected].eliminated:
        expected = (expected + 1) % 4
    assert after.hundred_and_one.dealer == expected
    assert after.match.deal_number == 2
    # A fresh deal, clockwise again: 5 cards each, the dealer's fifth is the
    # upcard, and the seat after him may have drawn the upcard's penalty.
    deal = after.hundred_and_one
    assert not deal.reversed
    assert len(deal.discard) == 1
    first = (expected + 1) % 4
    while after.seats[first].eliminated:
        first = (first + 1) % 4
    for seat, hand in enumerate(deal.hands):
        if after.seats[seat].eliminated:
            assert not hand.cards
        elif seat == expected:
            assert len(hand.cards) == 4
        elif seat == first:
            assert len(hand.cards) >= 5
        else:
            assert len(hand.cards) == 5


def test_an_eliminated_seat_is_passed_over_when_the_deal_moves_on() -> None:
    state = _play_to_deal_end(_new("ru", 4, 11), 11)
    state.match.phase = DEAL_OVER
    dealer = state.hundred_and_one.dealer
    out = (dealer + 1) % 4
    state.seats[out].eliminated = True
    state.seats[out].score = 102  # the total that put it out (C8)
    after = _next(state)
    assert after.hundred_and_one.dealer == (dealer + 2) % 4
    assert not after.hundred_and_one.hands[out].cards


@pytest.mark.parametrize("seed", range(4))
def test_with_lead_any_the_last_winner_leads_the_next_deal(seed: int) -> None:
    state = _play_to_deal_end(_new("hd", 3, seed), seed)
    if state.match.phase != DEAL_OVER:
        pytest.skip("this deal ended the match")
    [winner] = state.match.deal_winners
    after = _next(state)
    assert after.current_seat == winner
    assert after.hundred_and_one.dealer == winner
    assert not after.hundred_and_one.discard  # he leads any card
    assert len(after.hundred_and_one.hands[winner].cards) == 5


def test_the_first_dealer_is_drawn_by_lot_from_the_seed() -> None:
    dealers = {_new("cl", 4, seed).hundred_and_one.dealer for seed in range(40)}
    assert len(dealers) == 4  # every seat deals first for some seed
    assert _new("cl", 4, 7) == _new("cl", 4, 7)  # and the same seed deals the same


def test_next_deal_is_refused_while_a_deal_is_played_and_after_the_match() -> None:
    state = _new("hd", 2, 1)
    with pytest.raises(FailedPrecondition, match="in progress"):
        _next(state)
    state.match.phase = game_pb2.MATCH_PHASE_MATCH_OVER
    state.match.winners.append(0)
    state.match.deal_winners.append(0)
    state.hundred_and_one.phase = hundred_and_one_pb2.HUNDRED_AND_ONE_PHASE_DEAL_OVER
    del state.acting_seats[:]
    with pytest.raises(FailedPrecondition, match="match is over"):
        _next(state)
