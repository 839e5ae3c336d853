"""Generating every legal 101 move of a seat, in canonical order.

Written apart from `moves.py` on purpose (python-chess: the generator and the
checker are two readings of the rules, and a property test says they agree).
Canonical order: plays by card value (a Queen once per suit it may name,
clubs to spades), then DRAW, PASS, ACCEPT, NAME_SUIT by suit.
"""

from __future__ import annotations

from collections.abc import Iterable

from croupier.engine.cards import QUEEN, RANK_OF, SUITS
from croupier.games.hundred_and_one.table import COVER, DRAWN, NAME_SUIT, PLAY, RESPOND, Table
from croupier.v1 import game_pb2
from croupier.v1 import hundred_and_one_pb2 as pb


def legal_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Every move `seat` may make now (none when it is not `seat`'s turn)."""
    if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS or seat != state.current_seat:
        return []
    table = Table(state)
    deal, rules = table.deal, table.rules
    hand = sorted(table.hand(seat))
    out: list[game_pb2.Move] = []
    phase = deal.phase
    if phase == PLAY:
        playable = [c for c in hand if table.playable(c)]
        _plays(out, seat, playable)
        # A lead (empty discard) has every card legal: there is nothing to draw for.
        if not playable or (rules.voluntary_draw and table.top):
            _action(out, seat, pb.HUNDRED_AND_ONE_ACTION_DRAW)
    elif phase == DRAWN:
        drawn = deal.drawn_card
        legal = table.playable(drawn)
        if legal:
            _plays(out, seat, [drawn])
        if rules.draw_until_playable:
            if not legal:
                _action(out, seat, pb.HUNDRED_AND_ONE_ACTION_DRAW)
        elif not (legal and rules.must_play_drawn):
            _action(out, seat, pb.HUNDRED_AND_ONE_ACTION_PASS)
    elif phase == COVER:
        covers = [c for c in hand if table.covering(c)]
        _plays(out, seat, covers)
        if not covers and not deal.cover_batch_drawn:
            _action(out, seat, pb.HUNDRED_AND_ONE_ACTION_DRAW)
    elif phase == RESPOND:
        _plays(out, seat, [c for c in hand if RANK_OF[c] in (6, 7) and table.playable(c)])
        _action(out, seat, pb.HUNDRED_AND_ONE_ACTION_ACCEPT)
    elif phase == NAME_SUIT:
        for suit in SUITS:
            _action(out, seat, pb.HUNDRED_AND_ONE_ACTION_NAME_SUIT, suit=suit)
    return out


def _plays(out: list[game_pb2.Move], seat: int, cards: Iterable[int]) -> None:
    for card in cards:
        if RANK_OF[card] == QUEEN:
            for suit in SUITS:
                _action(out, seat, pb.HUNDRED_AND_ONE_ACTION_PLAY, card=card, suit=suit)
        else:
            _action(out, seat, pb.HUNDRED_AND_ONE_ACTION_PLAY, card=card)


def _action(out: list[game_pb2.Move], seat: int, action: int, card: int = 0, suit: int = 0) -> None:
    move = game_pb2.Move(seat=seat)
    m = move.hundred_and_one
    m.action = action  # type: ignore[assignment]
    m.card = card  # type: ignore[assignment]
    m.suit = suit  # type: ignore[assignment]
    out.append(move)
