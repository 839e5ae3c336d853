"""engine/move_codec.py: legal moves joined from cached bytes are the same
messages, byte for byte, as those built move by move; a listed move is not
taken as shape-checked on the game's word."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.engine import api, move_codec, registry
from croupier.engine.cards import CLUBS, QUEEN, card
from croupier.engine.move_codec import (
    LIST_LEGAL_MOVES_TAG,
    SEAT_MOVES_MOVES_TAG,
    MoveCodec,
    unique_moves,
    varint,
)
from croupier.games.hundred_and_one import legal
from croupier.inprocess import InProcess
from croupier.v1 import game_pb2, service_pb2
from croupier_client import playout


class ListsOnly:
    """A game seen through `legal_moves` alone (no encoded_legal_moves hook),
    optionally listing one extra move."""

    def __init__(self, game: Any, extra: game_pb2.Move | None = None) -> None:
        self.game, self.extra = game, extra
        self.name = game.name

    def legal_moves(self, state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
        moves = list(self.game.legal_moves(state, seat))
        return moves + [self.extra] if self.extra is not None else moves

    def notation(self, move: game_pb2.Move) -> str:
        return str(self.game.notation(move))


def positions(count: int = 60) -> list[game_pb2.GameState]:
    states: list[game_pb2.GameState] = []
    for seed, preset in enumerate(("hd", "cl", "ru", "alt")):
        playout.play_match(
            InProcess(), "hundred_and_one", preset, 3, seed, playout.uniform(seed),
            on_step=lambda step: states.append(step.state),
        )  # fmt: skip
    return states[:: max(1, len(states) // count)]


def built_one_by_one(game: Any, state: game_pb2.GameState, seat: int) -> bytes:
    response = service_pb2.ListLegalMovesResponse()
    for move in game.legal_moves(state, seat):
        response.moves.add(move=move, notation=game.notation(move))
    return response.SerializeToString(deterministic=True)


@pytest.mark.parametrize("hooked", [True, False], ids=["encoded hook", "legal_moves only"])
def test_a_joined_list_is_the_message_built_move_by_move(hooked: bool) -> None:
    game = registry.find("hundred_and_one")
    codec = MoveCodec(game if hooked else ListsOnly(game))
    for state in positions():
        seat = state.acting_seats[0]
        joined = service_pb2.ListLegalMovesResponse.FromString(
            codec.legal_moves_bytes(state, seat, LIST_LEGAL_MOVES_TAG)
        )
        assert joined.moves, "an acting seat always has a move"
        assert joined.SerializeToString(deterministic=True) == built_one_by_one(game, state, seat)


def test_next_legal_moves_name_every_seat_including_seat_0() -> None:
    game = registry.find("hundred_and_one")
    codec = MoveCodec(game)
    seats_met = set()
    for state in positions():
        seat = state.acting_seats[0]
        seats_met.add(seat)
        expected = service_pb2.ApplyMoveResponse()
        entry = expected.next_legal_moves.add(seat=seat)
        for move in game.legal_moves(state, seat):
            entry.moves.add(move=move, notation=game.notation(move))
        answer = service_pb2.ApplyMoveResponse.FromString(codec.seat_moves_bytes(state, [seat]))
        assert answer == expected
    assert {0, 1, 2} <= seats_met


def test_a_listed_move_is_not_taken_as_shape_checked() -> None:
    game = registry.find("hundred_and_one")
    state = positions(1)[0]
    seat = state.acting_seats[0]
    queen_naming_nothing = game_pb2.Move(seat=seat)
    queen_naming_nothing.hundred_and_one.play.card = card(QUEEN, CLUBS)  # type: ignore[assignment]
    codec = MoveCodec(ListsOnly(game, extra=queen_naming_nothing))
    codec.legal_moves_bytes(state, seat, SEAT_MOVES_MOVES_TAG)
    assert codec.known_notation(queen_naming_nothing.SerializeToString()) is None


def test_a_move_seen_again_answers_as_the_first_time() -> None:
    state = positions(1)[0]
    seat = state.acting_seats[0]
    move = api.list_legal_moves(service_pb2.ListLegalMovesRequest(state=state, seat=seat)).moves[0]
    request = service_pb2.ApplyMoveRequest(state=state, move=move.move, next_legal_moves=True)
    first = api.apply_move(request).SerializeToString(deterministic=True)
    assert api.apply_move(request).SerializeToString(deterministic=True) == first
    assert api.apply_move(request, trusted=True).SerializeToString(deterministic=True) == first


def test_varints_are_protobufs() -> None:
    assert [varint(v) for v in (0, 1, 127, 128, 300, 2**32)] == [
        b"\x00", b"\x01", b"\x7f", b"\x80\x01", b"\xac\x02", b"\x80\x80\x80\x80\x10"
    ]  # fmt: skip


def test_the_cache_starts_over_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(move_codec.POOL, "bound", 2)
    move_codec.POOL.clear()
    codec = MoveCodec(registry.find("hundred_and_one"))
    moves = [legal.play(0, card(rank, CLUBS)) for rank in (2, 3, 4)]
    for move in moves:
        codec.remember(move.SerializeToString(), move)
    # The third move found the cache full: it starts over with that move alone.
    assert [codec.known_notation(m.SerializeToString()) for m in moves] == [None, None, "4C"]


def test_unique_moves_drops_repeats_and_keeps_the_order():
    a = game_pb2.Move(seat=1)
    b = game_pb2.Move(seat=2)
    assert unique_moves([a, b, game_pb2.Move(seat=1), b]) == [a, b]
