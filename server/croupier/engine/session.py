"""A live game in-process: the rules applied in place, move after move.

The RPCs are stateless: every call brings a state, gets it checked (or
trusted), copied, changed and answered in a new message. A Python program
that plays many games itself — a bot under training, a tournament run on one
machine, the bench — pays all of that on every move for nothing. A `Session`
holds one game's state and applies each move to it in place, the way
OpenSpiel's `State.apply_action` or RLCard's `env.step` do:

    session = Session.new("hundred_and_one", preset="hd", seat_count=4, seed=7)
    while not session.over:
        if session.deal_over:
            session.next_deal()
            continue
        seat = session.acting_seats[0]
        choice = random.choice(session.legal_moves(seat))
        session.play(choice)

It runs the same code as the RPCs — the engine's gates, then the game's own
`apply`, `encoded_legal_moves`, `next_deal` — and `state` is at every moment
the message ApplyMove would have answered (a test holds the two paths to the
same bytes). What it leaves out is only what a state the session made itself
does not need: validating it again, copying it per move, building a response.

Two ways to move:
- `play(choice)` with a `LegalMove` that `legal_moves` offered in this very
  position: legal by the game's own listing (the conformance suite holds
  every game's listing to its check), so it is applied in place at once.
- `apply(move)` with any Move: checked like ApplyMove does, on a copy that
  replaces the state only when the move is legal; an illegal move raises
  IllegalMove (its reason, rule and message) and leaves the state as it was.

The `LegalMove` objects are shared between positions and sessions (one per
distinct move of a game): read them, never change them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from croupier.engine import api, caches, registry
from croupier.engine.errors import FailedPrecondition, IllegalMove, InvalidInput
from croupier.engine.live import Spec, flush, mirror
from croupier.engine.move_codec import CACHE_LIMIT, codec_of
from croupier.engine.options import option_settings
from croupier.engine.registry import Game
from croupier.v1 import game_pb2, service_pb2

_DEAL_OVER = game_pb2.MATCH_PHASE_DEAL_OVER
_MATCH_OVER = game_pb2.MATCH_PHASE_MATCH_OVER

# Per game (by id, the game object kept alive beside them): move bytes -> its
# LegalMove, parsed once; and a listing's move bytes -> the LegalMoves and
# their ids. Bounded like the codec's caches.
_Listing = tuple[list[service_pb2.LegalMove], frozenset[int]]
_Moves = caches.Bounded[bytes, service_pb2.LegalMove]
_Listings = caches.Bounded[tuple[bytes, ...], _Listing]
_caches: dict[int, tuple[Game, _Moves, _Listings]] = {}
_NONE: frozenset[int] = frozenset()


def _caches_of(game: Game) -> tuple[_Moves, _Listings]:
    entry = _caches.get(id(game))
    if entry is None or entry[0] is not game:
        # In-process play only (no served request makes a Session): registered
        # outside a worker's budget (engine/caches.py).
        moves: _Moves = caches.Bounded(f"session.moves.{game.name}", CACHE_LIMIT, 0, served=False)
        listings: _Listings = caches.Bounded(
            f"session.listings.{game.name}", CACHE_LIMIT, 0, served=False
        )
        entry = _caches[id(game)] = (game, moves, listings)
    return entry[1], entry[2]


class Session:
    """One game's state, changed in place by each move (module docstring)."""

    _state: game_pb2.GameState  # the message (stale while `_stale`)
    _live: Any  # the message, or its mirror (engine/live.py)
    _stale: bool  # the mirror holds moves the message does not
    _offered: frozenset[int]  # ids of the LegalMove objects offered in this position

    def __init__(self, state: game_pb2.GameState, *, trusted: bool = False) -> None:
        """Hold a copy of `state`, checked in full unless `trusted` (a state
        this engine produced and nobody changed since)."""
        game = registry.find(state.game) if trusted else api.check_state(state)
        if game is None:
            raise InvalidInput("state.game", f"unknown game {state.game!r}")
        self.game: Game = game
        self._codec = codec_of(game)
        self._cache, self._listings = _caches_of(game)
        # The game's hot fields as Python values (engine/live.py), when it names them.
        self._spec: Spec | None = getattr(game, "live_fields", None)
        copy = game_pb2.GameState()
        copy.CopyFrom(state)
        if not api.holds_acting_seats(game, copy):
            # Schema 1 carried none, an older rules version's are its own;
            # its moves are played by these rules (api.set_acting_seats).
            api.set_acting_seats(game, copy)
        self._hold(copy)

    @classmethod
    def new(
        cls,
        game: str,
        *,
        preset: str = "",
        seat_count: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        seat_names: Sequence[str] = (),
    ) -> Session:
        """A new match, dealt like NewGame deals it."""
        request = service_pb2.NewGameRequest(
            game=game,
            preset=preset,
            seat_count=seat_count,
            seed=seed,
            seat_names=seat_names,
            options=option_settings(options),
        )
        return cls(api.new_game(request).state, trusted=True)

    # -- looking ---------------------------------------------------------------

    @property
    def state(self) -> game_pb2.GameState:
        """The state now, as ApplyMove would have answered it (the session's
        own message: copy it to keep it past the next move)."""
        if self._spec is not None and self._stale:
            flush(self._live, self._spec)
            self._stale = False
        return self._state

    @property
    def position(self) -> game_pb2.GameState:
        """The state now, for reading its fields only (a chooser, a bot): the
        game's hot fields are read from the session's Python values without
        writing them back into the message first. Methods of the message
        itself (SerializeToString, CopyFrom…) need `state`."""
        return self._live  # type: ignore[no-any-return]

    @property
    def over(self) -> bool:
        """The match is over."""
        return self._live.match.phase == _MATCH_OVER  # type: ignore[no-any-return]

    @property
    def deal_over(self) -> bool:
        """The deal is over and the match is not: `next_deal` deals on."""
        return self._live.match.phase == _DEAL_OVER  # type: ignore[no-any-return]

    @property
    def acting_seats(self) -> list[int]:
        """The seats that may move now (empty between deals)."""
        return self._live.acting_seats[:]  # type: ignore[no-any-return]

    def legal_moves(self, seat: int) -> list[service_pb2.LegalMove]:
        """Every legal move of `seat` now, in canonical order (ListLegalMoves);
        empty for a seat that may not act. Shared objects: do not change them."""
        live = self._live
        if seat not in live.acting_seats:
            if seat >= len(live.seats):
                raise InvalidInput("seat", f"seat {seat} does not exist")
            return []
        # A position's listing, by its moves' bytes: the same LegalMove list
        # and the ids `play` trusts, built once per distinct listing.
        encoded = tuple(self._codec.encoded_legal(live, seat))
        listing = self._listings.get(encoded)
        if listing is None:
            listing = self._listing(encoded)
        moves, ids = listing
        self._offered = ids if not self._offered else self._offered | ids
        return list(moves)

    def view(self, seat: int) -> game_pb2.View:
        """What `seat` may see (GetView)."""
        return api.get_view(service_pb2.GetViewRequest(state=self.state, seat=seat)).view

    # -- moving ----------------------------------------------------------------

    def play(self, choice: service_pb2.LegalMove) -> Sequence[game_pb2.Event]:
        """Make a move `legal_moves` offered in this position; its events.
        Any other LegalMove goes through `apply` and its full check."""
        if id(choice) not in self._offered:
            return self.apply(choice.move)
        live = self._live
        if live.move_number == api.UINT64_MAX:
            raise InvalidInput("state.move_number", "is at its maximum: no further move")
        self._stale = True
        events = self.game.apply(live, choice.move)
        # The engine's bookkeeping after a move (api.apply_move_on's).
        live.move_number += 1
        live.acting_seats[:] = api.expected_acting_seats(self.game, live)
        self._offered = _NONE
        return events

    def apply(self, move: game_pb2.Move) -> Sequence[game_pb2.Event]:
        """Check `move` as ApplyMove does and make it; its events. An illegal
        move raises IllegalMove and leaves the state unchanged."""
        answer = api.apply_move_on(self.state, move, trusted=True)
        if not answer.accepted:
            rejection = answer.rejection
            common = rejection.reason != game_pb2.REJECTION_REASON_GAME_RULE
            game_reason = rejection.WhichOneof("game_reason")
            reason = rejection.reason
            if not common and game_reason is not None:
                reason = getattr(rejection, game_reason)
            raise IllegalMove(reason, rejection.message, rejection.rule, common=common)
        self._hold(answer.state)
        return list(answer.events)

    def next_deal(self) -> Sequence[game_pb2.Event]:
        """Deal the next deal (NextDeal); its events."""
        state = self.state
        if state.match.phase != _DEAL_OVER:
            raise FailedPrecondition(
                "the match is over" if self.over else "the deal is still in progress"
            )
        if state.match.deal_number == api.UINT32_MAX:
            raise InvalidInput("state.match.deal_number", "is at its maximum: no further deal")
        events = list(self.game.next_deal(state))
        api.set_acting_seats(self.game, state)
        self._hold(state)
        return events

    # -- inside ----------------------------------------------------------------

    def _hold(self, state: game_pb2.GameState) -> None:
        """Take `state` as the session's own, mirrored when the game says how."""
        self._state = state
        self._live = state if self._spec is None else mirror(state, self._spec)
        self._stale = False
        self._offered = _NONE

    def _listing(self, encoded: tuple[bytes, ...]) -> _Listing:
        cache = self._cache
        moves = [cache.get(move) or self._parse(move) for move in encoded]
        return self._listings.put(encoded, (moves, frozenset(map(id, moves))))

    def _parse(self, move: bytes) -> service_pb2.LegalMove:
        parsed = game_pb2.Move.FromString(move)
        choice = service_pb2.LegalMove(notation=self.game.notation(parsed))
        choice.move.CopyFrom(parsed)
        return self._cache.put(move, choice)
