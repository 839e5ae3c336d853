"""Every test example of rummy_and_counting.md §1.18 (T-S40-*), one test each,
named after its id: a hand-built table, the example's moves, the exact result.
Defaults (the FISC preset) unless an option is named. P is seat 0, to act."""

from __future__ import annotations


def test_t_s40_01_opening_worth_42_is_legal(table):
    s = table.build(hands={0: "8♣ 9♣ JK 5♥ 5♦ 5♠ K♠ 2♦"}, opened=[])
    s = table.ok(s, table.open(s, 0, "[8♣ 9♣ JK→10♣]", "[5♥ 5♦ 5♠]"))
    assert table.opened(s, 0)
    assert table.melds(s) == ["[8♣ 9♣ JK→10♣]", "[5♦ 5♥ 5♠]"]
    assert table.hand(s, 0) == table.bag("K♠ 2♦")
    assert table.rule_events() == ["OPENED"]
    assert table.events[0].points == 42
