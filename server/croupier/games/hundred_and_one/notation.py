"""Canonical move texts: "10H", "QC>S", "DRAW", "PASS", "ACCEPT", "NAME S".

Every move has exactly one text and the text parses back to the same move
(STYLE.md convention 7); transcripts and log lines use it.
"""

from __future__ import annotations

from croupier.engine.cards import card_text, parse_card, parse_suit, suit_text
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb

_WORDS = {
    pb.HUNDRED_AND_ONE_ACTION_DRAW: "DRAW",
    pb.HUNDRED_AND_ONE_ACTION_PASS: "PASS",
    pb.HUNDRED_AND_ONE_ACTION_ACCEPT: "ACCEPT",
}
_ACTIONS = {word: action for action, word in _WORDS.items()}


def notation(move: game_pb2.Move) -> str:
    """The canonical text of a 101 move (without its seat)."""
    m = move.hundred_and_one
    if m.action == pb.HUNDRED_AND_ONE_ACTION_PLAY:
        text = card_text(m.card)
        return f"{text}>{suit_text(m.suit)}" if m.suit else text
    if m.action == pb.HUNDRED_AND_ONE_ACTION_NAME_SUIT:
        return f"NAME {suit_text(m.suit)}" if m.suit else "NAME ?"
    return _WORDS.get(m.action, "?")


def parse_notation(text: str, seat: int) -> game_pb2.Move:
    """The move a canonical text stands for; ValueError when it is not one."""
    move = game_pb2.Move(seat=seat)
    m = move.hundred_and_one
    word = text.strip().upper()
    if word in _ACTIONS:
        m.action = _ACTIONS[word]  # type: ignore[assignment]
    elif word.startswith("NAME "):
        m.action = pb.HUNDRED_AND_ONE_ACTION_NAME_SUIT
        m.suit = parse_suit(word[5:])  # type: ignore[assignment]
    else:
        card, _, suit = word.partition(">")
        m.action = pb.HUNDRED_AND_ONE_ACTION_PLAY
        m.card = parse_card(card)  # type: ignore[assignment]
        if suit:
            m.suit = parse_suit(suit)  # type: ignore[assignment]
    return move
