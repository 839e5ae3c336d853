"""The built-in bots as a BotService (`croupier.v1.BotService/ChooseMove`).

Croupier serves the heuristic bot of every game (croupier_client.bots), so
that a web table or a harness has opponents without running a bot of its
own. Stateless like the rest of the service: each call makes a fresh bot,
seeded from the match id, the view's move number and the seat, so the same
request gets the same answer on any replica. The heuristic bots read only
their view; their generator breaks ties.
"""

from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from croupier.engine.errors import InvalidInput
from croupier.v1 import bot_pb2
from croupier_client.bots import HEURISTIC_BOTS, choose_index, heuristic_bot
from croupier_client.bots.service import InvalidRequest, check_request, seat_seed

# What a bot raises when a view is not one the engine could have made (a
# hostile caller's): the caller's fault, not a bug of the service.
_MALFORMED_VIEW = (ValueError, IndexError, KeyError, TypeError, ArithmeticError, RecursionError)
# No game's pack holds more cards (UNO's 108; two French packs and four
# jokers): a longer hand is not one a game dealt, and the rummy bots' search
# of a hand grows with its length. No list of a view is longer either (a
# pile, the melds on the table, one entry per seat): a view with a longer one
# is not one the engine made, and the bots read every list they are given.
MAX_HAND = 108
_MESSAGE = FieldDescriptor.TYPE_MESSAGE


def choose_move(request: bot_pb2.ChooseMoveRequest) -> bot_pb2.ChooseMoveResponse:
    """The built-in bot's choice among the request's legal moves."""
    if not request.legal_moves:
        raise InvalidInput("legal_moves", "empty: a bot needs at least one move to choose from")
    view = request.view
    if view.game not in HEURISTIC_BOTS:
        raise InvalidInput("view.game", f"no built-in bot plays {view.game!r}")
    # The checks every BotService makes, in the words of the clients' own
    # (croupier_client.bots.service): the view's parts are of the game it
    # names and its seat exists; every move offered is that game's, by that
    # seat (an index into moves of another game or seat is no answer).
    try:
        check_request(request)
    except InvalidRequest as error:
        raise InvalidInput(error.field, error.description) from None
    game_view = getattr(view, view.game)
    if len(game_view.hand) > MAX_HAND:
        size = len(game_view.hand)
        raise InvalidInput("view.hand", f"{size} cards; no game deals more than {MAX_HAND}")
    _check_lists(view, "view")
    seed = seat_seed(f"{request.match_id}/{view.move_number}", view.seat)
    bot = heuristic_bot(view.game, seed)
    try:
        index = choose_index(bot, view, request.legal_moves)
    except _MALFORMED_VIEW as error:
        raise InvalidInput("view", f"the built-in bot cannot play it: {error}") from None
    return bot_pb2.ChooseMoveResponse(move_index=index)


def _check_lists(message: Message, path: str) -> None:
    """Refuse a list of `message` (at any depth) longer than any view holds."""
    for field, value in message.ListFields():
        here = f"{path}.{field.name}"
        if field.is_repeated:
            if len(value) > MAX_HAND:
                raise InvalidInput(
                    here, f"{len(value)} entries; no view of a game holds more than {MAX_HAND}"
                )
            if field.type == _MESSAGE:
                for i, item in enumerate(value):
                    _check_lists(item, f"{here}[{i}]")
        elif field.type == _MESSAGE:
            _check_lists(value, here)
