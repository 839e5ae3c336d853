"""engine/analysis.py: AnalyseHand asks the game's optional hook for one
seat's hand, after the state's full check; a game without the hook answers
FAILED_PRECONDITION, a seat that does not exist INVALID_ARGUMENT."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.analysis import analyse_hand
from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.v1 import game_pb2, service_pb2


def _dealt(game: str, seats: int = 2) -> game_pb2.GameState:
    request = service_pb2.NewGameRequest(game=game, seat_count=seats, seed=3)
    return api.new_game(request).state


def test_a_game_with_the_hook_fills_its_own_field_for_that_seat():
    state = _dealt("scala40")
    answer = analyse_hand(service_pb2.AnalyseHandRequest(state=state, seat=1))
    assert answer.WhichOneof("analysis") == "scala40"
    held = set(state.scala40.hands[1].cards)
    assert all(card in held for meld in answer.scala40.melds for card in meld.cards)


def test_a_game_without_the_hook_is_a_failed_precondition():
    with pytest.raises(FailedPrecondition, match="uno offers no hand analysis"):
        analyse_hand(service_pb2.AnalyseHandRequest(state=_dealt("uno"), seat=0))


def test_a_seat_that_does_not_exist_is_invalid_input():
    with pytest.raises(InvalidInput) as error:
        analyse_hand(service_pb2.AnalyseHandRequest(state=_dealt("scala40"), seat=2))
    assert error.value.violations[0][0] == "seat"


def test_the_state_is_checked_in_full_first():
    state = _dealt("scala40")
    state.scala40.hands[0].cards.append(state.scala40.hands[1].cards[0])  # a card twice
    with pytest.raises(InvalidInput):
        analyse_hand(service_pb2.AnalyseHandRequest(state=state, seat=0))
