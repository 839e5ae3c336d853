"""`croupier serve` as operations see it, on real subprocesses: a graceful
SIGTERM, a killed worker replaced, metrics added up across workers, and the
JSON log with request ids.

Every server here listens on port 0 and metrics port 0 (see `serving.Serve`),
so parallel tests never collide; waits poll with deadlines, and no assertion
depends on how fast anything is.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
from datetime import datetime
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.multiprocess import MultiProcessCollector
from serving import (
    BIG_MESSAGES,
    GAME,
    NOT_SERVING,
    SERVICE,
    SERVING,
    Serve,
    from_queue,
    health_on_new_channel,
    open_channel,
    poll,
    positions,
    slow_batch,
    total,
)

from croupier.engine import api
from croupier.v1 import game_pb2, service_pb2, service_pb2_grpc

GRACE = 5.0
NOT_YOUR_TURN = "REJECTION_REASON_NOT_YOUR_TURN"


def _out_of_turn(item: service_pb2.ApplyMoveRequest) -> service_pb2.ApplyMoveRequest:
    """The same position with the move made by a seat that is not to act."""
    request = service_pb2.ApplyMoveRequest()
    request.CopyFrom(item)
    request.move.seat = (item.state.current_seat + 1) % len(item.state.seats)
    return request


# -- SIGTERM -------------------------------------------------------------------------


def test_sigterm_finishes_the_call_in_flight_refuses_new_ones_and_exits_zero() -> None:
    # Big enough that it is still running when SIGTERM arrives: at least
    # 1.5 s of engine work as measured in this process (0.5 s was once too
    # little on a machine loaded by other jobs: the scrape that sees the batch
    # start came back after it had ended).
    batch = slow_batch(1.5)
    count = len(batch.items)
    flags = ("--workers", "1", "--grace", str(GRACE), "--log-level", "debug")
    limits = ("--max-batch", str(count), "--max-message-bytes", str(256 * 1024 * 1024))
    with (
        Serve(*flags, *limits) as server,
        open_channel(server.port) as watch_channel,
        open_channel(server.port, *BIG_MESSAGES) as batch_channel,
    ):
        watch = health_pb2_grpc.HealthStub(watch_channel).Watch(
            health_pb2.HealthCheckRequest(service=""), timeout=60
        )
        assert next(watch).status == SERVING
        stub = service_pb2_grpc.CroupierServiceStub(batch_channel)
        # A stream in flight too, answering before SIGTERM …
        pending: queue.Queue[service_pb2.ApplyMoveStreamRequest | None] = queue.Queue()
        stream = stub.ApplyMoveStream(from_queue(pending), timeout=60)
        pending.put(service_pb2.ApplyMoveStreamRequest(item=batch.items[0]))
        assert next(stream).result.response.accepted
        future = stub.ApplyMoveBatch.future(batch, timeout=60)
        # The supervisor's endpoint reads the workers' metric files, so it
        # answers while the worker is busy: the batch is in flight once started.
        poll(
            lambda: (
                future.done()
                or total(server.scrape(), "grpc_server_started_total", grpc_method="ApplyMoveBatch")
            ),
            20,
            "the batch to start",
        )
        assert not future.done(), f"the batch ended before SIGTERM: {future.exception()}"

        server.process.send_signal(signal.SIGTERM)

        statuses = [response.status for response in _until_not_serving(watch)]
        assert statuses[-1] == NOT_SERVING, statuses
        watch.cancel()  # an open Watch is a call in flight too: let the server go
        response = future.result(timeout=60)
        assert len(response.results) == count
        assert all(result.response.accepted for result in response.results)
        for i in (*range(1000), count - 1):  # the items repeat a 1000-position cycle
            expected = api.apply_move(batch.items[i]).SerializeToString()
            assert response.results[i].response.SerializeToString() == expected, i

        # … and after it, until the client ends it.
        pending.put(service_pb2.ApplyMoveStreamRequest(item=batch.items[1]))
        assert next(stream).result.response == response.results[1].response
        pending.put(None)
        assert list(stream) == []
        assert stream.code() == grpc.StatusCode.OK

        # New calls, on a new connection or on the batch's, find no server.
        with pytest.raises(grpc.RpcError) as refused:
            health_on_new_channel(server.port)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        with pytest.raises(grpc.RpcError) as refused:
            stub.ListGames(service_pb2.ListGamesRequest(), timeout=5)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE

        # A bound, not a speed check (process exits crawl on a loaded machine):
        # that the grace was not used up is checked on the worker's own log below.
        try:
            code = server.process.wait(timeout=GRACE + 10)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running after its last call ended; log:\n{server.log()}")
        assert code == 0, server.log()
        server.close()

    events = [e["event"] for e in server.events()]
    assert events[-1] == "stopped", server.log()
    assert [e.get("exit_code") for e in server.events() if e["event"] == "stopped"] == [0]
    assert events.count("worker_stopping") == events.count("worker_stopped") == 1
    # Every call had ended, so the worker stopped without waiting out its grace.
    stopping, stopped = (
        datetime.fromisoformat(e["timestamp"])
        for e in server.events()
        if e["event"] in ("worker_stopping", "worker_stopped")
    )
    assert (stopped - stopping).total_seconds() < GRACE, server.log()
    assert "worker_died" not in events
    # The premise, checked after the fact: the supervisor decided to stop (and
    # then sent the worker SIGTERM) before the worker finished the batch.
    batch_done = next(
        i
        for i, e in enumerate(server.events())
        if e["event"] == "rpc" and e["rpc"] == "ApplyMoveBatch"
    )
    assert events.index("stopping") < batch_done, server.log()
    assert server.events()[batch_done]["outcome"] == "ok"


def _until_not_serving(watch: grpc.Call) -> list[health_pb2.HealthCheckResponse]:
    seen = []
    for response in watch:  # type: ignore[attr-defined]
        seen.append(response)
        if response.status == NOT_SERVING:
            break
    return seen


# -- a killed worker -------------------------------------------------------------------


def test_a_killed_worker_is_replaced_while_health_keeps_serving() -> None:
    with Serve("--workers", "2", "--grace", "1") as server:
        listening = {e["pid"] for e in server.events() if e["event"] == "worker_listening"}
        workers = poll(lambda: server.worker_pids() == listening and listening, 10, "2 workers")
        assert len(workers) == 2
        victim = min(workers)

        os.kill(victim, signal.SIGKILL)
        # Reaped by the supervisor: every thread of it has exited, so its
        # listening socket is closed. (Not merely a zombie: the leader of a
        # multi-threaded process is one while its other threads still exit,
        # and a connection the kernel gives the dying socket is reset.)
        died = server.wait_for(lambda e: e["event"] == "worker_died" and e["pid"] == victim)
        assert died["status"] == signal.SIGKILL  # waitpid's status of a process killed by 9
        for _ in range(5):
            assert health_on_new_channel(server.port) == SERVING

        server.wait_for(lambda e: e["event"] == "worker_restarted" and e["replaced"] == victim)
        new = poll(
            lambda: len(server.worker_pids()) == 2 and server.worker_pids() - workers,
            10,
            "a new worker process",
        )
        (replacement,) = new
        assert victim not in server.worker_pids()
        server.wait_for(lambda e: e["event"] == "worker_listening" and e["pid"] == replacement)
        for _ in range(8):
            assert health_on_new_channel(server.port) == SERVING

        assert server.stop() == 0, server.log()
    events = [e["event"] for e in server.events()]
    assert events.count("worker_restarted") == 1
    assert events.count("worker_stopped") == 2  # the survivor and the replacement


# -- metrics across workers -----------------------------------------------------------


def test_metrics_add_up_across_two_workers(tmp_path: Path) -> None:
    items = positions(64)
    accepted = rejected = views = channels = 0
    with Serve("--workers", "2", tmp_dir=tmp_path) as server:
        (metrics_dir,) = tmp_path.glob("croupier-metrics-*")
        # New connections until both workers have served ApplyMove calls: the
        # kernel picks a worker per connection (SO_REUSEPORT hashes the ports).
        while len(_apply_move_started_by_pid(metrics_dir)) < 2 or channels < 4:
            assert channels < len(items), "every connection went to one worker"
            item = items[channels]
            with open_channel(server.port) as channel:
                stub = service_pb2_grpc.CroupierServiceStub(channel)
                assert stub.ApplyMove(item, timeout=5).accepted
                accepted += 1
                for _ in range(2):
                    response = stub.ApplyMove(_out_of_turn(item), timeout=5)
                    assert response.rejection.reason == game_pb2.REJECTION_REASON_NOT_YOUR_TURN
                    rejected += 1
                stub.GetView(service_pb2.GetViewRequest(state=item.state, seat=1), timeout=5)
                views += 1
            channels += 1
        with open_channel(server.port) as channel, pytest.raises(grpc.RpcError) as invalid:
            service_pb2_grpc.CroupierServiceStub(channel).ApplyMove(
                service_pb2.ApplyMoveRequest(), timeout=5
            )
        assert invalid.value.code() == grpc.StatusCode.INVALID_ARGUMENT

        samples = server.scrape()
        by_pid = _apply_move_started_by_pid(metrics_dir)
        assert server.stop() == 0, server.log()

    moves = accepted + rejected
    apply_move = dict(grpc_type="unary", grpc_service=SERVICE, grpc_method="ApplyMove")
    get_view = dict(grpc_type="unary", grpc_service=SERVICE, grpc_method="GetView")
    assert total(samples, "grpc_server_started_total", **apply_move) == moves + 1
    assert total(samples, "grpc_server_handled_total", **apply_move, grpc_code="OK") == moves
    assert (
        total(samples, "grpc_server_handled_total", **apply_move, grpc_code="INVALID_ARGUMENT") == 1
    )
    assert total(samples, "grpc_server_handling_seconds_count", **apply_move) == moves + 1
    assert total(samples, "grpc_server_started_total", **get_view) == views
    assert total(samples, "grpc_server_handled_total", **get_view, grpc_code="OK") == views
    assert total(samples, "grpc_server_started_total") == moves + 1 + views  # nothing else
    assert total(samples, "croupier_moves_total", game=GAME, outcome="accepted") == accepted
    assert total(samples, "croupier_moves_total", game=GAME, outcome="rejected") == rejected
    assert total(samples, "croupier_moves_total", outcome="invalid") == 1
    assert total(samples, "croupier_rejections_total", game=GAME, reason=NOT_YOUR_TURN) == rejected
    assert total(samples, "croupier_rejections_total") == rejected
    assert total(samples, "croupier_rpcs_in_flight") == 0
    # Served by both workers, and the endpoint's totals are their sum.
    assert len(by_pid) == 2 and all(by_pid.values()), by_pid
    assert sum(by_pid.values()) == moves + 1


def _apply_move_started_by_pid(metrics_dir: Path) -> dict[int, float]:
    """grpc_server_started_total{grpc_method="ApplyMove"} of each worker that
    has started one, from its own file in the multiprocess directory."""
    started = {}
    for path in metrics_dir.glob("counter_*.db"):
        pid = int(path.stem.removeprefix("counter_"))
        value = sum(
            sample.value
            for family in MultiProcessCollector.merge([str(path)], accumulate=True)
            for sample in family.samples
            if sample.name == "grpc_server_started_total"
            and sample.labels.get("grpc_method") == "ApplyMove"
        )
        if value:
            started[pid] = value
    return started


# -- the log -----------------------------------------------------------------------------


def test_debug_logs_hold_our_events_not_the_libraries_chatter() -> None:
    """At --log-level debug, asyncio's "Using selector" and grpc's "Loaded
    running loop" lines (many a call) are left out; our own events stay."""
    item = positions(1)[0]
    with Serve("--log-level", "debug") as server, open_channel(server.port) as channel:
        stub = service_pb2_grpc.CroupierServiceStub(channel)
        assert stub.ApplyMove(item, timeout=5).accepted
        assert server.stop() == 0, server.log()
    events = [json.loads(line) for line in server.lines]
    chatter = [e for e in events if e.get("logger") in ("asyncio", "grpc._cython.cygrpc")]
    assert chatter == []
    assert [e["event"] for e in events].count("rpc") == 1


def test_each_call_logs_one_json_event_with_its_request_id() -> None:
    item = positions(1)[0]
    with Serve("--log-level", "debug") as server, open_channel(server.port) as channel:
        stub = service_pb2_grpc.CroupierServiceStub(channel)
        response, call = stub.ApplyMove.with_call(
            item, metadata=(("x-request-id", "test-123"),), timeout=5
        )
        assert response.accepted
        assert ("x-request-id", "test-123") in call.trailing_metadata()

        _, call = stub.ApplyMove.with_call(item, timeout=5)
        generated = dict(call.trailing_metadata())["x-request-id"]
        assert re.fullmatch("[0-9a-f]{16}", generated), generated

        response, call = stub.ApplyMove.with_call(
            _out_of_turn(item), metadata=(("x-request-id", "test-456"),), timeout=5
        )
        assert not response.accepted
        assert ("x-request-id", "test-456") in call.trailing_metadata()

        with pytest.raises(grpc.RpcError) as invalid:
            stub.ApplyMove(
                service_pb2.ApplyMoveRequest(), metadata=(("x-request-id", "test-789"),), timeout=5
            )
        assert ("x-request-id", "test-789") in invalid.value.trailing_metadata()

        assert server.stop() == 0, server.log()

    # Every line on stderr is one JSON object (the whole log: the process is gone).
    assert server.lines
    events = [json.loads(line) for line in server.lines]
    assert events[0]["event"] == "listening" and "metrics_port" in events[0]
    rpc = [e for e in events if e["event"] == "rpc"]
    assert sorted(e["request_id"] for e in rpc) == sorted(
        ["test-123", generated, "test-456", "test-789"]
    )
    by_id = {e["request_id"]: e for e in rpc}
    for request_id in ("test-123", generated):
        event = by_id[request_id]
        assert event["level"] == "debug"
        assert (event["rpc"], event["game"], event["outcome"]) == ("ApplyMove", GAME, "ok")
        assert isinstance(event["latency_ms"], float) and event["latency_ms"] >= 0
        assert "timestamp" in event
    event = by_id["test-456"]
    assert event["level"] == "info"
    assert (event["rpc"], event["game"], event["outcome"]) == ("ApplyMove", GAME, "rejected")
    assert event["reason"] == NOT_YOUR_TURN
    assert event["latency_ms"] >= 0
    event = by_id["test-789"]
    assert event["level"] == "warning"
    assert (event["rpc"], event["outcome"], event["code"]) == (
        "ApplyMove",
        "error",
        "INVALID_ARGUMENT",
    )


def test_at_info_level_accepted_moves_are_not_logged_and_rejections_are() -> None:
    item = positions(1)[0]
    with Serve("--log-level", "info") as server, open_channel(server.port) as channel:
        stub = service_pb2_grpc.CroupierServiceStub(channel)
        metadata = (("x-request-id", "accepted-1"),)
        assert stub.ApplyMove(item, metadata=metadata, timeout=5).accepted
        metadata = (("x-request-id", "rejected-1"),)
        assert not stub.ApplyMove(_out_of_turn(item), metadata=metadata, timeout=5).accepted
        assert server.stop() == 0, server.log()

    events = [json.loads(line) for line in server.lines]
    rpc = [e for e in events if e["event"] == "rpc"]
    assert [e["request_id"] for e in rpc] == ["rejected-1"], server.log()
    assert rpc[0]["level"] == "info"
    assert rpc[0]["reason"] == NOT_YOUR_TURN
    assert "worker_listening" in [e["event"] for e in events]
