"""Serve a Python bot as a BotService until SIGTERM or SIGINT.

    .venv/bin/python deploy/tournament/serve_bot.py [--bot heuristic] [--listen 127.0.0.1:0]

`--bot` is any spec of `croupier_client.bots.bot_factory` but host:port
(`heuristic`: each game's heuristic bot, `random`, `module:Class`). Once it
listens it prints `serving on HOST:PORT` (port 0 picks a free port, printed
there), as the Go `croupier-bot` does, so one harness starts either.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from croupier_client.bots import bot_factory
from croupier_client.bots.service import serve_bot

GRACE_SECONDS = 2.0  # calls in flight at SIGTERM get this long to finish


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bot", default="heuristic", help="the bot to serve (default heuristic)")
    p.add_argument("--listen", default="127.0.0.1:0", help="host:port (port 0: any free port)")
    p.add_argument("--threads", type=int, default=32, help="calls answered at once (default 32)")
    args = p.parse_args(argv)
    try:
        factory = bot_factory(args.bot)
    except ValueError as error:
        p.error(str(error))
    host = args.listen.rpartition(":")[0]
    # Caught before "serving on" is printed: a harness that stops the bot as
    # soon as it reads the line must find a graceful stop, not a process
    # killed by a signal not yet caught.
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    server = serve_bot(factory, args.listen, max_workers=args.threads)
    if not server.bound_port:  # type: ignore[attr-defined]
        print(f"serve_bot: cannot listen on {args.listen}", file=sys.stderr)
        return 1
    print(f"serving on {host}:{server.bound_port}", flush=True)  # type: ignore[attr-defined]
    stop.wait()
    server.stop(GRACE_SECONDS).wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
