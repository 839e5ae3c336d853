"""The start of a deal: NewGame or NextDeal, then the deal's first
ListLegalMoves (one per acting seat) and, for a bot that reads views, its
GetView, as asynchronous calls (grpc futures) that a lane advances at each
round.

Why futures and not a thread pool: the harness's threads share one
interpreter lock with the lanes, which spend it parsing answers and hashing
states; a pool thread waiting for the lock at every step of a unary call
made a deal start last a dozen rounds (27 % of the matches in flight sat
waiting for theirs). A future's call runs in grpc's core without the lock,
and the lane picks up its answer at the next round.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import grpc

from croupier.tournament.match import MatchPlay, Stage
from croupier.v1 import game_pb2, service_pb2, service_pb2_grpc
from croupier_client.client import CroupierError, option_settings

if TYPE_CHECKING:
    from croupier.tournament.driver import Table

# A call under way: the RPC's name (for its error) and its future.
_Call = tuple[str, grpc.Future]


class DealStart:
    """One match's deal start, advanced by `advance()` until it is done."""

    def __init__(
        self,
        match: MatchPlay,
        stub: service_pb2_grpc.CroupierServiceStub,
        table: Table,
        timeout: float,
        wake: threading.Event,
    ) -> None:
        self.match = match
        self._stub = stub
        self._timeout = timeout
        self._wake = wake
        self.calls = 0
        self._listing: dict[int, _Call] = {}
        self._view: tuple[int, _Call] | None = None
        if match.stage is Stage.START:
            request: Any = service_pb2.NewGameRequest(
                game=table.game,
                preset=table.preset,
                options=option_settings(table.options),
                seat_count=table.seats,
                seed=match.record.seed,
            )
            self._dealing: _Call | None = self._call("NewGame", request)
        else:
            assert match.state is not None
            request = service_pb2.NextDealRequest(state=match.state)
            self._dealing = self._call("NextDeal", request)

    def _call(self, rpc: str, request: Any) -> _Call:
        future = getattr(self._stub, rpc).future(request, timeout=self._timeout)
        # Wakes the lane when it has no move to send and waits for answers.
        future.add_done_callback(lambda _: self._wake.set())
        self.calls += 1
        return rpc, future

    def advance(self) -> bool:
        """Take in the answers that came; True once the match is READY.
        CroupierError for a call that failed."""
        match = self.match
        if self._dealing is not None:
            if not self._dealing[1].done():
                return False
            answer = _result(self._dealing)
            self._dealing = None
            if match.stage is Stage.START:
                match.started(answer.state)
            else:
                match.dealt(answer.state)
            assert match.state is not None
            self._listing = {
                seat: self._call(
                    "ListLegalMoves",
                    service_pb2.ListLegalMovesRequest(state=match.state, seat=seat),
                )
                for seat in match.state.acting_seats
            }
        if self._listing:
            if not all(future.done() for _, future in self._listing.values()):
                return False
            match.legal = {seat: _result(call).moves for seat, call in self._listing.items()}
            self._listing = {}
            seat, _ = match.actor()
            if match.wants_view[seat]:
                request = service_pb2.GetViewRequest(state=match.state, seat=seat)
                self._view = (seat, self._call("GetView", request))
        views: dict[int, game_pb2.View] = {}
        if self._view is not None:
            seat, call = self._view
            if not call[1].done():
                return False
            views[seat] = _result(call).view
            self._view = None
        match.listed(match.legal, views)
        return True


def _result(call: _Call) -> Any:
    rpc, future = call
    try:
        return future.result()
    except grpc.RpcError as error:
        raise CroupierError.from_rpc_error(rpc, error) from error
