"""`croupier play` without a terminal: answers piped in, plain text out; bad
arguments; and the same loop through a server (--target)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from croupier import play, play_text
from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread

UNO = ["--game", "uno", "--preset", "seed", "--seats", "3", "--seat", "1", "--bots", "random"]


def test_uno_with_piped_answers_is_plain_text_to_the_end_of_the_match() -> None:
    """Every prompt answered "1" (the first listed move; at a deal's end, go
    on): the match ends, the answers are echoed, and no colour code is
    written to a pipe even when NO_COLOR is unset."""
    done = subprocess.run(
        [sys.executable, "-m", "croupier.cli", "play", *UNO, "--seed", "3"]
        + ["--option", "target=30"],
        input="1\n" * 5000,
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != "NO_COLOR"},
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    out = done.stdout
    assert "\x1b" not in out
    assert out.startswith(
        "UNO — preset seed, 3 seats, seed 3\nYou are P1. Bots: P0 random, P2 random"
    )
    assert re.search(r"\nhand [^\n]+\nYour move:\n  +1  \S[^\n]*\n", out)
    assert "\n> 1\n" in out  # the answer, echoed
    assert re.search(r"— Deal 1 over —", out)
    assert re.search(r"\nMatch over — won by [^\n]+\. You (win!|lose\.)\n$", out)


def run(argv: list[str], answers: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    return play.main(argv)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "poker"], "--game poker: unknown; known: chips_101, hundred_and_one"),
        (
            ["--game", "uno", "--preset", "house"],
            # It read "--preset house: uno has seed, mattel".
            "--preset house: uno has no such preset; it has seed, mattel",
        ),
        # It read "--seats 2: sto seed seats 3 to 10" (the engine's words name the preset).
        (["--game", "sto", "--seats", "2"], "--seats 2: sto preset seed seats 3 to 10"),
        (["--game", "uno", "--seat", "2"], "--seat 2: the table's seats are 0 to 1"),
        (["--game", "uno", "--option", "jump_in"], "write NAME=VALUE"),
        (["--game", "uno", "--option", "jump_in=maybe"], "takes on or off; got 'maybe'"),
        (["--game", "uno", "--option", "colour=red"], "uno has no such option"),
        (["--game", "uno", "--bots", "random,random"], "one per bot seat \\(1\\); got 2"),
        (["--game", "uno", "--bots", "nobody"], "unknown bot 'nobody'"),
        (["--game", "uno", "--seed", "-1"], "a seed is a whole number from 0"),
    ],
)
def test_bad_arguments_exit_2_naming_the_fault(
    argv: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(argv, "", monkeypatch)
    assert exit_.value.code == 2
    assert re.search(message, capsys.readouterr().err)


def test_an_option_out_of_range_is_the_engines_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["--game", "uno", "--option", "target=0"], "", monkeypatch) == 2
    assert "target must be from 1 to 100000; got 0" in capsys.readouterr().out


def test_input_ending_before_the_match_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--game", "hundred_and_one", "--bots", "random", "--seed", "7"]
    assert run(argv, "1\n", monkeypatch) == 1
    assert "The input ended before the match did." in capsys.readouterr().out


def test_a_game_without_a_heuristic_bot_falls_back_to_random(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from croupier_client import bots

    monkeypatch.delitem(bots.HEURISTIC_BOTS, "sto")
    assert run(["--game", "sto", "--seed", "1"], "q\n", monkeypatch) == 0
    out = capsys.readouterr().out
    notice = "notice: no heuristic bot for sto yet (no heuristic bot for the game 'sto')"
    assert f"{notice}; P1 plays random" in out
    assert "You left the match." in out


def test_help_then_quit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["--game", "uno", "--seed", "2"], "?\nq\n", monkeypatch) == 0
    out = capsys.readouterr().out
    assert "Answer with the number of a listed move" in out
    assert out.count("Your move:") == 2  # the position is shown again after the help
    assert out.endswith("> q\nYou left the match.\n")


def test_an_overlong_answer_is_refused_by_its_length_not_echoed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    digits, letters = "9" * 5000, "Q" * 300  # int() of 5,000 digits would raise
    assert (
        run(["--game", "hundred_and_one", "--seed", "3"], f"{digits}\n{letters}\nq\n", monkeypatch)
        == 0
    )
    out = capsys.readouterr().out
    assert "That is 5,000 characters: no move is that long." in out
    assert "That is 300 characters: no move is that long." in out
    assert out.count(letters) == 1  # the echo of the typed line, never quoted back
    assert out.endswith("> q\nYou left the match.\n")


class Responder(io.StringIO):
    """Answers like a person reading the screen: 0 (pass) when offered a
    chance out of turn, Enter between deals, else the first listed move."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__()
        self.screen = screen
        self.read_up_to = 0
        self.passes = 0

    def isatty(self) -> bool:
        return False

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        new = self.screen.getvalue()[self.read_up_to :]
        self.read_up_to += len(new)
        if "you may act out of turn, or pass (0)" in new:
            assert "  0  pass (let play go on)" in new
            self.passes += 1
            return "0\n"
        return "\n" if new.endswith("Enter: next deal, q: quit > ") else "1\n"


def test_passing_an_out_of_turn_chance_lets_play_go_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """UNO with jump-ins, 3 seats: whenever the person may act out of turn
    (a jump-in with an identical card, a catch) and passes, the seat to play
    moves next, and the match still ends."""
    screen = io.StringIO()
    responder = Responder(screen)
    monkeypatch.setattr(play, "Screen", lambda: play_text.Screen(out=screen, inp=responder))
    argv = [*UNO, "--seed", "5", "--option", "jump_in=on", "--option", "target=30"]
    assert play.main(argv) == 0
    assert responder.passes > 0
    out = screen.getvalue()
    assert "Match over" in out
    for after_pass in out.split("> 0\n")[1:]:
        first_event = after_pass.splitlines()[0]
        assert not first_event.startswith("  P1 "), "after a pass the person does not move"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with ServerThread(ServerConfig(port=0, grace=0.0, log_level="warning")) as port:
        yield f"127.0.0.1:{port}"


def test_through_a_server_the_same_match_is_played(
    server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same seed and answers give the same screen in-process and through
    a server (but for the engine named in the header), an illegal try
    included: the server's rejection is shown."""
    argv = ["--game", "hundred_and_one", "--preset", "hd", "--bots", "random", "--seed", "7"]
    answers = "AS\n" + "1\n" * 400
    assert run([*argv, "--target", server], answers, monkeypatch) == 0
    remote = capsys.readouterr().out
    assert run(argv, answers, monkeypatch) == 0
    local = capsys.readouterr().out
    assert f"Engine: {server}." in remote and "Engine: in-process." in local
    assert remote.replace(server, "in-process") == local
    assert "Illegal: AS: accept the 2-card penalty or pass it on with a 6 or 7 (rule A5)" in local
    assert "Match over" in local


def test_an_unreachable_server_is_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["--target", "127.0.0.1:1"], "", monkeypatch) == 2
    assert "croupier play: ListGames failed: UNAVAILABLE" in capsys.readouterr().out


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert play_text.colour_wanted(Terminal())
    assert not play_text.colour_wanted(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not play_text.colour_wanted(Terminal())
