"""AnalyseHand: a game's analysis of one seat's hand (Scala 40: its best
opening), for the bot that holds that hand.

A game offers it through an optional hook, `analyse_hand(state, seat,
response)`, filling its own field of AnalyseHandResponse's oneof; a game
without one answers FAILED_PRECONDITION. The hook reads the seat's own cards
and public facts only, so the answer is for that seat and leaks nothing.
"""

from __future__ import annotations

from croupier.engine.errors import FailedPrecondition, InvalidInput
from croupier.v1 import service_pb2


def analyse_hand(request: service_pb2.AnalyseHandRequest) -> service_pb2.AnalyseHandResponse:
    """The analysis of `request.seat`'s hand in a validated state."""
    from croupier.engine.api import check_state  # api re-exports this function

    state = request.state
    game = check_state(state)
    if request.seat >= len(state.seats):
        raise InvalidInput(
            "seat", f"seat {request.seat} does not exist (the table has {len(state.seats)})"
        )
    hook = getattr(game, "analyse_hand", None)
    if hook is None:
        raise FailedPrecondition(f"{game.name} offers no hand analysis")
    response = service_pb2.AnalyseHandResponse()
    hook(state, request.seat, response)
    return response
