"""TLS and mTLS for the server, and the start-up check of every secret file.

`croupier serve --tls-cert CHAIN --tls-key KEY` serves TLS only (no plaintext
port); `--tls-client-ca CA` also requires every client to present a
certificate signed by CA (mTLS), refused in the handshake otherwise. Health
and reflection are on the same port and need the same credentials.

`preflight` reads the TLS files and the sealing keys once in `croupier
serve` before any worker starts, so that a missing file or a bad key is a
usage error at once rather than a worker that dies at every restart. It
imports no grpc: the supervisor forks its workers before grpc exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from croupier.service.config import ServerConfig


@dataclass(frozen=True)
class TlsFiles:
    """The PEM bytes of a server's TLS setting."""

    cert: bytes
    key: bytes
    client_ca: bytes | None  # set: mTLS


def tls_files(config: ServerConfig) -> TlsFiles | None:
    """The TLS files of `config` read, or None for a plaintext server.
    ValueError names a file that cannot be read or is not PEM."""
    if not config.tls_cert:
        return None
    return TlsFiles(
        cert=_pem(config.tls_cert, "--tls-cert", "CERTIFICATE"),
        key=_pem(config.tls_key, "--tls-key", "PRIVATE KEY"),
        client_ca=(
            _pem(config.tls_client_ca, "--tls-client-ca", "CERTIFICATE")
            if config.tls_client_ca
            else None
        ),
    )


def _pem(path: str, flag: str, kind: str) -> bytes:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ValueError(f"{flag} {path}: cannot read it: {error.strerror}") from None
    if b"-----BEGIN " not in data or kind.encode() not in data:
        raise ValueError(f"{flag} {path}: not a PEM file holding a {kind.lower()}")
    return data


def server_credentials(config: ServerConfig) -> Any:
    """grpc.ServerCredentials for `config`, or None for a plaintext server."""
    files = tls_files(config)
    if files is None:
        return None
    import grpc

    return grpc.ssl_server_credentials(
        [(files.key, files.cert)],
        root_certificates=files.client_ca,
        require_client_auth=files.client_ca is not None,
    )


def preflight(config: ServerConfig) -> None:
    """Read every file and key `config` names; ValueError says what is wrong."""
    from croupier.service import sealing

    tls_files(config)
    keyring = sealing.load_keyring(config.seal_keys)
    sealing.Sealer(keyring, config.sealed_only)
