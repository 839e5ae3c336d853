"""`croupier play` on a pseudo-terminal: 101 (preset hd, 2 seats, seed 7)
against a random bot, played to the end of the first deal by answering the
prompts — a listed number each time, and once a well-formed but illegal
move, whose rejection (message and rule) must be shown before the same
choice is offered again."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from croupier.engine.cards import card_text, pack_52
from play.terminal import Terminal

COMMAND = [sys.executable, "-m", "croupier.cli", "play", "--game", "hundred_and_one"]
ARGS = ["--preset", "hd", "--seats", "2", "--seat", "0", "--bots", "random", "--seed", "7"]
# The view line (the hand first), whose move it is, the numbered moves, the prompt.
PROMPT = (
    r"\nhand (?P<hand>[^,\n]*),[^\n]*\n"
    r"(?:Your move:|[^\n]*out of turn[^\n]*)\n"
    r"(?P<moves>(?:  +\d+  [^\n]+\n)+)> "
)
DEAL_OVER = r"— Deal 1 over —"


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    session = Terminal(COMMAND + ARGS, env)
    yield session
    session.close()


def illegal_try(hand: list[str], listed: list[str]) -> str:
    """A move that is well formed but not listed: a card of the hand that may
    not be played now, else a card the hand lacks."""
    for card in hand:
        if not any(move.split(">")[0] == card for move in listed):
            return card
    return next(card_text(c) for c in pack_52() if card_text(c) not in hand)


def test_a_deal_played_at_the_terminal(terminal: Terminal) -> None:
    terminal.expect(r"101 .* preset hd, 2 seats, seed 7")
    terminal.expect(r"You are P0\. Bots: P1 random")
    tried_illegal = False
    prompts = 0
    while True:
        found = terminal.expect(f"{PROMPT}|{DEAL_OVER}|Match over")
        if found.group(0) in (DEAL_OVER, "Match over"):
            break
        prompts += 1
        listed = [line.split(None, 1)[1] for line in found["moves"].splitlines()]
        assert listed, "a prompt lists the legal moves"
        if not tried_illegal:
            tried = illegal_try(found["hand"].split(), listed)
            terminal.send(tried)
            rejection = terminal.expect(
                r"Illegal: (?P<move>\S+): (?P<message>[^\n]+) \(rule (?P<rule>[^)]+)\)\n> "
            )
            assert rejection["move"] == tried and rejection["message"] and rejection["rule"]
            tried_illegal = True
        terminal.send(str(len(listed)))  # the last listed move: a number the listing shows
        assert prompts < 500, "the deal does not end"
    assert tried_illegal and prompts >= 2
    terminal.expect(r"Scores: P0 \(you\) -?\d+, P1 -?\d+")
    terminal.expect(r"Enter: next deal, q: quit > ")
    terminal.send("q")
    terminal.expect("You left the match.")
    assert terminal.wait() == 0
    assert "\x1b[" in terminal.raw, "a terminal gets colour"
