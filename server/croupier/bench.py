"""In-process benchmark: random playouts through the engine's front door.

`make bench` prints, for each 101 preset, the playout throughput (moves/s and
matches/s, counting ListLegalMoves + ApplyMove per move, as a bot harness
does) and the per-call engine cost of ApplyMove, ListLegalMoves and GetView
on mid-game states — the engine's share of an RPC. Figures are from one run on
this machine; compare them as ratios, never as absolute promises.
"""

from __future__ import annotations

import argparse
import random
import time

from croupier.engine import api
from croupier.v1 import game_pb2, service_pb2

PRESETS = (("hd", 4), ("cl", 4), ("ru", 5), ("alt", 8))


def play_match(preset: str, seats: int, seed: int, midgame: list[game_pb2.GameState]) -> int:
    """Play one match with uniformly random legal moves; returns its move count."""
    rnd = random.Random(seed)
    state = api.new_game(
        service_pb2.NewGameRequest(
            game="hundred_and_one", preset=preset, seat_count=seats, seed=seed
        )
    ).state
    moves = 0
    while state.match.phase != game_pb2.MATCH_PHASE_MATCH_OVER:
        if state.match.phase == game_pb2.MATCH_PHASE_DEAL_OVER:
            state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
            continue
        legal = api.list_legal_moves(
            service_pb2.ListLegalMovesRequest(state=state, seat=state.current_seat)
        ).moves
        move = rnd.choice(legal).move
        state = api.apply_move(service_pb2.ApplyMoveRequest(state=state, move=move)).state
        moves += 1
        in_play = state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
        if in_play and moves % 17 == 0 and len(midgame) < 200:
            midgame.append(state)
    return moves


def per_call_us(states: list[game_pb2.GameState], repeat: int) -> dict[str, float]:
    """Mean µs per engine call over the given mid-game states."""
    requests = []
    for state in states:
        legal = api.list_legal_moves(
            service_pb2.ListLegalMovesRequest(state=state, seat=state.current_seat)
        ).moves
        requests.append((state, legal[0].move))
    timings = {}
    calls = {
        "ApplyMove": lambda s, m: api.apply_move(service_pb2.ApplyMoveRequest(state=s, move=m)),
        "ListLegalMoves": lambda s, m: api.list_legal_moves(
            service_pb2.ListLegalMovesRequest(state=s, seat=s.current_seat)
        ),
        "GetView": lambda s, m: api.get_view(service_pb2.GetViewRequest(state=s, seat=m.seat)),
    }
    for name, call in calls.items():
        start = time.perf_counter()
        for _ in range(repeat):
            for state, move in requests:
                call(state, move)
        timings[name] = (time.perf_counter() - start) / (repeat * len(requests)) * 1e6
    return timings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per preset")
    args = parser.parse_args(argv)
    print(f"{'preset':8} {'seats':>5} {'matches':>8} {'moves':>8} {'moves/s':>9} "
          f"{'matches/s':>9} {'Apply µs':>9} {'Legal µs':>9} {'View µs':>9}")  # fmt: skip
    for preset, seats in PRESETS:
        midgame: list[game_pb2.GameState] = []
        matches = moves = 0
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            moves += play_match(preset, seats, seed=matches, midgame=midgame)
            matches += 1
        elapsed = time.perf_counter() - start
        cost = per_call_us(midgame[:100], repeat=5)
        print(
            f"{preset:8} {seats:>5} {matches:>8} {moves:>8} {moves / elapsed:>9.0f} "
            f"{matches / elapsed:>9.2f} {cost['ApplyMove']:>9.1f} "
            f"{cost['ListLegalMoves']:>9.1f} {cost['GetView']:>9.1f}"
        )


if __name__ == "__main__":
    main()
