"""The README's tested blocks: found by an HTML comment before them, run as a
newcomer would type them, and compared with the output the README shows.

Markers (each on the line before a fenced block):

- ``<!-- readme-test: make -->``: every line is a `make` command (a comment
  after `#`); each must work as a dry run (`make -n ...`).
- ``<!-- readme-test: session -->``: a shell transcript; `$ ` starts a command
  (continued by a trailing backslash or an open quote), the lines up to the
  next command are its output (stdout and stderr). All session blocks run in
  one bash, in order, in one directory.
- ``<!-- readme-test: python -->``: Python run in one interpreter (the blocks
  share their names, in order); the next fenced block is what it prints.
- ``<!-- readme-test: excerpt LINES -->``: the output of the session command
  just before it, shown as its start, a line `...`, and its end; LINES is
  the whole output's line count.

An expected line ending in `trimmed)` ends the comparison of its command's
output after its text before ` (`. Addresses are rewritten to the test's
server: 127.0.0.1:50051 (gRPC) and 127.0.0.1:9095 (metrics).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
GRPC_ADDRESS = "127.0.0.1:50051"
METRICS_ADDRESS = "127.0.0.1:9095"

_MARKER = re.compile(r"^<!-- readme-test: (\w+)(?: (\d+))? -->$")
_FENCE = re.compile(r"^```(\w*)$")


@dataclass
class Command:
    text: str  # as printed, continuation lines joined with newlines
    expected: list[str] = field(default_factory=list)
    line: int = 0  # in README.md


@dataclass
class Block:
    kind: str  # make, session, python, excerpt
    line: int
    body: list[str]
    argument: int | None = None
    expected: list[str] = field(default_factory=list)  # python: the output block
    commands: list[Command] = field(default_factory=list)  # session


def _fenced(lines: list[str], start: int) -> tuple[list[str], int]:
    """The lines of the fenced block opening at `start` and the index after it."""
    assert _FENCE.match(lines[start]), f"README.md:{start + 1}: a fenced block must follow"
    end = start + 1
    while lines[end] != "```":
        end += 1
    return lines[start + 1 : end], end + 1


def _complete(text: str) -> bool:
    if text.endswith("\\"):
        return False
    try:
        shlex.split(text)
    except ValueError:  # an open quote
        return False
    return True


def parse_session(body: list[str], first_line: int) -> list[Command]:
    commands: list[Command] = []
    index = 0
    while index < len(body):
        line = body[index]
        if not line.startswith("$ "):
            if commands:
                commands[-1].expected.append(line)
            elif line.strip():
                raise ValueError(f"README.md:{first_line + index}: output before any command")
            index += 1
            continue
        command = Command(line[2:], line=first_line + index)
        while not _complete(command.text):
            index += 1
            command.text += "\n" + body[index]
        commands.append(command)
        index += 1
    for command in commands:
        while command.expected and not command.expected[-1].strip():
            command.expected.pop()
    return commands


def blocks(text: str | None = None) -> list[Block]:
    """Every marked block of the README, in order."""
    lines = (README.read_text() if text is None else text).splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        marker = _MARKER.match(lines[index].strip())
        if not marker:
            index += 1
            continue
        kind, argument = marker.group(1), marker.group(2)
        body, index = _fenced(lines, index + 1)
        block = Block(kind, index, body, int(argument) if argument else None)
        if kind == "python":
            while not lines[index].startswith("```"):
                index += 1
            block.expected, index = _fenced(lines, index)
        elif kind == "session":
            block.commands = parse_session(body, block.line - len(body))
        elif kind not in ("make", "excerpt"):
            raise ValueError(f"README.md:{block.line}: unknown marker {kind!r}")
        found.append(block)
    return found


def differences(expected: list[str], actual: list[str]) -> list[str]:
    """Where `actual` departs from `expected` (empty: it matches), with the
    README's `trimmed)` convention."""
    for number, want in enumerate(expected):
        if want.rstrip().endswith("trimmed)"):
            prefix = want.split(" (", 1)[0]
            got = actual[number] if number < len(actual) else "<nothing>"
            return [] if got.rstrip() == prefix.rstrip() else [f"line {number + 1}: {got!r}"]
        got = actual[number] if number < len(actual) else "<nothing>"
        if got != want:
            return [f"line {number + 1}: expected {want!r}", f"line {number + 1}: got      {got!r}"]
    if len(actual) > len(expected):
        return [f"{len(actual) - len(expected)} more lines, from {actual[len(expected)]!r}"]
    return []


def excerpt_differences(shown: list[str], total: int | None, actual: list[str]) -> list[str]:
    """A start, `...`, an end: both must match the output, and its length `total`."""
    cut = [line.strip() for line in shown].index("...")
    head, tail = shown[:cut], shown[cut + 1 :]
    problems = []
    if actual[: len(head)] != head:
        problems.append("the start differs:\n" + "\n".join(actual[: len(head)]))
    if actual[len(actual) - len(tail) :] != tail:
        problems.append("the end differs:\n" + "\n".join(actual[len(actual) - len(tail) :]))
    if total is not None and len(actual) != total:
        problems.append(f"{len(actual)} lines, the README says {total}")
    return problems
