"""Logging: one JSON object per line on stderr, for people and log shippers alike."""

from __future__ import annotations

import logging
import sys

import structlog

_SHARED_PROCESSORS: list[structlog.typing.Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.processors.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]


def configure_logging(level: str) -> None:
    """Send structlog and stdlib logging (grpc's own records) to stderr as
    JSON lines, dropping records below `level` ("debug" … "critical")."""
    number = logging.getLevelNamesMapping()[level.upper()]
    renderer = structlog.processors.JSONRenderer()
    structlog.configure(
        processors=[
            *_SHARED_PROCESSORS,
            structlog.processors.dict_tracebacks,
            renderer,
        ],
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
                structlog.processors.dict_tracebacks,
                renderer,
            ],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(number)
