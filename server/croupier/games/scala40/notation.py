"""Canonical move texts (STYLE.md convention 7): "DRAW", "TAKE",
"OPEN [8C 9C RJ=10C] [5D 5H 5S]", "MELD [7H 8H 9H]", "LAY 5H ON 3 LOW",
"LAY BJ=7D ON 2", "SWAP 6S ON 3", "SPLIT 4 [4C 5C 6C] [6C 7C 8C 9C]",
"DISCARD KS". Every move has one text and the text parses back to it."""

from __future__ import annotations

import re

from croupier.engine.cards import card_text, is_joker, parse_card
from croupier.engine.melds import meld_text
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb

_ENDS = {pb.SCALA40_END_LOW: "LOW", pb.SCALA40_END_HIGH: "HIGH"}
_END_OF = {word: end for end, word in _ENDS.items()}
_MELD = re.compile(r"\[([^\]]*)\]")


def notation(move: game_pb2.Move) -> str:
    """The canonical text of a well-formed Scala 40 move (without its seat)."""
    m = move.scala40
    action = m.WhichOneof("action")
    if action == "draw_stock":
        return "DRAW"
    if action == "take_discard":
        return "TAKE"
    if action == "open":
        return "OPEN " + " ".join(meld_text(s.cards, s.joker_as) for s in m.open.melds)
    if action == "meld":
        return "MELD " + meld_text(m.meld.meld.cards, m.meld.meld.joker_as)
    if action == "lay_off":
        lay = m.lay_off
        text = card_text(lay.card) + (f"={card_text(lay.joker_as)}" if lay.joker_as else "")
        end = f" {_ENDS[lay.end]}" if lay.end in _ENDS else ""
        return f"LAY {text} ON {lay.meld_id}{end}"
    if action == "swap_joker":
        return f"SWAP {card_text(m.swap_joker.card)} ON {m.swap_joker.meld_id}"
    if action == "split":
        parts = " ".join(meld_text(s.cards, s.joker_as) for s in m.split.parts)
        return f"SPLIT {m.split.meld_id} {parts}"
    if action == "discard":
        return f"DISCARD {card_text(m.discard.card)}"
    return "?"


def _spec(text: str, out: pb.Scala40MeldSpec) -> None:
    for word in text.split():
        name, _, identity = word.partition("=")
        value = parse_card(name)
        out.cards.append(value)  # type: ignore[arg-type]
        if is_joker(value):
            out.joker_as.append(parse_card(identity) if identity else 0)  # type: ignore[arg-type]
        elif identity:
            raise ValueError(f"only a joker declares an identity: {word!r}")


def parse_notation(text: str, seat: int) -> game_pb2.Move:
    """The move a canonical text stands for; ValueError when it is not one."""
    move = game_pb2.Move(seat=seat)
    m = move.scala40
    words = text.strip().upper().split()
    if not words:
        raise ValueError("empty move text")
    head = words[0]
    if words == ["DRAW"]:
        m.draw_stock.SetInParent()
    elif words == ["TAKE"]:
        m.take_discard.SetInParent()
    elif head in ("OPEN", "MELD"):
        groups = _MELD.findall(text)
        if not groups or (head == "MELD" and len(groups) != 1):
            raise ValueError(f"not a move: {text!r}")
        if head == "OPEN":
            m.open.SetInParent()
            for group in groups:
                _spec(group.upper(), m.open.melds.add())
        else:
            _spec(groups[0].upper(), m.meld.meld)
    elif head == "LAY" and len(words) in (4, 5) and words[2] == "ON":
        name, _, identity = words[1].partition("=")
        m.lay_off.card = parse_card(name)  # type: ignore[assignment]
        if identity:
            m.lay_off.joker_as = parse_card(identity)  # type: ignore[assignment]
        m.lay_off.meld_id = int(words[3])
        if len(words) == 5:
            m.lay_off.end = _END_OF[words[4]]  # type: ignore[assignment]
    elif head == "SWAP" and len(words) == 4 and words[2] == "ON":
        m.swap_joker.card = parse_card(words[1])  # type: ignore[assignment]
        m.swap_joker.meld_id = int(words[3])
    elif head == "SPLIT" and len(words) >= 2:
        m.split.meld_id = int(words[1])
        for group in _MELD.findall(text):
            _spec(group.upper(), m.split.parts.add())
    elif head == "DISCARD" and len(words) == 2:
        m.discard.card = parse_card(words[1])  # type: ignore[assignment]
    else:
        raise ValueError(f"not a move: {text!r}")
    return move
