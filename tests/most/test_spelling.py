"""K-M-1: every move has one spelling — the one listed, printed and stored —
and a move written in another spelling of the same move is accepted as
that move (`Most.canonical_move`, read by the engine before any rule); a
spelling that could be two different moves is refused, saying how to write
it. P is seat 0, to act; melds on the table were laid by seat 1 unless said
otherwise."""

from __future__ import annotations

from croupier.engine import api, cards
from croupier.games.most import GAME
from croupier.v1 import game_pb2, service_pb2

MINE = (0, "[2♠ 3♠ 4♠]")
# Twelve hearts, 2 to K: the A♥ fits both ends (before the 2, after the K).
TWELVE = "[2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥]"


def _answer(table, state, move, **flags) -> service_pb2.ApplyMoveResponse:  # type: ignore[no-untyped-def]
    return api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move, **flags))


def _accepted_as(table, state, move, listed_text: str) -> game_pb2.GameState:  # type: ignore[no-untyped-def]
    """`move` is accepted as the listed move `listed_text`: the answer's
    notation is the listed one, and the state is the one the listed move makes."""
    assert listed_text in table.legal(state)
    answer = _answer(table, state, move)
    assert answer.accepted, answer.rejection.message
    assert answer.notation == listed_text
    listed = GAME.parse_notation(listed_text, move.seat)
    expected = _answer(table, state, listed)
    assert answer.state.SerializeToString(deterministic=True) == expected.state.SerializeToString(
        deterministic=True
    )
    assert list(answer.events) == list(expected.events)
    check = _answer(table, state, move, validate_only=True)
    assert check.accepted and check.notation == listed_text and not check.HasField("state")
    return answer.state


# -- melds ------------------------------------------------------------------------------------


def test_k_m_1_a_set_in_the_spec_suit_order_is_the_set(table):
    """An external checker writing suits ♠ ♥ ♦ ♣ (the spec's order)."""
    s = table.build(hands={0: "9♠ 9♥ 9♦ 9♣ 4♦"})
    s = _accepted_as(table, s, table.meld(s, 0, "[9♠ 9♥ 9♦ 9♣]", raw=True), "MELD [9C 9D 9H 9S]")
    assert table.melds(s) == ["[9♣ 9♦ 9♥ 9♠]"]


def test_k_m_1_a_sequence_round_the_corner_written_backwards(table):
    s = table.build(hands={0: "Q♥ K♥ A♥ 2♥ 3♥ 9♣"})
    move = table.meld(s, 0, "[3♥ 2♥ A♥ K♥ Q♥]", raw=True)
    s = _accepted_as(table, s, move, "MELD [QH KH AH 2H 3H]")
    assert table.melds(s) == ["[Q♥ K♥ A♥ 2♥ 3♥]"]


def test_k_m_1_a_sequence_round_the_corner_turned(table):
    s = table.build(hands={0: "Q♥ K♥ A♥ 2♥ 3♥ 9♣"})
    for written in ("[A♥ 2♥ 3♥ Q♥ K♥]", "[2♥ 3♥ Q♥ K♥ A♥]", "[K♥ A♥ 2♥ 3♥ Q♥]"):
        move = table.meld(s, 0, written, raw=True)
        _accepted_as(table, s, move, "MELD [QH KH AH 2H 3H]")


def test_k_m_1_a_joker_keeps_its_identity_in_a_reordered_sequence(table):
    s = table.build(hands={0: "K♠ JK 2♠ 9♣"})
    move = table.meld(s, 0, "[2♠ JK→A♠ K♠]", raw=True)
    s = _accepted_as(table, s, move, "MELD [KS RJ=AS 2S]")
    assert table.melds(s) == ["[K♠ JK→A♠ 2♠]"]


def test_r_m_12_a_joker_out_of_the_place_of_its_card_is_refused(table):
    """R-M-12: "in a run the identity must agree with the position". The
    naturals of a run may be written in another order (K-M-1); a joker may
    not: `[JK→9♥ 7♥ 8♥]` is not `[7♥ 8♥ JK→9♥]` (rules version 5)."""
    s = table.build(hands={0: "7♥ 8♥ JK 4♦"})
    for written in ("[JK→9♥ 7♥ 8♥]", "[7♥ JK→6♥ 8♥]"):
        move = table.meld(s, 0, written, raw=True)
        assert table.reason(s, move) == "JOKER_IDENTITY_DOES_NOT_FIT", written
    s = _accepted_as(table, s, table.meld(s, 0, "[JK→9♥ 8♥ 7♥]", raw=True), "MELD [7H 8H RJ=9H]")


def test_k_m_1_two_jokers_keep_their_identities(table):
    """RJ=9♥ BJ=J♥ and RJ=J♥ BJ=9♥ are two moves: each keeps its own."""
    s = table.build(hands={0: "JK JK 10♥ 4♦"})
    red, black = cards.RED_JOKER, cards.BLACK_JOKER
    move = game_pb2.Move(seat=0)
    move.most.meld.cards.extend([black, table.c("10♥"), red])
    move.most.meld.joker_as.extend([table.c("J♥"), table.c("9♥")])
    _accepted_as(table, s, move, "MELD [RJ=9H 10H BJ=JH]")
    move.most.meld.joker_as[:] = [table.c("9♥"), table.c("J♥")]
    _accepted_as(table, s, move, "MELD [BJ=9H 10H RJ=JH]")


def test_k_m_1_a_whole_suit_laid_in_another_order_is_written_from_its_2(table):
    whole = "5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♥ 3♥ 4♥"
    s = table.build(hands={0: whole + " 9♣"})
    move = table.meld(s, 0, f"[{whole}]", raw=True)
    s = _accepted_as(table, s, move, "MELD [2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH]")


def test_k_m_1_cards_that_are_no_meld_in_any_order_keep_their_rejection(table):
    s = table.build(hands={0: "5♥ 7♥ 8♥ 9♣"})
    answer = _answer(table, s, table.meld(s, 0, "[8♥ 5♥ 7♥]", raw=True))
    assert not answer.accepted
    assert answer.notation == "MELD [8H 5H 7H]"
    assert table.reason(s, table.meld(s, 0, "[8♥ 5♥ 7♥]", raw=True)) == "SEQUENCE_NOT_CONSECUTIVE"


def test_k_m_1_a_respelled_move_keeps_its_stale_move_guard(table):
    s = table.build(hands={0: "J♠ J♣ J♦ 9♣ 4♦"})
    move = table.meld(s, 0, "[J♠ J♣ J♦]", raw=True)
    move.seen_move_number = s.move_number
    assert table.reason(s, move) == "ACCEPTED"
    move.seen_move_number = s.move_number + 1
    assert table.reason(s, move) == "STALE_STATE"


# -- lay-offs -----------------------------------------------------------------------------------


def test_r_m_12_a_joker_laid_on_a_sequence_with_its_card_announced(table):
    """R-M-12/R-M-31: a joker laid off "with a declared identity"."""
    s = table.build(hands={0: "JK 4♦ K♣"}, melds=[MINE, "[5♥ 6♥ 7♥]"])
    high = "LAY RJ ON 2 HIGH"
    after = _accepted_as(table, s, table.lay(s, 0, "JK", 2, "high", joker_as="8♥"), high)
    assert table.melds(after)[1] == "[5♥ 6♥ 7♥ JK→8♥]"
    _accepted_as(table, s, table.lay(s, 0, "JK", 2, joker_as="8♥"), high)
    _accepted_as(table, s, table.lay(s, 0, "JK", 2, joker_as="4♥"), "LAY RJ ON 2 LOW")
    _accepted_as(table, s, table.lay(s, 0, "JK", 2, "high"), high)


def test_r_m_12_a_joker_announced_as_a_card_its_end_does_not_take_is_refused(table):
    s = table.build(hands={0: "JK 4♦ K♣"}, melds=[MINE, "[5♥ 6♥ 7♥]"])
    rejection = table.rejection(s, table.lay(s, 0, "JK", 2, "low", joker_as="8♥"))
    assert table.reason(s, table.lay(s, 0, "JK", 2, "low", joker_as="8♥")) == (
        "LAY_OFF_DOES_NOT_FIT"
    )
    assert rejection.rule == "R-M-31"
    assert rejection.message == (
        "RJ=8H on [5H 6H 7H]: not at its low end (LOW takes 4H, HIGH takes 8H)"
    )
    rejection = table.rejection(s, table.lay(s, 0, "JK", 2, joker_as="9♥"))
    assert rejection.message == "RJ=9H on [5H 6H 7H]: it fits no end (LOW takes 4H, HIGH takes 8H)"


def test_r_m_31_a_natural_laid_on_a_sequence_without_its_end(table):
    s = table.build(hands={0: "8♥ 4♥ K♣"}, melds=[MINE, "[5♥ 6♥ 7♥]"])
    after = _accepted_as(table, s, table.lay(s, 0, "8♥", 2), "LAY 8H ON 2 HIGH")
    assert table.melds(after)[1] == "[5♥ 6♥ 7♥ 8♥]"
    _accepted_as(table, s, table.lay(s, 0, "4♥", 2), "LAY 4H ON 2 LOW")
    # Round the corner: the 2♥ after the A♥.
    s = table.build(hands={0: "2♥ 9♦ K♣"}, melds=[MINE, "[Q♥ K♥ A♥]"])
    _accepted_as(table, s, table.lay(s, 0, "2♥", 2), "LAY 2H ON 2 HIGH")


def test_r_m_31_a_natural_that_fits_no_end_says_which_cards_do(table):
    s = table.build(hands={0: "9♥ 4♦ K♣"}, melds=[MINE, "[5♥ 6♥ 7♥]"])
    rejection = table.rejection(s, table.lay(s, 0, "9♥", 2))
    assert table.reason(s, table.lay(s, 0, "9♥", 2)) == "LAY_OFF_DOES_NOT_FIT"
    assert rejection.message == "9H on [5H 6H 7H]: it fits no end (LOW takes 4H, HIGH takes 8H)"


def test_k_m_1_a_card_that_fits_both_ends_without_an_end_is_refused(table):
    """Never a guess between two moves: the A♥ on twelve hearts 2 to K goes
    before the 2 or after the K, two different melds on the table."""
    s = table.build(hands={0: "A♥ JK 4♦"}, melds=[MINE, TWELVE])
    listed = table.legal(s)
    assert "LAY AH ON 2 LOW" in listed and "LAY AH ON 2 HIGH" in listed
    rejection = table.rejection(s, table.lay(s, 0, "A♥", 2))
    assert table.reason(s, table.lay(s, 0, "A♥", 2)) == "LAY_OFF_DOES_NOT_FIT"
    assert rejection.rule == "R-M-31"
    assert rejection.message == (
        f"AH on {TWELVE.replace('♥', 'H')}: it fits both ends; name one "
        "(LAY AH ON 2 LOW, or LAY AH ON 2 HIGH)"
    )
    assert table.reason(s, table.lay(s, 0, "JK", 2, joker_as="A♥")) == "LAY_OFF_DOES_NOT_FIT"
    # With the end named, each is the listed move.
    _accepted_as(table, s, table.lay(s, 0, "A♥", 2, "low"), "LAY AH ON 2 LOW")
    _accepted_as(table, s, table.lay(s, 0, "JK", 2, "high", joker_as="A♥"), "LAY RJ ON 2 HIGH")


def test_r_m_31_a_lay_off_on_a_set_is_written_as_before(table):
    s = table.build(hands={0: "JK 5♦ K♣"}, melds=[MINE, "[5♣ 5♥ 5♠]"])
    _accepted_as(table, s, table.lay(s, 0, "5♦", 2), "LAY 5D ON 2")
    _accepted_as(table, s, table.lay(s, 0, "JK", 2, joker_as="5♦"), "LAY RJ=5D ON 2")
    assert table.reason(s, table.lay(s, 0, "5♦", 2, "low")) == "LAY_OFF_DOES_NOT_FIT"
    assert table.reason(s, table.lay(s, 0, "JK", 2)) == "LAY_OFF_DOES_NOT_FIT"


def test_k_m_1_every_listed_move_is_its_own_canonical_form(table):
    s = table.build(hands={0: "A♥ JK 4♦ 6♣ 5♣"}, melds=[MINE, TWELVE, "[6♦ 6♠ JK→6♣]"])
    request = service_pb2.ListLegalMovesRequest(state=s, seat=0)
    listed = api.list_legal_moves(request).moves
    assert len(listed) > 5
    for legal in listed:
        assert GAME.canonical_move(s, legal.move) is legal.move


def test_r_m_32_the_card_a_joker_stands_for_is_an_exchange_not_a_lay_off(table):
    s = table.build(hands={0: "5♥ 4♦ K♣"}, melds=[MINE, "[JK→5♥ 6♥ 7♥]"])
    rejection = table.rejection(s, table.lay(s, 0, "5♥", 2))
    assert (
        rejection.message
        == "5H on [RJ=5H 6H 7H]: a joker stands for 5H there; take it (EXCHANGE 5H)"
    )
