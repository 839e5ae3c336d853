"""The CroupierService servicer: each RPC is one engine call behind the error map."""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf import message_factory

from croupier.engine import api
from croupier.service.decoding import tolerant_deserializer
from croupier.service.errors import maps_engine_errors
from croupier.v1 import service_pb2, service_pb2_grpc

SERVICE = service_pb2.DESCRIPTOR.services_by_name["CroupierService"]
SERVICE_NAME = SERVICE.full_name

# The engine functions are looked up on `api` at call time (not bound here) so
# that a test can replace one and see the error map handle what it raises.


class CroupierServicer(service_pb2_grpc.CroupierServiceServicer):
    """Thin adapter: decode (done by grpc), call the engine, map its errors."""

    @maps_engine_errors
    def ListGames(self, request: service_pb2.ListGamesRequest, context: Any) -> Any:
        return api.list_games(request)

    @maps_engine_errors
    def NewGame(self, request: service_pb2.NewGameRequest, context: Any) -> Any:
        return api.new_game(request)

    @maps_engine_errors
    def ApplyMove(self, request: service_pb2.ApplyMoveRequest, context: Any) -> Any:
        return api.apply_move(request)

    @maps_engine_errors
    def ListLegalMoves(self, request: service_pb2.ListLegalMovesRequest, context: Any) -> Any:
        return api.list_legal_moves(request)

    @maps_engine_errors
    def GetView(self, request: service_pb2.GetViewRequest, context: Any) -> Any:
        return api.get_view(request)

    @maps_engine_errors
    def NextDeal(self, request: service_pb2.NextDealRequest, context: Any) -> Any:
        return api.next_deal(request)


_HANDLER_KINDS = {
    # (client streams, server streams) -> grpc's handler constructor
    (False, False): grpc.unary_unary_rpc_method_handler,
    (False, True): grpc.unary_stream_rpc_method_handler,
    (True, False): grpc.stream_unary_rpc_method_handler,
    (True, True): grpc.stream_stream_rpc_method_handler,
}


def add_to_server(servicer: service_pb2_grpc.CroupierServiceServicer, server: Any) -> None:
    """Register `servicer` like the generated `add_CroupierServiceServicer_to_server`,
    but with deserializers that turn unparsable bytes into INVALID_ARGUMENT.

    The handlers come from the service descriptor, so an RPC added to the proto
    is served (as UNIMPLEMENTED by the generated base class until written).
    """
    handlers = {}
    for method in SERVICE.methods:
        request_class = message_factory.GetMessageClass(method.input_type)
        response_class = message_factory.GetMessageClass(method.output_type)
        make_handler = _HANDLER_KINDS[(method.client_streaming, method.server_streaming)]
        handlers[method.name] = make_handler(
            getattr(servicer, method.name),
            request_deserializer=tolerant_deserializer(request_class),
            response_serializer=response_class.SerializeToString,
        )
    # Registered handlers are grpc's fast path for stubs that name the method;
    # the generic handler serves every other caller (grpcurl, raw channels).
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)
