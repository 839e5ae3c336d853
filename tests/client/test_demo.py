"""`croupier demo` and play_match against a real server."""

from __future__ import annotations

import pytest

from croupier.v1 import game_pb2, service_pb2
from croupier_client import demo
from croupier_client.client import CroupierClient


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = demo.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_demo_output_is_deterministic(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--game", "hundred_and_one", "--preset", "hd", "--seed", "7", "--target", target)
    first = _run(capsys, *argv)
    second = _run(capsys, *argv)
    assert first[0] == 0, first[2]
    assert first == second
    lines = first[1].splitlines()
    assert lines[0] == "Game hundred_and_one, preset hd, 3 seats, seed 7"
    assert lines[2] == "Deal 1"
    assert lines[3].startswith("      P") and "deal 1" in lines[3]  # the game's sentence
    assert lines[4].startswith("   1. P")
    assert lines[-1].startswith("Winner: P") or lines[-1].startswith("Winners: P")
    assert "(totals P0 " in lines[-1]


def test_demo_prints_the_games_sentences_for_a_score_reset(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 1 resets a total of exactly 100 to 50 (O21); the demo once printed
    # "total 0 is reset to 50", reading the wrong field of the event.
    code, out, _ = _run(capsys, "--preset", "hd", "--seats", "3", "--seed", "1", "--target", target)
    assert code == 0
    resets = [line for line in out.splitlines() if "reset to" in line]
    assert resets and all("has the total 100 reset to 50" in line for line in resets), resets


def test_demo_of_a_game_with_a_match_bound_plays_to_its_end(
    target: str, capsys: pytest.CaptureFixture[str], client: CroupierClient
) -> None:
    # «Мост» with 8 seats: its default match (to 500) may not end between
    # random bots (C-M-4); the demo sets what ListGames' match_bound says.
    (most,) = [g for g in client.list_games() if g.name == "most"]
    assert [(s.name, s.value.int_value) for s in most.match_bound] == [("max_deals", 12)]
    code, out, err = _run(
        capsys, "--game", "most", "--seats", "8", "--seed", "3", "--target", target
    )
    assert code == 0, err
    deals = [line for line in out.splitlines() if line.startswith("Deal ")]
    assert 1 <= len(deals) <= 12
    assert out.splitlines()[-1].startswith(("Winner: P", "Winners: P"))


def test_demo_transcript_depends_on_the_seed(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _, seven, _ = _run(capsys, "--preset", "ru", "--seed", "7", "--target", target)
    _, eight, _ = _run(capsys, "--preset", "ru", "--seed", "8", "--target", target)
    assert seven != eight


def test_demo_defaults_to_the_games_default_preset(
    target: str, capsys: pytest.CaptureFixture[str], client: CroupierClient
) -> None:
    (game,) = [g for g in client.list_games() if g.name == "hundred_and_one"]
    code, out, _ = _run(capsys, "--seats", "2", "--target", target)
    assert code == 0
    assert out.startswith(f"Game hundred_and_one, preset {game.default_preset}, 2 seats, seed 7\n")


def test_demo_stops_with_an_error_after_max_moves(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "--preset", "alt", "--max-moves", "5", "--target", target)
    assert code == 1
    assert "not over after 5 moves" in err
    moves = [line for line in out.splitlines() if line[:4].strip().isdigit()]
    assert moves[-1].startswith("   5. P")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--preset", "xx"], "unknown preset 'xx'"),
        (["--preset", "hd", "--seats", "5"], "2 to 4 seats"),
        (["--max-moves", "0"], "--max-moves"),
    ],
)
def test_demo_refuses_bad_arguments(
    target: str, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        demo.main([*argv, "--target", target])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_demo_reports_an_unreachable_server(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "--target", "127.0.0.1:1", "--timeout", "2")
    assert code == 1
    assert out == ""
    assert "cannot use the server at 127.0.0.1:1" in err


def test_play_match_reaches_the_end_of_the_match(client: CroupierClient) -> None:
    state, lines = demo.play_match(client, "hundred_and_one", "cl", 4, 2024)
    assert state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert state.match.winners
    deals = [line for line in lines if line.startswith("Deal ")]
    assert len(deals) == state.match.deal_number
    moves = [line for line in lines if line[:4].strip().isdigit()]
    assert len(moves) == state.move_number


def test_play_match_needs_one_bot_per_seat(client: CroupierClient) -> None:
    with pytest.raises(ValueError):
        demo.play_match(client, "hundred_and_one", "hd", 3, 1, bots=demo.default_bots(1, 2))


def test_play_match_shows_every_move_to_on_move(client: CroupierClient) -> None:
    seen: list[tuple[int, str, int]] = []

    def record(
        state: game_pb2.GameState,
        choice: service_pb2.LegalMove,
        answer: service_pb2.ApplyMoveResponse,
    ) -> None:
        seen.append((state.move_number, choice.notation, answer.state.move_number))

    state, _ = demo.play_match(client, "hundred_and_one", "hd", 2, 5, on_move=record)
    assert len(seen) == state.move_number
    assert all(after == before + 1 for before, _, after in seen)
