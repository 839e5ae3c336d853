"""One conformance suite for every registered game and preset (DESIGN.md,
"Many games, one contract"; the pattern of OpenSpiel's random simulation
test and pgx's api_test).

`play_checked` plays one seeded random match through the one match loop
(`croupier_client.playout.play_match`) over `CheckedEngine`, asking every
acting seat, and checks:

1. every state produced passes the engine's full check, conservation first
   (engine_calls.py);
2. check agrees with generation for every seat, acting or not (positions.py);
3. no call changes its request (engine_calls.py);
4. no view and no redacted event (NewGame, ApplyMove, NextDeal) shows a seat
   a card it may not see before or after the call, and the acting seats are
   the game's (leaks.py, positions.py);
5. replaying the seed and the recorded moves gives byte-identical states, on
   the trusted path too;
6. the match has a winner within `move_bound(game)` moves;
7. DefaultMove is a listed move, and a stale move is STALE_STATE
   (positions.py).

The position checks (2, the views of 4, and 7: positions.py) run at every
position under the "fuzz" Hypothesis profile and at every sixth under "ci"
(POSITION_STRIDES); every other check runs at every step under both. A game
whose random matches run to thousands of moves (UNO) is checked on the first
and the last moves of each deal only (CHECKED_MOVES_PER_DEAL) and played
unchecked between them.

A failed check is an AssertionError whose message starts with what broke
(LEAK, MUTATION, CHECK != GENERATE, INVALID STATE, …). Every check reads the
game from the registry, so a game that registers gets the suite without
writing a line of it, and a test can register a faulty stand-in under a
game's name to prove that the suite catches it (test_planted_faults.py).
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from typing import Any

from conformance.engine_calls import CheckedEngine, Record, serialized, valid
from conformance.leaks import check_seat_events
from conformance.positions import check_acting_seats, check_finished, check_position
from croupier.engine import api, registry
from croupier.engine.registry import Game
from croupier.v1 import game_pb2, service_pb2
from croupier_client.playout import (
    LegalMoves,
    MatchTooLong,
    ServerContradiction,
    Step,
    play_match,
    uniform,
)

# How many moves a uniformly random match may take before the suite calls it
# endless. 101: over 2,400 seeded random matches of every preset and seat
# count the longest took 1,503 moves (ALT, 8 seats; the mean is 230 to 660),
# so 10,000 is far beyond chance and still a second or so of play.
#
# UNO: random matches to 500 points are long, because a random player draws
# when it could play (U8) and the hands grow. Measured over 230 seeded random
# matches of both presets as published (uniform chooser asking every acting
# seat, as here; seeds 0-39 per table, 2 to 10 seats): 2 seats mean 13,000
# (mattel) and 16,000 (seed) moves, the longest 30,918; 3 seats mean 8,200,
# longest 21,263; 4 seats longest 21,955; 6 seats longest 9,818; 10 seats
# mean 1,200, longest 3,142 (an earlier run saw 35,668 at 2 seats). 100,000
# is nearly three times the longest ever seen, and its unchecked play (see
# CHECKED_MOVES_PER_DEAL) still under half a minute.
MOVE_BOUNDS = {"hundred_and_one": 10_000, "uno": 100_000}
# A game without an entry here gets this bound; give it its own once measured.
DEFAULT_MOVE_BOUND = 10_000

# One match checked at every step costs about as much as this many examples
# of a property test: the conformance test plays the Hypothesis profile's
# max_examples / EXAMPLES_PER_MATCH matches per case, at least one
# (tests/conftest.py: 1 under "ci", 25 under "fuzz").
EXAMPLES_PER_MATCH = 20

# Which positions get the position checks (positions.py: every seat's
# candidates probed, views, default and stale moves), the bulk of the cost:
# every one under "fuzz"; every sixth under "ci" (offset by the chooser's
# seed: still hundreds of positions a match), which keeps `make test` in its
# time as games are added (every third took 16 s more of the suite's wall
# time on 2 cores, with the property tests that use the suite). The
# checks of every call and every transition (valid states, no mutation,
# acting seats, redacted events, next legal moves, finished deals, replay,
# winner) run at every step under both.
POSITION_STRIDES = {"ci": 6}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
POSITION_STRIDE = POSITION_STRIDES.get(PROFILE, 1)

# Games whose random matches are too long to check at every step. UNO's
# random matches to 500 points take 12,000 moves on average at 2 seats and
# every check costs 5 ms a move there (16 ms at 10 seats): a minute or more
# per match. Such a game gets every check on the first and the last N moves
# of each deal (where a deal is dealt, where "UNO!", catches and the last
# cards come, where it is scored and the next one dealt); the moves between
# are played on the trusted path, unchecked (the deal's last N are checked
# afterwards, each replayed on the checked path to the same state), so the
# match still reaches its winner within its move bound. A game not named
# here is checked at every step.
CHECKED_MOVES_PER_DEAL = {"ci": {"uno": 20}, "fuzz": {"uno": 300}}


def move_bound(game: str) -> int:
    """The most moves a random match of `game` may take (MOVE_BOUNDS)."""
    return MOVE_BOUNDS.get(game, DEFAULT_MOVE_BOUND)


def checked_moves_per_deal(game: str) -> int | None:
    """How many moves at each end of a deal of `game` get every check under
    the current profile (CHECKED_MOVES_PER_DEAL); None: every move."""
    return CHECKED_MOVES_PER_DEAL.get(PROFILE, {}).get(game)


@dataclass(frozen=True)
class Case:
    """One table the suite plays: a game, one of its presets, a seat count,
    and option values over the preset's (a game's own property tests mix
    them in; the registry's cases play the presets as published)."""

    game: str
    preset: str
    seats: int
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def id(self) -> str:
        return f"{self.game}-{self.preset}-{self.seats}"


def cases() -> list[Case]:
    """Every registered game x every preset x the fewest seats, 3 when
    allowed, and the most the preset allows."""
    out = []
    for game in registry.games():
        for preset in game.presets:
            low = max(game.min_seats, preset.min_seats)
            high = min(game.max_seats, preset.max_seats)
            for seats in sorted({low, high} | ({3} if low <= 3 <= high else set())):
                out.append(Case(game.name, preset.name, seats))
    return out


class _Checks:
    """The playout hooks that run the checks of one match."""

    def __init__(
        self,
        engine: CheckedEngine,
        game: Game,
        chooser_seed: int,
        stride: int,
        per_deal: int | None,
    ) -> None:
        self.engine = engine
        self.game = game
        self.pick = uniform(chooser_seed)
        self.stride = stride
        self.offset = chooser_seed % stride
        self.previous: game_pb2.GameState | None = None
        self.per_deal = per_deal  # None: every move checked as it is made
        self.in_deal = 0  # moves made in the current deal
        # The latest unchecked moves of the deal, checked once it ends.
        self.tail: deque[Step] = deque(maxlen=per_deal or 1)

    def choose(self, state: game_pb2.GameState, legal: LegalMoves) -> service_pb2.LegalMove:
        # The playout hands the chooser every position of a deal in progress
        # before its move: the one place to check each of them exactly once.
        if self.engine.checking:
            self._check_before(state, legal)
        return self.pick(state, legal)

    def _check_before(self, state: game_pb2.GameState, legal: LegalMoves) -> None:
        if state.move_number % self.stride == self.offset:
            check_position(self.engine, self.game, state, legal)
        else:
            acting = check_acting_seats(self.game, state)
            assert sorted(legal) == acting, f"the playout asked {sorted(legal)}, acting {acting}"

    def on_start(self, response: service_pb2.NewGameResponse) -> None:
        state = response.state
        check_seat_events(self.game, None, state, response.events, response.seat_events, "NewGame")
        self.previous = state
        self.in_deal = 0

    def on_step(self, step: Step) -> None:
        self.in_deal += 1
        if self.engine.checking:
            self._check_step(step)
        else:
            self.tail.append(step)
            if step.answer.state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
                self._check_tail()
        self.previous = after = step.answer.state
        # Check the next call when it is among the first moves of its deal,
        # or a next deal.
        self.engine.checking = (
            self.per_deal is None
            or self.in_deal < self.per_deal
            or after.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
        )

    def _check_step(self, step: Step) -> None:
        after = step.answer.state
        assert after.move_number == step.state.move_number + 1, "the move counter did not count"
        assert step.answer.notation == step.choice.notation
        check_seat_events(
            self.game, step.state, after, step.answer.events, step.answer.seat_events, "ApplyMove"
        )
        if after.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS:
            check_finished(self.engine, self.game, after)

    def _check_tail(self) -> None:
        """The deal's last unchecked moves, checked now that it is over: each
        position as if it were being played, each move made again on the
        checked path (which must reach the same state), then its step."""
        self.engine.checking = True
        if self.tail:  # the state the unchecked moves led to (the rest follow from it)
            valid(self.tail[0].state, "a move played unchecked")
        for step in self.tail:
            self._check_before(step.state, step.legal)
            answer = self.engine.apply(step.state, step.choice.move, next_legal_moves=True)
            same = answer.accepted and serialized(answer.state) == serialized(step.answer.state)
            assert same, f"TRUSTED PATH: move {step.state.move_number} gives another state checked"
            self._check_step(Step(step.state, step.legal, step.choice, answer))
        self.tail.clear()

    def on_deal(self, response: service_pb2.NextDealResponse) -> None:
        before, after = self.previous, response.state
        assert before is not None
        assert after.match.deal_number == before.match.deal_number + 1
        check_seat_events(
            self.game, before, after, response.events, response.seat_events, "NextDeal"
        )
        self.previous = after
        self.in_deal = 0


def play_checked(
    case: Case,
    seed: int,
    chooser_seed: int,
    *,
    stop_after: int | None = None,
    stride: int = POSITION_STRIDE,
    every_move: bool = False,
) -> tuple[game_pb2.GameState, int]:
    """Play one seeded random match of `case` with every check (module
    docstring); returns the final state and the number of moves.

    `stop_after` plays only that many moves (the match need not end, and
    its winner is not checked): for tests that try many tables briefly.
    `stride`: the position checks run on every stride-th position
    (POSITION_STRIDE); 1 checks every one. A game of CHECKED_MOVES_PER_DEAL
    is checked at both ends of each deal only, unless `every_move` or
    `stop_after`.
    """
    game = registry.find(case.game)
    assert game is not None, f"{case.game} is not registered"
    engine = CheckedEngine()
    # A run cut short (`stop_after`) is checked at every move: its deals need not end.
    full = every_move or stop_after is not None
    per_deal = None if full else checked_moves_per_deal(case.game)
    checks = _Checks(engine, game, chooser_seed, stride, per_deal)
    bound = move_bound(case.game) if stop_after is None else stop_after
    try:
        final, moves = play_match(
            engine,
            case.game,
            case.preset,
            case.seats,
            seed,
            checks.choose,
            options=registry.bounded(case.game, dict(case.options)),  # C-M-4
            max_moves=bound,
            on_start=checks.on_start,
            on_step=checks.on_step,
            on_deal=checks.on_deal,
        )
        check_winners(final)
    except MatchTooLong as error:
        if stop_after is None:
            raise AssertionError(f"NO WINNER within {bound} moves: {error}") from error
        final, moves = error.state, bound
    except ServerContradiction as error:
        raise AssertionError(f"CHECK != GENERATE: {error}") from error
    check_replay(engine.record)
    return final, moves


def check_winners(state: game_pb2.GameState) -> None:
    """A finished match names its winners: seats of the table, each once."""
    assert state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    winners = list(state.match.winners)
    assert winners, "NO WINNER: the match is over and names no winner"
    assert len(set(winners)) == len(winners), f"a winner is named twice: {winners}"
    assert all(seat < len(state.seats) for seat in winners), f"winners {winners}"


def check_replay(record: Record) -> None:
    """Seed + moves give the same states, byte for byte, also on the trusted
    path (which skips the validation the recorded match paid for)."""
    assert record.start is not None
    state = api.new_game(record.start).state
    assert serialized(state) == record.first_state, "REPLAY: NewGame dealt another first state"
    for number, (move, expected) in enumerate(record.steps, start=1):
        if move is None:
            state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
        else:
            request = service_pb2.ApplyMoveRequest(state=state, move=move)
            state = api.apply_move(request, trusted=True).state
        assert serialized(state) == expected, f"REPLAY: step {number} gives another state"
