"""The conformance suite over the registry: every game x every preset x
seat counts (fewest, 3, most), random seeded matches checked at every step
(suite.py says what is checked). A game that registers is in here without a
line of its own; its game-specific property tests add to this, never
replace it (tests/properties/).

Runtime: one match per case under the "ci" profile, position checks at
every sixth position; `make fuzz-rules` plays 25 per case with random seeds
and checks every position.
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from conformance.suite import EXAMPLES_PER_MATCH, Case, cases, play_checked
from croupier.engine import registry

MATCHES_PER_CASE = max(1, settings().max_examples // EXAMPLES_PER_MATCH)


@pytest.mark.parametrize("case", cases(), ids=lambda case: case.id)
# A seed does not shrink into a simpler match, only into another one: report
# the failing seeds as found instead of replaying whole matches to shrink them.
@settings(max_examples=MATCHES_PER_CASE, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 2**64 - 1), chooser_seed=st.integers(0, 2**32 - 1))
def test_random_match_keeps_the_contract(case: Case, seed: int, chooser_seed: int) -> None:
    play_checked(case, seed, chooser_seed)


def test_the_suite_covers_every_registered_game_and_preset() -> None:
    covered = {(case.game, case.preset) for case in cases()}
    registered = {(game.name, preset.name) for game in registry.games() for preset in game.presets}
    assert registered and covered == registered
