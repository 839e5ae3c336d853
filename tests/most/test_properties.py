"""The conformance suite over «Мост» with random option combinations, added
to the registry's cases, which play the presets as published
(tests/conformance).

Each example plays the first moves of a seeded random match with every check
of the suite at every position (conservation of all 54 cards, check ⇔
generate for every seat and every listed move kind, no mutation, no leak,
DefaultMove listed, stale guard) and replays it; every fifth example plays a
whole match to its winner.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import option_space
from conformance.suite import Case, play_checked
from croupier.engine.options import BOOL
from croupier.v1 import game_pb2

GAME = "most"
# Every option of the catalogue over its whole domain, but for the target and
# the deal limit, kept low so that whole matches end (conformance/option_space.py).
OPTIONS = option_space.strategies(GAME)
BOOLS = tuple(name for name in OPTIONS if option_space.catalogue(GAME).by_name[name].type == BOOL)
CHOICES = tuple(name for name in OPTIONS if name not in BOOLS)
MOVES = 60


@st.composite
def tables(draw):
    """A preset, a seat count, and options over it."""
    preset = draw(st.sampled_from(["seed", "rum500"]))
    seats = draw(st.integers(2, 8))
    options: dict[str, object] = {name: draw(OPTIONS[name]) for name in BOOLS}
    for name in draw(st.lists(st.sampled_from(sorted(CHOICES)), max_size=5, unique=True)):
        options[name] = draw(OPTIONS[name])
    return Case("most", preset, seats, tuple(sorted(options.items())))


@settings(max_examples=10)
@given(tables(), st.integers(0, 2**64 - 1), st.integers(0, 2**32 - 1), st.integers(0, 4))
def test_random_option_tables_keep_the_contract(case, seed, chooser, whole):
    final, moves = play_checked(case, seed, chooser, stop_after=None if whole == 0 else MOVES)
    if whole == 0:
        assert final.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
