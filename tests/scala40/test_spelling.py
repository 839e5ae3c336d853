"""K-S40-2: every move has one spelling — the one listed, printed and stored —
and a move written in another spelling of the same move is accepted as that
move (`Scala40.canonical_move`, read by the engine before any rule); a
spelling that could be two different moves stays refused as written. P is
seat 0, to act; melds on the table were laid by seat 1 unless said otherwise."""

from __future__ import annotations

import pytest

from croupier.engine import api, cards
from croupier.games.scala40 import GAME
from croupier.v1 import game_pb2, service_pb2

MINE = (0, "[2♠ 3♠ 4♠]")
# Twelve hearts, 2 to K: a natural A♥ fits both ends (before the 2, after the K).
TWELVE = "[2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥]"
WHOLE = "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"


def _answer(state, move, **flags) -> service_pb2.ApplyMoveResponse:  # type: ignore[no-untyped-def]
    return api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move, **flags))


def _accepted_as(table, state, move, listed_text: str, listed: bool = True) -> game_pb2.GameState:  # type: ignore[no-untyped-def]
    """`move` is accepted as the move `listed_text` (listed unless an
    opening the listing leaves out): the answer's notation is that move's,
    and so are the state and the events."""
    if listed:
        assert listed_text in table.legal(state)
    answer = _answer(state, move)
    assert answer.accepted, answer.rejection.message
    assert answer.notation == listed_text
    expected = _answer(state, GAME.parse_notation(listed_text, move.seat))
    assert expected.accepted
    assert answer.state.SerializeToString(deterministic=True) == expected.state.SerializeToString(
        deterministic=True
    )
    assert list(answer.events) == list(expected.events)
    check = _answer(state, move, validate_only=True)
    assert check.accepted and check.notation == listed_text and not check.HasField("state")
    return answer.state


# -- openings and melds as the spec writes them ----------------------------------------------


def test_t_s40_01_as_the_spec_writes_it(table):
    """`Open([8♣ 9♣ JK→10♣], [5♥ 5♦ 5♠])`: the set in the spec's order."""
    s = table.build(hands={0: "8♣ 9♣ JK 5♥ 5♦ 5♠ K♠ 2♦"})
    move = table.open(s, 0, "[8♣ 9♣ JK→10♣]", "[5♥ 5♦ 5♠]", raw=True)
    s = _accepted_as(table, s, move, "OPEN [8C 9C RJ=10C] [5D 5H 5S]", listed=False)
    assert table.melds(s) == ["[8♣ 9♣ JK→10♣]", "[5♦ 5♥ 5♠]"]


def test_t_s40_03_as_the_spec_writes_it(table):
    """`Open([A♥ A♠ A♦])` = 33: below 40 (not SET_NOT_IN_ORDER); 42 with V5."""
    hand = {0: "A♥ A♠ A♦ 7♣ 9♦ Q♠"}
    s = table.build(hands=hand)
    assert table.reason(s, table.open(s, 0, "[A♥ A♠ A♦]", raw=True)) == "OPENING_BELOW_40"
    s = table.build(hands=hand, options={"court_values_11_14": True})
    after = _accepted_as(table, s, table.open(s, 0, "[A♥ A♠ A♦]", raw=True), "OPEN [AD AH AS]")
    assert table.melds(after) == ["[A♦ A♥ A♠]"]
    assert [e.points for e in _answer(s, table.open(s, 0, "[A♥ A♠ A♦]", raw=True)).events][0] == 42


def test_k_s40_2_a_sequence_written_high_to_low(table):
    """§1.6 writes `[9♥ 8♥ 7♥]`; it was SEQUENCE_NOT_CONSECUTIVE."""
    s = table.build(hands={0: "9♥ 8♥ 7♥ 2♦ 5♣"}, melds=[MINE])
    s = _accepted_as(table, s, table.meld(s, 0, "[9♥ 8♥ 7♥]"), "MELD [7H 8H 9H]")
    assert table.melds(s)[-1] == "[7♥ 8♥ 9♥]"


@pytest.mark.parametrize(
    ("written", "listed"),
    [
        ("[9♥ JK→8♥ 7♥]", "MELD [7H RJ=8H 9H]"),
        ("[JK→10♥ 9♥ 8♥ 7♥]", "MELD [7H 8H 9H RJ=10H]"),
        ("[3♥ 2♥ JK→A♥]", "MELD [RJ=AH 2H 3H]"),
    ],
)
def test_k_s40_2_a_sequence_with_a_joker_in_another_order(table, written, listed):
    """High to low, each joker at the place of its card: the same meld."""
    s = table.build(hands={0: "9♥ 8♥ 7♥ 3♥ 2♥ JK 5♣"}, melds=[MINE])
    _accepted_as(table, s, table.meld(s, 0, written), listed)


@pytest.mark.parametrize(
    "written", ["[JK→9♥ 7♥ 8♥]", "[7♥ JK→6♥ 8♥]", "[8♥ 9♥ JK→6♥ 7♥]", "[JK→A♥ 3♥ 2♥]"]
)
def test_r_s40_28_a_joker_out_of_the_place_of_its_card_is_refused(table, written):
    """R-S40-28: "in a sequence the identity follows from the position … the
    declared identity must make the meld valid (… correct position in a
    sequence)". Naturals may be written in another order (K-S40-2); a joker
    may not: `[JK→9♥ 7♥ 8♥]` is not `[7♥ 8♥ JK→9♥]` (version 7)."""
    s = table.build(hands={0: "9♥ 8♥ 7♥ 3♥ 2♥ JK 5♣"}, melds=[MINE])
    assert table.reason(s, table.meld(s, 0, written)) == "JOKER_IDENTITY_DOES_NOT_FIT"


@pytest.mark.parametrize(
    ("written", "listed"),
    [
        ("[A♥ K♥ Q♥]", "MELD [QH KH AH]"),
        ("[K♥ A♥ Q♥]", "MELD [QH KH AH]"),
        ("[A♥ JK→K♥ Q♥]", "MELD [QH RJ=KH AH]"),
        ("[3♥ A♥ 2♥]", "MELD [AH 2H 3H]"),
        ("[2♥ 3♥ A♥]", "MELD [AH 2H 3H]"),
    ],
)
def test_k_s40_2_an_ace_goes_where_the_other_cards_put_it(table, written, listed):
    """[A♥ 2♥ 3♥] or [Q♥ K♥ A♥]: the other cards decide, whatever the order."""
    s = table.build(hands={0: "A♥ K♥ Q♥ 3♥ 2♥ JK 5♣"}, melds=[MINE])
    _accepted_as(table, s, table.meld(s, 0, written), listed)


def test_k_s40_2_two_jokers_keep_their_identities(table):
    """With V15, RJ=6♥ BJ=9♥ and RJ=9♥ BJ=6♥ are two moves: each keeps its own."""
    s = table.build(
        hands={0: "JK JK 7♥ 8♥ 5♣"}, melds=[MINE], options={"max_jokers_per_meld": "UNLIMITED"}
    )
    red, black = cards.RED_JOKER, cards.BLACK_JOKER
    move = game_pb2.Move(seat=0)
    move.scala40.meld.meld.cards.extend([black, table.c("8♥"), table.c("7♥"), red])
    move.scala40.meld.meld.joker_as.extend([table.c("9♥"), table.c("6♥")])
    _accepted_as(table, s, move, "MELD [RJ=6H 7H 8H BJ=9H]")
    move.scala40.meld.meld.cards[:] = [red, table.c("8♥"), table.c("7♥"), black]
    _accepted_as(table, s, move, "MELD [BJ=6H 7H 8H RJ=9H]")


def test_k_s40_2_a_whole_suit_out_of_order_stays_refused(table):
    """A♥ to K♥ is two melds (the ace low, worth 1, or high, worth 11): in an
    order that is neither, nor either backwards, it is no one move."""
    s = table.build(hands={0: WHOLE + " 5♣"}, melds=[MINE])
    listed = table.legal(s)
    low, high = (
        "MELD [AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH]",
        "MELD [2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH]",
    )
    assert low in listed and high in listed
    scrambled = "[5♥ A♥ 2♥ 3♥ 4♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥]"
    answer = _answer(s, table.meld(s, 0, scrambled))
    assert not answer.accepted
    assert answer.notation == "MELD [5H AH 2H 3H 4H 6H 7H 8H 9H 10H JH QH KH]"
    assert table.reason(s, table.meld(s, 0, scrambled)) == "ACE_IN_MIDDLE_OF_SEQUENCE"
    # Backwards, each is one meld: written high to low.
    backwards = " ".join(WHOLE.split()[::-1])
    _accepted_as(table, s, table.meld(s, 0, f"[{backwards}]"), low)
    _accepted_as(table, s, table.meld(s, 0, f"[A♥ {backwards.removesuffix(' A♥')}]"), high)


def test_k_s40_2_fourteen_cards_with_a_joker_as_the_other_ace(table):
    """R-S40-25: the joker low or high is two melds; written backwards, one."""
    s = table.build(hands={0: WHOLE + " JK"}, melds=[MINE], options={"close_without_discard": True})
    backwards = " ".join(WHOLE.split()[::-1])
    _accepted_as(
        table,
        s,
        table.meld(s, 0, f"[JK→A♥ {backwards}]"),
        "MELD [AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH RJ=AH]",
    )
    scrambled = "[5♥ A♥ 2♥ 3♥ 4♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ JK→A♥]"
    assert table.reason(s, table.meld(s, 0, scrambled)) == "ACE_IN_MIDDLE_OF_SEQUENCE"


def test_k_s40_2_cards_that_are_no_meld_in_any_order_keep_their_rejection(table):
    s = table.build(hands={0: "5♥ 7♥ 8♥ 9♣"}, melds=[MINE])
    answer = _answer(s, table.meld(s, 0, "[8♥ 5♥ 7♥]"))
    assert not answer.accepted
    assert answer.notation == "MELD [8H 5H 7H]"
    assert table.reason(s, table.meld(s, 0, "[8♥ 5♥ 7♥]")) == "SEQUENCE_NOT_CONSECUTIVE"


def test_k_s40_2_a_respelled_move_keeps_its_stale_move_guard(table):
    s = table.build(hands={0: "J♠ J♣ J♦ 9♣ 4♦"}, melds=[MINE])
    move = table.meld(s, 0, "[J♠ J♣ J♦]", raw=True)
    move.seen_move_number = s.move_number
    assert table.reason(s, move) == "ACCEPTED"
    move.seen_move_number = s.move_number + 1
    assert table.reason(s, move) == "STALE_STATE"


# -- V23 and V17: an undeclared set joker ------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "identity"),
    [("[10♥ 10♠ JK]", "10♣"), ("[JK 10♥ 10♠]", "10♦"), ("[10♠ 10♥ JK]", "10♦")],
)
def test_v23_reads_the_joker_where_it_is_written(table, written, identity):
    """R-S40-29, unchanged: the neighbour decides the suit (naturals of two
    colours: the other suit of the neighbour's colour), so the order written
    is the input; the set is then laid in set order with the joker declared."""
    s = table.build(
        hands={0: "10♥ 10♠ JK 2♦ 9♥"},
        melds=[MINE],
        options={"set_joker_positional_convention": True},
    )
    s = table.ok(s, table.meld(s, 0, written, raw=True))
    assert table.melds(s)[-1] == f"[10♥ 10♠ JK→{identity}]"


def test_v23_a_joker_in_the_middle_still_needs_a_declaration(table):
    s = table.build(
        hands={0: "7♥ 7♠ JK 2♦ 9♥"}, melds=[MINE], options={"set_joker_positional_convention": True}
    )
    assert table.reason(s, table.meld(s, 0, "[7♥ JK 7♠]", raw=True)) == "JOKER_MUST_BE_DECLARED"
    # Declared, any order is the set.
    _accepted_as(table, s, table.meld(s, 0, "[7♠ JK→7♦ 7♥]", raw=True), "MELD [7H 7S RJ=7D]")


def test_v17_off_an_undeclared_joker_goes_last(table):
    s = table.build(
        hands={0: "7♥ 7♠ JK 2♦ 9♥"}, melds=[MINE], options={"declare_ambiguous_joker": False}
    )
    s = _accepted_as(table, s, table.meld(s, 0, "[JK 7♠ 7♥]", raw=True), "MELD [7H 7S RJ]")
    assert table.melds(s)[-1] == "[7♥ 7♠ JK]"


# -- lay-offs -----------------------------------------------------------------------------------


def test_k_s40_2_a_joker_laid_on_a_sequence_with_the_card_it_stands_for(table):
    s = table.build(hands={0: "JK 4♦ K♣"}, melds=[MINE, "[6♥ 7♥ 8♥]"])
    low = "LAY RJ ON 2 LOW"
    after = _accepted_as(table, s, table.lay(s, 0, "JK", 2, "low", joker_as="5♥"), low)
    assert table.melds(after)[1] == "[JK→5♥ 6♥ 7♥ 8♥]"
    _accepted_as(table, s, table.lay(s, 0, "JK", 2, joker_as="5♥"), low)
    _accepted_as(table, s, table.lay(s, 0, "JK", 2, joker_as="9♥"), "LAY RJ ON 2 HIGH")
    # The card of the other end, or of no end: refused as written.
    assert (
        table.reason(s, table.lay(s, 0, "JK", 2, "high", joker_as="5♥")) == "LAY_OFF_DOES_NOT_FIT"
    )
    assert table.reason(s, table.lay(s, 0, "JK", 2, joker_as="10♥")) == "LAY_OFF_DOES_NOT_FIT"


def test_k_s40_2_a_natural_laid_on_a_sequence_without_its_end(table):
    s = table.build(hands={0: "9♥ 5♥ K♣"}, melds=[MINE, "[6♥ 7♥ 8♥]"])
    after = _accepted_as(table, s, table.lay(s, 0, "9♥", 2), "LAY 9H ON 2 HIGH")
    assert table.melds(after)[1] == "[6♥ 7♥ 8♥ 9♥]"
    _accepted_as(table, s, table.lay(s, 0, "5♥", 2), "LAY 5H ON 2 LOW")
    # An ace goes where the sequence lets it.
    s = table.build(hands={0: "A♥ 5♦ K♣"}, melds=[MINE, "[J♥ Q♥ K♥]"])
    _accepted_as(table, s, table.lay(s, 0, "A♥", 2), "LAY AH ON 2 HIGH")


def test_k_s40_2_a_card_that_fits_both_ends_without_an_end_stays_refused(table):
    """Never a guess between two moves: the A♥ on twelve hearts 2 to K goes
    before the 2 (worth 1) or after the K (worth 11)."""
    s = table.build(hands={0: "A♥ JK 4♦"}, melds=[MINE, TWELVE])
    listed = table.legal(s)
    assert "LAY AH ON 2 LOW" in listed and "LAY AH ON 2 HIGH" in listed
    assert table.reason(s, table.lay(s, 0, "A♥", 2)) == "LAY_OFF_DOES_NOT_FIT"
    assert table.reason(s, table.lay(s, 0, "JK", 2, joker_as="A♥")) == "LAY_OFF_DOES_NOT_FIT"
    _accepted_as(table, s, table.lay(s, 0, "A♥", 2, "low"), "LAY AH ON 2 LOW")
    _accepted_as(table, s, table.lay(s, 0, "JK", 2, "high", joker_as="A♥"), "LAY RJ ON 2 HIGH")


def test_k_s40_2_a_lay_off_on_a_set_is_written_as_before(table):
    s = table.build(hands={0: "JK 5♦ K♣"}, melds=[MINE, "[5♣ 5♥ 5♠]"])
    _accepted_as(table, s, table.lay(s, 0, "5♦", 2), "LAY 5D ON 2")
    _accepted_as(table, s, table.lay(s, 0, "JK", 2, joker_as="5♦"), "LAY RJ=5D ON 2")
    assert table.reason(s, table.lay(s, 0, "5♦", 2, "low")) == "LAY_OFF_DOES_NOT_FIT"


# -- R-S40-28: an identity the place forces -------------------------------------------------------


@pytest.mark.parametrize("written", ["[JK 7♥ 8♥]", "[8♥ 7♥ JK]"])
def test_r_s40_28_a_sequence_joker_left_undeclared_is_the_card_of_its_place(table, written):
    """R-S40-28: "In a sequence the identity follows from the position
    ([JK 7♥ 8♥] → JK = 6♥, not 9♥)"; written high to low, the same place."""
    s = table.build(hands={0: "JK 7♥ 8♥ 2♦ K♣"}, melds=[MINE])
    s = _accepted_as(table, s, table.meld(s, 0, written, raw=True), "MELD [RJ=6H 7H 8H]")
    assert table.melds(s)[-1] == "[JK→6♥ 7♥ 8♥]"


def test_r_s40_28_a_four_card_set_takes_the_one_suit_missing(table):
    """R-S40-28: "In a 4-card set the identity is forced"."""
    s = table.build(hands={0: "7♣ 7♦ 7♠ JK K♠ 2♥"}, melds=[MINE])
    _accepted_as(table, s, table.meld(s, 0, "[7♣ 7♦ 7♠ JK]", raw=True), "MELD [7C 7D 7S RJ=7H]")
    # ... and a joker laid undeclared on a set of three makes one.
    s = table.build(hands={0: "JK 5♦ K♣"}, melds=[MINE, "[5♣ 5♥ 5♠]"])
    _accepted_as(table, s, table.lay(s, 0, "JK", 2), "LAY RJ=5D ON 2")


def test_r_s40_28_a_three_card_sets_joker_is_still_declared(table):
    """In 7♣-7♠-JK the joker "could replace 7♥ or 7♦, it must be declared"
    (V17 on, the default): nothing is forced, nothing is guessed."""
    s = table.build(hands={0: "7♣ 7♠ JK K♠ 2♥"}, melds=[MINE])
    assert table.reason(s, table.meld(s, 0, "[7♣ 7♠ JK]", raw=True)) == "JOKER_MUST_BE_DECLARED"


# -- V14 splits ---------------------------------------------------------------------------------


def test_k_s40_2_a_split_with_its_parts_in_another_order(table):
    s = table.build(
        hands={0: "4♣ 6♣ K♠ 2♦"},
        melds=[MINE, "[5♣ 6♣ 7♣ 8♣ 9♣]"],
        options={"sequence_split_max5": True},
    )
    listed = "SPLIT 2 [4C 5C 6C] [6C 7C 8C 9C]"
    _accepted_as(table, s, table.split(s, 0, 2, "[6♣ 7♣ 8♣ 9♣]", "[4♣ 5♣ 6♣]"), listed)
    _accepted_as(table, s, table.split(s, 0, 2, "[9♣ 8♣ 7♣ 6♣]", "[6♣ 5♣ 4♣]"), listed)


# -- the listing --------------------------------------------------------------------------------


@pytest.mark.parametrize("split", [False, True])
def test_k_s40_2_every_listed_move_is_its_own_canonical_form(table, split):
    if split:
        melds = [MINE, "[6♦ 6♠ JK→6♣]", "[5♣ 6♣ 7♣ 8♣ 9♣]", "[3♥ 4♥ 5♥]"]
    else:
        melds = [MINE, TWELVE, "[6♦ 6♠ JK→6♣]", "[5♣ 6♣ 7♣ 8♣]"]
    s = table.build(
        hands={0: "A♥ JK 4♦ 6♣ 5♣ 7♣ K♥ Q♥ 9♣ 2♥ 6♥"},
        melds=melds,
        options={"sequence_split_max5": split},
    )
    request = service_pb2.ListLegalMovesRequest(state=s, seat=0)
    listed = api.list_legal_moves(request).moves
    assert len(listed) > 5
    assert split == any(m.notation.startswith("SPLIT") for m in listed)
    for legal in listed:
        assert GAME.canonical_move(s, legal.move) is legal.move


# -- what a refused lay-off on a sequence says (engine/melds.sequence_lay_off_fault) --------


def test_a_natural_that_fits_no_end_says_which_cards_do(table):
    s = table.build(hands={0: "6♣ 9♦ K♣"}, melds=[MINE, "[4♦ 5♦ 6♦]"])
    rejection = table.rejection(s, table.lay(s, 0, "6♣", 2))
    assert (rejection.message, rejection.rule) == (
        "6C on [4D 5D 6D]: it fits no end (LOW takes 3D, HIGH takes 7D)",
        "§1.8",
    )


def test_the_card_a_joker_stands_for_is_a_swap_not_a_lay_off(table):
    s = table.build(hands={0: "6♥ 9♦ K♣"}, melds=[MINE, "[JK→6♥ 7♥ 8♥]"])
    rejection = table.rejection(s, table.lay(s, 0, "6♥", 2))
    assert (
        rejection.message
        == "6H on [RJ=6H 7H 8H]: a joker stands for 6H there; take it (SWAP 6H ON 2)"
    )
    assert "SWAP 6H ON 2" in table.legal(s)
