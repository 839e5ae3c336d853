"""What `croupier play` prints: plain lines, coloured only on a terminal.

Colour is on when standard output is a TTY and NO_COLOR is not set
(no-color.org); in a pipe, a log or a test the text is plain.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

from croupier.v1 import game_pb2, service_pb2

_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "cyan": "36",
}


def colour_wanted(stream: TextIO) -> bool:
    """Colour for this stream: a terminal, and no NO_COLOR in the environment."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Screen:
    """Lines to the person at the table, and their answers."""

    def __init__(self, out: TextIO | None = None, inp: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        self.colour = colour_wanted(self.out)
        # Answers read from a pipe are not echoed by a terminal: echo them,
        # so a transcript reads like the session it was.
        isatty = getattr(self.inp, "isatty", None)
        self.echo = not (isatty and isatty())

    def paint(self, text: str, style: str) -> str:
        if not self.colour:
            return text
        return f"\x1b[{_CODES[style]}m{text}\x1b[0m"

    def line(self, text: str = "", style: str | None = None) -> None:
        self.out.write((self.paint(text, style) if style else text) + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        """The person's next answer, stripped; None when the input has ended."""
        self.out.write(self.paint(prompt, "green"))
        self.out.flush()
        answer = self.inp.readline()
        if not answer or self.echo:
            self.out.write(answer.rstrip("\n") + "\n")
            self.out.flush()
        return answer.strip() if answer else None


def seat_label(state: game_pb2.GameState | game_pb2.View, seat: int, person: int) -> str:
    name = state.seats[seat].name or f"P{seat}"
    return f"{name} (you)" if seat == person else name


def scores_line(state: game_pb2.GameState, person: int) -> str:
    return ", ".join(
        f"{seat_label(state, seat, person)} {entry.score}" + (" (out)" if entry.eliminated else "")
        for seat, entry in enumerate(state.seats)
    )


def numbered_moves(moves: Sequence[service_pb2.LegalMove], out_of_turn: bool) -> list[str]:
    """The choices as the person sees them: 1… for the moves, 0 to pass when
    the chance is out of turn."""
    width = len(str(len(moves)))
    lines = [f"  {i:>{width}}  {move.notation}" for i, move in enumerate(moves, start=1)]
    if out_of_turn:
        lines.append(f"  {0:>{width}}  pass (let play go on)")
    return lines


HELP = """\
Answer with the number of a listed move, or type a move in the game's
notation (any case), e.g. 10H, QC>S, DRAW for 101; R7, W>G, CATCH 2 for UNO;
OPEN [8C 9C 10C] for Scala 40. A move the rules forbid is refused with the
reason and the rule it breaks (the rules: croupier rules GAME), and you are
asked again. When you may act out of turn (a UNO jump-in or catch), 0 passes
and lets play go on. ? shows this help, q leaves the match."""
