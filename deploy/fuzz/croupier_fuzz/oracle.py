"""The verdicts: what every answer of Croupier must satisfy, whatever it was sent.

* Every answer is OK, INVALID_ARGUMENT, FAILED_PRECONDITION or
  RESOURCE_EXHAUSTED; in-process, every call of `engine.api` returns or
  raises InvalidInput / FailedPrecondition, and anything else escaping is a
  finding.
* Every error (status message and details, as they travel in the trailers)
  fits in `ERROR_LIMIT` bytes.
* Every state answered is accepted when sent back (`api.check_state`, whose
  first part is the game's conservation of its deck).
* What the contract promises about an answer holds on mutated states too: a
  listed move is accepted, the default move is a listed move, the one-call
  path lists what ListLegalMoves lists, a view shows no card its seat may
  not see, the input is not changed, the same request gives the same bytes.
* BotService/ChooseMove (the built-in bots, in-process through
  `croupier.service.bots.choose_move`): a move index below the number of
  moves offered, or InvalidInput (INVALID_ARGUMENT); nothing else.
"""

from __future__ import annotations

import re
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.descriptor import FieldDescriptor as FD
from google.protobuf.message import Message

from croupier.engine import api, registry
from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.service import bots
from croupier.service.config import ServerConfig
from croupier.service.errors import status_for
from croupier.v1 import game_pb2, service_pb2
from croupier_fuzz.corpus import BOT_RPCS, ENGINE_RPCS, engine_function
from croupier_fuzz.mutate import is_card

ALLOWED = frozenset({"OK", "INVALID_ARGUMENT", "FAILED_PRECONDITION", "RESOURCE_EXHAUSTED"})
ERROR_LIMIT = 8 * 1024
SLOW_SECONDS = 1.0
# Requests larger than this never reach the engine over the wire (the
# server's default message limit): their in-process time is not a finding.
MAX_MESSAGE_BYTES = ServerConfig().max_message_bytes

# engine.api's function of every RPC it serves, and the built-in bots'
# ChooseMove (tests plant faults here).
ENGINE_CALLS: dict[str, Callable[[Any], Any]] = {
    rpc: getattr(api, engine_function(rpc)) for rpc in ENGINE_RPCS
}
ENGINE_CALLS["ChooseMove"] = bots.choose_move
assert set(BOT_RPCS) <= set(ENGINE_CALLS), "a BotService RPC without an in-process call"


@dataclass(frozen=True)
class Problem:
    """A broken promise. `key` names its class (an exception and where it was
    raised, a field path): findings with the same rpc, kind and key are one."""

    rpc: str
    kind: str
    key: str
    detail: str = ""

    @property
    def signature(self) -> str:
        return f"{self.rpc} | {self.kind} | {self.key}"


@dataclass
class Verdict:
    """What one input got: a status code, the error's size, the time, and
    the problems found (none for a good answer)."""

    code: str
    error_size: int = 0
    seconds: float = 0.0
    problems: list[Problem] = field(default_factory=list)
    # Live: the web port's route (web.ROUTES) when the input went there, else "".
    via: str = ""


# -- helpers every phase uses --------------------------------------------------------


def error_size(error: BaseException) -> int:
    """Bytes the error of `error` takes in the trailers (`wire_error_size`)."""
    status, _ = status_for(error)
    return wire_error_size(status.message, status.SerializeToString())


def wire_error_size(message: str, details: bytes) -> int:
    """Bytes an error takes in the trailers, as grpc sends them: the message
    percent-encoded in grpc-message (3 bytes for each byte outside printable
    ASCII, and for '%'), plus the google.rpc.Status (which repeats the
    message) base64-encoded in grpc-status-details-bin."""
    encoded = message.encode()
    plain = sum(1 for b in encoded if 0x20 <= b <= 0x7E and b != 0x25)
    return plain + 3 * (len(encoded) - plain) + 4 * ((len(details) + 2) // 3)


def place(error: BaseException) -> str:
    """Where an exception was raised: the innermost frame of Croupier's code."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "/croupier/" in f.filename and "croupier_fuzz" not in f.filename]
    if not (ours or frames):
        return "?"
    frame = (ours or frames)[-1]
    where = frame.filename.split("/croupier/", 1)[-1]
    return f"croupier/{where}:{frame.name}"


def escaped(rpc: str, error: BaseException, context: str = "") -> Problem:
    text = "".join(traceback.format_exception(error)).strip().splitlines()
    key = f"{type(error).__name__} in {place(error)}"
    if context:
        key += f" ({context})"
    return Problem(rpc, "exception escaped", key, "\n".join(text[-14:]))


_INDEX = re.compile(r"\[\d+\]")


def field_class(path: str) -> str:
    """A field path without its indices: state.seats[2].name -> state.seats[].name."""
    return _INDEX.sub("[]", path)


def _count_cards(message: Message, found: Counter[int], singular: list[int] | None) -> None:
    for fd, value in message.ListFields():
        if is_card(fd):
            if fd.is_repeated:
                # 0 is no card: a joker of a meld whose identity is not
                # declared (Scala 40, an unambiguous set) lists 0.
                found.update(v for v in value if v)
            elif singular is not None:
                singular.append(value)
        elif fd.type == FD.TYPE_MESSAGE:
            for child in value if fd.is_repeated else (value,):
                _count_cards(child, found, singular)


def longest_list(message: Message, prefix: str = "") -> tuple[str, int]:
    """The path and length of the longest repeated field in `message`
    (what usually makes a slow input slow)."""
    best = ("", 0)
    for fd, value in message.ListFields():
        path = f"{prefix}.{fd.name}" if prefix else fd.name
        if fd.is_repeated and len(value) > best[1]:
            best = (path, len(value))
        if fd.type == FD.TYPE_MESSAGE:
            children = list(value)[:64] if fd.is_repeated else [value]
            for i, child in enumerate(children):
                inner = longest_list(child, f"{path}[{i}]" if fd.is_repeated else path)
                if inner[1] > best[1]:
                    best = inner
    return best


def check_returned_state(rpc: str, state: game_pb2.GameState) -> list[Problem]:
    """A state Croupier answered must be accepted when sent back: the
    engine's full check, whose first part is the game's conservation of its
    deck. (Conservation is judged by the game: only it knows which card lists
    are cards on the table and which name cards, like a joker's identity.)"""
    try:
        api.check_state(state)
    except (InvalidInput, FailedPrecondition) as error:
        path = error.violations[0][0] if isinstance(error, InvalidInput) else "state"
        return [
            Problem(rpc, "answered state refused when sent back", field_class(path), str(error))
        ]
    except Exception as error:
        return [escaped(rpc, error, "check_state of an answered state")]
    return check_seat_to_act(rpc, state)


def check_seat_to_act(rpc: str, state: game_pb2.GameState) -> list[Problem]:
    """In a valid state whose deal is in progress some seat may move (issue
    6: the seats acting now, the seat to act or the seats of an open window
    or overlay, and one of them has a move): a dead end is a state no game
    may reach, and a hand-built one must be refused. (At the last countable
    move number no move is listed: F2, F12.)"""
    if (
        state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
        or state.move_number == api.UINT64_MAX
    ):
        return []
    try:
        acting = api.acting_seats(state)
        for seat in acting:
            request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
            if api.list_legal_moves(request).moves:
                return []
    except Exception as error:
        return [escaped(rpc, error, "the legal moves of the acting seats")]
    return [Problem(rpc, "no acting seat has a move", state.game[:40], f"acting {acting}")]


# -- in-process ----------------------------------------------------------------------


def judge_engine(rpc: str, request: Message, pick: int = 0) -> Verdict:
    """Call `engine.api` for `rpc` with `request` and judge what happens.
    `pick` chooses among the follow-on checks' options (which listed move
    is replayed) so that a replay makes the same choice."""
    before = request.SerializeToString()
    call = ENGINE_CALLS[rpc]
    started = time.perf_counter()
    try:
        response = call(request)
    except (InvalidInput, FailedPrecondition) as error:
        seconds = time.perf_counter() - started
        code = "INVALID_ARGUMENT" if isinstance(error, InvalidInput) else "FAILED_PRECONDITION"
        verdict = Verdict(code, error_size(error), seconds)
        if rpc in BOT_RPCS and code != "INVALID_ARGUMENT":
            # A bot's only refusal is the caller's request (bot.proto).
            verdict.problems.append(Problem(rpc, "bot raised " + code, place(error), str(error)))
        if verdict.error_size > ERROR_LIMIT:
            key = field_class(error.violations[0][0]) if isinstance(error, InvalidInput) else code
            verdict.problems.append(
                Problem(
                    rpc, "error over 8 KB", key, f"{verdict.error_size} bytes: {str(error)[:300]}"
                )
            )
    except Exception as error:  # the finding this fuzzer exists for
        seconds = time.perf_counter() - started
        return Verdict("ESCAPED", 0, seconds, [escaped(rpc, error)])
    else:
        seconds = time.perf_counter() - started
        verdict = Verdict("OK", 0, seconds)
        verdict.problems += _check_answer(rpc, request, response, pick)
        if pick % 50 == 0:
            again = call(request)
            if again.SerializeToString() != response.SerializeToString():
                verdict.problems.append(Problem(rpc, "nondeterministic answer", rpc))
    if request.SerializeToString() != before:
        verdict.problems.append(Problem(rpc, "input changed by the call", rpc))
    if seconds > SLOW_SECONDS and len(before) <= MAX_MESSAGE_BYTES:
        path, size = longest_list(request)
        verdict.problems.append(
            Problem(
                rpc,
                "slow",
                f"{verdict.code}, longest list {field_class(path)}",
                f"{seconds:.2f} s for {len(before)} request bytes; {path} has {size} entries",
            )
        )
    return verdict


def _check_answer(rpc: str, request: Any, response: Any, pick: int) -> list[Problem]:
    if rpc == "NewGame":
        return check_returned_state(rpc, response.state)
    if rpc == "NextDeal":
        return check_returned_state(rpc, response.state)
    if rpc == "ApplyMove":
        return _check_applied(rpc, request, response)
    if rpc == "ListLegalMoves" and response.moves:
        chosen = response.moves[pick % len(response.moves)].move
        return _replay(f"{rpc} -> ApplyMove", request.state, chosen, "listed move")
    if rpc == "ListLegalMoves" and request.seat == request.state.current_seat:
        return check_seat_to_act(rpc, request.state)
    if rpc == "DefaultMove":
        return _check_default(rpc, request, response)
    if rpc == "GetView":
        return _check_view(rpc, request, response)
    if rpc == "ChooseMove":
        return check_choice(rpc, request, response)
    return []


def check_choice(rpc: str, request: Any, response: Any) -> list[Problem]:
    """A bot's answer names one of the moves it was offered."""
    if response.move_index < len(request.legal_moves):
        return []
    detail = f"move_index {response.move_index} of {len(request.legal_moves)} moves"
    return [Problem(rpc, "move index out of range", request.view.game[:40], detail)]


def _check_applied(rpc: str, request: Any, response: Any) -> list[Problem]:
    if not response.accepted or request.validate_only:
        return []
    problems = check_returned_state(rpc, response.state)
    if problems or not response.next_legal_moves:
        return problems
    entry = response.next_legal_moves[0]
    listed = [m.SerializeToString() for m in entry.moves]
    try:
        direct = api.list_legal_moves(
            service_pb2.ListLegalMovesRequest(state=response.state, seat=entry.seat)
        )
    except Exception as error:
        return [escaped(rpc, error, "ListLegalMoves on the answered state")]
    if [m.SerializeToString() for m in direct.moves] != listed:
        return [Problem(rpc, "next_legal_moves differ from ListLegalMoves", f"seat {entry.seat}")]
    return []


def _replay(rpc: str, state: game_pb2.GameState, move: game_pb2.Move, what: str) -> list[Problem]:
    """A move the engine offered must be accepted on the same state."""
    request = service_pb2.ApplyMoveRequest(state=state, move=move)
    try:
        answer = api.apply_move(request)
    except (InvalidInput, FailedPrecondition) as error:
        path = error.violations[0][0] if isinstance(error, InvalidInput) else "state"
        return [Problem(rpc, f"{what} refused", field_class(path), str(error))]
    except Exception as error:
        return [escaped(rpc, error, what)]
    if not answer.accepted:
        reason = api.rejection_name(answer.rejection)
        return [Problem(rpc, f"{what} rejected", reason, answer.rejection.message)]
    return check_returned_state(rpc, answer.state)


def _check_default(rpc: str, request: Any, response: Any) -> list[Problem]:
    move = response.move.move
    try:
        listed = api.list_legal_moves(
            service_pb2.ListLegalMovesRequest(state=request.state, seat=request.seat)
        )
    except Exception as error:
        return [escaped(rpc, error, "ListLegalMoves after DefaultMove")]
    if move.SerializeToString() not in {m.move.SerializeToString() for m in listed.moves}:
        return [Problem(rpc, "default move not among the legal moves", response.move.notation)]
    return _replay(f"{rpc} -> ApplyMove", request.state, move, "default move")


def _check_view(rpc: str, request: Any, response: Any) -> list[Problem]:
    game = registry.find(request.state.game)
    kind = response.view.WhichOneof("game_view")
    if game is None or kind is None:
        return []
    try:
        visible = game.visible_cards(request.state, request.seat)
    except Exception as error:
        return [escaped(rpc, error, "visible_cards hook")]
    shown: Counter[int] = Counter()
    singles: list[int] = []
    _count_cards(getattr(response.view, kind), shown, singles)
    leaked = (shown - visible) + Counter(c for c in singles if c and not visible[c])
    if leaked:
        return [Problem(rpc, "view shows a hidden card", kind, f"cards {sorted(leaked)}")]
    return []
