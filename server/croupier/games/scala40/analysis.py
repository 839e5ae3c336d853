"""The analysis a bot asks for every turn: a seat's best opening (the
opening finder, RULES.md "Opening finder") and whether it reaches 40.

It reads the seat's own hand only, so it tells the seat nothing it could not
work out itself; the answer goes to that seat alone (AnalyseHand).
"""

from __future__ import annotations

from croupier.games.scala40.opening import best_opening
from croupier.games.scala40.rules import OPENING_THRESHOLD, rules_for
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb


def analyse_opening(state: game_pb2.GameState, seat: int) -> pb.Scala40OpeningAnalysis:
    """The highest-value opening `seat`'s hand holds as it stands (every card
    may be used: before the draw a bot plans with the hand it has; an opening
    played must still keep a card to discard)."""
    hand = list(state.scala40.hands[seat].cards)
    rules = rules_for(state.options.scala40)
    out = pb.Scala40OpeningAnalysis(threshold=OPENING_THRESHOLD)
    found = best_opening(hand, rules.melds)
    if found is not None:
        for cards, joker_as in found.melds:
            out.melds.add(cards=cards, joker_as=joker_as)  # type: ignore[arg-type]
        out.value = found.value
        out.cards_used = found.cards_used
    out.reaches_threshold = out.value >= OPENING_THRESHOLD
    return out
