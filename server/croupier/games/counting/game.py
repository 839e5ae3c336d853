"""The counting games as Croupier games: one adapter class, three games.

The three share every rule function of this package; what tells them apart
is their option catalogue, presets and seat range, and the `Rules` their
options compile into (rules.py). RULES.md says why they are three games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from google.protobuf.message import Message

from croupier.engine.options import Catalogue, Preset
from croupier.games.counting import deal, legal, moves, notation, options, validate, view
from croupier.games.counting.rules import CHIPS_101, ONE_HUNDRED, STO
from croupier.v1 import game_pb2


class CountingGame:
    """One counting game (RULES.md): «Сто», One Hundred or 101 with chips."""

    # Bump on any change of behaviour, and say why in RULES.md's history.
    rules_version = 4

    def __init__(
        self,
        name: str,
        display_name: str,
        description: str,
        seats: tuple[int, int],
        catalogue: Catalogue,
        presets: Sequence[Preset],
        check: Callable[[Message, str], None],
    ) -> None:
        self.name = name
        self.display_name = display_name
        self.description = description
        self.min_seats, self.max_seats = seats
        self.catalogue = catalogue
        self.presets = presets
        self.default_preset = presets[0].name
        self._check = check

    def check_options(self, opts: Message, path: str) -> None:
        self._check(opts, path)

    def new_game(self, state: game_pb2.GameState, opts: Message) -> Sequence[game_pb2.Event]:
        return deal.first_deal(state)

    def validate(self, state: game_pb2.GameState) -> None:
        validate.validate(state)

    def check_move_shape(self, move: game_pb2.Move) -> None:
        validate.check_move_shape(self.name, move)

    def acting_seats(self, state: game_pb2.GameState) -> list[int]:
        return [state.current_seat]  # one seat acts at a time; nothing out of turn

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        return legal.legal_moves(state, seat)

    def encoded_legal_moves(self, state: game_pb2.GameState, seat: int) -> list[bytes]:
        return legal.encoded_legal_moves(state, seat)  # the hot path's form (move_codec.py)

    def default_move(self, state: game_pb2.GameState, seat: int) -> game_pb2.Move:
        return legal.default_move(state, seat)

    def candidate_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        return legal.candidate_moves(state, seat)

    def visible_cards(self, state: game_pb2.GameState, seat: int) -> Counter[int]:
        return view.visible_cards(state, seat)

    def apply(self, state: game_pb2.GameState, move: game_pb2.Move) -> Sequence[game_pb2.Event]:
        return moves.apply(state, move)

    def view(self, state: game_pb2.GameState, seat: int, out: game_pb2.View) -> None:
        view.fill_view(state, seat, out)

    def view_text(self, out: game_pb2.View) -> str:
        return view.view_text(out)

    def next_deal(self, state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
        return deal.next_deal(state)

    def notation(self, move: game_pb2.Move) -> str:
        return notation.notation(getattr(move, self.name))

    def parse_notation(self, text: str, seat: int) -> game_pb2.Move:
        return notation.parse_notation(self.name, text, seat)


def sto() -> CountingGame:
    """«Сто», 32 cards (RULES.md part 1)."""
    return CountingGame(
        STO,
        "«Сто» (100), 32 cards",
        "The 32-card pack is dealt out; each card adds its value to the total. Whoever takes "
        "it over 100 scores the overshoot as penalty points; fewest after three deals wins.",
        (3, 10),
        options.STO_CATALOGUE,
        options.STO_PRESETS,
        options.check_sto,  # type: ignore[arg-type]
    )


def one_hundred() -> CountingGame:
    """One Hundred, 52 cards (RULES.md part 2)."""
    return CountingGame(
        ONE_HUNDRED,
        "One Hundred («Сто», 52 cards)",
        "Play a card, refill to four: cards add, subtract, double, reverse or set the total. "
        "Whoever takes it over 100 is out; the last player left wins.",
        (3, 10),
        options.ONE_HUNDRED_CATALOGUE,
        options.ONE_HUNDRED_PRESETS,
        options.check_one_hundred,  # type: ignore[arg-type]
    )


def chips_101() -> CountingGame:
    """101 with chips (RULES.md part 3)."""
    return CountingGame(
        CHIPS_101,
        "101 with chips",
        "Ninety-Nine to 101: play a card that keeps the total at 101 or less, then draw. "
        "Whoever cannot pays a chip; the last player holding chips wins.",
        (2, 7),
        options.CHIPS_101_CATALOGUE,
        options.CHIPS_101_PRESETS,
        options.check_chips_101,  # type: ignore[arg-type]
    )
