"""Imports point down (STYLE.md §1): the engine and the games are a plain
library that never imports the transport or the service's observability."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[1] / "server"
LIBRARY = [SERVER / "croupier" / "engine", SERVER / "croupier" / "games"]
FORBIDDEN_TOPS = ("grpc", "structlog", "prometheus_client")


def forbidden(module: str) -> bool:
    """Whether importing `module` would break the layering."""
    top = module.split(".")[0]
    return (
        top in FORBIDDEN_TOPS
        or top.startswith("grpc_")
        or module == "croupier.service"
        or module.startswith("croupier.service.")
        or module == "croupier.cli"
        # The generated service stubs import grpc themselves.
        or module.endswith("_pb2_grpc")
    )


def imported_modules(source: str, package: str) -> list[tuple[int, str]]:
    """Every (line, module) that `source`, a module of `package`, imports;
    relative imports are resolved, and `from a import b` counts as `a.b` too."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(parent + ([base] if base else []))
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _package_of(path: Path) -> str:
    # A module's package is its directory, and so is an __init__.py's.
    return ".".join(path.relative_to(SERVER).parts[:-1])


def test_engine_and_games_import_no_transport_or_service() -> None:
    files = sorted(p for root in LIBRARY for p in root.rglob("*.py"))
    assert len(files) >= 5, "the engine's modules were not found"
    offences = [
        f"{path.relative_to(SERVER)}:{line}: imports {module}"
        for path in files
        for line, module in imported_modules(path.read_text(encoding="utf-8"), _package_of(path))
        if forbidden(module)
    ]
    assert offences == []


def test_the_engine_names_no_game() -> None:
    # Games are found through entry points (pyproject.toml), so the engine
    # never imports one: an arrow up, and a circle with the games.
    engine = SERVER / "croupier" / "engine"
    offences = [
        f"{path.relative_to(SERVER)}:{line}: imports {module}"
        for path in sorted(engine.rglob("*.py"))
        for line, module in imported_modules(path.read_text(encoding="utf-8"), _package_of(path))
        if module == "croupier.games" or module.startswith("croupier.games.")
    ]
    assert offences == []


@pytest.mark.parametrize(
    ("source", "package"),
    [
        ("import grpc", "croupier.engine"),
        ("import grpc_status.rpc_status", "croupier.engine"),
        ("from structlog import get_logger", "croupier.engine"),
        ("import prometheus_client as p", "croupier.games.x"),
        ("from croupier import service", "croupier.engine"),
        ("from croupier.service.errors import x", "croupier.engine"),
        ("from ...service import config", "croupier.games.x"),
        ("def f():\n    import grpc", "croupier.engine"),
        ("from croupier.v1 import service_pb2_grpc", "croupier.engine"),
    ],
)
def test_the_checker_catches_each_kind_of_forbidden_import(source: str, package: str) -> None:
    assert any(forbidden(module) for _, module in imported_modules(source, package))


def test_the_checker_allows_the_generated_messages() -> None:
    source = "from croupier.v1 import game_pb2\nfrom . import cards\nimport google.protobuf"
    assert not any(forbidden(m) for _, m in imported_modules(source, "croupier.engine"))
