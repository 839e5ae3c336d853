"""Scala 40 as a Croupier game: the adapter the engine registry holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from google.protobuf.message import Message

from croupier.engine.options import Preset
from croupier.games.scala40 import (
    analysis,
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
from croupier.v1 import game_pb2, service_pb2


class Scala40:
    """Scala 40 (Scala Quaranta): FISC rules, every variant an option."""

    name = "scala40"
    display_name = "Scala 40"
    description = (
        "Rummy with two packs and four jokers: open with melds worth 40, then meld, lay off "
        "and swap jokers; close by discarding your last card. Penalties add up; 151 is out."
    )
    # Bump on any change of behaviour, and say why in RULES.md's history.
    rules_version = 7
    min_seats = 2
    max_seats = 6
    catalogue = options.CATALOGUE
    presets: Sequence[Preset] = options.PRESETS
    default_preset = "fisc"

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

    def analyse_hand(
        self, state: game_pb2.GameState, seat: int, out: service_pb2.AnalyseHandResponse
    ) -> None:
        """AnalyseHand: the seat's best opening (analysis.py)."""
        out.scala40.CopyFrom(analysis.analyse_opening(state, seat))

    def canonical_move(self, state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
        return spelling.canonical_move(state, move)

    def notation(self, move: game_pb2.Move) -> str:
        return notation.notation(move)

    def parse_notation(self, text: str, seat: int) -> game_pb2.Move:
        return notation.parse_notation(text, seat)
