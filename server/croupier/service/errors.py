"""The one place where errors become gRPC status codes, and where they are bounded.

* `InvalidInput` (and bytes that do not parse) -> INVALID_ARGUMENT, with a
  `google.rpc.BadRequest` holding one field violation per problem;
* `FailedPrecondition` -> FAILED_PRECONDITION;
* `SealRefused` (a sealed state that does not open, a plain state where only
  sealed ones are taken; sealing.py) -> PERMISSION_DENIED;
* `Overloaded` (a limit of this server) -> RESOURCE_EXHAUSTED;
* `DeadlinePassed` -> DEADLINE_EXCEEDED;
* `ShuttingDown` -> UNAVAILABLE (retry elsewhere);
* anything else -> INTERNAL, with the traceback in the log and none on the
  wire: a bug answers one call (or one batch item) and the server keeps serving.

Every error is bounded here, whatever raised it: an error quotes what the
client sent (a game name, a field path, a card), and an unbounded quote made
trailers of megabytes that clients refuse (most stop at 8 KB of metadata) and
log lines to match (issue 7, item 4). So every text is cut to a few hundred
bytes, at most MAX_VIOLATIONS violations are listed, then one "… and N more",
and a whole status stays within MAX_ERROR_BYTES on the wire.

Illegal moves never get here: the engine answers them with a rejection.
"""

from __future__ import annotations

from collections.abc import Sequence

from google.rpc import code_pb2, error_details_pb2, status_pb2

from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.service.sealing import SealRefused
from croupier.v1 import service_pb2

INTERNAL_MESSAGE = "internal error; the server log has the details"

# Bytes of UTF-8 each quoted text may take (a field path, a description).
MAX_FIELD_BYTES = 100
MAX_DESCRIPTION_BYTES = 200
# Bytes of a status message (which lists the violations again, in one line).
MAX_MESSAGE_BYTES = 512
# Violations listed one by one; the rest are counted in one more entry.
MAX_VIOLATIONS = 10
# What any error may take in the trailers, as grpc sends them: the message
# percent-encoded (3 bytes per non-ASCII byte) in grpc-message, plus the
# google.rpc.Status (which holds the message again) base64-encoded in
# grpc-status-details-bin. The caps above keep every status under it.
MAX_ERROR_BYTES = 8 * 1024
ELLIPSIS = "…"


class Overloaded(Exception):
    """A request over one of the server's limits (batch size, …)."""


class DeadlinePassed(Exception):
    """The caller's deadline passed before the work was done."""


class ShuttingDown(Exception):
    """The server is stopping and takes no new calls."""


def bounded(text: str, limit: int = MAX_DESCRIPTION_BYTES) -> str:
    """`text` if its UTF-8 takes at most `limit` bytes, else its longest
    prefix that fits with a closing "…" (never a broken character)."""
    if len(text) <= limit and (text.isascii() or len(text.encode()) <= limit):
        return text
    # No more than `limit` characters can fit: encode only those.
    head = text[:limit].encode()[: limit - len(ELLIPSIS.encode())]
    return head.decode(errors="ignore") + ELLIPSIS


def bounded_violations(violations: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The first MAX_VIOLATIONS violations, each bounded, then one entry
    counting the rest at the field path the rest have in common."""
    shown = [
        (bounded(field, MAX_FIELD_BYTES), bounded(description))
        for field, description in violations[:MAX_VIOLATIONS]
    ]
    rest = violations[MAX_VIOLATIONS:]
    if rest:
        where = _common_path([field for field, _ in rest[:MAX_VIOLATIONS]]) or rest[0][0]
        shown.append((bounded(where, MAX_FIELD_BYTES), f"{ELLIPSIS} and {len(rest)} more"))
    return shown


def _common_path(fields: Sequence[str]) -> str:
    """The dotted prefix every field path shares ("state.hundred_and_one"
    for its hands and stock), or ""."""
    parts = [field.split(".") for field in fields]
    common = []
    for names in zip(*parts, strict=False):
        if any(name != names[0] for name in names):
            break
        common.append(names[0])
    return ".".join(common)


def status_for(error: BaseException) -> tuple[status_pb2.Status, bool]:
    """The status a call that raised `error` ends with, bounded, and whether
    it is a bug (INTERNAL) whose cause belongs in the log."""
    if isinstance(error, InvalidInput):
        return invalid_argument_status(error), False
    for kind, code in _CODES:
        if isinstance(error, kind):
            message = bounded(str(error), MAX_MESSAGE_BYTES)
            return status_pb2.Status(code=code, message=message), False
    return status_pb2.Status(code=code_pb2.INTERNAL, message=INTERNAL_MESSAGE), True


_CODES = (
    (FailedPrecondition, code_pb2.FAILED_PRECONDITION),
    (SealRefused, code_pb2.PERMISSION_DENIED),
    (Overloaded, code_pb2.RESOURCE_EXHAUSTED),
    (DeadlinePassed, code_pb2.DEADLINE_EXCEEDED),
    (ShuttingDown, code_pb2.UNAVAILABLE),
)
_EXPECTED = (InvalidInput, *(kind for kind, _ in _CODES))


def is_bug(error: BaseException) -> bool:
    """Whether `error` is none of the errors a request can cause (INTERNAL)."""
    return not isinstance(error, _EXPECTED)


def invalid_argument_status(error: InvalidInput) -> status_pb2.Status:
    """INVALID_ARGUMENT carrying one BadRequest field violation per problem
    (bounded), and the same problems in one line as its message."""
    violations = bounded_violations(error.violations)
    message = "; ".join(f"{field}: {description}" for field, description in violations)
    status = status_pb2.Status(
        code=code_pb2.INVALID_ARGUMENT, message=bounded(message, MAX_MESSAGE_BYTES)
    )
    bad_request = error_details_pb2.BadRequest()
    for field, description in violations:
        bad_request.field_violations.add(field=field, description=description)
    status.details.add().Pack(bad_request)
    return status


def item_error(error: BaseException, into: service_pb2.ItemError) -> bool:
    """Fill `into` with the error of one batch or stream item: what the unary
    call would say. Returns whether it is a bug (INTERNAL) to log."""
    status, internal = status_for(error)
    into.code = status.code
    into.message = status.message
    if isinstance(error, InvalidInput):
        for field, description in bounded_violations(error.violations):
            into.field_violations.add(field=field, description=description)
    return internal
