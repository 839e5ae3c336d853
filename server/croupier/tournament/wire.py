"""The bytes the harness sends and the digests it records.

An ApplyMoveBatch request is built by concatenating serialized parts instead
of filling a request message: the harness already holds each state's bytes
(it serializes every state once, for its digest), and copying states into a
request message only to serialize them again would be most of the harness's
work per move. The layout is plain protobuf wire format of
`ApplyMoveBatchRequest{items: [ApplyMoveRequest{state, move,
next_legal_moves, next_views}]}`; a test parses it back with the generated
class.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from croupier.v1 import game_pb2

# Field tags of ApplyMoveBatchRequest and ApplyMoveRequest (service.proto).
_ITEMS = b"\x0a"  # ApplyMoveBatchRequest.items = 1, length-delimited
_STATE = b"\x0a"  # ApplyMoveRequest.state = 1, length-delimited
_MOVE = b"\x12"  # ApplyMoveRequest.move = 2, length-delimited
_NEXT_LEGAL_MOVES = b"\x28\x01"  # ApplyMoveRequest.next_legal_moves = 5, true
_NEXT_VIEWS = b"\x38\x01"  # ApplyMoveRequest.next_views = 7, true

APPLY_MOVE_BATCH = "/croupier.v1.CroupierService/ApplyMoveBatch"


def varint(value: int) -> bytes:
    """The protobuf varint of a non-negative int."""
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def apply_item(state: bytes, move: bytes, *, next_views: bool) -> bytes:
    """One ApplyMoveRequest (with next_legal_moves) as bytes."""
    return b"".join(
        (
            _STATE,
            varint(len(state)),
            state,
            _MOVE,
            varint(len(move)),
            move,
            _NEXT_LEGAL_MOVES,
            _NEXT_VIEWS if next_views else b"",
        )
    )


def batch_request(items: Iterable[bytes]) -> bytes:
    """An ApplyMoveBatchRequest holding the serialized ApplyMoveRequests `items`."""
    parts: list[bytes] = []
    for item in items:
        parts += (_ITEMS, varint(len(item)), item)
    return b"".join(parts)


def state_bytes(state: game_pb2.GameState) -> bytes:
    """The deterministic serialization of `state`: what its digest covers."""
    return state.SerializeToString(deterministic=True)


def digest(state: game_pb2.GameState) -> bytes:
    """SHA-256 of the deterministic serialization of `state`."""
    return hashlib.sha256(state_bytes(state)).digest()
