"""Every rule option's whole domain as a Hypothesis strategy, read from the
game's catalogue (the one declaration of its options, engine/options.py).

The property tests draw random rule options from `strategies(game)`, never
from a table of their own: a hand-written table drifts from the catalogue
(101's drew `forbidden_finish` from five of its eight values, so a bug in a
"forbidden last 8" position was never reached by random play). A test may
still leave an option out or narrow it, but only here, in NARROWED, with its
reason; tests/conformance/test_option_space.py checks that every option and
every value of every registered game is drawn unless NARROWED says why not.

Domains: a bool either way; an INT its `allowed` values, or min..max; an ENUM
every allowed name; a SET any subset of its allowed names (unique, in
catalogue order, as NewGame's canonical form).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from croupier.engine import registry
from croupier.engine.options import BOOL, ENUM, INT, SET, Catalogue, OptionSpec, Value


@dataclass(frozen=True)
class LeftOut:
    """The option is never drawn: it keeps its preset's value."""

    reason: str


@dataclass(frozen=True)
class Only:
    """Only these values are drawn (ENUM or INT values, SET members)."""

    values: tuple[Value, ...]
    reason: str


@dataclass(frozen=True)
class Range:
    """An INT range option drawn from low..high only."""

    low: int
    high: int
    reason: str


Narrowing = LeftOut | Only | Range

# NewGame sets `players` from the seat count (a different value is refused),
# and every property test draws its seat count.
_PLAYERS = LeftOut("NewGame takes it from seat_count, which the test draws")

# Per game, what its property test deliberately does not draw in full, and
# why. Everything else is drawn over its whole domain.
NARROWED: dict[str, dict[str, Narrowing]] = {
    "hundred_and_one": {"players": _PLAYERS},
    "uno": {},
    # The counting test plays whole matches with every check at every step.
    "sto": {"deals_per_match": Range(1, 4, "whole matches are played: a few deals each")},
    "one_hundred": {
        "players": _PLAYERS,
        "lives": Range(1, 3, "whole matches are played: a few lives each"),
    },
    "chips_101": {"chips": Range(1, 3, "whole matches are played: a few chips each")},
    "scala40": {},
    # Every fifth «Мост» example plays a whole match to its winner.
    "most": {
        "players": _PLAYERS,
        "target_score": Range(1, 500, "whole matches are played: at most the rum500 target"),
        # 0 is the open-ended match, which random play need not end (C-M-4).
        "max_deals": Range(1, 12, "whole matches must end: at most the presets' 12 deals"),
    },
}


def catalogue(game: str) -> Catalogue:
    """The registered game's option catalogue."""
    found = registry.find(game)
    if found is None:
        raise ValueError(f"{game} is not registered")
    return found.catalogue


def subsets(names: Sequence[str]) -> SearchStrategy[tuple[str, ...]]:
    """Any subset of `names`, unique, in the order of `names`."""
    order = list(names)
    return st.lists(st.sampled_from(order), unique=True).map(
        lambda chosen: tuple(sorted(chosen, key=order.index))
    )


def whole_domain(spec: OptionSpec) -> SearchStrategy[Value]:
    """Every value the catalogue allows for one option."""
    if spec.type == BOOL:
        return st.booleans()
    if spec.type == INT:
        if spec.allowed:
            return st.sampled_from([int(v) for v in spec.allowed])
        return st.integers(spec.min_value, spec.max_value)
    if spec.type == ENUM:
        return st.sampled_from(spec.allowed)
    if spec.type == SET:
        return subsets(spec.allowed)
    raise ValueError(f"option {spec.name}: unknown type {spec.type}")


def domain_values(spec: OptionSpec) -> tuple[Value, ...]:
    """The finite domain (a SET's members), or () for an INT range."""
    if spec.type == BOOL:
        return (False, True)
    if spec.type == INT:
        return tuple(int(v) for v in spec.allowed)
    return spec.allowed


def narrowed(spec: OptionSpec, how: Only | Range) -> SearchStrategy[Value]:
    """The strategy of a narrowed option, checked against the catalogue."""
    if not how.reason.strip():
        raise ValueError(f"option {spec.name}: a narrowing needs its reason")
    if isinstance(how, Range):
        if spec.type != INT or spec.allowed:
            raise ValueError(f"option {spec.name}: Range narrows an INT range only")
        if not spec.min_value <= how.low <= how.high <= spec.max_value:
            raise ValueError(
                f"option {spec.name}: {how.low}..{how.high} is not inside "
                f"{spec.min_value}..{spec.max_value}"
            )
        return st.integers(how.low, how.high)
    allowed = domain_values(spec)
    if not allowed or not how.values or not set(how.values) < set(allowed):
        raise ValueError(f"option {spec.name}: {how.values} is not a part of {allowed}")
    if spec.type == SET:
        return subsets([v for v in spec.allowed if v in how.values])
    return st.sampled_from(how.values)


def narrowing(game: str) -> Mapping[str, Narrowing]:
    """The game's deliberate narrowings (NARROWED), each checked: it names a
    catalogue option, gives a reason and stays inside the option's domain."""
    if game not in NARROWED:
        raise ValueError(f"{game}: no entry in option_space.NARROWED (give it one, even empty)")
    specs = catalogue(game).by_name
    for name, how in NARROWED[game].items():
        if name not in specs:
            raise ValueError(f"{game}: NARROWED names {name!r}, not in the catalogue")
        if not how.reason.strip():
            raise ValueError(f"{game}: NARROWED {name!r} needs its reason")
    return NARROWED[game]


@cache
def _strategies(game: str) -> tuple[tuple[str, SearchStrategy[Value]], ...]:
    how = narrowing(game)
    out = []
    for spec in catalogue(game).specs:
        rule = how.get(spec.name)
        if isinstance(rule, LeftOut):
            continue
        out.append((spec.name, whole_domain(spec) if rule is None else narrowed(spec, rule)))
    return tuple(out)


def strategies(game: str) -> dict[str, SearchStrategy[Value]]:
    """{option name: strategy} for the game's property tests, in catalogue
    order: every option over its whole domain, with NARROWED applied."""
    return dict(_strategies(game))


def seat_counts(
    game: str, preset_seats: tuple[int, int]
) -> SearchStrategy[tuple[int, dict[str, Value]]]:
    """A seat count for a table of `game`, and the overrides it brings: one in
    the preset's range; or, where the catalogue has `players` (a rule option:
    101's O2, One Hundred's O-C2-2), now and then any count of the option's
    domain, with `players` set to it, which is how a table chooses that
    variant over the preset's range (engine/api.py, _check_seat_count)."""
    in_preset = st.integers(*preset_seats).map(lambda seats: (seats, {}))
    spec = catalogue(game).by_name.get("players")
    if spec is None:
        return in_preset
    chosen = st.integers(spec.min_value, spec.max_value).map(
        lambda seats: (seats, {"players": seats})
    )
    return st.one_of(in_preset, chosen)
