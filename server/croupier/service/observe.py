"""Watching every call: request id, one log event, the metrics.

One event per RPC, JSON, with the request id (taken from `x-request-id`
metadata or made up, and echoed back in the trailing metadata), the rpc, the
game, the outcome, the rejection reason and the latency. Accepted moves and
other successes log at debug, rejections at info, errors at warning (INTERNAL
at error, with the cause). Below the configured level nothing is formatted:
the log call is skipped before its fields are built.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

import structlog

from croupier.engine.api import rejection_name
from croupier.service.metrics import MethodMetrics, Metrics

REQUEST_ID = "x-request-id"

_log = structlog.get_logger("croupier.rpc")


class Observer:
    """Per-process observation of calls, shared by every handler."""

    def __init__(self, metrics: Metrics, log_level: str) -> None:
        self.metrics = metrics
        number = logging.getLevelNamesMapping()[log_level.upper()]
        self.debug = number <= logging.DEBUG
        self.info = number <= logging.INFO
        self._moves: dict[tuple[str, str], Any] = {}
        self._rejections: dict[tuple[str, str], Any] = {}

    def start(self, method: MethodMetrics, context: Any) -> Call:
        """A call begins: count it and give it a request id."""
        request_id = None
        for key, value in context.invocation_metadata() or ():
            if key == REQUEST_ID:
                request_id = value
                break
        if not request_id:
            request_id = os.urandom(8).hex()
        context.set_trailing_metadata(((REQUEST_ID, request_id),))
        method.started.inc()
        self.metrics.in_flight.inc()
        return Call(self, method, request_id)

    def count_move(self, game: str, response: Any, amount: int = 1) -> None:
        """An ApplyMove answer (unary, batch item or stream item) by outcome."""
        if response.accepted:
            self.count("accepted", game, amount)
        else:
            self.count(rejection_name(response.rejection), game, amount)

    def count_invalid_move(self, game: str) -> None:
        self.count("invalid", game or "unknown")

    def count(self, outcome: str, game: str, amount: int = 1) -> None:
        """`outcome` is accepted, invalid, or the name of a rejection reason."""
        if outcome in ("accepted", "invalid"):
            self._child(self._moves, self.metrics.moves, game, outcome).inc(amount)
            return
        self._child(self._moves, self.metrics.moves, game, "rejected").inc(amount)
        self._child(self._rejections, self.metrics.rejections, game, outcome).inc(amount)

    @staticmethod
    def _child(cache: dict[tuple[str, str], Any], family: Any, a: str, b: str) -> Any:
        child = cache.get((a, b))
        if child is None:
            child = cache[(a, b)] = family.labels(a, b)
        return child


class Tally:
    """Move outcomes of one batch, counted in plain ints and added to the
    metrics once per batch: a metrics update costs more than a move's count."""

    __slots__ = ("observer", "counts")

    def __init__(self, observer: Observer) -> None:
        self.observer = observer
        self.counts: dict[tuple[str, str], int] = {}

    def move(self, game: str, response: Any) -> None:
        if response.accepted:
            key = ("accepted", game)
        else:
            key = (rejection_name(response.rejection), game)
        self.counts[key] = self.counts.get(key, 0) + 1

    def invalid(self, game: str) -> None:
        key = ("invalid", game or "unknown")
        self.counts[key] = self.counts.get(key, 0) + 1

    def flush(self) -> None:
        for (outcome, game), amount in self.counts.items():
            self.observer.count(outcome, game, amount)
        self.counts.clear()


class Call:
    """One call in flight."""

    __slots__ = ("observer", "method", "request_id", "started")

    def __init__(self, observer: Observer, method: MethodMetrics, request_id: str) -> None:
        self.observer = observer
        self.method = method
        self.request_id = request_id
        self.started = time.perf_counter()

    def _finish(self, code: str) -> float:
        elapsed = time.perf_counter() - self.started
        self.method.handling.observe(elapsed)
        self.method.count_handled(code)
        self.observer.metrics.in_flight.dec()
        return elapsed

    def ok(self, game: str = "", response: Any = None, *, items: int = 0) -> None:
        """The call answered OK; `response` is an ApplyMoveResponse for moves."""
        elapsed = self._finish("OK")
        rejected = response is not None and not response.accepted
        if rejected and self.observer.info:
            _log.info(
                "rpc",
                request_id=self.request_id,
                rpc=self.method.labels[2],
                game=game,
                outcome="rejected",
                reason=rejection_name(response.rejection),
                latency_ms=round(elapsed * 1000, 3),
            )
        elif not rejected and self.observer.debug:
            _log.debug(
                "rpc",
                request_id=self.request_id,
                rpc=self.method.labels[2],
                game=game,
                outcome="ok",
                items=items or None,
                latency_ms=round(elapsed * 1000, 3),
            )

    def failed(
        self, code: str, message: str, game: str = "", cause: BaseException | None = None
    ) -> None:
        """The call ended with an error status."""
        elapsed = self._finish(code)
        fields = dict(
            request_id=self.request_id,
            rpc=self.method.labels[2],
            game=game,
            outcome="error",
            code=code,
            error=message,
            latency_ms=round(elapsed * 1000, 3),
        )
        if cause is not None:
            _log.error("rpc", exc_info=cause, **fields)
        else:
            _log.warning("rpc", **fields)
