"""Option catalogues: named, typed, described rule options (DESIGN.md).

A game declares its options once, as data: an `OptionSpec` per field of its
typed options message. From that one declaration come the ListGames
descriptors, the resolution of NewGame's named settings into the typed
message, and the range checks applied to every incoming state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import Message

from croupier.engine.errors import InvalidInput
from croupier.v1 import options_pb2

BOOL = options_pb2.OPTION_TYPE_BOOL
INT = options_pb2.OPTION_TYPE_INT
ENUM = options_pb2.OPTION_TYPE_ENUM
SET = options_pb2.OPTION_TYPE_SET

Value = bool | int | str | tuple[str, ...]


@dataclass(frozen=True)
class OptionSpec:
    """One rule option: a field of the game's options message."""

    name: str
    type: int
    default: Value
    description: str
    reference: str
    allowed: tuple[str, ...] = ()  # ENUM/SET names; INT values when not a range
    min_value: int = 0
    max_value: int = 0


@dataclass(frozen=True)
class Preset:
    """A named bundle of option values (a published version of a game)."""

    name: str
    description: str
    settings: Mapping[str, Value]
    min_seats: int
    max_seats: int


def _enum_prefix(enum_descriptor: Any) -> str:
    unspecified = enum_descriptor.values[0].name
    return unspecified[: -len("UNSPECIFIED")]


# A follower: (leader, value, follower, follows): when option `leader` is
# `value` and the table did not set `follower` itself, `follower` takes
# `follows` instead of its default (or a preset's value): an option that
# only works, or only means something, with another brings it along.
Follower = tuple[str, Value, str, Value]


class Catalogue:
    """The options of one game, bound to its typed options message class,
    with the followers of its options (`Follower`)."""

    def __init__(
        self,
        message_class: type[Message],
        specs: Sequence[OptionSpec],
        followers: Sequence[Follower] = (),
    ) -> None:
        self.message_class = message_class
        self.specs = tuple(specs)
        self.followers = tuple(followers)
        self.by_name = {spec.name: spec for spec in specs}
        fields = message_class.DESCRIPTOR.fields_by_name
        missing = set(fields) ^ set(self.by_name)
        if missing:
            raise ValueError(
                f"catalogue and {message_class.__name__} disagree on {sorted(missing)}"
            )
        self._prefix = {
            name: _enum_prefix(f.enum_type) for name, f in fields.items() if f.enum_type is not None
        }
        self._enum_number = {
            name: {v.name[len(self._prefix[name]) :]: v.number for v in f.enum_type.values[1:]}
            for name, f in fields.items()
            if f.enum_type is not None
        }
        self._enum_name = {
            name: {number: short for short, number in table.items()}
            for name, table in self._enum_number.items()
        }

    # -- descriptors --------------------------------------------------------

    def descriptors(self) -> list[options_pb2.OptionDescriptor]:
        """The catalogue as ListGames describes it, in declaration order."""
        out = []
        for spec in self.specs:
            d = options_pb2.OptionDescriptor(
                name=spec.name,
                type=spec.type,  # type: ignore[arg-type]
                description=spec.description,
                rule_reference=spec.reference,
                allowed_values=list(spec.allowed),
                min_value=spec.min_value,
                max_value=spec.max_value,
            )
            d.default_value.CopyFrom(to_option_value(spec.default))
            out.append(d)
        return out

    # -- named settings -> typed message -------------------------------------

    def resolve(self, layers: Iterable[tuple[Mapping[str, Value], Mapping[str, str]]]) -> Message:
        """Build the typed options message: defaults, then each layer in turn.

        A layer is ({name: value}, {name: field path}): e.g. the preset's
        settings, then the request's overrides with the path of each setting
        (`options[2]`), so that an error names the exact setting at fault.
        """
        message = self.message_class()
        for spec in self.specs:
            self._store(message, spec, spec.default)
        layers = list(layers)
        for settings, paths in layers:
            for name, value in settings.items():
                path = paths.get(name, name)
                named = self.by_name.get(name)
                if named is None:
                    raise InvalidInput(f"{path}.name", f"unknown option {name!r}")
                self._store(message, named, self.coerce(named, value, f"{path}.value"))
        if self.followers:
            # Set by the table = named in a layer that gives it a path (NewGame's
            # own settings); a preset's values may follow like the defaults.
            explicit = {name for settings, paths in layers for name in settings if name in paths}
            named_values = self.named(message)
            for leader, value, follower, follows in self.followers:
                if named_values[leader] == value and follower not in explicit:
                    self._store(message, self.by_name[follower], follows)
        return message

    def coerce(self, spec: OptionSpec, value: Value, path: str) -> Value:
        """Check a named value against its spec; returns it in canonical form."""
        if spec.type == BOOL:
            if not isinstance(value, bool):
                raise InvalidInput(path, f"option {spec.name} takes bool_value")
            return value
        if spec.type == INT:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInput(path, f"option {spec.name} takes int_value")
            if spec.allowed and str(value) not in spec.allowed:
                raise InvalidInput(
                    path,
                    f"option {spec.name} must be one of {', '.join(spec.allowed)}; got {value}",
                )
            if not spec.allowed and not spec.min_value <= value <= spec.max_value:
                raise InvalidInput(
                    path,
                    f"option {spec.name} must be from {spec.min_value} to {spec.max_value}; "
                    f"got {value}",
                )
            return value
        if spec.type == ENUM:
            if not isinstance(value, str):
                raise InvalidInput(path, f"option {spec.name} takes enum_value")
            if value not in spec.allowed:
                raise InvalidInput(
                    path,
                    f"option {spec.name} must be one of {', '.join(spec.allowed)}; got {value!r}",
                )
            return value
        if not isinstance(value, tuple):
            raise InvalidInput(path, f"option {spec.name} takes set_value")
        if len(value) > len(spec.allowed):  # before any work in proportion to it
            raise InvalidInput(
                path, f"option {spec.name} has {len(spec.allowed)} values; got {len(value)}"
            )
        for name in value:
            if name not in spec.allowed:
                raise InvalidInput(
                    path, f"option {spec.name} allows {', '.join(spec.allowed)}; got {name!r}"
                )
        if len(set(value)) != len(value):
            raise InvalidInput(path, f"option {spec.name} names a value twice")
        return tuple(sorted(value, key=spec.allowed.index))

    def _store(self, message: Message, spec: OptionSpec, value: Value) -> None:
        if spec.type == ENUM:
            setattr(message, spec.name, self._enum_number[spec.name][str(value)])
        elif spec.type == SET:
            target = getattr(message, spec.name)
            del target[:]
            target.extend(self._enum_number[spec.name][v] for v in value)  # type: ignore[union-attr]
        else:
            setattr(message, spec.name, value)

    # -- typed message -> checks and names ------------------------------------

    def named(self, message: Message) -> dict[str, Value]:
        """The typed message as {name: value}, for checks and descriptions."""
        out: dict[str, Value] = {}
        for spec in self.specs:
            raw = getattr(message, spec.name)
            if spec.type == ENUM:
                out[spec.name] = self._enum_name[spec.name].get(raw, f"#{raw}")
            elif spec.type == SET:
                out[spec.name] = tuple(self._enum_name[spec.name].get(v, f"#{v}") for v in raw)
            else:
                out[spec.name] = raw
        return out

    def check(self, message: Message, path: str) -> dict[str, Value]:
        """Range-check every field of a typed options message from a state."""
        for spec in self.specs:
            if spec.type == SET and len(getattr(message, spec.name)) > len(spec.allowed):
                raise InvalidInput(
                    f"{path}.{spec.name}",
                    f"option {spec.name} has {len(spec.allowed)} values; "
                    f"got {len(getattr(message, spec.name))}",
                )
        named = self.named(message)
        for spec in self.specs:
            value = named[spec.name]
            if spec.type == INT and isinstance(value, int):
                value = int(value)
            self.coerce(spec, value, f"{path}.{spec.name}")
        return named


def to_option_value(value: Value) -> options_pb2.OptionValue:
    """A Python option value as the wire's OptionValue."""
    if isinstance(value, bool):
        return options_pb2.OptionValue(bool_value=value)
    if isinstance(value, int):
        return options_pb2.OptionValue(int_value=value)
    if isinstance(value, str):
        return options_pb2.OptionValue(enum_value=value)
    return options_pb2.OptionValue(set_value=options_pb2.NameList(names=list(value)))


def option_settings(options: Mapping[str, Value] | None) -> list[options_pb2.OptionSetting]:
    """NewGame's named option settings from a {name: value} mapping."""
    return [
        options_pb2.OptionSetting(name=name, value=to_option_value(value))
        for name, value in (options or {}).items()
    ]


def from_option_value(value: options_pb2.OptionValue, path: str) -> Value:
    """The wire's OptionValue as a Python value; InvalidInput when empty."""
    kind = value.WhichOneof("kind")
    if kind is None:
        raise InvalidInput(path, "option value is empty")
    if kind == "set_value":
        return tuple(value.set_value.names)
    result: Value = getattr(value, kind)
    return result
