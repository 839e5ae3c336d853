"""A registered game whose package fails to load is the server's fault: the
registry raises GameLoadError naming it on every call (never serving the
others and answering it as an unknown game, INVALID_ARGUMENT), and a server
stops at start (engine/registry.py, service/server.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from croupier.engine import registry


@dataclass
class _Point:
    name: str
    value: str
    game: object | None

    def load(self) -> object:
        if self.game is None:
            raise AttributeError("module 'croupier.engine.caches' has no attribute 'X'")
        return self.game


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real = registry.games()[0]
    points = [_Point("aaa", "pkg:GOOD", real), _Point("uno", "croupier.games.uno:GAME", None)]
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_loaded", False)
    yield


def test_a_game_that_fails_to_load_is_named_on_every_call(broken: None) -> None:
    for _ in range(2):
        with pytest.raises(registry.GameLoadError, match=r"game 'uno' \(croupier.games.uno:GAME\)"):
            registry.find("uno")
    with pytest.raises(registry.GameLoadError):
        registry.games()
    assert registry._GAMES == {}  # all or nothing: the good one is not served alone


def test_a_server_with_a_game_that_fails_to_load_does_not_start(broken: None) -> None:
    from croupier.service.config import ServerConfig
    from croupier.service.server import ServerThread

    with pytest.raises(registry.GameLoadError, match="game 'uno'"):
        ServerThread(ServerConfig(port=0, web_port=-1)).start()
