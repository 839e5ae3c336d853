"""DefaultMove in every preset (RULES.md, "Default move"): the move a seat is
deemed to make when the caller's clock for it runs out.

pass, else draw, else accept the penalty, else name the upcard Queen's own
suit, else the first legal card in canonical order (cards by value: clubs,
diamonds, hearts, spades, each from 2 to the ace), a Queen naming its own
suit. Each test: a hand-built position of one phase, the default move, and
that it is a legal move.
"""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.v1 import service_pb2

PRESETS = ["hd", "cl", "ru", "alt"]
# The card each version's player must cover himself (C6): HD 8, CL 9, RU/ALT 6.
COVER_RANK = {"hd": "8", "cl": "9", "ru": "6", "alt": "6"}


def default(table, state, seat: int) -> str:
    """The default move of `seat` as a text, checked to be one of its legal moves."""
    request = service_pb2.DefaultMoveRequest(state=state, seat=seat)
    text = table.move_text(api.default_move(request).move.move)
    assert text in table.legal(state, seat)
    return text


@pytest.mark.parametrize("preset", PRESETS)
def test_play_with_a_legal_card_plays_the_first_legal_card(table, preset):
    # 10♣ and J♥ follow the 10♥; 10♣ comes first (clubs before hearts).
    s = table.build(preset, 3, top="10♥", hands={0: "J♥ 8♠ 10♣"})
    assert default(table, s, 0) == "PLAY 10♣"


@pytest.mark.parametrize("preset", PRESETS)
def test_a_queen_played_by_the_clock_names_its_own_suit(table, preset):
    # Q♦ is the only legal card; canonically its first spelling names ♣ (A28).
    s = table.build(preset, 3, top="10♥", hands={0: "Q♦ J♠ 8♣"})
    assert default(table, s, 0) == "PLAY Q♦>♦"


@pytest.mark.parametrize("preset", PRESETS)
def test_play_with_a_voluntary_draw_draws(table, preset):
    options = {"voluntary_draw": True}
    s = table.build(preset, 3, top="10♥", hands={0: "J♥ 8♠ 10♣"}, options=options)
    assert default(table, s, 0) == "DRAW"


@pytest.mark.parametrize("preset", PRESETS)
def test_play_without_a_legal_card_draws(table, preset):
    s = table.build(preset, 3, top="10♥", hands={0: "J♣ 8♠"})
    assert default(table, s, 0) == "DRAW"


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("drawn", ["9♠", "9♥"])
def test_after_drawing_the_turn_is_passed(table, preset, drawn):
    # Whether or not the drawn card fits: a drawn card may be kept (O9 off).
    s = table.build(preset, 3, top="10♥", hands={0: f"J♣ 8♠ {drawn}"}, phase="DRAWN", drawn=drawn)
    assert default(table, s, 0) == "PASS"


def test_after_drawing_a_card_that_must_be_played_it_is_played(table):
    s = table.build(
        "hd", 3, top="10♥", hands={0: "J♣ 8♠ 9♥"}, phase="DRAWN", drawn="9♥",
        options={"must_play_drawn": True},
    )  # fmt: skip
    assert default(table, s, 0) == "PLAY 9♥"


@pytest.mark.parametrize("preset", PRESETS)
def test_a_pending_penalty_is_accepted(table, preset):
    # transfer_6_7 is on in HD and available in every version (O11).
    s = table.build(
        preset, 3, top="7♥", hands={1: "7♣ J♠"}, current=1, phase="RESPOND", pending=2,
        options={"transfer_6_7": True},
    )  # fmt: skip
    assert default(table, s, 1) == "ACCEPT"


@pytest.mark.parametrize("preset", PRESETS)
def test_the_dealer_names_his_upcard_queens_own_suit(table, preset):
    options = {"opening": "DEALER_UPCARD"} if preset == "hd" else {}
    s = table.build(
        preset, 3, top="Q♦", hands={0: "J♣ …"}, phase="NAME_SUIT", dealer=0, options=options
    )
    assert default(table, s, 0) == "NAME ♦"


@pytest.mark.parametrize("preset", PRESETS)
def test_a_cover_duty_plays_the_first_cover(table, preset):
    rank = COVER_RANK[preset]
    s = table.build(preset, 3, top=f"{rank}♥", hands={0: f"J♥ 8♠ {rank}♣"}, phase="COVER")
    assert default(table, s, 0) == f"PLAY {rank}♣"


@pytest.mark.parametrize("preset", PRESETS)
def test_a_cover_duty_without_a_cover_draws(table, preset):
    rank = COVER_RANK[preset]
    s = table.build(preset, 3, top=f"{rank}♥", hands={0: "J♣ 10♠"}, phase="COVER")
    assert default(table, s, 0) == "DRAW"
