"""A Queen played without a suit names its own suit (RULES.md A28;
spelling.py): the sources' default, read as the move's one spelling `QH>H`
on every path, while ListLegalMoves, the notation and the state keep that
spelling."""

from __future__ import annotations

from typing import Any

from croupier.engine import api
from croupier.engine.session import Session
from croupier.games.hundred_and_one import notation
from croupier.v1 import cards_pb2, game_pb2, service_pb2

HEARTS, CLUBS = cards_pb2.SUIT_HEARTS, cards_pb2.SUIT_CLUBS


def _bare_queen(table, seat: int, card: str) -> game_pb2.Move:
    move = table.play(seat, card)
    move.hundred_and_one.play.ClearField("named_suit")
    return move


def _answer(state: game_pb2.GameState, move: game_pb2.Move, **flags: Any) -> bytes:
    trusted = flags.pop("trusted", False)
    request = service_pb2.ApplyMoveRequest(state=state, move=move, seat_events=True, **flags)
    return api.apply_move(request, trusted=trusted).SerializeToString(deterministic=True)


def test_a_queen_naming_no_suit_names_its_own_on_every_path(table):
    s = table.build("hd", 3, top="10♥", hands={0: "Q♣ 10♣ …"})
    bare, named = _bare_queen(table, 0, "Q♣"), table.play(0, "Q♣", "♣")
    for flags in ({}, {"trusted": True}, {"validate_only": True}, {"next_legal_moves": True}):
        assert _answer(s, bare, **flags) == _answer(s, named, **flags), flags
    answer = table.apply(s, bare)
    assert answer.accepted and answer.notation == "QC>C"
    assert answer.state.hundred_and_one.active_suit == CLUBS
    # C2: after a Queen only the named suit and other Queens follow.
    assert table.reason(answer.state, table.play(1, "10♦")) != "ACCEPTED"


def test_the_listing_keeps_the_one_spelling_that_names_the_suit(table):
    s = table.build("hd", 3, top="10♥", hands={0: "Q♥ 7♠ …"})
    assert {"PLAY Q♥>♥", "PLAY Q♥>♠", "PLAY Q♥>♦", "PLAY Q♥>♣"} <= table.legal(s, 0)
    assert all(
        m.move.hundred_and_one.play.named_suit
        for m in api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=s, seat=0)).moves
        if m.move.hundred_and_one.HasField("play") and m.notation.startswith("Q")
    )


def test_the_text_qh_is_the_queen_naming_hearts(table):
    s = table.build("hd", 3, top="10♥", hands={0: "Q♥ 7♠ …"})
    move = notation.parse_notation("QH", 0)
    answer = table.apply(s, move)
    assert answer.accepted and answer.notation == "QH>H"
    assert answer.state.hundred_and_one.active_suit == HEARTS


def test_a_session_reads_the_bare_queen_too(table):
    s = table.build("hd", 3, top="10♥", hands={0: "Q♣ 10♣ …"})
    session = Session(s)
    session.apply(_bare_queen(table, 0, "Q♣"))
    expected = table.apply(s, table.play(0, "Q♣", "♣")).state
    assert session.state.SerializeToString(deterministic=True) == expected.SerializeToString(
        deterministic=True
    )


def test_a_card_that_is_no_queen_still_names_no_suit(table):
    s = table.build("hd", 3, top="10♥", hands={0: "Q♣ 10♣ …"})
    ten = table.play(0, "10♣")
    assert table.apply(s, ten).notation == "10C"
