"""The interface every game implements, and the registry that finds them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from google.protobuf.message import Message

from croupier.engine.options import Catalogue, Preset
from croupier.v1 import game_pb2


class Game(Protocol):
    """One game: pure functions over the generated messages.

    The framework (`engine.api`) checks the envelope, copies the state before
    `apply`, and counts moves; a game fills in the rules.
    """

    name: str  # GameState.game, and the name of the oneof fields
    display_name: str
    description: str
    rules_version: int
    min_seats: int
    max_seats: int
    catalogue: Catalogue
    presets: Sequence[Preset]
    default_preset: str

    def check_options(self, options: Message, path: str) -> None:
        """Reject combinations of option values that contradict each other."""

    def new_game(self, state: game_pb2.GameState, options: Message) -> list[game_pb2.Event]:
        """Fill the game part of a fresh envelope (seats, seed set) and deal."""

    def validate(self, state: game_pb2.GameState) -> None:
        """Raise InvalidInput unless the game part of `state` is consistent."""

    def check_move_shape(self, move: game_pb2.Move) -> None:
        """Raise InvalidInput unless the game's move message is well formed."""

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        """Every legal move of `seat`, in canonical order."""

    def apply(self, state: game_pb2.GameState, move: game_pb2.Move) -> list[game_pb2.Event]:
        """Play `move` on `state` in place (the caller passes a copy), or raise
        IllegalMove leaving the state unusable."""

    def view(self, state: game_pb2.GameState, seat: int, view: game_pb2.View) -> None:
        """Fill the game part of `view` with what `seat` may see."""

    def next_deal(self, state: game_pb2.GameState) -> list[game_pb2.Event]:
        """Deal the next deal of the match in place (the deal is over)."""

    def notation(self, move: game_pb2.Move) -> str:
        """The move's canonical short text."""

    def parse_notation(self, text: str, seat: int) -> game_pb2.Move:
        """The move a canonical text stands for (ValueError when none)."""


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry (at import of its package)."""
    _GAMES[game.name] = game
    return game


def games() -> list[Game]:
    """Every registered game, in registration order."""
    _load()
    return list(_GAMES.values())


def find(name: str) -> Game | None:
    """The game called `name`, or None."""
    _load()
    return _GAMES.get(name)


_loaded = False


def _load() -> None:
    # The games register themselves on import; importing here keeps the
    # registry's users from having to know the list.
    global _loaded
    if not _loaded:
        import croupier.games  # noqa: F401

        _loaded = True
