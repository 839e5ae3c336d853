"""A program run on a pseudo-terminal, read and answered like a person would.

The standard library's `pty` pair: the program's stdin, stdout and stderr
are the slave end (so `isatty()` is true and it colours its text), the test
reads the master end. `expect` waits for a pattern in what the program wrote
(colour codes stripped), `send` types a line.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import time
from collections.abc import Mapping, Sequence

ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Terminal:
    def __init__(self, argv: Sequence[str], env: Mapping[str, str]) -> None:
        master, slave = os.openpty()
        self.process = subprocess.Popen(
            list(argv), stdin=slave, stdout=slave, stderr=slave, env=dict(env), close_fds=True
        )
        os.close(slave)
        self._master = master
        self.raw = ""  # everything written, colour codes included
        self._unread = ""  # plain text not yet matched by expect

    def expect(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        """Wait for `pattern` in the plain text written since the last match."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            found = regex.search(self._unread)
            if found:
                self._unread = self._unread[found.end() :]
                return found
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(left):
                raise AssertionError(
                    f"no {pattern!r} within {timeout} s; the screen ends with:\n"
                    f"{self._unread[-2000:]}"
                )

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self._master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self._master, 65536).decode("utf-8", "replace")
        except OSError:  # EIO: the program has exited and closed its end
            return False
        if not chunk:
            return False
        self.raw += chunk
        self._unread += ANSI.sub("", chunk).replace("\r\n", "\n")
        return True

    def send(self, line: str) -> None:
        os.write(self._master, (line + "\n").encode())

    def wait(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self._read(0.1)
        return self.process.wait(timeout=max(0.0, deadline - time.monotonic()))

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self._master)
