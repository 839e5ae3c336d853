"""The load-test suite: one ghz run per RPC (per game where requests hold a state).

Each `Case` names the RPC, its data and how many moves one call carries; `ghz_args`
turns it into a ghz command line for a server with N workers. The load shape
follows DESIGN.md's performance model: the kernel balances connections, not
calls, across SO_REUSEPORT workers, so every run opens several connections
per worker, and enough concurrent calls to keep every worker busy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SERVICE = "croupier.v1.CroupierService"
HEALTH = "grpc.health.v1.Health/Check"
BASELINE = "Health/Check"

# Load shape; see README.md for how these were chosen.
CONNECTIONS_PER_WORKER = 4
# A batch call is milliseconds of work: a few in flight per connection keep a
# worker busy, as a harness would; 16 large calls at once only add queueing.
CONCURRENCY_PER_WORKER = {"unary": 16, "batch": 4, "stream": 4}
# Messages sent on each ApplyMoveStream call before the client closes it: long
# enough that opening the stream is a small part of its cost, short enough that
# a run of a few seconds completes many streams.
STREAM_MESSAGES = 256


@dataclass(frozen=True)
class Case:
    """One ghz run of the suite."""

    rpc: str  # method name, e.g. "ApplyMove", or BASELINE
    game: str  # "" for RPCs whose requests hold no game
    data: tuple[str, ...]  # ghz data flags
    moves_per_call: int = 0  # 0 for RPCs that play no move
    stream: bool = False
    variant: str = ""  # what sets this case apart from the RPC's usual one, e.g. "JSON data"
    web: bool = False  # over the browser port (Connect unary, webload), not gRPC (ghz)

    @property
    def label(self) -> str:
        where = ", ".join(part for part in (self.game, self.variant) if part)
        return f"{self.rpc} [{where}]" if where else self.rpc

    @property
    def slug(self) -> str:
        """File-name form: ApplyMove-hundred_and_one, Health-Check,
        ApplyMove-hundred_and_one-Connect-web-port."""
        variant = self.variant.replace(", ", "-").replace(" ", "-")
        return "-".join(part for part in (self.rpc.replace("/", "-"), self.game, variant) if part)

    @property
    def method(self) -> str:
        return HEALTH if self.rpc == BASELINE else f"{SERVICE}/{self.rpc}"


def cases(manifest: dict, data_dir: Path, available: dict[str, str]) -> list[Case]:
    """Every case of the suite for the games in `manifest`; RPCs whose
    `available` entry is a reason (not "") are left out."""
    suite = [
        Case(BASELINE, "", ("--data", "{}")),
        Case("ListGames", "", ("--data", "{}")),
    ]
    for game, entry in manifest["games"].items():
        files = entry["files"]

        def binary(rpc: str, files: dict = files) -> tuple[str, ...]:
            return ("--binary-file", str(data_dir / files[rpc]["path"]))

        suite.append(Case("ApplyMove", game, binary("ApplyMove"), moves_per_call=1))
        if "ApplyMoveCrowded" in files:
            # Issue 8's serving goal: Scala 40 at 6 seats with a crowded table.
            suite.append(
                Case(
                    "ApplyMove",
                    game,
                    binary("ApplyMoveCrowded"),
                    moves_per_call=1,
                    variant=CROWDED,
                )
            )
        if "ApplyMoveSealed" in files and not available.get(SEALED_STATES):
            # Issue 12: the same positions sealed; the server skips re-validation.
            suite.append(
                Case("ApplyMove", game, binary("ApplyMoveSealed"), moves_per_call=1, variant=SEALED)
            )
        if not available.get(WEB_PORT):
            # The browser port: the same ApplyMove positions over Connect.
            suite.append(
                Case(
                    "ApplyMove",
                    game,
                    binary("ApplyMove"),
                    moves_per_call=1,
                    variant=WEB,
                    web=True,
                )
            )
        suite += [
            # One call per move: the answer carries the next legal moves, so a
            # harness needs no ListLegalMoves (the two-call path) after it.
            Case("ApplyMove", game, binary("ApplyMoveNext"), moves_per_call=1, variant=ONE_CALL),
            Case("ListLegalMoves", game, binary("ListLegalMoves")),
            Case("GetView", game, binary("GetView")),
            Case("NextDeal", game, binary("NextDeal")),
            Case("NewGame", game, binary("NewGame")),
        ]
        if not available.get("ApplyMoveBatch"):
            per_call = files["ApplyMoveBatch"]["moves_per_message"]
            suite.append(
                Case("ApplyMoveBatch", game, binary("ApplyMoveBatch"), moves_per_call=per_call)
            )
        if not available.get("ApplyMoveStream"):
            suite.append(
                Case(
                    "ApplyMoveStream",
                    game,
                    (*binary("ApplyMoveStream"), "--stream-call-count", str(STREAM_MESSAGES)),
                    moves_per_call=STREAM_MESSAGES,
                    stream=True,
                )
            )
    return suite


def only(cases: list[Case], rpcs: Sequence[str]) -> list[Case]:
    """The cases of the RPCs named in `rpcs` (every game's, every variant),
    and always the Health/Check baseline, which every ratio is taken against:
    e.g. `only(cases, ["ApplyMove"])` re-measures goal (a) in a few minutes."""
    return [c for c in cases if c.rpc == BASELINE or c.rpc in rpcs]


# The variant of ApplyMove that asks for the next legal moves (ApplyMoveNext data).
ONE_CALL = "next legal moves"
# The variant of ApplyMove on crowded 6-seat Scala 40 deals (ApplyMoveCrowded data).
CROWDED = "6 seats, crowded table"
# The variant of ApplyMove on sealed states (ApplyMoveSealed data), and the
# `available` entry that says why a server cannot run it (no --seal-keys).
SEALED = "sealed state"
SEALED_STATES = "sealed states"
# The variant of ApplyMove over the browser port (`croupier serve --web`):
# Connect unary calls over HTTP/1.1, sent by webload; and the `available`
# entry that says why it cannot run (no --web flag, no Go to build webload).
WEB = "Connect, web port"
WEB_PORT = "web port (Connect)"

# Cases measured twice, first and last in the pass: the goals rest on them, so
# they get twice the time, and the spread of the two runs shows the noise.
REPEATED = (BASELINE, "ApplyMove")
REPEATED_VARIANTS = ("", CROWDED, SEALED, WEB)


def schedule(cases: list[Case]) -> list[tuple[Case, int]]:
    """The order of the runs of a pass, as (case, repeat number): the baseline
    and ApplyMove (every game's, on sealed states and over the web port too,
    and Scala 40's crowded table) open and close
    it (in mirrored order), the rest in between."""
    first = [c for c in cases if c.rpc in REPEATED and c.variant in REPEATED_VARIANTS]
    rest = [c for c in cases if c not in first]
    return [(c, 1) for c in first] + [(c, 1) for c in rest] + [(c, 2) for c in reversed(first)]


def json_case(manifest: dict, data_dir: Path, game: str) -> Case:
    """ApplyMove fed from JSON (`--data-file`) instead of binary, to compare
    what each data path costs the client."""
    path = data_dir / manifest["games"][game]["files"]["ApplyMove"]["json_path"]
    return Case(
        "ApplyMove", game, ("--data-file", str(path)), moves_per_call=1, variant="JSON data"
    )


def ghz_args(case: Case, target: str, protoset: Path, workers: int, seconds: float) -> list[str]:
    """The ghz command line (without the binary) of one timed run."""
    kind = "stream" if case.stream else "batch" if case.moves_per_call > 1 else "unary"
    connections = CONNECTIONS_PER_WORKER * workers
    # ghz splits the concurrency evenly over connections: keep it a multiple.
    concurrency = max(CONCURRENCY_PER_WORKER[kind] * workers, connections)
    return [
        "--insecure",
        "--protoset",
        str(protoset),
        "--call",
        case.method,
        *case.data,
        *_load_args(case, connections, concurrency, seconds),
        target,
    ]


def _load_args(case: Case, connections: int, concurrency: int, seconds: float) -> list[str]:
    """The flags ghz and webload share: the load, the run's length, its name."""
    return [
        "--connections",
        str(connections),
        "--concurrency",
        str(concurrency),
        "--duration",
        f"{seconds:g}s",
        # Calls in flight at the end complete and count: closing them instead
        # would turn a clean run into errors.
        "--duration-stop",
        "wait",
        "--timeout",
        "20s",
        "--name",
        case.label,
    ]


def webload_args(case: Case, url: str, workers: int, seconds: float) -> list[str]:
    """The webload command line (without the binary) of one timed run of a
    web case against the browser port at `url` (http://host:port).

    The unary cases' load: 16 calls in flight per worker. HTTP/1.1 carries one
    call at a time per connection, so that is 16 keep-alive connections per
    worker, each with its own webload worker (connections = concurrency); the
    kernel balances them over the SO_REUSEPORT workers, as it does ghz's."""
    in_flight = CONCURRENCY_PER_WORKER["unary"] * workers
    return [
        "--binary-file",
        case.data[-1],
        *_load_args(case, in_flight, in_flight, seconds),
        f"{url}/{case.method}",
    ]
