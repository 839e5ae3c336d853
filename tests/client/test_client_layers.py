"""The client library stands on the contract alone: it imports nothing of
the server package, not even its stubs (it has its own, croupier_client.v1),
so it installs and runs against any replica without the server's code."""

from __future__ import annotations

import ast
from pathlib import Path

from croupier_client import client

PACKAGE = Path(client.__file__).resolve().parent


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
    return found


def test_the_client_imports_no_server_code() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) >= 4
    offences = [
        f"{path.name}:{line}: imports {module}"
        for path in files
        for line, module in _imports(path)
        if module.split(".")[0] == "croupier"
    ]
    assert offences == []
