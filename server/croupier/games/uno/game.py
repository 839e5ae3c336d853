"""UNO as a Croupier game: the adapter the engine registry holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from google.protobuf.message import Message

from croupier.engine.live import Spec, state_spec
from croupier.engine.options import Preset
from croupier.games.uno import acting, deal, legal, moves, notation, options, validate, view
from croupier.v1 import game_pb2


class Uno:
    """UNO (RULES.md): the seed's rules, Mattel's, and 17 house rules."""

    name = "uno"
    display_name = "UNO"
    description = (
        "Shed your hand first, matching colour, number or symbol; Skip, Reverse, +2 and the "
        "black Wilds act on the next player. Out-of-turn play: challenges, catches of a "
        "missed 'UNO!', jump-ins and the house rules' windows."
    )
    # Bump on any change of behaviour, and say why in RULES.md's history.
    rules_version = 6
    min_seats = 2
    max_seats = 10
    catalogue = options.CATALOGUE
    presets: Sequence[Preset] = options.PRESETS
    default_preset = "seed"

    # The fields a move reads and writes, held as Python values by a live
    # session (engine/live.py); every other field (the slap, swap and reveal
    # windows) is read and written through.
    live_fields = state_spec(
        "uno",
        Spec(
            scalars=(
                "colour",
                "reversed",
                "phase",
                "dealer",
                "pending_kind",
                "pending_count",
                "drawn_card",
                "jump_in_open",
                "challengeable",
                "wd4_guilty",
                "wd4_previous_colour",
                "silence",
                "round_loser",
                "finishing_label",
            ),
            optionals=("top_player", "uno_offender", "silence_seat", "ready_seat"),
            lists=("stock", "discard", "turn_lost", "finished", "stages"),
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

    def acting_seats(self, state: game_pb2.GameState) -> list[int]:
        return acting.acting_seats(state)

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        return legal.legal_moves(state, seat)

    def encoded_legal_moves(self, state: game_pb2.GameState, seat: int) -> list[bytes]:
        return legal.encoded_legal_moves(state, seat)  # the hot path's form (move_codec.py)

    def default_move(self, state: game_pb2.GameState, seat: int) -> game_pb2.Move:
        return legal.default_move(state, seat)

    def owes_move(self, state: game_pb2.GameState, seat: int) -> bool:
        # The conformance suite's optional hook: only a seat that owes no move
        # may act, list moves and still have no default (RULES.md, D14).
        return legal.owes_move(state, seat)

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
