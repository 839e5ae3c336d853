"""Counter-based randomness carried in the state (DESIGN.md, determinism).

Draw number k of a match is a pure function of (seed, k): SplitMix64's output
function applied to seed + (k + 1) * golden gamma. No module-level generator,
no clock; a replay of the same seed and moves repeats every shuffle, on any
process and any platform.

The counter (GameState.rng_counter, a uint64) wraps from 2^64 - 1 to 0: the
stream is a cycle of 2^64 values (the generator's arithmetic is mod 2^64
already), so every counter is valid and the draw after the last is the first.
Neither refusing a state near the end nor saturating would do: a saturated
counter repeats one value for ever, and `below` could then never return.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from croupier.v1 import game_pb2

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


def mix(seed: int, counter: int) -> int:
    """The 64-bit value number `counter` of the stream keyed by `seed`."""
    z = (seed + (counter + 1) * _GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def next_u64(state: game_pb2.GameState) -> int:
    """Take the next value of the state's stream and advance its counter."""
    value = mix(state.seed, state.rng_counter)
    state.rng_counter = (state.rng_counter + 1) & _MASK  # wraps: see the module docstring
    return value


def below(state: game_pb2.GameState, n: int) -> int:
    """A uniform integer in [0, n), without modulo bias (rejection sampling)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value = next_u64(state)
        if value < limit:
            return value % n


def shuffle(state: game_pb2.GameState, items: MutableSequence[T]) -> None:
    """Fisher–Yates shuffle of `items` in place, driven by the state's stream."""
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
