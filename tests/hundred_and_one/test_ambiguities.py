"""101's resolutions that the situation rows do not name (RULES.md,
"Resolutions": A2, A3, A16, A22, A23, A26, A27, A35), each pinned by its id
on a hand-built position with the exact result, in every preset it speaks of
and under the option that changes it where there is one.
"""

from __future__ import annotations

import pytest


def turn(table, state):
    """Who is to act and in which phase."""
    return state.current_seat, table.phase(state)


@pytest.mark.parametrize("preset", ["hd", "cl", "ru", "alt"])
def test_a2_a_queen_is_wild_in_every_version_and_names_any_suit(table, preset):
    # 7♦ follows neither the 9♣ nor the ♣: only the Queen may be played, with
    # any of the four suits, the HD Queen too (S-HD only says she names one).
    s = table.build(preset, 2, top="9♣", hands={0: "Q♥ 7♦"})
    assert table.legal(s, 0) == table.queen_plays("Q♥")
    s = table.ok(s, table.play(0, "Q♥", "♦"))
    assert (table.top(s), table.active(s)) == ("Q♥", "♦")
    assert turn(table, s) == (1, "PLAY")


def test_a3_hd_scores_hands_with_the_c1_values(table):
    # S-HD gives no values: C1's (A 11, K 4, Q 3, J 2, 10 10, 9 0, 8 8, 7 7,
    # 6 6); a lone Queen is 3 in HD (the lone-Queen 20 is RU/ALT's).
    hands = {0: "J♥", 1: "A♣ 9♦ K♥ 6♠ J♦ 10♣", 2: "Q♦"}
    s = table.build("hd", 3, top="7♥", hands=hands)
    s = table.ok(s, table.play(0, "J♥"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert table.deal_winners(s) == [0]
    assert table.deal_points(s) == [0, 11 + 0 + 4 + 6 + 2 + 10, 3]


@pytest.mark.parametrize(("preset", "options", "covering"), [
    ("ru", None, 0),
    ("alt", None, 0),
    ("ru", {"six_cover_by": "NEXT"}, 1),
])  # fmt: skip
def test_a16_the_ru_and_alt_six_is_covered_by_its_own_player(table, preset, options, covering):
    s = table.build(
        preset, 3, top="10♦", hands={0: "6♦ J♣ 8♠", 1: "J♠ 8♣"}, stock="K♥ …", options=options
    )
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, "6♦"))
    assert turn(table, s) == (covering, "COVER")
    assert table.hand(s, 1) == p1  # no one draws for a six that is covered
    if covering == 0:
        # J♣ and 8♠ cover neither ♦ nor 6: the player draws for his own six.
        assert table.legal(s, 0) == {"DRAW"}
        assert table.legal(s, 1) == set()


@pytest.mark.parametrize("preset", ["hd", "cl", "ru", "alt"])
def test_a22_a_legal_drawn_card_may_be_kept(table, preset):
    s = table.build(preset, 3, top="10♥", hands={0: "J♠ 8♣"}, stock="J♥ …")
    s = table.ok(s, table.draw(0))
    assert table.drawn(s) == "J♥"
    assert table.legal(s, 0) == {"PLAY J♥", "PASS"}
    s = table.ok(s, table.pass_turn(0))
    assert table.hand(s, 0) == table.bag("J♠ 8♣ J♥")
    assert (table.top(s), turn(table, s)) == ("10♥", (1, "PLAY"))


@pytest.mark.parametrize(("options", "draw"), [
    (None, "MUST_PLAY_LEGAL_CARD"),
    ({"voluntary_draw": True}, "ACCEPTED"),
])  # fmt: skip
def test_a23_a_player_holding_a_legal_card_may_not_draw_instead(table, options, draw):
    s = table.build("cl", 3, top="10♥", hands={0: "J♥ 8♣"}, stock="K♣ …", options=options)
    assert table.reason(s, table.draw(0)) == draw
    assert ("DRAW" in table.legal(s, 0)) == (draw == "ACCEPTED")


@pytest.mark.parametrize("preset", ["hd", "cl", "ru", "alt"])
def test_a26_one_card_is_drawn_by_default_in_every_version(table, preset):
    # The drawn K♣ does not fit: the turn ends with PASS, not another DRAW
    # (UNTIL_PLAYABLE, O7, is the option that draws on).
    s = table.build(preset, 3, top="10♥", hands={0: "J♠ 8♣"}, stock="K♣ 7♥ …")
    s = table.ok(s, table.draw(0))
    assert table.hand(s, 0) == table.bag("J♠ 8♣ K♣")
    assert table.legal(s, 0) == {"PASS"}
    assert table.reason(s, table.draw(0)) == "ALREADY_DRAWN"
    assert table.stock(s)[0] == "7♥"


@pytest.mark.parametrize(("card", "drawn"), [("6♥", 1), ("7♥", 2)])
def test_a27_a_six_makes_the_next_player_draw_one_and_a_seven_two(table, card, drawn):
    # The seeds' counts (6 -> 1, 7 -> 2), not E4's and E6's inverted ones.
    s = table.build("cl", 3, top="10♥", hands={0: f"{card} J♣"}, stock="K♣ 9♦ A♠ …")
    p1 = table.hand(s, 1)
    s = table.ok(s, table.play(0, card))
    assert table.hand(s, 1) == p1 + table.bag(" ".join(["K♣", "9♦", "A♠"][:drawn]))
    assert turn(table, s) == (2, "PLAY")  # and P1 lost his turn


@pytest.mark.parametrize(("preset", "options", "kspades", "seven_spades"), [
    ("hd", None, 4, 2),
    ("hd", {"kspades_draw": 5}, 5, 2),
    ("cl", None, 4, 2),
    ("ru", None, 5, 4),
    ("alt", None, 5, 4),
])  # fmt: skip
def test_a35_the_king_and_seven_of_spades_draw_as_each_version_says(
    table, preset, options, kspades, seven_spades
):
    stock = "K♣ 9♦ A♦ J♦ 10♣ 8♣ Q♣ …"
    drawn = ["K♣", "9♦", "A♦", "J♦", "10♣", "8♣", "Q♣"]
    for card, count in (("K♠", kspades), ("7♠", seven_spades)):
        s = table.build(preset, 3, top="10♠", hands={0: f"{card} J♥"}, stock=stock, options=options)
        p1 = table.hand(s, 1)
        s = table.ok(s, table.play(0, card))
        if table.phase(s) == "RESPOND":  # HD passes 7s on (O11): P1 accepts
            assert s.hundred_and_one.pending_draw == count
            s = table.ok(s, table.accept(1))
        assert table.hand(s, 1) == p1 + table.bag(" ".join(drawn[:count])), card
        assert turn(table, s) == (2, "PLAY"), card
