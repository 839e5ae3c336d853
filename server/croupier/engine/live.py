"""A game state's hot fields as plain Python values, for a live session.

Every read of a protobuf field builds a Python wrapper: `deal.phase` costs
about 90 ns, `deal.hands[1].cards` over a microsecond, where a plain
attribute costs 12 ns. A move of a card game reads and writes a dozen such
fields, so in a session that plays move after move in place
(engine/session.py) they cost more than the rules. A game may therefore name
its hot fields (`Game.live_fields`, a `Spec`); the session then holds a
`mirror` of the state: those fields as Python ints, bools and lists, every
other field read and written through to the message. The game's rules run on
the mirror unchanged — they only read attributes, index lists and assign — and
`flush` writes the hot fields back into the message when someone looks at it.

The session is held to the RPC path by a test that compares, move by move,
the flushed state with the one ApplyMove answers (tests/engine/test_session.py),
so a field a rule writes that the spec forgot cannot go unnoticed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from google.protobuf.message import Message


@dataclass(frozen=True)
class Spec:
    """Which fields of a message a mirror holds, and how.

    scalars: ints and bools, copied. lists: repeated scalars, as lists.
    optionals: numeric fields with presence (`optional`): read as the
    message reads them (0 when absent), and HasField and ClearField on the
    mirror answer for them. refs: message
    fields kept as the message's own wrapper (read once, no copy: writes go
    straight to the message). messages: sub-messages mirrored by their own
    Spec; repeated_messages: repeated sub-messages, a list of mirrors.
    """

    scalars: tuple[str, ...] = ()
    lists: tuple[str, ...] = ()
    optionals: tuple[str, ...] = ()
    refs: tuple[str, ...] = ()
    messages: Mapping[str, Spec] = field(default_factory=dict)
    repeated_messages: Mapping[str, Spec] = field(default_factory=dict)

    def names(self) -> tuple[str, ...]:
        """The mirror's slots (an optional field's value lives in `_o_<name>`)."""
        return (
            self.scalars
            + self.lists
            + tuple(f"_o_{name}" for name in self.optionals)
            + self.refs
            + tuple(self.messages)
            + tuple(self.repeated_messages)
        )


class Mirror:
    """Base of the mirror classes: what is not mirrored is the message's.
    `_memo` holds one value derived from the mirrored message (compiled_rules)."""

    __slots__ = ("_message", "_memo")
    _memo: Any
    # Per class (_class_of): each optional field's slot, and every name a
    # mirror holds itself (its scalars, lists and messages).
    _optional_slots: Mapping[str, str] = {}
    _mirrored: frozenset[str] = frozenset()
    _scalars: frozenset[str] = frozenset()
    _lists: frozenset[str] = frozenset()

    def __getattr__(self, name: str) -> Any:  # only for names not mirrored
        return getattr(self._message, name)

    def HasField(self, name: str) -> bool:  # noqa: N802 - the protobuf method it stands for
        slot = self._optional_slots.get(name)
        if slot is None:
            return self._message.HasField(name)  # type: ignore[no-any-return]
        return getattr(self, slot) is not None

    def ClearField(self, name: str) -> None:  # noqa: N802 - the protobuf method it stands for
        slot = self._optional_slots.get(name)
        if slot is not None:
            setattr(self, slot, None)
        elif name not in self._mirrored:
            self._message.ClearField(name)
        elif name in self._lists:
            setattr(self, name, [])
        elif name in self._scalars:
            setattr(self, name, type(getattr(self, name))())  # 0, False or ""
        else:  # a mirrored message: not supported, say so
            raise NotImplementedError(f"ClearField({name!r}) on a mirrored message")


def _optional(name: str) -> property:
    """An optional field: None in its slot when absent, read as 0 then."""
    slot = f"_o_{name}"

    def get(self: Mirror) -> Any:
        value = getattr(self, slot)
        return 0 if value is None else value

    def put(self: Mirror, value: Any) -> None:
        setattr(self, slot, value)

    return property(get, put)


# One mirror class per spec, by the spec's id (the spec kept alive beside it).
_classes: dict[int, tuple[Spec, type[Mirror]]] = {}


def _class_of(spec: Spec) -> type[Mirror]:
    entry = _classes.get(id(spec))
    if entry is None or entry[0] is not spec:
        attributes: dict[str, Any] = {
            "__slots__": spec.names(),
            "_optional_slots": {name: f"_o_{name}" for name in spec.optionals},
            "_mirrored": frozenset(spec.names()),
            "_scalars": frozenset(spec.scalars),
            "_lists": frozenset(spec.lists),
        }
        attributes.update((name, _optional(name)) for name in spec.optionals)
        entry = _classes[id(spec)] = (spec, type("Mirror", (Mirror,), attributes))
    return entry[1]


def mirror(message: Message, spec: Spec) -> Any:
    """A mirror of `message` (typed Any: it stands for the message)."""
    cls = _class_of(spec)
    out = cls.__new__(cls)
    object.__setattr__(out, "_message", message)
    object.__setattr__(out, "_memo", None)
    for name in spec.scalars:
        object.__setattr__(out, name, getattr(message, name))
    for name in spec.lists:
        object.__setattr__(out, name, getattr(message, name)[:])
    for name in spec.optionals:
        value = getattr(message, name) if message.HasField(name) else None
        object.__setattr__(out, f"_o_{name}", value)
    for name in spec.refs:
        object.__setattr__(out, name, getattr(message, name))
    for name, inner in spec.messages.items():
        object.__setattr__(out, name, mirror(getattr(message, name), inner))
    for name, inner in spec.repeated_messages.items():
        items = [mirror(item, inner) for item in getattr(message, name)]
        object.__setattr__(out, name, items)
    return out


def flush(live: Any, spec: Spec) -> Message:
    """Write the mirrored fields back into the message; the message."""
    message: Message = object.__getattribute__(live, "_message")
    for name in spec.scalars:
        setattr(message, name, getattr(live, name))
    for name in spec.lists:
        getattr(message, name)[:] = getattr(live, name)
    for name in spec.optionals:
        value = getattr(live, f"_o_{name}")
        if value is None:
            message.ClearField(name)
        else:
            setattr(message, name, value)
    for name, inner in spec.messages.items():
        flush(getattr(live, name), inner)
    for name, inner in spec.repeated_messages.items():
        items = getattr(live, name)
        repeated = getattr(message, name)
        if len(items) != len(repeated):
            raise AssertionError(f"{name}: a mirror cannot add or remove repeated messages")
        for item in items:
            flush(item, inner)
    return message


Compiled = TypeVar("Compiled")


def compiled_rules(state: Any, game: str, compile: Callable[[Any], Compiled]) -> Compiled:
    """`compile(state.options.<game>)`: a game's rules compiled from its
    options. A game's `compile` caches by the options' bytes, which costs a
    serialization per call; a live session's mirror keeps the result instead,
    for as long as it holds the state (no move writes the options: they are
    a read-only `ref` of `state_spec`)."""
    options = state.options
    if isinstance(options, Mirror):
        memo: Compiled | None = options._memo
        if memo is None:
            memo = options._memo = compile(getattr(options, game))
        return memo
    return compile(getattr(options, game))


def state_spec(game: str, deal: Spec) -> Spec:
    """A game's `live_fields`: the envelope's fields a move touches (seat to
    act, move counter, RNG counter, acting seats), the game's own deal
    message mirrored by `deal`, its options read on every move and never
    written. The match and the seats change only when a deal ends: kept as
    the message's own (mirroring them measured 5 % slower, the mirror being
    rebuilt every deal)."""
    return Spec(
        scalars=("current_seat", "move_number", "seed", "rng_counter"),
        lists=("acting_seats",),
        refs=("match", "seats"),
        messages={"options": Spec(refs=(game,)), game: deal},
    )
