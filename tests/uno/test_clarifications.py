"""Every clarification of §2.15 (C-UNO-1 … C-UNO-11) pinned by a test."""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.engine.errors import InvalidInput
from croupier.engine.uno_cards import uno_card_text, uno_deck
from croupier.v1 import service_pb2

from .conftest import settings

# C-UNO-1: (card, options, does its effect wait for the target's answer?)
WAITS = [
    ("R+2", "seed", {}, True),  # U3
    ("R+2", "mattel", {}, False),
    ("R+2", "mattel", {"stacking": True}, True),  # H4
    ("R+2", "mattel", {"reverse_bounce": True}, True),  # H11
    ("R+2", "mattel", {"jump_in": True}, True),  # H1
    ("W+4>G", "seed", {"challenge_enabled": False}, True),  # U4
    ("W+4>G", "mattel", {}, True),  # U5
    ("W+4>G", "mattel", {"challenge_enabled": False}, False),
    ("W+4>G", "mattel", {"challenge_enabled": False, "stacking": True}, True),
    ("W+4>G", "mattel", {"challenge_enabled": False, "reverse_bounce": True}, True),
    ("X+10>G", "seed", {"plus_ten": True}, False),
    ("X+10>G", "seed", {"plus_ten": True, "stacking": True}, True),
    ("RSkip", "seed", {}, False),
    ("RSkip", "seed", {"reverse_bounce": True}, True),
    ("RSkip", "seed", {"jump_in": True}, True),
]


@pytest.mark.parametrize(("card", "preset", "options", "waits"), WAITS)
def test_c_uno_1_an_effect_waits_only_when_the_options_give_it_an_answer(
    table, card, preset, options, waits
):
    s = table.build(preset, top="R4", hands={0: f"{card.split('>')[0]} Y1 Y2"}, options=options)
    s = table.ok(s, table.move(0, card))
    if waits:
        assert table.turn(s) == (1, "RESPOND")
        assert "ACCEPT" in table.legal(s, 1)
    else:
        assert table.turn(s) == (2, "PLAY")


def test_c_uno_2_under_jump_in_a_skip_waits_and_its_target_answers_in_kind(table):
    # UNO-26: after P1's jumped-in Skip, P2 answers, then P3 acts.
    s = table.build(top="R4", hands={0: "RSkip …", 1: "RSkip Y1"}, options={"jump_in": True})
    s = table.ok(s, table.play(0, "RSkip"))
    assert table.turn(s) == (1, "RESPOND")
    assert table.acting(s) == [1, 2, 3]  # anyone but P0 may jump in
    s = table.ok(s, table.play(1, "RSkip"))
    assert table.turn(s) == (2, "RESPOND")
    s = table.ok(s, "P2 ACCEPT")
    assert table.turn(s) == (3, "PLAY")


def test_c_uno_3_the_jump_in_window_opens_on_public_facts_and_side_actions_keep_it(table):
    opts = {"jump_in": True, "silent_trigger": "TWOS"}
    s = table.build(top="R4", hands={0: "R2 …", 1: "Y1 Y2", 2: "R2 B1"}, options=opts)
    s = table.ok(s, table.play(0, "R2"))
    # P3 holds no R2 and is offered the window (P0 acts for the silence only).
    assert table.acting(s) == [0, 1, 2, 3]
    assert not {m for m in table.legal(s, 3) if m.startswith("JUMP")}
    s = table.ok(s, "P3 REPORT 1")  # a side action
    assert s.uno.jump_in_open
    assert table.reason(s, table.jump(2, "R2")) == "ACCEPTED"
    s = table.ok(s, "P1 DRAW")  # a turn action closes it
    assert not s.uno.jump_in_open


@pytest.mark.parametrize(
    ("card", "options", "shown"),
    [("R2", {"jump_in": True}, True), ("R2", {}, False), ("R0", {"jump_in": True}, False)],
)
def test_c_uno_3_a_view_shows_the_jump_in_window_only_when_seats_may_jump_in(
    table, card, options, shown
):
    """The state marks every landed card (C-UNO-3); a view says "jump-in
    open" only as the acting seats do: under H1, on a card with a twin (a
    golden showed it open under the seed preset, where nobody may jump in)."""
    s = table.build(top="R4", hands={0: f"{card} …"}, options=options)
    s = table.ok(s, table.play(0, card))
    assert s.uno.jump_in_open
    assert (len(table.acting(s)) > 1) == shown
    for seat in range(4):
        assert table.view(s, seat).uno.jump_in_open == shown


def test_c_uno_4_the_catch_window_closes_at_a_play_draw_accept_or_challenge(table):
    opts = {"silent_trigger": "TWOS"}
    s = table.build(top="R4", hands={0: "R2 Y1", 1: "R+2 Y2 Y3"}, options=opts)
    s = table.ok(s, table.play(0, "R2"), "P3 REPORT 1")
    assert s.uno.uno_offender == 0  # the report did not close it
    closed = table.ok(s, table.play(1, "R+2"))
    assert not closed.uno.HasField("uno_offender")
    s = table.build(top="R4", hands={0: "W+4 Y1"})
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert s.uno.uno_offender == 0
    assert not table.ok(s, "P1 CHALLENGE").uno.HasField("uno_offender")
    assert not table.ok(s, "P1 ACCEPT").uno.HasField("uno_offender")


def test_c_uno_5_two_players_a_reverse_has_the_window_of_a_skip(table):
    opts = {"reverse_bounce": True}
    s = table.build(seats=2, top="R4", hands={0: "RRev Y1", 1: "GRev RRev Y2"}, options=opts)
    s = table.ok(s, table.play(0, "RRev", uno=True))
    assert table.direction(s) == -1
    assert table.pending(s) == ("SKIP", 0) and table.turn(s) == (1, "RESPOND")
    assert table.legal(s, 1) == {"RRev", "ACCEPT"}
    s = table.ok(s, table.play(1, "RRev"))
    assert table.turn(s) == (0, "RESPOND")


@pytest.mark.parametrize(
    ("house", "follower", "value", "explicit"),
    [
        ({"wd4_enforcement": "STRICT"}, "challenge_enabled", False, True),
        ({"play_to_last": True}, "scoring_method", 3, "WINNER_COLLECTS"),
        ({"h2o_finish_bonus": True}, "scoring_method", 2, "LAZY"),
    ],
)
def test_c_uno_6_an_unset_option_follows_an_explicit_contradiction_is_refused(
    table, house, follower, value, explicit
):
    s = table.new(options=house)
    assert getattr(s.options.uno, follower) == value
    request = service_pb2.NewGameRequest(
        game="uno", seat_count=4, options=settings({**house, follower: explicit})
    )
    with pytest.raises(InvalidInput) as refused:
        api.new_game(request)
    fields = {field for field, _ in refused.value.violations}
    assert fields == {f"options.{follower}", f"options.{next(iter(house))}"}


def test_c_uno_7_h2o_cards_are_labels_not_cards(table):
    s = table.new(options={"h2o_finish_bonus": True})
    assert len(s.uno.stock) + sum(len(h.cards) for h in s.uno.hands) + 1 == 108


def test_c_uno_8_restock_keeps_the_card_under_a_challengeable_wild_draw_four(table):
    opts = {"misplay_penalty": True}
    s = table.build(
        discard="G1 Y1 R9",
        hands={0: "R2 W+4 G5", 1: "B3 B4", 2: "Y7", 3: "Y8"},
        stock="",
        options=opts,
    )
    s.uno.hands[3].cards.extend(s.uno.discard[:-3])  # the rest out of the way
    del s.uno.discard[:-3]
    s = table.ok(s, table.play(0, "W+4", "B"))
    assert table.discard(s) == ["G1", "Y1", "R9", "W+4"]
    s = table.ok(s, table.play(1, "B3"))  # not an answer: a misplay, 2 cards
    assert table.discard(s) == ["R9", "W+4"]
    s = table.ok(s, "P1 CHALLENGE")  # guilty: R2 was red
    assert table.top(s) == "R9" and table.colour(s) == "R"


def test_c_uno_9_seven_zero_under_seven_rounds_and_play_to_the_last(table):
    opts = {"seven_zero": True, "seven_rounds": True}
    s = table.build(top="B3", hands={0: "B7", 2: "G1 G2"}, stages=[7, 7, 7, 7], options=opts)
    s = table.ok(s, table.play(0, "B7", swap=2))  # refilled with 6, then exchanged
    assert table.hand(s, 0) == table.bag("G1 G2")
    assert table.size(s, 2) == 6
    last = {"seven_zero": True, "play_to_last": True}
    s = table.build(top="B3", hands={0: "B7", 2: "G1 G2"}, options=last)
    assert table.reason(s, table.play(0, "B7", swap=2)) == "SWAP_CHOICE_INVALID"
    s = table.ok(s, table.play(0, "B7"))
    assert list(s.uno.finished) == [0] and table.hand(s, 2) == table.bag("G1 G2")


def test_c_uno_10_when_silence_ends_and_when_ready_is_awaited(table):
    twos = {"silent_trigger": "TWOS"}
    hands = {0: "R2 …", 1: "R3 …", 2: "R4 …", 3: "RSkip …"}
    s = table.build(top="R9", hands=hands, options=twos)
    s = table.ok(s, table.play(0, "R2"), table.play(1, "R3"), table.play(2, "R4"))
    assert s.uno.silence
    s = table.ok(s, table.play(3, "RSkip"))  # P0's turn is lost to the skip
    assert not s.uno.silence and table.turn(s) == (1, "PLAY")
    black = {"silent_trigger": "BLACK"}
    s = table.build(top="R9", hands={0: "R2 W+4 G5", 1: "Y1 Y2"}, options=black)
    s = table.ok(s, table.play(0, "W+4", "B"))
    assert s.uno.silence
    s = table.ok(s, "P1 CHALLENGE")  # guilty: the colour goes back to red
    assert not s.uno.silence
    ready = {"politeness_ready": True, "challenge_enabled": False}
    s = table.build("mattel", top="R9", hands={0: "W+4 Y1 Y2"}, options=ready)
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert table.acting(s) == [1] and table.legal(s, 1) == {"READY"}
    assert table.reason(s, "P2 DRAW") == "NOT_YOUR_TURN"
    s = table.ok(s, "P1 READY")
    assert table.turn(s) == (2, "PLAY") and table.acting(s) == [2]


def test_c_uno_11_a_late_call_is_a_false_call_under_u16(table):
    opts = {"misplay_penalty": True}
    s = table.build(top="R7", hands={0: "R3 G5"}, options=opts)
    s = table.ok(s, table.play(0, "R3"))
    assert 0 in table.acting(s)
    s = table.ok(s, "P0 UNO")
    assert table.rule_events("FALSE_CALL")
    assert table.size(s, 0) == 1 + 2
    assert not s.uno.HasField("uno_offender")  # no longer one card: nothing to catch


def test_regression_a_refill_passed_on_by_an_exchange_is_not_shown(table):
    # Found by a random-options playout: under H13 and H3 a seat emptied with
    # a 0 draws its refill and passes it on in the same move; the draw event
    # may not show it cards it holds neither before nor after.
    opts = {"seven_zero": True, "seven_rounds": True}
    before = table.build(top="B3", hands={0: "B0", 1: "G1 G2"}, stages=[6, 7, 7, 7], options=opts)
    s = table.ok(before, table.play(0, "B0"))
    drawn = [e for e in table.events if e.kind == 3]  # CARDS_DRAWN
    assert drawn[0].count == 5 and not drawn[0].uno_cards
    assert table.size(s, 1) == 5  # P0's refill, passed on
    assert table.hand(s, 0) == table.hand(before, 3)


def test_c_uno_10_h16_counts_the_penalty_owed_not_the_cards_an_empty_stock_gives(table):
    """RULES.md H16: a penalty of 4 waits for "Ready" even when the piles hold
    fewer cards (B29 forfeits the rest). P0's Wild Draw Four (Mattel, no
    challenge, no answer) makes P1 draw 4 with one card in the stock and only
    the R9 under the +4 to restock: he draws 2, and play waits for his READY."""
    deck = [uno_card_text(v) for v in uno_deck(blank_cards=False)]
    for named in ("R9", "G5", "W+4", "Y1"):
        deck.remove(named)
    hands = {0: "W+4 Y1", 1: " ".join(deck[:35]), 2: " ".join(deck[35:70]),
             3: " ".join(deck[70:])}  # fmt: skip
    ready = {"politeness_ready": True, "challenge_enabled": False}
    s = table.build("mattel", top="R9", stock="G5", hands=hands, options=ready)
    before = len(s.uno.hands[1].cards)
    s = table.ok(s, table.play(0, "W+4", "G"))
    assert len(s.uno.hands[1].cards) == before + 2 and not s.uno.stock
    assert table.acting(s) == [1] and table.legal(s, 1) == {"READY"}


# -- C-UNO-8 with a side action during the challenge window (third audit) ----------------


def _empty_stock(table, discard, hands, **kw):
    s = table.build(discard=discard, hands=hands, stock="", **kw)
    # everything not placed is in P3's hand: stock empty, discard as given
    n = len(discard.split())
    s.uno.hands[3].cards.extend(s.uno.discard[:-n])
    del s.uno.discard[:-n]
    return s


def test_c_uno_8_a_catch_during_the_challenge_window_keeps_the_card_under(table):
    s = _empty_stock(table, "R1 G1 R9", {0: "W+4 R2", 1: "B1 B2", 2: "Y1 Y2"})
    s = table.ok(s, table.play(0, "W+4", "G"))  # second-to-last, no "UNO!"
    assert table.turn(s) == (1, "RESPOND")
    s = table.ok(s, "P2 CATCH 0")
    assert table.hand(s, 0) == table.bag("R2 R1 G1")
    assert table.discard(s) == ["R9", "W+4"]
    s = table.ok(s, "P1 CHALLENGE")
    assert table.rule_events("CHALLENGED")[0].uno.guilty
    assert table.discard(s) == ["R9"] and table.colour(s) == "R"
    assert table.hand(s, 0) == table.bag("W+4 R2 R1 G1")  # 4 due, none to be had
    assert table.turn(s) == (1, "PLAY")


def test_c_uno_8_a_report_during_the_challenge_window_keeps_the_card_under(table):
    opts = {"silent_trigger": "BLACK"}
    s = _empty_stock(table, "R1 G1 R9", {0: "W+4 R2 Y5", 1: "B1 B2", 2: "Y1 Y2"}, options=opts)
    s = table.ok(s, table.play(0, "W+4", "G"), "P2 REPORT 1")
    assert table.hand(s, 1) == table.bag("B1 B2 R1 G1")
    assert table.discard(s) == ["R9", "W+4"]
    s = table.ok(s, "P1 CHALLENGE")
    assert table.discard(s) == ["R9"] and table.colour(s) == "R"


def test_c_uno_8_a_misplay_during_the_challenge_window_keeps_the_card_under(table):
    opts = {"misplay_penalty": True}
    s = _empty_stock(table, "R1 G1 R9", {0: "W+4 R2 Y5", 1: "B1 B2", 2: "Y1 Y2"}, options=opts)
    s = table.ok(s, table.play(0, "W+4", "G"), table.play(1, "B1"))  # B1 answers nothing
    assert table.hand(s, 1) == table.bag("B1 B2 R1 G1")
    assert table.discard(s) == ["R9", "W+4"] and table.turn(s) == (1, "RESPOND")
    s = table.ok(s, "P1 CHALLENGE")
    assert table.discard(s) == ["R9"] and table.colour(s) == "R"


def test_c_uno_8_the_last_slapper_draws_while_the_wild_draw_four_may_be_challenged(table):
    opts = {"uno_in_centre": True}
    s = _empty_stock(table, "R1 G1 R9", {0: "W+4 R2", 1: "B1 B2", 2: "Y1 Y2"}, options=opts)
    s = table.ok(s, table.play(0, "W+4", "G", uno=True), "P1 SLAP", "P3 SLAP", "P2 SLAP")
    assert table.hand(s, 2) == table.bag("Y1 Y2 R1 G1")
    assert table.discard(s) == ["R9", "W+4"] and table.turn(s) == (1, "RESPOND")
    s = table.ok(s, "P1 CHALLENGE")
    assert table.discard(s) == ["R9"] and table.colour(s) == "R"
    assert table.hand(s, 0) == table.bag("W+4 R2")


def test_c_uno_8_an_h13_refill_keeps_the_card_under_a_last_wild_draw_four(table):
    # H13: P0 at stage 3 sheds his last card, a W+4, with the stock empty; his
    # refill of 2 restocks, and the R2 under the W+4 stays out of it, so that
    # a guilty challenge could restore it. It was shuffled in: the answer was
    # a state the engine itself refused (challengeable without the card under).
    opts = {"seven_rounds": True}
    hands = {0: "W+4", 1: "Y1 Y2", 2: "B1 B2"}
    s = table.build(discard="G5 B7 R2", hands=hands, stock="", stages=[3, 7, 7, 7], options=opts)
    s = table.ok(s, table.play(0, "W+4", "G"))
    api.check_state(s)
    assert table.discard(s) == ["R2", "W+4"]
    assert table.hand(s, 0) == table.bag("G5 B7")
    assert s.uno.challengeable and table.turn(s) == (1, "RESPOND")
    s = table.ok(s, "P1 CHALLENGE")  # innocent (his last card): P1 draws what there is
    api.check_state(s)
    assert not s.uno.challengeable and table.discard(s) == ["W+4"]  # R2 now restocked
