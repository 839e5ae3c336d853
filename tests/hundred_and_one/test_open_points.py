"""Points the rules leave open, settled: the two of the spec audit in rules
version 3 (RULES.md A36, A37), and the endless chain of covers in rules
version 4 (A38).

A36 — an HD 8 that is its player's last card and a forbidden finishing card
(O25 holds EIGHT) while `eight_last_must_cover` (O15) is off. §1.3.3 lets a
last 8 finish only because O15 is off; C7(b) and §1.5.3 say a forbidden last
card does not finish and "the card's effect applies". The 8's effect is the
duty to play again (C6), so its player must cover it with no cards in hand:
he draws, one card a move (or a batch of three, O14), until a cover comes,
and must play it; the covering card may end the deal. If nothing can be
drawn the duty lapses (C6.3) and, the 8 being forbidden, he stays in the
deal with no cards instead of winning on it; the same holds for any
self-cover card in O25 (a RU six with SIX in the set).

A37 — `voluntary_draw` (O8) when nothing can be drawn (stock empty, nothing
under the top card). A draw that finds nothing ends the turn (C3.5), which is
a pass, and C3.4 forbids passing without drawing: the empty draw is for a
player who must draw. So a player holding a legal card may draw voluntarily
only when there is a card to draw; otherwise DRAW is neither listed nor
accepted and he must play. Stock and discard sizes are public, so the rule
reveals no hidden card.

A38 — a chain of covers that only draws back its own cards (stock empty,
only eights under the top: draw an eight, play it, cover it, draw the eight
before it...) never ended. The chain turns the discard pile into the stock
once; when the stock runs out again within it, the duty lapses (C6.3).

Each test: a concrete position, the move, the exact result, and the legal
moves where they matter.
"""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.v1 import hundred_and_one_pb2 as h1
from croupier.v1 import service_pb2

FORBID_EIGHT = {"forbidden_finish": ("EIGHT",)}


def turn(table, state):
    """Who is to act and in which phase."""
    return state.current_seat, table.phase(state)


def rule_events(table) -> list[str]:
    """The 101-only event kinds of the last accepted move, in order."""
    return [
        h1.HundredAndOneEventKind.Name(e.hundred_and_one.kind).removeprefix(
            "HUNDRED_AND_ONE_EVENT_KIND_"
        )
        for e in table.events
        if e.HasField("hundred_and_one")
    ]


def default(table, state, seat: int) -> str:
    request = service_pb2.DefaultMoveRequest(state=state, seat=seat)
    return table.move_text(api.default_move(request).move.move)


# -- A36: a forbidden last HD eight must still be covered -------------------------------


def test_A36_forbidden_last_eight_binds_its_player_to_cover_with_an_empty_hand(table):
    # HD 3 seats, O25 = {EIGHT}, O15 off: P0 plays his last card 8♣ on 8♦.
    # The deal goes on, P0 holds nothing and must cover: DRAW is his only move.
    s = table.build(
        "hd", 3, top="8♦", hands={0: "8♣", 1: "J♠", 2: "J♦"}, stock="J♥ K♣ …",
        options=FORBID_EIGHT,
    )  # fmt: skip
    p1, p2 = table.hand(s, 1), table.hand(s, 2)
    s = table.ok(s, table.play(0, "8♣"))
    assert rule_events(table) == ["FINISH_FORBIDDEN", "COVER_REQUIRED"]
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.hand_size(s, 0) == 0
    assert turn(table, s) == (0, "COVER")
    assert table.active(s) == "♣"
    assert table.legal(s, 0) == {"DRAW"}
    assert default(table, s, 0) == "DRAW"
    # J♥ does not cover 8♣ (active ♣): he keeps drawing.
    s = table.ok(s, table.draw(0))
    assert table.hand(s, 0) == table.bag("J♥")
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"DRAW"}
    assert table.reason(s, table.play(0, "J♥")) == "MUST_COVER"
    # K♣ covers and must be played at once.
    s = table.ok(s, table.draw(0))
    assert table.legal(s, 0) == {"PLAY K♣"}
    assert table.reason(s, table.draw(0)) == "MUST_COVER"
    assert table.reason(s, table.pass_turn(0)) == "MUST_COVER"
    s = table.ok(s, table.play(0, "K♣"))
    assert table.hand(s, 0) == table.bag("J♥")
    assert table.hand(s, 1) == p1 and table.hand(s, 2) == p2
    assert table.discard(s)[-1] == "K♣"
    assert turn(table, s) == (1, "PLAY")


def test_A36_the_drawn_cover_of_a_forbidden_last_eight_may_finish_the_deal(table):
    # As above with K♣ on top of the stock: the cover is P0's only card, and
    # K♣ may finish (not in O25): P0 wins the deal.
    s = table.build(
        "hd", 3, top="8♦", hands={0: "8♣", 1: "J♠", 2: "J♦"}, stock="K♣ …",
        options=FORBID_EIGHT,
    )  # fmt: skip
    s = table.ok(s, table.play(0, "8♣"))
    s = table.ok(s, table.draw(0))
    assert table.legal(s, 0) == {"PLAY K♣"}
    s = table.ok(s, table.play(0, "K♣"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]
    assert table.deal_points(s) == [0, 2, 2]


@pytest.mark.parametrize(
    ("options", "over"),
    [
        ({}, True),  # A7: O15 off, 8 allowed: the last 8 wins at once
        (FORBID_EIGHT, False),  # A36: forbidden, the duty to cover stands
        ({"eight_last_must_cover": True}, False),  # O15: the duty to cover stands
        ({"eight_last_must_cover": True, **FORBID_EIGHT}, False),
    ],
)
def test_A36_a_last_eight_with_and_without_the_forbidden_set(table, options, over):
    s = table.build("hd", 3, top="8♦", hands={0: "8♣", 1: "J♠", 2: "J♦"}, options=options)
    s = table.ok(s, table.play(0, "8♣"))
    if over:
        assert table.match_phase(s) == "DEAL_OVER"
        assert table.deal_winners(s) == [0]
        assert table.deal_points(s) == [0, 2, 2]
    else:
        assert table.match_phase(s) == "DEAL_IN_PROGRESS"
        assert turn(table, s) == (0, "COVER")
        assert table.legal(s, 0) == {"DRAW"}


def test_A36_forbidden_last_eight_in_three_mode_draws_one_batch(table):
    # O14 THREE: the batch J♥ K♣ 9♦ holds a cover, K♣, which must be played.
    s = table.build(
        "hd", 3, top="8♦", hands={0: "8♣", 1: "J♠", 2: "J♦"}, stock="J♥ K♣ 9♦ …",
        options={"eight_draw_mode": "THREE", **FORBID_EIGHT},
    )  # fmt: skip
    s = table.ok(s, table.play(0, "8♣"))
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))
    assert table.hand(s, 0) == table.bag("J♥ K♣ 9♦")
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"PLAY K♣"}
    assert table.reason(s, table.draw(0)) == "MUST_COVER"  # he holds a cover


def test_A36_ordinary_eight_has_no_effect_so_a_forbidden_last_one_just_passes_the_turn(table):
    # O13: the 8 is an ordinary card; forbidden as a last card, play goes on
    # with no duty (there is no effect to apply): P1 acts, P0 holds nothing.
    s = table.build(
        "hd", 3, top="8♦", hands={0: "8♣", 1: "J♠", 2: "J♦"},
        options={"ordinary_specials": True, **FORBID_EIGHT},
    )  # fmt: skip
    s = table.ok(s, table.play(0, "8♣"))
    assert rule_events(table) == ["FINISH_FORBIDDEN"]
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert table.hand_size(s, 0) == 0
    assert turn(table, s) == (1, "PLAY")


@pytest.mark.parametrize(
    ("options", "wins"),
    [
        ({"eight_last_must_cover": True}, True),  # C6.3: the lapsed duty on an empty hand wins
        (FORBID_EIGHT, False),  # A36: not on a forbidden 8
        ({"eight_last_must_cover": True, **FORBID_EIGHT}, False),
    ],
)
def test_A36_a_lapsed_cover_of_a_forbidden_last_eight_does_not_win(table, options, wins):
    # HD 2 seats, nothing to draw: P0 leads his only card 8♣ (a led 8 binds,
    # §1.3.1); stock and discard below the top are empty, so his DRAW finds
    # nothing and the duty lapses (C6.3). Every other card is in P1's hand.
    s = table.build("hd", 2, discard="", stock="", hands={0: "8♣"}, options=options)
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "8♣"))
    assert turn(table, s) == (0, "COVER")
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))
    assert table.hand_size(s, 0) == 0
    if wins:
        # P1's 35 cards put him above 101: the deal and the match are over.
        assert rule_events(table) == ["COVER_LAPSED"]
        assert table.match_phase(s) == "MATCH_OVER"
        assert table.deal_winners(s) == [0]
        assert table.eliminated(s) == [False, True]
    else:
        assert rule_events(table) == ["COVER_LAPSED", "FINISH_FORBIDDEN"]
        assert table.match_phase(s) == "DEAL_IN_PROGRESS"
        assert turn(table, s) == (1, "PLAY")
        hand = [t for t, n in p1.items() for _ in range(n)]
        assert table.legal(s, 1) == table.plays_of(hand, "8♣", "♣")


@pytest.mark.parametrize(("forbidden", "wins"), [((), True), (("SIX",), False)])
def test_A36_a_lapsed_self_cover_of_a_forbidden_ru_six_does_not_win(table, forbidden, wins):
    # RU, first_move_any: dealer P0 leads his only card 6♥, which he must
    # cover himself (SELF); nothing to draw, the duty lapses. With SIX in O25
    # he stays in with no cards and P1 acts.
    s = table.build(
        "ru", 2, discard="", stock="", hands={0: "6♥"}, current=0, dealer=0,
        options={"first_move_any": True, "forbidden_finish": forbidden},
    )  # fmt: skip
    s = table.ok(s, table.play(0, "6♥"))
    assert turn(table, s) == (0, "COVER")
    s = table.ok(s, table.draw(0))
    if wins:
        assert table.match_phase(s) == "MATCH_OVER"  # P1 holds the other 35 cards
        assert table.deal_winners(s) == [0]
    else:
        assert table.match_phase(s) == "DEAL_IN_PROGRESS"
        assert table.hand_size(s, 0) == 0
        assert turn(table, s) == (1, "PLAY")


# -- A37: a voluntary draw needs a card to draw -------------------------------------------


def test_A37_voluntary_draw_with_nothing_to_draw_is_refused(table):
    # HD 2 seats, O8 on, stock empty and only 10♥ on the discard pile: P0
    # holds 10♣ (legal); a DRAW would find nothing and pass the turn (C3.4).
    s = table.build(
        "hd", 2, discard="10♥", stock="", hands={0: "10♣ J♠"}, options={"voluntary_draw": True}
    )
    assert table.legal(s, 0) == {"PLAY 10♣"}
    response = table.apply(s, table.draw(0))
    assert not response.accepted
    assert table.reason(s, table.draw(0)) == "MUST_PLAY_LEGAL_CARD"
    assert response.rejection.rule == "C3.4"
    assert table.reason(s, table.pass_turn(0)) == "MUST_DRAW_BEFORE_PASSING"
    assert default(table, s, 0) == "PLAY 10♣"
    s = table.ok(s, table.play(0, "10♣"))
    assert table.hand(s, 0) == table.bag("J♠")
    assert turn(table, s) == (1, "PLAY")


@pytest.mark.parametrize(
    ("discard", "stock", "drawn"),
    [
        ("10♥", "A♦", "A♦"),  # a card in the stock
        ("9♦ 10♥", "", "9♦"),  # the stock empty, one card to restock from under the top
    ],
)
def test_A37_voluntary_draw_stands_while_there_is_a_card_to_draw(table, discard, stock, drawn):
    s = table.build(
        "hd", 2, discard=discard, stock=stock, hands={0: "10♣ J♠"},
        options={"voluntary_draw": True},
    )  # fmt: skip
    assert table.legal(s, 0) == {"PLAY 10♣", "DRAW"}
    assert default(table, s, 0) == "DRAW"
    s = table.ok(s, table.draw(0))
    assert table.drawn(s) == drawn
    assert turn(table, s) == (0, "DRAWN")
    assert table.legal(s, 0) == {"PASS"}  # A♦ / 9♦ do not follow 10♥


@pytest.mark.parametrize("voluntary", [False, True])
def test_A37_without_a_legal_card_the_empty_draw_still_ends_the_turn(table, voluntary):
    # C3.5 unchanged: P0 holds no legal card and must draw; nothing is left,
    # he draws nothing and P1 acts.
    s = table.build(
        "hd", 2, discard="10♥", stock="", hands={0: "J♠ 8♣"},
        options={"voluntary_draw": voluntary},
    )  # fmt: skip
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))
    drawn = [e for e in table.events if e.count == 0 and e.text.endswith("draws 0 cards")]
    assert len(drawn) == 1
    assert table.hand(s, 0) == table.bag("J♠ 8♣")
    assert turn(table, s) == (1, "PLAY")


def test_A37_a_dry_voluntary_draw_after_a_forbidden_finish_is_the_must_draw_of_C3_5(table):
    # RU, O8 on: P0 went out on A♥ (forbidden, A21) and holds nothing; with
    # nothing to draw his DRAW is the forced one and simply ends his turn.
    s = table.build(
        "ru", 2, discard="10♥", stock="", hands={0: ""}, options={"voluntary_draw": True}
    )
    assert table.legal(s, 0) == {"DRAW"}
    s = table.ok(s, table.draw(0))
    assert table.hand_size(s, 0) == 0
    assert turn(table, s) == (1, "PLAY")


# -- A38: a chain of covers turns the discard pile into the stock once ------------------


def test_A38_a_chain_of_covers_that_only_recycles_its_eights_ends(table):
    # HD 2 seats, O25 = {EIGHT}: stock empty, only 8♠ 8♦ under the top. P0
    # plays his last card 8♣ and must cover it (A36). Before rules version 4
    # he drew an eight, played it, had to cover it, drew the eight before it,
    # and so on forever. The chain restocks once; the next empty stock ends
    # the duty (C6.3), and the forbidden 8 keeps P0 in the deal with no cards.
    s = table.build(
        "hd", 2, discard="8♠ 8♦", hands={0: "8♣"}, stock="", options=FORBID_EIGHT
    )  # fmt: skip
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "8♣"))
    assert turn(table, s) == (0, "COVER")
    assert not s.hundred_and_one.cover_restocked
    # The first restock of the chain: 8♠ 8♦ turned over as a block (A12).
    s = table.ok(s, table.draw(0))
    assert table.hand(s, 0) == table.bag("8♠")
    assert table.stock(s) == ["8♦"] and table.discard(s) == ["8♣"]
    assert s.hundred_and_one.cover_restocked
    s = table.ok(s, table.play(0, "8♠"))
    assert rule_events(table) == ["FINISH_FORBIDDEN", "COVER_REQUIRED"]
    s = table.ok(s, table.draw(0))
    s = table.ok(s, table.play(0, "8♦"))
    assert turn(table, s) == (0, "COVER")
    assert table.stock(s) == [] and table.discard(s) == ["8♣", "8♠", "8♦"]
    assert table.legal(s, 0) == {"DRAW"}
    # The stock is empty again in the same chain: nothing to draw, no restock.
    s = table.ok(s, table.draw(0))
    assert rule_events(table) == ["COVER_LAPSED", "FINISH_FORBIDDEN"]
    assert table.hand_size(s, 0) == 0
    assert table.discard(s) == ["8♣", "8♠", "8♦"] and table.stock(s) == []
    assert table.match_phase(s) == "DEAL_IN_PROGRESS"
    assert turn(table, s) == (1, "PLAY")
    assert not s.hundred_and_one.cover_restocked
    assert table.hand(s, 1) == p1
    # P1 plays on the 8♦ as in any turn.
    assert table.legal(s, 1) == table.plays_of(table.hand_list(s, 1), "8♦", "♦")


def test_A38_a_chain_that_a_second_turn_over_would_finish_lapses_too(table):
    # The price of the bound (RULES.md A38): §0.5 would turn 8♣ 8♠ over again
    # and give P0 the 8♣ to play and cover with K♣; the chain has restocked
    # once, so the draw finds nothing and the duty lapses, K♣ 10♣ kept.
    s = table.build("hd", 2, discard="8♠ K♣ 10♣", hands={0: "8♣ J♦"}, stock="")
    s = table.ok(table.ok(s, table.play(0, "8♣")), table.draw(0))
    assert table.hand(s, 0) == table.bag("J♦ 8♠")
    for move in (table.play(0, "8♠"), table.draw(0), table.draw(0)):
        s = table.ok(s, move)
    assert table.hand(s, 0) == table.bag("J♦ K♣ 10♣")
    assert turn(table, s) == (0, "COVER") and table.stock(s) == []
    s = table.ok(s, table.draw(0))
    assert rule_events(table) == ["COVER_LAPSED"]
    assert table.hand(s, 0) == table.bag("J♦ K♣ 10♣")
    assert table.discard(s) == ["8♣", "8♠"] and turn(table, s) == (1, "PLAY")


def test_A38_a_seat_holding_a_card_that_does_not_cover_keeps_it_when_the_chain_lapses(table):
    # As above without the forbidden set: P0 holds J♥, which does not cover
    # 8♣ (active ♣), so the duty is his own 8 with a card left (C6).
    s = table.build("hd", 2, discard="8♠ 8♦", hands={0: "8♣ J♥"}, stock="")
    s = table.ok(s, table.play(0, "8♣"))
    for eight in ("8♠", "8♦"):
        s = table.ok(s, table.draw(0))
        assert table.legal(s, 0) == {f"PLAY {eight}"}
        s = table.ok(s, table.play(0, eight))
    assert turn(table, s) == (0, "COVER") and table.active(s) == "♦"
    s = table.ok(s, table.draw(0))
    assert rule_events(table) == ["COVER_LAPSED"]
    assert table.hand(s, 0) == table.bag("J♥")
    assert turn(table, s) == (1, "PLAY")


def test_A38_the_view_shows_the_chains_restock(table):
    s = table.build("hd", 2, discard="8♠ 8♦", hands={0: "8♣ J♥"}, stock="")
    s = table.ok(s, table.play(0, "8♣"))
    s = table.ok(s, table.draw(0))
    for seat in (0, 1):
        view = api.get_view(service_pb2.GetViewRequest(state=s, seat=seat)).view
        assert view.hundred_and_one.cover_restocked


def test_A38_the_chain_goes_from_seat_to_seat_under_six_cover_by_next(table):
    # RU 3 seats, `six_cover_by` NEXT: a six binds the next seat to cover it.
    # Stock empty, only 6♠ 6♦ under the top. P1 cannot cover 6♣ with J♥ and
    # draws (the chain's restock), covers with 6♠, which binds P2: the chain
    # and its restock go on to P2, and end when a turn begins in PLAY.
    s = table.build(
        "ru", 3, discard="6♠ 6♦", hands={0: "6♣ 7♥", 1: "J♥"}, stock="",
        options={"six_cover_by": "NEXT"},
    )  # fmt: skip
    s = table.ok(s, table.play(0, "6♣"))
    assert turn(table, s) == (1, "COVER")
    s = table.ok(s, table.draw(1))
    assert table.hand(s, 1) == table.bag("J♥ 6♠")
    assert s.hundred_and_one.cover_restocked
    s = table.ok(s, table.play(1, "6♠"))
    assert turn(table, s) == (2, "COVER")
    assert s.hundred_and_one.cover_restocked  # the same chain
    cover = sorted(c for c in table.hand_list(s, 2) if c[-1] == "♠" and c[:-1] != "6")[0]
    s = table.ok(s, table.play(2, cover))
    assert table.phase(s) != "COVER"
    assert not s.hundred_and_one.cover_restocked


def test_A38_a_chain_that_restocked_and_ends_the_deal_leaves_no_mark(table):
    # The chain's restock brings K♣, which covers the forbidden last 8♣ and,
    # not forbidden itself, ends the deal: the state left is a valid one
    # with `cover_restocked` cleared (it belongs to phase COVER only).
    s = table.build(
        "hd", 2, discard="K♣ 8♦", hands={0: "8♣"}, stock="", options=FORBID_EIGHT
    )  # fmt: skip
    s = table.ok(s, table.play(0, "8♣"))
    s = table.ok(s, table.draw(0))
    assert s.hundred_and_one.cover_restocked
    s = table.ok(s, table.play(0, "K♣"))
    assert table.match_phase(s) in ("DEAL_OVER", "MATCH_OVER")
    assert table.deal_winners(s) == [0]
    assert not s.hundred_and_one.cover_restocked
    api.get_view(service_pb2.GetViewRequest(state=s, seat=1))  # the state validates
