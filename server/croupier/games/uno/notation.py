"""Canonical move texts (RULES.md, Notation).

Plays: the card ("R7", "GSkip", "B+2"), a black card's colour after ">"
("W>G", "W+4>B"), then H15's H2O label of a last card (" H2O+1",
" H2O+2"), then " UNO" for a call, then an exchange: " SWAP 2" (a 7,
H3) or " SWAP 3 G2" (a 5, H6: the seat and the card given). A jump-in is
"JUMP " before the play. Others: "DRAW", "PASS", "ACCEPT", "CHALLENGE",
"UNO", "SLAP", "TIME", "READY", "CATCH 2", "REPORT 1", "GIVE G2",
"COLOUR G". Every move has one text and the text reads back as the move.
"""

from __future__ import annotations

from croupier.engine.uno_cards import colour_text, parse_colour, parse_uno_card
from croupier.engine.uno_cards import uno_card_text as card_text
from croupier.v1 import game_pb2
from croupier.v1 import uno_pb2 as pb

_WORDS = {
    "draw": "DRAW",
    "pass": "PASS",
    "accept": "ACCEPT",
    "challenge": "CHALLENGE",
    "call_uno": "UNO",
    "slap": "SLAP",
    "slap_time_up": "TIME",
    "ready": "READY",
}
_ACTIONS = {word: action for action, word in _WORDS.items()}
_SEAT_WORDS = {"catch": "CATCH", "report_silence": "REPORT"}
_SEAT_ACTIONS = {word: action for action, word in _SEAT_WORDS.items()}
_LABELS = {pb.UNO_H2O_LABEL_PLUS_ONE: "H2O+1", pb.UNO_H2O_LABEL_WILD_PLUS_TWO: "H2O+2"}
_LABEL_VALUES = {word: label for label, word in _LABELS.items()}


def play_text(play: pb.UnoMove.Play) -> str:
    """The text of a play's card and choices."""
    text = card_text(play.card)
    if play.colour:
        text += f">{colour_text(play.colour)}"
    if play.h2o_label:
        text += " " + _LABELS.get(play.h2o_label, "H2O?")
    if play.uno:
        text += " UNO"
    if play.HasField("swap_with"):
        text += f" SWAP {play.swap_with}"
        if play.give:
            text += f" {card_text(play.give)}"
    return text


def notation(move: game_pb2.Move) -> str:
    """The canonical text of a well-formed UNO move (without its seat)."""
    m = move.uno
    action = m.WhichOneof("action") or ""
    if action == "play":
        return play_text(m.play)
    if action == "jump_in":
        return "JUMP " + play_text(m.jump_in)
    if action in _SEAT_WORDS:
        return f"{_SEAT_WORDS[action]} {getattr(m, action).seat}"
    if action == "give":
        return f"GIVE {card_text(m.give.card)}"
    if action == "name_colour":
        return f"COLOUR {colour_text(m.name_colour.colour)}"
    return _WORDS.get(action, "?")


def parse_notation(text: str, seat: int) -> game_pb2.Move:
    """The move a canonical text stands for; ValueError when it is not one."""
    move = game_pb2.Move(seat=seat)
    m = move.uno
    words = text.strip().upper().split()
    if not words:
        raise ValueError("empty move text")
    head = words[0]
    if len(words) == 1 and head in _ACTIONS:
        getattr(m, _ACTIONS[head]).SetInParent()
    elif len(words) == 2 and head in _SEAT_ACTIONS:
        getattr(m, _SEAT_ACTIONS[head]).seat = int(words[1])
    elif len(words) == 2 and head == "GIVE":
        m.give.card = parse_uno_card(words[1])  # type: ignore[assignment]
    elif len(words) == 2 and head == "COLOUR":
        m.name_colour.colour = parse_colour(words[1])  # type: ignore[assignment]
    elif head == "JUMP":
        _parse_play(words[1:], m.jump_in)
    else:
        _parse_play(words, m.play)
    return move


def _parse_play(words: list[str], play: pb.UnoMove.Play) -> None:
    if not words:
        raise ValueError("a play names a card")
    card, _, colour = words[0].partition(">")
    play.card = parse_uno_card(card)  # type: ignore[assignment]
    if colour:
        play.colour = parse_colour(colour)  # type: ignore[assignment]
    rest = words[1:]
    if rest[:1] and rest[0] in _LABEL_VALUES:
        play.h2o_label = _LABEL_VALUES[rest[0]]  # type: ignore[assignment]
        rest = rest[1:]
    if rest[:1] == ["UNO"]:
        play.uno = True
        rest = rest[1:]
    if rest[:1] == ["SWAP"] and len(rest) in (2, 3):
        play.swap_with = int(rest[1])
        if len(rest) == 3:
            play.give = parse_uno_card(rest[2])  # type: ignore[assignment]
        rest = []
    if rest:
        raise ValueError(f"unexpected {' '.join(rest)!r} in a play")
