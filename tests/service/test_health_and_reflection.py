"""The standard services a deployment relies on: health and reflection."""

from __future__ import annotations

import grpc
from google.protobuf.descriptor_pool import DescriptorPool
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)


def test_health_says_serving_for_the_server_and_the_service(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "croupier.v1.CroupierService"):
        response = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        assert response.status == health_pb2.HealthCheckResponse.SERVING, service


def test_reflection_lists_the_services_and_serves_their_descriptors(
    channel: grpc.Channel,
) -> None:
    database = ProtoReflectionDescriptorDatabase(channel)
    assert set(database.get_services()) >= {
        "croupier.v1.CroupierService",
        "croupier.v1.BotService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
    }
    service = DescriptorPool(database).FindServiceByName("croupier.v1.CroupierService")
    assert [m.name for m in service.methods] == [
        "ListGames",
        "NewGame",
        "ApplyMove",
        "ListLegalMoves",
        "GetView",
        "ApplyMoveBatch",
        "ApplyMoveStream",
        "DefaultMove",
        "NextDeal",
        "AnalyseHand",
    ]
