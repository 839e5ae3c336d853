"""Options of §1.7 that the situation table does not exercise, each pinned
at a hand-built position; option conflicts; the dry-stock rules C3.5, C6.3."""

from __future__ import annotations

import pytest

from croupier.engine import api, cards
from croupier.engine.errors import InvalidInput
from croupier.engine.options import to_option_value
from croupier.v1 import options_pb2, service_pb2

_SYMBOL = {cards.CLUBS: "♣", cards.DIAMONDS: "♦", cards.HEARTS: "♥", cards.SPADES: "♠"}


def text_of(value: int) -> str:
    """A card in the spec's notation ("10♥")."""
    return cards.RANK_NAMES[cards.RANK_OF[value] - 2] + _SYMBOL[cards.SUIT_OF[value]]


def _rest(*taken: str) -> str:
    """Every card of the 36-card pack but `taken`, in the spec's notation."""
    return " ".join(t for t in map(text_of, cards.deck(lowest_rank=6)) if t not in taken)


def test_voluntary_draw_lets_a_player_draw_while_holding_a_legal_card(table):
    options = {"voluntary_draw": True}
    s = table.build("hd", 2, top="10♥", hands={0: "10♣ J♠"}, stock="A♦ …", options=options)
    assert "DRAW" in table.legal(s, 0)
    s = table.ok(s, table.draw(0))
    assert table.drawn(s) == "A♦"
    # After the draw only the drawn card may be played, or the turn passed.
    assert table.legal(s, 0) == {"PASS"}
    assert table.reason(s, table.play(0, "10♣")) == "ONLY_DRAWN_CARD_PLAYABLE"


# The discard pile under a top 7♣, bottom first: what a restock turns into the stock.
UNDER_THE_TOP = "9♣ J♣ 6♦ 7♦ 8♥ 10♥ A♠ K♠ 9♦ J♥ 6♠ 10♣ K♦ A♥"


@pytest.mark.parametrize("shuffled", [False, True])
def test_o10_restock_shuffle_shuffles_the_discards_that_become_the_stock(table, shuffled):
    """O10 (A12): P1, without a card for 7♣, draws from an empty stock; the
    top card stays, the rest of the pile becomes the stock — turned over as a
    block, oldest card on top (P1 draws the 9♣), or shuffled with O10."""
    s = table.build(
        "hd",
        3,
        discard=f"{UNDER_THE_TOP} 7♣",
        stock="",
        hands={1: "10♠ 8♦ K♥"},
        current=1,
        options={"restock_shuffle": shuffled},
    )
    assert table.legal(s, 1) == {"DRAW"}
    s = table.ok(s, table.draw(1))
    assert table.discard(s) == ["7♣"]
    drawn = table.drawn(s)
    assert drawn is not None
    new_stock = [drawn, *table.stock(s)]
    assert table.bag(" ".join(new_stock)) == table.bag(UNDER_THE_TOP)
    assert table.hand(s, 1) == table.bag(f"10♠ 8♦ K♥ {drawn}")
    # 14 cards: a shuffle that leaves them as they lay is a 1 in 14! chance.
    assert (new_stock == UNDER_THE_TOP.split()) == (not shuffled)


def test_first_move_any_lets_the_dealer_lead_any_card_of_his_full_hand(table):
    s = table.new("ru", 3, {"first_move_any": True}, seed=5)
    deal = s.hundred_and_one
    dealer = deal.dealer
    assert s.current_seat == dealer
    assert not deal.discard
    hand = [text_of(v) for v in deal.hands[dealer].cards]
    assert len(hand) == 4
    expected: set[str] = set()
    for card in hand:
        expected |= table.queen_plays(card) if card[0] == "Q" else {f"PLAY {card}"}
    assert table.legal(s, dealer) == expected


def test_no_finish_on_nine_keeps_the_deal_going_after_a_last_nine(table):
    for forbid, ends in ((True, False), (False, True)):
        s = table.build("ru", 3, top="10♠", hands={0: "9♠"}, options={"no_finish_on_nine": forbid})
        s = table.ok(s, table.play(0, "9♠"))
        assert (table.match_phase(s) == "DEAL_OVER") is ends
        if not ends:
            assert s.current_seat == 1 and table.hand_size(s, 0) == 0


def test_a_five_does_nothing_without_fives_active(table):
    options = {"deck_size": 52}
    s = table.build("hd", 3, top="10♥", hands={0: "5♥ J♣"}, options=options)
    sizes = [table.hand_size(s, seat) for seat in (1, 2)]
    s = table.ok(s, table.play(0, "5♥"))
    assert s.current_seat == 1
    assert [table.hand_size(s, seat) for seat in (1, 2)] == sizes


def test_a_draw_with_stock_and_discard_empty_draws_nothing_and_ends_the_turn(table):
    # C3.5: every card but the top is in the hands; P0 has nothing to play.
    s = table.build(
        "cl", 2, discard="10♣", stock="", hands={0: "7♦ 8♦", 1: _rest("10♣", "7♦", "8♦")}
    )
    assert table.legal(s, 0) == {"DRAW"}
    response = api.apply_move(service_pb2.ApplyMoveRequest(state=s, move=table.draw(0)))
    assert response.accepted
    s = response.state
    assert table.hand(s, 0) == table.bag("7♦ 8♦")
    assert (s.current_seat, table.phase(s)) == (1, "PLAY")


def test_a_cover_duty_lapses_when_nothing_can_be_drawn(table):
    # C6.3: P0 must cover his 9♥, holds no cover, and stock and restock are dry.
    hands = {0: "7♣", 1: _rest("9♥", "7♣")}
    s = table.build("cl", 2, discard="9♥", stock="", hands=hands, phase="COVER")
    s = table.ok(s, table.draw(0))
    assert (s.current_seat, table.phase(s)) == (1, "PLAY")
    assert table.hand(s, 0) == table.bag("7♣")
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"


def test_a_lapsed_cover_with_an_empty_hand_wins_the_deal(table):
    hands = {0: "", 1: _rest("9♥")}
    s = table.build("cl", 2, discard="9♥", stock="", hands=hands, phase="COVER")
    s = table.ok(s, table.draw(0))
    assert table.match_phase(s) in ("DEAL_OVER", "MATCH_OVER")
    assert table.deal_winners(s) == [0]


@pytest.mark.parametrize(
    ("preset", "seats", "options", "field"),
    [
        ("cl", 3, {"transfer_accumulates": True}, "options.transfer_accumulates"),
        ("hd", 3, {"fives_active": True}, "options.fives_active"),
        ("hd", 3, {"six_cover_by": "NEXT"}, "options.six_cover_by"),
        ("hd", 3, {"first_move_any": True}, "options.first_move_any"),
        ("hd", 3, {"upcard_effects": False}, "options.upcard_effects"),
        ("ru", 3, {"eight_draw_mode": "THREE"}, "options.eight_draw_mode"),
        ("hd", 3, {"nine_cover_allows_queen": False}, "options.nine_cover_allows_queen"),
        ("hd", 3, {"lone_queen_scope": "ANY_SINGLE_QUEEN"}, "options.lone_queen_scope"),
        ("hd", 4, {"hand_size": 9}, "options.hand_size"),
    ],
)
def test_options_whose_dependency_is_not_met_are_refused(preset, seats, options, field):
    request = service_pb2.NewGameRequest(
        game="hundred_and_one",
        preset=preset,
        seat_count=seats,
        options=[
            options_pb2.OptionSetting(name=k, value=to_option_value(v)) for k, v in options.items()
        ],
    )
    with pytest.raises(InvalidInput) as caught:
        api.new_game(request)
    assert [f for f, _ in caught.value.violations] == [field]
