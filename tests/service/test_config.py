"""Server configuration: defaults, then environment variables, then flags."""

from __future__ import annotations

import os

import pytest

from croupier.service.config import ServerConfig


def test_defaults_without_flags_or_environment() -> None:
    config = ServerConfig.from_env_and_args([], env={})
    assert config == ServerConfig()
    assert (config.host, config.port, config.log_level, config.metrics_port) == (
        "127.0.0.1",
        50051,
        "info",
        9095,
    )
    assert config.workers == len(os.sched_getaffinity(0))  # one per core


def test_environment_overrides_defaults() -> None:
    env = {"CROUPIER_HOST": "0.0.0.0", "CROUPIER_PORT": "6000", "CROUPIER_LOG_LEVEL": "DEBUG"}
    config = ServerConfig.from_env_and_args([], env=env)
    assert (config.host, config.port, config.log_level) == ("0.0.0.0", 6000, "debug")


def test_flags_override_environment() -> None:
    env = {"CROUPIER_HOST": "0.0.0.0", "CROUPIER_PORT": "6000", "CROUPIER_LOG_LEVEL": "debug"}
    argv = ["--host", "::1", "--port", "0", "--log-level", "error", "--workers", "2"]
    config = ServerConfig.from_env_and_args(argv, env=env)
    assert (config.host, config.port, config.log_level, config.workers) == (
        "::1",
        0,
        "error",
        2,
    )


@pytest.mark.parametrize(
    ("argv", "env"),
    [
        (["--port", "70000"], {}),
        (["--log-level", "loud"], {}),
        (["--workers", "0"], {}),
        (["--max-batch", "0"], {}),
        ([], {"CROUPIER_MAX_CONCURRENT_RPCS": "-3"}),
        ([], {"CROUPIER_PORT": "http"}),
        ([], {"CROUPIER_LOG_LEVEL": "verbose"}),
        (["--web", "70000"], {}),
        (["--web", "-2"], {}),
        ([], {"CROUPIER_WEB_PORT": "browser"}),
        (["--port", "6000", "--web", "6000"], {}),
        (["--web", "8080", "--web-root", "/no/such/folder"], {}),
    ],
)
def test_a_bad_value_is_a_usage_error(argv: list[str], env: dict[str, str]) -> None:
    with pytest.raises(SystemExit) as caught:
        ServerConfig.from_env_and_args(argv, env=env)
    assert caught.value.code == 2


def test_a_bad_flag_is_refused_even_when_the_environment_is_fine() -> None:
    # Precedence applies to errors too: a good env value does not hide a bad flag.
    with pytest.raises(SystemExit):
        ServerConfig.from_env_and_args(["--port", "-1"], env={"CROUPIER_PORT": "6000"})


def test_a_config_built_in_code_is_checked_like_the_flags() -> None:
    with pytest.raises(ValueError, match="port"):
        ServerConfig(port=70000)
    with pytest.raises(ValueError, match="log_level"):
        ServerConfig(log_level="INFO")


def test_the_browser_port_is_off_unless_asked_for() -> None:
    assert ServerConfig().web_port == -1
    assert ServerConfig.from_env_and_args(["--web", "off"], env={}).web_port == -1
    assert ServerConfig.from_env_and_args([], env={"CROUPIER_WEB_PORT": "8080"}).web_port == 8080
    # Two 0s are two free ports, picked apart.
    assert ServerConfig.from_env_and_args(["--port", "0", "--web", "0"], env={}).web_port == 0


def test_the_metrics_port_is_neither_the_grpc_nor_the_browser_port() -> None:
    # Each listener its own port, refused at once (exit 2) rather than a
    # listen failure after the first listener opened.
    with pytest.raises(ValueError, match="metrics_port: 9095 is the gRPC port too"):
        ServerConfig(port=9095)
    with pytest.raises(ValueError, match="metrics_port: 8080 is the browser port too"):
        ServerConfig(web_port=8080, metrics_port=8080)
    # Two 0s are two free ports, picked apart.
    assert ServerConfig(port=0, web_port=0, metrics_port=0).metrics_port == 0
