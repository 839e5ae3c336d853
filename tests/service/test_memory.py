"""Memory comes back after requests that fail (issue 7, item 5).

A failed call used to end through `context.abort`, whose exception grpc keeps
in the call's state while its traceback leads back to that state: a reference
cycle holding the request and the error until the next full collection. With
megabyte requests and errors a worker grew by tens of MB per call. Errors now
end a call without such a cycle, and are bounded besides."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

import grpc
import pytest
from serving import Serve, open_channel, positions

from croupier.v1 import service_pb2, service_pb2_grpc

Stub = service_pb2_grpc.CroupierServiceStub
MARK = "memory-test-"
ANY_METADATA = (
    ("grpc.max_metadata_size", 64 * 1024 * 1024),
    ("grpc.absolute_max_metadata_size", 64 * 1024 * 1024),
)


@contextlib.contextmanager
def cyclic_garbage() -> Iterator[list[object]]:
    """The objects the cyclic collector finds unreachable after the block
    (automatic collection off meanwhile, so that none is freed unseen)."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    found: list[object] = []
    try:
        yield found
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_a_failed_call_leaves_no_reference_cycle(stub: Stub) -> None:
    broken = positions(1)[0]
    broken.state.game = MARK + "state"
    with cyclic_garbage() as garbage:
        for _ in range(5):
            request = service_pb2.NewGameRequest(game=MARK + "x" * 10_000, preset="hd")
            with pytest.raises(grpc.RpcError):
                stub.NewGame(request, timeout=5)
            with pytest.raises(grpc.RpcError):
                stub.ApplyMove(broken, timeout=5)
    held = [
        type(o).__name__
        for o in garbage
        if isinstance(o, service_pb2.NewGameRequest | service_pb2.ApplyMoveRequest)
        or type(o).__name__ in ("RPCState", "AbortError", "InvalidInput")
    ]
    assert not held, f"only a full collection frees these objects of failed calls: {held}"


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def test_a_worker_does_not_grow_with_megabyte_errors() -> None:
    request = service_pb2.NewGameRequest(game="g" * 1_000_000, preset="hd", seat_count=3)
    # A client that takes trailers of any size: the server's memory is what
    # is measured here (test_bounded_errors checks the size of errors).
    with (
        Serve("--workers", "1") as server,
        open_channel(server.port, *ANY_METADATA) as channel,
    ):
        (worker,) = server.worker_pids()
        stub = Stub(channel)

        def fail() -> None:
            with pytest.raises(grpc.RpcError) as caught:
                stub.NewGame(request, timeout=10)
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT

        for _ in range(10):  # warm-up: allocator pools, grpc's buffers
            fail()
        before = _rss_kib(worker)
        peak = before
        for _ in range(40):
            fail()
            peak = max(peak, _rss_kib(worker))
        assert server.stop() == 0, server.log()
    # Each call carried a megabyte; the errors used to add ~3 MB each (a 1 MB
    # name quoted twice, kept until a full collection).
    assert peak - before < 16 * 1024, f"RSS grew by {(peak - before) // 1024} MiB"
