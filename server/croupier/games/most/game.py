"""«Мост» as a Croupier game: the adapter the engine registry holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from google.protobuf.message import Message

from croupier.engine.options import Preset
from croupier.games.most import (
    candidates,
    deal,
    legal,
    moves,
    notation,
    options,
    spelling,
    validate,
    view,
)
from croupier.v1 import game_pb2


class Most:
    """«Мост» ("Bridge"), the Russian rummy of [S003], every silent point an option."""

    name = "most"
    display_name = "Мост (Bridge rummy)"
    description = (
        "Russian rummy with 54 cards: meld sets and suit sequences that turn the corner "
        "(K-A-2), take from the bridge of discards a card and all newer ones, exchange jokers; "
        "melds score plus, the hand minus; first to 500."
    )
    # Bump on any change of behaviour, and say why in RULES.md's history.
    rules_version = 5
    min_seats = 2
    max_seats = 8
    catalogue = options.CATALOGUE
    presets: Sequence[Preset] = options.PRESETS
    default_preset = "seed"
    match_bound = options.MATCH_BOUND  # C-M-4: what a match between programs sets

    def check_options(self, opts: Message, path: str) -> None:
        options.check_options(opts, path)  # type: ignore[arg-type]

    def new_game(self, state: game_pb2.GameState, opts: Message) -> Sequence[game_pb2.Event]:
        return deal.first_deal(state)

    def validate(self, state: game_pb2.GameState) -> None:
        validate.validate(state)

    def check_move_shape(self, move: game_pb2.Move) -> None:
        validate.check_move_shape(move)

    def acting_seats(self, state: game_pb2.GameState) -> list[int]:
        return [state.current_seat]  # one seat acts through its whole turn

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        return legal.legal_moves(state, seat)

    def canonical_move(self, state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
        return spelling.canonical_move(state, move)

    def default_move(self, state: game_pb2.GameState, seat: int) -> game_pb2.Move:
        return candidates.default_move(state, seat)

    def candidate_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        return candidates.candidate_moves(state, seat)

    def visible_cards(self, state: game_pb2.GameState, seat: int) -> Counter[int]:
        return view.visible_cards(state, seat)

    def view_text(self, out: game_pb2.View) -> str:
        return view.view_text(out)

    def apply(self, state: game_pb2.GameState, move: game_pb2.Move) -> Sequence[game_pb2.Event]:
        return moves.apply(state, move)

    def view(self, state: game_pb2.GameState, seat: int, out: game_pb2.View) -> None:
        view.fill_view(state, seat, out)

    def next_deal(self, state: game_pb2.GameState) -> Sequence[game_pb2.Event]:
        return deal.next_deal(state)

    def notation(self, move: game_pb2.Move) -> str:
        return notation.notation(move)

    def parse_notation(self, text: str, seat: int) -> game_pb2.Move:
        return notation.parse_notation(text, seat)
