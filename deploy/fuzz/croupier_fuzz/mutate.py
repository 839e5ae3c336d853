"""Structure-aware mutations of real requests, driven by the message descriptors.

Nothing here knows a game: the mutator walks whatever fields the descriptors
declare (the envelope, every game's state, options and moves alike), so a
new game's messages are fuzzed the day they are registered.

A mutation is data (`Mutation`: a field path, an operation, its argument),
drawn from a `Source` and then applied. Keeping it as data is what makes a
finding small: the minimizer drops and simplifies mutations one by one and
replays the rest on the same real request.

What is tried, field by field:

* numbers at the edges of their type (0, 1, max-1, max, and the negative
  edges of signed types), near their current value, and small numbers that
  name seats, cards and totals;
* enums: 0, every declared value, and values no declaration has (open enums
  keep them);
* strings: empty, other names the server knows, long (up to `Limits.string`);
* repeated fields: an element duplicated, dropped, overwritten; the list
  truncated, extended, or made huge (up to `Limits.repeat`);
* messages cleared or set empty, oneofs switched to another member;
* optional fields made present or absent;
* cards moved or swapped between the card lists of a request (the deck is
  kept, the position is new: valid-looking states reach the rules);
* the same field of every element of a list at once (every seat's score).

`mutate_bytes` works below the schema: bit flips, cut or repeated runs,
lengths that lie, unknown fields.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from croupier.v1 import cards_pb2
from croupier_fuzz.source import Source, chance, pick

Path = tuple[str | int, ...]
EVERY = "*"  # a path step meaning "every element of this list"

FD = FieldDescriptor
_SIGNED32 = (FD.TYPE_INT32, FD.TYPE_SINT32, FD.TYPE_SFIXED32)
_UNSIGNED32 = (FD.TYPE_UINT32, FD.TYPE_FIXED32)
_SIGNED64 = (FD.TYPE_INT64, FD.TYPE_SINT64, FD.TYPE_SFIXED64)
_UNSIGNED64 = (FD.TYPE_UINT64, FD.TYPE_FIXED64)

# Small numbers that mean something somewhere: seats, deck and hand sizes,
# totals of the counting games.
_SMALL = (2, 3, 4, 5, 7, 8, 9, 10, 13, 36, 52, 54, 99, 100, 101, 102, 108, 120, 255, 256)
_EDGES = {
    "i32": (-1, 2**31 - 1, 2**31 - 2, -(2**31), -(2**31) + 1),
    "u32": (2**32 - 1, 2**32 - 2, 2**31),
    "i64": (-1, 2**63 - 1, 2**63 - 2, -(2**63), -(2**63) + 1, -101, -102, 2**32),
    "u64": (2**64 - 1, 2**64 - 2, 2**63, 2**32),
}
_RANGES = {
    "i32": (-(2**31), 2**31 - 1),
    "u32": (0, 2**32 - 1),
    "i64": (-(2**63), 2**63 - 1),
    "u64": (0, 2**64 - 1),
}
# How long a huge list gets, simplest first.
_COUNTS = (2, 10, 100, 1_000, 10_000, 100_000, 1_000_000)
_LENGTHS = (100, 1_000, 8_193, 65_536, 1_000_000, 4_000_000)

# The card enums (French, UNO): lists of them are the zones between which
# cards are moved, and their values the ones worth putting anywhere.
CARD_ENUMS = frozenset(
    e.full_name for e in cards_pb2.DESCRIPTOR.enum_types_by_name.values() if e.name.endswith("Card")
)


def is_card(field: Any) -> bool:
    """Whether `field` holds cards (a card enum, repeated or not)."""
    enum = field.enum_type if field.type == FD.TYPE_ENUM else None
    return enum is not None and enum.full_name in CARD_ENUMS


# What one mutation may add, in all (see `apply`), and the largest message it
# copies; a request that grows past Limits.bytes is mutated no further.
MAX_ADDED = 1_000_000
MAX_ADDED_MESSAGES = 10_000
MAX_ADDED_BYTES = 8 << 20  # of strings
MAX_DUPLICATED_BYTES = 1 << 20


@dataclass(frozen=True)
class Limits:
    """How big a mutation may make a field (memory and time stay bounded)."""

    repeat: int = 1_000_000  # elements added to a list of numbers at once
    messages: int = 10_000  # elements added to a list of messages at once
    string: int = 1_000_000  # characters of a long string
    bytes: int = 8 << 20  # a request past this size is mutated no further


@dataclass(frozen=True)
class Mutation:
    """One change to a request: `op` on the field named by the last step of
    `path`, in the message the other steps lead to."""

    path: Path
    op: str
    arg: Any = None

    def text(self) -> str:
        """The mutation as one line (reports, FINDINGS.md)."""
        where = path_text(self.path)
        arg = self.arg
        if self.op == "set":
            return f"{where} = {_short(arg)}"
        if self.op == "extend":
            value, count = arg
            return f"{where}: append {_short(value)} x{count}"
        if self.op == "put":
            index, value = arg
            return f"{where}[{index}] = {_short(value)}"
        if self.op in ("move_card", "swap_card"):
            return f"{where}: {self.op} {_short(arg[0])} <-> {path_text(arg[1])}"
        if arg is None:
            return f"{where}: {self.op}"
        return f"{where}: {self.op} {_short(arg)}"


def path_text(path: Path) -> str:
    """A path as a field path: state.seats[2].score, state.seats[*].score."""
    out = ""
    for step in path:
        if isinstance(step, int) or step == EVERY:
            out += f"[{step}]"
        else:
            out += f".{step}" if out else step
    return out


def _short(value: Any) -> str:
    if isinstance(value, str | bytes) and len(value) > 40:
        return f"{value[:12]!r}… ({len(value)} {'chars' if isinstance(value, str) else 'bytes'})"
    return repr(value)


# -- applying ---------------------------------------------------------------------


def apply(message: Message, mutations: Sequence[Mutation]) -> Message:
    """Apply `mutations` in order to `message` (in place); one that no longer
    fits (its path is gone after others were dropped) is skipped.

    One mutation adds at most MAX_ADDED elements (MAX_ADDED_MESSAGES messages,
    MAX_ADDED_BYTES of strings, set or appended) in all, however many lists its path
    names (every seat's hand, or every seat's name set to 1 MB) and
    whatever list it lands on once a shrink has dropped the mutations before
    it: memory stays bounded."""
    for mutation in mutations:
        budget = [MAX_ADDED, MAX_ADDED_MESSAGES, MAX_ADDED_BYTES]
        for parent in _parents(message, mutation.path[:-1]):
            field = parent.DESCRIPTOR.fields_by_name.get(str(mutation.path[-1]))
            if field is None:
                continue
            try:
                _apply_one(message, parent, field, mutation, budget)
            except (IndexError, ValueError, TypeError, OverflowError):
                continue
    return message


def _parents(message: Message, steps: Path) -> Iterator[Message]:
    if not steps:
        yield message
        return
    step, rest = steps[0], steps[1:]
    if isinstance(step, str) and step != EVERY:
        if message.DESCRIPTOR.fields_by_name.get(step) is None:
            return
        child = getattr(message, step)
        if rest and (isinstance(rest[0], int) or rest[0] == EVERY):
            index, rest = rest[0], rest[1:]
            elements = list(child) if index == EVERY else child[int(index) : int(index) + 1]
            for element in elements:
                yield from _parents(element, rest)
            return
        yield from _parents(child, rest)


def _apply_one(root: Message, parent: Message, field: Any, m: Mutation, budget: list[int]) -> None:
    name = field.name
    op, arg = m.op, m.arg
    if op == "clear":
        parent.ClearField(name)
    elif op == "present":
        getattr(parent, name).SetInParent()
    elif op == "set":
        if isinstance(arg, str | bytes):
            size = len(arg.encode() if isinstance(arg, str) else arg)
            if size > budget[2]:
                return
            budget[2] -= size
        setattr(parent, name, arg)
    elif op == "truncate":
        del getattr(parent, name)[arg:]
    elif op == "drop":
        del getattr(parent, name)[arg]
    elif op == "dup" and field.type == FD.TYPE_MESSAGE:
        items = getattr(parent, name)
        if budget[1] > 0 and items[arg].ByteSize() <= MAX_DUPLICATED_BYTES:
            budget[1] -= 1
            items.add().CopyFrom(items[arg])
    elif op == "dup":
        getattr(parent, name).append(getattr(parent, name)[arg])
    elif op == "extend":
        value, count = arg
        items = getattr(parent, name)
        kind = 1 if field.type == FD.TYPE_MESSAGE else 0
        count = min(count, budget[kind])
        if isinstance(value, str | bytes) and value:  # a list of long strings: bound the bytes
            count = min(count, max(1, MAX_ADDED_BYTES // len(value)))
        budget[kind] -= count
        if kind:
            for _ in range(count):
                items.add()
        else:
            items.extend([value] * count)
    elif op == "put":
        index, value = arg
        getattr(parent, name)[index] = value
    elif op == "reverse":
        items = getattr(parent, name)
        values = list(items)[::-1]
        del items[:]
        items.extend(values)
    elif op in ("move_card", "swap_card"):
        index, other_path, other_index = arg
        items = getattr(parent, name)
        others = [getattr(p, str(other_path[-1])) for p in _parents(root, other_path[:-1])]
        if not others:
            return
        other = others[0]
        if op == "move_card":
            card = items[index]
            del items[index]
            other.append(card)
        else:
            items[index], other[other_index] = other[other_index], items[index]


# -- choosing ---------------------------------------------------------------------


def slots(message: Message, prefix: Path = (), per_list: int = 12) -> Iterator[tuple[Path, Any]]:
    """Every (parent path, field) a mutation may aim at: every field of every
    present message, set or not (the first `per_list` elements of a list of
    messages are entered)."""
    for field in message.DESCRIPTOR.fields:
        yield prefix, field
        if field.type != FD.TYPE_MESSAGE:
            continue
        if field.is_repeated:
            for i, child in enumerate(getattr(message, field.name)[:per_list]):
                yield from slots(child, (*prefix, field.name, i), per_list)
        elif message.HasField(field.name):
            yield from slots(getattr(message, field.name), (*prefix, field.name), per_list)


def card_zones(message: Message, prefix: Path = ()) -> Iterator[Path]:
    """The paths of every list of cards in `message`."""
    for field in message.DESCRIPTOR.fields:
        if field.is_repeated and is_card(field):
            yield (*prefix, field.name)
        elif field.type == FD.TYPE_MESSAGE:
            if field.is_repeated:
                for i, child in enumerate(getattr(message, field.name)[:64]):
                    yield from card_zones(child, (*prefix, field.name, i))
            elif message.HasField(field.name):
                yield from card_zones(getattr(message, field.name), (*prefix, field.name))


class Mutator:
    """Draws mutations of one request from a `Source`."""

    def __init__(self, limits: Limits = Limits(), names: Sequence[str] = ()) -> None:
        self.limits = limits
        # Names the server knows (games, presets, options): a string field
        # set to one of them gets past the first lookup.
        self.names = tuple(names)
        self.counts = tuple(c for c in _COUNTS if c <= limits.repeat)
        self.message_counts = tuple(c for c in _COUNTS if c <= limits.messages)
        self.lengths = tuple(n for n in _LENGTHS if n <= limits.string)

    def mutations(self, source: Source, message: Message, count: int) -> list[Mutation]:
        """`count` mutations of `message`, each drawn on the message as the
        ones before left it (`message` is changed in place)."""
        out = []
        for _ in range(count):
            mutation = self.one(source, message)
            apply(message, [mutation])
            out.append(mutation)
            if message.ByteSize() > self.limits.bytes:
                break
        return out

    def one(self, source: Source, message: Message) -> Mutation:
        zones = list(card_zones(message)) if chance(source, 25) else []
        if len(zones) >= 2:
            moved = self._card_move(source, message, zones)
            if moved is not None:
                return moved
        targets = list(slots(message))
        prefix, field = pick(source, targets)
        indices = [i for i, step in enumerate(prefix) if isinstance(step, int)]
        if indices and chance(source, 20):
            # The same change to every element of the list (every seat's score).
            last = indices[-1]
            prefix = (*prefix[:last], EVERY, *prefix[last + 1 :])
            parent = None
        else:
            parent = next(_parents(message, prefix), None)
        return self._field(source, parent, (*prefix, field.name), field)

    def _card_move(self, source: Source, message: Message, zones: list[Path]) -> Mutation | None:
        full = [z for z in zones if _values(message, z)]
        if not full:
            return None
        origin = pick(source, full)
        target = pick(source, [z for z in zones if z != origin])
        index = source.below(len(_values(message, origin)))
        if chance(source, 50):
            return Mutation(origin, "move_card", (index, target, 0))
        size = len(_values(message, target))
        if not size:
            return Mutation(origin, "move_card", (index, target, 0))
        return Mutation(origin, "swap_card", (index, target, source.below(size)))

    def _field(self, source: Source, parent: Message | None, path: Path, field: FD) -> Mutation:
        current: Any = None
        if parent is not None and not field.is_repeated and field.type != FD.TYPE_MESSAGE:
            current = getattr(parent, field.name)
        if field.is_repeated:
            size = len(getattr(parent, field.name)) if parent is not None else 0
            return self._repeated(source, path, field, size)
        if field.type == FD.TYPE_MESSAGE:
            # Clear it, or make it present and empty (for a oneof member:
            # switch the oneof to it).
            return Mutation(path, pick(source, ("clear", "present")))
        if field.has_presence and chance(source, 25):
            return Mutation(path, "clear")
        return Mutation(path, "set", self.value(source, field, current))

    def _repeated(self, source: Source, path: Path, field: FD, size: int) -> Mutation:
        ops = ["truncate", "extend"]
        if size:
            ops += ["drop", "dup", "put", "reverse"]
        if field.type == FD.TYPE_MESSAGE:
            ops = [op for op in ops if op != "put"]
        op = pick(source, ops)
        if op == "truncate":
            return Mutation(path, op, source.below(size) if size else 0)
        if op in ("drop", "dup"):
            return Mutation(path, op, source.below(size))
        if op == "reverse":
            return Mutation(path, op)
        if op == "put":
            return Mutation(path, op, (source.below(size), self.value(source, field, None)))
        if field.type == FD.TYPE_MESSAGE:
            return Mutation(path, "extend", (None, pick(source, self.message_counts)))
        count = pick(source, (1, 1, 1, 1, 1, 2, 2, 3, *self.counts))
        value = self.value(source, field, None)
        if isinstance(value, str | bytes) and value:  # as `apply` would cut it: say so
            count = min(count, max(1, MAX_ADDED_BYTES // len(value)))
        return Mutation(path, "extend", (value, count))

    def value(self, source: Source, field: FD, current: Any) -> Any:
        """A value for a scalar field of `field`'s type."""
        kind = field.type
        if kind == FD.TYPE_BOOL:
            return not current if current is not None else bool(source.below(2))
        if kind == FD.TYPE_STRING:
            return self._string(source, current)
        if kind == FD.TYPE_BYTES:
            return self._bytes(source, current)
        if kind == FD.TYPE_ENUM:
            return _enum_value(source, field.enum_type)
        if kind in _SIGNED32:
            family = "i32"
        elif kind in _UNSIGNED32:
            family = "u32"
        elif kind in _SIGNED64:
            family = "i64"
        elif kind in _UNSIGNED64:
            family = "u64"
        else:
            raise TypeError(f"no values for field type {kind} ({field.full_name})")
        low, high = _RANGES[family]
        near = [current + 1, current - 1] if isinstance(current, int) else []
        choices = [0, 1, *near, *_SMALL, *_EDGES[family]]
        value = pick(source, [v for v in choices if low <= v <= high])
        if family in ("i32", "i64") and chance(source, 15):
            value = -value if low <= -value <= high else value
        return value

    def _string(self, source: Source, current: Any) -> str:
        text = current if isinstance(current, str) else ""
        choices: list[str] = ["", *self.names, " ", text.upper(), text + "\x00", text + " "]
        choice = source.below(len(choices) + 2)
        if choice < len(choices):
            return choices[choice]
        length = pick(source, self.lengths)
        if choice == len(choices):
            return "x" * length
        return "é" * (length // 2)  # two bytes a character: the byte limit, not the length

    def _bytes(self, source: Source, current: Any) -> bytes:
        """Bytes (a sealed state's blob): empty, the current ones cut or with one
        byte changed, or filler of one of the long lengths."""
        data = current if isinstance(current, bytes) else b""
        choice = source.below(5)
        if choice == 0 or not data and choice < 3:
            return b""
        if choice == 1:
            return data[: source.below(len(data))]
        if choice == 2:
            at = source.below(len(data))
            return data[:at] + bytes([data[at] ^ (1 + source.below(255))]) + data[at + 1 :]
        length = pick(source, self.lengths)
        return bytes([source.below(256)]) * (length if choice == 3 else min(length, 64))


def _values(message: Message, path: Path) -> Any:
    parent = next(_parents(message, path[:-1]), None)
    if parent is None:
        return ()
    return getattr(parent, str(path[-1]))


def _enum_value(source: Source, enum: Any) -> int:
    declared = [v.number for v in enum.values]
    top = max(declared)
    return pick(source, [0, *declared, top + 1, -1, top + 100, 2**31 - 1, -(2**31)])


# -- below the schema ----------------------------------------------------------------


@dataclass(frozen=True)
class ByteMutation:
    """One change to serialized bytes: `op` at `at` with `arg`."""

    op: str
    at: int
    arg: Any = None

    def text(self) -> str:
        arg = self.arg.hex() if isinstance(self.arg, bytes) else self.arg
        return f"bytes {self.op} at {self.at}" + ("" if arg is None else f": {arg}")


# Tails that lie about what follows: a length past the end, a varint that
# never ends, an unknown field, a group (deprecated wire type 3), field 0.
_TAILS = (
    b"\x0a\xff\xff\xff\xff\x0f",
    b"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
    b"\xf8\xff\xff\xff\x0f\x01",
    b"\x9a\x06\x00",
    b"\x0b\x0c",
    b"\x00\x00",
    b"\x0a\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01",
)


def mutate_bytes(source: Source, data: bytes, count: int) -> list[ByteMutation]:
    """`count` byte-level mutations of `data`, drawn as each leaves it."""
    out = []
    for _ in range(count):
        size = len(data)
        op = pick(source, ("flip", "set", "cut", "insert", "repeat", "truncate", "tail"))
        at = source.below(size + 1)
        arg: Any = None
        if op == "flip":
            arg = 1 << source.below(8)
        elif op == "set":
            arg = pick(source, (0x00, 0xFF, 0x7F, 0x80, 0x01))
        elif op in ("cut", "repeat"):
            arg = 1 + source.below(max(1, min(64, size - at)))
        elif op == "insert":
            arg = bytes(source.below(256) for _ in range(1 + source.below(8)))
        elif op == "tail":
            arg = pick(source, _TAILS)
        mutation = ByteMutation(op, at, arg)
        data = apply_bytes(data, [mutation])
        out.append(mutation)
    return out


def apply_bytes(data: bytes, mutations: Sequence[ByteMutation]) -> bytes:
    """Apply byte mutations in order (each clipped to the data it meets)."""
    buffer = bytearray(data)
    for m in mutations:
        at = min(m.at, len(buffer))
        if m.op == "flip" and at < len(buffer):
            buffer[at] ^= m.arg
        elif m.op == "set" and at < len(buffer):
            buffer[at] = m.arg
        elif m.op == "cut":
            del buffer[at : at + m.arg]
        elif m.op == "insert":
            buffer[at:at] = m.arg
        elif m.op == "repeat":
            buffer[at:at] = buffer[at : at + m.arg]
        elif m.op == "truncate":
            del buffer[at:]
        elif m.op == "tail":
            buffer += m.arg
    return bytes(buffer)
