"""Moves known by their bytes: the engine's hot-path shortcut for every game.

A bot harness asks for the legal moves at every step, and each one travels
as a `LegalMove` (the move and its notation). Building a Move message and a
notation string for each, every step, cost more than the rules that chose
them. Both depend on the move alone, so a `MoveCodec` keeps, per distinct
move (its serialized bytes): its notation, and its `LegalMove` already
encoded. A list of legal moves then becomes a join of cached bytes that the
answer parses in one go — the same message, field for field, as one built
move by move, so the serialized answer is byte-identical.

A game may offer `encoded_legal_moves(state, seat) -> list[bytes]`: its
legal moves already serialized, in the same canonical order as
`legal_moves` (101 looks them up in a small table). For a game without it
the codec serializes what `legal_moves` returns.

A move seen before in a request also skips the game's shape check:
`check_move_shape` is a function of the move message alone, which its bytes
determine, and only a move that passed it is remembered as checked. (A move
the game lists is not taken as checked on the game's word: the conformance
suite must still see a game that lists a malformed move refused.)

A game's `canonical_move` (registry.py) is looked up once per codec
(`canonical`). The notation remembered for a move's bytes is that move's own:
its canonical spelling may depend on the position (which end of a sequence a
card fits), so `engine.api` computes the notation of a respelled move afresh
and caches nothing under the bytes it was submitted as.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from croupier.engine import caches
from croupier.v1 import game_pb2

# Wire tags (field number << 3 | length-delimited) of the repeated LegalMove
# fields the codec writes, and of LegalMove's own fields (service.proto).
LIST_LEGAL_MOVES_TAG = b"\x0a"  # ListLegalMovesResponse.moves = 1
SEAT_MOVES_MOVES_TAG = b"\x12"  # SeatMoves.moves = 2
NEXT_LEGAL_MOVES_TAG = b"\x3a"  # ApplyMoveResponse.next_legal_moves = 7
_SEAT_TAG = b"\x08"  # SeatMoves.seat = 1 (varint)
_MOVE_TAG = b"\x0a"  # LegalMove.move = 1
_NOTATION_TAG = b"\x12"  # LegalMove.notation = 2

# Distinct moves remembered before the caches start over: a 101 table's moves
# are a few hundred; moves carrying a stale-move guard (seen_move_number) are
# new bytes every time and must not grow them forever; and a worker's memory is
# the budget (a fuzz run filled 2^16 a map and the worker grew beyond issue 7's
# 20 %). CACHE_LIMIT bounds each map of the in-process Session (session.py).
# The codecs' maps, three per game, share one bound (engine/caches.py, Pool):
# more moves than the game that needs most keeps in a cycle of the load test's
# 1,024 positions (one_hundred, ~4,500), whatever the number of games. About
# 150 bytes an entry, deep.
CACHE_LIMIT = 1 << 12
POOL = caches.Pool("move_codec", 1 << 13, 150)


def varint(value: int) -> bytes:
    """Protobuf's base-128 varint of a non-negative integer."""
    if value < 0x80:
        return bytes((value,))
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


# One-byte varints, and SeatMoves.seat for every seat a table can have
# (empty for seat 0: proto3 writes no default value).
_BYTE = [bytes((i,)) for i in range(0x80)]
_SEAT_FIELD = [_SEAT_TAG + varint(seat) if seat else b"" for seat in range(0x80)]


def _delimited(body: bytes) -> bytes:
    return varint(len(body)) + body


class MoveCodec:
    """One game's moves by their bytes: notation, shape already checked,
    and the encoded LegalMove."""

    def __init__(self, game: Any) -> None:
        self.game = game  # also keeps the game alive while its id keys the codec
        # Moves whose shape passed -> notation.
        self._checked: caches.Pooled[bytes, str] = POOL.map()
        # Per wire tag: move bytes -> the tag and the length-prefixed LegalMove.
        self._entries: dict[bytes, caches.Pooled[bytes, bytes]] = {
            LIST_LEGAL_MOVES_TAG: POOL.map(),
            SEAT_MOVES_MOVES_TAG: POOL.map(),
        }
        # The game's optional respelling hook (registry.py), looked up once.
        self.canonical: Callable[[game_pb2.GameState, game_pb2.Move], game_pb2.Move] | None = (
            getattr(game, "canonical_move", None)
        )
        encoded = getattr(game, "encoded_legal_moves", None)
        self.encoded_legal: Callable[[game_pb2.GameState, int], Sequence[bytes]] = (
            encoded if encoded is not None else self._serialized_legal
        )

    def _serialized_legal(self, state: game_pb2.GameState, seat: int) -> list[bytes]:
        return [move.SerializeToString() for move in self.game.legal_moves(state, seat)]

    # -- moves from a request --------------------------------------------------

    def known_notation(self, move_bytes: bytes) -> str | None:
        """The notation of a move whose shape was checked before, else None."""
        return self._checked.get(move_bytes)

    def remember(self, move_bytes: bytes, move: game_pb2.Move) -> str:
        """Note a move whose shape the game has just accepted; its notation."""
        notation: str = self._checked.put(move_bytes, self.game.notation(move))
        return notation

    # -- legal moves, encoded --------------------------------------------------

    def legal_moves_bytes(self, state: game_pb2.GameState, seat: int, tag: bytes) -> bytes:
        """Every legal move of `seat` as repeated LegalMove fields with wire
        tag `tag`, one of the two above (the seat may act; the state is valid)."""
        entries = self._entries[tag]
        moves = self.encoded_legal(state, seat)
        try:
            return b"".join([entries[move] for move in moves])
        except KeyError:  # a move not met before: encode it once
            return b"".join([entries.get(move) or self._entry(move, tag) for move in moves])

    def seat_moves_bytes(self, state: game_pb2.GameState, seats: Sequence[int]) -> bytes:
        """ApplyMoveResponse.next_legal_moves for `seats`, encoded: one
        SeatMoves per seat, in the order given."""
        out = []
        for seat in seats:
            field = _SEAT_FIELD[seat] if seat < 0x80 else _SEAT_TAG + varint(seat)
            body = field + self.legal_moves_bytes(state, seat, SEAT_MOVES_MOVES_TAG)
            size = len(body)
            out.append(NEXT_LEGAL_MOVES_TAG + (_BYTE[size] if size < 0x80 else varint(size)) + body)
        return b"".join(out)

    def _entry(self, move_bytes: bytes, tag: bytes) -> bytes:
        """A listed move's LegalMove under `tag`, now remembered."""
        notation = self._checked.get(move_bytes)
        if notation is None:
            notation = self.game.notation(game_pb2.Move.FromString(move_bytes))
        text = notation.encode()
        body = _MOVE_TAG + _delimited(move_bytes)
        if text:
            body += _NOTATION_TAG + _delimited(text)
        return self._entries[tag].put(move_bytes, tag + _delimited(body))


_codecs: dict[int, MoveCodec] = {}


def codec_of(game: Any) -> MoveCodec:
    """The codec of a game object (a game registered anew gets a new one)."""
    codec = _codecs.get(id(game))
    if codec is None or codec.game is not game:
        codec = _codecs[id(game)] = MoveCodec(game)
    return codec


def unique_moves(moves: list[game_pb2.Move]) -> list[game_pb2.Move]:
    """`moves` without repeats (by their bytes), in their order."""
    seen: set[bytes] = set()
    out = []
    for move in moves:
        key = move.SerializeToString(deterministic=True)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out
