"""The browser port (`croupier serve --web PORT`, server/croupier/service/web.py)
as the live phase reaches it: which inputs go there, how, and what comes back
in the gRPC verdict's terms.

A share of the live inputs (`--web-share`) goes to the web port instead of the
gRPC port, drawn per input number from its own generator (seed, "web", i), so
that an input goes the same way when it is replayed or shrunk. There it goes
one of three ways:

* `connect`: Connect unary (or bidi, for ApplyMoveStream) with binary
  `application/proto`, the very bytes the gRPC port would get;
* `json`: Connect unary with `application/json`, the request as
  `json_format.MessageToJson` writes it, and for some inputs mangled below the
  schema (`JsonMutation`: truncated, nested deep, a value of the wrong type,
  invalid UTF-8, numbers past any type, unknown keys): our `_JsonCodec`'s parsing;
* `grpc-web`: gRPC-Web, binary (streams too).

Bytes that do not parse, and requests over `JSON_MAX_BYTES`, go as `connect`
instead of `json`. A `ConnectError` is read as the gRPC port's failure would be
(`as_grpc`): its code (CANCELED is CANCELLED), its message, and its details
as the `google.rpc.Status` bytes of `grpc-status-details-bin`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import grpc
from connectrpc.client import ConnectClientSync
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.protocol import ProtocolType
from google.protobuf import any_pb2, json_format
from google.protobuf.message import Message
from google.rpc import status_pb2

from croupier_fuzz.corpus import REQUEST_TYPES
from croupier_fuzz.source import RandomSource, Source, chance, pick

ROUTES = ("connect", "json", "grpc-web")
# How the web inputs are shared between the routes, per cent.
ROUTE_PERCENT = {"connect": 50, "json": 30, "grpc-web": 20}
# Share of the json inputs whose text is mangled after MessageToJson.
JSON_MUTATED_PERCENT = 35
# Larger requests go as binary: turning a 4 MB message with a million list
# entries into JSON takes the fuzzer seconds, and the JSON is over the limit.
JSON_MAX_BYTES = 1 << 20
DETAILS_KEY = "grpc-status-details-bin"


def route(seed: int, index: int, share: float) -> str | None:
    """Where live input `index` goes: None for the gRPC port, else its web route."""
    if share <= 0 or index < 0:  # warm-up calls (negative numbers) go to the gRPC port
        return None
    source = web_source(seed, index)
    if source.below(10_000) >= round(share * 10_000):
        return None
    point = source.below(100)
    for name, percent in ROUTE_PERCENT.items():
        if point < percent:
            return name
        point -= percent
    return ROUTES[0]


def web_source(seed: int, index: int) -> RandomSource:
    return RandomSource(random.Random(f"{seed}/web/{index}").getrandbits(64))


# -- JSON below the schema ------------------------------------------------------------


@dataclass(frozen=True)
class JsonMutation:
    """A change to the request's JSON text: `op` with its argument. Paths
    are picked by number among the JSON's values (modulo their count), so
    a mutation applies to any JSON, a shrunk request's too."""

    op: str
    arg: Any

    def text(self) -> str:
        return f"json {self.op} {self.arg!r}"[:200]


# Values of the wrong type, and numbers no protobuf type holds.
_WRONG: tuple[Any, ...] = (
    "x", "", 1, -1, 0, 1.5, True, False, None, [], {}, [1], {"a": 1},
    "18446744073709551616", "-9223372036854775809", "1e400", "NaN", "-Infinity", "0x10",
    "AAAA", "!!notbase64", 2**64, -(2**63) - 1,
)  # fmt: skip
_RAW_NUMBERS = ("1e400", "-1e400", "18446744073709551616", "1" + "0" * 400, "-0", "1.0e-400")
_DEPTHS = (10, 100, 1_000, 10_000, 100_000)
_OPS = ("wrong type", "nest", "truncate", "unknown key", "bad utf-8", "raw number", "duplicate key")


def json_mutations(source: Source) -> tuple[JsonMutation, ...]:
    """None most times; else one or two changes to the JSON text."""
    if not chance(source, JSON_MUTATED_PERCENT):
        return ()
    out = []
    for _ in range(1 + source.below(2)):
        op = pick(source, _OPS)
        at = source.below(1 << 30)
        if op == "wrong type":
            out.append(JsonMutation(op, (at, source.below(len(_WRONG)))))
        elif op == "nest":
            out.append(JsonMutation(op, (at, pick(source, _DEPTHS), chance(source, 50))))
        elif op == "truncate":
            out.append(JsonMutation(op, source.below(1000)))  # per mille of the text kept
        elif op == "raw number":
            out.append(JsonMutation(op, (at, pick(source, _RAW_NUMBERS))))
        else:
            out.append(JsonMutation(op, at))
    return tuple(out)


_MARK = "\u0000fuzz-mark\u0000"


def json_body(request: Message, mutations: tuple[JsonMutation, ...]) -> bytes:
    """The request as Connect JSON, with `mutations` applied in order."""
    text = json_format.MessageToJson(request, indent=None)
    for m in mutations:
        text = _apply(text, m)
    return text.encode("utf-8", "surrogateescape")


def _apply(text: str, m: JsonMutation) -> str:
    if m.op == "truncate":
        return text[: len(text) * m.arg // 1000]
    if m.op == "bad utf-8":
        where = m.arg % (len(text) + 1)
        return text[:where] + "\udcff\udcfe" + text[where:]  # bytes 0xff 0xfe once encoded
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # already mangled past JSON: nothing to walk
        return text
    slots = list(_slots(value))
    if not slots:
        return text
    if m.op == "unknown key" or m.op == "duplicate key":
        objects = [s for s in slots if isinstance(s[0], dict)] or [(value, None)]
        parent, _ = objects[m.arg % len(objects)]
        if not isinstance(parent, dict):
            return text
        if m.op == "unknown key":
            parent["zzFuzzUnknown"] = {"a": [1, "x", None]}
            return json.dumps(value)
        parent[_MARK] = 1
        # The same key twice: Python's json keeps the last.
        key = next((k for k in parent if k != _MARK), "game")
        return json.dumps(value).replace(f"{json.dumps(_MARK)}: 1", f"{json.dumps(key)}: {{}}")
    at = m.arg[0]
    parent, key = slots[at % len(slots)]
    if m.op == "wrong type":
        parent[key] = _WRONG[m.arg[1]]
        return json.dumps(value)
    parent[key] = _MARK
    marked = json.dumps(value)
    if m.op == "nest":
        depth, objects = m.arg[1], m.arg[2]
        inner = ('{"a": ' * depth + "1" + "}" * depth) if objects else "[" * depth + "]" * depth
        return marked.replace(json.dumps(_MARK), inner, 1)
    if m.op == "raw number":
        return marked.replace(json.dumps(_MARK), m.arg[1], 1)
    return text


def _slots(value: Any, limit: int = 4000) -> Iterator[tuple[Any, Any]]:
    """(container, key) of the values in `value`, breadth first, at most `limit`."""
    queue = [value]
    count = 0
    while queue:
        node = queue.pop(0)
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in items:
            yield node, key
            count += 1
            if count >= limit:
                return
            if isinstance(child, dict | list):
                queue.append(child)


def parse_json(rpc: str, body: bytes) -> Message | None:
    """The request the web port's JSON codec makes of `body` (web.py's
    `_JsonCodec.decode`): None when it refuses it."""
    request = REQUEST_TYPES[rpc]()
    try:
        value = json.loads(body or b"{}")
        if not isinstance(value, dict):
            return None
        json_format.ParseDict(value, request, ignore_unknown_fields=True)
    # What web.py's codec catches, and anything else (OverflowError...): the
    # server's answer to that is for the verdict to judge.
    except Exception:
        return None
    return request


# -- the client -----------------------------------------------------------------------


class _Bytes:
    """A codec of the connectrpc client that sends and returns bytes as they are."""

    def __init__(self, name: str) -> None:
        self._name = name

    def name(self) -> str:
        return self._name

    def encode(self, message: bytes) -> bytes:
        return message

    def decode(self, data: bytes | bytearray, message_class: object) -> bytes:
        return bytes(data)


def _method(service: str, rpc: str, stream: bool) -> MethodInfo[Any, Any]:
    return MethodInfo(
        name=rpc,
        service_name=service,
        input=bytes,
        output=bytes,
        idempotency_level=IdempotencyLevel.UNKNOWN,
        stream_type=StreamType.BIDI_STREAM if stream else StreamType.UNARY,
    )


class WebClient:
    """Connect (binary, JSON) and gRPC-Web clients of one web port."""

    def __init__(self, port: int, timeout: float) -> None:
        address = f"http://127.0.0.1:{port}"
        common: dict[str, Any] = {"send_compression": None, "timeout_ms": round(timeout * 1000)}
        self.clients = {
            "connect": ConnectClientSync(
                address, codec=_Bytes("proto"), protocol=ProtocolType.CONNECT, **common
            ),
            "json": ConnectClientSync(
                address, codec=_Bytes("json"), protocol=ProtocolType.CONNECT, **common
            ),
            "grpc-web": ConnectClientSync(
                address, codec=_Bytes("proto"), protocol=ProtocolType.GRPC_WEB, **common
            ),
        }

    def unary(self, way: str, service: str, rpc: str, body: bytes, request_id: str) -> bytes:
        """The answer's bytes (JSON for `json`); raises ConnectError."""
        answer = self.clients[way].execute_unary(
            request=body, method=_method(service, rpc, False), headers={"x-request-id": request_id}
        )
        return bytes(answer)

    def stream(
        self, way: str, service: str, rpc: str, items: list[bytes], request_id: str
    ) -> list[bytes]:
        """Every answer of a bidi call; raises ConnectError."""
        answers = self.clients[way].execute_bidi_stream(
            request=iter(items),
            method=_method(service, rpc, True),
            headers={"x-request-id": request_id},
        )
        return [bytes(a) for a in answers]

    def close(self) -> None:
        for client in self.clients.values():
            client.close()


class AsGrpc:
    """A ConnectError read as the gRPC port's failure (what the live judge reads
    of a grpc.RpcError): the code's name, the message, and the details as the
    google.rpc.Status bytes of grpc-status-details-bin."""

    def __init__(self, error: ConnectError) -> None:
        name = error.code.name
        self._code = grpc.StatusCode.CANCELLED if name == "CANCELED" else grpc.StatusCode[name]
        self._message = error.message
        status = status_pb2.Status(code=self._code.value[0], message=error.message)
        for detail in error.details:
            status.details.append(
                any_pb2.Any(
                    type_url=f"type.googleapis.com/{detail.type_name}", value=detail.message_bytes
                )
            )
        self._trailers = ((DETAILS_KEY, status.SerializeToString()),) if error.details else ()

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._message

    def trailing_metadata(self) -> tuple[tuple[str, bytes], ...]:
        return self._trailers
