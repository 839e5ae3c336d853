"""How a server is configured: defaults, then environment variables, then flags."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


@dataclass(frozen=True)
class ServerConfig:
    """Everything `create_server` and `serve` need; immutable once resolved."""

    host: str = "127.0.0.1"
    port: int = 50051
    log_level: str = "info"
    # A small pool beat 16 or 64 threads by ~20 % (DESIGN.md, Performance model).
    max_workers: int = 4
    # Seconds in-flight calls get to finish after SIGTERM.
    grace: float = 5.0
    # Off by default so that a second server on a busy port fails loudly instead
    # of silently sharing its traffic; the multi-process supervisor turns it on.
    reuse_port: bool = False

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
        parser.add_argument(
            spec.flag,
            dest=spec.dest,
            type=spec.parse,
            default=None,
            metavar=spec.metavar,
            help=f"{spec.help} ({where}default {default})",
        )


def _port(text: str) -> int:
    value = _int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port must be in [0, 65535]; got {value}")
    return value


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
    _Flag("--max-workers", "max_workers", None, _positive_int, "N", "threads serving calls"),
    _Flag(
        "--grace", "grace", None, _non_negative_float, "SECONDS", "time calls get to finish on stop"
    ),
)
