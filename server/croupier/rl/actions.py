"""Action numbering: which integer of `Discrete(N)` stands for which move.

Two schemes, chosen per game (croupier.rl.games):

- `StableActions`, where a game's moves are few and fixed (101, UNO, the
  counting games): every move the game can ever offer a seat has its own
  number, the same in every position — what a learner wants, since action 17
  always means "play the 10 of hearts". The numbering is a *vocabulary*: the
  game's moves in a fixed order, built once per seat from the rule options
  and the table size, and matched to a listed move by its canonical notation
  (every move has exactly one). Moves naming another seat (a UNO catch, a
  7's hand swap) name it relative to the mover (+1 is the next seat
  clockwise), so one number means the same thing from every seat.
- `ListedActions`, where moves are combinatorial (Scala 40's openings and
  melds, «Мост»'s melds with every joker identity): action i is the i-th
  legal move in the engine's canonical listing order. N is a bound on the
  listing's length; a position listing more is an error, never a listing cut
  short, so the action mask is always exactly the legal moves.

Both add one last action, DECLINE: "let play go on", legal only for a seat
offered a chance to act out of turn (turns.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from croupier.engine.registry import Game
from croupier.v1 import game_pb2, service_pb2

DECLINE_TEXT = "DECLINE"

# A game's vocabulary for one seat: (the mover's seat, the table size) -> every
# move that seat may ever be offered, in a fixed order.
Vocabulary = Callable[[int, int], list[game_pb2.Move]]


class ActionBoundExceeded(RuntimeError):
    """A position lists more moves than a ListedActions scheme numbers."""


class UnknownMove(RuntimeError):
    """A listed move is missing from a StableActions vocabulary (a vocabulary
    that does not cover its game: a bug to report)."""


class ActionScheme:
    """The numbering of one environment's actions (see the module docstring)."""

    size: int  # Discrete(size); the last action is DECLINE
    stable: bool  # True: an action names the same move in every position

    @property
    def decline(self) -> int:
        return self.size - 1

    def actions_of(self, seat: int, moves: Sequence[service_pb2.LegalMove]) -> list[int]:
        """The action of each listed move of `seat`, aligned with `moves`."""
        raise NotImplementedError

    def describe(self, seat: int, action: int) -> str:
        """What `action` means for `seat` (a notation, DECLINE, or a listing index)."""
        raise NotImplementedError


class StableActions(ActionScheme):
    """One number per move of the game's vocabulary (module docstring)."""

    stable = True

    def __init__(self, game: Game, seats: int, vocabulary: Vocabulary) -> None:
        self.game = game
        self.seats = seats
        self._vocabulary = vocabulary
        self._notations: dict[int, list[str]] = {}
        self._index: dict[int, dict[str, int]] = {}
        self.size = len(self._words(0)) + 1

    def _words(self, seat: int) -> list[str]:
        """The seat's vocabulary as notations, built on first use."""
        words = self._notations.get(seat)
        if words is None:
            words = [self.game.notation(move) for move in self._vocabulary(seat, self.seats)]
            index = {word: i for i, word in enumerate(words)}
            if len(index) != len(words):
                raise ValueError(f"the {self.game.name} vocabulary names a move twice")
            if self._notations and len(words) != self.size - 1:
                raise ValueError(
                    f"the {self.game.name} vocabulary of seat {seat} has {len(words)} moves; "
                    f"seat 0's has {self.size - 1}"
                )
            self._notations[seat] = words
            self._index[seat] = index
        return words

    def actions_of(self, seat: int, moves: Sequence[service_pb2.LegalMove]) -> list[int]:
        self._words(seat)
        index = self._index[seat]
        try:
            return [index[move.notation] for move in moves]
        except KeyError as missing:
            raise UnknownMove(
                f"{self.game.name}: the move {missing.args[0]!r} of seat {seat} is not in the "
                f"action vocabulary ({self.size - 1} moves for {self.seats} seats)"
            ) from None

    def describe(self, seat: int, action: int) -> str:
        if action == self.decline:
            return DECLINE_TEXT
        return self._words(seat)[action]


class ListedActions(ActionScheme):
    """Action i = the i-th listed move; `bound` numbers at most that many."""

    stable = False

    def __init__(self, game: Game, bound: int) -> None:
        if bound < 1:
            raise ValueError(f"max_actions must be at least 1; got {bound}")
        self.game = game
        self.bound = bound
        self.size = bound + 1

    def actions_of(self, seat: int, moves: Sequence[service_pb2.LegalMove]) -> list[int]:
        if len(moves) > self.bound:
            raise ActionBoundExceeded(
                f"{self.game.name}: seat {seat} has {len(moves)} legal moves here, more than "
                f"the {self.bound} actions this environment numbers; make it with a larger "
                "max_actions (the listing is never cut: the mask must be the legal moves)"
            )
        return list(range(len(moves)))

    def describe(self, seat: int, action: int) -> str:
        if action == self.decline:
            return DECLINE_TEXT
        return f"listed move #{action}"
