"""Each registered game's observation encoder and action numbering.

- hundred_and_one: a stable vocabulary (games/hundred_and_one.py): 52
  cards, a Queen's four suits, seven card-less moves.
- uno: a stable vocabulary (games/uno.py): plays by card and choice, calls,
  catches and exchanges naming seats relative to the mover.
- sto, one_hundred, chips_101: a stable vocabulary (games/counting.py): the
  deck's cards with the choices their effects take.
- scala40: an index into the listing, N = 1024: openings, melds, lay-offs,
  swaps and splits are combinatorial.
- most: an index into the listing, N = 16384: melds with every joker
  identity are combinatorial.

The listing bounds (`LISTING_BOUNDS`) are checks, not proofs. Random play
never listed more than 33 Scala 40 or 139 «Мост» moves in a position (every
preset, 2 and 6/8 seats, 12 matches each); hands rich in jokers list far
more (Scala 40, the four jokers and a ten-card run opened: 466; «Мост», both
jokers and a nine-card run: 1,257, a whole suit: 9,766, all 54 cards:
39,695 melds, the absolute worst; tests/rl/test_bounds.py). A position
listing more than N raises `ActionBoundExceeded` — the listing is never cut
short — and `max_actions` chooses another N (a learner may well want 256,
and meet the check on a freak hand).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from google.protobuf.message import Message

from croupier.engine.registry import Game
from croupier.rl.actions import ActionScheme, ListedActions, StableActions, Vocabulary
from croupier.rl.encoder import Encoder
from croupier.rl.games import counting, hundred_and_one, most, scala40, uno
from croupier.v1 import game_pb2

LISTING_BOUNDS = {"scala40": 1024, "most": 16384}


@dataclass(frozen=True)
class Adapter:
    """How one game meets the environment."""

    encoder: Callable[[int, Message], Encoder]  # (seats, options) -> encoder
    # The table's vocabulary (stable actions), or None: index into the listing.
    vocabulary: Callable[[game_pb2.GameState], Vocabulary] | None = None


ADAPTERS: dict[str, Adapter] = {
    "hundred_and_one": Adapter(
        hundred_and_one.HundredAndOneEncoder, lambda state: hundred_and_one.vocabulary
    ),
    "uno": Adapter(uno.UnoEncoder, uno.vocabulary_of),
    "sto": Adapter(counting.CountingEncoder, counting.vocabulary_of),
    "one_hundred": Adapter(counting.CountingEncoder, counting.vocabulary_of),
    "chips_101": Adapter(counting.CountingEncoder, counting.vocabulary_of),
    "scala40": Adapter(scala40.Scala40Encoder),
    "most": Adapter(most.MostEncoder),
}


def adapter_of(game: str) -> Adapter:
    """The adapter of `game`; ValueError for a game without one."""
    adapter = ADAPTERS.get(game)
    if adapter is None:
        raise ValueError(
            f"no reinforcement-learning adapter for the game {game!r}; "
            f"games with one: {', '.join(sorted(ADAPTERS))}"
        )
    return adapter


def action_scheme(
    game: Game, state: game_pb2.GameState, max_actions: int | None = None
) -> ActionScheme:
    """The action numbering of a table (its first state: game, options, seats)."""
    adapter = adapter_of(game.name)
    seats = len(state.seats)
    if adapter.vocabulary is not None:
        if max_actions is not None:
            raise ValueError(
                f"{game.name} numbers its moves by a fixed vocabulary: max_actions applies "
                "only to games whose actions index the listing (scala40, most)"
            )
        return StableActions(game, seats, adapter.vocabulary(state))
    bound = LISTING_BOUNDS[game.name] if max_actions is None else max_actions
    return ListedActions(game, bound)
