"""`croupier` with a free engine, for floor.py only: never a server to use.

    python deploy/loadtest/free_engine.py serve ...   (croupier's own arguments)

Runs croupier's command line with `engine.api.apply_move` memoized: the first
call of each request computes its answer, and every later call of the same
request gets a copy of it. Everything else a call costs (grpc, the handler,
the observation, sealing, the answer's serialization) stays as it is, so a
server run this way shows what ApplyMove would cost with an engine that costs
nothing. The key (the request's serialization) and the copy (the sealed path
moves the answer's state into its blob) are the memo's own cost, so the floor
it measures is a little low, never high. Workers are forked from this
process (service/supervisor.py) and keep the memo.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from croupier import cli
from croupier.engine import api

ApplyMove = Callable[..., Any]


def memoized(apply_move: ApplyMove) -> ApplyMove:
    """`apply_move` answering each request after its first from a copy of
    the first answer; a batch item (`into` given) is computed as usual."""
    answers: dict[tuple[bool, bytes], Any] = {}

    def apply(request: Any, into: Any = None, *, trusted: bool = False) -> Any:
        if into is not None:
            return apply_move(request, into, trusted=trusted)
        key = (trusted, request.SerializeToString())
        answer = answers.get(key)
        if answer is None:
            answer = answers[key] = apply_move(request, trusted=trusted)
        copy = type(answer)()
        copy.CopyFrom(answer)
        return copy

    return apply


def main(argv: list[str]) -> int:
    api.apply_move = memoized(api.apply_move)  # the handlers look it up per call
    return int(cli.main(argv) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
