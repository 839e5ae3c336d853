"""Every cache a client can fill is registered, bounded and within the
worker's memory budget (engine/caches.py; fuzz F4, issue 7).

F4's last cause was not a leak: caches of the games, the engine and the
built-in bots, each bounded, whose keys a client chooses, and whose bounds
together were more than a worker could spare. These tests find that class:
a module-level dict, set or lru cache that grows with the traffic and is not
registered; a cache whose entries weigh more than the budget counted; and
bounds that together exceed the budget."""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import pkgutil
import random
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

import croupier.engine
import croupier.games
import croupier_client.bots
from croupier.engine import api, caches
from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.engine.options import to_option_value
from croupier.service import bots as service_bots
from croupier.v1 import bot_pb2, options_pb2, service_pb2

PACKAGES = (croupier.engine, croupier.games, croupier_client.bots)

# Module-level containers that grow but whose keys come from a fixed, small
# domain (seats, cards, games), not from a client's choices: name -> why.
FIXED_DOMAINS = {
    "croupier.engine.registry._GAMES": "the registered games",
    "croupier.engine.move_codec._codecs": "one codec per registered game",
    "croupier.engine.session._caches": "one entry per registered game",
    "croupier.engine.live._classes": "one mirror class per game's spec",
    "croupier.engine.caches._REGISTRY": "the caches themselves",
    "croupier.games.hundred_and_one.legal._PLAYABLE_ON": "52 top cards x 4 suits",
    "croupier.games.hundred_and_one.legal._ENCODED": "one table per seat",
    "croupier.games.hundred_and_one.scoring._most_points": "deck size x 2 options (bounded 64)",
    "croupier.games.hundred_and_one.scoring._lowest_totals": "2 options (bounded 64)",
    "croupier.games.counting.legal._ENCODED": "one table per game and seat",
    "croupier.games.uno.legal._PLAIN": "seat x 3 flags",
    "croupier.games.uno.legal._OTHERS": "seat x action x (colour, card or seat)",
}


def _modules() -> list[types.ModuleType]:
    found = []
    for package in PACKAGES:
        found.append(package)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if ".v1" in info.name or info.name.endswith("__main__"):
                continue
            found.append(importlib.import_module(info.name))
    return found


def _containers() -> dict[str, Any]:
    """Every module-level dict, set and lru cache of the packages, by name."""
    out: dict[str, Any] = {}
    for module in _modules():
        for attribute, value in vars(module).items():
            if isinstance(value, dict | set) or hasattr(value, "cache_info"):
                if getattr(value, "__module__", module.__name__) != module.__name__:
                    continue  # an lru function imported from elsewhere
                out[f"{module.__name__}.{attribute}"] = value
    return out


def _size(value: Any) -> int:
    info = getattr(value, "cache_info", None)
    return int(info().currsize) if info is not None else len(value)


def _option_sets(described: options_pb2.GameDescriptor, count: int) -> Iterator[list[Any]]:
    """Up to `count` option overrides of a game, one option each."""
    made = 0
    for option in described.options:
        if option.type == options_pb2.OPTION_TYPE_BOOL:
            values: list[Any] = [True, False]
        elif option.type == options_pb2.OPTION_TYPE_ENUM:
            values = list(option.allowed_values)
        elif option.type == options_pb2.OPTION_TYPE_INT:
            values = [option.min_value + 1, option.max_value]
        else:
            continue
        for value in values:
            yield [(option.name, value)]
            made += 1
            if made >= count:
                return


def _drive(option_sets: int = 8, moves: int = 30, seed: int = 1) -> int:
    """Distinct in-process traffic of every game, as the fuzzer's live phase
    makes it: new option sets, random moves (validated: untrusted), listings,
    views, default moves, and the built-in bot's choices. Returns the calls.
    30 moves a table reach every container that 60 reached (the same 17 grow
    or stay empty, each in a fresh process) at half the cost: 7.8 s under
    `make test`'s coverage tracer with 60."""
    rng = random.Random(seed)
    calls = 0
    for described in api.list_games(service_pb2.ListGamesRequest()).games:
        preset = described.presets[0]
        for overrides in _option_sets(described, option_sets):
            request = service_pb2.NewGameRequest(
                game=described.name, preset=preset.name, seat_count=preset.min_seats, seed=seed
            )
            for name, value in overrides:
                request.options.add(name=name, value=to_option_value(value))
            try:
                state = api.new_game(request).state
            except InvalidInput:
                continue  # an override the preset contradicts
            for _ in range(moves):
                if state.match.phase != 1:  # MATCH_PHASE_DEAL_IN_PROGRESS
                    with contextlib.suppress(FailedPrecondition, InvalidInput):
                        state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
                    if state.match.phase != 1:
                        break
                seat = state.acting_seats[0]
                listed = api.list_legal_moves(
                    service_pb2.ListLegalMovesRequest(state=state, seat=seat)
                ).moves
                view = api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view
                api.default_move(service_pb2.DefaultMoveRequest(state=state, seat=seat))
                calls += 3
                if not listed:
                    break
                if described.name in service_bots.HEURISTIC_BOTS and rng.random() < 0.3:
                    ask = bot_pb2.ChooseMoveRequest(view=view, legal_moves=listed, match_id="m")
                    choice = listed[service_bots.choose_move(ask).move_index]
                    calls += 1
                else:
                    choice = rng.choice(listed)
                answer = api.apply_move(
                    service_pb2.ApplyMoveRequest(
                        state=state, move=choice.move, next_legal_moves=True
                    )
                )
                calls += 1
                if answer.accepted:
                    state = answer.state
    return calls


_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)


def _deep(objects: list[Any], seen: set[int]) -> int:
    """sys.getsizeof over everything reachable, each object once (`seen`)."""
    total = 0
    stack = list(objects)
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, _SKIP):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total


def _entries(entry: caches.Registered) -> list[tuple[Any, Any]]:
    cache = entry.cache
    if isinstance(cache, dict | caches.Pool):
        return list(cache.items())
    if isinstance(cache, set):
        return [(key, None) for key in cache]
    # An lru cache: its wrapper refers to its dict (beside its __dict__), keyed
    # by the arguments (a tuple of them, or a lone int or str); a call with
    # those is a hit that answers the cached result.
    (table,) = [
        r for r in gc.get_referents(cache) if isinstance(r, dict) and "__wrapped__" not in r
    ]
    return [(key, cache(*(key if isinstance(key, tuple) else (key,)))) for key in list(table)]


def _per_entry(entry: caches.Registered) -> float:
    """The deep size one more entry adds: what the entries take beyond the
    first one (which carries the objects they share: compiled rules, enums)."""
    items = _entries(entry)
    seen: set[int] = set()
    first = _deep([items[0]], seen)
    rest = _deep(items[1:], seen)
    assert first >= 0
    return rest / (len(items) - 1)


@pytest.fixture(scope="module")
def driven() -> dict[str, tuple[int, int]]:
    """Traffic driven: container sizes before and after (the caches start
    empty, as in a new worker)."""
    containers = _containers()
    caches.clear_all()
    before = {name: _size(value) for name, value in containers.items()}
    calls = _drive()
    assert calls > 1_000
    return {name: (before[name], _size(value)) for name, value in containers.items()}


def test_every_module_cache_that_grows_is_registered(driven: dict[str, tuple[int, int]]) -> None:
    """A module-level dict or set that grew with the traffic, or that is
    empty (a cache waiting for traffic this test does not make: constants are
    filled at import), is registered or named in FIXED_DOMAINS."""
    registered = {id(entry.cache) for entry in caches.registered()}
    containers = _containers()
    unregistered = [
        f"{name}: {before} -> {after} entries"
        for name, (before, after) in driven.items()
        if (after > before or after == 0)
        and not name.rpartition(".")[2].startswith("__")
        and id(containers[name]) not in registered
        and name not in FIXED_DOMAINS
    ]
    assert not unregistered, "caches a client's input fills, not registered in engine/caches.py"
    lru_caches = [
        name
        for name, value in containers.items()
        if isinstance(value, functools._lru_cache_wrapper)  # type: ignore[attr-defined]
        and id(value) not in registered
        and name not in FIXED_DOMAINS
    ]
    assert not lru_caches, "lru caches not registered in engine/caches.py"


def test_every_registered_cache_is_bounded_and_filled_by_traffic(
    driven: dict[str, tuple[int, int]],
) -> None:
    for entry in caches.registered():
        assert 0 < entry.bound < 1 << 17, entry.name
        assert entry.entries <= entry.bound, entry.name
        if isinstance(entry.cache, caches.Bounded | caches.BoundedSet | caches.Pool):
            assert entry.cache.bound == entry.bound, entry.name
    filled = [e.name for e in caches.registered() if e.served and e.entries]
    assert len(filled) >= 15, filled


def test_the_caches_fit_the_budget_at_their_bounds(driven: dict[str, tuple[int, int]]) -> None:
    """Each cache's entries weigh no more than it declares (measured on this
    traffic; the fuzzer's entries set the declared sizes), and the bounds
    times those sizes fit BUDGET_BYTES."""
    heavier = []
    for entry in caches.registered():
        if not entry.served or entry.entries < 8:
            continue
        measured = _per_entry(entry)
        if measured > 1.5 * entry.entry_bytes:
            heavier.append(f"{entry.name}: {measured:.0f} B an entry, declared {entry.entry_bytes}")
    assert not heavier
    used = caches.budget_use()
    assert used <= caches.BUDGET_BYTES, f"{used:,} B at the bounds, budget {caches.BUDGET_BYTES:,}"


def test_a_full_cache_starts_over() -> None:
    cache: caches.Bounded[int, int] = caches.Bounded("test.bounded", 3, 100, served=False)
    for key in range(3):
        cache.put(key, key)
    assert cache.put(3, 3) == 3
    assert dict(cache) == {3: 3}
    keys: caches.BoundedSet[int] = caches.BoundedSet("test.bounded_set", 2, 100, served=False)
    for key in range(3):
        keys.put(key)
    assert keys == {2}
