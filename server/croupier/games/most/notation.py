"""Canonical move texts (STYLE.md convention 7): "DRAW", "TAKE 9C",
"MELD [8C RJ=9C 10C]", "LAY 4H ON 2 HIGH", "LAY BJ=7D ON 3", "EXCHANGE 9C",
"DISCARD KS". Every move has one text and the text parses back to it."""

from __future__ import annotations

import re

from croupier.engine.cards import card_text, is_joker, parse_card
from croupier.engine.melds import meld_text
from croupier.v1 import game_pb2
from croupier.v1 import most_pb2 as pb

_ENDS = {pb.MOST_END_LOW: "LOW", pb.MOST_END_HIGH: "HIGH"}
_END_OF = {word: end for end, word in _ENDS.items()}
_MELD = re.compile(r"^MELD \[([^\]]*)\]$")


def notation(move: game_pb2.Move) -> str:
    """The canonical text of a well-formed «Мост» move (without its seat)."""
    m = move.most
    action = m.WhichOneof("action")
    if action == "draw_stock":
        return "DRAW"
    if action == "take_bridge":
        return f"TAKE {card_text(m.take_bridge.card)}"
    if action == "meld":
        return "MELD " + meld_text(m.meld.cards, m.meld.joker_as)
    if action == "lay_off":
        lay = m.lay_off
        text = card_text(lay.card) + (f"={card_text(lay.joker_as)}" if lay.joker_as else "")
        end = f" {_ENDS[lay.end]}" if lay.end in _ENDS else ""
        return f"LAY {text} ON {lay.meld_id}{end}"
    if action == "exchange_joker":
        return f"EXCHANGE {card_text(m.exchange_joker.card)}"
    if action == "discard":
        return f"DISCARD {card_text(m.discard.card)}"
    return "?"


def parse_notation(text: str, seat: int) -> game_pb2.Move:
    """The move a canonical text stands for; ValueError when it is not one."""
    move = game_pb2.Move(seat=seat)
    m = move.most
    upper = " ".join(text.strip().upper().split())
    words = upper.split()
    if not words:
        raise ValueError("empty move text")
    head = words[0]
    if words == ["DRAW"]:
        m.draw_stock.SetInParent()
    elif head == "TAKE" and len(words) == 2:
        m.take_bridge.card = parse_card(words[1])  # type: ignore[assignment]
    elif head == "MELD" and (found := _MELD.match(upper)):
        m.meld.SetInParent()
        for word in found.group(1).split():
            name, _, identity = word.partition("=")
            value = parse_card(name)
            m.meld.cards.append(value)  # type: ignore[arg-type]
            if is_joker(value):
                m.meld.joker_as.append(parse_card(identity) if identity else 0)  # type: ignore[arg-type]
            elif identity:
                raise ValueError(f"only a joker declares an identity: {word!r}")
    elif head == "LAY" and len(words) in (4, 5) and words[2] == "ON":
        name, _, identity = words[1].partition("=")
        m.lay_off.card = parse_card(name)  # type: ignore[assignment]
        if identity:
            m.lay_off.joker_as = parse_card(identity)  # type: ignore[assignment]
        m.lay_off.meld_id = int(words[3])
        if len(words) == 5:
            if words[4] not in _END_OF:
                raise ValueError(f"not an end: {words[4]!r}")
            m.lay_off.end = _END_OF[words[4]]  # type: ignore[assignment]
    elif head == "EXCHANGE" and len(words) == 2:
        m.exchange_joker.card = parse_card(words[1])  # type: ignore[assignment]
    elif head == "DISCARD" and len(words) == 2:
        m.discard.card = parse_card(words[1])  # type: ignore[assignment]
    else:
        raise ValueError(f"not a move: {text!r}")
    return move
