"""Properties of the 101 engine at every step of random seeded playouts
(STYLE.md conventions 3, 5, 6): conservation, check agrees with generation,
apply never mutates its input, views hide what they must, replays repeat."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from croupier.engine import api, cards, registry
from croupier.engine.errors import InvalidInput
from croupier.engine.options import to_option_value
from croupier.v1 import cards_pb2, game_pb2, options_pb2, service_pb2

SEATS = {"hd": (2, 4), "cl": (2, 4), "ru": (2, 5), "alt": (2, 8)}

# Option values worth mixing into any preset; NewGame rejects the conflicting
# combinations, and those examples are discarded.
OVERRIDES = {
    "draw_rule": st.sampled_from(["ONE", "UNTIL_PLAYABLE"]),
    "voluntary_draw": st.booleans(),
    "must_play_drawn": st.booleans(),
    "restock_shuffle": st.booleans(),
    "transfer_6_7": st.booleans(),
    "transfer_accumulates": st.booleans(),
    "ordinary_specials": st.booleans(),
    "eight_draw_mode": st.sampled_from(["UNTIL", "THREE"]),
    "eight_last_must_cover": st.booleans(),
    "kspades_draw": st.sampled_from([4, 5]),
    "kspades_in_hand_40": st.booleans(),
    "queen_finish_bonus": st.booleans(),
    "lone_queen_penalty": st.booleans(),
    "reset_100_to_50": st.booleans(),
    "exact_101_reset": st.booleans(),
    "bust_rule": st.sampled_from(["ELIMINATE_CONTINUE", "FIRST_BUST_ENDS"]),
    "negative_limit": st.sampled_from(
        ["NONE", "RESET_AT_OR_BELOW", "RESET_EXACT", "ELIMINATE_BELOW"]
    ),
    "forbidden_finish": st.lists(
        st.sampled_from(["ACE", "SEVEN", "KING_OF_SPADES", "NINE", "TEN"]), unique=True
    ).map(tuple),
    "no_finish_on_nine": st.booleans(),
    "resolve_final_penalty": st.booleans(),
    "six_cover_by": st.sampled_from(["SELF", "NEXT"]),
    "nine_cover_allows_queen": st.booleans(),
    "opening": st.sampled_from(["LEAD_ANY", "DEALER_UPCARD"]),
    "first_move_any": st.booleans(),
    "upcard_effects": st.booleans(),
    "hand_size": st.integers(2, 7),
    "seven_spades_draw": st.integers(1, 5),
}


@st.composite
def tables(draw):
    """A fresh match: a preset, a seat count, a seed and some overrides."""
    preset = draw(st.sampled_from(sorted(SEATS)))
    seats = draw(st.integers(*SEATS[preset]))
    names = draw(st.lists(st.sampled_from(sorted(OVERRIDES)), max_size=6, unique=True))
    overrides = {name: draw(OVERRIDES[name]) for name in names}
    request = service_pb2.NewGameRequest(
        game="hundred_and_one",
        preset=preset,
        seat_count=seats,
        seed=draw(st.integers(0, 2**64 - 1)),
        options=[
            options_pb2.OptionSetting(name=k, value=to_option_value(v))
            for k, v in overrides.items()
        ],
    )
    try:
        state = api.new_game(request).state
    except InvalidInput:
        assume(False)
    return state


def _legal(state, seat):
    return api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=state, seat=seat)).moves


def _apply(state, move, validate_only=False):
    return api.apply_move(
        service_pb2.ApplyMoveRequest(state=state, move=move, validate_only=validate_only)
    )


def _candidates(state, seat):
    """Every move worth asking about for `seat`: each card of its hand with and
    without a named suit, a card it does not hold, and every other action."""
    return registry.find("hundred_and_one").candidate_moves(state, seat)


def _key(move):
    return move.SerializeToString(deterministic=True)


def _walk(state, rnd, steps, on_step):
    """Play `steps` random legal moves (dealing on when a deal ends)."""
    moves = []
    for _ in range(steps):
        phase = state.match.phase
        if phase == game_pb2.MATCH_PHASE_MATCH_OVER:
            break
        if phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
            moves.append(None)
            continue
        legal = _legal(state, state.current_seat)
        assert legal, "a seat to act always has a legal move"
        move = rnd.choice(legal).move
        on_step(state, move)
        response = _apply(state, move)
        assert response.accepted, response.rejection
        moves.append(move)
        state = response.state
    return state, moves


FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@FAST
@given(tables(), st.randoms(use_true_random=False))
def test_check_agrees_with_generation_and_input_is_never_mutated(state, rnd):
    def on_step(state, chosen):
        api.check_state(state)  # conservation and every consistency rule
        before = state.SerializeToString(deterministic=True)
        seat = state.current_seat
        legal = {_key(m.move) for m in _legal(state, seat)}
        for move in _candidates(state, seat):
            accepted = _apply(state, move, validate_only=True).accepted
            assert accepted == (_key(move) in legal), (move, sorted(legal))
        other = (seat + 1) % len(state.seats)
        assert not _legal(state, other)
        assert (
            _apply(
                state, game_pb2.Move(seat=other, hundred_and_one=chosen.hundred_and_one)
            ).rejection.reason
            == game_pb2.REJECTION_REASON_NOT_YOUR_TURN
        )
        after = _apply(state, chosen).state
        api.check_state(after)
        assert state.SerializeToString(deterministic=True) == before

    _walk(state, rnd, 120, on_step)


@FAST
@given(tables(), st.randoms(use_true_random=False))
def test_views_show_no_hidden_card(state, rnd):
    def on_step(state, _move):
        deal = state.hundred_and_one
        for seat in range(len(state.seats)):
            view = api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view
            visible = list(deal.hands[seat].cards) + list(deal.discard)
            seen = list(_french_cards(view))
            for card in seen:
                assert card in visible, (seat, card)
            assert sorted(view.hundred_and_one.hand) == sorted(deal.hands[seat].cards)
            assert list(view.hundred_and_one.hand_sizes) == [len(h.cards) for h in deal.hands]
            assert view.hundred_and_one.stock_size == len(deal.stock)

    _walk(state, rnd, 80, on_step)


def _french_cards(message):
    """Every FrenchCard value anywhere in a message (walks the descriptors)."""
    french = cards_pb2.DESCRIPTOR.enum_types_by_name["FrenchCard"]
    for field, value in message.ListFields():
        if field.message_type is not None:
            items = value if field.is_repeated else [value]
            for item in items:
                yield from _french_cards(item)
        elif field.enum_type is french:
            yield from (value if field.is_repeated else [value])


@FAST
@given(tables(), st.integers(0, 2**32))
def test_same_seed_and_moves_give_the_same_states(state, choice_seed):
    first, moves = _walk(state, random.Random(choice_seed), 150, lambda s, m: None)
    replay = state
    for move in moves:
        if move is None:
            replay = api.next_deal(service_pb2.NextDealRequest(state=replay)).state
        else:
            replay = _apply(replay, move).state
    assert replay.SerializeToString(deterministic=True) == first.SerializeToString(
        deterministic=True
    )


def test_a_queen_always_names_a_suit_and_no_other_card_does():
    """One spelling per move: a Queen without a named suit, or a 7 naming
    one, is malformed (INVALID_ARGUMENT), not a second way to write a move."""
    request = service_pb2.NewGameRequest(game="hundred_and_one", preset="hd", seat_count=2, seed=3)
    state = api.new_game(request).state
    seat = state.current_seat
    queen, seven = cards.card(cards.QUEEN, cards.HEARTS), cards.card(7, cards.HEARTS)
    bare = game_pb2.Move(seat=seat)
    bare.hundred_and_one.play.card = queen
    with pytest.raises(InvalidInput) as error:
        _apply(state, bare)
    assert error.value.violations[0][0] == "move.hundred_and_one.play.named_suit"
    naming = game_pb2.Move(seat=seat)
    naming.hundred_and_one.play.card = seven
    naming.hundred_and_one.play.named_suit = cards.CLUBS
    with pytest.raises(InvalidInput, match="only a Queen names a suit"):
        _apply(state, naming)
