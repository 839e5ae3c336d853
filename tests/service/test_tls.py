"""TLS and mTLS (`croupier serve --tls-cert/--tls-key/--tls-client-ca`), with
certificates made by the test (certs.py): a server certificate for 127.0.0.1
and localhost signed by a test CA, client certificates from that CA and from
another one. Health checks go over the same port and credentials."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from certs import Authority, Issued
from grpc_health.v1 import health_pb2, health_pb2_grpc
from serving import Serve

from croupier.service.config import ServerConfig
from croupier.service.security import preflight
from croupier.service.server import ServerThread
from croupier.v1 import service_pb2, service_pb2_grpc

SERVING = health_pb2.HealthCheckResponse.SERVING
# A new TCP connection per channel, so that no test reuses another's handshake.
OPTIONS = (("grpc.use_local_subchannel_pool", 1),)


@dataclass(frozen=True)
class Pki:
    ca: Authority
    server: Issued
    client: Issued
    rogue_client: Issued  # signed by a CA the server does not trust


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    directory = tmp_path_factory.mktemp("pki")
    ca = Authority.create(directory, "croupier-test-ca")
    rogue = Authority.create(directory, "rogue-ca")
    return Pki(
        ca=ca,
        server=ca.issue(directory, "server", server=True),
        client=ca.issue(directory, "client", server=False),
        rogue_client=rogue.issue(directory, "rogue-client", server=False),
    )


def _tls_config(pki: Pki, mtls: bool) -> ServerConfig:
    return ServerConfig(
        port=0,
        grace=0.0,
        tls_cert=str(pki.server.cert_path),
        tls_key=str(pki.server.key_path),
        tls_client_ca=str(pki.ca.path) if mtls else "",
    )


@pytest.fixture(scope="module")
def tls_port(pki: Pki) -> Iterator[int]:
    with ServerThread(_tls_config(pki, mtls=False)) as port:
        yield port


@pytest.fixture(scope="module")
def mtls_port(pki: Pki) -> Iterator[int]:
    with ServerThread(_tls_config(pki, mtls=True)) as port:
        yield port


def _secure(port: int, pki: Pki, client: Issued | None = None, host: str = "127.0.0.1"):
    credentials = grpc.ssl_channel_credentials(
        root_certificates=pki.ca.pem,
        private_key=client.key if client else None,
        certificate_chain=client.cert if client else None,
    )
    return grpc.secure_channel(f"{host}:{port}", credentials, options=OPTIONS)


def _health(channel: grpc.Channel) -> int:
    request = health_pb2.HealthCheckRequest()
    return health_pb2_grpc.HealthStub(channel).Check(request, timeout=5).status


def _list_games(channel: grpc.Channel) -> list[str]:
    stub = service_pb2_grpc.CroupierServiceStub(channel)
    return [g.name for g in stub.ListGames(service_pb2.ListGamesRequest(), timeout=5).games]


def _refused(channel: grpc.Channel) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as caught:
        _health(channel)
    code = caught.value.code()  # type: ignore[attr-defined]
    assert code == grpc.StatusCode.UNAVAILABLE, caught.value
    return code


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_tls_serves_the_service_and_health(tls_port: int, pki: Pki, host: str) -> None:
    with _secure(tls_port, pki, host=host) as channel:
        assert _health(channel) == SERVING
        assert "hundred_and_one" in _list_games(channel)
        game = service_pb2_grpc.CroupierServiceStub(channel).NewGame(
            service_pb2.NewGameRequest(game="hundred_and_one", seat_count=3, seed=7), timeout=5
        )
        assert game.state.game == "hundred_and_one"


def test_tls_refuses_a_plaintext_client(tls_port: int) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{tls_port}", options=OPTIONS) as channel:
        _refused(channel)


def test_tls_refuses_a_client_that_does_not_trust_its_ca(
    tls_port: int, pki: Pki, tmp_path: Path
) -> None:
    other = Authority.create(tmp_path, "other-ca")
    credentials = grpc.ssl_channel_credentials(root_certificates=other.pem)
    with grpc.secure_channel(f"127.0.0.1:{tls_port}", credentials, options=OPTIONS) as channel:
        _refused(channel)


def test_mtls_serves_a_client_with_a_certificate(mtls_port: int, pki: Pki) -> None:
    with _secure(mtls_port, pki, pki.client) as channel:
        assert _health(channel) == SERVING
        assert "hundred_and_one" in _list_games(channel)


def test_mtls_refuses_a_client_without_a_certificate(mtls_port: int, pki: Pki) -> None:
    with _secure(mtls_port, pki) as channel:
        _refused(channel)
        with pytest.raises(grpc.RpcError) as caught:
            _list_games(channel)
        assert caught.value.code() == grpc.StatusCode.UNAVAILABLE  # type: ignore[attr-defined]


def test_mtls_refuses_a_certificate_from_another_ca(mtls_port: int, pki: Pki) -> None:
    with _secure(mtls_port, pki, pki.rogue_client) as channel:
        _refused(channel)


def test_mtls_refuses_plaintext(mtls_port: int) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{mtls_port}", options=OPTIONS) as channel:
        _refused(channel)


def test_croupier_serve_takes_the_tls_flags(pki: Pki, tmp_path: Path) -> None:
    """The flags through a real `croupier serve` (supervisor and worker):
    mTLS with a client certificate works, without one it is refused."""
    flags = (
        *("--tls-cert", str(pki.server.cert_path), "--tls-key", str(pki.server.key_path)),
        *("--tls-client-ca", str(pki.ca.path)),
    )
    with Serve(*flags, tmp_dir=tmp_path) as server:
        workers = server.wait_for(lambda e: e["event"] == "worker_listening")
        assert workers["tls"] == "mtls"
        with _secure(server.port, pki, pki.client) as channel:
            assert _health(channel) == SERVING
            assert _list_games(channel)
        with _secure(server.port, pki) as channel:
            _refused(channel)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--tls-cert", "CERT"], "give both"),
        (["--tls-client-ca", "CA"], "need TLS"),
        (["--tls-cert", "/nonexistent.crt", "--tls-key", "KEY"], "cannot read it"),
        (["--tls-cert", "KEY", "--tls-key", "KEY"], "not a PEM file holding a certificate"),
    ],
)
def test_bad_tls_settings_are_usage_errors(
    pki: Pki, tmp_path: Path, flags: list[str], message: str
) -> None:
    """A bad setting stops `croupier serve` at once (exit 2), before any worker."""
    paths = {"CERT": pki.server.cert_path, "KEY": pki.server.key_path, "CA": pki.ca.path}
    argv = [str(paths.get(flag, flag)) for flag in flags]
    done = subprocess.run(
        [sys.executable, "-m", "croupier.cli", "serve", "--port", "0", *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert message in done.stderr


def test_preflight_reads_every_file(pki: Pki) -> None:
    preflight(_tls_config(pki, mtls=True))  # no error
    with pytest.raises(ValueError, match="private key"):
        preflight(
            ServerConfig(tls_cert=str(pki.server.cert_path), tls_key=str(pki.server.cert_path))
        )
