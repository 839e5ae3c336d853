"""Watching every call: request id, one log event, the metrics.

One event per RPC, JSON, with the request id (taken from `x-request-id`
metadata or made up, and echoed back in the trailing metadata), the rpc, the
game, the outcome, the rejection reason and the latency. Accepted moves and
other successes log at debug, rejections at info, errors at warning (INTERNAL
at error, with the cause). Below the configured level nothing is formatted:
the log call is skipped before its fields are built.

Every call that reaches a handler is counted exactly once, however it ends:
answered, refused, failed, cancelled by its client or past its deadline
(`Call` closes itself once), so the in-flight gauge comes back to 0.

What a client sent is never used as is: metric labels take a game's name only
when it is a registered game (any other string would make a new series that
is kept forever), and logged names are bounded like errors are.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

import structlog

from croupier.engine import registry
from croupier.engine.api import rejection_name
from croupier.service.errors import MAX_FIELD_BYTES, bounded
from croupier.service.metrics import MethodMetrics, Metrics

REQUEST_ID = "x-request-id"
# A caller's request id is echoed in the trailers and every log line: a sane
# length, as metadata must stay small.
MAX_REQUEST_ID = 128

_log = structlog.get_logger("croupier.rpc")


def move_outcome(response: Any) -> str:
    """How an ApplyMoveResponse counts: accepted, or its rejection's reason."""
    return "accepted" if response.accepted else rejection_name(response.rejection)


def game_label(name: str) -> str:
    """`name` if it names a registered game, else "unknown": a metric label."""
    return name if name and registry.find(name) is not None else "unknown"


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
                request_id = value[:MAX_REQUEST_ID]
                break
        if not request_id:
            request_id = os.urandom(8).hex()
        context.set_trailing_metadata(((REQUEST_ID, request_id),))
        method.started.inc()
        self.metrics.in_flight.inc()
        return Call(self, method, request_id)

    def count(self, outcome: str, game: str, amount: int = 1) -> None:
        """`outcome` is accepted, invalid, internal, or the name of a rejection
        reason; `game` is the name the request gave (labelled if registered)."""
        game = game_label(game)
        if outcome in ("accepted", "invalid", "internal"):
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
    """Move outcomes of one call, counted in plain ints and added to the
    metrics once per batch: a metrics update costs more than a move's count."""

    __slots__ = ("observer", "counts")

    def __init__(self, observer: Observer) -> None:
        self.observer = observer
        self.counts: dict[tuple[str, str], int] = {}

    def add(self, outcome: str, game: str) -> None:
        """`outcome` as for `Observer.count`."""
        key = (outcome, game)
        self.counts[key] = self.counts.get(key, 0) + 1

    def flush(self) -> None:
        for (outcome, game), amount in self.counts.items():
            self.observer.count(outcome, game, amount)
        self.counts.clear()


class Call:
    """One call in flight; the handler fills in `game`, `response` (an
    ApplyMoveResponse, whose rejection is logged) and `items` as it learns them."""

    __slots__ = ("observer", "method", "request_id", "started", "game", "response", "items", "open")

    def __init__(self, observer: Observer, method: MethodMetrics, request_id: str) -> None:
        self.observer = observer
        self.method = method
        self.request_id = request_id
        self.started = time.perf_counter()
        self.game = ""
        self.response: Any = None
        self.items = 0
        self.open = True

    def _finish(self, code: str) -> float:
        self.open = False
        elapsed = time.perf_counter() - self.started
        self.method.handling.observe(elapsed)
        self.method.count_handled(code)
        self.observer.metrics.in_flight.dec()
        return elapsed

    def ok(self) -> None:
        """The call answered OK."""
        if not self.open:
            return
        elapsed = self._finish("OK")
        response = self.response
        rejected = response is not None and not response.accepted
        if rejected and self.observer.info:
            _log.info(
                "rpc",
                request_id=self.request_id,
                rpc=self.method.labels[2],
                game=bounded(self.game, MAX_FIELD_BYTES),
                outcome="rejected",
                reason=rejection_name(response.rejection),
                latency_ms=round(elapsed * 1000, 3),
            )
        elif not rejected and self.observer.debug:
            _log.debug(
                "rpc",
                request_id=self.request_id,
                rpc=self.method.labels[2],
                game=bounded(self.game, MAX_FIELD_BYTES),
                outcome="ok",
                items=self.items or None,
                latency_ms=round(elapsed * 1000, 3),
            )

    def failed(self, code: str, message: str, cause: BaseException | None = None) -> None:
        """The call ended with an error status (`message` already bounded);
        `cause` is the exception of an INTERNAL one, logged with its traceback."""
        if not self.open:
            return
        elapsed = self._finish(code)
        fields = dict(
            request_id=self.request_id,
            rpc=self.method.labels[2],
            game=bounded(self.game, MAX_FIELD_BYTES),
            outcome="error",
            code=code,
            error=message,
            items=self.items or None,
            latency_ms=round(elapsed * 1000, 3),
        )
        if cause is not None:
            _log.error("rpc", exc_info=cause, **fields)
        else:
            _log.warning("rpc", **fields)

    def item_failed(self, index: int, game: str, cause: BaseException) -> None:
        """Item `index` of a batch or stream hit a bug (it answered INTERNAL and
        the call goes on): its traceback, logged once, with the call's id."""
        _log.error(
            "item_internal_error",
            exc_info=cause,
            request_id=self.request_id,
            rpc=self.method.labels[2],
            game=bounded(game, MAX_FIELD_BYTES),
            item=index,
        )
