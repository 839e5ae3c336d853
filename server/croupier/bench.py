"""In-process benchmark: random playouts, beside RLCard's UNO environment loop.

`make bench` prints two things, measured in one run:

1. **Beside RLCard.** Steps per CPU-second of random playouts, one step
   being the legal moves of every acting seat plus the move made, the way a
   harness plays (`croupier_client.playout`), beside RLCard's UNO
   environment driven the way its users drive it: `env.reset()`, then
   `env.step(random legal action)` until `env.is_over()`. Ours: 101 (preset
   hd, 4 seats) and UNO (seed, 2 seats, RLCard's table) held in a live
   `Session` (engine/session.py: each move made in place, as RLCard's
   env.step does; the goals of issues 6 and 9 are on these), and 101 through
   the RPC-shaped calls in-process (`InProcess`: a new state message per
   move), trusted and fully validated. The loops take turns in short rounds
   so that load from other processes falls on all of them alike; the ratios
   are per round, and their range is printed. RLCard is stepped with
   Python's `random.choice` (its fastest; the goals' reference) and with
   its own `RandomAgent` (as its examples do). RLCard is an optional extra
   (`pip install -e '.[bench]'`; `make bench` installs it); without it the
   comparison is skipped.
2. **Per preset of every registered game**: moves/s of random matches in a
   Session and through the trusted calls, and the engine's cost per call on
   mid-game states — ApplyMove fully validated, the same with the next
   legal moves, the trusted one-call path, ListLegalMoves and GetView — the
   engine's share of an RPC.
3. **Scala 40's opening finder** (`games/scala40/opening.py`, the AnalyseHand
   RPC's search) on random 14-card hands with two jokers, the hardest hands
   a seat holds: milliseconds per hand at the median, the 99th percentile and
   the slowest, against issue 8's goal (p50 ≤ 1 ms, max ≤ 20 ms over 1,000
   hands).

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

from croupier.engine import api, cards, registry
from croupier.engine.melds import MeldRules
from croupier.engine.session import Session
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


CLOCK_EVERY = 32  # moves between two readings of the CPU clock (_timed)


class _Enough(Exception):
    """Stops a playout: its CPU time is up, or enough states are kept."""


def _timed(choose: playout.Chooser, tally: Tally, start: float, seconds: float) -> playout.Chooser:
    """`choose`, counting the moves it picks into `tally` and stopping the
    playout mid-match once `seconds` of CPU time have passed since `start`
    (a long match — UNO to 500 points, Scala 40 — is not played out past the
    budget; the moves made so far still count). The clock is read every
    CLOCK_EVERY moves: read at every move it cost 8 % of a 101 step, where
    RLCard's loop reads it once an episode."""

    def timed(state: game_pb2.GameState, legal: playout.LegalMoves) -> service_pb2.LegalMove:
        if not tally.steps % CLOCK_EVERY and time.process_time() - start >= seconds:
            raise _Enough
        tally.steps += 1
        return choose(state, legal)

    return timed


def _episodes(play: Callable[[int, playout.Chooser], object]) -> Loop:
    """A Loop that plays episode after episode, `play(seed, chooser)` with a
    uniform random chooser of that seed, until its CPU time is up (_timed)."""

    def run(seconds: float, first: int) -> Tally:
        tally = Tally()
        start = time.process_time()
        try:
            while True:
                seed = first + tally.episodes
                play(seed, _timed(playout.uniform(seed), tally, start, seconds))
                tally.episodes += 1
        except _Enough:
            pass
        tally.seconds = time.process_time() - start
        return tally

    return run


def croupier_loop(
    preset: str,
    seats: int,
    trusted: bool,
    on_step: Callable[[playout.Step], None] | None = None,
    game: str = GAME,
) -> Loop:
    """Random matches through the one match loop over the RPC-shaped calls,
    in-process (each move answered in a new state message)."""
    backend = InProcess(trusted=trusted)
    options = registry.bounded(game)  # a match between programs (C-M-4)
    return _episodes(
        lambda seed, choose: playout.play_match(
            backend, game, preset, seats, seed, choose, options=options, on_step=on_step
        )
    )


def session_loop(game: str, preset: str, seats: int) -> Loop:
    """Random matches held in-process (engine/session.py: each move made in
    place, the way RLCard's env.step works), through `playout.play_live`."""
    options = registry.bounded(game)  # a match between programs (C-M-4)
    return _episodes(
        lambda seed, choose: playout.play_live(
            Session.new(game, preset=preset, seat_count=seats, seed=seed, options=options),
            choose,
        )
    )


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


# The comparison's loops, the goal each is held to against RLCard's fast loop
# (issue 6 for 101, issue 9 for UNO), and how `make bench` labels them.
COMPARED_LOOPS = {
    "101-live": (1.0, "101 hd 4 seats, Session (in place)"),
    "uno-live": (2.0, "UNO seed 2 seats, Session (in place)"),
    "101-trusted": (None, "101 hd 4 seats, InProcess(trusted), 1 call/move"),
    "101-validated": (None, "101 hd 4 seats, InProcess, every state checked"),
    "rlcard": (None, "RLCard UNO env: reset + step(random.choice)"),
    "rlcard-agent": (None, "RLCard UNO env: reset + step(RandomAgent.step)"),
}


def compare(rounds: int, seconds: float) -> None:
    """Section 1: in-process steps/s of 101 and UNO beside RLCard's UNO."""
    preset, seats = COMPARED
    loops: dict[str, Loop] = {"101-live": session_loop(GAME, preset, seats)}
    if registry.find("uno") is not None:
        loops["uno-live"] = session_loop("uno", "seed", 2)
    loops["101-trusted"] = croupier_loop(preset, seats, trusted=True)
    loops["101-validated"] = croupier_loop(preset, seats, trusted=False)
    rl = rlcard_loops()
    loops.update(rl)
    played = take_turns(loops, rounds, seconds)
    totals = {name: Tally() for name in loops}
    for this_round in played:
        for name, tally in this_round.items():
            totals[name].add(tally)

    print(f"In-process random playouts beside RLCard's UNO: {rounds} rounds of {seconds:g} s "
          "CPU per loop, in turn")  # fmt: skip
    for name, tally in totals.items():
        print(
            f"  {COMPARED_LOOPS[name][1]:50} {tally.steps_per_second:>9,.0f} steps/s "
            f"{tally.episodes_per_second:>8,.1f} episodes/s"
        )
    if not rl:
        print("  rlcard not installed: no comparison (pip install -e '.[bench]', or make bench)")
        return
    for ours in (name for name in loops if name not in rl):
        goal = COMPARED_LOOPS[ours][0]
        for theirs in rl:
            ratios = [r[ours].steps_per_second / r[theirs].steps_per_second for r in played]
            whole = totals[ours].steps_per_second / totals[theirs].steps_per_second
            verdict = ""
            if goal is not None and theirs == "rlcard":
                verdict = f"; goal ≥ {goal:.2f}: {'met' if whole >= goal else 'NOT met'}"
            print(
                f"  ratio {ours} ÷ {theirs}: {whole:.2f} "
                f"(rounds {min(ratios):.2f}–{max(ratios):.2f}{verdict})"
            )


def midgame_states(game: str, preset: str, seats: int, count: int) -> list[game_pb2.GameState]:
    """Mid-deal states met by seeded random playouts, every 7th move."""
    states: list[game_pb2.GameState] = []

    def keep(step: playout.Step) -> None:
        if step.state.move_number % 7 == 3:
            states.append(step.state)
            if len(states) >= count:
                raise _Enough

    seed = 0
    while len(states) < count:
        try:
            playout.play_match(InProcess(), game, preset, seats, seed, playout.uniform(seed),
                               options=registry.bounded(game), on_step=keep)  # fmt: skip
        except _Enough:
            break
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


def tables() -> list[tuple[str, str, int]]:
    """(game, preset, seats) of the per-preset section: 101's presets at the
    seat counts above, every other registered game's at 4 seats (or the
    nearest its preset allows)."""
    out = [(GAME, preset, seats) for preset, seats in PRESETS]
    for game in registry.games():
        if game.name == GAME:
            continue
        for preset in game.presets:
            low = max(game.min_seats, preset.min_seats)
            high = min(game.max_seats, preset.max_seats)
            out.append((game.name, preset.name, min(max(4, low), high)))
    return out


def per_preset(seconds: float, states: int) -> None:
    """Section 2: the per-preset table, every registered game."""
    print()
    print("Per preset: random matches held in a Session (in place) and through the RPC-shaped "
          "calls (trusted, one call per move); engine CPU µs per call on mid-game states "
          "(Apply: validated; +next: with the next legal moves; trusted: +next, not "
          "validated)")  # fmt: skip
    print(f"{'game':15} {'preset':10} {'seats':>5} {'matches':>7} {'live/s':>8} {'calls/s':>8} "
          f"{'Apply':>7} {'+next':>7} {'trusted':>7} {'Legal':>7} {'View':>7}")  # fmt: skip
    for game, preset, seats in tables():
        live = session_loop(game, preset, seats)(seconds, 0)
        calls = croupier_loop(preset, seats, trusted=True, game=game)(seconds, 0)
        cost = per_call_us(midgame_states(game, preset, seats, states), repeat=5)
        print(
            f"{game:15} {preset:10} {seats:>5} {live.episodes + calls.episodes:>7} "
            f"{live.steps_per_second:>8,.0f} {calls.steps_per_second:>8,.0f} "
            f"{cost['apply']:>7.1f} {cost['apply+next']:>7.1f} {cost['trusted']:>7.1f} "
            f"{cost['legal']:>7.1f} {cost['view']:>7.1f}"
        )


FINDER_GOAL = (1.0, 20.0)  # issue 8: p50 and max, in ms


def finder(hands: int, seed: int = 14) -> None:
    """Section 3: Scala 40's opening finder, CPU ms per hand (p50, p99, max)
    over `hands` random hands of 12 naturals and both jokers of the 108-card
    pack, each searched for its best opening that keeps a card to discard."""
    if registry.find("scala40") is None:
        return
    from croupier.games.scala40.opening import best_opening  # the game's own search

    naturals = [c for c in cards.double_pack_108() if not cards.is_joker(c)]
    rnd = random.Random(seed)
    rules = MeldRules()  # the FISC defaults
    times = []
    for _ in range(hands):
        hand = rnd.sample(naturals, 12) + [cards.RED_JOKER, cards.BLACK_JOKER]
        start = time.process_time()
        best_opening(hand, rules, max_cards=13)
        times.append((time.process_time() - start) * 1e3)
    times.sort()
    p50, p99, slowest = times[len(times) // 2], times[int(0.99 * len(times))], times[-1]
    met = p50 <= FINDER_GOAL[0] and slowest <= FINDER_GOAL[1]
    print()
    print(f"Scala 40 opening finder, {hands:,} random 14-card hands with two jokers: "
          f"p50 {p50:.3f} ms, p99 {p99:.3f} ms, max {slowest:.3f} ms "
          f"(goal p50 ≤ {FINDER_GOAL[0]:g} ms, max ≤ {FINDER_GOAL[1]:g} ms: "
          f"{'met' if met else 'NOT met'})")  # fmt: skip


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
    parser.add_argument(
        "--hands", type=int, default=1000, help="hands for Scala 40's opening finder"
    )
    args = parser.parse_args(argv)
    compare(args.rounds, args.seconds)
    per_preset(args.preset_seconds, args.states)
    finder(args.hands)


if __name__ == "__main__":
    main()
