"""The built-in bots as a BotService (`croupier.v1.BotService/ChooseMove`).

Croupier serves the heuristic bot of every game (croupier_client.bots), so
that a web table or a harness has opponents without running a bot of its
own. Stateless like the rest of the service: each call makes a fresh bot,
seeded from the match id, the view's move number and the seat, so the same
request gets the same answer on any replica. The heuristic bots read only
their view; their generator breaks ties.
"""

from __future__ import annotations

from croupier.engine.errors import InvalidInput
from croupier.v1 import bot_pb2
from croupier_client.bots import HEURISTIC_BOTS, choose_index, heuristic_bot
from croupier_client.bots.service import seat_seed

# What a bot raises when a view is not one the engine could have made (a
# hostile caller's): the caller's fault, not a bug of the service.
_MALFORMED_VIEW = (ValueError, IndexError, KeyError, TypeError, ArithmeticError)


def choose_move(request: bot_pb2.ChooseMoveRequest) -> bot_pb2.ChooseMoveResponse:
    """The built-in bot's choice among the request's legal moves."""
    if not request.legal_moves:
        raise InvalidInput("legal_moves", "empty: a bot needs at least one move to choose from")
    view = request.view
    if view.game not in HEURISTIC_BOTS:
        raise InvalidInput("view.game", f"no built-in bot plays {view.game!r}")
    seed = seat_seed(f"{request.match_id}/{view.move_number}", view.seat)
    bot = heuristic_bot(view.game, seed)
    try:
        index = choose_index(bot, view, request.legal_moves)
    except _MALFORMED_VIEW as error:
        raise InvalidInput("view", f"the built-in bot cannot play it: {error}") from None
    return bot_pb2.ChooseMoveResponse(move_index=index)
