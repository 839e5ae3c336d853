"""Bots as services: serve any `Bot` as a BotService, or play a remote one.

    from croupier_client.bots import RandomBot
    from croupier_client.bots.service import serve_bot

    server = serve_bot(lambda game, seed: RandomBot(seed=seed, game=game), "127.0.0.1:50061")
    server.wait_for_termination()

The server keeps one bot per (match id, seat), so a bot that remembers what
it saw during a match gets every call of its match; the oldest are dropped
past `max_matches`. Before a bot is asked, the request is checked as
Croupier's built-in bots check it (`check_request`): a move of another game
or seat than the view's is INVALID_ARGUMENT naming it
(`legal_moves[3].move.seat`), so a bot author sees the same error from any
BotService. An address that cannot be bound is a `ListenFailed` naming it.
A `RemoteBot` is the harness's side: a `Bot` whose `choose` is a ChooseMove
call.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent import futures
from typing import Any, NoReturn

import grpc

from croupier_client.bots import Bot, BotFactory, choose_index
from croupier_client.client import BAD_REQUEST_TYPE, STATUS_DETAILS_KEY, channel_options
from croupier_client.rpc import status_pb2
from croupier_client.v1 import bot_pb2, bot_pb2_grpc, game_pb2, service_pb2

DEFAULT_MAX_MATCHES = 4096
# The games a View can hold: the names of its `game_view` oneof, which are
# also the game ids (`view.game`) and the names of a Move's and GameOptions'
# oneof fields.
GAMES = frozenset(f.name for f in game_pb2.View.DESCRIPTOR.oneofs_by_name["game_view"].fields)
# Characters of a caller's text quoted in an error: a status travels in the
# trailers, which clients cap at a few KB.
_QUOTED_CHARS = 40


def seat_seed(match_id: str, seat: int) -> int:
    """The seed of the bot of `seat` in the match `match_id`: stable across
    processes (not Python's salted hash)."""
    digest = hashlib.sha256(f"{match_id}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class InvalidRequest(ValueError):
    """A ChooseMove request no bot can answer: `field` is the path of the
    field at fault (`legal_moves[3].move.seat`), as the server names it."""

    def __init__(self, field: str, description: str) -> None:
        self.field = field
        self.description = description
        super().__init__(f"{field}: {description}")


def check_request(request: bot_pb2.ChooseMoveRequest) -> None:
    """Raise InvalidRequest unless the request is one a harness could send:
    at least one move; a view whose parts are all of the game it names and
    whose seat exists; every move of that game, by that seat.

    These are the checks (and the words) of Croupier's built-in bots
    (server/croupier/service/bots.py), so any BotService refuses the same
    requests alike. Without them a bot was handed a 101 view with a UNO
    move, or seat 0's moves with seat 2's view, and answered an index that
    means nothing."""
    if not request.legal_moves:
        raise InvalidRequest("legal_moves", "empty: a bot needs at least one move to choose from")
    view = request.view
    # The one check in other words than the server's ("no built-in bot
    # plays"): which games a served bot plays is its factory's business.
    if view.game not in GAMES:
        raise InvalidRequest("view.game", f"no game is named {_quoted(view.game)}")
    kind = view.WhichOneof("game_view")
    if kind is None:
        raise InvalidRequest("view", f"holds no {view.game} view")
    if kind != view.game:
        raise InvalidRequest(
            f"view.{kind}", f"a {kind} view, but the view is of a {view.game} game"
        )
    options = view.options.WhichOneof("game")
    if options is not None and options != view.game:
        raise InvalidRequest(
            "view.options", f"{options} options, but the view is of a {view.game} game"
        )
    if view.seat >= len(view.seats):
        raise InvalidRequest(
            "view.seat", f"seat {view.seat} does not exist (the view has {len(view.seats)})"
        )
    for i, legal in enumerate(request.legal_moves):
        move = legal.move
        move_kind = move.WhichOneof("game_move")
        if move_kind is None:
            raise InvalidRequest(f"legal_moves[{i}].move", "missing or empty move")
        if move_kind != view.game:
            raise InvalidRequest(
                f"legal_moves[{i}].move.{move_kind}",
                f"a {move_kind} move, but the view is of a {view.game} game",
            )
        if move.seat != view.seat:
            raise InvalidRequest(
                f"legal_moves[{i}].move.seat",
                f"a move of seat {move.seat}, but the view is seat {view.seat}'s: a bot "
                "chooses among its own seat's moves",
            )


def _quoted(text: str) -> str:
    """`text` quoted, cut to _QUOTED_CHARS characters."""
    if len(text) <= _QUOTED_CHARS:
        return repr(text)
    return repr(text[:_QUOTED_CHARS]) + "…"


def _refuse(context: grpc.ServicerContext, error: InvalidRequest) -> NoReturn:
    """End the call INVALID_ARGUMENT as the server does: the message is
    `field: description`, and a google.rpc.BadRequest detail names the field
    again (CroupierError.field_violations, the Go client's Violations)."""
    code = grpc.StatusCode.INVALID_ARGUMENT
    bad_request = status_pb2.BadRequest()
    bad_request.field_violations.add(field=error.field, description=error.description)
    status = status_pb2.Status(code=code.value[0], message=str(error))
    status.details.add(type_url=BAD_REQUEST_TYPE, value=bad_request.SerializeToString())
    context.set_trailing_metadata(((STATUS_DETAILS_KEY, status.SerializeToString()),))
    context.abort(code, str(error))
    raise AssertionError("unreachable: context.abort raises")


class ListenFailed(OSError):
    """serve_bot could not bind its address (taken, or not an address of
    this host): the message names the address, as the server's listen
    failures name their port."""

    def __init__(self, address: str, cause: object) -> None:
        self.address = address
        super().__init__(f"cannot listen on {address} (the BotService port): {cause}")


class BotServicer(bot_pb2_grpc.BotServiceServicer):
    """ChooseMove answered by one bot per (match id, seat) from `factory`."""

    def __init__(self, factory: BotFactory, *, max_matches: int = DEFAULT_MAX_MATCHES) -> None:
        self._factory = factory
        self._max = max_matches
        self._bots: OrderedDict[tuple[str, int], Bot] = OrderedDict()
        self._lock = threading.Lock()

    def _bot(self, view: game_pb2.View, match_id: str) -> Bot:
        key = (match_id, view.seat)
        with self._lock:
            bot = self._bots.get(key)
            if bot is None:
                bot = self._factory(view.game, seat_seed(match_id, view.seat))
                self._bots[key] = bot
                while len(self._bots) > self._max:
                    self._bots.popitem(last=False)
            else:
                self._bots.move_to_end(key)
            return bot

    def ChooseMove(  # noqa: N802 (the generated servicer's name)
        self, request: bot_pb2.ChooseMoveRequest, context: grpc.ServicerContext
    ) -> bot_pb2.ChooseMoveResponse:
        # Checked before any bot is made or asked: a bot's code may assume
        # its moves are its seat's moves of its view's game.
        try:
            check_request(request)
        except InvalidRequest as error:
            _refuse(context, error)
        bot = self._bot(request.view, request.match_id)
        index = choose_index(bot, request.view, request.legal_moves)
        return bot_pb2.ChooseMoveResponse(move_index=index)


def serve_bot(
    factory: BotFactory,
    address: str,
    *,
    max_workers: int = 8,
    max_matches: int = DEFAULT_MAX_MATCHES,
) -> grpc.Server:
    """Start a BotService on `address` (e.g. "127.0.0.1:50061"; port 0 picks
    one: read it from `server.bound_port`) and return the started server.
    Raises ListenFailed (an OSError naming `address`) when it cannot bind."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=max_workers))
    bot_pb2_grpc.add_BotServiceServicer_to_server(
        BotServicer(factory, max_matches=max_matches), server
    )
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as error:  # grpc's way of saying the bind failed
        raise ListenFailed(address, error) from error
    if port == 0:  # older grpc versions report a failed bind this way
        raise ListenFailed(address, "the bind failed")
    server.bound_port = port  # type: ignore[attr-defined]
    server.start()
    return server


class RemoteBot:
    """A bot behind a BotService: `choose` is one ChooseMove call."""

    wants_view = True

    def __init__(
        self,
        stub: bot_pb2_grpc.BotServiceStub,
        match_id: str,
        *,
        time_budget_ms: int = 0,
    ) -> None:
        self._stub = stub
        self.match_id = match_id
        self.time_budget_ms = time_budget_ms

    def choose_request(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> bot_pb2.ChooseMoveRequest:
        return bot_pb2.ChooseMoveRequest(
            view=view, legal_moves=moves, time_budget_ms=self.time_budget_ms, match_id=self.match_id
        )

    def choose(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        """The remote bot's choice; ValueError for an index out of range
        (grpc.RpcError when the call fails or runs past the time budget)."""
        timeout = self.time_budget_ms / 1000 if self.time_budget_ms else None
        answer = self._stub.ChooseMove(self.choose_request(view, moves), timeout=timeout)
        if answer.move_index >= len(moves):
            raise ValueError(
                f"the bot answered move {answer.move_index} of {len(moves)} offered moves"
            )
        return moves[answer.move_index]

    def __repr__(self) -> str:
        return f"RemoteBot(match_id={self.match_id!r})"


def remote_bot_factory(target: str, *, time_budget_ms: int = 0) -> BotFactory:
    """Bots behind the BotService at `target`: each made by the factory is
    one match's seat (its seed names the match to the service)."""
    channel = grpc.insecure_channel(target, options=channel_options())
    stub = bot_pb2_grpc.BotServiceStub(channel)

    def make(game: str, seed: int) -> Any:
        return RemoteBot(stub, f"{game}-{seed:016x}", time_budget_ms=time_budget_ms)

    return make
