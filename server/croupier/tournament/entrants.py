"""The entrants of a tournament: `--bot [NAME=]SPEC`, one per entrant.

A SPEC is anything `croupier_client.bots.bot_factory` resolves: `random`,
`heuristic` (the game's heuristic bot), `module:Class`, or `host:port` of a
BotService. An entrant is named by its NAME, else by its SPEC (`random`,
`random#2` for a second unnamed one).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import grpc

from croupier_client.bots import BotFactory, bot_factory
from croupier_client.bots.service import RemoteBot

MIN_ENTRANTS = 2
# How long a BotService named by host:port gets to accept a connection.
REMOTE_CONNECT_SECONDS = 5.0

_NAME = re.compile(r"^[\w.+#-]+$")


class EntrantError(ValueError):
    """A `--bot` argument that names no usable bot (a usage error)."""


@dataclass(frozen=True)
class Entrant:
    name: str
    spec: str
    factory: BotFactory


@dataclass(frozen=True)
class Probe:
    """What one bot made by an entrant's factory says about all of them."""

    remote: bool  # behind a BotService: asked from a thread pool
    wants_view: bool


def parse(texts: Sequence[str]) -> list[Entrant]:
    """The entrants named by the `--bot` arguments; EntrantError for an
    unknown bot, a bad or repeated name, or fewer than two entrants."""
    if len(texts) < MIN_ENTRANTS:
        got = "none" if not texts else f"only {len(texts)} ({texts[0]!r})"
        raise EntrantError(
            f"a tournament needs at least {MIN_ENTRANTS} entrants (--bot SPEC each); got {got}"
        )
    entrants: list[Entrant] = []
    taken: set[str] = set()
    for text in texts:
        name, spec = _split(text)
        if name is None:
            name, count = spec, 1
            while name in taken:
                count += 1
                name = f"{spec}#{count}"
        elif name in taken:
            raise EntrantError(f"--bot {text!r}: the name {name!r} is already taken")
        try:
            factory = bot_factory(spec)
        except ValueError as error:
            raise EntrantError(f"--bot {text!r}: {error}") from error
        taken.add(name)
        entrants.append(Entrant(name, spec, factory))
    return entrants


def _split(text: str) -> tuple[str | None, str]:
    """(NAME, SPEC) of `NAME=SPEC`, (None, SPEC) of a bare SPEC."""
    if "=" not in text:
        if not text:
            raise EntrantError("--bot '': empty bot spec")
        return None, text
    name, _, spec = text.partition("=")
    if not _NAME.match(name):
        raise EntrantError(
            f"--bot {text!r}: a name is letters, digits and _ . + # - (got {name!r})"
        )
    if not spec:
        raise EntrantError(f"--bot {text!r}: no bot spec after {name + '='!r}")
    return name, spec


def probe(entrant: Entrant, game: str) -> Probe:
    """Make one bot of `entrant` for `game` (a missing heuristic bot, a class
    that refuses the game) and, for a BotService, check that it accepts a
    connection. EntrantError when the entrant cannot play `game`."""
    try:
        bot = entrant.factory(game, 0)
    except (ImportError, ValueError, TypeError) as error:
        what = (
            f"the heuristic bot of {game!r} is not available"
            if entrant.spec == "heuristic"
            else f"the bot {entrant.spec!r} cannot play {game!r}"
        )
        raise EntrantError(f"entrant {entrant.name!r}: {what}: {error}") from error
    remote = isinstance(bot, RemoteBot)
    if remote:
        _check_reachable(entrant)
    return Probe(remote=remote, wants_view=bool(getattr(bot, "wants_view", True)))


def _check_reachable(entrant: Entrant) -> None:
    channel = grpc.insecure_channel(entrant.spec)
    try:
        grpc.channel_ready_future(channel).result(timeout=REMOTE_CONNECT_SECONDS)
    except grpc.FutureTimeoutError as error:
        raise EntrantError(
            f"entrant {entrant.name!r}: no BotService answers at {entrant.spec} "
            f"within {REMOTE_CONNECT_SECONDS:g} s"
        ) from error
    finally:
        channel.close()
