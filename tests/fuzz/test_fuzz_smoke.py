"""A short fixed-seed run of `make fuzz` (deploy/fuzz), and the fuzzer's own
promises: reproducible inputs, every RPC of CroupierService and BotService
and every game in its corpus, the web port's share of the live inputs,
verdicts that catch planted faults (on both ports).

The run fails on any finding that is not pinned yet by an xfail regression
test (croupier_fuzz/known.py lists those).
"""

from __future__ import annotations

import functools
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from google.rpc import code_pb2, status_pb2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "fuzz"))

from croupier_fuzz import oracle, run, web  # noqa: E402
from croupier_fuzz.cases import MULTI, Case, draw, parsed, wire_bytes  # noqa: E402
from croupier_fuzz.corpus import IN_PROCESS_RPCS, SERVICES, Corpus  # noqa: E402
from croupier_fuzz.known import KNOWN  # noqa: E402
from croupier_fuzz.mutate import Limits, Mutation, Mutator  # noqa: E402
from croupier_fuzz.report import markdown  # noqa: E402
from croupier_fuzz.source import HypothesisSource, RandomSource  # noqa: E402

from croupier.engine import api, registry  # noqa: E402
from croupier.engine.errors import InvalidInput  # noqa: E402
from croupier.v1 import bot_pb2, game_pb2, service_pb2  # noqa: E402

SEED = 20261130
# Small limits keep the smoke run's memory and time low; `make fuzz` goes further.
LIMITS = Limits(repeat=100_000, messages=1_000, string=100_000)
ENGINE_INPUTS = 2500  # ChooseMove (the bots, ms a call) is one input in ten since BotService
LIVE_INPUTS = 400
WEB_SHARE = 0.3


@functools.cache
def _corpus() -> Corpus:
    return run.build_corpus(SEED)


def _mutator() -> Mutator:
    return run.make_mutator(_corpus(), LIMITS)


def _new(results: run.Results) -> str:
    """The findings not pinned yet, with their report (empty when none)."""
    if all(sig in KNOWN for sig in results.findings):
        return ""
    return markdown(results, "tests/fuzz/test_fuzz_smoke.py")


# -- the short run --------------------------------------------------------------------


def test_a_short_engine_run_finds_nothing_new() -> None:
    results = run.Results(seed=SEED, corpus=_corpus())
    run.run_engine(results, _mutator(), ENGINE_INPUTS, progress=False)
    tallies = results.tallies["engine"]
    assert sum(t.inputs for t in tallies.values()) == ENGINE_INPUTS
    assert set(tallies) == set(IN_PROCESS_RPCS)  # ChooseMove through the built-in bots too
    assert _new(results) == ""


def test_a_short_live_run_on_both_ports_finds_nothing_new() -> None:
    results = run.Results(seed=SEED, corpus=_corpus())
    run.run_live(results, _mutator(), LIVE_INPUTS, web_share=WEB_SHARE)
    by_phase = {
        phase: sum(t.inputs for t in tallies.values())
        for phase, tallies in results.tallies.items()
        if phase != "live warm-up"
    }
    assert sum(by_phase.values()) == LIVE_INPUTS
    # The web share is honoured: exactly the inputs its draw sends there
    # (bytes that do not parse, and huge requests, go as connect, not json).
    routed = [web.route(SEED, i, WEB_SHARE) for i in range(LIVE_INPUTS)]
    on_web = sum(n for phase, n in by_phase.items() if phase.startswith("live web/"))
    assert on_web == sum(way is not None for way in routed)
    assert abs(on_web / LIVE_INPUTS - WEB_SHARE) < 0.06, by_phase
    assert set(by_phase) == {"live", *(f"live web/{way}" for way in web.ROUTES)}
    assert {"ApplyMoveBatch", "ApplyMoveStream", "ApplyMove", "ChooseMove"} <= set(
        results.tallies["live"]
    )
    assert {"ApplyMoveStream", "ChooseMove"} <= set(results.tallies["live web/connect"])
    assert results.live["rss_after_kb"], "no worker RSS was read"
    assert _new(results) == ""


# -- hypothesis drives the same mutator ------------------------------------------------


@settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_mutated_real_requests_break_no_promise(data: st.DataObject) -> None:
    source = HypothesisSource(data)
    rpc = data.draw(st.sampled_from(IN_PROCESS_RPCS))
    case = draw(source, _corpus(), _mutator(), rpc)
    verdict = run.engine_judge(_corpus())(case, 0)
    unknown = [p for p in verdict.problems if p.signature not in KNOWN]
    assert unknown == [], "\n".join(case.describe(_corpus()))


# -- the fuzzer's own promises -------------------------------------------------------


def test_an_input_is_rebuilt_from_the_seed_and_its_number_alone() -> None:
    first = run.engine_case(_corpus(), _mutator(), SEED, 77)
    again = run.engine_case(run.build_corpus(SEED), _mutator(), SEED, 77)
    assert first == again
    assert wire_bytes(_corpus(), first) == wire_bytes(_corpus(), again)
    rebuilt = Case(first.rpc, first.base, first.mutations, first.raw)  # no cached request
    assert wire_bytes(_corpus(), rebuilt) == wire_bytes(_corpus(), first)


def test_the_corpus_holds_every_rpc_of_both_services_and_every_game() -> None:
    corpus = _corpus()
    assert set(corpus.requests) == set(IN_PROCESS_RPCS)
    every = {m.name for service in SERVICES for m in service.methods}
    assert {s.name for s in SERVICES} == {"CroupierService", "BotService"}
    # Each RPC has real requests of its own, or is a batch or stream of them.
    assert every == set(corpus.requests) | set(MULTI)
    assert every == set(run.WIRE_WEIGHTS)  # and each is sent to the live server
    assert run.NOT_FUZZED == ()
    games = {
        service_pb2.ApplyMoveRequest.FromString(b).state.game for b in corpus.requests["ApplyMove"]
    }
    assert games == {g.name for g in registry.games()}
    bots = [bot_pb2.ChooseMoveRequest.FromString(b) for b in corpus.requests["ChooseMove"]]
    assert {r.view.game for r in bots} == games
    assert all(r.legal_moves and r.match_id for r in bots)
    # Real positions: every ApplyMove request of the corpus is well formed.
    for data in corpus.requests["ApplyMove"][:50]:
        api.apply_move(service_pb2.ApplyMoveRequest.FromString(data))


def test_mutations_reach_lists_oneofs_and_cards() -> None:
    ops: Counter[str] = Counter()
    for index in range(600):
        for m in run.engine_case(_corpus(), _mutator(), SEED, index).mutations:
            ops[m.op] += 1
    assert {"set", "clear", "present", "extend", "truncate", "drop", "dup"} <= set(ops)
    assert {"move_card", "swap_card"} & set(ops)


def test_a_long_string_set_on_every_element_stays_within_the_byte_budget() -> None:
    # The 10^6-input run (engine input 141055) set 1,003 seats' names to 1 MB
    # each: a 1 GB request built by the fuzzer, 17 s and 1 GB of its memory.
    from croupier_fuzz.mutate import EVERY, MAX_ADDED_BYTES, Mutation, apply

    state = game_pb2.GameState()
    for _ in range(100):
        state.seats.add()
    apply(state, [Mutation(("seats", EVERY, "name"), "set", "x" * 1_000_000)])
    assert state.ByteSize() <= MAX_ADDED_BYTES + 100 * 8


@pytest.mark.parametrize(
    ("message", "field", "edges"),
    [
        (game_pb2.GameState, "move_number", {0, 1, 2**64 - 2, 2**64 - 1}),
        (game_pb2.GameState, "current_seat", {0, 1, 2**32 - 2, 2**32 - 1}),
        (game_pb2.Seat, "score", {0, 1, -1, 2**63 - 1, -(2**63)}),
        (game_pb2.MatchState, "phase", {0, 4, -1, 2**31 - 1}),  # 4: past the last phase
    ],
)
def test_numbers_and_enums_reach_the_edges_of_their_type(
    message: type, field: str, edges: set[int]
) -> None:
    descriptor = message.DESCRIPTOR.fields_by_name[field]  # type: ignore[attr-defined]
    source = RandomSource(SEED)
    drawn = {_mutator().value(source, descriptor, 5) for _ in range(2000)}
    assert edges <= drawn


# -- the verdicts catch planted faults ---------------------------------------------------


def _first(rpc: str) -> Case:
    """The corpus's first `rpc` request on a 101 table: the planted faults
    below reach into 101's state (the corpus lists games in registry order)."""
    for index in range(len(_corpus().requests[rpc])):
        request = parsed(_corpus(), Case(rpc, index))
        if getattr(request, "state", None) is not None and request.state.game == "hundred_and_one":  # type: ignore[union-attr]
            return Case(rpc, index)
    return Case(rpc, 0)


def _judge(monkeypatch: pytest.MonkeyPatch, rpc: str, fake) -> list[str]:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(oracle.ENGINE_CALLS, rpc, fake)
    request = parsed(_corpus(), _first(rpc))
    return [p.kind for p in oracle.judge_engine(rpc, request).problems]


def test_an_exception_escaping_the_engine_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(request: object) -> None:
        raise KeyError("planted")

    assert _judge(monkeypatch, "GetView", crash) == ["exception escaped"]


def test_a_state_that_loses_a_card_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    def lose(request: service_pb2.NextDealRequest) -> service_pb2.NextDealResponse:
        response = api.next_deal(request)
        del response.state.hundred_and_one.stock[-1]
        return response

    assert _judge(monkeypatch, "NextDeal", lose) == ["answered state refused when sent back"]


def test_an_error_over_8_kb_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    # An error map that quotes the client without a bound (service/errors.py bounds it).
    def unbounded(error: BaseException) -> tuple[status_pb2.Status, bool]:
        return status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=str(error)), False

    def echo(request: object) -> None:
        raise InvalidInput("state.game", "x" * 9000)

    monkeypatch.setattr(oracle, "status_for", unbounded)
    assert _judge(monkeypatch, "ApplyMove", echo) == ["error over 8 KB"]


def test_a_view_that_shows_a_hidden_card_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    def leak(request: service_pb2.GetViewRequest) -> service_pb2.GetViewResponse:
        response = api.get_view(request)
        state = request.state.hundred_and_one
        other = (request.seat + 1) % len(state.hands)
        response.view.hundred_and_one.hand.extend(state.hands[other].cards[:1] or state.stock[:1])
        return response

    assert _judge(monkeypatch, "GetView", leak) == ["view shows a hidden card"]


def test_a_bot_that_answers_out_of_range_or_raises_is_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def past_the_end(request: bot_pb2.ChooseMoveRequest) -> bot_pb2.ChooseMoveResponse:
        return bot_pb2.ChooseMoveResponse(move_index=len(request.legal_moves))

    def stop(request: object) -> None:
        raise StopIteration  # the fault a mutation run found (test_builtin_bots.py)

    assert _judge(monkeypatch, "ChooseMove", past_the_end) == ["move index out of range"]
    assert _judge(monkeypatch, "ChooseMove", stop) == ["exception escaped"]


def test_json_mutations_make_json_the_codec_refuses() -> None:
    request = parsed(_corpus(), Case("ChooseMove", 0))
    assert request is not None
    body = web.json_body(request, ())
    assert web.parse_json("ChooseMove", body) == request
    mangled = {
        op: web.json_body(request, (web.JsonMutation(op, arg),))
        for op, arg in [
            ("truncate", 500),
            ("bad utf-8", 7),
            ("nest", (3, 100_000, True)),
            ("wrong type", (0, 2)),  # "view": 1
            ("raw number", (5, "1e400")),
            ("unknown key", 2),
            ("duplicate key", 1),
        ]
    }
    assert all(body != changed for changed in mangled.values())
    for op in ("truncate", "bad utf-8", "nest", "wrong type"):
        assert web.parse_json("ChooseMove", mangled[op]) is None, op
    assert web.parse_json("ChooseMove", mangled["unknown key"]) == request


@pytest.fixture(scope="module")
def planted_server() -> Iterator[object]:
    """A LiveServer stand-in: an in-process server with both ports on port 0."""
    import grpc

    from croupier.service.config import ServerConfig
    from croupier.service.server import ServerThread

    class Planted:
        def __init__(self, port: int, web_port: int) -> None:
            self.channel = grpc.insecure_channel(f"127.0.0.1:{port}")
            self.web_port = web_port

        def traceback_for(self, request_id: str) -> None:
            return None

    server = ServerThread(ServerConfig(port=0, web_port=0, grace=0.0))
    planted = Planted(server.start(), server.web_port)
    try:
        yield planted
    finally:
        planted.channel.close()
        server.stop()


@pytest.mark.parametrize("way", [None, *web.ROUTES])
def test_an_internal_answer_of_a_live_server_is_found_on_either_port(
    monkeypatch: pytest.MonkeyPatch, planted_server: object, way: str | None
) -> None:
    from croupier_fuzz.live import LiveJudge

    def crash(request: object) -> None:
        raise ZeroDivisionError("planted")

    # The corpus is built with the real engine first: built after the plant
    # (the first test of a worker to need it), it would meet the crash itself.
    corpus = _corpus()
    # The handlers look engine calls up on `api` at call time (handlers.py).
    monkeypatch.setattr(api, "get_view", crash)
    judge = LiveJudge(planted_server, corpus, web_share=1.0)  # type: ignore[arg-type]
    try:
        verdict = judge.send(_first("GetView"), 0, way, mangle_json=False)
    finally:
        judge.close()
    assert verdict.code == "INTERNAL"
    assert [p.kind for p in verdict.problems] == ["status INTERNAL"]
    assert verdict.via == (way or "")


@pytest.mark.parametrize("way", web.ROUTES)
def test_an_error_on_the_web_port_is_read_as_on_the_grpc_port(
    planted_server: object, way: str
) -> None:
    from croupier_fuzz.live import LiveJudge

    judge = LiveJudge(planted_server, _corpus(), web_share=1.0)  # type: ignore[arg-type]
    empty = Case("ChooseMove", 0, (Mutation(("legal_moves",), "clear", None),))
    try:
        verdicts = [judge.send(empty, 0, w, mangle_json=False) for w in (None, way)]
    finally:
        judge.close()
    assert [v.code for v in verdicts] == ["INVALID_ARGUMENT"] * 2
    # The same message and google.rpc details: the same size as the gRPC port's.
    assert verdicts[0].error_size == verdicts[1].error_size > 0
