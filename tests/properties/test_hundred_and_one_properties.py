"""101's own property tests, added to the conformance suite (tests/conformance/)
which every registered game gets: that suite plays 101's presets as
published and checks conservation, check agrees with generation, no
mutation, no leak, replay, default and stale moves, winners. Here the same
checks run over 101's option space (random combinations of its rule options
on any preset), and what only 101's view promises is checked: the hidden
cards are counted exactly.
"""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conformance import option_space
from conformance.suite import Case, play_checked
from croupier.engine import api, cards
from croupier.engine.errors import InvalidInput
from croupier.engine.options import to_option_value
from croupier.inprocess import InProcess
from croupier.v1 import game_pb2, options_pb2, service_pb2
from croupier_client.playout import MatchTooLong, Step, play, uniform

GAME = "hundred_and_one"
SEATS = {"hd": (2, 4), "cl": (2, 4), "ru": (2, 5), "alt": (2, 8)}
# Moves played (and checked at every step) per table: enough to pass deal
# ends, restocks and the special cards of most options.
MOVES_PER_TABLE = 100
# The number of examples comes from the Hypothesis profile (tests/conftest.py);
# many random option mixes conflict and are discarded, which is expected.
DISCARDS_CONFLICTS = settings(
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
# Option values worth mixing into any preset: every option of the catalogue
# over its whole domain (conformance/option_space.py, with its reasons for
# leaving any out); NewGame rejects the conflicting combinations, and those
# examples are discarded.
OVERRIDES = option_space.strategies(GAME)


@st.composite
def tables(draw: st.DrawFn) -> tuple[Case, int]:
    """A table NewGame accepts: a preset, a seat count, some option overrides
    (conflicting combinations are discarded), and a seed."""
    preset = draw(st.sampled_from(sorted(SEATS)))
    seats, overrides = draw(option_space.seat_counts(GAME, SEATS[preset]))
    names = draw(st.lists(st.sampled_from(sorted(OVERRIDES)), max_size=6, unique=True))
    overrides |= {name: draw(OVERRIDES[name]) for name in names}
    seed = draw(st.integers(0, 2**64 - 1))
    request = service_pb2.NewGameRequest(
        game=GAME,
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
    return Case(GAME, preset, seats, tuple(sorted(overrides.items()))), seed


@DISCARDS_CONFLICTS
@given(tables(), st.integers(0, 2**32 - 1))
def test_every_conformance_check_holds_under_any_101_options(
    table: tuple[Case, int], chooser_seed: int
) -> None:
    case, seed = table
    play_checked(case, seed, chooser_seed, stop_after=MOVES_PER_TABLE)


@DISCARDS_CONFLICTS
@given(tables(), st.integers(0, 2**32 - 1))
def test_a_101_view_counts_exactly_what_it_hides(
    table: tuple[Case, int], chooser_seed: int
) -> None:
    """shedding.md §0.5: a seat sees its hand and the discard pile, and how
    many cards every hand and the stock hold; the drawn card only its drawer."""
    case, seed = table
    backend = InProcess()
    state = backend.new_game(
        GAME, preset=case.preset, seat_count=case.seats, seed=seed, options=dict(case.options)
    ).state

    def on_step(step: Step) -> None:
        state = step.state
        deal = state.hundred_and_one
        for seat in range(len(state.seats)):
            view = api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view
            shown = view.hundred_and_one
            assert list(shown.hand) == list(deal.hands[seat].cards)
            assert list(shown.hand_sizes) == [len(hand.cards) for hand in deal.hands]
            assert shown.stock_size == len(deal.stock)
            assert list(shown.discard) == list(deal.discard)
            mine = seat == state.current_seat
            assert shown.drawn_card == (deal.drawn_card if mine else 0)

    with contextlib.suppress(MatchTooLong):  # a table, not a match: its first moves
        play(backend, state, uniform(chooser_seed), max_moves=MOVES_PER_TABLE, on_step=on_step)


def _apply(state: game_pb2.GameState, move: game_pb2.Move) -> service_pb2.ApplyMoveResponse:
    return api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))


def test_a_queen_naming_no_suit_names_its_own_and_no_other_card_names_one() -> None:
    """One spelling per move: a Queen without a named suit is read as the
    Queen naming its own (A28, hundred_and_one/spelling.py: the same answer,
    notation QH>H); a 7 naming a suit is malformed (INVALID_ARGUMENT)."""
    request = service_pb2.NewGameRequest(game="hundred_and_one", preset="hd", seat_count=2, seed=3)
    state = api.new_game(request).state
    seat = state.current_seat
    queen, seven = cards.card(cards.QUEEN, cards.HEARTS), cards.card(7, cards.HEARTS)
    bare = game_pb2.Move(seat=seat)
    bare.hundred_and_one.play.card = queen
    named = game_pb2.Move(seat=seat)
    named.CopyFrom(bare)
    named.hundred_and_one.play.named_suit = cards.HEARTS
    assert _apply(state, bare) == _apply(state, named)
    assert _apply(state, bare).notation.startswith("QH>H")
    naming = game_pb2.Move(seat=seat)
    naming.hundred_and_one.play.card = seven
    naming.hundred_and_one.play.named_suit = cards.CLUBS
    with pytest.raises(InvalidInput, match="only a Queen names a suit"):
        _apply(state, naming)
