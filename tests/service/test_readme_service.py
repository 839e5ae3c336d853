"""README.md against the service and the command it documents.

A newcomer's walkthrough found bare `croupier …` commands, which do not run
from a fresh clone (the set-up puts the command at `.venv/bin/croupier`, as
the README's first mention says), and an RPC of the service, AnalyseHand,
that the README never named.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from croupier import cli

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
COMMAND = ".venv/bin/croupier"
SUBCOMMANDS = ("serve", "demo", "rules", "play", "tournament", "replay", "seal-keygen")
# `croupier SUBCOMMAND` not preceded by a path (`.venv/bin/`) or a word
# (`croupier.v1`, `croupier-bot`, `croupier_client`).
_BARE = re.compile(rf"(?<![\w./-])croupier ({'|'.join(SUBCOMMANDS)})\b")
# A whole command: in a code block's line or an inline code span.
_INVOKED = re.compile(rf"{re.escape(COMMAND)} ([^`\n#>]*)")


def _section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end >= 0 else None]


def test_no_croupier_command_in_the_readme_is_bare() -> None:
    bare = [
        f"README.md:{README.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
        for m in _BARE.finditer(README)
    ]
    assert not bare, "write .venv/bin/croupier, as the README introduces it:\n" + "\n".join(bare)


def test_the_command_the_readme_names_is_the_one_make_run_runs() -> None:
    # Its first mention, and what `make run` starts.
    first = re.search(r"`([^`]*croupier) rules", README)
    assert first is not None and first.group(1) == COMMAND
    dry = subprocess.run(
        ["make", "--no-print-directory", "-n", "run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert dry.returncode == 0, dry.stderr
    assert any(line.startswith(f"{COMMAND} serve ") for line in dry.stdout.splitlines())


@cache
def _help(subcommand: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "croupier.cli", subcommand, "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _invocations() -> list[tuple[str, list[str]]]:
    found = []
    for match in _INVOKED.finditer(README):
        words = shlex.split(match.group(1).replace("…", ""))
        if not words:  # the command named, as in `.venv/bin/croupier …`
            continue
        line = README.count("\n", 0, match.start()) + 1
        found.append((f"README.md:{line}", words))
    return found


@pytest.mark.parametrize(("where", "words"), _invocations(), ids=lambda x: str(x))
def test_every_croupier_command_in_the_readme_is_one_the_command_takes(
    where: str, words: list[str]
) -> None:
    assert words and words[0] in SUBCOMMANDS, f"{where}: {words}"
    subcommands = cli.build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert words[0] in subcommands, f"{where}: no subcommand {words[0]}"
    flags = [word.split("=", 1)[0] for word in words[1:] if word.startswith("--")]
    text = _help(words[0])
    unknown = [flag for flag in flags if not re.search(rf"(?<![\w-]){re.escape(flag)}\b", text)]
    assert not unknown, f"{where}: {words[0]} has no {unknown}"


def _rpcs(proto: str) -> list[str]:
    return re.findall(r"^\s*rpc (\w+)\(", (ROOT / "proto/croupier/v1" / proto).read_text(), re.M)


def test_the_api_tour_names_every_rpc_of_the_services() -> None:
    rpcs = _rpcs("service.proto") + _rpcs("bot.proto")
    assert "AnalyseHand" in rpcs and "ChooseMove" in rpcs
    tour = _section("API tour")
    missing = [rpc for rpc in rpcs if f"`{rpc}`" not in tour]
    assert not missing, f"the API tour does not name {missing}"


def test_the_status_codes_say_which_games_analyse_a_hand() -> None:
    table = README[README.index("### Status codes") : README.index("### From Python")]
    row = next(line for line in table.splitlines() if line.startswith("| FAILED_PRECONDITION"))
    assert "AnalyseHand of a game that offers no hand analysis (every game but Scala 40)" in row
