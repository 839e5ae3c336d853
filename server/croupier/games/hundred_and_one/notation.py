"""Canonical move texts: "10H", "QC>S", "DRAW", "PASS", "ACCEPT", "NAME S".

Every move has exactly one text and the text parses back to the same move
(STYLE.md convention 7); transcripts and log lines use it. A Queen's text
names its suit ("QC>C"); "QC" parses to the Queen naming none, which the
engine reads as naming its own (spelling.py).
"""

from __future__ import annotations

from croupier.engine.cards import card_text, parse_card, parse_suit, suit_text
from croupier.v1 import game_pb2

_WORDS = {"draw": "DRAW", "pass": "PASS", "accept": "ACCEPT"}
_ACTIONS = {word: action for action, word in _WORDS.items()}


def notation(move: game_pb2.Move) -> str:
    """The canonical text of a well-formed 101 move (without its seat)."""
    m = move.hundred_and_one
    action = m.WhichOneof("action")
    if action == "play":
        text = card_text(m.play.card)
        return f"{text}>{suit_text(m.play.named_suit)}" if m.play.named_suit else text
    if action == "name_suit":
        return f"NAME {suit_text(m.name_suit.suit)}"
    return _WORDS.get(action or "", "?")


def parse_notation(text: str, seat: int) -> game_pb2.Move:
    """The move a canonical text stands for; ValueError when it is not one."""
    move = game_pb2.Move(seat=seat)
    m = move.hundred_and_one
    word = text.strip().upper()
    if word in _ACTIONS:
        getattr(m, _ACTIONS[word]).SetInParent()
    elif word.startswith("NAME "):
        m.name_suit.suit = parse_suit(word[5:])  # type: ignore[assignment]
    else:
        card, _, suit = word.partition(">")
        m.play.card = parse_card(card)  # type: ignore[assignment]
        if suit:
            m.play.named_suit = parse_suit(suit)  # type: ignore[assignment]
    return move
