"""Every consistency check of a «Мост» state and every move-shape check,
each reached by a hand-broken input, with its field path."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.engine import api, cards
from croupier.engine.errors import InvalidInput
from croupier.v1 import game_pb2, most_pb2, service_pb2
from spec_notation import c


def refused(state: game_pb2.GameState) -> tuple[str, str]:
    with pytest.raises(InvalidInput) as error:
        api.check_state(state)
    return error.value.violations[0]


def position(table) -> game_pb2.GameState:
    return table.build(
        hands={0: "9♣ 9♥ 9♠ 4♦", 1: "K♠ K♦"},
        melds=["[8♣ JK→9♣ 10♣]", (0, "[2♠ 3♠ 4♠]")],
        bridge="5♦",
    )


def swap_cards(state: game_pb2.GameState, a: int, b: int) -> None:
    """Exchange two cards wherever they lie (conservation still holds)."""
    d = state.most
    fields = [h.cards for h in d.hands] + [d.stock, d.bridge] + [m.cards for m in d.melds]
    for field in fields:
        for i, v in enumerate(field):
            if v == a:
                field[i] = b
            elif v == b:
                field[i] = a


BREAKS: list[tuple[str, Callable[[game_pb2.GameState], None], str, str]] = [
    ("players", lambda s: setattr(s.options.most, "players", 2), "state.options.most.players",
     "says 2 players but the state has 3 seats"),
    ("hands", lambda s: s.most.hands.add(), "state.most.hands", "needs one entry per seat (3)"),
    ("melded", lambda s: s.most.melded.append(True), "state.most.melded",
     "needs one entry per seat (3)"),
    ("duplicate", lambda s: s.most.hands[1].cards.append(c("5♦")), "state.most.hands[1].cards",
     "card 5D (17) appears too often"),
    ("team", lambda s: (setattr(s.seats[1], "team", 1), setattr(s.seats[2], "team", 1)),
     "state.seats[1].team",
     "«Мост» has no partnerships: must be 0"),
    ("eliminated", lambda s: setattr(s.seats[2], "eliminated", True), "state.seats[2].eliminated",
     "nobody leaves a «Мост» match"),
    ("score", lambda s: setattr(s.seats[0], "score", 10**13), "state.seats[0].score",
     "a total is within ±1000000000000"),
    ("dealer", lambda s: setattr(s.most, "dealer", 3), "state.most.dealer",
     "seat 3 does not exist"),
    ("meld id", lambda s: setattr(s.most.melds[1], "id", 1), "state.most.melds[1].id",
     "ids are distinct, from 1 and below next_meld_id"),
    ("owner", lambda s: setattr(s.most.melds[0], "owner", 2), "state.most.melds[0].owner",
     "must be a seat that has melded this hand"),
    ("joker_as count", lambda s: s.most.melds[0].joker_as.append(c("7♣")),
     "state.most.melds[0].joker_as", "needs one identity per joker"),
    ("joker_as card", lambda s: s.most.melds[0].joker_as.__setitem__(0, cards.RED_JOKER),
     "state.most.melds[0].joker_as", "an identity is a suited card; got 53"),
    ("credited count", lambda s: s.most.melds[0].credited_to.append(0),
     "state.most.melds[0].credited_to", "needs one seat per card"),
    ("credited seat", lambda s: s.most.melds[0].credited_to.__setitem__(2, 7),
     "state.most.melds[0].credited_to", "names a seat that does not exist"),
    ("not a meld", lambda s: swap_cards(s, c("8♣"), c("K♠")), "state.most.melds[0].cards",
     "not a valid meld: [KS RJ=9C 10C]: a meld is one rank in different suits"),
    ("R-M-13", lambda s: swap_cards(s, c("9♣"), c("5♦")), "state.most.melds[0]",
     "9C lies on the table twice: a card and a joker standing for it (R-M-13)"),
    ("reshuffle", lambda s: setattr(s.most, "table_cards_at_reshuffle", 7),
     "state.most.table_cards_at_reshuffle", "more than the cards on the table (C-M-2)"),
    ("phase", lambda s: setattr(s.most, "phase", 9), "state.most.phase", "unknown phase 9"),
    ("deal over", lambda s: setattr(s.most, "phase", most_pb2.MOST_PHASE_DEAL_OVER),
     "state.most.phase", "must be DEAL_OVER exactly when the match phase is not in progress"),
    ("drawn card", lambda s: setattr(s.most, "drawn_card", 60), "state.most.drawn_card",
     "not a card: 60"),
    ("drawn in draw", lambda s: (setattr(s.most, "phase", most_pb2.MOST_PHASE_DRAW),
                                 setattr(s.most, "drawn_card", c("4♦"))),
     "state.most.drawn_card", "is set only in phase PLAY"),
    ("owed in draw", lambda s: (setattr(s.most, "phase", most_pb2.MOST_PHASE_DRAW),
                                setattr(s.most, "bridge_card_owed", True)),
     "state.most.bridge_card_owed", "is set only in phase PLAY"),
    ("both draws", lambda s: (setattr(s.most, "drawn_card", c("4♦")),
                              setattr(s.most, "bridge_card", c("9♥"))),
     "state.most.bridge_card", "a turn draws from the stock or the bridge, not both"),
    ("bridge card place", lambda s: setattr(s.most, "bridge_card", c("K♠")),
     "state.most.bridge_card", "the card drawn or taken is in the hand or on the table"),
    ("drawn card place", lambda s: setattr(s.most, "drawn_card", c("K♠")),
     "state.most.drawn_card", "the card drawn or taken is in the hand or on the table"),
    ("owed on table", lambda s: (setattr(s.most, "bridge_card", c("2♠")),
                                 setattr(s.most, "bridge_card_owed", True)),
     "state.most.bridge_card_owed", "the bridge card still owed to a meld is in the hand"),
    ("dead end", lambda s: (setattr(s.most, "bridge_card", c("4♦")),
                            setattr(s.most, "bridge_card_owed", True)),
     "state.most.hands[0].cards", "the turn of the seat to act cannot be completed (C-M-1)"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "breaks", "field", "problem"), BREAKS, ids=[b[0] for b in BREAKS])
def test_a_broken_state_is_refused_at_its_field(table, name, breaks, field, problem):
    state = position(table)
    breaks(state)
    got_field, got_problem = refused(state)
    assert got_field == field
    assert problem in got_problem


def test_the_seat_to_act_holds_a_card(table):
    s = table.build(hands={0: "9♣ 4♦"}, melds=[(0, "[2♠ 3♠ 4♠]")], spare=1, stock="")
    moved = list(s.most.hands[0].cards)
    del s.most.hands[0].cards[:]
    s.most.hands[1].cards.extend(moved)
    assert refused(s) == ("state.most.hands[0].cards", "the seat to act holds a card")


SHAPES = [
    (lambda m: m.most.SetInParent(), "move.most", "needs one action"),
    (lambda m: setattr(m.most.take_bridge, "card", 0), "move.most.take_bridge.card",
     "needs a card of the French deck; got 0"),
    (lambda m: m.most.meld.SetInParent(), "move.most.meld.cards", "a meld needs cards"),
    (lambda m: m.most.meld.cards.extend([c("5♥"), 99]), "move.most.meld.cards",
     "needs a card of the French deck; got 99"),
    (lambda m: m.most.meld.cards.extend([c("5♥"), cards.RED_JOKER, c("7♥")]),
     "move.most.meld.joker_as", "one identity per joker in the meld (1); got 0"),
    (lambda m: (m.most.meld.cards.extend([c("5♥"), cards.RED_JOKER, c("7♥")]),
                m.most.meld.joker_as.append(cards.BLACK_JOKER)),
     "move.most.meld.joker_as", "an identity is a suited card; got 54"),
    (lambda m: m.most.meld.cards.extend([c("5♥"), c("5♥"), c("5♦")]), "move.most.meld.cards",
     "names a card twice"),
    (lambda m: setattr(m.most.lay_off, "meld_id", 1), "move.most.lay_off.card",
     "needs a card of the French deck; got 0"),
    (lambda m: (setattr(m.most.lay_off, "card", c("5♥")), setattr(m.most.lay_off, "end", 5)),
     "move.most.lay_off.end", "unknown end 5"),
    (lambda m: (setattr(m.most.lay_off, "card", c("5♥")),
                setattr(m.most.lay_off, "joker_as", c("5♦"))),
     "move.most.lay_off.joker_as", "only a joker declares an identity"),
    (lambda m: (setattr(m.most.lay_off, "card", cards.RED_JOKER),
                setattr(m.most.lay_off, "joker_as", cards.BLACK_JOKER)),
     "move.most.lay_off.joker_as", "must be a suited card"),
    (lambda m: m.most.exchange_joker.SetInParent(), "move.most.exchange_joker.card",
     "needs a card of the French deck; got 0"),
    (lambda m: m.most.discard.SetInParent(), "move.most.discard.card",
     "needs a card of the French deck; got 0"),
]  # fmt: skip


@pytest.mark.parametrize(("build", "field", "problem"), SHAPES)
def test_a_malformed_move_is_refused_at_its_field(table, build, field, problem):
    state = position(table)
    move = game_pb2.Move(seat=0)
    build(move)
    with pytest.raises(InvalidInput) as error:
        api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move))
    got_field, got_problem = error.value.violations[0]
    assert got_field == field
    assert problem in got_problem


def test_an_empty_meld_beside_a_valid_one_is_refused_after_the_valid_table_was_seen(table):
    # Regression: tables were remembered by their melds' bytes joined, and an empty
    # meld's bytes are none — [m1, {}] passed as the [m1] checked before.
    state = position(table)
    api.check_state(state)
    state.most.melds.add()
    field, problem = refused(state)
    assert field == "state.most.melds[2].id"
    state.most.melds[2].id = 3
    state.most.next_meld_id = 4
    state.most.melds[2].owner = 0
    assert refused(state) == (
        "state.most.melds[2].cards",
        "not a valid meld: []: a meld has 3 or more cards",
    )


def test_an_exchange_since_the_reshuffle_needs_a_meld_on_the_table(table) -> None:
    state = table.build(hands={0: "9♣ 9♥ 4♦", 1: "K♠ K♦"}, bridge="5♦")
    api.check_state(state)
    state.most.exchanged_since_reshuffle = True
    assert refused(state) == (
        "state.most.exchanged_since_reshuffle",
        "no meld on the table to exchange a joker in",
    )


def test_a_reshuffled_hand_needs_the_reshuffle_option(table) -> None:
    # C-M-2, R-M-23: only RESHUFFLE_BRIDGE turns the bridge into a stock.
    state = table.build(hands={0: "9♣ 9♥ 4♦", 1: "K♠ K♦"}, bridge="5♦")
    api.check_state(state)
    state.most.reshuffled = True
    assert refused(state) == (
        "state.most.reshuffled",
        "the bridge becomes the stock only under RESHUFFLE_BRIDGE (R-M-23)",
    )
    options = {"stock_exhausted": "RESHUFFLE_BRIDGE"}
    state = table.build(hands={0: "9♣ 9♥ 4♦", 1: "K♠ K♦"}, bridge="5♦", options=options)
    state.most.reshuffled = True
    api.check_state(state)
