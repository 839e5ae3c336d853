"""Golden playthroughs (OpenSpiel style): a seeded random match written out
move by move with a digest of the state after each one, and replayed by the
tests. Generate with `make golden`; never edit the files by hand. A change of
behaviour shows up as a failed replay: then bump the game's rules_version,
say why in its RULES.md history, and regenerate.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

from croupier.engine import api, registry
from croupier.v1 import game_pb2, service_pb2

HERE = Path(__file__).parent
# (game, preset, seats, seed) of every golden match.
MATCHES = (
    ("hundred_and_one", "hd", 3, 101),
    ("hundred_and_one", "cl", 4, 102),
    ("hundred_and_one", "ru", 5, 103),
    ("hundred_and_one", "alt", 6, 104),
)


def digest(state: game_pb2.GameState) -> str:
    return hashlib.sha256(state.SerializeToString(deterministic=True)).hexdigest()[:16]


def path_of(game: str, preset: str) -> Path:
    return HERE / f"{game}-{preset}.txt"


def new_game(game: str, preset: str, seats: int, seed: int) -> game_pb2.GameState:
    request = service_pb2.NewGameRequest(game=game, preset=preset, seat_count=seats, seed=seed)
    return api.new_game(request).state


def generate(game: str, preset: str, seats: int, seed: int) -> list[str]:
    """The lines of one golden file: a header, then `NEXT_DEAL` or
    `<seat> <notation>` with the digest of the state that follows."""
    rules_version = registry.find(game).rules_version  # type: ignore[union-attr]
    state = new_game(game, preset, seats, seed)
    lines = [f"# {game} rules_version={rules_version} preset={preset} seats={seats} seed={seed}"]
    lines.append(f"START {digest(state)}")
    rnd = random.Random(seed)
    while state.match.phase != game_pb2.MATCH_PHASE_MATCH_OVER:
        if state.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
            lines.append(f"NEXT_DEAL {digest(state)}")
            continue
        request = service_pb2.ListLegalMovesRequest(state=state, seat=state.current_seat)
        legal = rnd.choice(api.list_legal_moves(request).moves)
        state = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=legal.move)).state
        lines.append(f"{legal.move.seat} {legal.notation} {digest(state)}")
    lines.append(f"WINNERS {' '.join(map(str, state.match.winners))}")
    return lines


def main() -> None:
    for game, preset, seats, seed in MATCHES:
        lines = generate(game, preset, seats, seed)
        path_of(game, preset).write_text("\n".join(lines) + "\n")
        print(f"wrote {path_of(game, preset).name}: {len(lines)} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
