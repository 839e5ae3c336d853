"""Bots: anything that picks one of the legal moves its seat is offered.

A bot sees what its seat may see (a `View`) and the moves the rules allow
it (`LegalMove`s with their notation), never the state. Its randomness is
its own (`random.Random(seed)`), so a seeded bot plays the same way against
the same positions on any replica.

Bots are named three ways (`make_bot`): a built-in name (`random`,
`heuristic`: the heuristic bot of the game), `module:Class` (a class taking
the keyword arguments `game` and `seed`), or `host:port` of a BotService
(`croupier_client.bots.service`).
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Callable, Sequence
from typing import Protocol

from croupier_client.v1 import game_pb2, service_pb2


class Bot(Protocol):
    """Anything that picks one of the legal moves it is offered."""

    # False when the bot never reads its view: a harness may then hand it a
    # View with only `seat` set instead of asking the server for one.
    wants_view: bool

    def choose(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        """One of `moves` (never empty) for the seat `view.seat`."""
        ...


class HeuristicBot:
    """What the built-in heuristic bots share: made for one seat of one match
    (`game`, `seed`), they read their view, their generator breaks ties only,
    and `choose` checks what it is given before the game's own `decide`."""

    wants_view = True
    # The View oneof fields the bot reads, and how its error names them.
    view_fields: tuple[str, ...] = ()
    view_name = ""

    def __init__(self, game: str = "", seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self._random = random.Random(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(game={self.game!r}, seed={self.seed})"

    def choose(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        """One of `moves` by the game's heuristics; ValueError when there is
        no move, or the view is of a game this bot does not play."""
        if not moves:
            raise ValueError("no legal move to choose from")
        kind = view.WhichOneof("game_view")
        if kind not in self.view_fields:
            raise ValueError(f"{type(self).__name__} needs {self.view_name} view, got {kind!r}")
        return self.decide(view, moves)

    def decide(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        """The game's choice among `moves` (at least one), on its own view."""
        raise NotImplementedError


# Makes the bot of one seat of one match: (game, seed) -> Bot.
BotFactory = Callable[[str, int], Bot]


class RandomBot:
    """Chooses uniformly among the legal moves, with its own seeded generator."""

    wants_view = False

    def __init__(self, seed: int = 0, game: str = "") -> None:
        self.seed = seed
        self.game = game
        self._random = random.Random(seed)

    def choose(
        self, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]
    ) -> service_pb2.LegalMove:
        """A uniformly random move of `moves`; ValueError when there is none."""
        if not moves:
            raise ValueError("no legal move to choose from")
        return moves[self._random.randrange(len(moves))]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


# The heuristic bot of each game: module of croupier_client.bots, class name.
HEURISTIC_BOTS: dict[str, tuple[str, str]] = {
    "hundred_and_one": ("hundred_and_one", "HundredAndOneBot"),
    "uno": ("uno", "UnoBot"),
    "scala40": ("scala40", "Scala40Bot"),
    "most": ("most", "MostBot"),
    "sto": ("counting", "CountingBot"),
    "one_hundred": ("counting", "CountingBot"),
    "chips_101": ("counting", "CountingBot"),
}

_TARGET = re.compile(r"^[\w.\-\[\]:]+:\d+$")


def heuristic_bot(game: str, seed: int) -> Bot:
    """The heuristic bot of `game`; ValueError for a game without one."""
    if game not in HEURISTIC_BOTS:
        raise ValueError(f"no heuristic bot for the game {game!r}")
    module, name = HEURISTIC_BOTS[game]
    cls = getattr(importlib.import_module(f"croupier_client.bots.{module}"), name)
    bot: Bot = cls(game=game, seed=seed)
    return bot


def bot_factory(spec: str) -> BotFactory:
    """A factory for the bot named `spec`: `random`, `heuristic`,
    `module:Class`, or `host:port` of a BotService. ValueError when the name
    is none of these (or the class cannot be imported)."""
    if spec == "random":
        return lambda game, seed: RandomBot(seed=seed, game=game)
    if spec == "heuristic":
        return heuristic_bot
    if _TARGET.match(spec):
        from croupier_client.bots.service import remote_bot_factory

        return remote_bot_factory(spec)
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise ValueError(
            f"unknown bot {spec!r}: expected random, heuristic, module:Class or host:port"
        )
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"cannot load the bot {spec!r}: {error}") from error
    return lambda game, seed: cls(game=game, seed=seed)  # type: ignore[no-any-return]


def choose_index(bot: Bot, view: game_pb2.View, moves: Sequence[service_pb2.LegalMove]) -> int:
    """The index in `moves` of the bot's choice; ValueError when the bot
    answered a move that was not offered."""
    choice = bot.choose(view, moves)
    for index, move in enumerate(moves):
        if move is choice:
            return index
    for index, move in enumerate(moves):
        if move == choice:
            return index
    raise ValueError(f"the bot {bot!r} chose {choice.notation!r}, which was not offered")


__all__ = [
    "HEURISTIC_BOTS",
    "Bot",
    "HeuristicBot",
    "BotFactory",
    "RandomBot",
    "bot_factory",
    "choose_index",
    "heuristic_bot",
]
