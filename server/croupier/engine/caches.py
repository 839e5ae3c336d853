"""Every cache a client's input can fill, under one memory budget (fuzz F4).

The engine and the games remember what they work out per distinct input:
compiled option sets, analysed tables and melds, serialized moves, checked
options; the built-in bots their hands' packings. A client chooses those keys
(a hostile one makes up new ones at every call), so each cache is bounded,
and the bounds together must fit what a serving worker can spare: issue 7
allows a worker 20 % of growth over a long fuzz run, about 11 MB of a ~56 MB
worker, and a cache's live objects cost the worker 1.5-2.5 times their deep
size in RSS (pymalloc arenas that a cache starting over frees only in part,
malloc's chunks). Before session 19 the bounds allowed ~55 MB of deep size.

BUDGET_BYTES is the budget, in deep size (sys.getsizeof over an entry's
objects, its key included). Each cache is made here, by name, with its bound
(entries) and `entry_bytes`, the deep size of one entry as measured on the
fuzzer's inputs (what a hostile client's entries weigh; a real table's are
mostly smaller): `registered()` lists them, and tests/engine/test_caches.py
checks that the bounds times the entry sizes fit the budget, that an entry of
real traffic is not heavier than its cache says, and that no module keeps a
growing dict, set or lru cache that is not registered here.

Each bound is the smallest that keeps the hit rate of the load test
(deploy/loadtest/data: 1,024 positions a game, in a cycle; every RPC of it),
with some margin, and of bot matches; reports/fuzz/FINDINGS.md, F4, session
19, gives each one's figures.

Four forms, all as fast on the hot path as the plain dict, set or lru cache
each replaced:

- `Bounded`: a dict that starts over (clears) when full, the games' form since
  fuzz F4 (clearing costs nothing per call; an LRU's bookkeeping would);
- `BoundedSet`: the same for a set of keys already checked;
- `lru(name, bound, entry_bytes)`: `functools.lru_cache(maxsize=bound)`,
  registered;
- `Pool`: maps made per game (the move codec's), under one bound together.

Caches of other packages (the built-in bots of croupier_client, which must not
import this server package) are registered by `FOREIGN`, looked up when listed.

The in-process Session's caches (one pair per game, registered when a game's
first Session starts) belong to in-process play (training, the bench), never
to a served request: they are listed with `served=False`, outside the budget.

Where a key is a long value (a table of melds, a position), the cache keeps
its `digest` instead: 49 bytes where a tuple of bytes took hundreds.
"""

from __future__ import annotations

import functools
import importlib
import marshal
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])

# What all the caches of a serving worker may hold at their bounds, in deep
# size: 6.5 MiB (6.44 are used), which a worker's RSS carries as 10-16 MB, so
# a client filling every cache of every game at once takes a worker to issue
# 7's 20 % and no further (the bounds allowed ~53 MB before); the fuzzer's
# engine phase fills about 4 MB of it in 60,000 inputs.
BUDGET_BYTES = 6_656 * 1024


@dataclass(frozen=True)
class Registered:
    """A registered cache: its name, bound (entries), the deep size of one
    entry, whether a served request can fill it, and the cache itself (a
    Bounded, a BoundedSet or an lru cache wrapper)."""

    name: str
    bound: int
    entry_bytes: int
    served: bool
    cache: Any

    @property
    def entries(self) -> int:
        info = getattr(self.cache, "cache_info", None)
        return int(info().currsize) if info is not None else len(self.cache)

    def clear(self) -> None:
        clear = getattr(self.cache, "cache_clear", None) or self.cache.clear
        clear()


_REGISTRY: dict[str, Registered] = {}


def _register(name: str, bound: int, entry_bytes: int, served: bool, cache: Any) -> None:
    _REGISTRY[name] = Registered(name, bound, entry_bytes, served, cache)


class Bounded(dict[K, V], Generic[K, V]):
    """A dict of at most `bound` entries: `put` clears it when full. Look up
    with the dict's own `get` / `[]` / `in` (C speed); store with `put`."""

    __slots__ = ("name", "bound")

    def __init__(self, name: str, bound: int, entry_bytes: int, *, served: bool = True) -> None:
        super().__init__()
        self.name = name
        self.bound = bound
        _register(name, bound, entry_bytes, served, self)

    def put(self, key: K, value: V) -> V:
        """Store `value` under `key` (starting over when full); returns it."""
        if len(self) >= self.bound:
            self.clear()
        self[key] = value
        return value


class BoundedSet(set[K], Generic[K]):
    """A set of at most `bound` keys: `put` clears it when full."""

    __slots__ = ("name", "bound")

    def __init__(self, name: str, bound: int, entry_bytes: int, *, served: bool = True) -> None:
        super().__init__()
        self.name = name
        self.bound = bound
        _register(name, bound, entry_bytes, served, self)

    def put(self, key: K) -> None:
        if len(self) >= self.bound:
            self.clear()
        self.add(key)


class Pool:
    """Maps that share one bound (`map()` makes one): when their entries
    together reach it, all of them start over. For maps made per game (the
    move codec's): a worker's memory does not grow with the number of games,
    and one game alone may use the whole bound."""

    __slots__ = ("name", "bound", "count", "_members", "__weakref__")

    def __init__(self, name: str, bound: int, entry_bytes: int) -> None:
        self.name = name
        self.bound = bound
        self.count = 0  # entries stored since the last start (a bound on len())
        # (A dict is not hashable, so not a WeakSet: references, dead ones dropped.)
        self._members: list[weakref.ref[Pooled[Any, Any]]] = []
        _register(name, bound, entry_bytes, True, self)

    def map(self) -> Pooled[Any, Any]:
        member: Pooled[Any, Any] = Pooled(self)
        self._members = [ref for ref in self._members if ref() is not None]
        self._members.append(weakref.ref(member))
        return member

    def members(self) -> list[Pooled[Any, Any]]:
        return [member for ref in self._members if (member := ref()) is not None]

    def __len__(self) -> int:
        return sum(len(member) for member in self.members())

    def items(self) -> Iterator[tuple[Any, Any]]:
        for member in self.members():
            yield from member.items()

    def clear(self) -> None:
        for member in self.members():
            dict.clear(member)
        self.count = 0


class Pooled(dict[K, V], Generic[K, V]):
    """A map of a Pool: looked up as a dict, stored with `put`."""

    __slots__ = ("pool", "__weakref__")

    def __init__(self, pool: Pool) -> None:
        super().__init__()
        self.pool = pool

    def put(self, key: K, value: V) -> V:
        pool = self.pool
        if pool.count >= pool.bound:
            pool.clear()
        pool.count += 1
        self[key] = value
        return value


class CompiledRules(Generic[K, V]):
    """A game's rules compiled once per option set: `rules_for(options)`
    compiles `options` (a game's options message, already validated) with
    `compile`, cached by its bytes (no maps: the plain encoding is canonical).
    Few option sets are in use at once; a client choosing new ones must not
    grow a worker (fuzz F4: 1,024 sets of a game took 2-5 MB), hence the
    bound (16 sets) and each game's entry size in the budget above."""

    __slots__ = ("_cache", "_compile")

    def __init__(self, name: str, compile: Callable[[K], V], entry_bytes: int) -> None:
        self._cache: Bounded[bytes, V] = Bounded(name, 16, entry_bytes)
        self._compile = compile

    def __call__(self, options: K) -> V:
        key = options.SerializeToString()  # type: ignore[attr-defined]
        rules = self._cache.get(key)
        if rules is None:
            rules = self._cache.put(key, self._compile(options))
        return rules


def digest(*parts: Any) -> bytes:
    """A 16-byte key for a long value (ints, bools, bytes and tuples or lists
    of them): the BLAKE2b digest of its marshal form. That form (version 2,
    which writes no back-references) spells a value one way only and keeps
    each part's length, so two values have the same digest only by a 128-bit
    collision, beyond a client's reach. A cache whose keys are tables or
    positions keeps 49 bytes a key instead of hundreds (a tuple of bytes)."""
    return blake2b(marshal.dumps(parts, 2), digest_size=16).digest()


def lru(name: str, bound: int, entry_bytes: int) -> Callable[[F], F]:
    """`functools.lru_cache(maxsize=bound)`, registered as `name`."""

    def decorate(function: F) -> F:
        cached = functools.lru_cache(maxsize=bound)(function)
        _register(name, bound, entry_bytes, True, cached)
        return cached  # type: ignore[return-value]

    return decorate


# Caches of croupier_client's built-in bots (served by BotService/ChooseMove):
# "module:attribute" -> the deep size of one entry. Their bounds are the
# client's own (chosen for a serving worker, see each one's comment there).
FOREIGN: dict[str, int] = {
    "croupier_client.bots.rummy:_templates": 600,
    "croupier_client.bots.rummy:_best_packing": 700,
    "croupier_client.bots.scala40:_rules": 2_600,
}


def _foreign() -> Iterator[Registered]:
    for spec, entry_bytes in FOREIGN.items():
        module, _, attribute = spec.partition(":")
        cached = getattr(importlib.import_module(module), attribute)
        bound = cached.cache_parameters()["maxsize"]
        yield Registered(spec.replace(":", "."), bound, entry_bytes, True, cached)


def registered() -> list[Registered]:
    """Every cache registered so far (a module's when it is imported, a
    game's when it is first used), and the bots' (FOREIGN)."""
    return [*_REGISTRY.values(), *_foreign()]


def budget_use() -> int:
    """The deep size the served caches registered so far may reach at their
    bounds (a per-game cache counts once it is made: see the test)."""
    return sum(e.bound * e.entry_bytes for e in registered() if e.served)


def clear_all() -> None:
    """Empty every registered cache (tests, measurements)."""
    for entry in registered():
        entry.clear()
