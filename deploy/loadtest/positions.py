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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from croupier.engine.cards import is_joker
from croupier.inprocess import InProcess
from croupier.v1 import game_pb2, options_pb2, service_pb2
from croupier_client import playout

IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
DEAL_OVER = game_pb2.MATCH_PHASE_DEAL_OVER

# Bounds that keep generation short even for a game whose matches run long.
MAX_MATCHES_PER_TABLE = 40
MAX_MOVES_PER_MATCH = 20_000
# A table stops after this many moves with what it has. UNO's random deals
# run to a thousand moves and more, and at 10 seats its match is one deal,
# which leaves no deal over to deal from: without this bound its six tables
# played 213,000 moves (104 matches) looking for finished deals, a minute of
# a test. Every other game's table is done within 2,479 moves (Scala 40; 101
# 645), its data unchanged by the bound.
MAX_MOVES_PER_TABLE = 4_000


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


def interleave(lists: Sequence[list[Any]]) -> list[Any]:
    """a1 b1 c1 a2 b2 c2 ...: round-robin over the lists until all are used."""
    out: list[Any] = []
    for i in range(max((len(items) for items in lists), default=0)):
        out.extend(items[i] for items in lists if i < len(items))
    return out


def play_table(
    table: Table, seed: int, positions: int, deals_over: int, sample_every: int = 6
) -> TablePositions:
    """Play seeded matches of `table` until `positions` mid-game positions and
    `deals_over` finished deals are collected (or a bound is reached: the
    matches or the moves of the table).

    A position is kept with probability 1/`sample_every` at every move of a
    deal in progress, so the sample spreads over early, middle and late
    moves of every deal and over later deals with match scores.
    """
    out = TablePositions(table)
    while (
        out.matches < MAX_MATCHES_PER_TABLE
        and out.moves < MAX_MOVES_PER_TABLE
        and (len(out.positions) < positions or len(out.deals_over) < deals_over)
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
        if out.moves >= MAX_MOVES_PER_TABLE:
            return True
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


# --- Scala 40's crowded table (issue 8) -----------------------------------------

# Issue 8's serving goal is about "a 6-seat crowded mid-game state" (many melds
# on the table, several jokers laid, big hands): the largest state of the
# project. Uniformly random play seldom crowds a table (random discards end
# deals before many melds are laid), so these playouts prefer laying new melds
# and keep the positions that meet all three bounds below.
CROWDED_GAME = "scala40"
CROWDED_SEATS = 6
CROWDED_MIN_MELDS = 10
CROWDED_MIN_TABLE_JOKERS = 2
CROWDED_MIN_MEAN_HAND = 6.0  # cards per seat, on average over the six hands
# New melds (and joker swaps, which keep a meld on the table) are chosen when
# listed with this probability; lay-offs, which empty hands without adding
# melds, only when nothing else is listed.
_NEW_MELD_ACTIONS = ("open", "meld", "swap_joker", "split")
_PREFER_NEW_MELDS = 0.7
_CROWDED_SAMPLE_EVERY = 3  # keep one crowded position in three: spread over deals


def table_jokers(state: game_pb2.GameState) -> int:
    """Jokers in the melds on a Scala 40 table."""
    return sum(1 for meld in state.scala40.melds for card in meld.cards if is_joker(card))


def mean_hand(state: game_pb2.GameState) -> float:
    """Cards per hand of a Scala 40 deal, on average over its seats."""
    hands = state.scala40.hands
    return sum(len(h.cards) for h in hands) / len(hands) if hands else 0.0


def is_crowded(state: game_pb2.GameState) -> bool:
    """A Scala 40 deal in progress at 6 seats with a crowded table and big hands."""
    return (
        state.game == CROWDED_GAME
        and state.match.phase == IN_PROGRESS
        and len(state.seats) == CROWDED_SEATS
        and len(state.scala40.melds) >= CROWDED_MIN_MELDS
        and table_jokers(state) >= CROWDED_MIN_TABLE_JOKERS
        and mean_hand(state) >= CROWDED_MIN_MEAN_HAND
    )


def _prefer_new_melds(seed: int) -> playout.Chooser:
    rnd = random.Random(seed)

    def choose(state: game_pb2.GameState, legal: playout.LegalMoves) -> service_pb2.LegalMove:
        moves = [m for seat in sorted(legal) for m in legal[seat]]
        kind = [m.move.scala40.WhichOneof("action") for m in moves]
        new = [m for m, k in zip(moves, kind, strict=True) if k in _NEW_MELD_ACTIONS]
        if new and rnd.random() < _PREFER_NEW_MELDS:
            pick = new
        else:
            pick = [m for m, k in zip(moves, kind, strict=True) if k != "lay_off"] or moves
        return pick[rnd.randrange(len(pick))]

    return choose


def crowded_positions(presets: Sequence[str], seed: int, positions: int) -> list[Position]:
    """`positions` crowded 6-seat Scala 40 positions (`is_crowded`), spread
    evenly over `presets`, with the move the playout chose there (any kind:
    draws, discards, lay-offs, swaps and melds, as a table plays them)."""
    per_preset = -(-positions // len(presets))
    shapes = [Table(CROWDED_GAME, preset, CROWDED_SEATS) for preset in presets]
    return interleave([_crowded_table(t, seed, per_preset) for t in shapes])[:positions]


def _crowded_table(table: Table, seed: int, wanted: int) -> list[Position]:
    """Up to `wanted` crowded positions of `table`, from seeded matches."""
    out: list[Position] = []
    for match in range(MAX_MATCHES_PER_TABLE):
        rng = random.Random(f"{seed}/{table.label}/crowded/{match}")
        match_seed, chooser_seed = rng.getrandbits(63), rng.getrandbits(63)

        def on_step(step: playout.Step, rng: random.Random = rng) -> None:
            if is_crowded(step.state) and rng.randrange(_CROWDED_SAMPLE_EVERY) == 0:
                out.append(Position(table, step.state, step.choice.move))
                if len(out) >= wanted:
                    raise _Enough

        with contextlib.suppress(_Enough, playout.MatchTooLong):
            playout.play_match(
                InProcess(),
                table.game,
                table.preset,
                table.seats,
                match_seed,
                _prefer_new_melds(chooser_seed),
                max_moves=MAX_MOVES_PER_MATCH,
                on_step=on_step,
            )
        if len(out) >= wanted:
            break
    return out
