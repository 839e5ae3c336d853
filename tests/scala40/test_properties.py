"""The conformance suite over Scala 40 with random option combinations (issue
8: teams and V14's old split rule included), added to the registry's cases,
which play the presets as published (tests/conformance).

Each example plays the first moves of a seeded random match with every check
of the suite at every position (conservation of all 108 cards, check ⇔
generate for every seat and every listed move kind, no mutation, no leak,
DefaultMove listed, stale guard) and replays it; every tenth example plays a
whole match to its winner.
"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conformance.suite import Case, play_checked
from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.v1 import game_pb2, service_pb2

from .conftest import settings as option_settings

BOOLS = (
    "reentry", "court_values_11_14", "discard_pickup_for_opening", "discard_pickup_keep",
    "close_in_hand_doubles", "close_on_first_turn", "unopened_flat_penalty_100",
    "forbid_playable_discard_unopened", "forbid_playable_discard_closing",
    "first_player_may_take_upcard", "close_without_discard", "quads_to_discard_pile",
    "sequence_split_max5", "joker_swap_for_opening", "declare_ambiguous_joker",
    "retrieved_joker_must_be_used", "upcard_joker_redraw", "close_in_hand_requires_40",
    "set_joker_positional_convention",
)  # fmt: skip
CHOICES = {
    "forbid_playable_discard_opened": ("ALWAYS", "NEVER", "IF_MORE_THAN_2_PLAYERS"),
    "max_jokers_per_meld": ("ONE", "UNLIMITED"),
    "joker_discard": ("CLOSING_ONLY", "NOT_WHEN_UNOPENED", "NEVER", "ANY"),
    "max_sequence_length": (13, 14),
    "elimination_threshold": (101, 151, 201),
}
MOVES = 100


@st.composite
def tables(draw):
    """A preset, a seat count, and some options over it (teams when they fit)."""
    preset = draw(st.sampled_from(["fisc", "slovenian", "pagat"]))
    seats = draw(st.integers(2, 6))
    names = draw(st.lists(st.sampled_from(BOOLS), max_size=7, unique=True))
    options: dict[str, object] = {name: draw(st.booleans()) for name in names}
    for name in draw(st.lists(st.sampled_from(sorted(CHOICES)), max_size=3, unique=True)):
        options[name] = draw(st.sampled_from(CHOICES[name]))
    if seats in (4, 6) and draw(st.booleans()):
        options["teams"] = "PAIRS" if seats == 4 else "TRIPLES"
    if draw(st.integers(0, 4)) == 0:
        options.pop("elimination_threshold", None)
        options.pop("reentry", None)
        options["match_mode"] = draw(st.sampled_from(["SINGLE_DEAL", "NO_ELIMINATION"]))
    request = service_pb2.NewGameRequest(
        game="scala40", preset=preset, seat_count=seats, seed=1,
        options=option_settings(options),  # type: ignore[arg-type]
    )  # fmt: skip
    try:
        api.new_game(request)
    except InvalidInput:
        assume(False)
    return Case("scala40", preset, seats, tuple(sorted(options.items())))


@settings(max_examples=12)
@given(tables(), st.integers(0, 2**64 - 1), st.integers(0, 2**32 - 1), st.integers(0, 9))
def test_random_option_tables_keep_the_contract(case, seed, chooser, whole):
    final, moves = play_checked(case, seed, chooser, stop_after=None if whole == 0 else MOVES)
    if whole == 0:
        assert final.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER


@settings(max_examples=1)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**32 - 1))
def test_teams_and_the_old_split_rule_play_whole_matches(seed, chooser):
    for seats, teams in ((4, "PAIRS"), (6, "TRIPLES")):
        options = (("sequence_split_max5", True), ("teams", teams))
        final, _ = play_checked(Case("scala40", "fisc", seats, options), seed, chooser)
        winners = set(final.match.winners)
        assert winners in ({0, 2} if seats == 4 else {0, 2, 4}, {1, 3} if seats == 4 else {1, 3, 5})
