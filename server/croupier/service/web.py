"""The browser port (`croupier serve --web PORT`): the same service over
HTTP/1.1 for browsers, and the web table's static files.

Browsers cannot speak gRPC (no HTTP/2 trailers from fetch), so this port
serves CroupierService and BotService over the Connect protocol (binary and
JSON) and gRPC-Web, with the `connectrpc` runtime under uvicorn. It runs in
every worker process beside the gRPC server, on the same event loop, and
calls the very method handlers the gRPC port registered (handlers.py): the
same engine, limits, logs, metrics and errors, so the same request gets the
same answer bytes on both ports (tests/service/test_web_port.py).

The protocols are the library's; what is ours is the seam:
- codecs that hand the handlers the request's bytes (decoded by the same
  tolerant deserializer as on the gRPC port) and send the bytes the handlers
  encoded, so no message is parsed or serialized twice;
- `WebContext`, the part of grpc's servicer context the handlers use;
- a failed call's status, code, message and `google.rpc` details turned into
  a `ConnectError` carrying the very detail bytes the gRPC port sends.
"""

from __future__ import annotations

import asyncio
import json
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import uvicorn
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import json_format, message_factory
from google.rpc import status_pb2
from protobuf.wkt import Any as WireAny
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.staticfiles import StaticFiles
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from croupier.engine.errors import InvalidInput
from croupier.service.config import ServerConfig
from croupier.service.decoding import Unparsable, tolerant_deserializer
from croupier.service.errors import DeadlinePassed, Overloaded
from croupier.service.handlers import BOT_SERVICE, SERVICE, Handlers
from croupier.service.observe import REQUEST_ID

# The web table as `make` builds it in a checkout (clients/web), served at /
# when --web-root names no other folder.
DEFAULT_WEB_ROOT = Path(__file__).resolve().parents[3] / "clients" / "web" / "dist"
_STATUS_DETAILS = "grpc-status-details-bin"
# What a browser may send and read across origins: the headers of the
# Connect and gRPC-Web protocols (connectrpc.com/docs/cors) and our request id.
_CORS_ALLOW_HEADERS = (
    "Content-Type", "Connect-Protocol-Version", "Connect-Timeout-Ms", "Connect-Accept-Encoding",
    "Connect-Content-Encoding", "Grpc-Timeout", "X-Grpc-Web", "X-User-Agent", REQUEST_ID,
)  # fmt: skip
_CORS_EXPOSE_HEADERS = (
    "Grpc-Status", "Grpc-Message", "Grpc-Status-Details-Bin", "Content-Encoding",
    "Connect-Content-Encoding", REQUEST_ID, f"Trailer-{REQUEST_ID}",
)  # fmt: skip


@dataclass(frozen=True)
class _Input:
    """What connectrpc calls a method's input class: here the request's
    protobuf class with the gRPC port's tolerant deserializer."""

    message: type[Any]
    parse: Callable[[bytes], Any]


@dataclass(frozen=True)
class _Encoded:
    """An answer the handlers already serialized, with its message class
    (for the JSON codec)."""

    data: bytes
    message: type[Any]


class _ProtoCodec:
    """Binary protobuf: the handlers' bytes in and out, untouched."""

    def name(self) -> str:
        return "proto"

    def encode(self, message: _Encoded) -> bytes:
        return message.data

    def decode(self, data: bytes | bytearray, message_class: _Input) -> Any:
        return message_class.parse(bytes(data))


class _JsonCodec:
    """Protobuf's canonical JSON (what `curl` and connect-web's default
    send). Unknown fields are ignored, as binary protobuf ignores them, so a
    newer client works with an older server."""

    def name(self) -> str:
        return "json"

    def encode(self, message: _Encoded) -> bytes:
        answer = message.message.FromString(message.data)
        return json_format.MessageToJson(answer, indent=None).encode()

    def decode(self, data: bytes | bytearray, message_class: _Input) -> Any:
        request = message_class.message()
        name = request.DESCRIPTOR.full_name
        try:
            value = json.loads(bytes(data) or b"{}")
            if not isinstance(value, dict):
                return Unparsable(name, f"a JSON object is expected, not {type(value).__name__}")
            json_format.ParseDict(value, request, ignore_unknown_fields=True)
        # What the caller's JSON can make the parsers raise (ValueError also
        # covers undecodable bytes; RecursionError, nesting past Python's
        # depth; OverflowError, 1e400 where an integer goes: found by make fuzz).
        except (
            json_format.ParseError,
            ValueError,
            TypeError,
            ArithmeticError,
            RecursionError,
        ) as error:
            return Unparsable(name, str(error)[:200])
        except SystemError as error:
            # upb's way of failing on a key that is no Unicode text (a lone
            # surrogate such as "\ud800", which json.loads lets through): a
            # SystemError over the UnicodeEncodeError it met (found by make
            # fuzz). Say what the encoder said, not upb's internals.
            cause = error.__cause__ or error.__context__
            if not isinstance(cause, UnicodeEncodeError):
                raise
            return Unparsable(name, f"a key is not valid Unicode text ({cause.reason})")
        return request


class WebContext:
    """The part of grpc's ServicerContext the handlers use, over a Connect
    request: its metadata, deadline and status, and for a stream its reads
    and writes."""

    def __init__(self, ctx: RequestContext[Any, Any], requests: AsyncIterator[Any] | None = None):
        self._ctx = ctx
        timeout_ms = ctx.timeout_ms
        self._deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000
        self._code: grpc.StatusCode | None = None
        self._details = ""
        self._trailers: tuple[tuple[str, Any], ...] = ()
        self._requests = requests
        self.answers: asyncio.Queue[bytes | None] = asyncio.Queue()

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        request_id = self._ctx.request_headers.get(REQUEST_ID)
        return () if request_id is None else ((REQUEST_ID, request_id),)

    def set_trailing_metadata(self, metadata: Iterable[tuple[str, Any]]) -> None:
        self._trailers = tuple(metadata)
        for key, value in self._trailers:
            if key == REQUEST_ID:
                self._ctx.response_trailers[REQUEST_ID] = value

    def set_code(self, code: grpc.StatusCode) -> None:
        self._code = code

    def set_details(self, details: str) -> None:
        self._details = details

    def code(self) -> grpc.StatusCode | None:
        return self._code

    def details(self) -> str:
        return self._details

    def time_remaining(self) -> float | None:
        return None if self._deadline is None else self._deadline - time.monotonic()

    async def read(self) -> Any:
        """The stream's next request, or EOF. What the Connect runtime refuses
        while reading one (a message over --max-message-bytes, a broken
        envelope) ends the stream with the status the gRPC port gives the
        same fault, not INTERNAL (fuzz, session 18)."""
        assert self._requests is not None, "read() is for streams"
        try:
            return await anext(self._requests, grpc.aio.EOF)
        except ConnectError as error:
            raise _read_error(error) from None

    async def write(self, data: bytes) -> None:
        self.answers.put_nowait(data)

    def error(self) -> ConnectError:
        """The failed call's status as the Connect runtime sends it."""
        assert self._code is not None
        details = []
        for key, value in self._trailers:
            if key == _STATUS_DETAILS:
                status = status_pb2.Status.FromString(value)
                details = [
                    ErrorDetail(WireAny(type_url=d.type_url, value=d.value)) for d in status.details
                ]
        return ConnectError(_CODES[self._code], self._details, details=details)


def _read_error(error: ConnectError) -> BaseException:
    """The handlers' error for a fault the runtime found in a stream's bytes."""
    if error.code == Code.RESOURCE_EXHAUSTED:
        return Overloaded(error.message)
    if error.code == Code.DEADLINE_EXCEEDED:
        return DeadlinePassed(error.message)
    if error.code == Code.CANCELED:
        return asyncio.CancelledError()  # the client has gone
    return InvalidInput("request", error.message)  # the client's bytes broke the protocol


_CODES = {code: Code[code.name] for code in grpc.StatusCode if code.name in Code.__members__}
_CODES[grpc.StatusCode.CANCELLED] = Code.CANCELED


Unary = Callable[[Any, Any], Awaitable[Any]]


def _unary(handle: Unary, answer: type[Any]) -> Callable[..., Awaitable[_Encoded]]:
    async def endpoint(request: Any, ctx: RequestContext[Any, Any]) -> _Encoded:
        context = WebContext(ctx)
        data = await handle(request, context)
        if context.code() is not None:
            raise context.error()
        return _Encoded(data, answer)

    return endpoint


def _bidi(handle: Unary, answer: type[Any]) -> Callable[..., AsyncIterator[_Encoded]]:
    async def endpoint(
        requests: AsyncIterator[Any], ctx: RequestContext[Any, Any]
    ) -> AsyncIterator[_Encoded]:
        context = WebContext(ctx, requests)
        # The handler reads and writes through the context in a task of its
        # own (as on the gRPC port, where _when_finished needs one); its end
        # is the None after its last answer.
        task = asyncio.ensure_future(handle(requests, context))
        task.add_done_callback(lambda _: context.answers.put_nowait(None))
        try:
            while (data := await context.answers.get()) is not None:
                yield _Encoded(data, answer)
        finally:
            if not task.done():  # the client went: the handler counts it gone
                task.cancel()
        await task
        if context.code() is not None:
            raise context.error()

    return endpoint


class _Service(ConnectASGIApplication[Any]):
    """Every method of CroupierService and BotService, as one application."""

    def __init__(self, handlers: Handlers, read_max_bytes: int) -> None:
        endpoints: dict[str, Any] = {}
        for service in (SERVICE, BOT_SERVICE):
            table = handlers.tables[service.full_name]
            for method in service.methods:
                request = message_factory.GetMessageClass(method.input_type)
                answer = message_factory.GetMessageClass(method.output_type)
                streaming = method.client_streaming or method.server_streaming
                info: MethodInfo[Any, Any] = MethodInfo(
                    name=method.name,
                    service_name=service.full_name,
                    input=_Input(request, tolerant_deserializer(request)),  # type: ignore[arg-type]
                    output=answer,
                    idempotency_level=IdempotencyLevel.UNKNOWN,
                    stream_type=StreamType.BIDI_STREAM if streaming else StreamType.UNARY,
                )
                handler = table[method.name]
                endpoints[f"/{service.full_name}/{method.name}"] = (
                    Endpoint.bidi_stream(info, _bidi(handler.stream_stream, answer))
                    if streaming
                    else Endpoint.unary(info, _unary(handler.unary_unary, answer))
                )
        super().__init__(
            service=None,
            endpoints=lambda _: endpoints,
            read_max_bytes=read_max_bytes,
            codecs=(_ProtoCodec(), _JsonCodec()),  # type: ignore[arg-type]
        )

    @property
    def path(self) -> str:
        return "/croupier.v1."


ASGIApp = Callable[[Any, Any, Any], Awaitable[None]]

# Seconds a connection gets to send a whole request, headers and body, from
# its start or from the end of its last answer (the gRPC port's handshake
# timeout is 10 s). A request is small (a state is kilobytes; the limit is
# --max-message-bytes): 10 s is 400 KB/s for the largest one.
REQUEST_SECONDS = 10.0


class _HttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request to arrive.

    uvicorn waits for ever on a client that connects and sends nothing, half
    a header, or a body a byte at a time (its keep-alive timeout starts only
    after an answer, and any byte stops it), so such clients could hold every
    connection a worker takes. Here a connection whose request is not all in
    within REQUEST_SECONDS is closed; once it is, the call has the time it
    needs."""

    _request_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._await_request()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._request_due is None:  # one pipelined behind an answer in progress
            self._await_request()

    def on_message_complete(self) -> None:
        self._request_in()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        # (Read first: uvicorn starts the next pipelined request here, whose
        # answer has the time it needs.)
        waiting = not self.pipeline
        super().on_response_complete()
        # Waiting for the next request, or for the rest of one already begun.
        if not self.transport.is_closing() and (waiting or self._request_due is not None):
            self._await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self._request_in()
        super().connection_lost(exc)

    def _await_request(self) -> None:
        self._request_in()
        self._request_due = self.loop.call_later(REQUEST_SECONDS, self._request_late)

    def _request_in(self) -> None:
        if self._request_due is not None:
            self._request_due.cancel()
            self._request_due = None

    def _request_late(self) -> None:
        if not self.transport.is_closing():
            self.transport.close()


def application(handlers: Handlers, config: ServerConfig) -> ASGIApp:
    """The web port's ASGI application: RPCs under /croupier.v1.*, the web
    table's files everywhere else, and CORS for the configured origins."""
    rpc = _Service(handlers, config.max_message_bytes)
    root = Path(config.web_root) if config.web_root else DEFAULT_WEB_ROOT
    files: ASGIApp | None = None
    if root.is_dir():
        # StaticFiles raises its 404s; the middleware answers them.
        files = ExceptionMiddleware(StaticFiles(directory=root, html=True))

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(rpc.path):
            await rpc(scope, receive, send)
        elif scope["type"] == "http" and files is not None:
            await files(scope, receive, send)
        elif scope["type"] == "http":
            await _no_web_table(send)

    if not config.web_cors_origins:
        return app
    origins = [o.strip() for o in config.web_cors_origins.split(",") if o.strip()]
    cors: ASGIApp = CORSMiddleware(
        app,
        allow_origins=origins,
        allow_methods=("GET", "POST"),
        allow_headers=_CORS_ALLOW_HEADERS,
        expose_headers=_CORS_EXPOSE_HEADERS,
        max_age=7200,
    )
    return cors


async def _no_web_table(send: Any) -> None:
    body = b"no web table here: build it (make, clients/web) or start with --web-root DIR\n"
    await send(
        {
            "type": "http.response.start",
            "status": 404,
            "headers": [(b"content-type", b"text/plain; charset=utf-8")],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _tls(config: ServerConfig) -> dict[str, Any]:
    if not config.tls_cert:
        return {}
    settings: dict[str, Any] = {"ssl_certfile": config.tls_cert, "ssl_keyfile": config.tls_key}
    if config.tls_client_ca:
        settings |= {"ssl_ca_certs": config.tls_client_ca, "ssl_cert_reqs": ssl.CERT_REQUIRED}
    return settings


async def start(handlers: Handlers, config: ServerConfig, sock: Any) -> uvicorn.Server:
    """Serve the web port on `sock` (bound, SO_REUSEPORT) in this event loop
    until the process ends; the worker's signal handling stays its own."""
    settings = uvicorn.Config(
        application(handlers, config),
        http=_HttpProtocol,
        loop="none",
        lifespan="off",
        log_config=None,
        access_log=False,
        # The answer's bytes are the same on every replica and every call.
        server_header=False,
        date_header=False,
        # Against clients that hold connections (issue 7, as the gRPC port's
        # transport settings): an idle keep-alive connection is closed after
        # 5 s, and past this many connections and calls at once a worker
        # answers 503 at once instead of taking more.
        timeout_keep_alive=5,
        limit_concurrency=config.max_concurrent_rpcs + config.max_streams,
        # Only ServerThread shuts uvicorn down (a worker ends its process):
        # calls still open then get this long.
        timeout_graceful_shutdown=max(1, round(config.grace)),
        **_tls(config),
    )
    settings.load()
    server = uvicorn.Server(settings)
    # Server.serve would install its own signal handlers and main loop; the
    # worker has both already, so only the listeners are started.
    server.lifespan = settings.lifespan_class(settings)
    await server.startup(sockets=[sock])
    return server
