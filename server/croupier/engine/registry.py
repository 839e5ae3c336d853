"""The interface every game implements, and the registry that finds them.

The registry names no game: games are found through the `croupier.games`
entry-point group (pyproject.toml), or registered directly with `register`
(a test's stub game, a notebook's experiment).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from typing import Protocol

from google.protobuf.message import Message

from croupier.engine.options import Catalogue, Preset, Value
from croupier.v1 import game_pb2

ENTRY_POINT_GROUP = "croupier.games"


class Game(Protocol):
    """One game: pure functions over the generated messages.

    The framework (`engine.api`) checks the envelope, applies the gates every
    game shares (deal over, match over, a seat that may not act, a stale
    move), copies the state before `apply`, keeps `acting_seats` and the move
    counter; a game fills in the rules.
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

    def new_game(self, state: game_pb2.GameState, options: Message) -> Sequence[game_pb2.Event]:
        """Fill the game part of a fresh envelope (seats, seed set) and deal."""

    def validate(self, state: game_pb2.GameState) -> None:
        """Raise InvalidInput unless the game part of `state` is consistent."""

    def check_move_shape(self, move: game_pb2.Move) -> None:
        """Raise InvalidInput unless the game's move message is well formed."""

    def acting_seats(self, state: game_pb2.GameState) -> list[int]:
        """The seats that may move now, ascending (the deal is in progress).
        Decided by options and public facts only, never by a hidden card."""

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        """Every legal move of an acting `seat`, in canonical order."""

    # Optional, for the hot path: `encoded_legal_moves(state, seat) -> list[bytes]`,
    # the same moves serialized, in the same order (engine/move_codec.py).

    # Optional: `owes_move(state, seat) -> bool`, whether an acting seat owes a
    # move now (the seat to act, a seat an overlay waits for) rather than
    # merely may make one (a UNO catch, jump-in or report). A seat that owes
    # no move may list moves and still have no DefaultMove (FAILED_PRECONDITION);
    # without the hook, every acting seat that lists a move has a default (the
    # conformance suite holds a game to whichever applies).

    # Optional: `match_bound: Mapping[str, Value]`, options that a match
    # between programs (random playouts, tournaments, the bench, the
    # conformance suite) sets so that it ends, where the game's own default
    # may never end (C-M-4: «Мост»'s max_deals). `bounded` applies it.

    # Optional: `canonical_move(state, move) -> Move`, the one canonical
    # spelling of a well-formed move written another way (a rummy meld's
    # cards in another order, a lay-off without the end it can only go to).
    # Every move keeps exactly one spelling — the one `legal_moves` lists,
    # `notation` prints and `apply` stores — but a move written in another
    # spelling of the same move is accepted as that move. `engine.api`
    # calls it after the move's shape check and before the gates, on a state
    # already validated (or trusted) whose deal may be over and whose seat
    # may not act, so it must not raise: it returns `move` itself (the same
    # object) when the move is canonical already, is no respelling of a legal
    # move, or could be read as two different moves — the rules then refuse
    # it as written — and otherwise a new Move with the same `seat` and
    # `seen_move_number`. It must be cheap for a canonical move (every
    # ApplyMove pays it) and is an identity on every listed move (the
    # conformance suite checks both: a candidate is accepted iff its
    # canonical form is listed). A game without it is read as written.

    def apply(self, state: game_pb2.GameState, move: game_pb2.Move) -> Sequence[game_pb2.Event]:
        """Play `move` of an acting seat on `state` in place (the caller passes
        a copy), or raise IllegalMove leaving the state unusable."""

    def default_move(self, state: game_pb2.GameState, seat: int) -> game_pb2.Move:
        """The legal move an acting `seat` is deemed to make when its clock runs out."""

    def view(self, state: game_pb2.GameState, seat: int, view: game_pb2.View) -> None:
        """Fill the game part of `view` with what `seat` may see."""

    def view_text(self, view: game_pb2.View) -> str:
        """One line saying what a view shows (goldens, transcripts)."""

    def next_deal(self, state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
        """Deal the next deal of the match in place (the deal is over)."""

    def notation(self, move: game_pb2.Move) -> str:
        """The move's canonical short text."""

    def parse_notation(self, text: str, seat: int) -> game_pb2.Move:
        """The move a canonical text stands for (ValueError when none)."""

    # -- hooks of the conformance suite ----------------------------------------

    def visible_cards(self, state: game_pb2.GameState, seat: int) -> Counter[int]:
        """Every card `seat` may see now (its hand, face-up piles, what was
        revealed to it), as a multiset: the suite's leak check is generic."""

    def candidate_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        """Well-formed moves worth trying for `seat`, legal or not (every card
        held with every choice, every card-less action): the suite checks
        that exactly the listed ones are accepted."""


_GAMES: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add a game to the registry (replacing one of the same name)."""
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game (tests that register stubs clean up with this)."""
    _GAMES.pop(name, None)


def games() -> list[Game]:
    """Every registered game, in registration order."""
    _load()
    return list(_GAMES.values())


def find(name: str) -> Game | None:
    """The game called `name`, or None."""
    if not _loaded:
        _load()
    return _GAMES.get(name)


class GameLoadError(RuntimeError):
    """A registered game's package could not be loaded: the server's fault,
    never a client's (it must not read as "unknown game")."""


def _load() -> None:
    # Entry points, sorted by name so that the registration order (ListGames)
    # is the same on every machine. All or nothing: a game whose package fails
    # to import raises GameLoadError on every call, instead of the others
    # being served and it answered as an unknown game.
    global _loaded
    if _loaded:
        return
    loaded = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        try:
            loaded.append(point.load())
        except Exception as error:
            raise GameLoadError(
                f"game {point.name!r} ({point.value}) failed to load: {error!r}"
            ) from error
    for game in loaded:
        if game.name not in _GAMES:
            register(game)
    _loaded = True


def bounded(game: str, options: Mapping[str, Value] | None = None) -> dict[str, Value]:
    """`options` for a match between programs: the game's `match_bound`
    (C-M-4), under whatever `options` set themselves."""
    found = find(game)
    bound: Mapping[str, Value] = getattr(found, "match_bound", {}) if found else {}
    return {**bound, **(options or {})}
