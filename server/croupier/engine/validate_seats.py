"""Seat names: what a table may call its seats.

A seat's name is written into the games' sentences (`Event.text`: "Ann
plays 7C"), so a name must not be able to write a sentence of its own or
make one ambiguous. Wherever a name enters — NewGame's `seat_names[i]` and
every state's `seats[i].name`, since clients send states — it is:

- at most MAX_SEAT_NAME characters (code points);
- one line of visible text: no control or format character (Unicode
  categories Cc, Cf, Zl, Zp: a newline, a tab, a bidi override, a zero-width
  joiner) — a name with a newline could append "P0 wins the match";
- not only whitespace (an empty name is allowed: it reads as "P<i>");
- every seat's own: no two seats have the same effective name (an empty
  name reads as "P<i>", so "P1" given to seat 0 is seat 1's name when seat 1
  has none). Names that differ only in case, in their spacing or in Unicode
  compatibility form ("Ann", "ann", " Ann", "Ａnn") are the same name.

A refusal is INVALID_ARGUMENT naming the field and the problem; a name it
quotes is cut to a few characters and escaped (repr), like every other
quoted input.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from croupier.engine.errors import InvalidInput

MAX_SEAT_NAME = 64
# Control, format, line and paragraph separators: what can break a line,
# reorder the text around it (bidi overrides) or hide in it (zero widths).
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
# Characters of a refused name quoted back in the error (then "…").
_QUOTED = 24
# The names NewGame gives when none are asked for: most states hold them,
# and they pass the check by construction.
_DEFAULT_NAMES = [[f"P{seat}" for seat in range(count)] for count in range(17)]


def effective_name(name: str, seat: int) -> str:
    """What a seat is called in the games' sentences."""
    return name or f"P{seat}"


def check_seat_names(names: Sequence[str], field: Callable[[int], str]) -> None:
    """Refuse a seat name that breaks the rules above; `field(i)` is the path
    of seat i's name (`seat_names[2]`, `state.seats[2].name`)."""
    if len(names) < len(_DEFAULT_NAMES) and list(names) == _DEFAULT_NAMES[len(names)]:
        return
    keys: dict[str, int] = {}
    for seat, name in enumerate(names):
        if name:
            # isprintable() is False for every forbidden category (and for
            # spaces other than " "), so most names take only this test.
            if len(name) > MAX_SEAT_NAME or not name.isprintable() or name.isspace():
                _check_one(name, seat, field)
            key = _same_name_key(name)
        else:
            key = f"p{seat}"
        other = keys.get(key)
        if other is not None:
            # The seat whose given name makes the clash is the one named.
            blamed, first = (seat, other) if name else (other, seat)
            shown = effective_name(names[blamed], blamed)
            raise InvalidInput(
                field(blamed),
                f"{_quoted(shown)} is seat {first}'s name too: every seat needs a name of its "
                f"own (one without a name reads as P<seat>)",
            )
        keys[key] = seat


def _check_one(name: str, seat: int, field: Callable[[int], str]) -> None:
    if len(name) > MAX_SEAT_NAME:
        raise InvalidInput(
            field(seat),
            f"{_quoted(name)} is {len(name)} characters; a seat name has at most {MAX_SEAT_NAME}",
        )
    for position, char in enumerate(name):
        category = unicodedata.category(char)
        if category in FORBIDDEN_CATEGORIES:
            raise InvalidInput(
                field(seat),
                f"{_quoted(name)} holds U+{ord(char):04X} ({category}) at {position}: a seat "
                "name is one line of visible text, without control or format characters",
            )
    if name.isspace():
        raise InvalidInput(
            field(seat),
            f"{_quoted(name)} is only whitespace: give a visible name, or none (it reads as "
            f"P{seat})",
        )


def _same_name_key(name: str) -> str:
    """Names with the same key read as the same name."""
    if name.isascii():
        return " ".join(name.split()).casefold()
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def _quoted(name: str) -> str:
    """The start of `name`, escaped: repr escapes every character that is not
    printable (\\n, \\x00, \\u202e), so the error shows what was sent."""
    if len(name) <= _QUOTED:
        return repr(name)
    return repr(name[:_QUOTED]) + "…"
