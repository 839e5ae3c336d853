"""The browser port (`--web`) answers what the gRPC port answers, byte for byte.

One server with both ports; every RPC of CroupierService and BotService is
sent as the same bytes to the gRPC port (grpc, no stubs: bytes in, bytes
out) and to the web port over the Connect protocol and over gRPC-Web (the
connectrpc client, with a codec that passes bytes through). The answers must
be the same bytes, and a failure the same code, message and `google.rpc`
detail bytes. Plus what only the web port has: JSON, CORS, the static files.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from connectrpc.client import ConnectClientSync
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.protocol import ProtocolType
from google.protobuf import json_format
from google.rpc import status_pb2
from prometheus_client import REGISTRY
from structlog.testing import capture_logs

from croupier.engine import api
from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier.v1 import bot_pb2, game_pb2, service_pb2

MAX_BATCH = 4
SERVICE = "croupier.v1.CroupierService"
BOTS = "croupier.v1.BotService"


class _Bytes:
    """A codec of the connectrpc client that sends and returns raw bytes."""

    def name(self) -> str:
        return "proto"

    def encode(self, message: bytes) -> bytes:
        return message

    def decode(self, data: bytes | bytearray, message_class: object) -> bytes:
        return bytes(data)


@dataclass(frozen=True)
class Answer:
    """An RPC's outcome as bytes: the answer, or the failure's code, message
    and detail (type, bytes) pairs."""

    data: bytes | None = None
    code: str = "OK"
    message: str = ""
    details: tuple[tuple[str, bytes], ...] = ()


@pytest.fixture(scope="module")
def ports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int, Path]]:
    root = tmp_path_factory.mktemp("web-root")
    (root / "index.html").write_text("<!doctype html><title>table</title>", encoding="utf-8")
    config = ServerConfig(
        port=0,
        web_port=0,
        web_root=str(root),
        web_cors_origins="http://cards.example",
        max_batch=MAX_BATCH,
    )
    server = ServerThread(config)
    port = server.start()
    try:
        yield port, server.web_port, root
    finally:
        server.stop()


def via_grpc(port: int, service: str, method: str, data: bytes) -> Answer:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_unary(f"/{service}/{method}")
        try:
            return Answer(call(data, timeout=30))
        except grpc.RpcError as error:
            return _grpc_failure(error)


def _grpc_failure(error: Any) -> Answer:
    details: tuple[tuple[str, bytes], ...] = ()
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            details = tuple((d.type_url, d.value) for d in status.details)
    return Answer(None, error.code().name, error.details(), details)


def _method(service: str, method: str, stream: bool = False) -> MethodInfo[Any, Any]:
    return MethodInfo(
        name=method,
        service_name=service,
        input=bytes,
        output=bytes,
        idempotency_level=IdempotencyLevel.UNKNOWN,
        stream_type=StreamType.BIDI_STREAM if stream else StreamType.UNARY,
    )


def _client(port: int, protocol: ProtocolType) -> ConnectClientSync:
    return ConnectClientSync(
        f"http://127.0.0.1:{port}", codec=_Bytes(), protocol=protocol, send_compression=None
    )


def _connect_failure(error: ConnectError) -> Answer:
    code = "CANCELLED" if error.code.name == "CANCELED" else error.code.name
    details = tuple((f"type.googleapis.com/{d.type_name}", d.message_bytes) for d in error.details)
    return Answer(None, code, error.message, details)


def via_web(port: int, service: str, method: str, data: bytes, protocol: ProtocolType) -> Answer:
    with _client(port, protocol) as client:
        try:
            return Answer(client.execute_unary(request=data, method=_method(service, method)))
        except ConnectError as error:
            return _connect_failure(error)


PROTOCOLS = (ProtocolType.CONNECT, ProtocolType.GRPC_WEB)


def assert_same(ports: tuple[int, int, Path], service: str, method: str, data: bytes) -> Answer:
    grpc_port, web_port, _ = ports
    expected = via_grpc(grpc_port, service, method, data)
    for protocol in PROTOCOLS:
        assert via_web(web_port, service, method, data, protocol) == expected, protocol.name
    return expected


# -- positions ------------------------------------------------------------------


def new_game(game: str = "uno", seed: int = 3, seats: int = 2) -> game_pb2.GameState:
    request = service_pb2.NewGameRequest(game=game, seat_count=seats, seed=seed)
    return api.new_game(request).state


def legal(state: game_pb2.GameState, seat: int | None = None) -> list[service_pb2.LegalMove]:
    seat = state.acting_seats[0] if seat is None else seat
    request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
    return list(api.list_legal_moves(request).moves)


def deal_over(game: str = "hundred_and_one", seed: int = 5) -> game_pb2.GameState:
    """A state whose first deal is over, played with every seat's first move."""
    state = new_game(game, seed)
    while state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
        move = legal(state)[0].move
        state = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move)).state
    return state


def bytes_of(message: Any) -> bytes:
    return bytes(message.SerializeToString(deterministic=True))


# -- one test per RPC: an answer, and a failure -----------------------------------


def test_list_games(ports: Any) -> None:
    ok = assert_same(ports, SERVICE, "ListGames", b"")
    assert len(service_pb2.ListGamesResponse.FromString(ok.data or b"").games) == 7
    bad = assert_same(ports, SERVICE, "ListGames", b"\xff\xff")
    assert bad.code == "INVALID_ARGUMENT" and bad.details


def test_new_game(ports: Any) -> None:
    request = service_pb2.NewGameRequest(game="uno", seat_count=3, seed=11, seat_events=True)
    ok = assert_same(ports, SERVICE, "NewGame", bytes_of(request))
    assert service_pb2.NewGameResponse.FromString(ok.data or b"").state.game == "uno"
    unknown = service_pb2.NewGameRequest(game="poker", seat_count=2)
    bad = assert_same(ports, SERVICE, "NewGame", bytes_of(unknown))
    assert bad.code == "INVALID_ARGUMENT" and "poker" in bad.message
    assert bad.details[0][0] == "type.googleapis.com/google.rpc.BadRequest"


def test_apply_move_accepted_rejected_and_failed(ports: Any) -> None:
    state = new_game("hundred_and_one", 7)
    move = legal(state)[0].move
    request = service_pb2.ApplyMoveRequest(
        state=state, move=move, seat_events=True, next_legal_moves=True, next_views=True
    )
    ok = assert_same(ports, SERVICE, "ApplyMove", bytes_of(request))
    assert service_pb2.ApplyMoveResponse.FromString(ok.data or b"").accepted
    wrong_seat = game_pb2.Move()
    wrong_seat.CopyFrom(move)
    wrong_seat.seat = 1 - move.seat
    rejected = assert_same(
        ports,
        SERVICE,
        "ApplyMove",
        bytes_of(service_pb2.ApplyMoveRequest(state=state, move=wrong_seat)),
    )
    answer = service_pb2.ApplyMoveResponse.FromString(rejected.data or b"")
    assert not answer.accepted
    assert answer.rejection.reason == game_pb2.REJECTION_REASON_NOT_YOUR_TURN
    no_state = service_pb2.ApplyMoveRequest(move=move)
    assert assert_same(ports, SERVICE, "ApplyMove", bytes_of(no_state)).code == "INVALID_ARGUMENT"


def test_list_legal_moves(ports: Any) -> None:
    state = new_game("scala40", 2)
    request = service_pb2.ListLegalMovesRequest(state=state, seat=state.acting_seats[0])
    ok = assert_same(ports, SERVICE, "ListLegalMoves", bytes_of(request))
    assert service_pb2.ListLegalMovesResponse.FromString(ok.data or b"").moves
    out_of_range = service_pb2.ListLegalMovesRequest(state=state, seat=9)
    bad = assert_same(ports, SERVICE, "ListLegalMoves", bytes_of(out_of_range))
    assert bad.code == "INVALID_ARGUMENT" and "seat" in bad.message


def test_get_view(ports: Any) -> None:
    state = new_game("most", 4)
    ok = assert_same(ports, SERVICE, "GetView", bytes_of(service_pb2.GetViewRequest(state=state)))
    assert service_pb2.GetViewResponse.FromString(ok.data or b"").view.game == "most"
    broken = game_pb2.GameState()
    broken.CopyFrom(state)
    broken.game = "uno"  # disagrees with the oneof
    bad = assert_same(ports, SERVICE, "GetView", bytes_of(service_pb2.GetViewRequest(state=broken)))
    assert bad.code == "INVALID_ARGUMENT"


def test_apply_move_batch(ports: Any) -> None:
    state = new_game("sto", 8, seats=3)
    good = service_pb2.ApplyMoveRequest(state=state, move=legal(state)[0].move)
    failing = service_pb2.ApplyMoveRequest(move=good.move)
    batch = service_pb2.ApplyMoveBatchRequest(items=[good, failing])
    ok = assert_same(ports, SERVICE, "ApplyMoveBatch", bytes_of(batch))
    results = service_pb2.ApplyMoveBatchResponse.FromString(ok.data or b"").results
    assert [r.WhichOneof("outcome") for r in results] == ["response", "error"]
    too_many = service_pb2.ApplyMoveBatchRequest(items=[good] * (MAX_BATCH + 1))
    bad = assert_same(ports, SERVICE, "ApplyMoveBatch", bytes_of(too_many))
    assert bad.code == "RESOURCE_EXHAUSTED"


def test_next_deal(ports: Any) -> None:
    over = deal_over()
    ok = assert_same(ports, SERVICE, "NextDeal", bytes_of(service_pb2.NextDealRequest(state=over)))
    assert service_pb2.NextDealResponse.FromString(ok.data or b"").state.match.deal_number == 2
    running = service_pb2.NextDealRequest(state=new_game("hundred_and_one", 5))
    assert assert_same(ports, SERVICE, "NextDeal", bytes_of(running)).code == "FAILED_PRECONDITION"


def test_default_move(ports: Any) -> None:
    state = new_game("chips_101", 6)
    request = service_pb2.DefaultMoveRequest(state=state, seat=state.acting_seats[0])
    ok = assert_same(ports, SERVICE, "DefaultMove", bytes_of(request))
    assert service_pb2.DefaultMoveResponse.FromString(ok.data or b"").move.notation
    waiting = [s for s in range(len(state.seats)) if s not in state.acting_seats][0]
    not_acting = service_pb2.DefaultMoveRequest(state=state, seat=waiting)
    assert (
        assert_same(ports, SERVICE, "DefaultMove", bytes_of(not_acting)).code == "INVALID_ARGUMENT"
    )


def test_analyse_hand(ports: Any) -> None:
    request = service_pb2.AnalyseHandRequest(state=new_game("scala40", 9), seat=0)
    ok = assert_same(ports, SERVICE, "AnalyseHand", bytes_of(request))
    assert ok.data is not None
    no_analysis = service_pb2.AnalyseHandRequest(state=new_game("uno", 9), seat=0)
    bad = assert_same(ports, SERVICE, "AnalyseHand", bytes_of(no_analysis))
    assert bad.code == "FAILED_PRECONDITION"


def test_choose_move_of_the_built_in_bots(ports: Any) -> None:
    state = new_game("uno", 12)
    seat = state.acting_seats[0]
    view = api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view
    moves = legal(state, seat)
    request = bot_pb2.ChooseMoveRequest(view=view, legal_moves=moves, match_id="m-1")
    ok = assert_same(ports, BOTS, "ChooseMove", bytes_of(request))
    assert bot_pb2.ChooseMoveResponse.FromString(ok.data or b"").move_index < len(moves)
    empty = bot_pb2.ChooseMoveRequest(view=view, match_id="m-1")
    bad = assert_same(ports, BOTS, "ChooseMove", bytes_of(empty))
    assert bad.code == "INVALID_ARGUMENT" and "legal_moves" in bad.message


def test_apply_move_stream(ports: Any) -> None:
    """The same requests down a stream: the same answers, in order, and an
    unparsable request answered as its item's error on both ports."""
    grpc_port, web_port, _ = ports
    state = new_game("uno", 21)
    first = service_pb2.ApplyMoveRequest(state=state, move=legal(state)[0].move)
    requests = [
        bytes_of(service_pb2.ApplyMoveStreamRequest(item=first)),
        b"\xff\xff",
        bytes_of(service_pb2.ApplyMoveStreamRequest(item=service_pb2.ApplyMoveRequest())),
    ]
    with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        stream = channel.stream_stream(f"/{SERVICE}/ApplyMoveStream")
        expected = list(stream(iter(requests), timeout=30))
    assert len(expected) == 3
    outcomes = [
        service_pb2.ApplyMoveStreamResponse.FromString(a).result.WhichOneof("outcome")
        for a in expected
    ]
    assert outcomes == ["response", "error", "error"]
    for protocol in PROTOCOLS:
        with _client(web_port, protocol) as client:
            method = _method(SERVICE, "ApplyMoveStream", stream=True)
            got = list(client.execute_bidi_stream(request=iter(requests), method=method))
        assert got == expected, protocol.name


# -- what only the web port has ------------------------------------------------------


def _post(port: int, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, Any, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_json_is_the_same_answer_in_protobuf_json(ports: Any) -> None:
    _, web_port, _ = ports
    status, _, body = _post(
        web_port,
        f"/{SERVICE}/NewGame",
        b'{"game": "uno", "seatCount": 2, "seed": "3", "unknownField": 1}',
        {"content-type": "application/json"},
    )
    assert status == 200
    binary = via_grpc(
        ports[0],
        SERVICE,
        "NewGame",
        bytes_of(service_pb2.NewGameRequest(game="uno", seat_count=2, seed=3)),
    )
    parsed = json_format.Parse(body, service_pb2.NewGameResponse())
    assert bytes_of(parsed) == binary.data


def test_json_that_does_not_parse_names_the_problem(ports: Any) -> None:
    _, web_port, _ = ports
    status, _, body = _post(
        web_port,
        f"/{SERVICE}/NewGame",
        b'{"seatCount": "many"}',
        {"content-type": "application/json"},
    )
    error = json.loads(body)
    assert status == 400
    assert error["code"] == "invalid_argument"
    assert error["message"].startswith("request: cannot be parsed as croupier.v1.NewGameRequest")


def test_the_request_id_comes_back_on_both_ports(ports: Any) -> None:
    grpc_port, web_port, _ = ports
    with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        call = channel.unary_unary(f"/{SERVICE}/ListGames")
        _, outcome = call.with_call(b"", metadata=(("x-request-id", "table-7"),))
    assert ("x-request-id", "table-7") in tuple(outcome.trailing_metadata())
    _, headers, _ = _post(
        web_port,
        f"/{SERVICE}/ListGames",
        b"",
        {"content-type": "application/proto", "x-request-id": "table-7"},
    )
    assert headers["trailer-x-request-id"] == "table-7"


def test_cors_lets_the_configured_origin_in_and_no_other(ports: Any) -> None:
    _, web_port, _ = ports

    def preflight(origin: str) -> tuple[int, Any]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{web_port}/{SERVICE}/ApplyMove",
            method="OPTIONS",
            headers={
                "origin": origin,
                "access-control-request-method": "POST",
                "access-control-request-headers": "content-type,connect-protocol-version",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.headers
        except urllib.error.HTTPError as error:
            return error.code, error.headers

    status, headers = preflight("http://cards.example")
    assert status == 200
    assert headers["access-control-allow-origin"] == "http://cards.example"
    assert "connect-protocol-version" in headers["access-control-allow-headers"].lower()
    # The answer itself lets the page read the error details and the request id.
    _, headers, _ = _post(
        web_port,
        f"/{SERVICE}/ListGames",
        b"",
        {"content-type": "application/proto", "origin": "http://cards.example"},
    )
    exposed = headers["access-control-expose-headers"].lower()
    assert "grpc-status-details-bin" in exposed and "trailer-x-request-id" in exposed
    status, headers = preflight("http://elsewhere.example")
    assert status == 400 and "access-control-allow-origin" not in headers


def test_the_web_table_files_are_served_and_unknown_paths_are_not_found(ports: Any) -> None:
    _, web_port, root = ports
    with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/", timeout=30) as answer:
        assert answer.read() == (root / "index.html").read_bytes()
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"http://127.0.0.1:{web_port}/../../etc/passwd", timeout=30)
    assert missing.value.code == 404
    status, _, _ = _post(
        web_port, f"/{SERVICE}/NoSuchMethod", b"", {"content-type": "application/proto"}
    )
    assert status == 404


@pytest.mark.parametrize(
    ("rpc", "body"),
    [
        ("NewGame", b'{"game": ' * 5000 + b"1" + b"}" * 5000),  # nested past any depth
        ("NewGame", b'{"seed": "18446744073709551616"}'),  # one more than uint64 holds
        ("NewGame", b'{"seatCount": -1}'),
        ("NewGame", b'{"game": "\xff\xfe"}'),
        ("NewGame", b"\xff\xfe\x00"),  # not UTF-8
        ("NewGame", b"[]"),
        ("NewGame", b'{"options": [{"name": "x", "value": {"intValue": "1e400"}}]}'),
        # make fuzz (F14): 1e400 in a repeated enum made protobuf's JSON parser
        # raise OverflowError, which the Connect runtime answered itself (no
        # BadRequest, not counted or logged as a call).
        ("ApplyMove", b'{"state": {"hundredAndOne": {"stock": [1e400]}}}'),
        # make fuzz (session 19): a key with a lone surrogate made upb raise
        # SystemError, which the runtime answered without a BadRequest.
        ("AnalyseHand", b'{"seat": 1, "\\ud800": 2}'),
        ("ApplyMove", b'{"state": {"\\udc00x": 1}}'),
    ],
)
def test_json_a_parser_chokes_on_is_the_handlers_invalid_argument(
    ports: Any, rpc: str, body: bytes
) -> None:
    _, web_port, _ = ports
    status, _, answer = _post(
        web_port, f"/{SERVICE}/{rpc}", body, {"content-type": "application/json"}
    )
    error = json.loads(answer)
    assert (status, error["code"]) == (400, "invalid_argument"), error
    assert error["message"].startswith(f"request: cannot be parsed as croupier.v1.{rpc}Request")
    assert error["details"][0]["type"] == "google.rpc.BadRequest"  # answered by our handler


def test_a_request_over_the_size_limit_is_resource_exhausted_on_both_ports(ports: Any) -> None:
    grpc_port, web_port, _ = ports
    huge = bytes_of(service_pb2.NewGameRequest(game="x" * (5 * 1024 * 1024)))
    assert via_grpc(grpc_port, SERVICE, "NewGame", huge).code == "RESOURCE_EXHAUSTED"
    for protocol in PROTOCOLS:
        answer = via_web(web_port, SERVICE, "NewGame", huge, protocol)
        assert answer.code == "RESOURCE_EXHAUSTED", protocol.name


def test_a_stream_message_over_the_size_limit_is_resource_exhausted_on_both_ports(
    ports: Any,
) -> None:
    """Fuzz, session 18: the Connect runtime refused the oversized message
    inside the handler's read, and the stream ended INTERNAL."""
    grpc_port, web_port, _ = ports
    state = new_game("uno", 21)
    small = service_pb2.ApplyMoveRequest(state=state, move=legal(state)[0].move)
    huge = service_pb2.ApplyMoveRequest(state=state, move=legal(state)[0].move)
    huge.state.seats[0].name = "x" * (5 * 1024 * 1024)
    requests = [
        bytes_of(service_pb2.ApplyMoveStreamRequest(item=small)),
        bytes_of(service_pb2.ApplyMoveStreamRequest(item=huge)),
    ]
    with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        stream = channel.stream_stream(f"/{SERVICE}/ApplyMoveStream")
        with pytest.raises(grpc.RpcError) as failed:
            list(stream(iter(requests), timeout=30))
    assert failed.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    for protocol in PROTOCOLS:
        with _client(web_port, protocol) as client:
            method = _method(SERVICE, "ApplyMoveStream", stream=True)
            with pytest.raises(ConnectError) as refused:
                list(client.execute_bidi_stream(request=iter(requests), method=method))
        assert refused.value.code.name == "RESOURCE_EXHAUSTED", protocol.name


def test_web_calls_are_counted_and_logged_like_grpc_calls(ports: Any) -> None:
    grpc_port, web_port, _ = ports
    labels = dict(grpc_type="unary", grpc_service=SERVICE, grpc_method="NewGame")

    def handled(code: str) -> float:
        value = REGISTRY.get_sample_value(
            "grpc_server_handled_total", {**labels, "grpc_code": code}
        )
        return value or 0.0

    before = handled("INVALID_ARGUMENT")
    unknown = bytes_of(service_pb2.NewGameRequest(game="poker", seat_count=2))
    with capture_logs() as logs:
        via_grpc(grpc_port, SERVICE, "NewGame", unknown)
        via_web(web_port, SERVICE, "NewGame", unknown, ProtocolType.CONNECT)
    assert handled("INVALID_ARGUMENT") == before + 2
    events = [e for e in logs if e.get("rpc") == "NewGame"]
    assert len(events) == 2
    assert {k: v for k, v in events[0].items() if k not in ("request_id", "latency_ms")} == {
        k: v for k, v in events[1].items() if k not in ("request_id", "latency_ms")
    }


def test_the_browser_ports_connections_send_without_delay(ports: Any) -> None:
    """asyncio sets TCP_NODELAY only on connections of a socket made with
    IPPROTO_TCP; without it every call after a connection's first waited
    40 ms for the client's delayed ACK (found by make loadtest)."""
    from croupier.service.server import _bind

    sock = _bind("127.0.0.1", 0, reuse_port=False)
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()
    _, web_port, _ = ports
    connection = http.client.HTTPConnection("127.0.0.1", web_port, timeout=30)
    try:
        for _ in range(3):  # one keep-alive connection, several calls
            connection.request(
                "POST",
                f"/{SERVICE}/ListGames",
                body=b"",
                headers={"content-type": "application/proto"},
            )
            answer = connection.getresponse()
            assert answer.status == 200
            answer.read()
            assert connection.sock is not None
    finally:
        connection.close()


@pytest.mark.parametrize(
    "sent",
    [b"", b"POST /croupier.v1.CroupierService/ListGames HTTP/1.1\r\nHost: x\r\n"],
    ids=["nothing", "half a header"],
)
def test_a_connection_that_does_not_send_its_headers_in_time_is_closed(
    ports: Any, sent: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvicorn alone kept such connections for ever (slow-header clients
    could hold every connection a worker takes)."""
    from croupier.service import web

    monkeypatch.setattr(web, "REQUEST_SECONDS", 0.5)
    _, web_port, _ = ports
    with socket.create_connection(("127.0.0.1", web_port), timeout=30) as sock:
        sock.sendall(sent)
        assert sock.recv(100) == b""  # closed by the server, well before the timeout


def test_a_connection_that_trickles_its_body_is_closed(
    ports: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Headers in time do not buy the body unlimited time: a client sending
    it a byte at a time would hold the connection as long as it liked."""
    from croupier.service import web

    monkeypatch.setattr(web, "REQUEST_SECONDS", 0.5)
    _, web_port, _ = ports
    head = (
        f"POST /{SERVICE}/ListGames HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/proto\r\nContent-Length: 100\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", web_port), timeout=30) as sock:
        sock.sendall(head)
        started = time.monotonic()
        closed = False
        for _ in range(40):  # a byte every 0.1 s: 4 s if nobody stops it
            try:
                sock.sendall(b"\x00")
            except OSError:  # the server closed the connection
                closed = True
                break
            time.sleep(0.1)
        if not closed:
            sock.settimeout(2)
            try:
                closed = sock.recv(100) == b""
            except TimeoutError:
                closed = False
        assert closed
        assert time.monotonic() - started < 3


def test_headers_sent_in_time_get_their_answer_however_long_the_call(
    ports: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from croupier.service import web

    monkeypatch.setattr(web, "REQUEST_SECONDS", 0.5)
    _, web_port, _ = ports
    connection = http.client.HTTPConnection("127.0.0.1", web_port, timeout=30)
    try:
        for _ in range(2):  # the deadline is re-armed for the next request
            connection.request(
                "POST",
                f"/{SERVICE}/ListGames",
                body=b"",
                headers={"content-type": "application/proto"},
            )
            assert connection.getresponse().read()
    finally:
        connection.close()
