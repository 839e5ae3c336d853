"""Another spelling of a 101 move (RULES.md A28): a Queen played
without a suit names its own suit.

The sources make the suit a Queen names a parameter of its play, "any of the
four suits; default = the Queen's own suit, which is equivalent to no suit
ordered". The one spelling of that move names the suit (`QC>C`): the one
ListLegalMoves lists, the notation prints and the state and events hold. A
play of a Queen with `named_suit` unset is read as it, so a caller whose own
model leaves the default unsaid is answered, not refused.
"""

from __future__ import annotations

from croupier.engine.cards import QUEEN, RANK_OF, SUIT_OF
from croupier.v1 import game_pb2


def canonical_move(state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
    """`move` itself unless it plays a Queen naming no suit; then the same
    play naming the Queen's own suit (Game.canonical_move's contract: the
    shape is checked, the card is one of the 52)."""
    play = move.hundred_and_one.play
    if play.named_suit or not move.hundred_and_one.HasField("play"):
        return move
    if RANK_OF[play.card] != QUEEN:
        return move
    canonical = game_pb2.Move()
    canonical.CopyFrom(move)
    canonical.hundred_and_one.play.named_suit = SUIT_OF[play.card]  # type: ignore[assignment]
    return canonical
