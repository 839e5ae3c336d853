"""A live session (engine/session.py) is the RPC path without the copies.

Every registered game and preset is played move by move in a Session and,
beside it, through the stateless calls (ApplyMove, ListLegalMoves, NextDeal,
every state checked in full): the legal moves, the events and the state's
bytes must agree at every step — which also proves that a game's
`live_fields` (engine/live.py) name every hot field its rules write.
"""

from __future__ import annotations

import random

import pytest

from croupier.engine import api, registry
from croupier.engine.errors import FailedPrecondition, IllegalMove, InvalidInput
from croupier.engine.session import Session
from croupier.v1 import game_pb2, service_pb2
from croupier_client import playout
from uno.test_out_of_turn_playouts import TABLES as UNO_TABLES

# Moves compared per game and preset: enough to cross deals in the short
# games; the long ones are held to it on their first few hundred moves.
MOVES_COMPARED = 300

TABLES = [
    (game.name, preset.name, max(game.min_seats, preset.min_seats))
    for game in registry.games()
    for preset in game.presets
]


def _listed(state: game_pb2.GameState, seat: int) -> list[service_pb2.LegalMove]:
    request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
    return list(api.list_legal_moves(request).moves)


@pytest.mark.parametrize(("game", "preset", "seats"), TABLES)
def test_a_session_plays_what_the_rpcs_answer(game: str, preset: str, seats: int) -> None:
    _compare(Session.new(game, preset=preset, seat_count=seats, seed=5), game)


@pytest.mark.parametrize("table", sorted(UNO_TABLES))
def test_uno_out_of_turn_windows_in_a_session_are_the_rpcs(table: str) -> None:
    """UNO's windows (jump-ins, catches, slaps, swaps, reveals) live in fields
    a session reads through or mirrors as optional: every house rule on."""
    options, seats = UNO_TABLES[table]
    _compare(Session.new("uno", preset="seed", seat_count=seats, seed=2, options=options), "uno")


def _compare(live: Session, game: str) -> None:
    """Play `live` at random and the same moves through the RPCs; the same
    listings, events and state bytes at every step."""
    state = game_pb2.GameState()
    state.CopyFrom(live.state)
    rnd = random.Random(5)
    deals = 0
    for _ in range(MOVES_COMPARED):
        if live.over:
            break
        if live.deal_over:
            answer = api.next_deal(service_pb2.NextDealRequest(state=state))
            assert list(live.next_deal()) == list(answer.events)
            state = answer.state
            deals += 1
            assert live.state.SerializeToString() == state.SerializeToString()
            continue
        assert live.acting_seats == list(state.acting_seats)
        offered = {seat: live.legal_moves(seat) for seat in range(len(state.seats))}
        for seat, moves in offered.items():
            assert moves == _listed(state, seat), f"seat {seat} at move {state.move_number}"
        choices = [move for seat in sorted(offered) for move in offered[seat]]
        choice = choices[rnd.randrange(len(choices))]
        events = list(live.play(choice))
        answer = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=choice.move))
        assert answer.accepted, answer.rejection.message
        assert events == list(answer.events)
        state = answer.state
        assert live.state.SerializeToString() == state.SerializeToString()
        # What a chooser reads without the message being written back.
        assert live.position.current_seat == state.current_seat
        assert live.position.move_number == state.move_number
    if game == "hundred_and_one":
        assert deals >= 1  # the deal's end and NextDeal were compared too


def test_a_whole_101_match_through_play_live_ends_as_the_rpc_loop_does() -> None:
    from croupier.inprocess import InProcess

    live = Session.new("hundred_and_one", preset="ru", seat_count=5, seed=3)
    moves = playout.play_live(live, playout.uniform(3))
    final, rpc_moves = playout.play_match(
        InProcess(trusted=False), "hundred_and_one", "ru", 5, 3, playout.uniform(3)
    )
    assert moves == rpc_moves
    assert live.state.SerializeToString() == final.SerializeToString()


def _session() -> Session:
    return Session.new("hundred_and_one", preset="hd", seat_count=3, seed=11)


def test_an_illegal_move_raises_with_its_reason_and_changes_nothing() -> None:
    live = _session()
    before = live.state.SerializeToString()
    seat = live.acting_seats[0]
    other = (seat + 1) % 3
    move = game_pb2.Move(seat=other)
    move.hundred_and_one.draw.SetInParent()
    with pytest.raises(IllegalMove) as refused:
        live.apply(move)
    assert refused.value.reason == game_pb2.REJECTION_REASON_NOT_YOUR_TURN
    assert live.state.SerializeToString() == before


def test_a_move_not_offered_here_is_checked_not_trusted() -> None:
    live = _session()
    seat = live.acting_seats[0]
    stale = live.legal_moves(seat)[0]
    live.play(stale)
    # The same LegalMove object, offered one position ago, is checked again:
    # the seat that made it may not act now.
    with pytest.raises(IllegalMove) as refused:
        live.play(stale)
    assert refused.value.reason == game_pb2.REJECTION_REASON_NOT_YOUR_TURN


def test_a_checked_move_is_made_like_a_listed_one() -> None:
    checked, listed = _session(), _session()
    seat = checked.acting_seats[0]
    move = game_pb2.Move()
    move.CopyFrom(checked.legal_moves(seat)[0].move)
    assert list(checked.apply(move)) == list(listed.play(listed.legal_moves(seat)[0]))
    assert checked.state.SerializeToString() == listed.state.SerializeToString()


def test_seats_that_may_not_act_have_no_moves_and_a_missing_seat_is_refused() -> None:
    live = _session()
    acting = live.acting_seats
    assert [seat for seat in range(3) if live.legal_moves(seat)] == acting
    with pytest.raises(InvalidInput, match="seat 7 does not exist"):
        live.legal_moves(7)


def test_next_deal_only_between_deals() -> None:
    live = _session()
    with pytest.raises(FailedPrecondition, match="still in progress"):
        live.next_deal()


def test_a_session_checks_a_state_from_outside() -> None:
    state = _session().state
    state.current_seat = 9
    with pytest.raises(InvalidInput):
        Session(state)


def test_the_state_is_the_sessions_own_copy() -> None:
    start = _session().state
    live = Session(start)
    live.play(live.legal_moves(live.acting_seats[0])[0])
    assert live.state.move_number == start.move_number + 1
