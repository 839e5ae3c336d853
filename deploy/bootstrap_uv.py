"""Put uv (PyPI's `uv`, the installer the Makefile uses) into a virtual environment, fast.

`pip install uv` works everywhere but spends 8 to 20 s of CPU on these
machines parsing PyPI's 2 MB listing of uv's files. This asks PyPI's JSON
API instead (parsed in a tenth of a second) for the pinned version, picks the wheel built for
this machine, checks its sha256, and hands that file to pip: about 2 s.
Anything unexpected (no network answer, no wheel for this platform) falls
back to `pip install uv==VERSION`, so the result is the same either way.

Usage: python3 deploy/bootstrap_uv.py VENV_PYTHON  (stdlib only; run by `make`)
"""

from __future__ import annotations

import hashlib
import json
import platform
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

VERSION = "0.13.9"
JSON_URL = "https://pypi.org/pypi/uv/json"  # (the per-version page is not served here)


def pick(files: list[dict], machine: str, musl: bool) -> dict | None:
    """The entry of PyPI's file list that is a Linux wheel for `machine`
    and for this C library (musl or glibc), or None."""
    for entry in files:
        tags = entry["filename"].removesuffix(".whl").split("-")[-1]
        if "linux" not in tags or machine not in tags:
            continue
        if ("musllinux" in tags) == musl or ("manylinux" in tags and not musl):
            return entry
    return None


def wheel_url() -> tuple[str, str, str] | None:
    """(url, file name, sha256) of the wheel for this machine, or None."""
    if sys.platform != "linux":
        return None
    musl = "musl" in (platform.libc_ver()[0] or "musl")
    with urllib.request.urlopen(JSON_URL, timeout=20) as answer:
        entry = pick(json.load(answer)["releases"][VERSION], platform.machine(), musl)
    if entry is None:
        return None
    # A mirror may answer with addresses relative to the page.
    url = urllib.parse.urljoin(JSON_URL, entry["url"])
    return url, entry["filename"], entry["digests"]["sha256"]


def main(python: str) -> None:
    pip = [sys.executable, "-m", "pip", "--python", python, "install", "--quiet",
           "--disable-pip-version-check", "--no-deps"]  # fmt: skip
    try:
        found = wheel_url()
    except (OSError, ValueError, KeyError):  # no answer, or not the answer expected
        found = None
    if found is None:
        subprocess.run([*pip, f"uv=={VERSION}"], check=True)
        return
    url, name, sha256 = found
    with tempfile.TemporaryDirectory() as folder:
        wheel = Path(folder) / name
        with urllib.request.urlopen(url, timeout=60) as answer:
            wheel.write_bytes(answer.read())
        if hashlib.sha256(wheel.read_bytes()).hexdigest() != sha256:
            raise SystemExit(f"{name}: sha256 does not match PyPI's")
        subprocess.run([*pip, str(wheel)], check=True)


if __name__ == "__main__":
    main(sys.argv[1])
