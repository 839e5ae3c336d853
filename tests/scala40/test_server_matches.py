"""Whole Scala 40 matches between random bots through a running server (issue
8: every preset at 2, 4 and 6 seats), and AnalyseHand over the wire."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier.v1 import game_pb2, service_pb2, service_pb2_grpc
from croupier_client.client import CroupierClient
from croupier_client.demo import play_match

SEED = 40


@pytest.fixture(scope="module")
def target() -> Iterator[str]:
    with ServerThread(ServerConfig(port=0, grace=0.0)) as port:
        yield f"127.0.0.1:{port}"


@pytest.mark.parametrize("seats", [2, 4, 6])
@pytest.mark.parametrize("preset", ["fisc", "slovenian", "pagat"])
def test_a_full_match_between_random_bots_ends_with_winners(target, preset, seats):
    with CroupierClient(target) as client:
        state, lines = play_match(client, "scala40", preset, seats, SEED, max_moves=20_000)
    assert state.match.phase == game_pb2.MATCH_PHASE_MATCH_OVER
    assert state.match.winners and all(w < seats for w in state.match.winners)
    assert lines[0] == f"Game scala40, preset {preset}, {seats} seats, seed {SEED}"


def test_analyse_hand_over_the_wire(target):
    with grpc.insecure_channel(target) as channel:
        stub = service_pb2_grpc.CroupierServiceStub(channel)
        dealt = stub.NewGame(service_pb2.NewGameRequest(game="scala40", seat_count=3, seed=2))
        answer = stub.AnalyseHand(service_pb2.AnalyseHandRequest(state=dealt.state, seat=1))
        assert answer.scala40.threshold == 40
        assert answer.scala40.reaches_threshold == (answer.scala40.value >= 40)
        with pytest.raises(grpc.RpcError) as error:
            stub.AnalyseHand(service_pb2.AnalyseHandRequest(state=dealt.state, seat=7))
        assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
