"""`make failover`'s pieces (deploy/failover/failover.py): the haproxy
configuration, the raw HTTP/2 gRPC health check it sends (against a real
server, without haproxy), the stats parsing, the match plan and the report;
and, where haproxy is installed, a short run with one server killed."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from grpc_health.v1 import health_pb2

from croupier.engine import api
from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier.v1 import service_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "failover"))

import failover  # noqa: E402

HAPROXY = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")
BACKENDS = [failover.Backend(f"s{i}", "127.0.0.1", 50100 + i) for i in (1, 2, 3)]


def _frames(data: bytes) -> list[tuple[int, int, int, bytes]]:
    """(type, flags, stream, payload) of every HTTP/2 frame in `data`."""
    frames = []
    while data:
        length = int.from_bytes(data[:3], "big")
        kind, flags = data[3], data[4]
        stream = int.from_bytes(data[5:9], "big") & 0x7FFFFFFF
        frames.append((kind, flags, stream, data[9 : 9 + length]))
        data = data[9 + length :]
    return frames


def test_the_health_check_is_a_whole_grpc_call() -> None:
    request = failover.health_check_request()
    preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
    assert request.startswith(preface)
    frames = _frames(request[len(preface) :])
    assert [(kind, flags, stream) for kind, flags, stream, _ in frames] == [
        (0x4, 0x0, 0),  # SETTINGS
        (0x1, 0x4, 1),  # HEADERS, END_HEADERS
        (0x0, 0x1, 1),  # DATA, END_STREAM
    ]
    headers = frames[1][3]
    for text in (b"/grpc.health.v1.Health/Check", b"application/grpc", b"trailers"):
        assert text in headers
    # DATA: gRPC's framing of the empty HealthCheckRequest (not compressed, length 0).
    assert health_pb2.HealthCheckRequest().SerializeToString() == b""
    assert frames[2][3] == b"\x00" * 5
    serving = health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)
    body = serving.SerializeToString()
    framed = b"\x00" + len(body).to_bytes(4, "big") + body
    assert framed == failover.HEALTH_SERVING


def test_a_server_answers_the_health_check_serving() -> None:
    """The bytes haproxy sends, sent by hand to a real server: its answer holds
    the framed SERVING response haproxy looks for."""
    received = b""
    with (
        ServerThread(ServerConfig(port=0, grace=0.0)) as port,
        socket.create_connection(("127.0.0.1", port), timeout=5) as sock,
    ):
        sock.sendall(failover.health_check_request())
        deadline = time.monotonic() + 5
        while failover.HEALTH_SERVING not in received and time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    assert failover.HEALTH_SERVING in received


def test_the_configuration_names_every_backend_and_the_check(tmp_path: Path) -> None:
    text = failover.render_config(
        bind_port=50100, backends=BACKENDS, stats_socket=tmp_path / "h.sock"
    )
    assert "bind 127.0.0.1:50100 proto h2" in text
    for backend in BACKENDS:
        assert f"server {backend.name} 127.0.0.1:{backend.port}\n" in text + "\n"
    assert f"tcp-check send-binary {failover.health_check_request().hex()}" in text
    assert f"tcp-check expect binary {failover.HEALTH_SERVING.hex()}" in text
    assert f"retry-on {failover.DEFAULT_RETRY_ON}" in text
    assert "proto h2" in text.split("default-server", 1)[1]
    assert "$" not in text  # every name of the template filled in
    with pytest.raises(ValueError):
        failover.render_config(bind_port=1, backends=[], stats_socket=tmp_path / "h.sock")


@pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (make failover installs it)")
def test_haproxy_accepts_the_configuration(tmp_path: Path) -> None:
    assert HAPROXY is not None
    config = tmp_path / "haproxy.cfg"
    config.write_text(
        failover.render_config(
            bind_port=50100, backends=BACKENDS, stats_socket=tmp_path / "h.sock", retry_on="none"
        )
    )
    check = subprocess.run([HAPROXY, "-c", "-q", "-f", str(config)], capture_output=True)
    assert check.returncode == 0, check.stderr.decode()


def test_stats_are_read_by_proxy_and_server() -> None:
    text = (
        "# pxname,svname,status,req_tot,wretr,wredis,stot\n"
        "grpc,FRONTEND,OPEN,120,,,\n"
        "croupier,s1,UP,,0,0,60\n"
        "croupier,s2,DOWN,,2,1,40\n"
        "croupier,BACKEND,UP,,2,1,100\n"
        "\n"
    )
    stats = failover.parse_stats(text)
    assert stats[("grpc", "FRONTEND")]["req_tot"] == "120"
    assert stats[("croupier", "s2")]["status"] == "DOWN"
    assert stats[("croupier", "BACKEND")]["wredis"] == "1"


def test_the_match_plan_depends_on_the_seed_and_index_alone() -> None:
    games = api.list_games(service_pb2.ListGamesRequest()).games
    choices = failover.tables(games, ["sto", "hundred_and_one"])
    assert {t.game for t in choices} == {"sto", "hundred_and_one"}
    plan = [failover.planned_match(1, i, choices) for i in range(1, 30)]
    assert plan == [failover.planned_match(1, i, choices) for i in range(1, 30)]
    assert plan != [failover.planned_match(2, i, choices) for i in range(1, 30)]
    for match in plan:
        table = next(t for t in choices if (t.game, t.preset) == (match.game, match.preset))
        assert table.low <= match.seats <= table.high
    with pytest.raises(ValueError, match="no game"):
        failover.tables(games, ["whist"])


def _report(**changes: object) -> failover.Report:
    report = failover.Report(
        servers=3,
        clients=4,
        seconds_planned=30,
        games=["sto"],
        haproxy_version="haproxy 2.6.12",
        retry_on="conn-failure",
        client_attempts=5,
        killed="s2",
        kill_at=10.0,
        down_after=0.9,
        wall_seconds=31.5,
        matches_started=40,
        matches_completed=40,
        moves=2000,
        calls=2100,
        balancer_requests=2112,
        balancer_retries=3,
        balancer_redispatches=50,
        per_server={"s1": {"status": "UP", "stot": "700", "econ": "0", "eresp": "0"}},
        by_game={"sto": 40},
        replays_agreeing=40,
    )
    for name, value in changes.items():
        setattr(report, name, value)
    return report


def test_the_report_gives_the_figures(tmp_path: Path) -> None:
    report = _report()
    assert report.client_retries == 12
    assert report.ok
    text = failover.format_report(report)
    assert "| matches completed | 40 (of 40 started) |" in text
    assert "| matches lost | 0 |" in text
    assert "| calls retried by the client (grpc retry policy, UNAVAILABLE) | 12 |" in text
    assert "3 retries, 50 redispatched" in text
    assert "0.90 s after the kill" in text
    assert "| s1 | UP | 700 | 0 | 0 |" in text
    assert text.endswith("Result: OK, no match lost.\n")
    failover.write_report(report, tmp_path / "out" / "REPORT.md")
    assert (tmp_path / "out" / "REPORT.md").read_text() == text
    saved = json.loads((tmp_path / "out" / "REPORT.json").read_text())
    assert (saved["matches_lost"], saved["client_retries"], saved["ok"]) == (0, 12, True)


def test_a_lost_match_or_a_disagreeing_replay_fails_the_run() -> None:
    lost = _report(matches_completed=39, matches_lost=1, replays_agreeing=39, lost=["#7 sto: x"])
    assert not lost.ok
    assert "## Lost matches\n\n- #7 sto: x" in failover.format_report(lost)
    assert not _report(replays_agreeing=39).ok


@pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (make failover installs it)")
def test_a_server_killed_behind_haproxy_loses_no_match(tmp_path: Path) -> None:
    """2 servers, 2 clients, short «Сто» matches, s2 killed after 1 s. The
    balancer retries only refused connections (haproxy's default), so a call
    in flight on s2 comes back UNAVAILABLE (502) and the client retries it."""
    argv = ["--servers", "2", "--clients", "2", "--seconds", "3", "--kill-at", "1"]
    argv += ["--games", "sto", "--lb-retry-on", "conn-failure", "--report", str(tmp_path / "R.md")]
    assert failover.main(argv) == 0, (tmp_path / "R.md").read_text()
    report = json.loads((tmp_path / "R.json").read_text())
    assert report["matches_lost"] == 0
    assert report["matches_completed"] > 0
    assert report["replays_agreeing"] == report["matches_completed"]
    assert report["killed"] == "s2"
    assert report["down_after"] is not None
    # Calls sent to s2 after the kill were retried, by haproxy (a refused
    # connection) or by the client (a call cut short).
    assert report["client_retries"] + report["balancer_redispatches"] > 0
