"""`--option NAME=VALUE` for `croupier play`: text typed by a person, read
by the option's type as ListGames describes it.

BOOL: on/off, true/false, yes/no, 1/0. INT: a whole number. ENUM: one of
the allowed names (any case). SET: allowed names separated by commas (an
empty value is the empty set). The ranges are the engine's to check: it
names the option and the allowed range when a value is out of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine.options import BOOL, ENUM, INT, SET, Value
from croupier.v1 import options_pb2

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


class OptionError(ValueError):
    """An --option that cannot be read; the message names it."""


def parse_options(
    descriptor: options_pb2.GameDescriptor, settings: Sequence[str]
) -> dict[str, Value]:
    """The {name: value} of the `NAME=VALUE` settings, in their order."""
    specs = {option.name: option for option in descriptor.options}
    out: dict[str, Value] = {}
    for setting in settings:
        name, sep, text = setting.partition("=")
        name = name.strip()
        if not sep or not name:
            raise OptionError(f"--option {setting!r}: write NAME=VALUE, e.g. jump_in=on")
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(sorted(specs))
            raise OptionError(
                f"--option {name}: {descriptor.name} has no such option; it has {known}"
            )
        if name in out:
            raise OptionError(f"--option {name}: set twice")
        out[name] = _value(spec, text.strip())
    return out


def _value(spec: options_pb2.OptionDescriptor, text: str) -> Value:
    where = f"--option {spec.name}"
    if spec.type == BOOL:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise OptionError(f"{where}: a yes/no option takes on or off; got {text!r}")
    if spec.type == INT:
        try:
            return int(text)
        except ValueError:
            raise OptionError(f"{where}: takes a whole number; got {text!r}") from None
    allowed = list(spec.allowed_values)
    by_upper = {name.upper(): name for name in allowed}
    if spec.type == ENUM:
        if text.upper() not in by_upper:
            raise OptionError(f"{where}: one of {', '.join(allowed)}; got {text!r}")
        return by_upper[text.upper()]
    if spec.type == SET:
        names = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [name for name in names if name.upper() not in by_upper]
        if unknown:
            raise OptionError(
                f"{where}: names from {', '.join(allowed)} separated by commas; "
                f"got {', '.join(unknown)}"
            )
        return tuple(by_upper[name.upper()] for name in names)
    raise OptionError(f"{where}: an option of unknown type {spec.type}")
