"""`croupier demo`: random bots play a whole match through a running server.

The match uses only the public RPCs a harness would (NewGame, ListLegalMoves,
ApplyMove, NextDeal, and ListGames to check the arguments) and prints a
transcript built from the server's answers alone: the same arguments give a
byte-identical transcript on any replica.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence

from croupier_client import playout
from croupier_client.bots import Bot, RandomBot
from croupier_client.client import (
    DEFAULT_TARGET,
    CroupierClient,
    CroupierError,
    OptionInput,
    option_input,
)
from croupier_client.v1 import game_pb2, service_pb2

DEFAULT_GAME = "hundred_and_one"
DEFAULT_SEED = 7
DEFAULT_SEATS = 3
DEFAULT_MAX_MOVES = playout.DEFAULT_MAX_MOVES

# Called with the state a move was played on, the chosen move and the answer.
MoveHook = Callable[
    [game_pb2.GameState, service_pb2.LegalMove, service_pb2.ApplyMoveResponse], None
]

_NOTE = " " * 6  # notes sit under the mover's name of a move line


class MatchTooLong(RuntimeError):
    """A match went on for more than `max_moves` moves; it carries the state
    reached and the transcript so far."""

    def __init__(
        self, max_moves: int, state: game_pb2.GameState, transcript: Sequence[str]
    ) -> None:
        super().__init__(
            f"the match is not over after {max_moves} moves "
            f"(deal {state.match.deal_number}, move number {state.move_number}); "
            "raise the move limit or look for a game that cannot end"
        )
        self.max_moves = max_moves
        self.state = state
        self.transcript = list(transcript)


def default_bots(seed: int, seats: int) -> list[Bot]:
    """One RandomBot per seat, each seeded from the match seed and its seat."""
    # Seats are fewer than 256, so every (seed, seat) pair gets its own seed.
    return [RandomBot(seed=(seed << 8) | seat) for seat in range(seats)]


def play_match(
    client: CroupierClient,
    game: str,
    preset: str,
    seats: int,
    seed: int,
    max_moves: int = DEFAULT_MAX_MOVES,
    *,
    bots: Sequence[Bot] | None = None,
    options: Mapping[str, OptionInput] | None = None,
    on_move: MoveHook | None = None,
) -> tuple[game_pb2.GameState, list[str]]:
    """Play one match to its end and return the final state and the transcript.

    The match is played by `playout.play_match` over the gRPC client: each
    move is chosen by the bot of the seat whose turn it is (`default_bots`
    when `bots` is None) among its legal moves. `on_move(state, choice,
    answer)` sees every accepted move with the state it was played on (e.g. to
    record ApplyMove requests for a load test). Raises MatchTooLong after
    `max_moves` moves, CroupierError when a call fails, and
    playout.ServerContradiction when the server contradicts itself.
    """
    players = list(default_bots(seed, seats) if bots is None else bots)
    if len(players) != seats:
        raise ValueError(f"{seats} seats need {seats} bots; got {len(players)}")
    lines = [f"Game {game}, preset {preset or '(default)'}, {seats} seats, seed {seed}"]
    transcript: _Transcript | None = None

    def started(answer: service_pb2.NewGameResponse) -> None:
        nonlocal transcript
        transcript = _Transcript(answer.state)
        lines.extend(transcript.deal_started(answer.state, answer.events))

    def dealt(answer: service_pb2.NextDealResponse) -> None:
        assert transcript is not None
        lines.extend(transcript.deal_started(answer.state, answer.events))

    def moved(step: playout.Step) -> None:
        assert transcript is not None
        if on_move is not None:
            on_move(step.state, step.choice, step.answer)
        after = step.answer.state
        mover = transcript.name(step.choice.move.seat)
        lines.append(f"{after.move_number:>4}. {mover} {step.answer.notation}")
        lines.extend(transcript.notes(step.choice.move, step.answer.events, after))

    try:
        state, moves = playout.play_match(
            client,
            game,
            preset,
            seats,
            seed,
            playout.seat_bots(players, client.view),
            options=options,
            max_moves=max_moves,
            on_start=started,
            on_step=moved,
            on_deal=dealt,
        )
    except playout.MatchTooLong as error:
        raise MatchTooLong(max_moves, error.state, lines) from None
    assert transcript is not None
    lines.append("")
    lines.append(f"Match over after {moves} moves and {state.match.deal_number} deals.")
    winners = ", ".join(transcript.name(s) for s in state.match.winners)
    label = "Winner" if len(state.match.winners) == 1 else "Winners"
    lines.append(f"{label}: {winners} (totals {transcript.totals(state)})")
    return state, lines


class _Transcript:
    """Turns the server's answers into transcript lines. Game-agnostic: every
    sentence about what happened is the event's own text, written by the game."""

    def __init__(self, state: game_pb2.GameState) -> None:
        self._names = [seat.name or f"P{i}" for i, seat in enumerate(state.seats)]

    def name(self, seat: int) -> str:
        """The display name of a seat (its number when out of range)."""
        return self._names[seat] if seat < len(self._names) else f"seat {seat}"

    def totals(self, state: game_pb2.GameState) -> str:
        """Every seat's match total, in seat order."""
        return ", ".join(f"{self.name(i)} {seat.score}" for i, seat in enumerate(state.seats))

    def deal_started(
        self, state: game_pb2.GameState, events: Sequence[game_pb2.Event]
    ) -> list[str]:
        """The heading of a deal and what its start caused."""
        return ["", f"Deal {state.match.deal_number}", *self.notes(None, events, state)]

    def notes(
        self,
        move: game_pb2.Move | None,
        events: Sequence[game_pb2.Event],
        state: game_pb2.GameState,
    ) -> list[str]:
        """One line per event of an answer, in the game's words; the totals
        after a deal ends."""
        lines = [_NOTE + (event.text or f"({event.kind})") for event in events]
        if any(event.kind == game_pb2.EVENT_KIND_DEAL_ENDED for event in events):
            lines.append(_NOTE + f"totals: {self.totals(state)}")
        return lines


def build_parser() -> argparse.ArgumentParser:
    """The `croupier demo` argument parser."""
    parser = argparse.ArgumentParser(
        prog="croupier demo",
        description="Random bots play a whole match through a running Croupier server; "
        "the transcript goes to stdout and is the same for the same arguments.",
    )
    parser.add_argument("--game", default=DEFAULT_GAME, help=f"game id (default {DEFAULT_GAME})")
    parser.add_argument(
        "--preset", default="", help="preset name (default: the game's default preset)"
    )
    parser.add_argument(
        "--seed", type=_uint64, default=DEFAULT_SEED, help=f"match seed (default {DEFAULT_SEED})"
    )
    parser.add_argument(
        "--seats",
        type=int,
        default=None,
        help=f"number of seats (default {DEFAULT_SEATS}, within the preset's range)",
    )
    parser.add_argument(
        "--target",
        default=DEFAULT_TARGET,
        help=f"server address host:port (default {DEFAULT_TARGET})",
    )
    parser.add_argument(
        "--max-moves",
        type=int,
        default=DEFAULT_MAX_MOVES,
        help=f"stop with an error after this many moves (default {DEFAULT_MAX_MOVES})",
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="deadline of each call in seconds (default 10)"
    )
    return parser


def _uint64(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"a seed is in [0, 2**64); got {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo; returns the exit code (1 when the server cannot be used or
    the match exceeds --max-moves; argument errors exit with 2)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    with CroupierClient(args.target, timeout=args.timeout) as client:
        try:
            games = client.list_games()
        except CroupierError as error:
            print(
                f"croupier demo: cannot use the server at {args.target}: {error}", file=sys.stderr
            )
            return 1
        descriptors = {g.name: g for g in games}
        descriptor = descriptors.get(args.game)
        if descriptor is None:
            parser.error(
                f"unknown game {args.game!r}; the server has {', '.join(sorted(descriptors))}"
            )
        presets = {p.name: p for p in descriptor.presets}
        preset_name = args.preset.lower() or descriptor.default_preset
        preset = presets.get(preset_name)
        if preset is None:
            parser.error(
                f"unknown preset {args.preset!r} for {args.game}; known: {', '.join(presets)}"
            )
        low = max(descriptor.min_seats, preset.min_seats)
        high = min(descriptor.max_seats, preset.max_seats)
        seats = min(max(DEFAULT_SEATS, low), high) if args.seats is None else args.seats
        if not low <= seats <= high:
            parser.error(f"{args.game} preset {preset.name} is played by {low} to {high} seats")
        if args.max_moves < 1:
            parser.error("--max-moves must be at least 1")
        # What a match between programs sets so that it ends (ListGames'
        # match_bound: «Мост»'s 12 deals, C-M-4); random bots may never reach
        # the game's own target.
        bound = {s.name: option_input(s.value) for s in descriptor.match_bound}
        try:
            _, lines = play_match(
                client, args.game, preset.name, seats, args.seed, args.max_moves, options=bound
            )
        except MatchTooLong as error:
            print("\n".join(error.transcript))
            print(f"croupier demo: {error}", file=sys.stderr)
            return 1
        except CroupierError as error:
            print(f"croupier demo: {error}", file=sys.stderr)
            return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
