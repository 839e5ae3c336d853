"""Logging: one JSON object per line on stderr, for people and log shippers alike.

Every line is bounded, whatever logs it (our events, grpc's own records): a
string longer than MAX_LOG_TEXT is cut with an ellipsis, also inside a
rendered traceback. A client controls much of what a line may quote (a game
name, an exception message about its request), and one 1 MB name once made a
2 MB line (issue 7, item 4). Tracebacks show no local variables: rendering
them costs as much as the request they hold (and they may hold hidden cards).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from typing import Any

import structlog
from structlog.processors import ExceptionRenderer
from structlog.tracebacks import ExceptionDictTransformer

from croupier.service.errors import bounded

# Bytes of UTF-8 any one string in a log line may take.
MAX_LOG_TEXT = 1024
# How deep a rendered traceback is walked for strings (it is a few levels).
_MAX_DEPTH = 6

_SHARED_PROCESSORS: list[structlog.typing.Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.processors.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]
_TRACEBACKS = ExceptionRenderer(ExceptionDictTransformer(show_locals=False))


def _bounded_value(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str):
        return bounded(value, MAX_LOG_TEXT)
    if depth >= _MAX_DEPTH:
        return value
    if isinstance(value, dict):
        return {key: _bounded_value(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_bounded_value(item, depth + 1) for item in value]
    return value


def bound_values(logger: Any, method: str, event: MutableMapping[str, Any]) -> dict[str, Any]:
    """A structlog processor: every string of the event, bounded."""
    return {key: _bounded_value(value) for key, value in event.items()}


def configure_logging(level: str) -> None:
    """Send structlog and stdlib logging (grpc's own records) to stderr as
    JSON lines, dropping records below `level` ("debug" … "critical")."""
    number = logging.getLevelNamesMapping()[level.upper()]
    renderer = structlog.processors.JSONRenderer()
    structlog.configure(
        processors=[*_SHARED_PROCESSORS, _TRACEBACKS, bound_values, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(number),
        # One write per line (PrintLogger writes the newline separately), so
        # the lines of several worker processes on one stderr never interleave.
        logger_factory=structlog.WriteLoggerFactory(file=sys.stderr),
        # Not cached: a cached logger would ignore a later configure() (tests,
        # a reload), and the error path is not hot.
        cache_logger_on_first_use=False,
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[
                *_SHARED_PROCESSORS,
                structlog.stdlib.add_logger_name,
            ],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                _TRACEBACKS,
                bound_values,
                renderer,
            ],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(number)
    # Libraries' debug chatter is not ours to show at "debug": asyncio says
    # which selector each new loop uses and grpc's Cython layer that it
    # found the loop, many times a call. Their lines came before the
    # supervisor's "listening" (a worker's loop racing it) and cost work on
    # every call; their warnings and errors still show.
    for chatty in _CHATTY_LIBRARIES:
        logging.getLogger(chatty).setLevel(max(number, logging.INFO))


_CHATTY_LIBRARIES = ("asyncio", "grpc._cython.cygrpc")
