"""AnalyseHand: a seat's best opening and whether it reaches 40 (issue 8)."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.analysis import analyse_hand
from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.v1 import service_pb2


def _analyse(state, seat):
    return analyse_hand(service_pb2.AnalyseHandRequest(state=state, seat=seat)).scala40


def test_the_best_opening_of_a_hand_and_its_value(table):
    s = table.build(hands={0: "8♣ 9♣ JK 5♥ 5♦ 5♠ K♠ 2♦ 7♥"})
    a = _analyse(s, 0)
    assert (a.value, a.threshold, a.reaches_threshold, a.cards_used) == (42, 40, True, 6)
    texts = sorted(" ".join(table.text(v) for v in m.cards) for m in a.melds)
    assert texts == ["5♦ 5♥ 5♠", "8♣ 9♣ JK"]


def test_a_hand_below_the_threshold_says_so(table):
    s = table.build(hands={0: "A♥ A♠ A♦ 2♣ 7♦"})
    a = _analyse(s, 0)
    assert (a.value, a.reaches_threshold) == (33, False)


def test_a_hand_without_a_meld(table):
    s = table.build(hands={0: "2♣ 7♦ 9♠"})
    a = _analyse(s, 0)
    assert (a.value, len(a.melds), a.reaches_threshold) == (0, 0, False)


def test_refusals(table):
    s = table.build(hands={0: "2♣ 7♦ 9♠"})
    with pytest.raises(InvalidInput, match="seat 9 does not exist"):
        _analyse(s, 9)
    other = api.new_game(
        service_pb2.NewGameRequest(game="hundred_and_one", seat_count=2, seed=1)
    ).state
    with pytest.raises(FailedPrecondition, match="hundred_and_one offers no hand analysis"):
        analyse_hand(service_pb2.AnalyseHandRequest(state=other, seat=0))
