"""Acting seats in every preset (RULES.md, "Acting seats"): in 101 only the
seat to act may move, in every phase; nothing is played out of turn.

For each preset and each phase of a turn: a hand-built position, the legal
moves of every seat (empty for every seat but the one to act), and the
stale-move guard (a move made against another position is rejected with
STALE_STATE, the same move made against this one is accepted).
"""

from __future__ import annotations

import pytest

from croupier.engine import api
from croupier.v1 import game_pb2, service_pb2

PRESETS = ["hd", "cl", "ru", "alt"]
COVER_RANK = {"hd": "8", "cl": "9", "ru": "6", "alt": "6"}


def position(table, preset: str, phase: str):
    """A 3-seat position of `preset` with P1 to act in `phase`."""
    if phase == "PLAY":
        return table.build(preset, 3, top="10♥", hands={1: "J♥ 8♣"}, current=1)
    if phase == "DRAWN":
        return table.build(
            preset, 3, top="10♥", hands={1: "J♣ 8♣"}, current=1, phase="DRAWN", drawn="8♣"
        )
    if phase == "COVER":
        rank = COVER_RANK[preset]
        return table.build(preset, 3, top=f"{rank}♥", hands={1: "J♥ 8♠"}, current=1, phase="COVER")
    if phase == "RESPOND":
        return table.build(
            preset, 3, top="7♥", hands={1: "7♣ J♠"}, current=1, phase="RESPOND", pending=2,
            options={"transfer_6_7": True},
        )  # fmt: skip
    options = {"opening": "DEALER_UPCARD"} if preset == "hd" else {}
    return table.build(
        preset, 3, top="Q♦", hands={1: "J♣ …"}, current=1, phase="NAME_SUIT", dealer=1,
        options=options,
    )  # fmt: skip


def legal(state, seat: int) -> list[game_pb2.Move]:
    request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
    return [m.move for m in api.list_legal_moves(request).moves]


PHASES = ["PLAY", "DRAWN", "COVER", "RESPOND", "NAME_SUIT"]


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("preset", PRESETS)
def test_only_the_seat_to_act_has_moves(table, preset, phase):
    s = position(table, preset, phase)
    assert list(s.acting_seats) == [1]
    assert legal(s, 0) == []
    assert legal(s, 2) == []
    assert legal(s, 1)


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("preset", PRESETS)
def test_a_move_made_against_another_position_is_stale(table, preset, phase):
    s = position(table, preset, phase)
    s.move_number = 41
    move = legal(s, 1)[0]
    for seen in (40, 42):
        move.seen_move_number = seen
        assert table.reason(s, move) == "STALE_STATE"
    move.seen_move_number = 41
    assert table.reason(s, move) == "ACCEPTED"


@pytest.mark.parametrize("preset", PRESETS)
def test_after_the_deal_no_seat_has_moves(table, preset):
    s = table.build(preset, 3, top="10♥", hands={0: "J♥"})
    s = table.ok(s, table.play(0, "J♥"))
    assert table.match_phase(s) == "DEAL_OVER"
    assert list(s.acting_seats) == []
    assert [legal(s, seat) for seat in range(3)] == [[], [], []]
