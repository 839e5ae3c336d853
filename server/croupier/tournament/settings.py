"""The command line of `croupier tournament`, and the table it names checked
against the server's game catalogue (ListGames)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from croupier.engine.options import Value
from croupier.v1 import options_pb2
from croupier_client.client import DEFAULT_TARGET
from croupier_client.playout import DEFAULT_MAX_MOVES

DEFAULT_MATCHES = 100
DEFAULT_SEED = 1
DEFAULT_PARALLEL = 64
DEFAULT_TIME_BUDGET_MS = 2000
REPORTS = Path("reports") / "tournament"


class SettingsError(ValueError):
    """An argument that names no table the server offers (a usage error)."""


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1; got {value}")
    return value


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more; got {value}")
    return value


def _option(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE; got {text!r}")
    return name, value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="croupier tournament",
        description="Play many matches between bots through a Croupier server, in batches "
        "(ApplyMoveBatch), and report win rates with 95 % Wilson intervals, faults, "
        "openskill ratings and throughput; every match is saved for `croupier replay`.",
    )
    table = p.add_argument_group("the table")
    table.add_argument("--game", required=True, help="the game id (ListGames), e.g. uno")
    table.add_argument("--preset", default="", help="a preset of the game (default: its default)")
    table.add_argument(
        "--option",
        action="append",
        type=_option,
        default=[],
        metavar="NAME=VALUE",
        help="set an option on top of the preset (repeatable): true/false for BOOL, an "
        "integer for INT, a name for ENUM, comma-separated names for SET",
    )
    table.add_argument(
        "--seats",
        type=_positive,
        help="seats per match (default: as many as entrants, within the game's range)",
    )
    bots = p.add_argument_group("the entrants")
    bots.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="[NAME=]SPEC",
        help="one entrant (at least 2): random, heuristic, module:Class or host:port of a "
        "BotService, optionally named (e.g. h=heuristic)",
    )
    bots.add_argument(
        "--no-rotation",
        dest="rotation",
        action="store_false",
        help="with as many entrants as seats, keep entry order instead of rotating the "
        "first seat from match to match",
    )
    bots.add_argument(
        "--time-budget-ms",
        type=_non_negative,
        default=DEFAULT_TIME_BUDGET_MS,
        help="a bot's time per move; a later answer is a fault and the seat's DefaultMove "
        f"is played (0: no limit; default {DEFAULT_TIME_BUDGET_MS})",
    )
    run = p.add_argument_group("the run")
    run.add_argument("--matches", type=_positive, default=DEFAULT_MATCHES, help="matches to play")
    run.add_argument(
        "--seed", type=_non_negative, default=DEFAULT_SEED, help="match i uses seed SEED+i"
    )
    run.add_argument(
        "--parallel",
        type=_positive,
        default=DEFAULT_PARALLEL,
        help=f"matches in flight at once (default {DEFAULT_PARALLEL})",
    )
    run.add_argument(
        "--connections",
        type=_positive,
        help="connections to the server, each sending its own batches (default: one per "
        "worker with --serve, at least 2)",
    )
    run.add_argument(
        "--max-moves",
        type=_positive,
        default=DEFAULT_MAX_MOVES,
        help=f"a match still going after this many moves is stopped and reported "
        f"(default {DEFAULT_MAX_MOVES:,})",
    )
    where = run.add_mutually_exclusive_group()
    where.add_argument(
        "--target", help=f"host:port of a running Croupier server (default {DEFAULT_TARGET})"
    )
    where.add_argument(
        "--serve",
        type=_positive,
        metavar="W",
        help="start a local `croupier serve --workers W` on a free port, stop it at the end",
    )
    out = p.add_argument_group("the output")
    out.add_argument(
        "--out",
        type=Path,
        help=f"where REPORT.md, results.json, plot.png and records.jsonl go "
        f"(default {REPORTS}/<game>-<preset>)",
    )
    out.add_argument("--quiet", action="store_true", help="no progress bar")
    out.add_argument(
        "--no-plot",
        dest="plot",
        action="store_false",
        help="skip plot.png (matplotlib's import and drawing take seconds)",
    )
    return p


def find_game(games: Sequence[options_pb2.GameDescriptor], name: str) -> options_pb2.GameDescriptor:
    for game in games:
        if game.name == name:
            return game
    known = ", ".join(sorted(g.name for g in games))
    raise SettingsError(f"--game {name!r}: unknown game; the server has {known}")


def find_preset(game: options_pb2.GameDescriptor, name: str) -> options_pb2.PresetDescriptor:
    name = name or game.default_preset
    for preset in game.presets:
        if preset.name == name:
            return preset
    known = ", ".join(p.name for p in game.presets)
    raise SettingsError(f"--preset {name!r}: {game.name} has no such preset; it has {known}")


def seat_count(
    game: options_pb2.GameDescriptor,
    preset: options_pb2.PresetDescriptor,
    asked: int | None,
    entrants: int,
) -> int:
    """The seats per match: `asked`, else as many as entrants within the
    preset's range; SettingsError outside it or with fewer entrants."""
    low = max(game.min_seats, preset.min_seats or game.min_seats)
    high = min(game.max_seats, preset.max_seats or game.max_seats)
    seats = asked if asked is not None else min(entrants, high)
    if not low <= seats <= high:
        raise SettingsError(
            f"--seats {seats}: {game.name} ({preset.name}) is played with {low} to {high} seats"
        )
    if entrants < seats:
        raise SettingsError(
            f"{seats} seats need at least {seats} entrants; got {entrants} "
            "(the same bot may enter twice under two names: --bot a=random --bot b=random)"
        )
    return seats


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def option_values(
    game: options_pb2.GameDescriptor, settings: Sequence[tuple[str, str]]
) -> dict[str, Value]:
    """The --option settings as Python values of their declared types (what
    croupier_client.client.option_value turns into an OptionValue)."""
    catalogue = {option.name: option for option in game.options}
    values: dict[str, Value] = {}
    for name, text in settings:
        option = catalogue.get(name)
        if option is None:
            known = ", ".join(sorted(catalogue)) or "none"
            raise SettingsError(f"--option {name}: {game.name} has no such option; it has {known}")
        if name in values:
            raise SettingsError(f"--option {name}: set twice")
        values[name] = _value(option, text)
    return values


def _value(option: options_pb2.OptionDescriptor, text: str) -> Value:
    where = f"--option {option.name}={text}"
    allowed = list(option.allowed_values)
    if option.type == options_pb2.OPTION_TYPE_BOOL:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise SettingsError(f"{where}: a BOOL option is true or false")
    if option.type == options_pb2.OPTION_TYPE_INT:
        try:
            return int(text)
        except ValueError:
            raise SettingsError(f"{where}: an INT option takes an integer") from None
    if option.type == options_pb2.OPTION_TYPE_ENUM:
        if allowed and text not in allowed:
            raise SettingsError(f"{where}: one of {', '.join(allowed)}")
        return text
    if option.type == options_pb2.OPTION_TYPE_SET:
        names = tuple(n for n in text.split(",") if n) if text else ()
        unknown = [n for n in names if allowed and n not in allowed]
        if unknown:
            raise SettingsError(f"{where}: {', '.join(unknown)} not among {', '.join(allowed)}")
        return names
    raise SettingsError(f"{where}: the server declares an option type {option.type} unknown here")
