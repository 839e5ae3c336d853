"""Bots as services: serve any `Bot` as a BotService, or play a remote one.

    from croupier_client.bots import RandomBot
    from croupier_client.bots.service import serve_bot

    server = serve_bot(lambda game, seed: RandomBot(seed=seed, game=game), "127.0.0.1:50061")
    server.wait_for_termination()

The server keeps one bot per (match id, seat), so a bot that remembers what
it saw during a match gets every call of its match; the oldest are dropped
past `max_matches`. A `RemoteBot` is the harness's side: a `Bot` whose
`choose` is a ChooseMove call.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent import futures
from typing import Any

import grpc

from croupier_client.bots import Bot, BotFactory, choose_index
from croupier_client.client import channel_options
from croupier_client.v1 import bot_pb2, bot_pb2_grpc, game_pb2, service_pb2

DEFAULT_MAX_MATCHES = 4096


def seat_seed(match_id: str, seat: int) -> int:
    """The seed of the bot of `seat` in the match `match_id`: stable across
    processes (not Python's salted hash)."""
    digest = hashlib.sha256(f"{match_id}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


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
        if not request.legal_moves:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "legal_moves: empty, nothing to choose")
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
    one: read it from `server.bound_port`) and return the started server."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=max_workers))
    bot_pb2_grpc.add_BotServiceServicer_to_server(
        BotServicer(factory, max_matches=max_matches), server
    )
    port = server.add_insecure_port(address)
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
