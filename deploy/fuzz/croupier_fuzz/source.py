"""Where the fuzzer's choices come from.

Every mutation is drawn from a `Source`, so one mutator serves two drivers:
`RandomSource` (a seeded `random.Random`: fast, for the budgeted `make fuzz`
run, where input number i is reproducible from the seed alone) and
`HypothesisSource` (hypothesis's `data.draw`: slower, but hypothesis then
shrinks a failing input by itself). Choices are listed simplest first, which
is the direction hypothesis shrinks in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Source(Protocol):
    """Integers and picks; everything the mutator decides goes through here."""

    def below(self, n: int) -> int:
        """An integer in [0, n) (n >= 1)."""
        ...


def pick(source: Source, items: Sequence[T]) -> T:
    """One of `items`, the first ones being the simplest."""
    return items[source.below(len(items))]


def chance(source: Source, percent: int) -> bool:
    """True `percent` times in a hundred."""
    return source.below(100) < percent


class RandomSource:
    """Choices from a seeded `random.Random`."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def below(self, n: int) -> int:
        return self.random.randrange(n)


class HypothesisSource:
    """Choices drawn through hypothesis (`st.data()`), so that it can shrink them."""

    def __init__(self, data: Any) -> None:
        from hypothesis import strategies as st

        self._data = data
        self._st = st

    def below(self, n: int) -> int:
        if n == 1:
            return 0
        return int(self._data.draw(self._st.integers(0, n - 1)))
