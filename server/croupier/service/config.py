"""How a server is configured: defaults, then environment variables, then flags."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def _cores() -> int:
    return len(os.sched_getaffinity(0))


@dataclass(frozen=True)
class ServerConfig:
    """Everything `create_server` and `serve` need; immutable once resolved."""

    host: str = "127.0.0.1"
    port: int = 50051
    log_level: str = "info"
    # Worker processes sharing the port: one process saturates about one core
    # (the GIL), so one per core (DESIGN.md, Performance model).
    workers: int = field(default_factory=_cores)
    # The Prometheus endpoint, served by the supervisor for all workers.
    metrics_port: int = 9095
    # Seconds in-flight calls get to finish after SIGTERM.
    grace: float = 5.0
    # Seconds between health turning NOT_SERVING and the listener closing, for
    # load balancers to notice (a Kubernetes readiness period); 0 by default.
    drain: float = 0.0
    # Requests and responses larger than this are refused (RESOURCE_EXHAUSTED).
    max_message_bytes: int = 4 * 1024 * 1024
    # Items in one ApplyMoveBatch call (RESOURCE_EXHAUSTED beyond).
    max_batch: int = 1024
    # Unary calls served at once by one worker; more are refused at once with
    # RESOURCE_EXHAUSTED instead of queueing without bound. Health checks do not
    # count: a busy worker is not a dead one.
    max_concurrent_rpcs: int = 256
    # Open ApplyMoveStream calls per worker, a budget of their own: a stream
    # mostly waits for its client, and streams that stall must not lock out
    # unary calls (or health checks).
    max_streams: int = 256
    # Seconds a stream waits for its next request before the server ends it
    # (DEADLINE_EXCEEDED), so that a stalled client frees its slot.
    stream_idle_timeout: float = 30.0
    # Off by default so that a second server on a busy port fails loudly instead
    # of silently sharing its traffic; the multi-process supervisor turns it on.
    reuse_port: bool = False
    # Sealed states (service/sealing.py): the file of sealing keys ("" = the
    # text of CROUPIER_SEAL_KEYS, if set, else no sealing), and whether plain
    # states are refused (PERMISSION_DENIED) so that only sealed ones are taken.
    seal_keys: str = ""
    sealed_only: bool = False
    # TLS (service/security.py): the server's certificate chain and private
    # key (PEM files; both or neither), and a CA whose client certificates
    # are required (mTLS; needs TLS).
    tls_cert: str = ""
    tls_key: str = ""
    tls_client_ca: str = ""
    # The browser port (web.py): Connect and gRPC-Web over HTTP/1.1, and the
    # web table's files; -1 = off, 0 picks a free port. Its files come from
    # web_root ("" = clients/web/dist of the checkout, when built), and
    # web_cors_origins (comma-separated, "*" for any; "" = same origin only)
    # are the other origins whose pages may call it.
    web_port: int = -1
    web_root: str = ""
    web_cors_origins: str = ""

    def __post_init__(self) -> None:
        # The same checks as the flags, so that a config built in code (a test,
        # the supervisor) cannot hold what the command line would refuse.
        for spec in _FLAGS:
            value = getattr(self, spec.dest)
            try:
                if spec.parse(str(value)) != value:
                    raise argparse.ArgumentTypeError(f"not in canonical form: {value!r}")
            except argparse.ArgumentTypeError as error:
                raise ValueError(f"{spec.dest}: {error}") from None
        if bool(self.tls_cert) != bool(self.tls_key):
            raise ValueError("tls_cert and tls_key: give both (TLS) or neither")
        if self.web_port >= 0 and self.web_port == self.port != 0:
            raise ValueError(f"web_port: {self.web_port} is the gRPC port too; give another")
        # Each listener its own port: a second server is started beside a
        # first one by giving all three (`make run PORT= WEB_PORT= METRICS_PORT=`).
        if self.metrics_port == self.port != 0:
            raise ValueError(
                f"metrics_port: {self.metrics_port} is the gRPC port too; give another"
            )
        if self.metrics_port == self.web_port != 0:
            raise ValueError(
                f"metrics_port: {self.metrics_port} is the browser port too; give another"
            )
        if self.web_root and not os.path.isdir(self.web_root):
            raise ValueError(f"web_root: {self.web_root!r} is not a directory")
        if self.tls_client_ca and not self.tls_cert:
            raise ValueError(
                "tls_client_ca: client certificates (mTLS) need TLS (tls_cert, tls_key)"
            )

    @classmethod
    def from_env_and_args(
        cls, argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None
    ) -> ServerConfig:
        """Resolve a config from `argv` (the `serve` flags) and `env` (default
        `os.environ`); a flag wins over its environment variable, which wins
        over the default. Exits with a usage message on a bad value."""
        parser = argparse.ArgumentParser(prog="croupier serve")
        add_arguments(parser)
        namespace = parser.parse_args(argv)
        try:
            return cls.from_namespace(namespace, env)
        except ValueError as error:
            parser.error(str(error))

    @classmethod
    def from_namespace(
        cls, namespace: argparse.Namespace, env: Mapping[str, str] | None = None
    ) -> ServerConfig:
        """Resolve a config from flags parsed by a parser that `add_arguments`
        set up; raises ValueError naming the variable when an env value is bad."""
        environ = os.environ if env is None else env
        values: dict[str, Any] = {}
        for spec in _FLAGS:
            flag_value = getattr(namespace, spec.dest, None)
            if flag_value is not None:
                values[spec.dest] = flag_value
            elif spec.env and spec.env in environ:
                try:
                    values[spec.dest] = spec.parse(environ[spec.env])
                except (ValueError, argparse.ArgumentTypeError) as error:
                    raise ValueError(f"{spec.env}: {error}") from None
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in known})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the `serve` flags to `parser`. Their defaults stay None so that
    `from_namespace` can tell a flag given from one left to the environment."""
    defaults = ServerConfig()
    for spec in _FLAGS:
        default = getattr(defaults, spec.dest)
        where = f"env {spec.env}, " if spec.env else ""
        shown = "none" if default == "" else default
        parser.add_argument(
            spec.flag,
            dest=spec.dest,
            type=spec.parse,
            default=None,
            metavar=spec.metavar,
            help=f"{spec.help} ({where}default {shown})".replace("%", "%%"),
        )


def _port(text: str) -> int:
    value = _int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port must be in [0, 65535]; got {value}")
    return value


def _web_port(text: str) -> int:
    """A port, or -1 for off: no browser port."""
    if text.strip().lower() in ("off", "-1"):
        return -1
    return _port(text)


def _positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1; got {value}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def _non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value >= 0:  # also refuses NaN
        raise argparse.ArgumentTypeError(f"must be 0 or more; got {text}")
    return value


def _positive_float(text: str) -> float:
    value = _non_negative_float(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"must be more than 0; got {text}")
    return value


def _yes_no(text: str) -> bool:
    word = text.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"must be yes or no; got {text!r}")


def _log_level(text: str) -> str:
    level = text.strip().lower()
    if level not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(
            f"log level must be one of {', '.join(LOG_LEVELS)}; got {text!r}"
        )
    return level


@dataclass(frozen=True)
class _Flag:
    flag: str
    dest: str
    env: str | None
    parse: Callable[[str], Any]
    metavar: str
    help: str


_FLAGS = (
    _Flag("--host", "host", "CROUPIER_HOST", str, "HOST", "address to listen on"),
    _Flag(
        "--port", "port", "CROUPIER_PORT", _port, "PORT", "port to listen on; 0 picks a free one"
    ),
    _Flag(
        "--log-level", "log_level", "CROUPIER_LOG_LEVEL", _log_level, "LEVEL", "/".join(LOG_LEVELS)
    ),
    _Flag(
        "--workers", "workers", "CROUPIER_WORKERS", _positive_int, "N",
        "worker processes sharing the port",
    ),
    _Flag(
        "--metrics-port", "metrics_port", "CROUPIER_METRICS_PORT", _port, "PORT",
        "Prometheus metrics port; 0 picks a free one",
    ),
    _Flag(
        "--grace", "grace", "CROUPIER_GRACE", _non_negative_float, "SECONDS",
        "time in-flight calls get to finish on SIGTERM",
    ),
    _Flag(
        "--drain", "drain", "CROUPIER_DRAIN", _non_negative_float, "SECONDS",
        "time between health NOT_SERVING and closing the port on SIGTERM",
    ),
    _Flag(
        "--max-message-bytes", "max_message_bytes", "CROUPIER_MAX_MESSAGE_BYTES",
        _positive_int, "BYTES", "largest request or response",
    ),
    _Flag(
        "--max-batch", "max_batch", "CROUPIER_MAX_BATCH", _positive_int, "N",
        "most items in one ApplyMoveBatch call",
    ),
    _Flag(
        "--max-concurrent-rpcs", "max_concurrent_rpcs", "CROUPIER_MAX_CONCURRENT_RPCS",
        _positive_int, "N", "unary calls one worker serves at once; more get RESOURCE_EXHAUSTED",
    ),
    _Flag(
        "--max-streams", "max_streams", "CROUPIER_MAX_STREAMS", _positive_int, "N",
        "ApplyMoveStream calls one worker keeps open; more get RESOURCE_EXHAUSTED",
    ),
    _Flag(
        "--stream-idle-timeout", "stream_idle_timeout", "CROUPIER_STREAM_IDLE_TIMEOUT",
        _positive_float, "SECONDS", "time a stream waits for its next request before it is ended",
    ),
    _Flag(
        "--seal-keys", "seal_keys", "CROUPIER_SEAL_KEYS_FILE", str, "FILE",
        "sealing keys ('seal ID BASE64' / 'open ID BASE64' lines; none: the text of "
        "CROUPIER_SEAL_KEYS, if set): NewGame can answer sealed states and every RPC takes them",
    ),
    _Flag(
        "--sealed-only", "sealed_only", "CROUPIER_SEALED_ONLY", _yes_no, "yes|no",
        "refuse plain states (PERMISSION_DENIED) and seal every new game",
    ),
    _Flag(
        "--tls-cert", "tls_cert", "CROUPIER_TLS_CERT", str, "FILE",
        "serve TLS with this certificate chain (PEM; with --tls-key)",
    ),
    _Flag(
        "--tls-key", "tls_key", "CROUPIER_TLS_KEY", str, "FILE",
        "the private key of --tls-cert (PEM)",
    ),
    _Flag(
        "--tls-client-ca", "tls_client_ca", "CROUPIER_TLS_CLIENT_CA", str, "FILE",
        "require client certificates signed by this CA (mTLS; PEM)",
    ),
    _Flag(
        "--web", "web_port", "CROUPIER_WEB_PORT", _web_port, "PORT",
        "also serve browsers on this port: Connect and gRPC-Web over HTTP/1.1, and the web "
        "table; 0 picks a free one, -1 or off: no browser port",
    ),
    _Flag(
        "--web-root", "web_root", "CROUPIER_WEB_ROOT", str, "DIR",
        "the web table's files, served at / of the browser port (none: clients/web/dist "
        "of the checkout when built)",
    ),
    _Flag(
        "--web-cors-origins", "web_cors_origins", "CROUPIER_WEB_CORS_ORIGINS", str, "ORIGINS",
        "comma-separated origins whose pages may call the browser port, or * for any "
        "(none: the port's own pages only)",
    ),
)  # fmt: skip
