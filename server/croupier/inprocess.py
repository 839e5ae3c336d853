"""The engine as a playout backend, in-process (croupier_client.playout).

Same calls and answers as `croupier_client.CroupierClient`, without a
server: benches, goldens and the conformance suite play through it. With
`trusted=True` (the default) states this engine produced are not validated
again (engine/api.py, "The trusted path"); use `trusted=False` to pay the
full check on every call, as the server does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.engine import api
from croupier.engine.options import option_settings
from croupier.v1 import game_pb2, service_pb2


class InProcess:
    """CroupierClient's playout calls, answered by `croupier.engine.api`."""

    def __init__(self, *, trusted: bool = True) -> None:
        self.trusted = trusted

    def new_game(
        self,
        game: str,
        *,
        preset: str = "",
        seat_count: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> service_pb2.NewGameResponse:
        request = service_pb2.NewGameRequest(
            game=game,
            preset=preset,
            seat_count=seat_count,
            seed=seed,
            options=option_settings(options),
        )
        return api.new_game(request)

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[service_pb2.LegalMove]:
        request = service_pb2.ListLegalMovesRequest(state=state, seat=seat)
        return list(api.list_legal_moves(request, trusted=self.trusted).moves)

    def view(self, state: game_pb2.GameState, seat: int) -> game_pb2.View:
        return api.get_view(service_pb2.GetViewRequest(state=state, seat=seat)).view

    def apply(
        self,
        state: game_pb2.GameState,
        move: game_pb2.Move,
        validate_only: bool = False,
        *,
        next_legal_moves: bool = False,
        next_views: bool = False,
    ) -> service_pb2.ApplyMoveResponse:
        # No request message: building one would copy the state only to read it.
        return api.apply_move_on(
            state,
            move,
            validate_only=validate_only,
            next_legal_moves=next_legal_moves,
            next_views=next_views,
            trusted=self.trusted,
        )

    def next_deal(self, state: game_pb2.GameState) -> service_pb2.NextDealResponse:
        return api.next_deal(service_pb2.NextDealRequest(state=state))
