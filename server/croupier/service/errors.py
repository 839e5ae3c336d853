"""The one place where engine errors become gRPC status codes.

* `InvalidInput` (and bytes that do not parse) -> INVALID_ARGUMENT, with a
  `google.rpc.BadRequest` holding one field violation per problem;
* `FailedPrecondition` -> FAILED_PRECONDITION;
* anything else -> INTERNAL, with the traceback in the log and none on the
  wire: a bug answers one call and the server keeps serving.

Illegal moves never get here: the engine answers them with a rejection.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import structlog
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.service.decoding import Unparsable

_log = structlog.get_logger("croupier.service")

Handler = TypeVar("Handler", bound=Callable[[Any, Any, Any], Any])

INTERNAL_MESSAGE = "internal error; the server log has the details"


def maps_engine_errors(handler: Handler) -> Handler:
    """Wrap a servicer method `(self, request, context)` so that every engine
    error, unparsable request or bug ends the call with the right status.

    The wrapped method must report problems by raising, never by calling
    `context.abort` itself (grpc's abort raises a bare Exception, which would
    be taken for a bug here).
    """
    rpc = handler.__name__

    @functools.wraps(handler)
    def wrapper(self: Any, request: Any, context: Any) -> Any:
        try:
            if isinstance(request, Unparsable):
                raise InvalidInput("request", f"cannot be parsed as {request.type_name}")
            return handler(self, request, context)
        except InvalidInput as error:
            status = invalid_argument_status(error)
        except FailedPrecondition as error:
            status = status_pb2.Status(code=code_pb2.FAILED_PRECONDITION, message=str(error))
        except Exception:
            _log.exception("rpc_failed", rpc=rpc)
            status = status_pb2.Status(code=code_pb2.INTERNAL, message=INTERNAL_MESSAGE)
        # Outside the try: abort works by raising, and that must reach grpc.
        context.abort_with_status(rpc_status.to_status(status))

    return wrapper  # type: ignore[return-value]


def invalid_argument_status(error: InvalidInput) -> status_pb2.Status:
    """INVALID_ARGUMENT carrying one BadRequest field violation per problem."""
    bad_request = error_details_pb2.BadRequest()
    for field, description in error.violations:
        bad_request.field_violations.add(field=field, description=description)
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=str(error))
    status.details.add().Pack(bad_request)
    return status
