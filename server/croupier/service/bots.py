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
_MALFORMED_VIEW = (ValueError, IndexError, KeyError, TypeError, ArithmeticError, RecursionError)
# No game's pack holds more cards (UNO's 108; two French packs and four
# jokers): a longer hand is not one a game dealt, and the rummy bots' search
# of a hand grows with its length.
MAX_HAND = 108


def choose_move(request: bot_pb2.ChooseMoveRequest) -> bot_pb2.ChooseMoveResponse:
    """The built-in bot's choice among the request's legal moves."""
    if not request.legal_moves:
        raise InvalidInput("legal_moves", "empty: a bot needs at least one move to choose from")
    view = request.view
    if view.game not in HEURISTIC_BOTS:
        raise InvalidInput("view.game", f"no built-in bot plays {view.game!r}")
    game_view = getattr(view, view.WhichOneof("game_view") or "", None)
    if game_view is None:
        raise InvalidInput("view", f"holds no {view.game} view")
    if len(game_view.hand) > MAX_HAND:
        size = len(game_view.hand)
        raise InvalidInput("view.hand", f"{size} cards; no game deals more than {MAX_HAND}")
    seed = seat_seed(f"{request.match_id}/{view.move_number}", view.seat)
    bot = heuristic_bot(view.game, seed)
    try:
        index = choose_index(bot, view, request.legal_moves)
    except _MALFORMED_VIEW as error:
        raise InvalidInput("view", f"the built-in bot cannot play it: {error}") from None
    return bot_pb2.ChooseMoveResponse(move_index=index)
