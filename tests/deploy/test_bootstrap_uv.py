"""deploy/bootstrap_uv.py picks the one wheel of uv built for this machine."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SPEC = importlib.util.spec_from_file_location(
    "bootstrap_uv", Path(__file__).parents[2] / "deploy" / "bootstrap_uv.py"
)
assert SPEC is not None and SPEC.loader is not None
bootstrap_uv = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bootstrap_uv)

# uv 0.13.9's files as PyPI lists them (macOS first: it must not be taken on Linux).
FILES = [
    {"filename": f"uv-0.13.9-py3-none-{tags}.whl"}
    for tags in (
        "macosx_10_12_x86_64",
        "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64",
        "manylinux_2_17_x86_64.manylinux2014_x86_64",
        "musllinux_1_1_x86_64",
        "win_amd64",
    )
]


def _picked(machine: str, musl: bool) -> str | None:
    entry = bootstrap_uv.pick(FILES, machine, musl)
    return None if entry is None else entry["filename"].split("-")[-1].removesuffix(".whl")


def test_glibc_x86_64_takes_the_manylinux_wheel_not_the_macos_one() -> None:
    assert _picked("x86_64", musl=False) == "manylinux_2_17_x86_64.manylinux2014_x86_64"


def test_musl_x86_64_takes_the_musllinux_wheel() -> None:
    assert _picked("x86_64", musl=True) == "musllinux_1_1_x86_64"


def test_one_aarch64_wheel_serves_both_c_libraries() -> None:
    both = "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64"
    assert _picked("aarch64", musl=False) == both
    assert _picked("aarch64", musl=True) == both


def test_an_unknown_machine_gets_none_and_pip_installs_uv_instead() -> None:
    assert _picked("riscv64", musl=False) is None
