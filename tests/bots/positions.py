"""What the bot tests share: a preset's resolved options, legal moves written
as move texts, and whole matches in which every choice is checked to be one
of the moves offered."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from croupier.inprocess import InProcess
from croupier.v1 import game_pb2, service_pb2
from croupier_client import playout
from croupier_client.bots import Bot


@cache
def _options(game: str, preset: str, seats: int) -> bytes:
    state = InProcess().new_game(game, preset=preset, seat_count=seats, seed=0).state
    return state.options.SerializeToString()


def preset_options(game: str, preset: str, seats: int) -> game_pb2.GameOptions:
    """The options a table of `game` at `preset` with `seats` seats resolves to."""
    return game_pb2.GameOptions.FromString(_options(game, preset, seats))


def legal_moves(
    parse: Callable[[str, int], game_pb2.Move], texts: Sequence[str], seat: int = 0
) -> list[service_pb2.LegalMove]:
    """LegalMoves of `seat` from their texts, read by the game's notation."""
    return [service_pb2.LegalMove(move=parse(text, seat), notation=text) for text in texts]


def play_checked(
    game: str,
    preset: str,
    bots: Sequence[Bot],
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> tuple[game_pb2.GameState, int]:
    """A whole match in-process, `bots[seat]` at each seat, failing as soon as
    a bot answers anything but one of the very moves it was offered."""
    backend = InProcess()
    chooser = playout.seat_bots(bots, backend.view)
    offered = 0

    def choose(state: game_pb2.GameState, legal: playout.LegalMoves) -> service_pb2.LegalMove:
        nonlocal offered
        choice = chooser(state, legal)
        moves = [move for seat_moves in legal.values() for move in seat_moves]
        assert any(choice is move for move in moves), (
            f"{choice.notation!r} was not offered: {[m.notation for m in moves]}"
        )
        offered += 1
        return choice

    final, _ = playout.play_match(backend, game, preset, len(bots), seed, choose, options=options)
    return final, offered
