"""The RPC handlers: each one engine call, observed, behind the error map.

Handlers are built from the service descriptor and registered directly (not
through interceptors), so the observation wrapper is made once per method at
start-up rather than once per call. Requests are decoded by a deserializer
that never raises, so unparsable bytes become INVALID_ARGUMENT here instead of
grpc's generic failure.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from google.protobuf import message_factory
from grpc_health.v1 import health_pb2
from grpc_status import rpc_status

from croupier.engine import api
from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.service.config import ServerConfig
from croupier.service.decoding import Unparsable, tolerant_deserializer
from croupier.service.errors import DeadlinePassed, Overloaded, item_error, status_for
from croupier.service.observe import REQUEST_ID, Call, Observer, Tally
from croupier.v1 import service_pb2

SERVICE = service_pb2.DESCRIPTOR.services_by_name["CroupierService"]
SERVICE_NAME = SERVICE.full_name
HEALTH = health_pb2.DESCRIPTOR.services_by_name["Health"]
HEALTH_SERVICE_NAME = HEALTH.full_name

# grpc_type labels of the standard gRPC server metrics.
_UNARY = "unary"
_BIDI = "bidi_stream"
# A batch hands the event loop back this often, so that one large batch does
# not keep a worker's health checks and other calls waiting.
_YIELD_EVERY = 64


def _parsed(request: Any) -> Any:
    if isinstance(request, Unparsable):
        raise InvalidInput("request", f"cannot be parsed as {request.type_name}")
    return request


async def _abort(call: Call, context: Any, error: BaseException, game: str) -> None:
    """End the call with the status `error` maps to (errors.py), observed."""
    status, internal = status_for(error)
    rich = rpc_status.to_status(status)
    call.failed(rich.code.name, status.message, game, error if internal else None)
    await context.abort(
        rich.code, rich.details, (*rich.trailing_metadata, (REQUEST_ID, call.request_id))
    )


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
    """Builds the observed handlers of CroupierService and Health."""

    def __init__(self, config: ServerConfig, observer: Observer) -> None:
        self.config = config
        self.observer = observer

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
            request_class = message_factory.GetMessageClass(method.input_type)
            response_class = message_factory.GetMessageClass(method.output_type)
            kwargs = dict(
                request_deserializer=tolerant_deserializer(request_class),
                response_serializer=response_class.SerializeToString,
            )
            # Unary handlers answer with bytes they encoded (see _encode): no
            # serializer, grpc sends them as they are.
            encoded = dict(kwargs, response_serializer=None)
            if method.name == "ApplyMove":
                behaviour = self._apply_move()
            elif method.name == "ApplyMoveBatch":
                behaviour = self._apply_move_batch()
            elif method.name == "ApplyMoveStream":
                handlers[method.name] = grpc.stream_stream_rpc_method_handler(
                    self._apply_move_stream(), **kwargs
                )
                continue
            else:
                behaviour = self._unary(method.name, engine_calls[method.name])
            handlers[method.name] = grpc.unary_unary_rpc_method_handler(behaviour, **encoded)
        return handlers

    def health(self, servicer: Any) -> dict[str, grpc.RpcMethodHandler]:
        """Health/Check observed like every other unary call (it is the load
        test's baseline, so it must pay the same observation cost); Watch as is."""
        observer = self.observer
        method = observer.metrics.method(_UNARY, HEALTH_SERVICE_NAME, "Check")
        check = servicer.Check

        async def Check(request: Any, context: Any) -> Any:
            call = observer.start(method, context)
            response = await check(request, context)
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

    # -- behaviours -----------------------------------------------------------

    def _unary(self, name: str, engine_call: str) -> Callable[[Any, Any], Awaitable[Any]]:
        observer = self.observer
        limit = self.config.max_message_bytes
        method = observer.metrics.method(_UNARY, SERVICE_NAME, name)

        async def handle(request: Any, context: Any) -> Any:
            call = observer.start(method, context)
            game = ""
            try:
                game = _game_of(_parsed(request))
                data = _encode(getattr(api, engine_call)(request), limit)
            except Exception as error:
                await _abort(call, context, error, game)
            call.ok(game)
            return data

        return handle

    def _apply_move(self) -> Callable[[Any, Any], Awaitable[Any]]:
        observer = self.observer
        limit = self.config.max_message_bytes
        method = observer.metrics.method(_UNARY, SERVICE_NAME, "ApplyMove")

        async def ApplyMove(request: Any, context: Any) -> Any:
            call = observer.start(method, context)
            game = ""
            try:
                game = _parsed(request).state.game
                response = api.apply_move(request)
                data = _encode(response, limit)
            except Exception as error:
                observer.count_invalid_move(game)
                await _abort(call, context, error, game)
            observer.count_move(game, response)
            call.ok(game, response)
            return data

        return ApplyMove

    @staticmethod
    def _apply_item(item: service_pb2.ApplyMoveRequest, result: Any, tally: Tally) -> None:
        """One ApplyMove inside a batch or stream: the unary answer, or its error."""
        game = item.state.game
        try:
            api.apply_move(item, into=result.response)
        except (InvalidInput, FailedPrecondition) as error:
            result.ClearField("response")
            item_error(error, result.error)
            tally.invalid(game)
            return
        tally.move(game, result.response)

    def _apply_move_batch(self) -> Callable[[Any, Any], Awaitable[Any]]:
        observer = self.observer
        method = observer.metrics.method(_UNARY, SERVICE_NAME, "ApplyMoveBatch")
        limit = self.config.max_batch
        max_bytes = self.config.max_message_bytes

        async def ApplyMoveBatch(request: Any, context: Any) -> Any:
            call = observer.start(method, context)
            try:
                items = _parsed(request).items
                if len(items) > limit:
                    raise Overloaded(f"{len(items)} items; this server takes at most {limit}")
                remaining = context.time_remaining()
                deadline = None if remaining is None else time.monotonic() + remaining
                response = service_pb2.ApplyMoveBatchResponse()
                results = response.results
                tally = Tally(observer)
                try:
                    for done, item in enumerate(items):
                        # No item is started once the caller has stopped waiting.
                        if deadline is not None and time.monotonic() >= deadline:
                            raise DeadlinePassed(
                                f"deadline passed after {done} of {len(items)} items"
                            )
                        if done and done % _YIELD_EVERY == 0:
                            tally.flush()
                            await asyncio.sleep(0)  # let health, signals and other calls in
                        self._apply_item(item, results.add(), tally)
                finally:
                    tally.flush()  # the moves played count, even past a deadline
                data = _encode(response, max_bytes)
            except Exception as error:
                await _abort(call, context, error, "")
            call.ok(items=len(items))
            return data

        return ApplyMoveBatch

    def _apply_move_stream(self) -> Callable[[Any, Any], AsyncIterator[Any]]:
        observer = self.observer
        method = observer.metrics.method(_BIDI, SERVICE_NAME, "ApplyMoveStream")

        async def ApplyMoveStream(requests: Any, context: Any) -> AsyncIterator[Any]:
            call = observer.start(method, context)
            count = 0
            try:
                async for request in requests:
                    out = service_pb2.ApplyMoveStreamResponse()
                    if isinstance(request, Unparsable):
                        item_error(
                            InvalidInput("request", f"cannot be parsed as {request.type_name}"),
                            out.result.error,
                        )
                    else:
                        tally = Tally(observer)
                        self._apply_item(request.item, out.result, tally)
                        tally.flush()
                    count += 1
                    yield out
            except Exception as error:
                await _abort(call, context, error, "")
            call.ok(items=count)

        return ApplyMoveStream


def register(
    server: grpc.aio.Server, config: ServerConfig, observer: Observer, health: Any
) -> None:
    """Add CroupierService and Health to `server`, observed."""
    handlers = Handlers(config, observer)
    for name, table in (
        (SERVICE_NAME, handlers.croupier()),
        (HEALTH_SERVICE_NAME, handlers.health(health)),
    ):
        # Registered handlers are grpc's fast path for stubs that name the
        # method; the generic handler serves every other caller (grpcurl).
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, table),))
        server.add_registered_method_handlers(name, table)
