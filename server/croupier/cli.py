"""The `croupier` command: `croupier serve` runs the server, `croupier demo`
plays a game against it (the demo lives in the client library), `croupier
rules` prints a game's rules."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence

# The exit status of a command whose output pipe closed before it was done
# (`croupier rules uno | head -1`), with no traceback: 0, the reader took
# what it wanted. Python ignores SIGPIPE, so a write to a closed pipe raises
# BrokenPipeError; every command ends through `main`, which turns it into
# this status. 0 and not 141 (a shell's status for a process SIGPIPE ended):
# argparse already ends 0 when its help meets a closed pipe (it swallows the
# error), and whether the error shows at a write or only at the last flush
# depends on buffering (PYTHONUNBUFFERED), which must not change the status.
BROKEN_PIPE_EXIT = 0

# Subcommands with their own parsers: name -> (module with main(argv), help).
TOOLS = {
    "demo": ("croupier_client.demo", "play a demo game against a running server"),
    "rules": ("croupier.rules_text", "print a game's rules as implemented (GAME [--preset P])"),
    "tournament": (
        "croupier.tournament.run",
        "play many matches between bots through a server, with win rates and ratings",
    ),
    "replay": (
        "croupier.tournament.replay",
        "replay saved match records against the engine, verifying every state digest",
    ),
    "play": ("croupier.play", "play any game against bots in the terminal"),
}


def build_parser() -> argparse.ArgumentParser:
    """The `croupier` argument parser with its subcommands."""
    # Imported here so that `croupier --help` and `croupier demo` do not pay
    # for grpc's import.
    from croupier.service.config import add_arguments

    parser = argparse.ArgumentParser(
        prog="croupier", description="A stateless gRPC rules engine for card games."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    serve = commands.add_parser(
        "serve",
        help="run the gRPC server (worker processes) until SIGTERM or SIGINT",
        description="Run the gRPC server. Flags win over their environment variables.",
    )
    add_arguments(serve)
    # These parse their own flags, so help and every other argument pass
    # through untouched.
    for name, (_, help_text) in TOOLS.items():
        commands.add_parser(name, help=help_text, add_help=False)
    keygen = commands.add_parser(
        "seal-keygen",
        help="print a new sealing key line for --seal-keys (README, Sealed states)",
        description="Print 'seal ID BASE64' with 32 random bytes (AES-256-GCM).",
    )
    keygen.add_argument("key_id", metavar="ID", help="the key's id, e.g. 2026-11")
    keygen.add_argument("--open", action="store_true", help="mark it 'open' (opens, never seals)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `croupier` console script; returns the exit code
    (BROKEN_PIPE_EXIT, quietly, when the output's reader went away)."""
    try:
        try:
            return _main(argv)
        finally:
            # What is still buffered meets a closed pipe here, not in the
            # interpreter's exit (which would print "Exception ignored").
            sys.stdout.flush()
    except BrokenPipeError:
        _discard_output()
        return BROKEN_PIPE_EXIT


def _discard_output() -> None:
    """Point stdout and stderr at /dev/null: what is still buffered, and the
    interpreter's last flush, then go nowhere instead of raising again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        # (Not a file, as a test's capture is: nothing to point elsewhere.)
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(devnull, stream.fileno())
    os.close(devnull)


def _main(argv: Sequence[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    namespace, rest = parser.parse_known_args(args)
    if namespace.command in TOOLS:
        return _tool(parser, namespace.command, rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if namespace.command == "seal-keygen":
        from croupier.service.sealing import new_key_line

        try:
            print(new_key_line(namespace.key_id, "open" if namespace.open else "seal"))
        except ValueError as error:
            parser.error(str(error))
        return 0
    from croupier.service.config import ServerConfig
    from croupier.service.security import preflight
    from croupier.service.supervisor import serve

    try:
        config = ServerConfig.from_namespace(namespace)
        preflight(config)  # TLS files and sealing keys, read before any worker starts
    except ValueError as error:
        parser.error(str(error))
    return serve(config)


def _tool(parser: argparse.ArgumentParser, command: str, argv: list[str]) -> int:
    module_name = TOOLS[command][0]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is None or not module_name.startswith(error.name):
            raise
        parser.error(f"{command} needs {module_name}, which is not installed")
    result = module.main(argv)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
