"""The fixed-size numeric observation: named segments of one float32 vector.

An encoder declares its segments once (`Layout.add`: a name, a size and the
bounds of every value in it); the observation space's Box comes from those
bounds, and `Layout.describe()` says which index means what, so a user can
read an observation without reading the encoder.

Seat-indexed segments are *relative to the observer*: index 0 is the
observing seat itself, 1 the next seat clockwise, and so on. One policy can
then play every seat (parameter sharing) and see the same thing from each.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

# The bound of values with no rule-given limit (scores, points, totals): far
# beyond anything a match reaches, and finite, as Gymnasium's checks prefer.
UNBOUNDED = 1e9


@dataclass(frozen=True)
class Segment:
    """One named run of values of the observation vector."""

    name: str
    start: int
    size: int
    low: float
    high: float

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)


class Layout:
    """The segments of one observation vector, in order."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.size = 0

    def add(self, name: str, size: int, low: float = 0.0, high: float = 1.0) -> int:
        """Append a segment; its first index (where an encoder writes it)."""
        if size <= 0:
            raise ValueError(f"segment {name!r} needs a positive size; got {size}")
        if low > high:
            raise ValueError(f"segment {name!r}: low {low} is above high {high}")
        if any(segment.name == name for segment in self.segments):
            raise ValueError(f"segment {name!r} is declared twice")
        start = self.size
        self.segments.append(Segment(name, start, size, low, high))
        self.size += size
        return start

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The per-index low and high bounds, for the observation Box."""
        low = np.empty(self.size, dtype=np.float32)
        high = np.empty(self.size, dtype=np.float32)
        for segment in self.segments:
            low[segment.slice] = segment.low
            high[segment.slice] = segment.high
        return low, high

    def segment(self, name: str) -> Segment:
        """The segment called `name`; KeyError naming the known ones."""
        for segment in self.segments:
            if segment.name == name:
                return segment
        known = ", ".join(segment.name for segment in self.segments)
        raise KeyError(f"no segment {name!r}; the layout has {known}")

    def describe(self) -> str:
        """One line per segment: indices, name, bounds."""
        return "\n".join(
            f"{s.start:5}-{s.start + s.size - 1:<5} {s.name} [{s.low:g}, {s.high:g}]"
            for s in self.segments
        )


def add_counts(out: np.ndarray, start: int, cards: Iterable[int]) -> None:
    """Count each card value v (1-based) at out[start + v - 1]."""
    for card in cards:
        out[start + card - 1] += 1.0


def set_one_hot(out: np.ndarray, start: int, index: int) -> None:
    """out[start + index] = 1 (the caller sized the segment to hold `index`)."""
    out[start + index] = 1.0


def relative(seat: int, viewer: int, seats: int) -> int:
    """`seat` seen from `viewer`: 0 is the viewer, 1 the next seat clockwise."""
    return (seat - viewer) % seats
