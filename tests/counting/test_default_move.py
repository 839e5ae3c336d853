"""The default move (RULES.md E-C-7): when a seat's clock runs out it plays
the legal move leaving the lowest total (the first in canonical order among
equals), or concedes when that is its only move."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.v1 import service_pb2


def test_e_c_7_sto_plays_its_cheapest_card(table) -> None:
    s = table.build("sto", 3, hands={0: "A♠ J♦ 9♣"}, total=40)
    assert table.default(s) == "J♦"


def test_e_c_7_one_hundred_sets_0_with_a_black_ace(table) -> None:
    s = table.build("one_hundred", 3, hands={0: "A♣ 7♦ 10♥ 3♠"}, total=40)
    assert table.default(s) == "A♣=0"


def test_e_c_7_equal_totals_take_the_first_in_canonical_order(table) -> None:
    s = table.build("one_hundred", 3, hands={0: "K♠ 4♥ 9♦ 9♣"}, total=40)
    assert table.default(s) == "4♥"  # 4♥ and K♠ leave 40; 4♥ comes first


def test_e_c_7_chips_101_counts_an_ace_as_1(table) -> None:
    s = table.build("chips_101", 3, hands={0: "A♥ 8♠ Q♦"}, total=60)
    assert table.default(s) == "A♥+1"


def test_e_c_7_chips_101_concedes_without_a_legal_card(table) -> None:
    s = table.build("chips_101", 3, hands={0: "7♦ 8♠ 5♥"}, total=101)
    assert table.default(s) == "CONCEDE"


@pytest.mark.parametrize(("game", "preset"), [("sto", "hundert"), ("chips_101", "pagat")])
def test_a_seat_that_may_not_act_has_no_default_move(table, game, preset) -> None:
    s = table.new(game, 3, preset=preset)
    idle = (s.current_seat + 1) % 3
    with pytest.raises(InvalidInput):
        api.default_move(service_pb2.DefaultMoveRequest(state=s, seat=idle))
