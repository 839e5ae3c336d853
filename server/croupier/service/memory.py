"""Memory a worker freed goes back to the system (issue 7, item 5; fuzz F4).

Without this, a worker that had answered large requests stayed tens of MB
above its size before them, with nothing of them left alive: glibc's malloc
kept what they had freed. Its mmap threshold is dynamic: once a large block
that had its own mapping is freed, blocks up to that size (up to 32 MiB) are
carved from the heaps instead, and a heap gives memory back only from its top,
above the last block still in use. Request bytes, a request's protobuf arena
and the lists read from it are such blocks (up to the 4 MiB message limit),
so every large request raised the high-water mark of the heap it went to, and
grpc's threads each had a heap (an arena) of their own. Measured over 10,000
live fuzz inputs from 48.8 MB: 76.2 MB without these settings (malloc holding
23 MB free), 59.0 MB with them (3.5 MB free; the rest is live: bounded caches).

What those settings leave is fragmentation: free chunks between live ones,
which a heap cannot give back from its top. malloc_trim(0) returns the free
pages anywhere in the heaps (glibc madvises them away), so a worker calls it
every TRIM_EVERY seconds (`trim_forever`); it takes about a millisecond.

So a worker fixes the threshold (blocks from 128 KiB always get their own
mapping, returned when freed), trims a heap's free top from 128 KiB, and uses
at most two arenas. Set with mallopt(3) at the worker's start rather than by
MALLOC_* environment variables, which glibc reads only when a process starts
(workers are forked). A C library without mallopt (not glibc) is left alone.
"""

from __future__ import annotations

import asyncio
import ctypes
import sys

# mallopt(3) parameters (malloc.h) and the values set.
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
SETTINGS = (
    (M_MMAP_THRESHOLD, 128 * 1024),  # glibc's default, made fixed (not dynamic)
    (M_TRIM_THRESHOLD, 128 * 1024),  # the default too, no longer raised with it
    (M_ARENA_MAX, 2),
)


def return_freed_memory() -> bool:
    """Set SETTINGS in this process; whether the C library took them all."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # mallopt answers 1 when it took a setting (musl's stub answers 0).
    return all([mallopt(parameter, value) == 1 for parameter, value in SETTINGS])


TRIM_EVERY = 10.0  # seconds between two malloc_trim(0) calls of a worker


def trim() -> bool:
    """malloc_trim(0): give the free pages of every heap back; whether any were."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        malloc_trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False
    malloc_trim.argtypes = (ctypes.c_size_t,)
    malloc_trim.restype = ctypes.c_int
    return bool(malloc_trim(0))


async def trim_forever(every: float = TRIM_EVERY) -> None:
    """`trim` every `every` seconds, for as long as the worker runs."""
    while True:
        await asyncio.sleep(every)
        trim()
