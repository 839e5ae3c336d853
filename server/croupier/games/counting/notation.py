"""Canonical move texts: "7D", "AC=73", "AH+11", "10S-10", "CONCEDE".

A card, then its choice if it carries one: "=N" for the total a black ace
sets, a signed "+N"/"-N" for what an ace or a ten adds. Every move has
exactly one text and the text parses back to the same move (STYLE.md
convention 7), illegal choices included ("AC=101", "7D+1").
"""

from __future__ import annotations

import re

from croupier.engine.cards import card_text, parse_card
from croupier.games.counting.effects import ADDS, SETS_TOTAL
from croupier.v1 import counting_pb2 as pb
from croupier.v1 import game_pb2

CONCEDE = "CONCEDE"
_PLAY = re.compile(r"^(?P<card>[0-9JQKA]{1,2}[CDHS])(?:(?P<adds>[+-]\d+)|=(?P<sets>-?\d+))?$")


def notation(m: pb.CountingMove) -> str:
    """The canonical text of a well-formed counting move (without its seat)."""
    if m.WhichOneof("action") == "concede":
        return CONCEDE
    play = m.play
    text = card_text(play.card)
    kind = play.WhichOneof("choice")
    if kind == ADDS:
        return f"{text}{play.adds:+d}"
    if kind == SETS_TOTAL:
        return f"{text}={play.sets_total}"
    return text


def parse_notation(game: str, text: str, seat: int) -> game_pb2.Move:
    """The move a canonical text stands for; ValueError when it is not one."""
    move = game_pb2.Move(seat=seat)
    m = getattr(move, game)
    word = text.strip().upper()
    if word == CONCEDE:
        m.concede.SetInParent()
        return move
    found = _PLAY.match(word)
    if found is None:
        raise ValueError(f"not a counting move: {text!r}")
    m.play.card = parse_card(found["card"])
    if found["adds"] is not None:
        m.play.adds = _int32(found["adds"])
    elif found["sets"] is not None:
        m.play.sets_total = _int32(found["sets"])
    return move


def _int32(text: str) -> int:
    value = int(text)
    if not -(2**31) <= value < 2**31:
        raise ValueError(f"not a 32-bit choice: {text}")
    return value
