"""A bot behind a BotService (croupier_client.bots.service.serve_bot, in this
process on port 0) as an entrant: asked through ChooseMove from the
harness's thread pool, with its time budget."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

import grpc
import pytest

from croupier.tournament import replay
from croupier.tournament.records import read
from croupier.v1 import game_pb2, service_pb2
from croupier_client.bots import RandomBot
from croupier_client.bots.service import serve_bot

from .conftest import Tournament


class _SeenViews(RandomBot):
    """A random bot that counts the views it was handed with their seat's cards."""

    seen: list[int] = []

    def choose(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        _SeenViews.seen.append(len(view.seats))
        return super().choose(view, moves)


@pytest.fixture
def bot_service() -> Iterator[str]:
    server = serve_bot(lambda game, seed: _SeenViews(seed=seed, game=game), "127.0.0.1:0")
    yield f"127.0.0.1:{server.bound_port}"
    server.stop(0)


def test_remote_python_bot_plays(
    tournament: Tournament, bot_service: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _SeenViews.seen.clear()
    code, out, results = tournament(
        "--game",
        "chips_101",
        "--bot",
        f"remote={bot_service}",
        "--bot",
        "random",
        "--matches",
        "8",
        "--parallel",
        "8",
    )
    assert code == 0
    entrants = {e["name"]: e for e in results["entrants"]}
    assert entrants["remote"]["spec"] == bot_service
    assert entrants["remote"]["matches"] == 8 and entrants["remote"]["faults"] == 0
    records = [record for _, record in read(out / "records.jsonl")]
    remote_moves = sum(
        game_pb2.Move.FromString(move).seat == record.entrants.index("remote")
        for record in records
        for move in record.moves
    )
    calls = results["throughput"]["calls"]["remote_bot_calls"]
    assert calls == remote_moves == len(_SeenViews.seen)
    # A remote bot always gets its seat's real view (2 seats in it).
    assert set(_SeenViews.seen) == {2}
    capsys.readouterr()
    assert replay.main([str(out / "records.jsonl")]) == 0


def test_unreachable_bot_service_is_a_usage_error(
    tournament: Tournament, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from croupier.tournament import entrants
    from croupier.tournament.local_server import free_port

    monkeypatch.setattr(entrants, "REMOTE_CONNECT_SECONDS", 0.3)
    with pytest.raises(SystemExit) as exit_:
        tournament("--game", "chips_101", "--bot", f"127.0.0.1:{free_port()}", "--bot", "random")
    assert exit_.value.code == 2
    assert "no BotService answers at 127.0.0.1:" in capsys.readouterr().err


def test_slow_remote_bot_is_a_fault(tournament: Tournament) -> None:
    class Slow(RandomBot):
        def choose(self, view, moves):  # type: ignore[no-untyped-def]
            time.sleep(0.2)
            return super().choose(view, moves)

    server = serve_bot(lambda game, seed: Slow(seed=seed, game=game), "127.0.0.1:0")
    try:
        code, out, results = tournament(
            "--game",
            "chips_101",
            "--bot",
            f"slow=127.0.0.1:{server.bound_port}",
            "--bot",
            "random",
            "--matches",
            "1",
            "--time-budget-ms",
            "50",
        )
    finally:
        server.stop(0)
    assert code == 0
    ((_, record),) = read(out / "records.jsonl")
    assert record.faults
    assert all(grpc.StatusCode.DEADLINE_EXCEEDED.name in why for _, _, why in record.faults)
    assert {e["name"]: e["faults"] for e in results["entrants"]}["slow"] == len(record.faults)
