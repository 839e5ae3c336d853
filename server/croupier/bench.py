"""In-process benchmark: random playouts, beside RLCard's UNO environment loop.

`make bench` prints two things, measured in one run:

1. **101 beside RLCard.** Steps per CPU-second of random playouts of 101
   (preset hd, 4 seats) the way a harness plays: `croupier_client.playout`
   over the engine in-process, one step being the legal moves of every acting
   seat plus the move applied (ApplyMove with `next_legal_moves`: one call per
   move). Once over the trusted path (`InProcess(trusted=True)`, states the
   engine produced are not validated again) and once fully validated
   (`trusted=False`, what every state from outside gets). Beside them,
   RLCard's UNO environment driven the way its users drive it: `env.reset()`,
   then `env.step(random legal action)` until `env.is_over()`. The three loops
   take turns in short rounds so that load from other processes falls on all
   of them alike; the ratios are per round, and their range is printed. RLCard
   is stepped with Python's `random.choice` (its fastest; the goal's
   reference) and with its own `RandomAgent` (as its examples do). RLCard
   is an optional extra (`pip install -e '.[bench]'`; `make bench` installs
   it); without it the comparison is skipped.
2. **Per preset**: playout moves/s and matches/s (trusted path), and the
   engine's cost per call on mid-game states — ApplyMove fully validated,
   the same with the next legal moves, the trusted one-call path, and
   ListLegalMoves and GetView — the engine's share of an RPC.

Times are CPU time of this process (`time.process_time`), so a busy machine
slows the figures less than wall-clock time would; still, compare them as
ratios, never as absolute promises.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from croupier.engine import api
from croupier.inprocess import InProcess
from croupier.v1 import game_pb2, service_pb2
from croupier_client import playout

GAME = "hundred_and_one"
PRESETS = (("hd", 4), ("cl", 4), ("ru", 5), ("alt", 8))
COMPARED = ("hd", 4)  # the table played beside RLCard's UNO
MIDGAME_SAMPLE = 100  # mid-game states per preset for the per-call costs (--states)


@dataclass
class Tally:
    """Steps (moves) and episodes (matches) played in some CPU-seconds."""

    steps: int = 0
    episodes: int = 0
    seconds: float = 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def episodes_per_second(self) -> float:
        return self.episodes / self.seconds if self.seconds else 0.0

    def add(self, other: Tally) -> None:
        self.steps += other.steps
        self.episodes += other.episodes
        self.seconds += other.seconds


# A loop that plays whole episodes for about `seconds` of CPU time, starting
# from episode number `first`, and says what it played.
Loop = Callable[[float, int], Tally]


def croupier_loop(
    preset: str,
    seats: int,
    trusted: bool,
    on_step: Callable[[playout.Step], None] | None = None,
) -> Loop:
    """Random 101 matches through the one match loop, in-process."""
    backend = InProcess(trusted=trusted)

    def run(seconds: float, first: int) -> Tally:
        tally = Tally()
        start = time.process_time()
        while time.process_time() - start < seconds:
            seed = first + tally.episodes
            _, moves = playout.play_match(
                backend, GAME, preset, seats, seed, playout.uniform(seed), on_step=on_step
            )
            tally.steps += moves
            tally.episodes += 1
        tally.seconds = time.process_time() - start
        return tally

    return run


def rlcard_loops() -> dict[str, Loop]:
    """RLCard's UNO environment (2 players, its default) reset and stepped
    with a uniformly random legal action until the episode is over, two ways:
    "rlcard" picks with Python's `random` (as the Croupier side does: RLCard
    at its fastest, the figure the goal is measured against) and
    "rlcard-agent" with RLCard's own `RandomAgent.step` (numpy's choice), as
    its examples do. Empty when rlcard is not installed."""
    try:
        import rlcard  # type: ignore[import-not-found]
        from rlcard.agents import RandomAgent  # type: ignore[import-not-found]
    except ImportError:
        return {}
    env = rlcard.make("uno", config={"seed": 0})

    def loop(pick: Callable[[dict, random.Random], int]) -> Loop:
        def run(seconds: float, first: int) -> Tally:
            rnd = random.Random(first)
            tally = Tally()
            start = time.process_time()
            while time.process_time() - start < seconds:
                state, _ = env.reset()
                while not env.is_over():
                    state, _ = env.step(pick(state, rnd))
                    tally.steps += 1
                tally.episodes += 1
            tally.seconds = time.process_time() - start
            return tally

        return run

    agent = RandomAgent(num_actions=env.num_actions)
    return {
        "rlcard": loop(lambda state, rnd: rnd.choice(list(state["legal_actions"]))),
        "rlcard-agent": loop(lambda state, rnd: agent.step(state)),
    }


def take_turns(loops: dict[str, Loop], rounds: int, seconds: float) -> list[dict[str, Tally]]:
    """Run every loop for `seconds` per round, in turn, `rounds` times."""
    played: list[dict[str, Tally]] = []
    episodes = dict.fromkeys(loops, 0)
    for _ in range(rounds):
        this_round = {}
        for name, loop in loops.items():
            this_round[name] = loop(seconds, episodes[name])
            episodes[name] += this_round[name].episodes
        played.append(this_round)
    return played


def compare(rounds: int, seconds: float) -> None:
    """Section 1: 101 in-process steps/s beside RLCard's UNO, and the ratios."""
    preset, seats = COMPARED
    loops: dict[str, Loop] = {
        "trusted": croupier_loop(preset, seats, trusted=True),
        "validated": croupier_loop(preset, seats, trusted=False),
    }
    rl = rlcard_loops()
    loops.update(rl)
    played = take_turns(loops, rounds, seconds)
    totals = {name: Tally() for name in loops}
    for this_round in played:
        for name, tally in this_round.items():
            totals[name].add(tally)

    print(f"101 ({preset}, {seats} seats) beside RLCard UNO: {rounds} rounds of {seconds:g} s "
          "CPU per loop, in turn")  # fmt: skip
    labels = {
        "trusted": "101, InProcess(trusted=True), one call per move",
        "validated": "101, InProcess(trusted=False), every state validated",
        "rlcard": "RLCard UNO env: reset + step(random.choice of legal)",
        "rlcard-agent": "RLCard UNO env: reset + step(RandomAgent.step)",
    }
    for name, tally in totals.items():
        print(
            f"  {labels[name]:54} {tally.steps_per_second:>9,.0f} steps/s "
            f"{tally.episodes_per_second:>8,.1f} episodes/s"
        )
    if not rl:
        print("  rlcard not installed: no comparison (pip install -e '.[bench]', or make bench)")
        return
    for ours in ("trusted", "validated"):
        for theirs, goal in (("rlcard", "; the goal: ≥ 1.00"), ("rlcard-agent", "")):
            ratios = [r[ours].steps_per_second / r[theirs].steps_per_second for r in played]
            whole = totals[ours].steps_per_second / totals[theirs].steps_per_second
            print(
                f"  ratio {ours} ÷ {theirs}: {whole:.2f} "
                f"(rounds {min(ratios):.2f}–{max(ratios):.2f}{goal})"
            )


def midgame_states(preset: str, seats: int, count: int) -> list[game_pb2.GameState]:
    """Mid-deal states met by seeded random playouts, spread over the matches."""
    states: list[game_pb2.GameState] = []

    def keep(step: playout.Step) -> None:
        if step.state.move_number % 7 == 3 and len(states) < count:
            states.append(step.state)

    seed = 0
    while len(states) < count:
        playout.play_match(InProcess(), GAME, preset, seats, seed, playout.uniform(seed),
                           on_step=keep)  # fmt: skip
        seed += 1
    return states


def per_call_us(states: list[game_pb2.GameState], repeat: int) -> dict[str, float]:
    """CPU µs per engine call over the given mid-game states: the mean of the
    fastest of `repeat` passes over them (a pass slowed by other load drops out)."""
    cases = []
    for state in states:
        seat = state.acting_seats[0]
        move = (
            api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=state, seat=seat))
            .moves[0]
            .move
        )
        cases.append(
            (
                service_pb2.ApplyMoveRequest(state=state, move=move),
                service_pb2.ApplyMoveRequest(state=state, move=move, next_legal_moves=True),
                service_pb2.ListLegalMovesRequest(state=state, seat=seat),
                service_pb2.GetViewRequest(state=state, seat=seat),
            )
        )
    calls: dict[str, Callable[[tuple], object]] = {
        "apply": lambda c: api.apply_move(c[0]),
        "apply+next": lambda c: api.apply_move(c[1]),
        "trusted": lambda c: api.apply_move(c[1], trusted=True),
        "legal": lambda c: api.list_legal_moves(c[2]),
        "view": lambda c: api.get_view(c[3]),
    }
    fastest = dict.fromkeys(calls, float("inf"))
    for _ in range(repeat):
        for name, call in calls.items():
            start = time.process_time()
            for case in cases:
                call(case)
            fastest[name] = min(fastest[name], time.process_time() - start)
    return {name: seconds / len(cases) * 1e6 for name, seconds in fastest.items()}


def per_preset(seconds: float, states: int) -> None:
    """Section 2: the per-preset table."""
    print()
    print("Per preset: playouts over the trusted path (one call per move); engine CPU µs per "
          "call on mid-game states (Apply: validated; +next: with the next legal moves; "
          "trusted: +next, not validated)")  # fmt: skip
    print(f"{'preset':8} {'seats':>5} {'matches':>8} {'moves':>8} {'moves/s':>9} "
          f"{'matches/s':>9} {'Apply':>7} {'+next':>7} {'trusted':>7} {'Legal':>7} "
          f"{'View':>7}")  # fmt: skip
    for preset, seats in PRESETS:
        tally = croupier_loop(preset, seats, trusted=True)(seconds, 0)
        cost = per_call_us(midgame_states(preset, seats, states), repeat=5)
        print(
            f"{preset:8} {seats:>5} {tally.episodes:>8} {tally.steps:>8} "
            f"{tally.steps_per_second:>9,.0f} {tally.episodes_per_second:>9.2f} "
            f"{cost['apply']:>7.1f} {cost['apply+next']:>7.1f} {cost['trusted']:>7.1f} "
            f"{cost['legal']:>7.1f} {cost['view']:>7.1f}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the comparison")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per loop and round")
    parser.add_argument(
        "--preset-seconds", type=float, default=2.0, help="CPU seconds of playouts per preset"
    )
    parser.add_argument(
        "--states", type=int, default=MIDGAME_SAMPLE, help="mid-game states per preset"
    )
    args = parser.parse_args(argv)
    compare(args.rounds, args.seconds)
    per_preset(args.preset_seconds, args.states)


if __name__ == "__main__":
    main()
