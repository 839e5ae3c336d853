"""Realistic positions from seeded random playouts through the one match loop.

A load test is only as honest as its requests: a fresh deal or a hand-written
state exercises less of the rules (no scores, no reshuffled stock, no pending
penalties) than the states a real table sends mid-match. So the positions here
come from whole matches played with uniformly random legal moves, sampled all
along each match, for every table shape (game, preset, seat count) a game has.

The matches are played by `croupier_client.playout` (the loop the bench, the
goldens and the conformance suite use) over the engine in-process
(`croupier.inprocess.InProcess`), so every acting seat is asked and every
move is a typed move the engine listed. All randomness comes from
`random.Random` seeded by a string that names the table and match: the same
seed gives the same positions, in the same order, on any machine.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass, field

from croupier.inprocess import InProcess
from croupier.v1 import game_pb2, options_pb2
from croupier_client import playout

IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
DEAL_OVER = game_pb2.MATCH_PHASE_DEAL_OVER

# Bounds that keep generation short even for a game whose matches run long.
MAX_MATCHES_PER_TABLE = 40
MAX_MOVES_PER_MATCH = 20_000


@dataclass(frozen=True)
class Table:
    """One table shape: a game, one of its presets and a seat count."""

    game: str
    preset: str
    seats: int

    @property
    def label(self) -> str:
        return f"{self.game}/{self.preset}/{self.seats}"


@dataclass
class Position:
    """A state met in a playout, with the move the playout chose there."""

    table: Table
    state: game_pb2.GameState
    move: game_pb2.Move


@dataclass
class TablePositions:
    """What the playouts of one table produced."""

    table: Table
    positions: list[Position] = field(default_factory=list)
    # States whose deal is over (not the match): what NextDeal is called with.
    deals_over: list[game_pb2.GameState] = field(default_factory=list)
    matches: int = 0
    moves: int = 0


def tables(game: options_pb2.GameDescriptor) -> list[Table]:
    """Every preset of `game` at its smallest, a middle and its largest seat count."""
    result = []
    for preset in game.presets:
        low = max(game.min_seats, preset.min_seats)
        high = min(game.max_seats, preset.max_seats)
        for seats in sorted({low, (low + high + 1) // 2, high}):
            result.append(Table(game.name, preset.name, seats))
    return result


def play_table(
    table: Table, seed: int, positions: int, deals_over: int, sample_every: int = 6
) -> TablePositions:
    """Play seeded matches of `table` until `positions` mid-game positions and
    `deals_over` finished deals are collected (or the match bound is reached).

    A position is kept with probability 1/`sample_every` at every move of a
    deal in progress, so the sample spreads over early, middle and late
    moves of every deal and over later deals with match scores.
    """
    out = TablePositions(table)
    while out.matches < MAX_MATCHES_PER_TABLE and (
        len(out.positions) < positions or len(out.deals_over) < deals_over
    ):
        rng = random.Random(f"{seed}/{table.label}/{out.matches}")
        _play_match(table, rng, out, positions, deals_over, sample_every)
        out.matches += 1
    return out


class _Enough(Exception):
    """Raised from a playout hook once the table has all it needs: the rest
    of the match would be thrown away."""


def _play_match(
    table: Table,
    rng: random.Random,
    out: TablePositions,
    positions: int,
    deals_over: int,
    sample_every: int,
) -> None:
    def enough() -> bool:
        return len(out.positions) >= positions and len(out.deals_over) >= deals_over

    def on_step(step: playout.Step) -> None:
        out.moves += 1
        if len(out.positions) < positions and rng.randrange(sample_every) == 0:
            out.positions.append(Position(table, step.state, step.choice.move))
        after = step.answer.state
        if after.match.phase == DEAL_OVER and len(out.deals_over) < deals_over:
            out.deals_over.append(after)
        if enough():
            raise _Enough

    seed, chooser_seed = rng.getrandbits(63), rng.getrandbits(63)
    # Stopped when the table has enough, or when a match runs long: either
    # way the positions met so far are kept.
    with contextlib.suppress(_Enough, playout.MatchTooLong):
        playout.play_match(
            InProcess(),  # the engine's own states: the trusted path
            table.game,
            table.preset,
            table.seats,
            seed,
            playout.uniform(chooser_seed),
            max_moves=MAX_MOVES_PER_MATCH,
            on_step=on_step,
        )
