"""The one place where engine errors become gRPC status codes.

* `InvalidInput` (and bytes that do not parse) -> INVALID_ARGUMENT, with a
  `google.rpc.BadRequest` holding one field violation per problem;
* `FailedPrecondition` -> FAILED_PRECONDITION;
* `Overloaded` (a limit of this server) -> RESOURCE_EXHAUSTED;
* `DeadlinePassed` -> DEADLINE_EXCEEDED;
* anything else -> INTERNAL, with the traceback in the log and none on the
  wire: a bug answers one call and the server keeps serving.

Illegal moves never get here: the engine answers them with a rejection.
"""

from __future__ import annotations

from google.rpc import code_pb2, error_details_pb2, status_pb2

from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.v1 import service_pb2

INTERNAL_MESSAGE = "internal error; the server log has the details"


class Overloaded(Exception):
    """A request over one of the server's limits (batch size, …)."""


class DeadlinePassed(Exception):
    """The caller's deadline passed before the work was done."""


def status_for(error: BaseException) -> tuple[status_pb2.Status, bool]:
    """The status a call that raised `error` ends with, and whether it is a
    bug (INTERNAL) whose cause belongs in the log."""
    if isinstance(error, InvalidInput):
        return invalid_argument_status(error), False
    if isinstance(error, FailedPrecondition):
        return status_pb2.Status(code=code_pb2.FAILED_PRECONDITION, message=str(error)), False
    if isinstance(error, Overloaded):
        return status_pb2.Status(code=code_pb2.RESOURCE_EXHAUSTED, message=str(error)), False
    if isinstance(error, DeadlinePassed):
        return status_pb2.Status(code=code_pb2.DEADLINE_EXCEEDED, message=str(error)), False
    return status_pb2.Status(code=code_pb2.INTERNAL, message=INTERNAL_MESSAGE), True


def invalid_argument_status(error: InvalidInput) -> status_pb2.Status:
    """INVALID_ARGUMENT carrying one BadRequest field violation per problem."""
    bad_request = error_details_pb2.BadRequest()
    for field, description in error.violations:
        bad_request.field_violations.add(field=field, description=description)
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=str(error))
    status.details.add().Pack(bad_request)
    return status


def item_error(error: InvalidInput | FailedPrecondition, into: service_pb2.ItemError) -> None:
    """The error of one batch or stream item: what the unary call would say."""
    status, _ = status_for(error)
    into.code = status.code
    into.message = status.message
    if isinstance(error, InvalidInput):
        for field, description in error.violations:
            into.field_violations.add(field=field, description=description)
