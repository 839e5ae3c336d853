"""Generate the load-test requests of every RPC for every game, from seeded playouts.

    python deploy/loadtest/make_data.py [--seed N] [--out DIR]   # write the data
    python deploy/loadtest/make_data.py --check [--out DIR]      # verify written data

For each game in the registry (`api.list_games`) the playouts of `positions.py`
visit every preset at several seat counts, and the positions they meet become:
ApplyMove (the state and the move the playout played there), ApplyMoveNext
(the same with `next_legal_moves`: the one-call-per-move path a harness
takes), ListLegalMoves (the seat that moved there: with ApplyMove, the
two-call path), GetView (a random seat), NextDeal (states whose deal is
over), NewGame (every table shape, many seeds), ApplyMoveBatch (the ApplyMove
requests in groups) and ApplyMoveStream (one message per ApplyMove request).
A new game gets its data without any change here. Scala 40 also gets
ApplyMoveCrowded: ApplyMove on 6-seat deals with a crowded table and big hands
(`positions.crowded_positions`; issue 8's serving goal is about them).
ApplyMoveSealed is ApplyMove with every state sealed (issue 12): the server
of the load test holds the same key (`seal-keys`, written beside the data).

Files are what ghz reads with `--binary-file`: the messages serialized
(deterministically) and concatenated, each preceded by its length as a varint
(ghz's "count-delimited" format; it round-robins over them for unary calls
and sends them in turn on a stream). ApplyMove is also written as JSON, the
`--data-file` form, for comparing the two (see README.md). `manifest.json`
lists every file with its message count and a checksum; the same seed gives
byte-identical files.

`--check` (and `check_dir`, `check_game`, callable from a test) reads the
requests back and replays them through the engine: every ApplyMove, batch
item and stream item must be accepted (ApplyMoveNext with the legal moves of every next
acting seat), every other request must succeed.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message
from positions import (
    CROWDED_GAME,
    DEAL_OVER,
    IN_PROGRESS,
    Position,
    TablePositions,
    crowded_positions,
    interleave,
    is_crowded,
    mean_hand,
    play_table,
    table_jokers,
    tables,
)

from croupier.engine import api
from croupier.service.sealing import Keyring
from croupier.v1 import options_pb2, service_pb2

DEFAULT_SEED = 101
DEFAULT_OUT = Path(__file__).resolve().parent / "data"
# Enough distinct requests that ghz's round-robin spreads over every table shape
# many times, few enough that generation takes seconds.
DEFAULT_POOL = 1024
# A harness's round over many tables: 128 items amortise the call's fixed cost
# (~0.6 ms of server CPU) to a few µs a move, the point of the batch RPC.
DEFAULT_BATCH_SIZE = 128
NEXT_DEAL_STATES = 64
NEW_GAME_SEEDS_PER_TABLE = 8
# Crowded Scala 40 positions: one per 8 of the pool (128 by default), at least 16.
CROWDED_SHARE, MIN_CROWDED = 8, 16

# The sealing key of the load data (ApplyMoveSealed) and of the server under
# test: fixed, so that the data is reproducible (the nonces are derived from
# the seed too). A key for load data only: a server's keys are random.
LOAD_KEY_ID = "loadtest"
LOAD_KEY = hashlib.sha256(b"croupier load-test sealing key").digest()
SEAL_KEYS_FILE = "seal-keys"


def load_keyring() -> Keyring:
    return Keyring({LOAD_KEY_ID: LOAD_KEY}, LOAD_KEY_ID)


def seal_keys_text() -> str:
    """The key file of the server under test (`croupier serve --seal-keys`)."""
    encoded = base64.b64encode(LOAD_KEY).decode()
    return f"# load test only (make_data.py)\nseal {LOAD_KEY_ID} {encoded}\n"


# The request type of each RPC whose data is generated per game.
REQUEST_TYPES: dict[str, type[Message]] = {
    "ApplyMove": service_pb2.ApplyMoveRequest,
    "ApplyMoveCrowded": service_pb2.ApplyMoveRequest,  # Scala 40 only
    "ApplyMoveNext": service_pb2.ApplyMoveRequest,
    "ApplyMoveSealed": service_pb2.ApplyMoveRequest,
    "ListLegalMoves": service_pb2.ListLegalMovesRequest,
    "GetView": service_pb2.GetViewRequest,
    "NextDeal": service_pb2.NextDealRequest,
    "NewGame": service_pb2.NewGameRequest,
    "ApplyMoveBatch": service_pb2.ApplyMoveBatchRequest,
    "ApplyMoveStream": service_pb2.ApplyMoveStreamRequest,
}


@dataclass
class GameData:
    """The generated requests of one game, by RPC name, and how they were made."""

    game: str
    requests: dict[str, list[Message]] = field(default_factory=dict)
    tables: list[str] = field(default_factory=list)
    matches: int = 0
    moves: int = 0
    crowded: dict[str, Any] = field(default_factory=dict)  # describe_crowded, Scala 40 only


def build(
    seed: int = DEFAULT_SEED,
    pool: int = DEFAULT_POOL,
    batch_size: int = DEFAULT_BATCH_SIZE,
    next_deals: int = NEXT_DEAL_STATES,
) -> list[GameData]:
    """The requests of every registered game, from playouts seeded by `seed`."""
    games = api.list_games(service_pb2.ListGamesRequest()).games
    return [build_game(game, seed, pool, batch_size, next_deals) for game in games]


def build_game(
    game: options_pb2.GameDescriptor,
    seed: int,
    pool: int,
    batch_size: int,
    next_deals: int = NEXT_DEAL_STATES,
) -> GameData:
    """The requests of one game: `pool` ApplyMove positions spread evenly over
    its table shapes, and every other RPC's requests derived from them, with
    up to `next_deals` finished deals for NextDeal (collecting them plays
    whole deals: most of a build's time in games with long deals)."""
    shapes = tables(game)
    per_table = -(-pool // len(shapes))  # ceil: every shape gets its share
    deals_per_table = -(-next_deals // len(shapes))
    played = [play_table(t, seed, per_table, deals_per_table) for t in shapes]
    rng = random.Random(f"{seed}/{game.name}/requests")
    # Interleave the table shapes, so that any run of consecutive requests
    # (what ghz sends in a short window) mixes presets and seat counts.
    positions = interleave([p.positions for p in played])[:pool]
    rng.shuffle(positions)
    applies = [service_pb2.ApplyMoveRequest(state=p.state, move=p.move) for p in positions]

    data = GameData(game.name, tables=[p.table.label for p in played])
    data.matches = sum(p.matches for p in played)
    data.moves = sum(p.moves for p in played)
    data.requests["ApplyMove"] = list(applies)
    data.requests["ApplyMoveSealed"] = [
        sealed_request(a, f"{game.name}-{i}", seed) for i, a in enumerate(applies)
    ]
    data.requests["ApplyMoveNext"] = [
        service_pb2.ApplyMoveRequest(state=p.state, move=p.move, next_legal_moves=True)
        for p in positions
    ]
    data.requests["ListLegalMoves"] = [
        service_pb2.ListLegalMovesRequest(state=p.state, seat=p.move.seat) for p in positions
    ]
    data.requests["GetView"] = [
        service_pb2.GetViewRequest(state=p.state, seat=rng.randrange(len(p.state.seats)))
        for p in positions
    ]
    next_deal_requests: list[Message] = [
        service_pb2.NextDealRequest(state=s) for s in interleave(_deals_over(played))
    ]
    data.requests["NextDeal"] = next_deal_requests[:next_deals]
    data.requests["NewGame"] = [
        service_pb2.NewGameRequest(
            game=t.game, preset=t.preset, seat_count=t.seats, seed=rng.getrandbits(63)
        )
        for _ in range(NEW_GAME_SEEDS_PER_TABLE)
        for t in (p.table for p in played)
    ]
    # A batch is a harness's round: independent tables, one move each.
    batch_items = list(applies)
    rng.shuffle(batch_items)
    data.requests["ApplyMoveBatch"] = [
        service_pb2.ApplyMoveBatchRequest(items=batch_items[i : i + batch_size])
        for i in range(0, len(batch_items) - batch_size + 1, batch_size)
    ]
    data.requests["ApplyMoveStream"] = [service_pb2.ApplyMoveStreamRequest(item=a) for a in applies]
    if game.name == CROWDED_GAME:
        crowded = crowded_positions(
            [p.name for p in game.presets], seed, max(MIN_CROWDED, pool // CROWDED_SHARE)
        )
        data.requests["ApplyMoveCrowded"] = [
            service_pb2.ApplyMoveRequest(state=p.state, move=p.move) for p in crowded
        ]
        data.crowded = describe_crowded(crowded)
    return data


def sealed_request(
    plain: service_pb2.ApplyMoveRequest, match_id: str, seed: int
) -> service_pb2.ApplyMoveRequest:
    """`plain` with its state sealed under the load key for `match_id`, as a
    server would have answered it (a nonce derived from the seed and match id,
    so that the files are reproducible).

    ghz runs its data through Go's text/template when it holds "{{", binary
    data too, and fails on what random bytes then hold: the nonce is drawn
    again until the request's bytes (with their length prefix) hold no "{{"
    and do not end with "{" (about one blob in 30 of the largest states)."""
    keyring = load_keyring()
    state = plain.state.SerializeToString()
    for attempt in range(1000):
        nonce = hashlib.sha256(f"{seed}/{match_id}/{attempt}".encode()).digest()[:12]
        request = service_pb2.ApplyMoveRequest(move=plain.move)
        request.sealed_state.match_id = match_id
        request.sealed_state.blob = keyring.seal(state, match_id, nonce=nonce)
        framed = encode_delimited([request])
        if b"{{" not in framed and not framed.endswith(b"{"):
            return request
    raise AssertionError("no nonce gave ghz-safe bytes in 1000 attempts")


def describe_crowded(positions: Sequence[Position]) -> dict[str, Any]:
    """What the crowded positions hold (for the report): melds and jokers on
    the table, cards per hand, state size, and the kinds of moves played."""
    states = [p.state for p in positions]
    if not states:
        return {"positions": 0}
    melds = [len(s.scala40.melds) for s in states]
    jokers = [table_jokers(s) for s in states]
    hands = [mean_hand(s) for s in states]
    sizes = [s.ByteSize() for s in states]

    def spread(values: list[int] | list[float]) -> list[float]:
        return [round(min(values), 1), round(sum(values) / len(values), 1), round(max(values), 1)]

    kinds: dict[str, int] = {}
    for p in positions:
        kind = p.move.scala40.WhichOneof("action") or "?"
        kinds[kind] = kinds.get(kind, 0) + 1
    return {
        "positions": len(states),
        "seats": sorted({len(s.seats) for s in states}),
        "presets": sorted({p.table.preset for p in positions}),
        "melds": spread(melds),
        "table_jokers": spread(jokers),
        "mean_hand": spread(hands),
        "state_bytes": spread(sizes),
        "moves": dict(sorted(kinds.items())),
    }


def _deals_over(played: list[TablePositions]) -> list[list]:
    return [p.deals_over for p in played]


# --- files --------------------------------------------------------------------


def encode_delimited(messages: Iterable[Message]) -> bytes:
    """Messages as ghz's --binary-file reads several: varint length, bytes, ..."""
    out = bytearray()
    for message in messages:
        body = message.SerializeToString(deterministic=True)
        out += _varint(len(body))
        out += body
    return bytes(out)


def decode_delimited(data: bytes, message_type: type[Message]) -> Iterator[Message]:
    """The messages of `encode_delimited`, in order."""
    pos = 0
    while pos < len(data):
        size, pos = _read_varint(data, pos)
        message = message_type()
        message.ParseFromString(data[pos : pos + size])
        pos += size
        yield message


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


def write(games: list[GameData], out: Path, seed: int) -> dict:
    """Write every game's files under `out/<game>/` and `out/manifest.json`;
    returns the manifest."""
    manifest: dict = {"seed": seed, "format": "varint-delimited protobuf", "games": {}}
    for data in games:
        game_dir = out / data.game
        game_dir.mkdir(parents=True, exist_ok=True)
        files = {}
        for rpc, requests in data.requests.items():
            body = encode_delimited(requests)
            path = game_dir / f"{rpc}.bin"
            path.write_bytes(body)
            files[rpc] = {
                "path": str(path.relative_to(out)),
                "messages": len(requests),
                "moves_per_message": _moves_per_message(requests),
                "bytes": len(body),
                "sha256": hashlib.sha256(body).hexdigest(),
            }
        # The JSON form of ApplyMove, for comparing ghz's two data paths.
        json_path = game_dir / "ApplyMove.json"
        json_path.write_text(
            json.dumps([json_format.MessageToDict(r) for r in data.requests["ApplyMove"]])
        )
        files["ApplyMove"]["json_path"] = str(json_path.relative_to(out))
        manifest["games"][data.game] = {
            "tables": data.tables,
            "playout_matches": data.matches,
            "playout_moves": data.moves,
            "files": files,
        }
        if data.crowded:
            manifest["games"][data.game]["crowded"] = data.crowded
    (out / SEAL_KEYS_FILE).write_text(seal_keys_text())
    manifest["seal_keys"] = SEAL_KEYS_FILE
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def _moves_per_message(requests: list[Message]) -> int:
    first = requests[0] if requests else None
    if isinstance(first, service_pb2.ApplyMoveBatchRequest):
        return len(first.items)
    return 1


def read_game(out: Path, game: str) -> dict[str, list[Message]]:
    """The requests of one game as written by `write`, by RPC name (the RPCs
    every game has, and ApplyMoveCrowded where it was written)."""
    requests: dict[str, list[Message]] = {}
    for rpc, message_type in REQUEST_TYPES.items():
        path = out / game / f"{rpc}.bin"
        if rpc == "ApplyMoveCrowded" and not path.exists():
            continue
        requests[rpc] = list(decode_delimited(path.read_bytes(), message_type))
    return requests


# --- check --------------------------------------------------------------------


def check_game(requests: Mapping[str, Sequence[Any]]) -> list[str]:
    """Replay one game's requests through the engine; returns the problems
    (empty when every request is what the load test means it to be)."""
    problems: list[str] = []

    def fail(rpc: str, i: int, what: str) -> None:
        problems.append(f"{rpc}[{i}]: {what}")

    for rpc, items in requests.items():
        if not items:
            problems.append(f"{rpc}: no requests")
    for i, r in enumerate(requests.get("ApplyMove", [])):
        _check_apply(r, lambda what, i=i: fail("ApplyMove", i, what))
    for i, r in enumerate(requests.get("ApplyMoveCrowded", [])):
        if not is_crowded(r.state):
            fail("ApplyMoveCrowded", i, "not a crowded 6-seat Scala 40 deal in progress")
        _check_apply(r, lambda what, i=i: fail("ApplyMoveCrowded", i, what))
    keyring = load_keyring()
    for i, r in enumerate(requests.get("ApplyMoveSealed", [])):
        # Opened here and checked in the clear, with full validation.
        try:
            state = keyring.open(r.sealed_state.blob, r.sealed_state.match_id)
        except Exception as error:  # noqa: BLE001 - a finding
            fail("ApplyMoveSealed", i, f"does not open: {error}")
            continue
        opened = service_pb2.ApplyMoveRequest(move=r.move)
        opened.state.ParseFromString(state)
        _check_apply(opened, lambda what, i=i: fail("ApplyMoveSealed", i, what))
    for i, r in enumerate(requests.get("ApplyMoveNext", [])):
        if not r.next_legal_moves:
            fail("ApplyMoveNext", i, "does not ask for the next legal moves")
        _check_apply(r, lambda what, i=i: fail("ApplyMoveNext", i, what))
    for i, batch in enumerate(requests.get("ApplyMoveBatch", [])):
        for j, r in enumerate(batch.items):
            _check_apply(r, lambda what, i=i, j=j: fail("ApplyMoveBatch", i, f"item {j}: {what}"))
    for i, s in enumerate(requests.get("ApplyMoveStream", [])):
        _check_apply(s.item, lambda what, i=i: fail("ApplyMoveStream", i, what))
    for i, r in enumerate(requests.get("ListLegalMoves", [])):
        if r.state.match.phase != IN_PROGRESS:
            fail("ListLegalMoves", i, "not a deal in progress")
        else:
            answer = _call(api.list_legal_moves, r, lambda w, i=i: fail("ListLegalMoves", i, w))
            if answer is not None and not answer.moves:
                fail("ListLegalMoves", i, "no legal move for the seat that moved")
    for i, r in enumerate(requests.get("GetView", [])):
        _call(api.get_view, r, lambda w, i=i: fail("GetView", i, w))
    for i, r in enumerate(requests.get("NextDeal", [])):
        if r.state.match.phase != DEAL_OVER:
            fail("NextDeal", i, "the deal is not over")
        else:
            _call(api.next_deal, r, lambda w, i=i: fail("NextDeal", i, w))
    for i, r in enumerate(requests.get("NewGame", [])):
        _call(api.new_game, r, lambda w, i=i: fail("NewGame", i, w))
    return problems


def _check_apply(request: service_pb2.ApplyMoveRequest, fail) -> None:
    if request.state.match.phase != IN_PROGRESS:
        fail("not a deal in progress")
        return
    answer = _call(api.apply_move, request, fail)
    if answer is None:
        return
    if not answer.accepted:
        fail(f"rejected: {answer.rejection.message}")
    elif request.next_legal_moves:
        listed = [entry.seat for entry in answer.next_legal_moves]
        if listed != list(answer.state.acting_seats):
            fail(f"next legal moves for seats {listed}, acting {list(answer.state.acting_seats)}")


def _call(function, request, fail):
    """`function(request)`, reporting an exception through `fail` (None then)."""
    try:
        return function(request)
    except Exception as error:  # noqa: BLE001 - any failure is a finding here
        fail(f"{type(error).__name__}: {error}")
        return None


def check_dir(out: Path = DEFAULT_OUT) -> list[str]:
    """Check every game listed in `out/manifest.json`; returns the problems."""
    manifest = json.loads((out / "manifest.json").read_text())
    problems = []
    known = {g.name for g in api.list_games(service_pb2.ListGamesRequest()).games}
    for game in sorted(known - set(manifest["games"])):
        problems.append(f"{game}: registered but has no load-test data (regenerate)")
    for game in manifest["games"]:
        problems += [f"{game}: {p}" for p in check_game(read_game(out, game))]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="playout seed")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    parser.add_argument("--pool", type=int, default=DEFAULT_POOL, help="ApplyMove requests")
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE)
    parser.add_argument("--check", action="store_true", help="verify the data in --out")
    args = parser.parse_args(argv)
    if args.check:
        problems = check_dir(args.out)
        for problem in problems:
            print(problem, file=sys.stderr)
        print(f"make_data --check: {len(problems)} problem(s) in {args.out}")
        return 1 if problems else 0
    manifest = write(build(args.seed, args.pool, args.batch_size), args.out, args.seed)
    for game, entry in manifest["games"].items():
        counts = ", ".join(f"{rpc} {f['messages']}" for rpc, f in entry["files"].items())
        print(
            f"{game}: {len(entry['tables'])} tables, {entry['playout_matches']} matches, "
            f"{entry['playout_moves']} moves -> {counts}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
