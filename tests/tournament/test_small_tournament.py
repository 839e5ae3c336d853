"""A small tournament through an in-process server: two games, random
against random; the results add up, the records replay, and the same seed
writes the same records byte for byte."""

from __future__ import annotations

import json

import pytest

from croupier.tournament import replay
from croupier.tournament.records import read

from .conftest import Tournament

# Two seats (rotation) and three (a ranking of the others): the cheapest
# games of each, so that 20 matches take a second.
GAMES = {"chips_101": 2, "sto": 3}


@pytest.mark.parametrize(("game", "seats"), GAMES.items())
def test_results_add_up_and_records_replay(
    tournament: Tournament, game: str, seats: int, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["random", "other", "third"][:seats]
    bots = [arg for name in names for arg in ("--bot", f"{name}=random")]
    code, out, results = tournament(
        "--game",
        game,
        *bots,
        "--matches",
        "20",
        "--seed",
        "5",
        "--parallel",
        "8",
        plot=seats == 2,
    )
    assert code == 0
    assert results["finished"] == 20 and results["unfinished"] == []
    entrants = {e["name"]: e for e in results["entrants"]}
    assert set(entrants) == set(names)
    for entrant in entrants.values():
        assert entrant["matches"] == 20
        assert entrant["wins"] + entrant["losses"] == entrant["matches"]
        low, high = entrant["wilson95"]
        assert 0 <= low <= entrant["win_rate"] <= high <= 1
        assert entrant["faults"] == 0
    # Every match's point goes to its winners (shared when they are several).
    assert sum(e["wins"] for e in entrants.values()) == pytest.approx(20)

    records = [record for _, record in read(out / "records.jsonl")]
    assert [r.match for r in records] == list(range(20))
    assert [r.seed for r in records] == [5 + i for i in range(20)]
    # Seat rotation: the first seat goes round the entrants.
    assert [r.entrants[0] for r in records[:4]] == [names[i % seats] for i in range(4)]
    moves = sum(len(r.moves) for r in records)
    assert results["throughput"]["moves"] == moves
    for record in records:
        assert record.outcome == "over" and record.winners and record.deals
        assert len(record.scores) == seats
    wins = {name: 0.0 for name in entrants}
    for record in records:
        for seat in record.winners:
            wins[record.entrants[seat]] += 1 / len(record.winners)
    assert wins == pytest.approx({name: e["wins"] for name, e in entrants.items()})

    assert replay.main([str(out / "records.jsonl")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"OK 20 records, {moves} moves"
    report = (out / "REPORT.md").read_text()
    assert "moves/s" in report and "| other |" in report
    if seats == 2:
        assert (out / "plot.png").read_bytes()[:4] == b"\x89PNG"
    else:
        assert not (out / "plot.png").exists() and "plot.png" not in report


def test_same_seed_same_records(tournament: Tournament) -> None:
    args = ["--game", "chips_101", "--bot", "random", "--bot", "b=random", "--matches", "12"]
    first = tournament(*args, "--seed", "9", "--parallel", "5")
    # Other batching (parallel, connections) must not change any match.
    second = tournament(*args, "--seed", "9", "--parallel", "12", "--connections", "3")
    other = tournament(*args, "--seed", "10", "--parallel", "5")
    assert first[0] == second[0] == other[0] == 0
    records = [(run[1] / "records.jsonl").read_bytes() for run in (first, second, other)]
    assert records[0] == records[1]
    assert records[0] != records[2]
    assert json.loads(records[0].splitlines()[0])["seed"] == 9


def test_more_entrants_than_seats_are_drawn_by_the_seed(tournament: Tournament) -> None:
    bots = ["--bot", "a=random", "--bot", "b=random", "--bot", "c=random"]
    code, out, results = tournament(
        "--game", "chips_101", *bots, "--seats", "2", "--matches", "12", "--seed", "3"
    )
    assert code == 0
    records = [record for _, record in read(out / "records.jsonl")]
    seatings = [tuple(r.entrants) for r in records]
    assert all(len(set(s)) == 2 for s in seatings)
    assert len(set(seatings)) > 1  # the draw varies from match to match
    played = {e["name"]: e["matches"] for e in results["entrants"]}
    assert sum(played.values()) == 24
    assert played == {n: sum(n in s for s in seatings) for n in "abc"}
