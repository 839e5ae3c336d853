"""floor.py's free engine answers exactly what the engine answers, from the
second call on without the engine, and a copy each time (the sealed path
moves the answer's state); its table's figures come from the tallies."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "loadtest"))

import floor  # noqa: E402
import free_engine  # noqa: E402
import suite  # noqa: E402

from croupier.engine import api  # noqa: E402
from croupier.v1 import service_pb2  # noqa: E402


def _request() -> service_pb2.ApplyMoveRequest:
    state = api.new_game(service_pb2.NewGameRequest(game="uno", seat_count=3, seed=7)).state
    listed = api.list_legal_moves(
        service_pb2.ListLegalMovesRequest(state=state, seat=state.current_seat)
    )
    return service_pb2.ApplyMoveRequest(state=state, move=listed.moves[0].move)


def _counted_engine() -> tuple[list[tuple[bool, bool]], free_engine.ApplyMove]:
    """The free engine over the real one, and the real one's calls as
    (trusted, batch item) pairs."""
    calls: list[tuple[bool, bool]] = []

    def engine(request, into=None, *, trusted=False):
        calls.append((trusted, into is not None))
        return api.apply_move(request, into, trusted=trusted)

    return calls, free_engine.memoized(engine)


def test_the_free_engine_answers_as_the_engine_from_one_engine_call() -> None:
    calls, free = _counted_engine()
    request = _request()
    first, second = free(request), free(request)
    expected = api.apply_move(request).SerializeToString()
    assert first.accepted
    assert first.SerializeToString() == second.SerializeToString() == expected
    assert first is not second
    second.ClearField("state")  # as sealing does: the next answer keeps its state
    assert free(request).SerializeToString() == expected
    assert calls == [(False, False)]
    free(request, trusted=True)  # the trusted path is its own entry
    assert calls == [(False, False), (True, False)]


def test_a_batch_item_is_computed_every_time() -> None:
    calls, free = _counted_engine()
    request = _request()
    for _ in range(2):
        into = service_pb2.ApplyMoveResponse()
        free(request, into)
        assert into.accepted
    assert calls == [(False, True), (False, True)]


def test_the_table_gives_ratios_the_engine_cost_and_the_budget() -> None:
    health = suite.Case(suite.BASELINE, "", ())
    plain = suite.Case("ApplyMove", "uno", ())
    sealed = suite.Case("ApplyMove", "uno", (), variant=suite.SEALED)
    # µs per call: Health 400 on both; ApplyMove 600 real, 450 free; sealed 500 and 480.
    real = floor.Measured({
        health.label: floor.Tally(1000, 0.4),
        plain.label: floor.Tally(1000, 0.6),
        sealed.label: floor.Tally(1000, 0.5),
    })  # fmt: skip
    free = floor.Measured({
        health.label: floor.Tally(1000, 0.4),
        plain.label: floor.Tally(1000, 0.45),
        sealed.label: floor.Tally(1000, 0.48),
    })  # fmt: skip
    lines = floor.table([health, plain, sealed], real, free)
    assert "| ApplyMove [uno] | 0.67 | 0.89 | 150 | 50 | 0.80 |" in lines
    # 400 / 0.90 = 444 µs: less than the free engine's 480, so no engine meets it.
    assert "| ApplyMove [uno, sealed state] | 0.80 | 0.83 | 20 | -36 | 0.90 |" in lines
