"""A port that could not be opened, named: which listener and which port.

`croupier serve` opens up to three listeners (the gRPC port, the browser
port, the metrics port). A failure to open any of them ends the launch with
one `listen_failed` log line naming the listener and its port, so that a
second server started beside a first one says which port is taken (the
supervisor never imports grpc: this module imports nothing of it).
"""

from __future__ import annotations

from typing import Any

# The listeners of `croupier serve`, as the log names them.
GRPC = "grpc"
WEB = "web"
METRICS = "metrics"


class ListenFailed(OSError):
    """A listener could not be opened on its port."""

    def __init__(self, listener: str, host: str, port: int, error: object) -> None:
        self.listener = listener
        self.host = host
        self.port = port
        bracketed = ":" in host and not host.startswith("[")
        address = f"[{host}]:{port}" if bracketed else f"{host}:{port}"
        cause = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        super().__init__(f"cannot listen on {address} (the {listener} port): {cause}")
        if isinstance(error, OSError):
            self.errno = error.errno


def named(listener: str, host: str, port: int, error: OSError) -> ListenFailed:
    """`error` as a ListenFailed of `listener` (itself when it already is one)."""
    if isinstance(error, ListenFailed):
        return error
    return ListenFailed(listener, host, port, error)


def log_failure(log: Any, error: ListenFailed) -> None:
    """The one log line of a launch that could not listen."""
    log.error(
        "listen_failed",
        listener=error.listener,
        host=error.host,
        port=error.port,
        error=str(error),
    )
