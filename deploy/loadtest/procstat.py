"""CPU time of a process tree, read from /proc (Linux only).

The server is a supervisor with worker processes; its cost is the CPU time of
all of them. `tree_cpu_seconds(root)` sums user + system time of `root` and
every descendant (found by walking /proc/*/stat for parent pids), plus the
children's time the kernel has already folded into their parents when they
were reaped (cutime + cstime), so that a worker restarted mid-run still counts.
Callers take the difference of two readings around a load run.
"""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")

# Field numbers of /proc/<pid>/stat as proc(5) counts them (pid is 1).
_PPID, _UTIME, _STIME, _CUTIME, _CSTIME, _STARTTIME = 4, 14, 15, 16, 17, 22


def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None  # the process ended between listing and reading
    # The command name (field 2) may hold spaces and parentheses: split after
    # its closing ")", where field 3 starts, and pad so that index == number.
    return ["", "", ""] + text[text.rindex(")") + 2 :].split()


def _children_by_parent() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(int(entry.name))
        if fields is not None:
            children.setdefault(int(fields[_PPID]), []).append(int(entry.name))
    return children


def tree_pids(root: int) -> list[int]:
    """`root` and all its descendants that are alive now."""
    children = _children_by_parent()
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        todo.extend(children.get(pid, []))
    return pids


def tree_cpu_seconds(root: int) -> float:
    """User + system CPU seconds used so far by `root`'s process tree."""
    ticks = 0
    for pid in tree_pids(root):
        fields = _stat_fields(pid)
        if fields is None:
            continue
        ticks += sum(int(fields[i]) for i in (_UTIME, _STIME, _CUTIME, _CSTIME))
    return ticks / TICKS_PER_SECOND


def identity(pid: int) -> tuple[int, int] | None:
    """(pid, start time): unlike a bare pid, never names a later process that
    reused the number. None when the process is gone."""
    fields = _stat_fields(pid)
    return None if fields is None else (pid, int(fields[_STARTTIME]))
