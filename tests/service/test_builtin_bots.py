"""The built-in bots as a service (BotService/ChooseMove, service/bots.py):
the game's heuristic bot, the same answer on every call, and every view no
game could have made refused as INVALID_ARGUMENT, never a crash."""

from __future__ import annotations

import sys
from pathlib import Path

import grpc
import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.service import bots
from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier.v1 import bot_pb2, bot_pb2_grpc, game_pb2, service_pb2
from croupier_client.bots import heuristic_bot
from croupier_client.bots.rummy import FIRST_JOKER, without
from croupier_client.bots.service import seat_seed

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "fuzz"))

from croupier_fuzz.mutate import Limits, Mutator, apply  # noqa: E402
from croupier_fuzz.source import RandomSource  # noqa: E402

GAMES = ("hundred_and_one", "uno", "scala40", "most", "sto", "one_hundred", "chips_101")


def positions(game: str, seed: int, plies: int = 30) -> list[bot_pb2.ChooseMoveRequest]:
    """ChooseMove requests of the acting seat along a deal played by first moves."""
    seats = 3 if game in ("sto", "one_hundred") else 2
    state = api.new_game(service_pb2.NewGameRequest(game=game, seat_count=seats, seed=seed)).state
    found = []
    for ply in range(plies):
        if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
            break
        seat = state.acting_seats[0]
        moves = api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=state, seat=seat))
        view = api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view
        found.append(bot_pb2.ChooseMoveRequest(view=view, legal_moves=moves.moves, match_id="t"))
        move = moves.moves[ply % len(moves.moves)].move
        state = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move)).state
    return found


@pytest.mark.parametrize("game", GAMES)
def test_the_answer_is_the_heuristic_bots_seeded_by_match_move_and_seat(game: str) -> None:
    for request in positions(game, seed=4)[::3]:
        view = request.view
        seed = seat_seed(f"{request.match_id}/{view.move_number}", view.seat)
        chosen = heuristic_bot(game, seed).choose(view, request.legal_moves)
        answer = bots.choose_move(request)
        assert request.legal_moves[answer.move_index] == chosen
        assert bots.choose_move(request) == answer  # no memory between calls


def test_a_request_without_moves_or_of_an_unknown_game_is_refused() -> None:
    request = positions("uno", seed=1, plies=1)[0]
    empty = bot_pb2.ChooseMoveRequest(view=request.view)
    with pytest.raises(InvalidInput, match="legal_moves: empty"):
        bots.choose_move(empty)
    request.view.game = "poker"
    with pytest.raises(InvalidInput, match="view.game: no built-in bot plays 'poker'"):
        bots.choose_move(request)


def test_a_hand_longer_than_any_pack_is_refused() -> None:
    request = positions("uno", seed=2, plies=1)[0]
    request.view.uno.hand.extend([request.view.uno.hand[0]] * bots.MAX_HAND)
    with pytest.raises(InvalidInput, match=r"view.hand: \d+ cards; no game deals more than 108"):
        bots.choose_move(request)


@pytest.mark.parametrize("game", GAMES)
def test_a_view_list_longer_than_any_game_makes_is_refused(game: str) -> None:
    # Fuzz, session 18: a One Hundred or «Сто» view with 10^6 hand sizes was
    # answered after 1.7 s (the bot read them all); every list of a view, at
    # any depth, is bounded like the hand.
    request = positions(game, seed=3, plies=1)[0]
    request.view.seats.extend([request.view.seats[0]] * bots.MAX_HAND)
    with pytest.raises(InvalidInput, match=r"view.seats: \d+ entries; no view of a game holds"):
        bots.choose_move(request)
    request = positions(game, seed=3, plies=1)[0]
    sizes = getattr(request.view, request.view.WhichOneof("game_view")).hand_sizes
    sizes.extend([1] * (bots.MAX_HAND + 1))
    with pytest.raises(InvalidInput, match=r"view\.\w+\.hand_sizes: \d+ entries"):
        bots.choose_move(request)


def test_a_rummy_move_naming_a_joker_the_hand_lacks_is_a_value_error() -> None:
    # Found by mutating ChooseMove requests: a Scala 40 move that melds a
    # joker from a hand holding none made the bot raise StopIteration (INTERNAL).
    with pytest.raises(ValueError, match="not in the hand"):
        without([5, 6, 7], [5, FIRST_JOKER])
    assert without([5, FIRST_JOKER + 1, 7], [FIRST_JOKER]) == [5, 7]


def test_mutated_requests_get_an_answer_or_invalid_argument() -> None:
    """2,000 mutated real requests of every game: each is answered with a
    move index in range, or refused as InvalidInput; nothing else escapes."""
    requests = [r for game in GAMES for seed in (1, 2) for r in positions(game, seed)[::4]]
    mutator = Mutator(Limits(repeat=1000, messages=100, string=1000))
    source = RandomSource(20261201)
    outcomes = {"answered": 0, "refused": 0}
    for _ in range(2000):
        request = bot_pb2.ChooseMoveRequest()
        request.CopyFrom(requests[source.below(len(requests))])
        request = apply(request, mutator.mutations(source, request, 1 + source.below(3)))
        try:
            answer = bots.choose_move(request)
        except InvalidInput:
            outcomes["refused"] += 1
            continue
        assert answer.move_index < len(request.legal_moves)
        outcomes["answered"] += 1
    assert outcomes["answered"] > 1000 and outcomes["refused"] > 50, outcomes


def _with_move(request: bot_pb2.ChooseMoveRequest, at: int, move: game_pb2.Move) -> None:
    """Put `move` among the request's moves, at index `at` (after the real ones)."""
    while len(request.legal_moves) <= at:
        request.legal_moves.add().CopyFrom(request.legal_moves[0])
    request.legal_moves[at].move.CopyFrom(move)


def test_a_move_of_another_game_than_the_view_is_refused_naming_it() -> None:
    # A 101 view with a UNO move among its moves was answered (index 0, no
    # error): the bot chose among moves it cannot have been offered.
    request = positions("hundred_and_one", seed=1, plies=1)[0]
    uno = positions("uno", seed=1, plies=1)[0].legal_moves[0].move
    uno.seat = request.view.seat
    _with_move(request, 3, uno)
    with pytest.raises(InvalidInput) as caught:
        bots.choose_move(request)
    assert caught.value.violations == [
        ("legal_moves[3].move.uno", "a uno move, but the view is of a hundred_and_one game")
    ]
    _with_move(request, 3, game_pb2.Move(seat=request.view.seat))
    with pytest.raises(InvalidInput) as caught:
        bots.choose_move(request)
    assert caught.value.violations == [("legal_moves[3].move", "missing or empty move")]


@pytest.mark.parametrize("game", GAMES)
def test_a_move_of_another_seat_than_the_views_is_refused_naming_it(game: str) -> None:
    # A move for seat 0 offered with the view of another seat was answered.
    request = positions(game, seed=5, plies=1)[0]
    other = (request.view.seat + 1) % len(request.view.seats)
    move = game_pb2.Move()
    move.CopyFrom(request.legal_moves[0].move)
    move.seat = other
    _with_move(request, len(request.legal_moves), move)
    where = len(request.legal_moves) - 1
    with pytest.raises(InvalidInput) as caught:
        bots.choose_move(request)
    assert caught.value.violations == [
        (
            f"legal_moves[{where}].move.seat",
            f"a move of seat {other}, but the view is seat {request.view.seat}'s: a bot "
            "chooses among its own seat's moves",
        )
    ]


def test_a_view_whose_parts_disagree_on_its_game_is_refused() -> None:
    request = positions("hundred_and_one", seed=1, plies=1)[0]
    uno_view = positions("uno", seed=1, plies=1)[0].view
    mixed = bot_pb2.ChooseMoveRequest()
    mixed.CopyFrom(request)
    mixed.view.uno.CopyFrom(uno_view.uno)  # the game view of another game
    with pytest.raises(InvalidInput) as caught:
        bots.choose_move(mixed)
    assert caught.value.violations == [
        ("view.uno", "a uno view, but the view is of a hundred_and_one game")
    ]
    mixed.CopyFrom(request)
    mixed.view.options.uno.SetInParent()
    with pytest.raises(InvalidInput) as caught:
        bots.choose_move(mixed)
    assert caught.value.violations == [
        ("view.options", "uno options, but the view is of a hundred_and_one game")
    ]
    mixed.CopyFrom(request)
    mixed.view.seat = len(mixed.view.seats)
    with pytest.raises(InvalidInput, match=r"view.seat: seat \d+ does not exist"):
        bots.choose_move(mixed)


def test_the_moves_are_checked_over_grpc_too() -> None:
    request = positions("hundred_and_one", seed=1, plies=1)[0]
    move = game_pb2.Move()
    move.CopyFrom(request.legal_moves[0].move)
    move.seat = (request.view.seat + 1) % len(request.view.seats)
    _with_move(request, 3, move)
    with (
        ServerThread(ServerConfig(port=0, grace=0.0)) as port,
        grpc.insecure_channel(f"127.0.0.1:{port}") as channel,
        pytest.raises(grpc.RpcError) as caught,
    ):
        bot_pb2_grpc.BotServiceStub(channel).ChooseMove(request, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details().startswith("legal_moves[3].move.seat: a move of seat ")
