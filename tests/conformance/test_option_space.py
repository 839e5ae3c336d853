"""Every registered game's property test draws every catalogue option, and
every value of it, unless option_space.NARROWED says why not.

A new option, or a new ENUM/SET value, cannot be left out of random play
silently: it fails here until the property test draws it or NARROWED gives
the reason. The check reads the option strategies each property test really
uses (SPACES) and asks Hypothesis to reach each value from them, so a
hand-written table fails as surely as a missing one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample
from hypothesis.strategies import SearchStrategy

from conformance import option_space
from conformance.option_space import LeftOut, Only, Range
from croupier.engine import registry
from croupier.engine.options import BOOL, INT, SET, OptionSpec, Value

Strategies = Mapping[str, SearchStrategy[Any]]


# Where each game's property test keeps the option strategies it draws from.
SPACES: dict[str, tuple[str, Callable[[ModuleType], Strategies]]] = {
    "hundred_and_one": ("properties.test_hundred_and_one_properties", lambda m: m.OVERRIDES),
    "uno": ("properties.test_uno_properties", lambda m: m.OPTIONS),
    "sto": ("properties.test_counting_properties", lambda m: m.TABLES["sto"]["overrides"]),
    "one_hundred": (
        "properties.test_counting_properties",
        lambda m: m.TABLES["one_hundred"]["overrides"],
    ),
    "chips_101": (
        "properties.test_counting_properties",
        lambda m: m.TABLES["chips_101"]["overrides"],
    ),
    "scala40": ("scala40.test_properties", lambda m: m.OPTIONS),
    "most": ("most.test_properties", lambda m: m.OPTIONS),
}
GAMES = [game.name for game in registry.games()]

# Enough tries to reach a value of a few-valued strategy many times over; an
# unreachable value costs this many draws, not a playout.
FIND = settings(
    database=None,
    derandomize=True,
    max_examples=300,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)


# The property modules, imported here at collection: importing one inside a
# running @given test (its first use, in whatever order xdist runs them) applies
# its own @given decorators there, which Hypothesis refuses as a nested @given.
_MODULES = {module: importlib.import_module(module) for module, _ in SPACES.values()}


def space_of(game: str) -> Strategies:
    module, get = SPACES[game]
    return get(_MODULES[module])


def reachable(strategy: SearchStrategy[Any], wanted: Callable[[Any], bool]) -> bool:
    try:
        find(strategy, wanted, settings=FIND)
    except NoSuchExample:
        return False
    return True


def wanted_values(
    spec: OptionSpec, how: Only | Range | None
) -> list[tuple[str, Callable[[Any], bool]]]:
    """(what, test) for each value the property test must be able to draw."""

    def equal(value: Value) -> tuple[str, Callable[[Any], bool]]:
        return repr(value), lambda drawn: drawn == value

    def member(name: str) -> tuple[str, Callable[[Any], bool]]:
        return f"a set with {name}", lambda drawn: name in drawn

    if spec.type == INT and not spec.allowed:
        low, high = (
            (how.low, how.high) if isinstance(how, Range) else (spec.min_value, spec.max_value)
        )
        return [equal(low), equal(high)]
    values = how.values if isinstance(how, Only) else option_space.domain_values(spec)
    if spec.type == SET:
        return [equal(()), *(member(str(name)) for name in values)]
    if spec.type == BOOL:
        return [equal(False), equal(True)]
    return [equal(value) for value in values]


def test_every_registered_game_has_a_property_test_option_space() -> None:
    missing = sorted(set(GAMES) - set(SPACES))
    assert not missing, f"no property test draws the options of {missing} (add it to SPACES)"
    assert set(GAMES) <= set(option_space.NARROWED), "give every game an entry in NARROWED"


@pytest.mark.parametrize("game", GAMES)
def test_the_property_test_draws_every_option_and_value(game: str) -> None:
    catalogue = option_space.catalogue(game)
    how = option_space.narrowing(game)
    space = space_of(game)
    problems = [f"{name}: not in the catalogue" for name in space if name not in catalogue.by_name]
    for spec in catalogue.specs:
        rule = how.get(spec.name)
        strategy = space.get(spec.name)
        if strategy is None:
            if not isinstance(rule, LeftOut):
                problems.append(f"{spec.name}: never drawn")
            continue
        if isinstance(rule, LeftOut):
            problems.append(f"{spec.name}: drawn, but NARROWED says it is left out")
            continue
        for what, test in wanted_values(spec, rule):
            if not reachable(strategy, test):
                problems.append(f"{spec.name}: never draws {what}")
    assert not problems, f"{game}'s property test does not draw:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_every_drawn_value_is_one_newgame_accepts(game: str, data: st.DataObject) -> None:
    """And nothing outside the catalogue: a SET comes unique, in its order."""
    catalogue = option_space.catalogue(game)
    for name, strategy in space_of(game).items():
        spec = catalogue.by_name[name]
        value = data.draw(strategy, label=name)
        assert catalogue.coerce(spec, value, name) == value
