"""UNO under random option combinations: the shared conformance checks
(tests/conformance) on every step of random playouts.

The registry's conformance cases play UNO's two presets as published; here
the same `play_checked` runs with random options (every option of the
catalogue over its whole domain: conformance/option_space.py), and with
every house rule on together in the two sets §2.12 allows, for a bounded
number of moves per table (UNO's random rounds run to hundreds of moves),
plus one short match to its winner with every move checked. That
out-of-turn moves actually happen in random playouts is
tests/uno/test_out_of_turn_playouts.py.

A seat in an H1 jump-in window that holds no identical card acts and has no
move; the suite requires its DefaultMove to be refused (FAILED_PRECONDITION).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import option_space
from conformance.suite import Case, play_checked
from croupier.games.uno.options import FOLLOWERS

CHECKED_MOVES = 25  # moves per table checked in full (each step probes every seat)
EXAMPLES = max(2, settings().max_examples // 4)

# Every option of the catalogue over its whole domain (conformance/
# option_space.py; the match is cut short, so no range needs narrowing).
OPTIONS = option_space.strategies("uno")


@st.composite
def option_sets(draw: Any) -> dict[str, Any]:
    """Random options: every option drawn, except that an option which
    follows a house rule that is on (C-UNO-6, FOLLOWERS) is left unset so
    that it follows, and H15 is off when H12 is on (§2.12), so that none
    conflicts."""
    options: dict[str, Any] = {name: draw(strategy) for name, strategy in OPTIONS.items()}
    if options["play_to_last"]:
        options["h2o_finish_bonus"] = False
    for leader, value, follower, _ in FOLLOWERS:
        if options.get(leader) == value:
            options.pop(follower, None)
    return options


@settings(max_examples=EXAMPLES)
@given(
    options=option_sets(),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32),
)
def test_random_options_keep_the_contract(options: dict[str, Any], seats: int, seed: int) -> None:
    case = Case("uno", "seed", seats, tuple(options.items()))
    play_checked(case, seed, seed + 1, stop_after=CHECKED_MOVES)


# Every house rule on together, in the two sets §2.12 allows (H12 needs LAZY,
# H15 PENALTY_LIMIT; H5 is TWOS or BLACK), H17's misplays included.
EVERY_HOUSE_RULE = {
    "jump_in": True, "jump_in_own_card": True, "seven_zero": True, "stacking": True,
    "stack_mixed": True, "swap_on_five": True, "uno_in_centre": True, "colour_rotation": True,
    "blank_cards_in_deck": True, "plus_ten": True, "reverse_bounce": True,
    "seven_rounds": True, "zero_worth_50": True, "politeness_ready": True,
    "misplay_penalty": True,
}  # fmt: skip
ALL_TOGETHER = {
    "lazy": {**EVERY_HOUSE_RULE, "silent_trigger": "TWOS", "play_to_last": True},
    "penalty_limit": {**EVERY_HOUSE_RULE, "silent_trigger": "BLACK", "h2o_finish_bonus": True},
}


@pytest.mark.parametrize("seats", [3, 10])
@pytest.mark.parametrize("table", sorted(ALL_TOGETHER))
def test_every_house_rule_together_keeps_the_contract(table: str, seats: int) -> None:
    case = Case("uno", "seed", seats, tuple(ALL_TOGETHER[table].items()))
    play_checked(case, seed=seats, chooser_seed=seats, stop_after=CHECKED_MOVES)


def test_a_short_match_is_played_to_its_winner_with_every_check() -> None:
    case = Case("uno", "mattel", 3, (("target", 20),))
    final, moves = play_checked(case, seed=7, chooser_seed=7, every_move=True)
    assert final.match.winners
