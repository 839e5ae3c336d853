"""Every make target's recipe is valid shell, prerequisites included.

`make bench` once failed on every new machine before running a line: make's
`$(call f,...)` splits its arguments at commas, so `$(call uv_install,-e
'.[dev,bench]')` handed the shell an unterminated quote, and no test ran the
recipe (it installs the bench extra, once per machine). A dry run of each
phony target with every prerequisite remade (`make -n -B`) prints the
commands make would hand the shell; `sh -n` parses them without running any.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make")


def _make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _phony_targets() -> list[str]:
    """The .PHONY targets of the Makefile and the files it includes, read
    from make's own database (`make -p`), so a new target is covered."""
    database = _make("-pRrq", ":").stdout
    for line in database.splitlines():
        if line.startswith(".PHONY:"):
            return sorted(line.split(":", 1)[1].split())
    raise AssertionError("make -p lists no .PHONY targets")


def test_the_makefile_declares_the_targets_the_readme_promises() -> None:
    assert {"run", "test", "lint", "proto", "bench", "loadtest", "clean"} <= set(_phony_targets())


@pytest.mark.parametrize("target", _phony_targets())
def test_every_targets_recipe_parses_as_shell(target: str) -> None:
    dry = _make("-n", "-B", target)
    assert dry.returncode == 0, f"make -n -B {target}: {dry.stderr}"
    parsed = subprocess.run(["sh", "-n"], input=dry.stdout, capture_output=True, text=True)
    assert parsed.returncode == 0, f"make {target}: {parsed.stderr}\n{dry.stdout}"


# A recipe line that names $(MAKE) is run even under `make -n` (GNU make's
# rule for recursive makes), so anything else on that line runs too: the dry
# run of `test` above once ran the whole coverage pass and lint (27 s) because
# the line that starts lint in the background also ran pytest.
_RECURSIVE = re.compile(r"\$[({]MAKE[)}]")
_ONLY_A_MAKE = re.compile(r"[@+-]*\$[({]MAKE[)}](\s[^;&|<>`]*)?")


def _recipe_lines(makefile: Path) -> list[str]:
    """The recipe lines of a makefile, continuations joined."""
    lines: list[str] = []
    pending = ""
    for raw in makefile.read_text().splitlines():
        if pending:
            pending += " " + raw.strip()
        elif raw.startswith("\t"):
            pending = raw.strip()
        else:
            continue
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        lines.append(pending)
        pending = ""
    return lines


def test_a_line_that_runs_make_runs_nothing_else() -> None:
    files = [ROOT / "Makefile", *ROOT.glob("clients/*/*.mk"), *ROOT.glob("deploy/*/*.mk")]
    recursive = [
        (path.name, line)
        for path in files
        for line in _recipe_lines(path)
        if _RECURSIVE.search(line)
    ]
    assert recursive, "the Makefile's recursive makes were not found"
    mixed = [(name, line) for name, line in recursive if not _ONLY_A_MAKE.fullmatch(line)]
    assert not mixed, f"run under make -n, and with them all the rest of the line: {mixed}"
