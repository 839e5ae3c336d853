"""A fuzz input as data: which real request, which mutations; built on demand.

A `Case` names a request of the corpus and the mutations applied to it, so
that it can be rebuilt, shrunk (`shrink`) and printed. Batches and streams
are cases whose items are ApplyMove cases.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from google.protobuf import text_format
from google.protobuf.message import DecodeError, Message

from croupier.v1 import service_pb2
from croupier_fuzz.corpus import REQUEST_TYPES, Corpus
from croupier_fuzz.mutate import (
    ByteMutation,
    Mutation,
    Mutator,
    apply,
    apply_bytes,
    mutate_bytes,
)
from croupier_fuzz.source import Source, chance, pick

# The RPCs whose requests are lists of ApplyMove requests.
MULTI = ("ApplyMoveBatch", "ApplyMoveStream")


@dataclass(frozen=True)
class Case:
    rpc: str
    base: int = 0  # index of the real request in corpus.requests[rpc]
    mutations: tuple[Mutation, ...] = ()
    raw: tuple[ByteMutation, ...] | None = None  # bytes mutated below the schema
    items: tuple[Case, ...] = ()  # ApplyMoveBatch / ApplyMoveStream: ApplyMove cases
    # The request as `draw` built it (the mutator works on it in place), so
    # that it is not built twice; not copied by `replace`.
    built: Any = field(default=None, init=False, compare=False, repr=False)

    def describe(self, corpus: Corpus) -> list[str]:
        """One line per change, after the line saying where the request came from."""
        if self.rpc in MULTI:
            lines = [f"{self.rpc} with {len(self.items)} items:"]
            for i, item in enumerate(self.items):
                lines += [f"  item {i}: " + item.describe(corpus)[0]]
                lines += [f"    {line}" for line in item.describe(corpus)[1:]]
            return lines
        origin = corpus.origins[self.rpc][self.base]
        lines = [f"{self.rpc} request {self.base} of the corpus ({origin})"]
        lines += [f"  {m.text()}" for m in self.mutations]
        lines += [f"  {b.text()}" for b in self.raw or ()]
        return lines


def message(corpus: Corpus, case: Case) -> Message:
    """The structured request of a case (its byte mutations not applied)."""
    if case.rpc in MULTI:
        if case.rpc == "ApplyMoveBatch":
            batch = service_pb2.ApplyMoveBatchRequest()
            for item in case.items:
                batch.items.add().CopyFrom(message(corpus, item))
            return batch
        raise ValueError("a stream is a sequence of messages: use stream_items")
    if case.raw is None and case.built is not None:
        return case.built  # type: ignore[no-any-return]
    return apply(corpus.request(case.rpc, case.base), case.mutations)


def wire_bytes(corpus: Corpus, case: Case) -> bytes:
    """What goes on the wire for a unary case."""
    if case.raw is not None and case.built is not None:
        return case.built  # type: ignore[no-any-return]
    data = message(corpus, case).SerializeToString()
    return data if case.raw is None else apply_bytes(data, case.raw)


def stream_items(corpus: Corpus, case: Case) -> list[bytes]:
    """The messages of an ApplyMoveStream case, serialized (a raw item stays raw)."""
    out = []
    for item in case.items:
        inner = wire_bytes(corpus, item)
        # ApplyMoveStreamRequest.item (field 1, length-delimited) around the
        # item's bytes, mutated or not.
        out.append(b"\x0a" + _varint(len(inner)) + inner)
    return out


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def parsed(corpus: Corpus, case: Case) -> Message | None:
    """The request the server would see: None when its bytes do not parse."""
    if case.raw is None:
        return message(corpus, case)
    try:
        return REQUEST_TYPES[case.rpc].FromString(wire_bytes(corpus, case))
    except DecodeError:
        return None


def text(corpus: Corpus, case: Case, max_lines: int = 400) -> str:
    """The request as text-format protobuf (bytes that do not parse: hex)."""
    if case.raw is not None:
        data = wire_bytes(corpus, case)
        request = parsed(corpus, case)
        if request is None:
            return f"# unparsable bytes ({len(data)}):\n# {data.hex()}"
        return f"# parsed from mutated bytes ({len(data)}):\n" + _capped(request, max_lines)
    if case.rpc in MULTI:
        return "\n".join(
            f"# item {i}\n{text(corpus, item, max_lines)}" for i, item in enumerate(case.items)
        )
    return _capped(message(corpus, case), max_lines)


def _capped(request: Message, max_lines: int) -> str:
    lines = text_format.MessageToString(request).splitlines()
    lines = [line if len(line) <= 200 else line[:200] + f"… ({len(line)} chars)" for line in lines]
    if len(lines) > max_lines:
        lines = lines[:max_lines] + [f"# … {len(lines) - max_lines} more lines"]
    return "\n".join(lines)


# -- drawing ---------------------------------------------------------------------------


def draw(
    source: Source, corpus: Corpus, mutator: Mutator, rpc: str, *, raw_percent: int = 12
) -> Case:
    """A case of `rpc`: a real request, usually a few mutations (one most
    often, so that most inputs stay close to a real state), sometimes bytes
    mutated below the schema."""
    if rpc in MULTI:
        stream = rpc == "ApplyMoveStream"
        size = 1 + source.below(8)
        items = tuple(_item(source, corpus, mutator, stream) for _ in range(size))
        raw = None
        if not stream and chance(source, raw_percent):
            data = message(corpus, Case(rpc, items=items)).SerializeToString()
            raw = tuple(mutate_bytes(source, data, 1 + source.below(3)))
        return Case(rpc, items=items, raw=raw)
    base = source.below(len(corpus.requests[rpc]))
    request = corpus.request(rpc, base)
    mutations: list[Mutation] = []
    if request.DESCRIPTOR.fields and not chance(source, 3):
        count = 1
        while count < 6 and chance(source, 45):
            count += 1
        mutations = mutator.mutations(source, request, count)
    if request.DESCRIPTOR.fields and not chance(source, raw_percent):
        case = Case(rpc, base, tuple(mutations))
        object.__setattr__(case, "built", request)
        return case
    data = request.SerializeToString()
    raw = tuple(mutate_bytes(source, data, 1 + source.below(3)))
    case = Case(rpc, base, tuple(mutations), raw)
    object.__setattr__(case, "built", apply_bytes(data, raw))
    return case


def _item(source: Source, corpus: Corpus, mutator: Mutator, stream: bool) -> Case:
    # Items of a batch or stream: many good ones, so that a bad one has
    # neighbours whose answers must survive it. A stream item may also be
    # bytes that do not parse (each stream message is parsed alone).
    base = source.below(len(corpus.requests["ApplyMove"]))
    if chance(source, 40):
        return Case("ApplyMove", base)
    return draw(source, corpus, mutator, "ApplyMove", raw_percent=10 if stream else 0)


# -- shrinking -------------------------------------------------------------------------


def shrink(case: Case, fails: Callable[[Case], bool], budget: int = 200) -> Case:
    """A smaller case that still `fails`: mutations and items dropped one at a
    time, then huge counts and long strings made smaller. `budget` bounds
    the calls of `fails`."""
    calls = 0

    def still(candidate: Case) -> bool:
        nonlocal calls
        if calls >= budget:
            return False
        calls += 1
        return fails(candidate)

    changed = True
    while changed:
        changed = False
        for candidate in _smaller(case):
            if still(candidate):
                case, changed = candidate, True
                break
    return case


def _smaller(case: Case) -> list[Case]:
    out: list[Case] = []
    for i in range(len(case.items)):
        out.append(replace(case, items=case.items[:i] + case.items[i + 1 :]))
    for i, item in enumerate(case.items):
        out += [
            replace(case, items=(*case.items[:i], s, *case.items[i + 1 :])) for s in _smaller(item)
        ]
    if case.raw:
        out += [replace(case, raw=case.raw[:i] + case.raw[i + 1 :]) for i in range(len(case.raw))]
    if case.raw is not None and not case.raw:
        out.append(replace(case, raw=None))
    ms = case.mutations
    out += [replace(case, mutations=ms[:i] + ms[i + 1 :]) for i in range(len(ms))]
    for i, m in enumerate(ms):
        for simpler in _simpler(m):
            out.append(replace(case, mutations=(*ms[:i], simpler, *ms[i + 1 :])))
    return out


def _simpler(m: Mutation) -> list[Mutation]:
    if m.op == "extend":
        value, count = m.arg
        smaller = [c for c in (1, 2, 10, 100, 1_000, 10_000, 100_000) if c < count]
        return [replace(m, arg=(value, c)) for c in smaller]
    if m.op == "set" and isinstance(m.arg, str | bytes) and len(m.arg) > 1:
        return [replace(m, arg=m.arg[: len(m.arg) // 2]), replace(m, arg=m.arg[:0])]
    return []


def draw_rpc(source: Source, weights: dict[str, int]) -> str:
    """An RPC, in proportion to `weights`."""
    total = sum(weights.values())
    point = source.below(total)
    for rpc, weight in weights.items():
        if point < weight:
            return rpc
        point -= weight
    return pick(source, list(weights))
