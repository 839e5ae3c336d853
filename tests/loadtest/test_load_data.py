"""The load test's generated requests are what they claim: real mid-game
positions whose every ApplyMove (unary, batch item, stream item) is accepted."""

from __future__ import annotations

import fcntl
import pickle
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "loadtest"))

import make_data  # noqa: E402
import positions  # noqa: E402
import report  # noqa: E402
import results  # noqa: E402
import suite  # noqa: E402

from croupier.engine import api, registry  # noqa: E402
from croupier.v1 import service_pb2  # noqa: E402

# The test build's size: enough of every request for the checks, few finished
# deals (collecting make_data's 64 played 16,000 Scala 40 moves, 10 s of CPU).
BUILD = dict(seed=1, pool=64, batch_size=16, next_deals=8)


@pytest.fixture(scope="module")
def games(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> list[make_data.GameData]:
    """One build shared by the tests that only read it (every game's playouts
    take seconds). Under xdist the workers share it through a file, built by
    the first that needs it while the others wait (pytest-xdist's recipe for
    a fixture run once): worksteal spreads this module's tests, and each
    worker built its own copy (three builds, 60 s of CPU, in one run)."""
    # Not xdist's `worker_id` fixture: that exists only with xdist loaded,
    # and this module must run under `-p no:xdist` too.
    if not hasattr(request.config, "workerinput"):
        return make_data.build(**BUILD)
    shared = tmp_path_factory.getbasetemp().parent / "load-data.pickle"
    with open(shared.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if shared.exists():
            return pickle.loads(shared.read_bytes())  # type: ignore[no-any-return]
        built = make_data.build(**BUILD)
        shared.write_bytes(pickle.dumps(built))
        return built


def test_every_game_has_load_data_and_every_request_is_accepted(
    games: list[make_data.GameData],
) -> None:
    assert {g.game for g in games} == {g.name for g in registry.games()}
    for game in games:
        assert not make_data.check_game(game.requests), game.game
        assert {
            "ApplyMove",
            "ApplyMoveNext",
            "ApplyMoveBatch",
            "ApplyMoveStream",
            "NextDeal",
        } <= set(game.requests)


def test_the_one_call_data_asks_for_the_next_legal_moves_of_the_same_positions(
    games: list[make_data.GameData],
) -> None:
    game = games[0]
    unary, one_call = game.requests["ApplyMove"], game.requests["ApplyMoveNext"]
    assert all(r.next_legal_moves for r in one_call)
    assert [(r.state, r.move) for r in one_call] == [(r.state, r.move) for r in unary]
    # The two-call path lists the moves of the seat that moved, an acting seat.
    listed = game.requests["ListLegalMoves"]
    assert [r.seat for r in listed] == [r.move.seat for r in unary]
    assert all(r.seat in r.state.acting_seats for r in listed)


def test_a_planted_one_call_request_without_next_legal_moves_is_reported(
    games: list[make_data.GameData],
) -> None:
    requests = dict(games[0].requests)
    broken = type(requests["ApplyMoveNext"][0])()
    broken.CopyFrom(requests["ApplyMoveNext"][0])
    broken.next_legal_moves = False
    requests["ApplyMoveNext"] = [broken]
    assert make_data.check_game(requests) == [
        "ApplyMoveNext[0]: does not ask for the next legal moves"
    ]


# Rebuilt for the determinism test: the build's code is the same for every
# game, so two cheap ones stand for all (a rebuild of every game cost more
# CPU than any other test); UNO also checks out-of-turn positions.
REBUILT = ("hundred_and_one", "uno")


def test_the_data_is_deterministic(games: list[make_data.GameData]) -> None:
    # Those games built again with the shared build's arguments, compared with it.
    descriptors = {g.name: g for g in api.list_games(service_pb2.ListGamesRequest()).games}
    built = {g.game: g for g in games}
    for name in REBUILT:
        a, b = built[name], make_data.build_game(descriptors[name], **BUILD)
        assert a.requests.keys() == b.requests.keys()
        for rpc in a.requests:
            assert [m.SerializeToString() for m in a.requests[rpc]] == [
                m.SerializeToString() for m in b.requests[rpc]
            ]


def test_scala40_has_apply_move_data_on_crowded_six_seat_tables(
    games: list[make_data.GameData],
) -> None:
    (scala40,) = [g for g in games if g.game == positions.CROWDED_GAME]
    crowded = scala40.requests["ApplyMoveCrowded"]
    assert len(crowded) == make_data.MIN_CROWDED  # pool 64: the minimum
    assert all(positions.is_crowded(r.state) for r in crowded)
    assert {len(r.state.seats) for r in crowded} == {6}
    assert scala40.crowded["presets"] == ["fisc", "pagat", "slovenian"]
    assert scala40.crowded["melds"][0] >= positions.CROWDED_MIN_MELDS
    assert scala40.crowded["table_jokers"][0] >= positions.CROWDED_MIN_TABLE_JOKERS
    assert scala40.crowded["mean_hand"][0] >= positions.CROWDED_MIN_MEAN_HAND
    assert all("ApplyMoveCrowded" not in g.requests for g in games if g is not scala40)


def test_a_state_that_is_not_crowded_is_reported(games: list[make_data.GameData]) -> None:
    (scala40,) = [g for g in games if g.game == positions.CROWDED_GAME]
    small = next(r for r in scala40.requests["ApplyMove"] if len(r.state.seats) < 6)
    assert make_data.check_game({"ApplyMoveCrowded": [small]}) == [
        "ApplyMoveCrowded[0]: not a crowded 6-seat Scala 40 deal in progress"
    ]


def test_the_crowded_table_is_a_goal_case_run_first_and_last_and_quoted_per_game(
    games: list[make_data.GameData], tmp_path: Path
) -> None:
    manifest = make_data.write(games, tmp_path, seed=1)
    assert "crowded" in manifest["games"]["scala40"]
    assert make_data.read_game(tmp_path, "scala40").keys() == make_data.REQUEST_TYPES.keys()
    assert "ApplyMoveCrowded" not in make_data.read_game(tmp_path, "sto")
    cases = suite.cases(manifest, tmp_path, {})
    crowded = [c for c in cases if c.variant == suite.CROWDED]
    assert [(c.rpc, c.game) for c in crowded] == [("ApplyMove", "scala40")]
    runs = suite.schedule(cases)
    assert [n for c, n in runs if c == crowded[0]] == [1, 2]
    assert runs[0][0].rpc == runs[-1][0].rpc == suite.BASELINE
    # --only ApplyMove: the baseline and every ApplyMove case, crowded included.
    kept = suite.only(cases, ["ApplyMove"])
    assert {c.rpc for c in kept} == {suite.BASELINE, "ApplyMove"}
    assert crowded[0] in kept
    assert kept == [c for c in cases if c.rpc in (suite.BASELINE, "ApplyMove")]

    # Goal (a) quotes every game's ApplyMove, and the crowded table, against
    # Health/Check of the same pass.
    def run(case: suite.Case, ok: int) -> results.Result:
        return results.Result(case, 1, ok, 0, 1.0, {}, 1.0, 0.5, 1.0, 1.5, {"OK": ok})

    baseline = next(c for c in cases if c.rpc == suite.BASELINE)
    plain = [c for c in cases if c.rpc == "ApplyMove" and not c.variant]
    p = report.Pass(1, results=[run(baseline, 1000), *(run(c, 900) for c in plain)])
    p.results.append(run(crowded[0], 700))
    lines = report.goal_a([p])
    assert {g.game for g in games} == set(p.games())
    assert "- 1w, sto: 0.90 × (900 vs 1,000 calls/s per core): **met**, 12% above the target." in (
        lines
    )
    (line,) = [line for line in lines if "crowded" in line and line.startswith("- 1w")]
    assert line.startswith(
        "- 1w, scala40, 6 seats, crowded table: 0.70 × (700 vs 1,000 calls/s per core): **not met**"
    )


def test_the_sealed_data_opens_to_the_apply_move_positions_and_is_safe_for_ghz(
    games: list[make_data.GameData],
) -> None:
    """ApplyMoveSealed is ApplyMove with each state sealed under the load
    key (each position its own match id); no request holds "{{", which ghz
    would run through its template engine."""
    keyring = make_data.load_keyring()
    for game in games:
        plain, sealed = game.requests["ApplyMove"], game.requests["ApplyMoveSealed"]
        assert len(sealed) == len(plain)
        for p, s in zip(plain, sealed, strict=True):
            assert not s.HasField("state") and s.move == p.move
            opened = keyring.open(s.sealed_state.blob, s.sealed_state.match_id)
            assert opened == p.state.SerializeToString()
            assert b"{{" not in make_data.encode_delimited([s])
    # A blob that does not open is reported by the check.
    broken = type(sealed[0])()
    broken.CopyFrom(sealed[0])
    broken.sealed_state.match_id = "another match"
    (problem,) = make_data.check_game({"ApplyMoveSealed": [broken]})
    assert problem.startswith("ApplyMoveSealed[0]: does not open")


def test_the_sealed_case_runs_first_and_last_and_is_quoted_beside_the_plain_one(
    games: list[make_data.GameData], tmp_path: Path
) -> None:
    manifest = make_data.write(games, tmp_path, seed=1)
    assert (tmp_path / manifest["seal_keys"]).read_text().count("seal loadtest ") == 1
    cases = suite.cases(manifest, tmp_path, {})
    sealed = [c for c in cases if c.variant == suite.SEALED]
    assert sorted(c.game for c in sealed) == sorted(g.game for g in games)
    runs = suite.schedule(cases)
    assert all([n for c, n in runs if c == case] == [1, 2] for case in sealed)
    # A server without --seal-keys: no sealed case.
    unsealed = suite.cases(manifest, tmp_path, {suite.SEALED_STATES: "no --seal-keys"})
    assert not [c for c in unsealed if c.variant == suite.SEALED]

    def run(case: suite.Case, ok: int) -> results.Result:
        return results.Result(case, 1, ok, 0, 1.0, {}, 1.0, 0.5, 1.0, 1.5, {"OK": ok})

    baseline = next(c for c in cases if c.rpc == suite.BASELINE)
    plain = [c for c in cases if c.rpc == "ApplyMove" and not c.variant]
    p = report.Pass(1, results=[run(baseline, 1000), *(run(c, 800) for c in plain)])
    p.results += [run(c, 920) for c in sealed]
    lines = report.goal_sealed([p])
    assert (
        "- 1w, sto: sealed 0.92 × (920 vs 1,000 calls/s per core); plain 0.80 × (800); "
        "sealed ÷ plain 1.15: **met**, 2% above the target." in lines
    )
    assert lines[-1] == "Overall: **met**."
