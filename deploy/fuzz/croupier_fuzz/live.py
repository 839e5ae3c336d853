"""The live phase: mutated real requests and mutated bytes through a real
channel to `croupier serve` on 127.0.0.1, judged by what comes back.

The server serves its browser port too (`--web`); a share of the inputs goes
there instead, over Connect (binary and JSON) and gRPC-Web (web.py), and is
judged by the same verdicts, its failures read as the gRPC port's would be.

The server runs as a subprocess (its own process group, killed whole at the
end). Every call carries `x-request-id: fuzz-<n>`, so an INTERNAL answer is
matched with the traceback the server logged for it. Worker RSS is read from
/proc before the first fuzz input (after a warm-up of real requests) and
after the last one.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
from connectrpc.errors import ConnectError
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier.v1 import service_pb2
from croupier_fuzz import web
from croupier_fuzz.cases import Case, message, parsed, stream_items, wire_bytes
from croupier_fuzz.corpus import RESPONSE_TYPES, SERVICE_OF, STREAMING, Corpus
from croupier_fuzz.oracle import (
    ALLOWED,
    ERROR_LIMIT,
    Problem,
    Verdict,
    check_choice,
    check_returned_state,
    field_class,
    wire_error_size,
)

REQUEST_ID = "x-request-id"
ITEM_CODES = {3: "INVALID_ARGUMENT", 9: "FAILED_PRECONDITION"}
# A request that gives a sealed_state (issue 12) to this server, which holds no
# sealing keys, is refused with PERMISSION_DENIED: its documented answer.
SEALED = "PERMISSION_DENIED"
SEALED_ITEM_CODE = 7
CHANNEL_OPTIONS = (
    ("grpc.use_local_subchannel_pool", 1),
    ("grpc.max_send_message_length", -1),
    ("grpc.max_receive_message_length", -1),
    # Let oversized trailers through so that their size is measured here,
    # against ERROR_LIMIT, rather than refused by this client.
    ("grpc.max_metadata_size", 64 * 1024 * 1024),
    ("grpc.absolute_max_metadata_size", 64 * 1024 * 1024),
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """`croupier serve` in a subprocess on a free port of 127.0.0.1."""

    def __init__(self, workers: int = 1, log_level: str = "warning", timeout: float = 30) -> None:
        self.port = free_port()
        self.web_port = free_port()
        while self.web_port == self.port:
            self.web_port = free_port()
        self.tmp = tempfile.TemporaryDirectory(prefix="croupier-fuzz-")
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("CROUPIER_", "PROMETHEUS_"))
        }
        env["TMPDIR"] = self.tmp.name  # the supervisor's metrics directory goes here
        command = [
            *(sys.executable, "-m", "croupier.cli", "serve", "--host", "127.0.0.1"),
            *("--port", str(self.port), "--metrics-port", "0", "--workers", str(workers)),
            *("--log-level", log_level, "--grace", "1"),
            *("--web", str(self.web_port)),
        ]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
        )
        self.workers = workers
        self.tracebacks: dict[str, str] = {}  # request id -> what the server logged
        self.log_bytes = 0
        self.tail: list[str] = []
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, name="serve-log", daemon=True)
        self._reader.start()
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.port}", options=CHANNEL_OPTIONS)
        try:
            self._wait_ready(timeout)
        except BaseException:
            self.close()
            raise

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            with self._lock:
                self.log_bytes += len(line)
                self.tail = [*self.tail[-19:], line[:500]]
            if '"exception"' not in line:
                continue
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                with self._lock:
                    self.tracebacks[str(event.get("request_id"))] = _traceback_text(
                        event["exception"]
                    )

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"croupier serve exited: {''.join(self.tail)}")
            with contextlib.suppress(grpc.RpcError):
                serving = self.health(timeout=1.0) == health_pb2.HealthCheckResponse.SERVING
                if serving and len(self.worker_pids()) >= self.workers and self._web_up():
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"croupier serve not ready after {timeout} s")
            time.sleep(0.1)

    def _web_up(self) -> bool:
        with socket.socket() as s:
            s.settimeout(1.0)
            return s.connect_ex(("127.0.0.1", self.web_port)) == 0

    def health(self, timeout: float = 2.0) -> int:
        stub = health_pb2_grpc.HealthStub(self.channel)
        return int(stub.Check(health_pb2.HealthCheckRequest(), timeout=timeout).status)

    def worker_pids(self) -> list[int]:
        """The live children of the supervisor."""
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    text = stat.read()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            if int(fields[1]) == self.process.pid and fields[0] != "Z":
                found.append(int(entry))
        return sorted(found)

    def rss(self) -> dict[int, tuple[int, int]]:
        """Each worker's (VmRSS, VmHWM) in kB."""
        out = {}
        for pid in self.worker_pids():
            values = {}
            with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as status:
                for line in status:
                    key, _, rest = line.partition(":")
                    if key in ("VmRSS", "VmHWM"):
                        values[key] = int(rest.split()[0])
            out[pid] = (values.get("VmRSS", 0), values.get("VmHWM", 0))
        return out

    def traceback_for(self, request_id: str, wait: float = 2.0) -> str | None:
        deadline = time.monotonic() + wait
        while True:
            with self._lock:
                found = self.tracebacks.get(request_id)
            if found is not None or time.monotonic() > deadline:
                return found
            time.sleep(0.01)

    def close(self) -> None:
        self.channel.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        # Workers left behind by a supervisor that died first (issue 7, item 7).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self._reader.join(5)
        self.tmp.cleanup()


# -- judging one call ---------------------------------------------------------------


class LiveJudge:
    """Sends cases to a LiveServer and judges the answers: input `index`
    goes to the gRPC port, or with `web_share` of them to the web port
    (`web.route`, drawn from (seed, index) alone)."""

    def __init__(
        self,
        server: LiveServer,
        corpus: Corpus,
        timeout: float = 30.0,
        *,
        web_share: float = 0.0,
        seed: int = 0,
    ) -> None:
        self.server = server
        self.corpus = corpus
        self.timeout = timeout
        self.calls = 0
        self.web_share = web_share
        self.seed = seed
        channel = server.channel
        self.unary = {
            rpc: channel.unary_unary(f"/{SERVICE_OF[rpc]}/{rpc}")
            for rpc in RESPONSE_TYPES
            if rpc not in STREAMING
        }
        self.stream = channel.stream_stream(f"/{SERVICE_OF['ApplyMoveStream']}/ApplyMoveStream")
        web_port = getattr(server, "web_port", None)
        self.web = web.WebClient(web_port, timeout) if web_share > 0 and web_port else None

    def close(self) -> None:
        if self.web is not None:
            self.web.close()

    def __call__(self, case: Case, index: int) -> Verdict:
        way = web.route(self.seed, index, self.web_share) if self.web is not None else None
        return self.send(case, index, way)

    def send(self, case: Case, index: int, way: str | None, *, mangle_json: bool = True) -> Verdict:
        """Case `case` to the gRPC port (`way` None) or by web route `way`;
        as JSON, its text mangled as input `index` draws it (`mangle_json`)."""
        self.calls += 1
        request_id = f"fuzz-{index}-{self.calls}"
        metadata = ((REQUEST_ID, request_id),)
        started = time.perf_counter()
        if way is not None:
            return self._web(case, index, way, request_id, mangle_json)
        if case.rpc == "ApplyMoveStream":
            return self._stream(case, metadata, request_id, started)
        data = wire_bytes(self.corpus, case)
        try:
            answer = self.unary[case.rpc](data, timeout=self.timeout, metadata=metadata)
        except grpc.RpcError as error:
            return self._error(case.rpc, error, request_id, started, case)
        verdict = Verdict("OK", 0, time.perf_counter() - started)
        verdict.problems += self._check_ok(case, answer, parsed(self.corpus, case))
        return verdict

    # -- the web port ---------------------------------------------------------------

    def _web(self, case: Case, index: int, way: str, request_id: str, mangle_json: bool) -> Verdict:
        """Case `case` through the web port by `way` (web.ROUTES); the verdict's
        `via` names the route actually taken."""
        assert self.web is not None
        rpc, service = case.rpc, SERVICE_OF[case.rpc]
        if rpc == "ApplyMoveStream":
            way = "grpc-web" if way == "grpc-web" else "connect"
            items = stream_items(self.corpus, case)
            started = time.perf_counter()
            try:
                answers = self.web.stream(way, service, rpc, items, request_id)
            except ConnectError as error:
                verdict = self._error(rpc, web.AsGrpc(error), request_id, started, case)
            else:
                verdict = self._stream_answers(case, items, answers, started)
            verdict.via = way
            return verdict
        request = parsed(self.corpus, case)
        mangled = case.raw is not None
        if way == "json" and (request is None or request.ByteSize() > web.JSON_MAX_BYTES):
            way = "connect"  # bytes that do not parse have no JSON; huge ones go as bytes
        if way == "json":
            assert request is not None
            source = web.web_source(self.seed, index)
            mutations = web.json_mutations(source) if mangle_json else ()
            body = web.json_body(request, mutations)
            if mutations:
                mangled = True
                request = web.parse_json(rpc, body)
        else:
            body = wire_bytes(self.corpus, case)
        started = time.perf_counter()
        try:
            answer = self.web.unary(way, service, rpc, body, request_id)
        except ConnectError as error:
            verdict = self._error(
                rpc, web.AsGrpc(error), request_id, started, case, request=request, mangled=mangled
            )
            verdict.via = way
            return verdict
        verdict = Verdict("OK", 0, time.perf_counter() - started, via=way)
        if way == "json":
            try:
                answer = json_format.Parse(answer, RESPONSE_TYPES[rpc]()).SerializeToString()
            except (json_format.ParseError, ValueError) as error:
                verdict.problems.append(Problem(rpc, "JSON answer does not parse", str(error)[:80]))
                return verdict
        verdict.problems += self._check_ok(case, answer, request)
        return verdict

    def _error(
        self,
        rpc: str,
        error: Any,
        request_id: str,
        started: float,
        case: Case | None,
        *,
        request: Message | None = None,
        mangled: bool | None = None,
    ) -> Verdict:
        code = error.code().name
        details = error.details() or ""
        trailers = error.trailing_metadata() or ()
        status = b"".join(v for k, v in trailers if k == "grpc-status-details-bin")
        size = wire_error_size(details, status)
        verdict = Verdict(code, size, time.perf_counter() - started)
        if mangled is None:
            mangled = case is None or case.raw is not None
        if code == SEALED and self._gives_sealed_state(case, request):
            pass
        elif code not in ALLOWED:
            verdict.problems.append(self._bad_status(rpc, code, details, request_id))
        elif code == "INVALID_ARGUMENT" and rpc == "ApplyMoveBatch" and not mangled:
            # A batch that parses fails item by item, never as a whole.
            verdict.problems.append(Problem(rpc, "batch failed as a whole", code, details[:300]))
        elif code == "INVALID_ARGUMENT" and not _violated_field(trailers):
            # Bad input is refused naming the field: a BadRequest detail, on
            # either port, whatever refused it (the handler or a runtime).
            verdict.problems.append(Problem(rpc, "refusal names no field", code, details[:300]))
        if size > ERROR_LIMIT:
            verdict.problems.append(
                Problem(rpc, "error over 8 KB", _violated_field(trailers) or code, f"{size} bytes")
            )
        return verdict

    def _gives_sealed_state(self, case: Case | None, request: Message | None = None) -> bool:
        """Whether the request (`request`, the one the server parsed, when the
        case's was not sent as it is), or an item of its batch or stream,
        gives a sealed_state."""
        if case is None:
            return False
        if case.rpc == "ApplyMoveStream":
            return any(self._gives_sealed_state(item) for item in case.items)
        if request is None:
            request = parsed(self.corpus, case)
        if request is None:
            return False
        items = getattr(request, "items", None) if case.rpc == "ApplyMoveBatch" else None
        return any(_has_sealed_state(m) for m in (request, *(items or ())))

    def _bad_status(self, rpc: str, code: str, details: str, request_id: str) -> Problem:
        logged = self.server.traceback_for(request_id) if code in ("INTERNAL", "UNKNOWN") else None
        if logged:
            return Problem(rpc, f"status {code}", _traceback_key(logged), logged[-1500:])
        return Problem(rpc, f"status {code}", details[:80], details[:1000])

    def _check_ok(self, case: Case, answer: bytes, request: Message | None) -> list[Problem]:
        """An OK answer to `case`, whose request the server parsed as
        `request` (None: it does not parse)."""
        rpc = case.rpc
        try:
            response: Any = RESPONSE_TYPES[rpc].FromString(answer)
        except DecodeError:
            return [Problem(rpc, "answer does not parse", rpc)]
        if rpc == "ApplyMoveBatch":
            items = list(request.items) if request is not None else []  # type: ignore[attr-defined]
            problems = []
            if request is not None and len(response.results) != len(items):
                problems.append(
                    Problem(rpc, "batch answer lost items", f"{len(response.results)}/{len(items)}")
                )
            for item, result in zip(items, response.results, strict=False):
                problems += self._check_result(rpc, item, result)
            return problems
        if request is None:
            return [Problem(rpc, "OK for bytes that do not parse", rpc)]
        if rpc == "ChooseMove":
            return check_choice(rpc, request, response)
        if rpc in ("NewGame", "NextDeal"):
            return check_returned_state(rpc, response.state)
        if rpc == "ApplyMove" and response.accepted and response.HasField("state"):
            return check_returned_state(rpc, response.state)
        return []

    def _check_result(self, rpc: str, item: Message, result: Any) -> list[Problem]:
        kind = result.WhichOneof("outcome")
        if kind == "error":
            code = result.error.code
            problems = []
            sealed = code == SEALED_ITEM_CODE and _has_sealed_state(item)
            if code not in ITEM_CODES and not sealed:
                problems.append(Problem(rpc, f"item error code {code}", result.error.message[:80]))
            if result.error.ByteSize() > ERROR_LIMIT:
                path = (
                    result.error.field_violations[0].field if result.error.field_violations else ""
                )
                problems.append(
                    Problem(rpc, "item error over 8 KB", field_class(path) or str(code))
                )
            return problems
        if kind is None:
            return [Problem(rpc, "item without an outcome", rpc)]
        response = result.response
        if not response.accepted or not response.HasField("state"):
            return []
        return check_returned_state(rpc, response.state)

    def _stream(self, case: Case, metadata: Any, request_id: str, started: float) -> Verdict:
        rpc = case.rpc
        items = stream_items(self.corpus, case)
        answers: list[bytes] = []
        try:
            for answer in self.stream(iter(items), timeout=self.timeout, metadata=metadata):
                answers.append(answer)
        except grpc.RpcError as error:
            return self._error(rpc, error, request_id, started, case)
        return self._stream_answers(case, items, answers, started)

    def _stream_answers(
        self, case: Case, items: list[bytes], answers: list[bytes], started: float
    ) -> Verdict:
        rpc = case.rpc
        verdict = Verdict("OK", 0, time.perf_counter() - started)
        if len(answers) != len(items):
            verdict.problems.append(
                Problem(rpc, "stream answered fewer items", f"{len(answers)}/{len(items)}")
            )
        for item_case, answer in zip(case.items, answers, strict=False):
            try:
                result = service_pb2.ApplyMoveStreamResponse.FromString(answer).result
            except DecodeError:
                verdict.problems.append(Problem(rpc, "answer does not parse", rpc))
                continue
            if item_case.raw is None:
                verdict.problems += self._check_result(rpc, message(self.corpus, item_case), result)
        return verdict


def _has_sealed_state(request: Message) -> bool:
    fields = request.DESCRIPTOR.fields_by_name
    return "sealed_state" in fields and request.HasField("sealed_state")


def _violated_field(trailers: Any) -> str:
    for key, value in trailers:
        if key != "grpc-status-details-bin":
            continue
        with contextlib.suppress(DecodeError):
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                    bad = error_details_pb2.BadRequest()
                    detail.Unpack(bad)
                    if bad.field_violations:
                        return field_class(bad.field_violations[0].field)
    return ""


def _traceback_text(logged: Any) -> str:
    """A logged exception as traceback text: structlog's dict form (a list of
    {exc_type, exc_value, frames}) or already text."""
    if isinstance(logged, str):
        return logged
    lines = ["Traceback (most recent call last):"]
    for exception in logged if isinstance(logged, list) else [logged]:
        for frame in exception.get("frames", ()):
            lines.append(
                f'  File "{frame.get("filename")}", line {frame.get("lineno")}, '
                f"in {frame.get('name')}"
            )
        lines.append(f"{exception.get('exc_type')}: {exception.get('exc_value')}")
    return "\n".join(lines)


def _traceback_key(logged: str) -> str:
    """'ValueError in croupier/engine/rng.py:next_u64' from a logged traceback."""
    lines = [line for line in logged.splitlines() if line.strip()]
    exception = lines[-1].split(":", 1)[0].strip() if lines else "?"
    where = "?"
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("File ") and "/croupier/" in stripped:
            path = stripped.split('"')[1]
            function = stripped.rsplit(" in ", 1)[-1]
            where = "croupier/" + path.split("/croupier/", 1)[-1] + ":" + function
    return f"{exception} in {where}"


@contextlib.contextmanager
def serving(workers: int, log_level: str) -> Iterator[LiveServer]:
    server = LiveServer(workers, log_level)
    try:
        yield server
    finally:
        server.close()
