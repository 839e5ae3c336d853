"""The counting games' own property tests, added to the conformance suite
(tests/conformance/) which every registered game gets: that suite plays the
presets as published; here the same checks run over each game's option
space (random combinations of its options on any preset, whole matches),
and what only the counting views promise is checked: the hidden cards are
counted exactly and the total is the state's.
"""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conformance import option_space
from conformance.suite import Case, play_checked
from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.engine.options import to_option_value
from croupier.inprocess import InProcess
from croupier.v1 import options_pb2, service_pb2
from croupier_client.playout import MatchTooLong, Step, play, uniform

# Each game's presets with their seats, and the option values mixed into any
# of them: every option of its catalogue over its whole domain, but for the
# ranges kept small so that whole matches stay short (conformance/
# option_space.py, NARROWED, gives each reason). NewGame refuses the
# conflicting mixes, which are discarded.
TABLES = {
    "sto": {
        "presets": {"seed": (3, 10), "hundert": (3, 10)},
        "overrides": option_space.strategies("sto"),
    },
    "one_hundred": {
        "presets": {"seed": (3, 5), "gamerules": (3, 10)},
        "overrides": option_space.strategies("one_hundred"),
    },
    "chips_101": {
        "presets": {"seed": (2, 7), "pagat": (2, 7)},
        "overrides": option_space.strategies("chips_101"),
    },
}
DISCARDS_CONFLICTS = settings(
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
# A counting match is short (a few hundred moves at most with these
# options); the view test looks at a table's first moves only.
VIEW_MOVES = 120


@st.composite
def tables(draw: st.DrawFn) -> tuple[Case, int]:
    """A table NewGame accepts: a game, a preset, a seat count, some option
    overrides (conflicting combinations are discarded), and a seed."""
    game = draw(st.sampled_from(sorted(TABLES)))
    spec = TABLES[game]
    preset = draw(st.sampled_from(sorted(spec["presets"])))
    seats, overrides = draw(option_space.seat_counts(game, spec["presets"][preset]))
    names = draw(st.lists(st.sampled_from(sorted(spec["overrides"])), max_size=4, unique=True))
    overrides |= {name: draw(spec["overrides"][name]) for name in names}
    seed = draw(st.integers(0, 2**64 - 1))
    request = service_pb2.NewGameRequest(
        game=game,
        preset=preset,
        seat_count=seats,
        seed=seed,
        options=[
            options_pb2.OptionSetting(name=k, value=to_option_value(v))
            for k, v in overrides.items()
        ],
    )
    try:
        api.new_game(request)
    except InvalidInput:
        assume(False)
    return Case(game, preset, seats, tuple(sorted(overrides.items()))), seed


@DISCARDS_CONFLICTS
@given(tables(), st.integers(0, 2**32 - 1))
def test_every_conformance_check_holds_under_any_counting_options(
    table: tuple[Case, int], chooser_seed: int
) -> None:
    """Whole matches: every check of the suite at every step, and a winner."""
    case, seed = table
    play_checked(case, seed, chooser_seed)


@DISCARDS_CONFLICTS
@given(tables(), st.integers(0, 2**32 - 1))
def test_a_counting_view_counts_exactly_what_it_hides(
    table: tuple[Case, int], chooser_seed: int
) -> None:
    """A seat sees its hand, the pile, the total and face-up leftovers, and
    how many cards every hand, the stock and the leftovers hold."""
    case, seed = table
    backend = InProcess()
    state = backend.new_game(
        case.game, preset=case.preset, seat_count=case.seats, seed=seed, options=dict(case.options)
    ).state

    def on_step(step: Step) -> None:
        state = step.state
        deal = getattr(state, state.game)
        # Set, or brought by Hundert's values (A-C1-02) or the hundert preset.
        named = dict(case.options)
        face_up = named.get("leftovers", "") == "FACE_UP_START_TOTAL" or (
            "leftovers" not in named
            and (case.preset == "hundert" or named.get("card_values") == "SKAT_HUNDERT")
        )
        for seat in range(len(state.seats)):
            view = api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view
            shown = getattr(view, state.game)
            assert list(shown.hand) == list(deal.hands[seat].cards)
            assert list(shown.hand_sizes) == [len(hand.cards) for hand in deal.hands]
            assert shown.stock_size == len(deal.stock)
            assert list(shown.pile) == list(deal.pile)
            assert shown.total == deal.total
            assert shown.leftovers_size == len(deal.leftovers)
            assert list(shown.leftovers) == (list(deal.leftovers) if face_up else [])

    with contextlib.suppress(MatchTooLong):  # a table, not a match: its first moves
        play(backend, state, uniform(chooser_seed), max_moves=VIEW_MOVES, on_step=on_step)
