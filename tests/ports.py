"""Free loopback ports for tests that start servers: each probed by binding
it, then released (a race with other processes is possible but harmless in
practice; a test that loses it fails at listen, naming the port)."""

from __future__ import annotations

import socket


def free_ports(count: int) -> list[int]:
    """`count` distinct ports free now (held together while probed, so no two
    are the same)."""
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def free_port() -> int:
    """One port free now."""
    return free_ports(1)[0]
