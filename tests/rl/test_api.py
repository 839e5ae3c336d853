"""PettingZoo's own api_test for every registered game and preset.

Two seats (the fewest a preset allows, when that is more), and one table at
its preset's most seats: UNO at 10, where the out-of-turn windows (catching
a missed "UNO!") put several seats in one position. num_cycles keeps each
case near a tenth of a second; the episodes of test_episodes.py play every
game to its end.
"""

from __future__ import annotations

import gc
import warnings

import pytest
from pettingzoo.test import api_test

from croupier.rl import env
from rl.tables import Table, every_preset

CYCLES = 60
# api_test's warnings that a Dict observation space is not a Box, and that
# its observation is a dict: PettingZoo's own convention for action masks.
EXPECTED_WARNINGS = (
    "Observation space for each agent probably should be",
    "Observation is not a NumPy array",
)


def _api_test(table: Table) -> None:
    # Earlier tests' garbage is collected first: a ResourceWarning of
    # theirs (an unclosed file or loop) would otherwise land in this record
    # whenever the collector happened to run inside api_test.
    gc.collect()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(
            env(game=table.game, preset=table.preset, seats=table.seats, options=table.options),
            num_cycles=CYCLES,
            verbose_progress=False,
        )
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert not unexpected, f"api_test warned: {unexpected}"


@pytest.mark.parametrize("table", every_preset(), ids=lambda t: t.id)
def test_api_every_preset(table: Table) -> None:
    _api_test(table)


def test_api_most_seats() -> None:
    _api_test(Table("uno", "mattel", 10))
