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

from conformance import option_space
from conformance.suite import Case, play_checked
from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.engine.options import BOOL
from croupier.v1 import game_pb2, service_pb2
from spec_notation import settings as option_settings

# Every option of the catalogue over its whole domain (conformance/option_space.py).
GAME = "scala40"
OPTIONS = option_space.strategies(GAME)
# Drawn by the table's structure below, not among the free choices: teams
# only where they may fit the seats, the match mode with the options that
# only apply to one mode (§1.16, C-S40-5).
MODE_ONLY = {"elimination_threshold": "ELIMINATION", "reentry": "ELIMINATION",
             "no_elimination_target": "NO_ELIMINATION"}  # fmt: skip
STRUCTURED = {"teams", "match_mode", "no_elimination_target"}
BOOLS = tuple(name for name in OPTIONS if option_space.catalogue(GAME).by_name[name].type == BOOL)
CHOICES = tuple(name for name in OPTIONS if name not in {*BOOLS, *STRUCTURED})
MOVES = 100


@st.composite
def tables(draw):
    """A preset, a seat count, and some options over it (teams when they may
    fit; NewGame refuses the mixes that conflict, which are discarded)."""
    preset = draw(st.sampled_from(["fisc", "slovenian", "pagat"]))
    seats = draw(st.integers(2, 6))
    names = draw(st.lists(st.sampled_from(BOOLS), max_size=7, unique=True))
    options: dict[str, object] = {name: draw(OPTIONS[name]) for name in names}
    for name in draw(st.lists(st.sampled_from(CHOICES), max_size=3, unique=True)):
        options[name] = draw(OPTIONS[name])
    if seats in (4, 6) and draw(st.booleans()):
        options["teams"] = draw(OPTIONS["teams"])
    if draw(st.integers(0, 4)) == 0:
        mode = options["match_mode"] = draw(OPTIONS["match_mode"])
        for name, only_in in MODE_ONLY.items():
            if only_in != mode:
                options.pop(name, None)
            elif name not in options:
                options[name] = draw(OPTIONS[name])
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
