"""K-M-1 in states: a state may hold a table meld in any order a `Meld` may
be written in, and every answer (ApplyMove's state, its views, GetView)
holds it in its one spelling, each card still scoring for its seat. P is
seat 0, to act; melds on the table were laid by seat 1 unless said
otherwise."""

from __future__ import annotations

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.v1 import service_pb2

MINE = (0, "[2♠ 3♠ 4♠]")


def test_k_m_1_a_table_set_in_another_order_is_a_valid_state_answered_canonical(table):
    """T-M-14's `[J♠ J♣ JK→J♦]` stored as the spec writes it: a valid state;
    every answer holds it in its one spelling."""
    s = table.build(hands={0: "K♠ 4♦ 9♣"}, melds=[(0, "[J♠ J♣ JK→J♦]")], as_written=True)
    assert table.melds(s) == ["[J♠ J♣ JK→J♦]"]
    api.check_state(s)
    assert "DISCARD KS" in table.legal(s)
    after = table.ok(s, table.discard(s, 0, "K♠"))
    assert table.melds(after) == ["[J♣ J♠ JK→J♦]"]
    view = api.get_view(service_pb2.GetViewRequest(state=s, seat=1)).view
    assert [list(m.cards) for m in view.most.melds] == [list(after.most.melds[0].cards)]


def test_k_m_1_a_table_sequence_in_another_order_lays_off_by_its_ends(table):
    s = table.build(hands={0: "4♥ 8♥ K♣"}, melds=[MINE, "[7♥ 5♥ 6♥]"], as_written=True)
    assert table.melds(s)[1] == "[7♥ 5♥ 6♥]"
    assert {"LAY 4H ON 2 LOW", "LAY 8H ON 2 HIGH"} <= set(table.legal(s))
    after = table.ok(s, table.lay(s, 0, "8♥", 2, "high"))
    assert table.melds(after)[1] == "[5♥ 6♥ 7♥ 8♥]"
    assert table.credited(after, 2) == {"5♥": 1, "6♥": 1, "7♥": 1, "8♥": 0}


def test_k_m_1_a_table_meld_in_no_order_of_a_meld_is_refused(table):
    try:
        table.build(hands={0: "K♠ 4♦ 9♣"}, melds=[(0, "[5♥ 7♥ 8♥]")], as_written=True)
    except InvalidInput as error:
        assert error.violations[0] == (
            "state.most.melds[0].cards",
            "not a valid meld: [5H 7H 8H]: not consecutive cards of one suit, in order",
        )
    else:
        raise AssertionError("a state holding no meld was accepted")


def test_k_m_1_a_whole_suit_grown_by_lay_offs_keeps_its_order(table):
    """T-M-20's `[5♥ … 4♥]` is a spelling of the table: answered as stored."""
    whole = "[5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♥ 3♥ 4♥]"
    s = table.build(hands={0: "K♠ 4♦ 9♣"}, melds=[whole])
    after = table.ok(s, table.discard(s, 0, "K♠"))
    assert table.melds(after) == [whole]


def test_k_m_1_a_whole_suit_stored_in_no_circle_order_is_answered_from_its_2(table):
    s = table.build(
        hands={0: "K♠ 4♦ 9♣"},
        melds=[(0, "[2♥ 4♥ 3♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥]", {"3♥": 2})],
    )
    after = table.ok(s, table.discard(s, 0, "K♠"))
    assert table.melds(after) == ["[2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥]"]
    assert table.credited(after, 1)["3♥"] == 2
    assert table.credited(after, 1)["4♥"] == 0
