"""`croupier rules GAME [--preset P]`: a game's rules as Croupier plays them
— its RULES.md, the one reference its rejections and option references
point into — headed by its facts and, with --preset, what the preset sets."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from croupier.engine import api, registry
from croupier.v1 import options_pb2, service_pb2


def rules_path(name: str) -> Path:
    """The RULES.md of the package that defines game `name`."""
    game = registry.find(name)
    if game is None:
        raise KeyError(name)
    module = sys.modules[type(game).__module__]
    assert module.__file__ is not None
    return Path(module.__file__).parent / "RULES.md"


def value_text(value: options_pb2.OptionValue) -> str:
    kind = value.WhichOneof("kind")
    if kind == "bool_value":
        return "on" if value.bool_value else "off"
    if kind == "int_value":
        return str(value.int_value)
    if kind == "enum_value":
        return value.enum_value
    if kind == "set_value":
        return "{" + ", ".join(value.set_value.names) + "}"
    return "(unset)"


def _seats(low: int, high: int) -> str:
    return f"{low} seats" if low == high else f"{low}–{high} seats"


def heading(descriptor: options_pb2.GameDescriptor, preset: str = "") -> list[str]:
    """The lines before the rules: the game's facts, and a preset's settings."""
    lines = [
        f"{descriptor.display_name} — {descriptor.name}, rules version "
        f"{descriptor.rules_version}, {_seats(descriptor.min_seats, descriptor.max_seats)}; "
        f"presets: {', '.join(p.name for p in descriptor.presets)} "
        f"(default {descriptor.default_preset})"
    ]
    for chosen in descriptor.presets:
        if chosen.name != preset:
            continue
        low = max(descriptor.min_seats, chosen.min_seats)
        high = min(descriptor.max_seats, chosen.max_seats)
        lines.append(f"Preset {chosen.name} ({_seats(low, high)}): {chosen.description}")
        width = max((len(s.name) for s in chosen.settings), default=0)
        lines += [f"  {s.name:<{width}} = {value_text(s.value)}" for s in chosen.settings]
        if not chosen.settings:
            lines.append("  (every option at its default)")
    return lines


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="croupier rules",
        description="Print a game's rules as Croupier plays them (its RULES.md).",
    )
    parser.add_argument("game", metavar="GAME", help="game id, e.g. hundred_and_one")
    parser.add_argument("--preset", default="", help="also list what this preset sets")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    games = {g.name: g for g in api.list_games(service_pb2.ListGamesRequest()).games}
    descriptor = games.get(args.game)
    if descriptor is None:
        parser.error(f"unknown game {args.game!r}; known: {', '.join(sorted(games))}")
    preset = args.preset.lower()
    if preset and preset not in {p.name for p in descriptor.presets}:
        known = ", ".join(p.name for p in descriptor.presets)
        parser.error(f"unknown preset {args.preset!r} for {args.game}; known: {known}")
    print("\n".join(heading(descriptor, preset)))
    print()
    print(rules_path(args.game).read_text(encoding="utf-8"), end="")
    return 0
