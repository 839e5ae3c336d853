"""Generate the client's stubs into croupier_client/v1 and croupier_client/rpc.

`make proto` runs it; the output is never edited and not kept in git.
protoc writes `from croupier.v1 import game_pb2`, the server package's
path; the client has its own copy of the stubs, so those imports are
pointed at `croupier_client.v1`. The descriptors are the same bytes as the
server's, so where both are loaded (the server's tools use this client)
protobuf gives both modules the same message classes.

Usage: python generate.py PROTO_ROOT [PROTO_FILE...]
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "croupier_client"
IMPORT = re.compile(rb"^from croupier\.v1 import ", re.MULTILINE)


def run_protoc(include: Path, protos: list[str], out: Path) -> None:
    args = [
        "protoc",
        f"-I{include}",
        f"-I{protoc_include()}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *protos,
    ]
    if protoc.main(args) != 0:
        sys.exit(f"protoc failed on {protos}")


def protoc_include() -> Path:
    import grpc_tools

    return Path(grpc_tools.__file__).parent / "_proto"


def main(argv: list[str]) -> None:
    root = Path(argv[0]).resolve()
    protos = [str(Path(p).resolve()) for p in argv[1:]]
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        run_protoc(root, protos, out)
        own = HERE / "proto"
        run_protoc(own, [str(p) for p in sorted(own.rglob("*.proto"))], out)
        for sub in ("v1", "rpc"):
            target = PACKAGE / sub
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir()
            (target / "__init__.py").write_text(
                '"""Generated stubs (generate.py); never edited."""\n'
            )
        for source in (out / "croupier" / "v1").iterdir():
            (PACKAGE / "v1" / source.name).write_bytes(
                IMPORT.sub(b"from croupier_client.v1 import ", source.read_bytes())
            )
        for source in (out / "croupier_client" / "rpc").iterdir():
            shutil.copy(source, PACKAGE / "rpc" / source.name)


if __name__ == "__main__":
    main(sys.argv[1:])
