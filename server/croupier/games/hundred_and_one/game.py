"""The 101 family as a Croupier game: the adapter the engine registry holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from google.protobuf.message import Message

from croupier.engine.live import Spec, state_spec
from croupier.engine.options import Preset
from croupier.games.hundred_and_one import (
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


class HundredAndOne:
    """«Сто одно» and its versions HD, CL, RU, ALT (RULES.md)."""

    name = "hundred_and_one"
    display_name = "101 (Сто одно)"
    description = (
        "Shed your hand first, matching suit or rank; Queens are wild; 6, 7, K♠ make the next "
        "player draw. Penalty points add up over deals and a total above 101 loses."
    )
    # Bump on any change of behaviour, and say why in RULES.md's history.
    rules_version = 6
    min_seats = 2
    max_seats = 8
    catalogue = options.CATALOGUE
    presets: Sequence[Preset] = options.PRESETS
    default_preset = "hd"

    # The fields a move reads and writes, held as Python values by a live
    # session (engine/live.py); every other field is read through.
    live_fields = state_spec(
        "hundred_and_one",
        Spec(
            scalars=(
                "phase",
                "drawn_card",
                "cover_batch_drawn",
                "cover_restocked",
                "pending_draw",
                "reversed",
                "active_suit",
            ),
            lists=("discard", "stock"),
            repeated_messages={"hands": Spec(lists=("cards",))},
        ),
    )

    def check_options(self, opts: Message, path: str) -> None:
        options.check_options(opts, path)  # type: ignore[arg-type]

    def new_game(self, state: game_pb2.GameState, opts: Message) -> Sequence[game_pb2.Event]:
        return deal.first_deal(state)

    def validate(self, state: game_pb2.GameState) -> None:
        validate.validate(state)

    def check_move_shape(self, move: game_pb2.Move) -> None:
        validate.check_move_shape(move)

    def canonical_move(self, state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
        return spelling.canonical_move(state, move)

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
