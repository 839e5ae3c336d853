"""One match as one JSON line: what `croupier replay` needs to play it again.

    {"v": 1, "game": "hundred_and_one", "preset": "hd", "options": {}, "seats": 2,
     "seed": 1007, "match": 7, "entrants": ["heuristic", "random"],
     "outcome": "over", "notation": ["D", "7S", ...], "moves": ["CAGCBg==", ...],
     "digests": "<base64>", "deals": [{"points": [0, 31], "winners": [0]}, ...],
     "winners": [0], "scores": [19, 114], "faults": [[12, 1, "time budget ..."]]}

- `moves` are the Move messages' bytes in base64, `notation` their text;
- `digests` is one base64 string: the 32-byte SHA-256 of the deterministic
  serialization of the NewGame state, then of the state after each move
  (`len(moves) + 1` digests), concatenated: about 43 characters a move,
  where a list of hex strings took 67;
- `deals`: each finished deal's points and winners (MatchState.deal_points
  and deal_winners), in order;
- `outcome`: "over", "max_moves" (stopped at the move bound, no winners) or
  "error" (with `error`: what the server answered that it should not have);
- `faults`: [move number, seat, reason] for each move a bot failed to make,
  where the seat's DefaultMove was played.

A match the server failed before its NewGame answered (an "error" record)
has no moves and no digests.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from croupier.engine.options import Value

FORMAT_VERSION = 1
DIGEST_BYTES = 32

OVER, MAX_MOVES, ERROR = "over", "max_moves", "error"
OUTCOMES = (OVER, MAX_MOVES, ERROR)


class RecordError(ValueError):
    """A record line that is not a record of this format."""


@dataclass
class Deal:
    points: list[int]
    winners: list[int]


@dataclass
class Record:
    game: str
    preset: str
    options: dict[str, Value]
    seats: int
    seed: int
    match: int
    entrants: list[str]  # the entrant's name at each seat
    outcome: str = OVER
    notation: list[str] = field(default_factory=list)
    moves: list[bytes] = field(default_factory=list)
    digests: bytearray = field(default_factory=bytearray)
    deals: list[Deal] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    faults: list[tuple[int, int, str]] = field(default_factory=list)
    error: str = ""

    def digest(self, number: int) -> bytes:
        """The digest of the state after move `number` (0: the NewGame state)."""
        return bytes(self.digests[number * DIGEST_BYTES : (number + 1) * DIGEST_BYTES])

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "v": FORMAT_VERSION,
            "game": self.game,
            "preset": self.preset,
            "options": {name: _json_value(value) for name, value in self.options.items()},
            "seats": self.seats,
            "seed": self.seed,
            "match": self.match,
            "entrants": self.entrants,
            "outcome": self.outcome,
            "notation": self.notation,
            "moves": [base64.b64encode(move).decode() for move in self.moves],
            "digests": base64.b64encode(bytes(self.digests)).decode(),
            "deals": [{"points": d.points, "winners": d.winners} for d in self.deals],
            "winners": self.winners,
            "scores": self.scores,
            "faults": [list(fault) for fault in self.faults],
        }
        if self.error:
            data["error"] = self.error
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Record:
        """The record of one JSON line; RecordError when it is not one."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"not JSON: {error}") from error
        if not isinstance(data, dict):
            raise RecordError("not a JSON object")
        if data.get("v") != FORMAT_VERSION:
            raise RecordError(
                f"record format {data.get('v')!r}; this replay reads {FORMAT_VERSION}"
            )
        try:
            record = cls(
                game=str(data["game"]),
                preset=str(data["preset"]),
                options={
                    str(name): tuple(value) if isinstance(value, list) else value
                    for name, value in dict(data["options"]).items()
                },
                seats=int(data["seats"]),
                seed=int(data["seed"]),
                match=int(data["match"]),
                entrants=[str(name) for name in data["entrants"]],
                outcome=str(data["outcome"]),
                notation=[str(text) for text in data["notation"]],
                moves=[base64.b64decode(move, validate=True) for move in data["moves"]],
                digests=bytearray(base64.b64decode(data["digests"], validate=True)),
                deals=[Deal(list(d["points"]), list(d["winners"])) for d in data["deals"]],
                winners=list(data["winners"]),
                scores=list(data["scores"]),
                faults=[(int(f[0]), int(f[1]), str(f[2])) for f in data["faults"]],
                error=str(data.get("error", "")),
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise RecordError(f"malformed record: {type(error).__name__}: {error}") from error
        if record.outcome not in OUTCOMES:
            raise RecordError(f"outcome {record.outcome!r} is none of {', '.join(OUTCOMES)}")
        if len(record.notation) != len(record.moves):
            raise RecordError(f"{len(record.moves)} moves but {len(record.notation)} notations")
        started = record.outcome != ERROR or record.digests or record.moves
        if started and len(record.digests) != (len(record.moves) + 1) * DIGEST_BYTES:
            raise RecordError(
                f"{len(record.digests)} bytes of digests for {len(record.moves)} moves; "
                f"expected {(len(record.moves) + 1) * DIGEST_BYTES}"
            )
        return record


def _json_value(value: Value) -> bool | int | str | list[str]:
    if isinstance(value, bool | int | str):
        return value
    return list(value)


def read(path: Path) -> Iterator[tuple[int, Record]]:
    """(line number, record) of every non-empty line of `path`; RecordError
    (naming the file and line) for a line that is not a record."""
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield number, Record.from_json(line)
            except RecordError as error:
                raise RecordError(f"{path}:{number}: {error}") from error


class OrderedWriter:
    """Writes records to a stream in match order, whatever order they finish
    in, so that the same seed gives the same file byte for byte."""

    def __init__(self, sink: IO[str], first: int = 0) -> None:
        self._sink = sink
        self._next = first
        self._waiting: dict[int, Record] = {}

    def add(self, record: Record) -> None:
        self._waiting[record.match] = record
        while self._next in self._waiting:
            self._sink.write(self._waiting.pop(self._next).to_json() + "\n")
            self._next += 1

    @property
    def waiting(self) -> int:
        return len(self._waiting)
