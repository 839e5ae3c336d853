"""`croupier play`: a person plays any game and preset against bots in the terminal.

    croupier play --game uno --preset seed --seats 3 --seat 0 --bots heuristic --seed 7

The engine runs in-process, or a server answers (`--target host:port`). The
person sees only what their seat may see: its view (the game's one-line
view text), the events as sentences (their seat's redacted copies), the
scores between deals, and their legal moves, numbered. They answer with a
number or a move's notation; a notation that is a move but not a legal one
here is sent to ApplyMove with validate_only, and the rules' rejection —
its message and the rule it cites — is shown before asking again. `?` shows
the help, `q` leaves. Plain text, fine in a pipe; colour only on a terminal
without NO_COLOR.

Who is asked when several seats may act (UNO's windows: a catch, a jump-in)
is `croupier.rl.turns`, the order the PettingZoo environments use: every
seat that may act out of turn gets its chance first, clockwise from the seat
after the one whose turn it is; the seat whose turn it is moves last. The
person, asked out of turn, may pass ("0: pass, let play go on"). A bot has
no way to pass (a Bot only chooses among the moves it is offered), so a bot
asked out of turn takes its chance: it catches a missed "UNO!" and jumps in
when it can. Either way, a move out of turn changes the position and the
order is worked out again.

Exit status: 0 when the match is over or the person leaves (q), 1 when the
input ends first, 2 for bad arguments or a table that cannot be set up, 130
after Ctrl-C.
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from croupier.engine import registry
from croupier.play_options import OptionError, parse_options
from croupier.play_table import LocalTable, RemoteTable, Table, TableError, events_for
from croupier.play_text import HELP, Screen, numbered_moves, scores_line, seat_label
from croupier.rl.turns import asking_order, movers_of
from croupier.v1 import game_pb2, options_pb2, service_pb2
from croupier_client.bots import Bot, RandomBot, bot_factory

# The longest answer read as a move (the longest notation is far shorter).
MAX_ANSWER = 200

DEFAULT_GAME = "hundred_and_one"
DEFAULT_BOTS = "heuristic"
_SEED_LIMIT = 2**32


class Quit(Exception):
    """The person left the match (q)."""


class InputEnded(Exception):
    """The input ended before the match did."""


@dataclass
class Pass:
    """The person let an out-of-turn chance go by."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="croupier play",
        description="Play any Croupier game against bots in the terminal.",
        epilog="Answer with a move's number or notation; ? for help, q to quit.",
    )
    parser.add_argument("--game", default=DEFAULT_GAME, help="the game (default %(default)s)")
    parser.add_argument("--preset", default="", help="a preset of the game (default: its first)")
    parser.add_argument("--seats", type=int, help="seats at the table (default: 2, or the fewest)")
    parser.add_argument("--seat", type=int, default=0, help="your seat (default %(default)s)")
    parser.add_argument(
        "--bots",
        default=DEFAULT_BOTS,
        help="the other seats' bots: random, heuristic, module:Class or host:port; one for "
        "all, or one per bot seat separated by commas (default %(default)s)",
    )
    parser.add_argument("--seed", type=int, help="the deal's seed (default: a random one, shown)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option over the preset's, e.g. jump_in=on (repeatable)",
    )
    parser.add_argument(
        "--target", help="play through the server at host:port (default: in-process)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `croupier play`; the exit status (module docstring)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    screen = Screen()
    try:
        table: Table = RemoteTable(args.target) if args.target else LocalTable()
    except ValueError as error:
        parser.error(f"--target {args.target}: {error}")
    try:
        match = _set_up(parser, args, table, screen)
        return match.play()
    except TableError as error:
        screen.line(f"croupier play: {error}", "red")
        return 2
    except KeyboardInterrupt:
        screen.line("\nInterrupted: you left the match.")
        return 130
    finally:
        table.close()


def _set_up(
    parser: argparse.ArgumentParser, args: argparse.Namespace, table: Table, screen: Screen
) -> Match:
    games = {game.name: game for game in table.games()}
    descriptor = games.get(args.game)
    if descriptor is None:
        parser.error(f"--game {args.game}: unknown; known: {', '.join(sorted(games))}")
    presets = {preset.name: preset for preset in descriptor.presets}
    preset_name = args.preset or descriptor.default_preset
    preset = presets.get(preset_name.lower())
    if preset is None:
        known = ", ".join(p.name for p in descriptor.presets)
        parser.error(f"--preset {args.preset}: {args.game} has no such preset; it has {known}")
    low = max(descriptor.min_seats, preset.min_seats)
    high = min(descriptor.max_seats, preset.max_seats)
    seats = args.seats if args.seats is not None else max(2, low)
    if not low <= seats <= high:
        parser.error(f"--seats {seats}: {args.game} preset {preset.name} seats {low} to {high}")
    if not 0 <= args.seat < seats:
        parser.error(f"--seat {args.seat}: the table's seats are 0 to {seats - 1}")
    try:
        options = parse_options(descriptor, args.option)
    except OptionError as error:
        parser.error(str(error))
    specs = [spec.strip() for spec in args.bots.split(",")]
    if len(specs) not in (1, seats - 1):
        parser.error(
            f"--bots: give one bot for every seat or one per bot seat ({seats - 1}); "
            f"got {len(specs)}"
        )
    seed = args.seed if args.seed is not None else secrets.randbelow(_SEED_LIMIT)
    if not 0 <= seed < 2**64:
        parser.error(f"--seed {seed}: a seed is a whole number from 0 to 2^64 - 1")
    others = [seat for seat in range(seats) if seat != args.seat]
    named = dict(zip(others, specs * (len(others) if len(specs) == 1 else 1), strict=True))
    try:
        bots = {seat: _bot(spec, args.game, seed, seat, screen) for seat, spec in named.items()}
    except ValueError as error:
        parser.error(f"--bots: {error}")
    return Match(table, screen, descriptor, preset, seats, args.seat, seed, options, bots, named)


def _bot(spec: str, game: str, seed: int, seat: int, screen: Screen) -> Bot:
    """The bot of one seat, seeded from the match seed and the seat (as the
    demo's bots are); a game without a heuristic bot yet gets a random one,
    with a notice."""
    factory = bot_factory(spec)
    bot_seed = (seed << 8) | seat
    if spec != "heuristic":
        return factory(game, bot_seed)
    try:
        return factory(game, bot_seed)
    except (ImportError, ValueError, AttributeError) as error:
        screen.line(f"notice: no heuristic bot for {game} yet ({error}); P{seat} plays random")
        return RandomBot(seed=bot_seed, game=game)


class Match:
    """One match at the terminal: the person's seat, the bots', the loop."""

    def __init__(
        self,
        table: Table,
        screen: Screen,
        descriptor: options_pb2.GameDescriptor,
        preset: options_pb2.PresetDescriptor,
        seats: int,
        person: int,
        seed: int,
        options: Mapping[str, object],
        bots: dict[int, Bot],
        bot_names: dict[int, str],
    ) -> None:
        self.table = table
        self.screen = screen
        self.descriptor = descriptor
        self.preset = preset
        self.seats = seats
        self.person = person
        self.seed = seed
        self.options = options
        self.bots = bots
        self.bot_names = bot_names
        # None for a server's game this engine does not know: the person then
        # answers with a listed move's number or notation only.
        self.game = registry.find(descriptor.name)

    # -- the loop ----------------------------------------------------------------------

    def play(self) -> int:
        screen = self.screen
        name = self.descriptor.display_name or self.descriptor.name
        screen.line(
            f"{name} — preset {self.preset.name}, {self.seats} seats, seed {self.seed}", "bold"
        )
        screen.line(
            f"You are P{self.person}. Bots: "
            + ", ".join(f"P{seat} {spec}" for seat, spec in self.bot_names.items())
            + f". Engine: {self.table.where}. Type ? for help, q to quit."
        )
        started = self.table.new_game(
            self.descriptor.name, self.preset.name, self.seats, self.seed, self.options
        )
        self._show_events(events_for(self.person, started.events))
        state = started.state
        try:
            while True:
                phase = state.match.phase
                if phase == game_pb2.MATCH_PHASE_MATCH_OVER:
                    self._show_deal_end(state)
                    self._show_match_end(state)
                    return 0
                if phase == game_pb2.MATCH_PHASE_DEAL_OVER:
                    self._show_deal_end(state)
                    self._pause()
                    dealt = self.table.next_deal(state)
                    state = dealt.state
                    screen.line(f"— Deal {state.match.deal_number} —", "bold")
                    self._show_events(events_for(self.person, dealt.events))
                    continue
                state = self._one_move(state)
        except Quit:
            screen.line("You left the match.")
            return 0
        except InputEnded:
            screen.line("The input ended before the match did.", "red")
            return 1

    def _one_move(self, state: game_pb2.GameState) -> game_pb2.GameState:
        """Ask the acting seats in order (module docstring) until one moves;
        the state after its move."""
        legal = {seat: self.table.legal_moves(state, seat) for seat in state.acting_seats}
        order = asking_order(movers_of(legal), state.current_seat, self.seats)
        for seat in order:
            out_of_turn = seat != order[-1]
            if seat == self.person:
                choice = self._ask_person(state, legal[seat], out_of_turn)
                if isinstance(choice, Pass):
                    continue
                move = choice
            else:
                bot = self.bots[seat]
                view = (
                    self.table.view(state, seat)
                    if bot.wants_view
                    else game_pb2.View(seat=seat, game=state.game)
                )
                move = bot.choose(view, legal[seat]).move
            answer = self.table.apply(state, move)
            if not answer.accepted:  # a listed or validated move: the engine's contradiction
                raise TableError(
                    f"the engine refused {answer.notation!r}: {answer.rejection.message}"
                )
            self._show_events(events_for(self.person, answer.events, answer.seat_events))
            return answer.state
        raise TableError("every seat asked passed, and the turn seat cannot pass")

    # -- the person ----------------------------------------------------------------------

    def _ask_person(
        self, state: game_pb2.GameState, moves: list[service_pb2.LegalMove], out_of_turn: bool
    ) -> game_pb2.Move | Pass:
        screen = self.screen
        view = self.table.view(state, self.person)
        self._show_position(state, view, out_of_turn)
        listing = numbered_moves(moves, out_of_turn)
        for line in listing:
            screen.line(line)
        while True:
            answer = screen.ask("> ")
            if answer is None:
                raise InputEnded
            if not answer:
                continue
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if answer in ("?", "help"):
                screen.line(HELP)
                self._show_position(state, view, out_of_turn)
                for line in listing:
                    screen.line(line)
                continue
            choice = self._read_answer(state, moves, out_of_turn, answer)
            if choice is not None:
                return choice

    def _read_answer(
        self,
        state: game_pb2.GameState,
        moves: list[service_pb2.LegalMove],
        out_of_turn: bool,
        answer: str,
    ) -> game_pb2.Move | Pass | None:
        """The move an answer stands for; None (after saying why) when it is none."""
        screen = self.screen
        if len(answer) > MAX_ANSWER:
            # No move is that long; refused before it is echoed or parsed
            # (int() of a 5,000-digit answer would raise).
            screen.line(f"That is {len(answer):,} characters: no move is that long.", "yellow")
            return None
        if answer.isdigit():
            number = int(answer)
            if out_of_turn and number == 0:
                return Pass()
            if 1 <= number <= len(moves):
                return moves[number - 1].move
            low = 0 if out_of_turn else 1
            screen.line(f"No move numbered {number}: choose {low} to {len(moves)}.", "yellow")
            return None
        wanted = " ".join(answer.upper().split())
        for listed in moves:
            if " ".join(listed.notation.upper().split()) == wanted:
                return listed.move
        if self.game is None:
            screen.line(f"{answer!r} is none of the listed moves.", "yellow")
            return None
        try:
            move = self.game.parse_notation(answer, self.person)
        except ValueError as error:
            screen.line(f"Not a move: {error}. Type ? for help.", "yellow")
            return None
        try:
            checked = self.table.apply(state, move, validate_only=True)
        except TableError as error:
            screen.line(f"Not a well-formed move: {error}", "yellow")
            return None
        if not checked.accepted:
            rejection = checked.rejection
            screen.line(
                f"Illegal: {checked.notation or answer}: {rejection.message} "
                f"(rule {rejection.rule or 'engine'})",
                "red",
            )
            return None
        return move  # legal though not listed (e.g. a Scala 40 opening the listing leaves out)

    # -- what is shown ---------------------------------------------------------------------

    def _show_position(
        self, state: game_pb2.GameState, view: game_pb2.View, out_of_turn: bool
    ) -> None:
        screen = self.screen
        game_text = self.game.view_text(view) if self.game is not None else ""
        screen.line(
            f"Deal {state.match.deal_number}, move {state.move_number} · "
            f"scores: {scores_line(state, self.person)}",
            "dim",
        )
        screen.line(game_text)
        to_play = seat_label(state, state.current_seat, self.person)
        if out_of_turn:
            screen.line(f"{to_play} is to play; you may act out of turn, or pass (0).", "bold")
        else:
            screen.line("Your move:", "bold")

    def _show_events(self, events: Sequence[game_pb2.Event]) -> None:
        for event in events:
            if event.text:
                self.screen.line(f"  {event.text}", "cyan")

    def _show_deal_end(self, state: game_pb2.GameState) -> None:
        match = state.match
        winners = ", ".join(seat_label(state, s, self.person) for s in match.deal_winners)
        self.screen.line(
            f"— Deal {match.deal_number} over —" + (f" won by {winners}" if winners else ""), "bold"
        )
        if match.deal_points:
            points = ", ".join(
                f"{seat_label(state, seat, self.person)} {value:+d}"
                for seat, value in enumerate(match.deal_points)
            )
            self.screen.line(f"Deal points: {points}")
        self.screen.line(f"Scores: {scores_line(state, self.person)}")

    def _show_match_end(self, state: game_pb2.GameState) -> None:
        winners = list(state.match.winners)
        names = ", ".join(seat_label(state, s, self.person) for s in winners)
        verdict = "You win!" if self.person in winners else "You lose."
        self.screen.line(f"Match over — won by {names}. {verdict}", "bold")

    def _pause(self) -> None:
        answer = self.screen.ask("Enter: next deal, q: quit > ")
        if answer is None:
            raise InputEnded
        if answer.lower() in ("q", "quit", "exit"):
            raise Quit
