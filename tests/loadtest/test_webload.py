"""The load test's web cases: webload (deploy/loadtest/webload, Go) sends real
Connect unary ApplyMove calls to a server's browser port and reports them in
ghz's JSON fields, which the rest of the pipeline reads unchanged; the suite
runs ApplyMove over the web port on the same positions as over gRPC, first
and last in a pass, and the report quotes one against the other."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "loadtest"))

import ghz  # noqa: E402
import make_data  # noqa: E402
import report  # noqa: E402
import results  # noqa: E402
import suite  # noqa: E402
import webtool  # noqa: E402

from croupier.engine import api  # noqa: E402
from croupier.service.config import ServerConfig  # noqa: E402
from croupier.service.server import ServerThread  # noqa: E402
from croupier.v1 import service_pb2  # noqa: E402

GAME = "hundred_and_one"
APPLY_MOVE = f"{suite.SERVICE}/ApplyMove"


@pytest.fixture(scope="module")
def game_data() -> make_data.GameData:
    """One cheap game's requests from seeded playouts (about 0.7 s)."""
    descriptors = {g.name: g for g in api.list_games(service_pb2.ListGamesRequest()).games}
    return make_data.build_game(descriptors[GAME], seed=1, pool=8, batch_size=4)


@pytest.fixture(scope="module")
def webload(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """webload built as `make loadtest` builds it; skipped only without Go (a
    build that fails with Go present fails the test)."""
    if ghz.find_go() is None:
        pytest.skip("Go is not installed: webload cannot be built")
    return webtool.build(tmp_path_factory.mktemp("webload") / "webload")


@pytest.fixture(scope="module")
def web_url() -> Iterator[str]:
    """A server with a browser port; its base URL."""
    server = ServerThread(ServerConfig(port=0, web_port=0, grace=0.0))
    with server:
        yield f"http://127.0.0.1:{server.web_port}"


def run_webload(webload: Path, requests: bytes, url: str, tmp_path: Path, seconds: float) -> dict:
    data = tmp_path / "requests.bin"
    data.write_bytes(requests)
    args = [
        "--binary-file", str(data), "--connections", "2", "--concurrency", "2",
        "--duration", f"{seconds}s", "--duration-stop", "wait", "--timeout", "5s", url,
    ]  # fmt: skip
    # Through ghz.run, as run.py does (it appends --format json after the URL).
    return ghz.run(webload, args, timeout=30).report


def as_result(ghz_report: dict) -> results.Result:
    case = suite.Case("ApplyMove", GAME, (), moves_per_call=1, variant=suite.WEB, web=True)
    return results.from_ghz(case, 1, ghz_report, 1.0, 0.5, 1.0, 1.0)


def test_webload_plays_real_apply_moves_over_connect(
    webload: Path, web_url: str, game_data: make_data.GameData, tmp_path: Path
) -> None:
    requests = make_data.encode_delimited(game_data.requests["ApplyMove"])
    out = run_webload(webload, requests, f"{web_url}/{APPLY_MOVE}", tmp_path, 1.0)
    assert out["count"] > 0
    assert out["statusCodeDistribution"] == {"OK": out["count"]}, out["errorDistribution"]
    assert out["errorDistribution"] == {}
    assert out["total"] >= 1e9  # ns; calls in flight at the end waited for
    assert [d["percentage"] for d in out["latencyDistribution"]] == [10, 25, 50, 75, 90, 95, 99]
    assert all(0 < d["latency"] < 5e9 for d in out["latencyDistribution"])
    assert out["options"]["messages"] == len(game_data.requests["ApplyMove"])
    result = as_result(out)
    assert (result.ok, result.errors) == (out["count"], 0)
    assert result.latency_ms[50] > 0


def test_a_wrong_body_is_an_error_with_its_connect_code(
    webload: Path, web_url: str, tmp_path: Path
) -> None:
    # Two messages, round-robin: bytes that are no ApplyMoveRequest, and an
    # empty request (no state, no move).
    requests = b"\x03\xff\xff\xff" + make_data.encode_delimited([service_pb2.ApplyMoveRequest()])
    out = run_webload(webload, requests, f"{web_url}/{APPLY_MOVE}", tmp_path, 0.3)
    assert out["count"] > 0
    assert out["statusCodeDistribution"] == {"invalid_argument": out["count"]}
    assert sum(out["errorDistribution"].values()) == out["count"]
    assert any("cannot be parsed" in e for e in out["errorDistribution"]), out
    result = as_result(out)
    assert (result.ok, result.errors) == (0, out["count"])
    # No such method: the HTTP status's code (404: unimplemented).
    missing = run_webload(webload, b"", f"{web_url}/{suite.SERVICE}/NoSuchRpc", tmp_path, 0.2)
    assert set(missing["statusCodeDistribution"]) == {"unimplemented"}


def test_webloads_own_go_tests_pass(webload: Path) -> None:
    """main_test.go: ghz's count-delimited format, percentiles, codes."""
    go = ghz.find_go()
    assert go is not None
    done = subprocess.run(
        [go, "test", "./..."], cwd=webtool.SOURCE, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_webload_refuses_more_connections_than_workers(webload: Path, tmp_path: Path) -> None:
    (tmp_path / "empty.bin").write_bytes(b"")
    done = subprocess.run(
        [str(webload), "--binary-file", str(tmp_path / "empty.bin"), "--duration", "1s",
         "--connections", "2", "--concurrency", "1", "http://127.0.0.1:9/x"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "--connections" in done.stderr


def test_the_web_case_is_apply_move_on_the_same_positions_first_and_last_and_quoted(
    game_data: make_data.GameData, tmp_path: Path
) -> None:
    manifest = make_data.write([game_data], tmp_path, seed=1)
    cases = suite.cases(manifest, tmp_path, {})
    (web,) = [c for c in cases if c.web]
    (grpc,) = [c for c in cases if c.rpc == "ApplyMove" and not c.variant]
    assert (web.rpc, web.game, web.variant, web.data) == ("ApplyMove", GAME, suite.WEB, grpc.data)
    assert web.slug == f"ApplyMove-{GAME}-Connect-web-port"
    assert [n for c, n in suite.schedule(cases) if c == web] == [1, 2]
    assert web in suite.only(cases, ["ApplyMove"])
    # No --web on the server (or no Go): no web case.
    assert not [c for c in suite.cases(manifest, tmp_path, {suite.WEB_PORT: "no"}) if c.web]
    # 16 calls in flight per worker, one per HTTP/1.1 connection.
    args = suite.webload_args(web, "http://127.0.0.1:8081", 2, 3.0)
    flags = dict(zip(args[:-1:2], args[1:-1:2], strict=True))
    assert flags["--connections"] == flags["--concurrency"] == "32"
    assert flags["--binary-file"] == web.data[-1] and flags["--duration-stop"] == "wait"
    assert args[-1] == f"http://127.0.0.1:8081/{APPLY_MOVE}"

    def run(case: suite.Case, ok: int, cpu: float = 1.0) -> results.Result:
        return results.Result(case, 1, ok, 0, 1.0, {}, cpu, 0.5, 1.0, 1.5, {"OK": ok})

    baseline = next(c for c in cases if c.rpc == suite.BASELINE)
    p = report.Pass(1, results=[run(baseline, 1000), run(grpc, 800), run(web, 600)])
    assert report.goal_web([p])[-1] == (
        f"- 1w, {GAME}: web ÷ gRPC 0.75 (Connect 600 vs gRPC 800 calls/s per core; +417 µs of "
        "server CPU per call); ÷ Health/Check: Connect 0.60, gRPC 0.80."
    )
    assert "| 1w, hundred_and_one | 1,667 | 1,250 | +417 | 600 | 800 | 0.75 |" in "\n".join(
        report.web_port([p])
    )
    skipped = report.Pass(2, unavailable={suite.WEB_PORT: "Go is not installed"})
    assert report.goal_web([skipped])[-1] == "- 2w: not measured (Go is not installed)."
    # The web runs' spread does not widen goal (c)'s noise allowance.
    p.results.append(run(web, 300))
    assert p.noise() == 0.0
    assert "\n## Browser port (Connect) beside gRPC\n" in report.render([p], [])
