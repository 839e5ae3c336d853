"""Request decoding that turns unparsable bytes into an answer, not a crash.

grpc answers INTERNAL ("Exception deserializing request!") when
a deserializer raises, and also when it returns None, before any handler
runs. A client that sends broken bytes made a bad request, so the
deserializer returns an `Unparsable` marker instead and the handler answers
INVALID_ARGUMENT (see `handlers.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from google.protobuf.message import DecodeError, Message


@dataclass(frozen=True)
class Unparsable:
    """Stands in for a request whose bytes do not parse."""

    type_name: str  # the full protobuf name, e.g. "croupier.v1.ApplyMoveRequest"
    problem: str


def tolerant_deserializer(
    message_class: type[Message],
) -> Callable[[bytes], Message | Unparsable]:
    """A request deserializer for `message_class` that never raises."""
    type_name = message_class.DESCRIPTOR.full_name
    from_string = message_class.FromString

    def deserialize(data: bytes) -> Message | Unparsable:
        try:
            return from_string(data)
        except DecodeError as error:
            return Unparsable(type_name, str(error))

    return deserialize
