"""Hypothesis profiles for every property test, chosen by HYPOTHESIS_PROFILE.

- "ci" (the default, `make test`): derandomized and without an example
  database, so every run on every machine tries the same examples, and small
  enough that the conformance suite stays well under a minute on 2 cores.
- "fuzz" (`make fuzz-rules`): random and 25 times larger, for hunting.

A test that sets max_examples itself opts out of the profile's size; the
conformance suite scales its matches by the profile instead
(conformance/suite.py, EXAMPLES_PER_MATCH).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Playouts do real work per example: no deadline, and no complaint that
# generating a seed is slow when the machine is busy.
_PLAYOUTS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

settings.register_profile("ci", parent=_PLAYOUTS, derandomize=True, database=None, max_examples=20)
settings.register_profile("fuzz", parent=_PLAYOUTS, max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
