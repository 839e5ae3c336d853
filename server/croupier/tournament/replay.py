"""`croupier replay RECORD [RECORD...]`: play saved matches again through the
engine in-process and check them byte for byte.

Each record (a records.jsonl of `croupier tournament`, every line, or a file
holding one record) is played from NewGame with its seed and options through
`croupier.inprocess.InProcess(trusted=False)`, so every state is validated
as the server validates a state it is sent. Checked: the digest of the
NewGame state and of the state after every move (SHA-256 of the
deterministic serialization), each move's notation, each finished deal's
points and winners, and the match's winners and final scores.

Prints `OK n records, m moves` and exits 0, or prints the first mismatch
(file, line, match, move number, expected and actual) and exits 1. Exit 2
for a file that is missing or holds no records of this format.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from croupier.inprocess import InProcess
from croupier.tournament import wire
from croupier.tournament.records import MAX_MOVES, OVER, Record, RecordError, read
from croupier.v1 import game_pb2

_DEAL_OVER = game_pb2.MATCH_PHASE_DEAL_OVER
_MATCH_OVER = game_pb2.MATCH_PHASE_MATCH_OVER


@dataclass(frozen=True)
class Mismatch:
    move: int  # 0: the NewGame state; -1: the match as a whole
    what: str

    def describe(self) -> str:
        where = {0: "the NewGame state", -1: "the match"}.get(self.move, f"move {self.move}")
        return f"{where}: {self.what}"


def verify(record: Record, backend: InProcess | None = None) -> Mismatch | None:
    """Replay `record`; the first way it disagrees with the engine, or None."""
    backend = backend or InProcess(trusted=False)
    try:
        state = backend.new_game(
            record.game,
            preset=record.preset,
            seat_count=record.seats,
            seed=record.seed,
            options=record.options,
        ).state
    except Exception as error:  # the engine refusing the table is a mismatch to report
        return Mismatch(0, f"NewGame failed: {type(error).__name__}: {error}")
    if (found := _digest_mismatch(record, 0, state)) is not None:
        return found
    deals = 0
    for number, (move_bytes, notation) in enumerate(
        zip(record.moves, record.notation, strict=True), start=1
    ):
        phase = state.match.phase
        if phase == _MATCH_OVER:
            return Mismatch(number, f"the match is over, yet the record has {notation!r} next")
        try:
            if phase == _DEAL_OVER:
                state = backend.next_deal(state).state
            answer = backend.apply(state, game_pb2.Move.FromString(move_bytes))
        except Exception as error:  # an engine error on a recorded move is a mismatch
            return Mismatch(number, f"{notation!r} failed: {type(error).__name__}: {error}")
        if not answer.accepted:
            return Mismatch(number, f"{notation!r} rejected: {answer.rejection.message}")
        if answer.notation != notation:
            return Mismatch(number, f"notation: expected {notation!r}, actual {answer.notation!r}")
        state = answer.state
        if (found := _digest_mismatch(record, number, state)) is not None:
            return found
        if state.match.phase in (_DEAL_OVER, _MATCH_OVER):
            if deals >= len(record.deals):
                return Mismatch(number, f"deal {deals + 1} ends here, the record has no such deal")
            expected = record.deals[deals]
            actual = (list(state.match.deal_points), list(state.match.deal_winners))
            if (expected.points, expected.winners) != actual:
                return Mismatch(
                    number,
                    f"deal {deals + 1}: expected points {expected.points} winners "
                    f"{expected.winners}, actual points {actual[0]} winners {actual[1]}",
                )
            deals += 1
    return _end_mismatch(record, state, deals)


def _digest_mismatch(record: Record, number: int, state: game_pb2.GameState) -> Mismatch | None:
    expected, actual = record.digest(number), wire.digest(state)
    if expected == actual:
        return None
    return Mismatch(number, f"expected digest {expected.hex()}, actual {actual.hex()}")


def _end_mismatch(record: Record, state: game_pb2.GameState, deals: int) -> Mismatch | None:
    if deals != len(record.deals):
        return Mismatch(-1, f"{len(record.deals)} deals recorded, {deals} played")
    scores = [seat.score for seat in state.seats]
    if record.outcome == OVER:
        if state.match.phase != _MATCH_OVER:
            return Mismatch(-1, "recorded as over, but the match is not over after its moves")
        if list(state.match.winners) != record.winners:
            return Mismatch(
                -1, f"winners: expected {record.winners}, actual {list(state.match.winners)}"
            )
    if record.outcome in (OVER, MAX_MOVES) and scores != record.scores:
        return Mismatch(-1, f"final scores: expected {record.scores}, actual {scores}")
    return None


def _records(paths: list[Path]) -> Iterator[tuple[Path, int, Record]]:
    for path in paths:
        for line, record in read(path):
            yield path, line, record


def _count(paths: list[Path]) -> int:
    total = 0
    for path in paths:
        with path.open(encoding="utf-8") as lines:
            total += sum(1 for line in lines if line.strip())
    return total


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="croupier replay",
        description="Replay match records of `croupier tournament` through the engine "
        "in-process (every state validated) and check every state digest, each deal's "
        "points, the winners and the final scores.",
    )
    p.add_argument(
        "records", nargs="+", type=Path, metavar="RECORD", help="records.jsonl or a record file"
    )

    def positive(text: str) -> int:
        if not text.isdigit() or int(text) < 1:
            raise argparse.ArgumentTypeError(f"a positive integer; got {text!r}")
        return int(text)

    p.add_argument(
        "--sample",
        type=positive,
        metavar="N",
        help="replay only N records, spread evenly over all those given",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    paths: list[Path] = args.records
    for path in paths:
        if not path.is_file():
            parser.error(f"{path}: no such file")
    chosen: set[int] | None = None
    if args.sample is not None:
        total = _count(paths)
        if args.sample < total:
            chosen = {i * total // args.sample for i in range(args.sample)}
    backend = InProcess(trusted=False)
    records = moves = 0
    try:
        for index, (path, line, record) in enumerate(_records(paths)):
            if chosen is not None and index not in chosen:
                continue
            mismatch = verify(record, backend)
            if mismatch is not None:
                print(
                    f"MISMATCH {path}:{line} (match {record.match}, {record.game} "
                    f"{record.preset}, seed {record.seed}): {mismatch.describe()}"
                )
                return 1
            records += 1
            moves += len(record.moves)
    except RecordError as error:
        print(f"replay: {error}", file=sys.stderr)
        return 2
    if records == 0:
        print(f"replay: no records in {', '.join(map(str, paths))}", file=sys.stderr)
        return 2
    print(f"OK {records} records, {moves} moves")
    return 0
