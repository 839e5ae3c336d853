"""The harness's parts on their own: the batch bytes, the schedule, the
standings' arithmetic and the record format."""

from __future__ import annotations

import io
from typing import Any

import pytest

from croupier.tournament import schedule, wire
from croupier.tournament.records import Deal, OrderedWriter, Record, RecordError
from croupier.tournament.standings import Standings, ranking, wilson
from croupier.v1 import game_pb2, service_pb2


def test_batch_bytes_parse_as_the_request_they_stand_for() -> None:
    state = game_pb2.GameState(game="uno", seed=2**40, move_number=300, acting_seats=[1])
    state.seats.add(name="x" * 200, score=-7)  # a length prefix over one byte
    move = game_pb2.Move(seat=1, seen_move_number=300)
    items = [
        wire.apply_item(wire.state_bytes(state), move.SerializeToString(), next_views=views)
        for views in (True, False)
    ]
    request = service_pb2.ApplyMoveBatchRequest.FromString(wire.batch_request(items))
    expected = service_pb2.ApplyMoveBatchRequest(
        items=[
            service_pb2.ApplyMoveRequest(
                state=state, move=move, next_legal_moves=True, next_views=views
            )
            for views in (True, False)
        ]
    )
    assert request == expected
    assert [wire.varint(n) for n in (0, 127, 128, 300)] == [
        b"\0",
        b"\x7f",
        b"\x80\x01",
        b"\xac\x02",
    ]


def test_seating_rotates_or_draws_by_the_seed() -> None:
    assert [schedule.seating(1, i, 2, 2, rotation=True) for i in range(3)] == [
        (0, 1),
        (1, 0),
        (0, 1),
    ]
    assert schedule.seating(1, 1, 2, 2, rotation=False) == (0, 1)
    assert schedule.seating(1, 1, 3, 3, rotation=True) == (1, 2, 0)
    draws = [schedule.seating(7, i, 5, 3, rotation=True) for i in range(50)]
    assert draws == [schedule.seating(7, i, 5, 3, rotation=True) for i in range(50)]
    assert all(len(set(d)) == 3 and set(d) <= set(range(5)) for d in draws)
    assert draws != [schedule.seating(8, i, 5, 3, rotation=True) for i in range(50)]
    with pytest.raises(ValueError, match="3 seats need at least 3 entrants; got 2"):
        schedule.seating(1, 0, 2, 3, rotation=True)
    assert schedule.bot_seed(10, 0) != schedule.bot_seed(10, 1) != schedule.bot_seed(11, 1)


def test_wilson_interval() -> None:
    low, high = wilson(60, 100)
    assert (round(low, 4), round(high, 4)) == (0.5020, 0.6906)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("winners", "scores", "ranks"),
    [
        ([0], [19, 114], [0, 1]),  # penalty points: lower is better
        ([1], [213, 625], [1, 0]),  # points won: higher is better
        ([2], [50, 10, 0, 30], [3, 1, 0, 2]),
        ([0], [5, 0, 9], [0, 1, 1]),  # the winner in the middle: the rest tied
        ([0, 1], [3, 3, 8], [0, 0, 1]),
        ([], [1, 2], [0, 0]),
    ],
)
def test_ranking(winners: list[int], scores: list[int], ranks: list[int]) -> None:
    assert ranking(winners, scores) == ranks


def _record(match: int, entrants: list[str], winners: list[int], **kw: Any) -> Record:
    fields: dict[str, Any] = {
        "game": "g",
        "preset": "p",
        "options": {},
        "seats": len(entrants),
        "seed": match,
        "match": match,
        "entrants": entrants,
        "winners": winners,
        "scores": [0] * len(entrants),
    }
    return Record(**(fields | kw))


def test_standings_count_shared_wins_as_halves_and_faults_per_entrant() -> None:
    standings = Standings.of([("a", "random"), ("b", "random")])
    standings.add(_record(1, ["b", "a"], [1], faults=[(3, 0, "x"), (5, 0, "y")]))
    standings.add(_record(0, ["a", "b"], [0, 1]))
    standings.add(_record(2, ["a", "b"], [], outcome="max_moves"))
    a, b = standings.compute()
    assert (a.matches, a.points, a.losses, a.faults, a.unfinished) == (2, 1.5, 0.5, 0, 1)
    assert (b.matches, b.points, b.losses, b.faults, b.unfinished) == (2, 0.5, 1.5, 2, 1)
    assert [index for index, _ in standings.history] == [0, 1]  # match order
    assert a.mu > b.mu
    assert standings.unfinished == [(2, "max_moves")]


def test_record_round_trip_and_ordered_writing() -> None:
    record = _record(
        4,
        ["a", "b"],
        [1],
        options={"rule": "X", "set": ("A", "B"), "n": 3, "on": True},
        notation=["7S"],
        moves=[b"\x08\x01"],
        digests=bytearray(range(64)),
        deals=[Deal([0, 12], [1])],
        faults=[(1, 0, "slow")],
    )
    again = Record.from_json(record.to_json())
    assert again == record
    assert again.digest(1) == bytes(range(32, 64))
    sink = io.StringIO()
    writer = OrderedWriter(sink, first=3)
    writer.add(record)
    assert sink.getvalue() == "" and writer.waiting == 1
    writer.add(_record(3, ["a", "b"], [0], digests=bytearray(32)))
    assert [Record.from_json(line).match for line in sink.getvalue().splitlines()] == [3, 4]
    with pytest.raises(RecordError, match="2 moves but 1 notations"):
        Record.from_json(_record(0, ["a"], [], notation=["x"], moves=[b"", b""]).to_json())
    with pytest.raises(RecordError, match="record format 2"):
        Record.from_json('{"v": 2}')
