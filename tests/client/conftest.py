"""An in-process server on an ephemeral port and a client connected to it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from croupier.service.config import ServerConfig
from croupier.service.server import ServerThread
from croupier_client.client import CroupierClient


@pytest.fixture(scope="session")
def target() -> Iterator[str]:
    """host:port of a real CroupierService server running in this process."""
    with ServerThread(ServerConfig(port=0, grace=0.0)) as port:
        yield f"127.0.0.1:{port}"


@pytest.fixture
def client(target: str) -> Iterator[CroupierClient]:
    with CroupierClient(target) as client:
        yield client
