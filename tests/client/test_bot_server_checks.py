"""The Python client's BotService (croupier_client.bots.service) checks a
ChooseMove request as Croupier's built-in bots do, before the bot is asked:
a move of another game or seat than the view's, an empty move, a view whose
parts disagree on its game or whose seat does not exist are INVALID_ARGUMENT
naming the field, in the server's words; and an address serve_bot cannot
bind is named."""

from __future__ import annotations

import socket
from collections.abc import Iterator, Sequence

import grpc
import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.service import bots as builtin_bots
from croupier.v1 import bot_pb2, bot_pb2_grpc, game_pb2, service_pb2
from croupier_client.bots import RandomBot
from croupier_client.bots.service import (
    InvalidRequest,
    ListenFailed,
    check_request,
    serve_bot,
)
from croupier_client.client import CroupierError

GAMES = ("hundred_and_one", "uno", "scala40", "most", "sto", "one_hundred", "chips_101")


def first_position(game: str, seed: int = 1) -> bot_pb2.ChooseMoveRequest:
    """The ChooseMove request of the first acting seat of a new deal."""
    seats = 3 if game in ("sto", "one_hundred") else 2
    state = api.new_game(service_pb2.NewGameRequest(game=game, seat_count=seats, seed=seed)).state
    seat = state.acting_seats[0]
    moves = api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=state, seat=seat))
    view = api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view
    return bot_pb2.ChooseMoveRequest(view=view, legal_moves=moves.moves, match_id="t")


def with_move(request: bot_pb2.ChooseMoveRequest, at: int, move: game_pb2.Move) -> None:
    """Put `move` among the request's moves, at index `at` (after the real ones)."""
    while len(request.legal_moves) <= at:
        request.legal_moves.add().CopyFrom(request.legal_moves[0])
    request.legal_moves[at].move.CopyFrom(move)


def refusal(request: bot_pb2.ChooseMoveRequest) -> tuple[str, str]:
    """The (field, description) the client's check refuses `request` with."""
    with pytest.raises(InvalidRequest) as caught:
        check_request(request)
    assert str(caught.value) == f"{caught.value.field}: {caught.value.description}"
    return caught.value.field, caught.value.description


def bad_requests() -> Iterator[tuple[str, bot_pb2.ChooseMoveRequest]]:
    """Requests a harness cannot send, one per check, each named."""
    hundred = first_position("hundred_and_one")
    uno = first_position("uno")
    other_seat = (hundred.view.seat + 1) % len(hundred.view.seats)

    request = bot_pb2.ChooseMoveRequest(view=hundred.view)
    yield "no moves", request

    request = bot_pb2.ChooseMoveRequest()
    request.CopyFrom(hundred)
    request.view.ClearField("hundred_and_one")
    yield "no game view", request

    request = bot_pb2.ChooseMoveRequest()
    request.CopyFrom(hundred)
    request.view.uno.CopyFrom(uno.view.uno)
    yield "another game's view", request

    request = bot_pb2.ChooseMoveRequest()
    request.CopyFrom(hundred)
    request.view.options.uno.SetInParent()
    yield "another game's options", request

    request = bot_pb2.ChooseMoveRequest()
    request.CopyFrom(hundred)
    request.view.seat = len(request.view.seats)
    yield "a seat that does not exist", request

    request = bot_pb2.ChooseMoveRequest()
    request.CopyFrom(hundred)
    move = game_pb2.Move()
    move.CopyFrom(uno.legal_moves[0].move)
    move.seat = hundred.view.seat
    with_move(request, 3, move)
    yield "another game's move", request

    request = bot_pb2.ChooseMoveRequest()
    request.CopyFrom(hundred)
    with_move(request, 3, game_pb2.Move(seat=hundred.view.seat))
    yield "an empty move", request

    request = bot_pb2.ChooseMoveRequest()
    request.CopyFrom(hundred)
    move = game_pb2.Move()
    move.CopyFrom(hundred.legal_moves[0].move)
    move.seat = other_seat
    with_move(request, 3, move)
    yield "another seat's move", request


def test_a_move_of_another_game_than_the_view_is_refused_naming_it() -> None:
    request = first_position("hundred_and_one")
    uno = first_position("uno").legal_moves[0].move
    uno.seat = request.view.seat
    with_move(request, 3, uno)
    assert refusal(request) == (
        "legal_moves[3].move.uno",
        "a uno move, but the view is of a hundred_and_one game",
    )
    with_move(request, 3, game_pb2.Move(seat=request.view.seat))
    assert refusal(request) == ("legal_moves[3].move", "missing or empty move")


@pytest.mark.parametrize("game", GAMES)
def test_a_move_of_another_seat_than_the_views_is_refused_naming_it(game: str) -> None:
    request = first_position(game, seed=5)
    other = (request.view.seat + 1) % len(request.view.seats)
    move = game_pb2.Move()
    move.CopyFrom(request.legal_moves[0].move)
    move.seat = other
    where = len(request.legal_moves)
    with_move(request, where, move)
    assert refusal(request) == (
        f"legal_moves[{where}].move.seat",
        f"a move of seat {other}, but the view is seat {request.view.seat}'s: a bot "
        "chooses among its own seat's moves",
    )


def test_a_view_whose_parts_disagree_on_its_game_is_refused() -> None:
    refused = {name: refusal(request) for name, request in bad_requests()}
    assert refused["another game's view"] == (
        "view.uno",
        "a uno view, but the view is of a hundred_and_one game",
    )
    assert refused["another game's options"] == (
        "view.options",
        "uno options, but the view is of a hundred_and_one game",
    )
    assert refused["no game view"] == ("view", "holds no hundred_and_one view")
    field, description = refused["a seat that does not exist"]
    assert field == "view.seat" and description.startswith("seat 2 does not exist")


def test_a_view_of_no_game_is_refused_quoting_a_bounded_name() -> None:
    request = first_position("uno")
    request.view.game = "poker"
    assert refusal(request) == ("view.game", "no game is named 'poker'")
    request.view.game = "x" * 10_000
    field, description = refusal(request)
    assert field == "view.game" and len(description) < 80 and description.endswith("…")


def test_the_client_refuses_what_the_built_in_bots_refuse_in_the_same_words() -> None:
    # One contract for every BotService: the server's built-in bots and a
    # bot served by this client name the same field with the same words.
    for name, request in bad_requests():
        with pytest.raises(InvalidInput) as server:
            builtin_bots.choose_move(request)
        assert server.value.violations == [refusal(request)], name


@pytest.mark.parametrize("game", GAMES)
def test_a_real_position_passes_the_checks(game: str) -> None:
    check_request(first_position(game, seed=3))


class _Counted(RandomBot):
    """A random bot counting the calls of its `choose`."""

    calls: list[int] = []

    def choose(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        _Counted.calls.append(view.seat)
        return super().choose(view, moves)


@pytest.fixture
def bot_service() -> Iterator[bot_pb2_grpc.BotServiceStub]:
    """A stub of a serve_bot BotService of counted random bots, on a free port."""
    _Counted.calls.clear()
    made: list[str] = []

    def factory(game: str, seed: int) -> _Counted:
        made.append(game)
        return _Counted(seed=seed, game=game)

    server = serve_bot(factory, "127.0.0.1:0")
    with grpc.insecure_channel(f"127.0.0.1:{server.bound_port}") as channel:
        yield bot_pb2_grpc.BotServiceStub(channel)
    server.stop(0)
    # No bot is made for a refused request, and none is asked.
    assert len(made) == len(_Counted.calls)


def test_the_checks_hold_over_grpc_before_the_bot_is_asked(
    bot_service: bot_pb2_grpc.BotServiceStub,
) -> None:
    for name, request in bad_requests():
        field, description = refusal(request)
        with pytest.raises(grpc.RpcError) as caught:
            bot_service.ChooseMove(request, timeout=10)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, name
        assert caught.value.details() == f"{field}: {description}", name
        # The same google.rpc.BadRequest detail the server attaches.
        error = CroupierError.from_rpc_error("ChooseMove", caught.value)
        assert error.field_violations == ((field, description),), name
    assert _Counted.calls == []
    request = first_position("uno")
    answer = bot_service.ChooseMove(request, timeout=10)
    assert answer.move_index < len(request.legal_moves)
    assert _Counted.calls == [request.view.seat]


def test_an_address_that_is_taken_is_named() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        with pytest.raises(ListenFailed) as caught:
            serve_bot(lambda game, seed: RandomBot(seed=seed, game=game), address)
    assert isinstance(caught.value, OSError)
    assert caught.value.address == address
    assert str(caught.value).startswith(f"cannot listen on {address} (the BotService port): ")


def test_an_address_that_is_no_address_is_named() -> None:
    with pytest.raises(ListenFailed, match="cannot listen on 127.0.0.1:notaport "):
        serve_bot(lambda game, seed: RandomBot(seed=seed, game=game), "127.0.0.1:notaport")


def test_a_failed_bind_reported_as_port_0_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    # grpc versions that return 0 for a failed bind instead of raising.
    real_server = grpc.server

    def server_returning_0(*args: object, **kwargs: object) -> grpc.Server:
        server = real_server(*args, **kwargs)  # type: ignore[arg-type]
        monkeypatch.setattr(server, "add_insecure_port", lambda address: 0)
        return server

    monkeypatch.setattr(grpc, "server", server_returning_0)
    with pytest.raises(ListenFailed, match=r"cannot listen on 127.0.0.1:1 .*: the bind failed"):
        serve_bot(lambda game, seed: RandomBot(seed=seed, game=game), "127.0.0.1:1")
