"""The RPC handlers: each one engine call, observed, behind the error map.

Handlers are built from the service descriptor and registered directly (not
through interceptors), so the observation wrapper is made once per method at
start-up rather than once per call. Requests are decoded by a deserializer
that never raises, so unparsable bytes become INVALID_ARGUMENT here instead of
grpc's generic failure.

Every call goes through one of two wrappers, `_unary` and `_stream`, which
own its life in one code path: observe it, refuse it when the worker is at a
limit or stopping, run it, and end it — with its answer, with the status its
error maps to (`_fail`), or, when the client has gone, with only the count.
A failure sets the call's status and returns instead of raising through
`context.abort`: grpc keeps an abort's exception in the call, and that
exception's traceback leads back to the call, a reference cycle that held the
request and its error until the next full garbage collection (issue 7,
item 5: a worker grew by megabytes per large error).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
from google.protobuf import message_factory
from grpc_health.v1 import health_pb2
from grpc_status import rpc_status

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.service import bots
from croupier.service.config import ServerConfig
from croupier.service.decoding import Unparsable, tolerant_deserializer
from croupier.service.errors import (
    DeadlinePassed,
    Overloaded,
    ShuttingDown,
    is_bug,
    item_error,
    status_for,
)
from croupier.service.observe import REQUEST_ID, Call, Observer, Tally, move_outcome
from croupier.service.sealing import Sealer, load_keyring, trusted
from croupier.v1 import bot_pb2, service_pb2

SERVICE = service_pb2.DESCRIPTOR.services_by_name["CroupierService"]
SERVICE_NAME = SERVICE.full_name
BOT_SERVICE = bot_pb2.DESCRIPTOR.services_by_name["BotService"]
BOT_SERVICE_NAME = BOT_SERVICE.full_name
HEALTH = health_pb2.DESCRIPTOR.services_by_name["Health"]
HEALTH_SERVICE_NAME = HEALTH.full_name

# grpc_type labels of the standard gRPC server metrics.
_UNARY = "unary"
_BIDI = "bidi_stream"
# A batch hands the event loop back this often, so that one large batch does
# not keep a worker's health checks and other calls waiting.
_YIELD_EVERY = 64
# A client's cancel reaches a stream first as the end of its requests, and a
# moment later (a few ms at most, measured) as the cancellation of the
# handler: a stream whose requests end waits that moment out, so that a
# cancelled stream is counted CANCELLED rather than OK.
_CANCEL_SETTLE_SECONDS = 0.02
# The server's deadline of a call runs from when its headers arrived, a little
# after the client's started: the client's cancel at its own deadline reaches
# the server while the server's clock still shows a few milliseconds left (more
# on a loaded machine; a stream at its deadline was counted CANCELLED in a
# loaded test run). A call that ends this close to its deadline ended by it.
_DEADLINE_SLACK_SECONDS = 0.25

Work = Callable[[Any, Call, Any], Awaitable[bytes]]


class _ClientGone(Exception):
    """The client cancelled the call or its deadline passed: nobody to answer."""


def _unparsable(request: Unparsable) -> InvalidInput:
    return InvalidInput("request", f"cannot be parsed as {request.type_name}")


def _parsed(request: Any) -> Any:
    if isinstance(request, Unparsable):
        raise _unparsable(request)
    return request


def _when_finished(callback: Callable[[object], None]) -> None:
    """Call `callback` when grpc has finished the current call: its answer
    handed to the connection, not merely returned by the handler, so that a
    drained worker may end its process without cutting an answer short.
    (The call's task, not `context.add_done_callback`, whose callback holds
    the context in a reference cycle with the call's state.)"""
    task = asyncio.current_task()
    assert task is not None, "a handler runs in grpc's task for its call"
    task.add_done_callback(callback)


def _fail(call: Call, context: Any, error: BaseException) -> None:
    """End the call with the status `error` maps to (errors.py), observed;
    the handler returns no answer after this."""
    status, internal = status_for(error)
    rich = rpc_status.to_status(status)
    call.failed(rich.code.name, status.message, error if internal else None)
    context.set_code(rich.code)
    context.set_details(rich.details)
    context.set_trailing_metadata((*rich.trailing_metadata, (REQUEST_ID, call.request_id)))


def _deadline_passed(context: Any) -> bool:
    """Whether the call's deadline has passed (within _DEADLINE_SLACK_SECONDS)."""
    remaining = context.time_remaining()
    return remaining is not None and remaining <= _DEADLINE_SLACK_SECONDS


def _client_gone(call: Call, context: Any) -> None:
    """Count a call whose client has gone, by why it went."""
    if _deadline_passed(context):
        call.failed(grpc.StatusCode.DEADLINE_EXCEEDED.name, "the caller's deadline passed")
    else:
        call.failed(grpc.StatusCode.CANCELLED.name, "cancelled by the caller")


def _encode(response: Any, limit: int) -> bytes:
    """The response's bytes, serialized once here rather than by grpc, so that
    one too large for grpc to send is refused (Overloaded) while the call can
    still count and log as RESOURCE_EXHAUSTED rather than OK."""
    data: bytes = response.SerializeToString()
    if len(data) > limit:
        raise Overloaded(f"the response is {len(data)} bytes; this server sends at most {limit}")
    return data


def _game_of(request: Any) -> str:
    state = getattr(request, "state", None)
    if state is not None:
        return str(state.game)
    return str(getattr(request, "game", ""))


class Handlers:
    """Builds the observed handlers of CroupierService and Health, and keeps
    the worker's limits: unary calls and open streams each have a budget of
    their own, and health checks are in neither (a busy worker is alive)."""

    def __init__(self, config: ServerConfig, observer: Observer) -> None:
        self.config = config
        self.observer = observer
        self.calls = 0  # unary CroupierService calls not yet finished
        self.streams = 0  # ApplyMoveStream calls not yet finished
        self.refusing = False
        # The method handlers by service name, as registered (`register`):
        # the web port (web.py) serves the same ones.
        self.tables: dict[str, dict[str, grpc.RpcMethodHandler]] = {}
        # Sealed states (sealing.py): the keys are read once per worker.
        self.sealer = Sealer(load_keyring(config.seal_keys), config.sealed_only)

    def _unary_done(self, task: object) -> None:
        self.calls -= 1

    def _stream_done(self, task: object) -> None:
        self.streams -= 1

    def refuse(self) -> None:
        """The server is stopping: every call from now on gets UNAVAILABLE,
        which clients retry elsewhere (grpc's own refusal in its last moments
        is CANCELLED, which they do not)."""
        self.refusing = True

    async def settled(self, timeout: float) -> bool:
        """Wait, at most `timeout` seconds, until no call is in flight; whether
        none is."""
        deadline = time.monotonic() + timeout
        while self.calls or self.streams:
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    def croupier(self) -> dict[str, grpc.RpcMethodHandler]:
        # Engine functions by name, looked up on `api` at call time so that a
        # test can replace one and see what the error map makes of it.
        engine_calls = {
            "ListGames": "list_games",
            "NewGame": "new_game",
            "ListLegalMoves": "list_legal_moves",
            "GetView": "get_view",
            "NextDeal": "next_deal",
            "DefaultMove": "default_move",
            "AnalyseHand": "analyse_hand",
        }
        handlers = {}
        for method in SERVICE.methods:
            deserializer = tolerant_deserializer(message_factory.GetMessageClass(method.input_type))
            # No response serializers: every handler sends bytes it encoded
            # (see _encode), which grpc sends as they are.
            if method.name == "ApplyMoveStream":
                handlers[method.name] = grpc.stream_stream_rpc_method_handler(
                    self._stream(), request_deserializer=deserializer
                )
                continue
            work: Work
            if method.name == "ApplyMove":
                work = self._apply_move
            elif method.name == "ApplyMoveBatch":
                work = self._apply_move_batch
            else:
                work = self._engine_call(engine_calls[method.name])
            handlers[method.name] = grpc.unary_unary_rpc_method_handler(
                self._unary(method.name, work), request_deserializer=deserializer
            )
        return handlers

    def bots(self) -> dict[str, grpc.RpcMethodHandler]:
        """BotService: the built-in bots (bots.py), a unary call like the
        game calls, within the same limits."""
        limit = self.config.max_message_bytes

        async def choose_move(request: Any, call: Call, context: Any) -> bytes:
            call.game = _parsed(request).view.game
            return _encode(bots.choose_move(request), limit)

        method = BOT_SERVICE.methods_by_name["ChooseMove"]
        deserializer = tolerant_deserializer(message_factory.GetMessageClass(method.input_type))
        return {
            method.name: grpc.unary_unary_rpc_method_handler(
                self._unary(method.name, choose_move, BOT_SERVICE_NAME),
                request_deserializer=deserializer,
            )
        }

    def health(self, servicer: Any) -> dict[str, grpc.RpcMethodHandler]:
        """Health/Check observed like every other unary call (it is the load
        test's baseline, so it must pay the same observation cost) but outside
        the call limits; Watch as is."""
        observer = self.observer
        method = observer.metrics.method(_UNARY, HEALTH_SERVICE_NAME, "Check")
        check = servicer.Check

        async def Check(request: Any, context: Any) -> Any:
            call = observer.start(method, context)
            if self.refusing:
                return _fail(call, context, ShuttingDown("the server is stopping"))
            try:
                response = await check(request, context)
            except grpc.aio.AbortError:  # NOT_FOUND: a service it does not know
                call.failed(context.code().name, context.details())
                raise
            call.ok()
            return response

        return {
            "Check": grpc.unary_unary_rpc_method_handler(
                Check,
                request_deserializer=health_pb2.HealthCheckRequest.FromString,
                response_serializer=health_pb2.HealthCheckResponse.SerializeToString,
            ),
            "Watch": grpc.unary_stream_rpc_method_handler(
                servicer.Watch,
                request_deserializer=health_pb2.HealthCheckRequest.FromString,
                response_serializer=health_pb2.HealthCheckResponse.SerializeToString,
            ),
        }

    # -- the two wrappers -------------------------------------------------------

    def _unary(
        self, name: str, work: Work, service: str = SERVICE_NAME
    ) -> Callable[[Any, Any], Awaitable[Any]]:
        observer = self.observer
        method = observer.metrics.method(_UNARY, service, name)
        limit = self.config.max_concurrent_rpcs

        async def handle(request: Any, context: Any) -> Any:
            call = observer.start(method, context)
            if self.refusing:
                return _fail(call, context, ShuttingDown("the server is stopping"))
            if self.calls >= limit:
                return _fail(call, context, Overloaded(f"{limit} calls in flight; retry later"))
            self.calls += 1
            _when_finished(self._unary_done)
            try:
                data = await work(request, call, context)
            except asyncio.CancelledError:
                _client_gone(call, context)
                raise
            except Exception as error:
                return _fail(call, context, error)
            call.ok()
            return data

        handle.__name__ = name
        return handle

    def _stream(self) -> Callable[[Any, Any], Awaitable[None]]:
        observer = self.observer
        method = observer.metrics.method(_BIDI, SERVICE_NAME, "ApplyMoveStream")
        limit = self.config.max_streams

        # A coroutine that reads and writes itself (not an async generator):
        # a send to a client that has gone then fails here, where it is
        # counted, instead of inside grpc, which logs it as an error.
        async def ApplyMoveStream(requests: Any, context: Any) -> None:
            call = observer.start(method, context)
            if self.refusing:
                return _fail(call, context, ShuttingDown("the server is stopping"))
            if self.streams >= limit:
                return _fail(call, context, Overloaded(f"{limit} streams open; retry later"))
            self.streams += 1
            _when_finished(self._stream_done)
            try:
                await self._serve_stream(call, context)
            except (asyncio.CancelledError, _ClientGone):
                _client_gone(call, context)
                # Ended as grpc ends a call its client cancelled: quietly.
                raise asyncio.CancelledError from None
            except Exception as error:
                return _fail(call, context, error)
            call.ok()

        return ApplyMoveStream

    # -- what the calls do --------------------------------------------------------

    def _engine_call(self, name: str) -> Work:
        limit = self.config.max_message_bytes
        sealer = self.sealer

        if name == "list_games":

            async def work(request: Any, call: Call, context: Any) -> bytes:
                return _encode(getattr(api, name)(_parsed(request)), limit)

        elif name == "new_game":

            async def work(request: Any, call: Call, context: Any) -> bytes:
                call.game = _game_of(_parsed(request))
                seal = sealer.must_seal_new_game(request)
                response = getattr(api, name)(request)
                if seal:
                    sealer.close(response, request.match_id)
                return _encode(response, limit)

        else:  # an RPC that takes a state, plain or sealed

            async def work(request: Any, call: Call, context: Any) -> bytes:
                sealed = sealer.open(_parsed(request))
                call.game = _game_of(request)
                if sealed and name == "list_legal_moves" and trusted(request.state):
                    response = api.list_legal_moves(request, trusted=True)
                else:
                    response = getattr(api, name)(request)
                if sealed and name == "next_deal":  # the one that answers a state
                    sealer.close(response, request.sealed_state.match_id)
                return _encode(response, limit)

        return work

    async def _apply_move(self, request: Any, call: Call, context: Any) -> bytes:
        call.game = game = _parsed(request).state.game
        try:
            # A state this server sealed is one its engine produced: no
            # second validation (sealing.trusted; the move is checked anyway).
            sealed = self.sealer.open(request)
            if sealed:
                call.game = game = request.state.game
                response = api.apply_move(request, trusted=trusted(request.state))
                if response.HasField("state"):
                    self.sealer.close(response, request.sealed_state.match_id)
            else:
                response = api.apply_move(request)
        except Exception as error:
            self.observer.count("internal" if is_bug(error) else "invalid", game)
            raise
        self.observer.count(move_outcome(response), game)
        call.response = response
        return _encode(response, self.config.max_message_bytes)

    async def _apply_move_batch(self, request: Any, call: Call, context: Any) -> bytes:
        items = _parsed(request).items
        limit = self.config.max_batch
        if len(items) > limit:
            raise Overloaded(f"{len(items)} items; this server takes at most {limit}")
        call.items = len(items)
        remaining = context.time_remaining()
        deadline = None if remaining is None else time.monotonic() + remaining
        response = service_pb2.ApplyMoveBatchResponse()
        results = response.results
        tally = Tally(self.observer)
        try:
            for done, item in enumerate(items):
                # No item is started once the caller has stopped waiting.
                if deadline is not None and time.monotonic() >= deadline:
                    raise DeadlinePassed(f"deadline passed after {done} of {len(items)} items")
                if done and done % _YIELD_EVERY == 0:
                    tally.flush()
                    await asyncio.sleep(0)  # let health, signals and other calls in
                _apply_item(item, results.add(), tally, call, done, self.sealer)
        finally:
            tally.flush()  # the moves played count, even past a deadline or a cancel
        return _encode(response, self.config.max_message_bytes)

    async def _serve_stream(self, call: Call, context: Any) -> None:
        """Answer requests in order until the client closes its side."""
        idle = self.config.stream_idle_timeout
        limit = self.config.max_message_bytes
        while True:
            # (Not asyncio.wait_for: on Python 3.11 it loses a cancel that
            # comes with the read's result, and a client's cancel does.)
            try:
                async with asyncio.timeout(idle):
                    request = await context.read()
            except TimeoutError:
                raise DeadlinePassed(
                    f"no request for {idle:g} s; a stream waits at most that long for its "
                    "next request"
                ) from None
            if request is grpc.aio.EOF:
                break
            out = service_pb2.ApplyMoveStreamResponse()
            if isinstance(request, Unparsable):
                item_error(_unparsable(request), out.result.error)
            else:
                tally = Tally(self.observer)
                _apply_item(request.item, out.result, tally, call, call.items, self.sealer)
                tally.flush()
            call.items += 1
            data = out.SerializeToString()
            if len(data) > limit:  # this answer alone is refused, not the stream
                too_big = Overloaded(f"the answer is {len(data)} bytes; at most {limit}")
                out.Clear()
                item_error(too_big, out.result.error)
                data = out.SerializeToString()
            try:
                await context.write(data)
            except Exception:  # grpc's error for a send on a call that has ended
                raise _ClientGone from None
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:
            raise _ClientGone  # the requests ended because the deadline did
        await asyncio.sleep(_CANCEL_SETTLE_SECONDS)


def _apply_item(
    item: service_pb2.ApplyMoveRequest,
    result: Any,
    tally: Tally,
    call: Call,
    index: int,
    sealer: Sealer,
) -> None:
    """One ApplyMove inside a batch or stream: the unary answer, or its error.
    Whatever the engine raises (or a sealed state that does not open) fails
    this item alone; a bug (INTERNAL) is logged with its traceback, once."""
    game = item.state.game
    try:
        if sealer.open(item):
            game = item.state.game
            response = api.apply_move(item, into=result.response, trusted=trusted(item.state))
            if response.HasField("state"):
                sealer.close(response, item.sealed_state.match_id)
        else:
            api.apply_move(item, into=result.response)
    except Exception as error:
        result.ClearField("response")
        if item_error(error, result.error):
            call.item_failed(index, game, error)
            tally.add("internal", game)
        else:
            tally.add("invalid", game)
        return
    tally.add(move_outcome(result.response), game)


def register(
    server: grpc.aio.Server, config: ServerConfig, observer: Observer, health: Any
) -> Handlers:
    """Add CroupierService, BotService and Health to `server`, observed; the
    handlers (whose `refuse` and `settled` stop the server gracefully)."""
    handlers = Handlers(config, observer)
    for name, table in (
        (SERVICE_NAME, handlers.croupier()),
        (BOT_SERVICE_NAME, handlers.bots()),
        (HEALTH_SERVICE_NAME, handlers.health(health)),
    ):
        # Registered handlers are grpc's fast path for stubs that name the
        # method; the generic handler serves every other caller (grpcurl).
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, table),))
        server.add_registered_method_handlers(name, table)
        handlers.tables[name] = table
    return handlers
