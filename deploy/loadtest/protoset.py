"""The descriptor set ghz loads (`--protoset`): CroupierService and grpc.health.v1.

Built from the descriptors compiled into the Python stubs the server runs,
rather than from .proto files, because the health service's .proto is not
shipped with grpcio-health-checking. It also spares every ghz run a reflection
round trip, whose server CPU would otherwise be counted against the RPC.
"""

from __future__ import annotations

from pathlib import Path

from google.protobuf import descriptor_pb2
from google.protobuf.descriptor import FileDescriptor
from grpc_health.v1 import health_pb2

from croupier.v1 import service_pb2


def write_protoset(path: Path) -> Path:
    """Write a FileDescriptorSet with both services and every file they import."""
    files = descriptor_pb2.FileDescriptorSet()
    seen: set[str] = set()
    for root in (service_pb2.DESCRIPTOR, health_pb2.DESCRIPTOR):
        _add(root, files, seen)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(files.SerializeToString(deterministic=True))
    return path


def _add(file: FileDescriptor, files: descriptor_pb2.FileDescriptorSet, seen: set[str]) -> None:
    """Add `file` after its dependencies (protoset readers want that order)."""
    if file.name in seen:
        return
    seen.add(file.name)
    for dependency in file.dependencies:
        _add(dependency, files, seen)
    proto = files.file.add()
    file.CopyToProto(proto)
    # CopyToProto leaves json_name unset; ghz then refuses the camelCase JSON
    # that grpcurl and protobuf's JSON printer write. Fill it in as protoc does.
    todo = list(proto.message_type)
    while todo:
        message = todo.pop()
        todo.extend(message.nested_type)
        for f in message.field:
            if not f.HasField("json_name"):
                f.json_name = _json_name(f.name)


def _json_name(name: str) -> str:
    """protoc's default JSON name: drop each "_" and capitalize what follows."""
    parts = name.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])
