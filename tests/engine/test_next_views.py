"""ApplyMoveRequest.next_views: the answer carries the view of every acting
seat of the next state, the same as GetView gives, for every game and preset
(a harness hands bots their views in the one call per move)."""

from __future__ import annotations

import random

import pytest

from conformance.suite import Case, cases
from croupier.engine import api
from croupier.inprocess import InProcess
from croupier.v1 import game_pb2, service_pb2

MOVES = 150  # per case: enough to cross turns, windows and (often) a deal end


@pytest.mark.parametrize("case", cases(), ids=lambda case: case.id)
def test_next_views_are_the_views_of_the_acting_seats(case: Case) -> None:
    backend = InProcess()
    rnd = random.Random(case.id)
    state = backend.new_game(case.game, preset=case.preset, seat_count=case.seats, seed=7).state
    checked = 0
    for _ in range(MOVES):
        if state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER:
            break
        if state.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            state = backend.next_deal(state).state
            continue
        moves = [m for seat in state.acting_seats for m in backend.legal_moves(state, seat)]
        choice = moves[rnd.randrange(len(moves))]
        answer = backend.apply(state, choice.move, next_legal_moves=True, next_views=True)
        assert answer.accepted
        state = answer.state
        in_progress = state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
        expected_seats = list(state.acting_seats) if in_progress else []
        assert [view.seat for view in answer.next_views] == expected_seats
        assert [entry.seat for entry in answer.next_legal_moves] == expected_seats
        for view in answer.next_views:
            request = service_pb2.GetViewRequest(state=state, seat=view.seat)
            assert view == api.get_view(request).view
            checked += 1
    assert checked > 0


def test_no_views_unless_asked() -> None:
    backend = InProcess()
    state = backend.new_game("hundred_and_one", preset="hd", seat_count=2, seed=1).state
    move = backend.legal_moves(state, state.current_seat)[0].move
    assert not backend.apply(state, move, next_legal_moves=True).next_views
