"""Prometheus metrics: the standard gRPC server series plus Croupier's own.

With several worker processes prometheus-client runs in multiprocess mode:
each worker writes its values to files in PROMETHEUS_MULTIPROC_DIR and the
supervisor's HTTP endpoint adds them up. The launcher (`supervisor.py`)
creates and removes that directory and sets the variable before this module
is imported anywhere — prometheus-client picks its storage at import time.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

# Latency buckets for calls that take tens of microseconds to a few
# milliseconds on the server, with a tail up to 10 s for large batches.
_BUCKETS = (
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 2.5, 10.0,
)  # fmt: skip


class Metrics:
    """Every series Croupier exports, registered once per process."""

    def __init__(self) -> None:
        method = ["grpc_type", "grpc_service", "grpc_method"]
        self.started = Counter("grpc_server_started_total", "RPCs started on the server.", method)
        self.handled = Counter(
            "grpc_server_handled_total",
            "RPCs completed on the server, by status code.",
            [*method, "grpc_code"],
        )
        self.handling = Histogram(
            "grpc_server_handling_seconds",
            "Time from receiving a request to sending its response.",
            method,
            buckets=_BUCKETS,
        )
        self.moves = Counter(
            "croupier_moves_total",
            "Moves checked (ApplyMove and every batch or stream item), by outcome.",
            ["game", "outcome"],
        )
        self.rejections = Counter(
            "croupier_rejections_total", "Illegal moves, by game and reason.", ["game", "reason"]
        )
        self.in_flight = Gauge(
            "croupier_rpcs_in_flight",
            "RPCs being served now.",
            multiprocess_mode="livesum",
        )

    def method(self, grpc_type: str, service: str, name: str) -> MethodMetrics:
        """The series of one method, with their labels bound once."""
        labels = (grpc_type, service, name)
        return MethodMetrics(
            started=self.started.labels(*labels),
            handling=self.handling.labels(*labels),
            handled={},
            labels=labels,
            parent=self,
        )


@dataclass
class MethodMetrics:
    """One method's children of the shared series (label look-ups cost more
    than the increments, so they are done once, not per call)."""

    started: Any
    handling: Any
    handled: dict[str, Any]
    labels: tuple[str, str, str]
    parent: Metrics

    def count_handled(self, code: str) -> None:
        child = self.handled.get(code)
        if child is None:
            child = self.handled[code] = self.parent.handled.labels(*self.labels, code)
        child.inc()


_metrics: Metrics | None = None
_lock = threading.Lock()


def metrics() -> Metrics:
    """The process's metrics, created on first use (after any fork)."""
    global _metrics
    with _lock:
        if _metrics is None:
            _metrics = Metrics()
        return _metrics
