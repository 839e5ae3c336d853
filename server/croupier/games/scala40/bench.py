"""Scala 40 figures for issue 8: `python -m croupier.games.scala40.bench`.

- the opening finder on 1,000 random 14-card hands with two jokers (p50, p99,
  max; the goal is p50 ≤ 1 ms and max ≤ 20 ms, in-process);
- ApplyMove (full validation and trusted) and ListLegalMoves on a crowded
  6-seat mid-game state (the largest state of the project), the engine path
  that the serving goal is about;
- in-process random playouts (list the legal moves of the seat to act, apply
  one), in steps per second.

Times are CPU time of this process (the machine may be shared); read them
beside each other, as ratios.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from croupier.engine import api, cards, registry
from croupier.engine.melds import MeldRules
from croupier.games.scala40 import GAME
from croupier.games.scala40.opening import best_opening
from croupier.v1 import game_pb2, service_pb2

PLAYING = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
TABLE_ACTIONS = ("open", "meld", "lay_off", "split", "swap_joker")


def finder(hands: int = 1000, seed: int = 14) -> dict[str, float]:
    """Milliseconds per hand: p50, p99, max."""
    naturals = [v for v in cards.double_pack_108() if not cards.is_joker(v)]
    rnd = random.Random(seed)
    rules = MeldRules()
    times = []
    for _ in range(hands):
        hand = rnd.sample(naturals, 12) + [cards.RED_JOKER, cards.BLACK_JOKER]
        start = time.process_time()
        best_opening(hand, rules, max_cards=13)
        times.append((time.process_time() - start) * 1e3)
    times.sort()
    return {"p50": statistics.median(times), "p99": times[int(0.99 * hands)], "max": times[-1]}


def crowded_state(seats: int = 6, seed: int = 6) -> game_pb2.GameState:
    """A 6-seat deal in progress with as many melds on the table as a bot
    that prefers laying cards reaches (seeded)."""
    rnd = random.Random(seed)
    best: game_pb2.GameState | None = None
    for attempt in range(30):
        deal = service_pb2.NewGameRequest(game="scala40", seat_count=seats, seed=attempt)
        state = api.new_game(deal).state
        while state.match.phase == PLAYING:
            listed = GAME.legal_moves(state, state.current_seat)
            laying = [m for m in listed if m.scala40.WhichOneof("action") in TABLE_ACTIONS]
            move = rnd.choice(laying or listed)
            request = service_pb2.ApplyMoveRequest(state=state, move=move)
            state = api.apply_move(request, trusted=True).state
            more = best is None or len(state.scala40.melds) > len(best.scala40.melds)
            if state.match.phase == PLAYING and state.scala40.phase == 2 and more:
                best = state
    assert best is not None
    return best


def _per_call(call: Callable[[], object], seconds: float = 1.0) -> float:
    """CPU microseconds per call, over about `seconds` of CPU."""
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        call()
        count += 1
    return (time.process_time() - start) / count * 1e6


def engine_calls(state: game_pb2.GameState) -> dict[str, float]:
    """Microseconds per ApplyMove (the default move), trusted and not, and
    per ListLegalMoves of the seat to act, on `state`."""
    game = registry.find(state.game)
    assert game is not None
    move = game.default_move(state, state.current_seat)
    request = service_pb2.ApplyMoveRequest(state=state, move=move)
    listing = service_pb2.ListLegalMovesRequest(state=state, seat=state.current_seat)
    return {
        "apply": _per_call(lambda: api.apply_move(request)),
        "apply_trusted": _per_call(lambda: api.apply_move(request, trusted=True)),
        "check_state": _per_call(lambda: api.check_state(state)),
        "list": _per_call(lambda: api.list_legal_moves(listing)),
    }


def playouts(seconds: float = 5.0, seats: int = 4) -> float:
    """In-process random playout steps per CPU second (trusted path)."""
    rnd = random.Random(4)
    steps, start, seed = 0, time.process_time(), 0
    while time.process_time() - start < seconds:
        request = service_pb2.NewGameRequest(game="scala40", seat_count=seats, seed=seed)
        state = api.new_game(request).state
        seed += 1
        while state.match.phase != game_pb2.MATCH_PHASE_MATCH_OVER:
            if state.match.phase != PLAYING:
                state = api.next_deal(service_pb2.NextDealRequest(state=state)).state
                continue
            listing = service_pb2.ListLegalMovesRequest(state=state, seat=state.current_seat)
            moves = api.list_legal_moves(listing, trusted=True).moves
            move = moves[rnd.randrange(len(moves))].move
            request2 = service_pb2.ApplyMoveRequest(state=state, move=move)
            state = api.apply_move(request2, trusted=True).state
            steps += 1
            if time.process_time() - start >= seconds:
                break
    return steps / (time.process_time() - start)


def main() -> None:
    if registry.find("scala40") is None:
        registry.register(GAME)
    f = finder()
    print(f"opening finder, 1,000 hands of 14 cards with 2 jokers: p50 {f['p50']:.3f} ms, "
          f"p99 {f['p99']:.3f} ms, max {f['max']:.3f} ms (goal: p50 <= 1, max <= 20)")  # fmt: skip
    state = crowded_state()
    print(f"crowded 6-seat state: {len(state.scala40.melds)} melds, {state.ByteSize()} bytes")
    for name, micros in engine_calls(state).items():
        print(f"  {name}: {micros:.0f} us")
    print(f"random playouts, 4 seats, trusted: {playouts():.0f} steps/s")
    hd = api.new_game(service_pb2.NewGameRequest(game="hundred_and_one", seat_count=4, seed=3))
    if registry.find("hundred_and_one") is not None:
        print("for scale, a 4-seat 101 HD deal:")
        for name, micros in engine_calls(hd.state).items():
            print(f"  {name}: {micros:.0f} us")


if __name__ == "__main__":
    main()
