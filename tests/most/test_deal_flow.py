"""The deal (R-M-04, R-M-05), the turn's phases (§2.5), the next hand, the
default move (RULES.md "Default move"), views and notation."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.engine import api, cards
from croupier.games.most import GAME
from croupier.v1 import game_pb2, service_pb2


def test_the_deal_gives_six_each_and_turns_the_first_bridge_card(table):
    s = table.new(4, seed=5)
    d = s.most
    assert [len(h.cards) for h in d.hands] == [6, 6, 6, 6]
    assert len(d.bridge) == 1 and len(d.stock) == 54 - 24 - 1
    every = [v for h in d.hands for v in h.cards] + list(d.stock) + list(d.bridge)
    assert Counter(every) == Counter(cards.pack_54())
    assert s.current_seat == (d.dealer + 1) % 4 and list(s.acting_seats) == [s.current_seat]
    assert table.phase(s) == "DRAW"
    started = api.new_game(
        service_pb2.NewGameRequest(game="most", preset="seed", seat_count=4, seed=5)
    ).events[0]
    assert started.kind == game_pb2.EVENT_KIND_DEAL_STARTED
    assert (started.seat, started.target_seat, list(started.cards)) == (
        d.dealer,
        s.current_seat,
        list(d.bridge),
    )


def test_eight_players_leave_five_cards_in_the_stock(table):
    s = table.new(8)
    assert (len(s.most.stock), len(s.most.bridge)) == (5, 1)


def test_the_deal_passes_clockwise(table):
    s = table.build(2, hands={0: "3♦", 1: "4♦ 5♦"}, melds=[(0, "[Q♥ K♥ A♥]")], dealer=1)
    s = table.ok(s, table.discard(s, 0, "3♦"))
    s = table.next_deal(s)
    assert (s.most.dealer, s.current_seat, s.match.deal_number) == (0, 1, 2)


def test_the_turn_is_draw_play_discard(table):
    s = table.build(hands={0: "5♥ 6♥ 7♥ 9♣"}, phase="DRAW")
    assert table.reason(s, table.meld(s, 0, "[5♥ 6♥ 7♥]")) == "MUST_DRAW_FIRST"
    assert table.reason(s, table.discard(s, 0, "9♣")) == "MUST_DRAW_FIRST"
    s = table.ok(s, table.draw(0))
    assert table.kinds() == ["CARDS_DRAWN"]
    assert list(table.events[0].visible_to) == [0]
    assert table.reason(s, table.draw(0)) == "ALREADY_DRAWN"
    s = table.ok(s, table.meld(s, 0, "[5♥ 6♥ 7♥]"))
    s = table.ok(s, table.discard(s, 0, "9♣"))
    assert (s.current_seat, table.phase(s), table.bridge(s)[-1]) == (1, "DRAW", "9♣")


def test_a_take_names_a_card_of_the_bridge(table):
    s = table.build(hands={0: "9♥ 9♠ 4♦"}, bridge="5♦ 9♣", phase="DRAW")
    assert table.reason(s, table.take(0, "K♠")) == "NOT_IN_BRIDGE"
    assert table.legal(s) == ["DRAW", "TAKE 9C"]


def test_default_move_draws_then_puts_the_drawn_card_into_the_bridge(table):
    s = table.build(hands={0: "5♥ 6♥ 7♥ 9♣"}, phase="DRAW")
    assert table.default(s) == "DRAW"
    s = table.build(hands={0: "5♥ 6♥ 7♥ 9♣"}, drawn="9♣")
    assert table.default(s) == "DISCARD 9C"


def test_default_move_when_the_drawn_card_may_not_go_into_the_bridge(table):
    s = table.build(hands={0: "9♣ 4♦ 7♠"}, melds=["[8♣ JK→9♣ 10♣]"], drawn="9♣")
    assert table.default(s) == "DISCARD 4D"


def test_default_move_melds_the_bridge_card_when_it_is_owed(table):
    s = table.build(hands={0: "9♣ 9♥ 9♠ 4♦"}, bridge_card="9♣")
    assert table.default(s) == "MELD [9C 9H 9S]"


def test_views_hide_other_hands_and_the_stock(table):
    s = table.build(hands={0: "9♣ 9♥ 9♠ 4♦", 1: "K♠ K♦"}, melds=["[8♣ JK→9♣ 10♣]"], drawn="4♦")
    view = api.get_view(service_pb2.GetViewRequest(state=s, seat=1)).view
    v = view.most
    assert [table.text(c) for c in v.hand] == ["K♠", "K♦"]
    assert v.drawn_card == 0 and v.stock_size == len(s.most.stock)
    assert list(v.hand_sizes) == [4, 2, 6]
    assert list(v.table_points) == [0, 15, 0]
    assert GAME.view_text(view).startswith("hand KS KD, bridge -, stock")
    mine = api.get_view(service_pb2.GetViewRequest(state=s, seat=0)).view
    assert table.text(mine.most.drawn_card) == "4♦"


@pytest.mark.parametrize(
    "text",
    ["DRAW", "TAKE 9C", "MELD [8C RJ=9C 10C]", "LAY 4H ON 2 HIGH", "LAY BJ=7D ON 3",
     "EXCHANGE 9C", "DISCARD KS"],
)  # fmt: skip
def test_notation_round_trips(text):
    assert GAME.notation(GAME.parse_notation(text, 1)) == text


@pytest.mark.parametrize("text", ["", "DRAW 2", "TAKE", "MELD 8C 9C", "LAY 4H 2", "LAY 4H ON 2 UP"])
def test_notation_refuses_what_is_no_move(text):
    with pytest.raises(ValueError):
        GAME.parse_notation(text, 0)
