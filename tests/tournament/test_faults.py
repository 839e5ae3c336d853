"""A bot that answers a move it was not offered, raises, or is too slow has
its seat's DefaultMove played, and the fault is counted against it."""

from __future__ import annotations

import pytest

from croupier.tournament import replay
from croupier.tournament.records import read

from .conftest import Tournament

BOTS = "tournament.faulty_bots"


def _moves_by(records: list, name: str) -> list[tuple[int, int]]:
    """(match, move number) of every move made by the seat of entrant `name`."""
    made = []
    for record in records:
        seat = record.entrants.index(name)
        for number, move in enumerate(record.moves, start=1):
            from croupier.v1 import game_pb2

            if game_pb2.Move.FromString(move).seat == seat:
                made.append((record.match, number))
    return made


@pytest.mark.parametrize("bot", ["OutOfRangeBot", "OddRaisingBot"])
def test_faulty_bot_gets_default_moves(
    tournament: Tournament, bot: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, results = tournament(
        "--game",
        "chips_101",
        "--bot",
        f"bad={BOTS}:{bot}",
        "--bot",
        "random",
        "--matches",
        "6",
        "--seed",
        "2",
    )
    assert code == 0
    entrants = {e["name"]: e for e in results["entrants"]}
    assert entrants["random"]["faults"] == 0
    records = [record for _, record in read(out / "records.jsonl")]
    faults = [(r.match, number, seat, why) for r in records for number, seat, why in r.faults]
    assert faults and entrants["bad"]["faults"] == len(faults)
    made = _moves_by(records, "bad")
    if bot == "OutOfRangeBot":
        # Every move of its seat is a fault, played as DefaultMove.
        assert [(m, n) for m, n, _, _ in faults] == made
        assert all("was not offered" in why for *_, why in faults)
    else:
        assert 0 < len(faults) < len(made)
        assert all("RuntimeError: bot bug" in why for *_, why in faults)
    for record in records:
        seat = record.entrants.index("bad")
        assert all(s == seat for _, s, _ in record.faults)
    # The default moves were legal: the records replay.
    assert results["finished"] == 6
    capsys.readouterr()
    assert replay.main([str(out / "records.jsonl")]) == 0


def test_too_slow_bot_misses_its_time_budget(tournament: Tournament) -> None:
    code, out, results = tournament(
        "--game",
        "chips_101",
        "--bot",
        f"slow={BOTS}:SlowBot",
        "--bot",
        "random",
        "--matches",
        "2",
        "--time-budget-ms",
        "10",
    )
    assert code == 0
    records = [record for _, record in read(out / "records.jsonl")]
    faults = [why for r in records for _, _, why in r.faults]
    assert faults and all(why.startswith("over the time budget") for why in faults)
    assert len(faults) == len(_moves_by(records, "slow"))
    assert {e["name"]: e["faults"] for e in results["entrants"]} == {
        "slow": len(faults),
        "random": 0,
    }


def test_bots_that_want_views_get_their_seats_views(tournament: Tournament) -> None:
    code, _, results = tournament(
        "--game",
        "hundred_and_one",
        "--bot",
        f"a={BOTS}:ViewCheckingBot",
        "--bot",
        f"b={BOTS}:ViewCheckingBot",
        "--matches",
        "3",
    )
    assert code == 0
    assert [e["faults"] for e in results["entrants"]] == [0, 0]


def test_a_match_the_server_refuses_is_recorded_as_an_error(
    tournament: Tournament, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from croupier.tournament.match import MatchPlay

    moved = MatchPlay.moved

    def corrupt_match_1(self: MatchPlay, move: bytes, answer: object) -> None:
        moved(self, move, answer)  # type: ignore[arg-type]
        if self.index == 1 and self.moves_played == 3:
            self.state_bytes = b"\x10\x07"  # a state with only a schema version 7

    monkeypatch.setattr(MatchPlay, "moved", corrupt_match_1)
    code, out, results = tournament(
        "--game", "chips_101", "--bot", "random", "--bot", "b=random", "--matches", "3"
    )
    assert code == 1
    assert "1 match(es) ended in an error" in capsys.readouterr().err
    assert results["unfinished"] == [[1, "error"]] and results["finished"] == 2
    records = [record for _, record in read(out / "records.jsonl")]
    assert [r.outcome for r in records] == ["over", "error", "over"]
    assert "ApplyMoveBatch item error" in records[1].error and len(records[1].moves) == 3
    capsys.readouterr()
    assert replay.main([str(out / "records.jsonl")]) == 0  # the moves it made replay
