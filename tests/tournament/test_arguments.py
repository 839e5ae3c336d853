"""Bad arguments are usage errors: exit 2 with a message naming what is wrong."""

from __future__ import annotations

import pytest

from croupier.tournament import run
from croupier.v1 import options_pb2
from croupier_client.client import CroupierClient

from .conftest import Tournament


def _usage_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        run.main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: croupier tournament")
    return err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "uno", "--bot", "random"], "at least 2 entrants (--bot SPEC each); got only 1"),
        (["--game", "uno"], "at least 2 entrants (--bot SPEC each); got none"),
        (["--game", "uno", "--bot", "random", "--bot", "nonsense"], "unknown bot 'nonsense'"),
        (
            ["--game", "uno", "--bot", "random", "--bot", "no_such_module:Bot"],
            "cannot load the bot 'no_such_module:Bot'",
        ),
        (
            ["--game", "uno", "--bot", "a=random", "--bot", "a=random"],
            "the name 'a' is already taken",
        ),
        (["--game", "uno", "--bot", "x y=random", "--bot", "random"], "a name is letters"),
        (["--bot", "random", "--bot", "random"], "the following arguments are required: --game"),
        (
            ["--game", "uno", "--bot", "random", "--bot", "random", "--matches", "0"],
            "must be at least 1",
        ),
        (["--game", "uno", "--target", "a:1", "--serve", "1"], "not allowed with argument"),
    ],
)
def test_argument_errors_before_any_server(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    # No server is reachable here (--target of a closed port): these fail first.
    argv = [*argv] if "--target" in argv else [*argv, "--target", "127.0.0.1:1"]
    assert message in _usage_error(capsys, argv)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--game", "no_such_game"],
            "--game 'no_such_game': unknown game; the server has chips_101, ",
        ),
        (
            ["--game", "uno", "--preset", "nope"],
            "--preset 'nope': uno has no such preset; it has seed, mattel",
        ),
        (["--game", "sto", "--seats", "2"], "--seats 2: sto (seed) is played with 3 to 10 seats"),
        (["--game", "uno", "--seats", "3"], "3 seats need at least 3 entrants; got 2"),
        (
            ["--game", "uno", "--option", "no_such=1"],
            "--option no_such: uno has no such option; it has ",
        ),
        (["--game", "uno", "--option", "bad"], "expected NAME=VALUE; got 'bad'"),
    ],
)
def test_table_errors_name_what_the_server_offers(
    tournament: Tournament, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        tournament(*args, "--bot", "random", "--bot", "random")
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("kind", "value", "message"),
    [
        (options_pb2.OPTION_TYPE_BOOL, "maybe", "a BOOL option is true or false"),
        (options_pb2.OPTION_TYPE_INT, "many", "an INT option takes an integer"),
        (options_pb2.OPTION_TYPE_ENUM, "NO_SUCH_NAME", "one of "),
    ],
)
def test_option_values_follow_their_declared_types(
    tournament: Tournament,
    target: str,
    capsys: pytest.CaptureFixture[str],
    kind: int,
    value: str,
    message: str,
) -> None:
    with CroupierClient(target) as client:
        games = client.list_games()
    game, option = next(
        (game.name, option.name) for game in games for option in game.options if option.type == kind
    )
    with pytest.raises(SystemExit):
        tournament(
            "--game", game, "--option", f"{option}={value}", "--bot", "random", "--bot", "random"
        )
    assert f"--option {option}={value}: {message}" in capsys.readouterr().err


def test_missing_heuristic_bot_is_a_clear_error(
    tournament: Tournament, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from croupier_client import bots

    # A game whose heuristic bot module does not exist (whatever has landed).
    monkeypatch.setitem(bots.HEURISTIC_BOTS, "chips_101", ("no_such_bot_module", "Bot"))
    with pytest.raises(SystemExit) as exit_:
        tournament("--game", "chips_101", "--bot", "heuristic", "--bot", "random")
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "entrant 'heuristic': the heuristic bot of 'chips_101' is not available" in err
    assert "no_such_bot_module" in err


def test_unreachable_server_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    from croupier.tournament.local_server import free_port

    code = run.main(
        [
            "--game",
            "uno",
            "--bot",
            "random",
            "--bot",
            "random",
            "--target",
            f"127.0.0.1:{free_port()}",
        ]
    )
    assert code == 1
    assert "failed: ListGames failed: UNAVAILABLE" in capsys.readouterr().err
