"""K-S40-2 in states: a state may hold a table meld in any order a move may
write it in, and every answer (ApplyMove's state, its views, GetView) holds it
in its one spelling. P is seat 0, to act; melds on the table were laid by
seat 1 unless said otherwise."""

from __future__ import annotations

import pytest

from croupier.engine import api, cards
from croupier.engine.errors import InvalidInput
from croupier.v1 import game_pb2, service_pb2

MINE = (0, "[2♠ 3♠ 4♠]")


def _stored_as(table, state: game_pb2.GameState, index: int, written: str) -> game_pb2.GameState:  # type: ignore[no-untyped-def]
    """`state` with table meld `index` stored as `written` (the same cards,
    each "JK→x" a joker of the meld standing for x, in the order written)."""
    out = game_pb2.GameState()
    out.CopyFrom(state)
    meld = out.scala40.melds[index]
    jokers = iter([v for v in meld.cards if cards.is_joker(v)])
    stored, identities = [], []
    for word in written.strip("[]").split():
        name, _, identity = word.partition("→")
        if name == "JK":
            stored.append(next(jokers))
            identities.append(table.c(identity))
        else:
            stored.append(table.c(name))
    assert sorted(stored) == sorted(meld.cards)
    meld.cards[:] = stored
    meld.joker_as[:] = identities
    return out


def test_k_s40_2_a_table_set_in_the_spec_order_is_a_valid_state_answered_canonical(table):
    """T-S40-01's `[5♥ 5♦ 5♠]` stored as the spec writes it: a valid state
    (it was refused, "not a valid meld"); every answer holds its one spelling."""
    s = table.build(hands={0: "K♠ 4♦ 9♣"}, melds=[MINE, "[5♥ 5♦ 5♠]"])
    s = _stored_as(table, s, 1, "[5♥ 5♦ 5♠]")
    api.check_state(s)
    assert "DISCARD KS" in table.legal(s)
    after = table.ok(s, table.discard(s, 0, "K♠"))
    assert table.melds(after) == ["[2♠ 3♠ 4♠]", "[5♦ 5♥ 5♠]"]
    view = api.get_view(service_pb2.GetViewRequest(state=s, seat=1)).view
    assert [list(m.cards) for m in view.scala40.melds] == [
        list(m.cards) for m in after.scala40.melds
    ]
    assert view.scala40.melds[1].value == 15


def test_k_s40_2_a_table_sequence_high_to_low_lays_off_by_its_ends(table):
    s = table.build(hands={0: "5♥ 9♥ K♣"}, melds=[MINE, "[6♥ JK→7♥ 8♥]"])
    s = _stored_as(table, s, 1, "[8♥ JK→7♥ 6♥]")
    assert table.melds(s)[1] == "[8♥ JK→7♥ 6♥]"
    assert {"LAY 5H ON 2 LOW", "LAY 9H ON 2 HIGH"} <= set(table.legal(s))
    after = table.ok(s, table.lay(s, 0, "9♥", 2, "high"))
    assert table.melds(after)[1] == "[6♥ JK→7♥ 8♥ 9♥]"


def test_k_s40_2_a_table_meld_that_is_no_meld_in_any_order_is_refused(table):
    s = table.build(hands={0: "K♠ 4♦ 9♣"}, melds=[MINE, "[5♥ 6♥ 7♥]", "[9♣ 10♣ J♣]"])
    s.scala40.melds[1].cards[2] = table.c("J♣")
    s.scala40.melds[2].cards[2] = table.c("7♥")
    with pytest.raises(InvalidInput) as raised:
        api.check_state(s)
    assert raised.value.violations[0] == (
        "state.scala40.melds[1].cards",
        "not a valid meld: [5H 6H JC]: a meld is one rank in different suits, or one suit in "
        "sequence",
    )


def test_k_s40_2_a_table_whole_suit_in_an_order_of_neither_meld_is_refused(table):
    """A♥ to K♥ is two melds (the ace low or high): stored in an order that
    is neither, nor either backwards, it is no one meld."""
    whole = "[A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥]"
    s = table.build(hands={0: "K♠ 4♦ 9♣"}, melds=[MINE, whole])
    api.check_state(_stored_as(table, s, 1, "[2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥]"))
    backwards = _stored_as(table, s, 1, "[K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ A♥]")
    after = table.ok(backwards, table.discard(backwards, 0, "K♠"))
    assert table.melds(after)[1] == whole
    scrambled = _stored_as(table, s, 1, "[5♥ A♥ 2♥ 3♥ 4♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥]")
    with pytest.raises(InvalidInput) as raised:
        api.check_state(scrambled)
    assert raised.value.violations[0][0] == "state.scala40.melds[1].cards"
