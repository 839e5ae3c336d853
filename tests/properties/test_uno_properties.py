"""UNO under random option combinations: the shared conformance checks
(tests/conformance) on every step, and random playouts in which every kind of
out-of-turn move actually happens.

UNO is not yet in the registry's entry points, so the registry's own
conformance cases do not include it; these tests register it themselves and
play it through the same `play_checked`, with random options (every house
rule on together where §2.12 allows), for a bounded number of moves per
table (UNO's random rounds run to hundreds of moves).

A seat in an H1 jump-in window that holds no identical card acts and has no
move; the suite requires its DefaultMove to be refused (FAILED_PRECONDITION).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.suite import Case, play_checked
from croupier.engine import registry
from croupier.games.uno import GAME
from croupier.inprocess import InProcess
from croupier_client.playout import MatchTooLong, play_match, uniform

CHECKED_MOVES = 25  # moves per table checked in full (each step probes every seat)
EXAMPLES = max(2, settings().max_examples // 4)

HOUSE_RULES = (
    "jump_in", "jump_in_own_card", "seven_zero", "stacking", "stack_mixed", "swap_on_five",
    "uno_in_centre", "colour_rotation", "plus_ten", "reverse_bounce", "play_to_last",
    "seven_rounds", "zero_worth_50", "politeness_ready", "misplay_penalty",
)  # fmt: skip
CORE = {
    "first_card_policy": ("NUMBER_ONLY", "MATTEL"),
    "wild_first_card": ("FIRST_PLAYER_CHOOSES", "RETURN"),
    "reverse_first_card": ("DEALER_FIRST", "RIGHT_OF_DEALER"),
    "draw2_response": ("NONE", "DEFLECT_ANY_COLOUR"),
    "wd4_response": ("NONE", "DEFLECT_DRAW_TWO_NAMED_COLOUR"),
    "challenge_outcome": ("SEED", "MATTEL"),
    "wd4_enforcement": ("CHALLENGE_ONLY", "STRICT"),
    "play_drawn": ("MAY", "MUST", "NEVER"),
    "uno_call_timing": ("DURING_PLAY", "UNTIL_CAUGHT"),
    "silent_trigger": ("OFF", "TWOS", "BLACK"),
    "dealer_selection": ("HIGHEST_CARD", "RANDOM"),
}
SHORT_MATCH = {"target": 60, "limit": 40, "lazy_rounds": 2}


@st.composite
def option_sets(draw: Any) -> dict[str, Any]:
    """Random options: each core choice, each house rule on or off (the
    options that follow a house rule left unset, so that none conflicts)."""
    options: dict[str, Any] = {name: draw(st.sampled_from(values)) for name, values in CORE.items()}
    for name in ("voluntary_draw", "two_player_reverse_is_skip", "final_draw_resolution"):
        options[name] = draw(st.booleans())
    for name in HOUSE_RULES:
        options[name] = draw(st.booleans())
    if options["play_to_last"]:
        options["h2o_finish_bonus"] = False
    else:
        options["h2o_finish_bonus"] = draw(st.booleans())
    if not options["h2o_finish_bonus"] and not options["play_to_last"]:
        options["scoring_method"] = draw(
            st.sampled_from(("WINNER_COLLECTS", "PENALTY_LIMIT", "LAZY"))
        )
    if options["wd4_enforcement"] == "CHALLENGE_ONLY":
        options["challenge_enabled"] = draw(st.booleans())
    for name in ("jump_in", "stacking"):  # H2 and stack_mixed follow them when on
        if options[f"{'jump_in_own_card' if name == 'jump_in' else 'stack_mixed'}"]:
            del options[name]
    if options["plus_ten"]:
        options.pop("blank_cards_in_deck", None)
    return options


@pytest.fixture(autouse=True)
def uno_registered() -> Iterator[None]:
    was = registry.find("uno")
    registry.register(GAME)
    yield
    if was is None:
        registry.unregister("uno")


@pytest.mark.parametrize(
    ("preset", "seats"), [("seed", 2), ("seed", 3), ("mattel", 4), ("mattel", 10)]
)
def test_presets_keep_the_contract(preset: str, seats: int) -> None:
    play_checked(
        Case("uno", preset, seats), seed=seats, chooser_seed=seats, stop_after=CHECKED_MOVES
    )


@settings(max_examples=EXAMPLES)
@given(
    options=option_sets(),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32),
)
def test_random_options_keep_the_contract(options: dict[str, Any], seats: int, seed: int) -> None:
    case = Case("uno", "seed", seats, tuple(options.items()))
    play_checked(case, seed, seed + 1, stop_after=CHECKED_MOVES)


def test_a_short_match_is_played_to_its_winner_with_every_check() -> None:
    case = Case("uno", "mattel", 3, (("target", 20),))
    final, moves = play_checked(case, seed=7, chooser_seed=7)
    assert final.match.winners


# -- out-of-turn play actually happens ---------------------------------------------------------

# Each kind of move made beside the turn (or in an overlay), with the options
# that open its window.
OUT_OF_TURN: dict[str, dict[str, Any]] = {
    "jump_in": {"jump_in": True, "jump_in_own_card": True},
    "catch": {},
    "call_uno": {"uno_call_timing": "UNTIL_CAUGHT"},
    "challenge": {},
    "slap": {"uno_in_centre": True},
    "slap_time_up": {"uno_in_centre": True},
    "report_silence": {"silent_trigger": "TWOS"},
    "give": {"swap_on_five": True},
    "ready": {"politeness_ready": True},
}


@pytest.mark.parametrize("kind", sorted(OUT_OF_TURN))
def test_random_playouts_make_every_out_of_turn_move(kind: str) -> None:
    """Random playouts ask every acting seat, so each kind of move beside the
    turn happens (and is accepted) within a few seeded matches."""
    options = {**OUT_OF_TURN[kind], **SHORT_MATCH}
    seen: Counter[str] = Counter()

    def count(step: Any) -> None:
        seen[step.choice.move.uno.WhichOneof("action")] += 1
        if seen[kind]:
            raise _Seen

    for seed in range(30):
        with contextlib.suppress(MatchTooLong, _Seen):
            play_match(InProcess(), "uno", "seed", 2 + seed % 5, seed, uniform(seed),
                       options=options, on_step=count, max_moves=5000)  # fmt: skip
        if seen[kind]:
            break
    assert seen[kind], f"no {kind} in 30 random matches"


class _Seen(Exception):
    """The move looked for was made."""


@pytest.mark.parametrize("seats", [2, 4, 10])
@pytest.mark.parametrize("preset", ["seed", "mattel"])
@pytest.mark.parametrize("scoring", ["WINNER_COLLECTS", "PENALTY_LIMIT"])
def test_full_matches_reach_a_winner(preset: str, seats: int, scoring: str) -> None:
    """Whole matches (short targets) between random bots through the
    fully validated path, under both scoring methods."""
    options = {"scoring_method": scoring, "target": 150, "limit": 100}
    final, _ = play_match(InProcess(trusted=False), "uno", preset, seats, seats, uniform(seats),
                          options=options, max_moves=100_000)  # fmt: skip
    assert final.match.phase == 3 and final.match.winners
