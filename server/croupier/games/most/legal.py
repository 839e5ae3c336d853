"""Generating the legal «Мост» moves of a seat, in canonical order.

Written apart from `moves.py` (python-chess: the generator and the checker
are two readings of the rules; a property test says they agree). Every legal
move is listed: the draw, every take from the bridge that leaves the turn
completable (C-M-1), every meld the hand can lay (each joker choice a move
of its own, `forming.py`), every lay-off, exchange and discard.

Canonical order: DRAW, TAKE (oldest bridge card first), MELD (by cards),
LAY (by meld, then card, end and identity), EXCHANGE (by card), DISCARD (by card).
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine.cards import is_joker
from croupier.engine.errors import IllegalMove
from croupier.engine.melds import MeldError, lay_offs_from
from croupier.games.most import completion
from croupier.games.most.analyser import read_meld
from croupier.games.most.forming import formable
from croupier.games.most.moves import take_bridge
from croupier.games.most.position import Position
from croupier.games.most.table import DRAW, Table
from croupier.v1 import game_pb2


def legal_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Every move `seat` may make now (the engine asks only acting seats)."""
    if state.match.phase != game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS or seat != state.current_seat:
        return []
    table = Table(state)
    if table.deal.phase == DRAW:
        out = [draw(seat)]
        for value in table.deal.bridge:
            try:
                take_bridge(table, seat, value, check_only=True)
            except IllegalMove:
                continue
            out.append(take(seat, value))
        return out
    pos = Position.read(state, table.rules)
    out = _melds(pos) + _lay_offs(pos) + _exchanges(pos)
    if not pos.bridge_owed:
        represented = pos.represented()
        out += [discard(seat, v) for v in sorted(pos.hand) if pos.discardable(v, represented)]
    return out


# -- building moves ----------------------------------------------------------------


def draw(seat: int) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.most.draw_stock.SetInParent()
    return move


def take(seat: int, value: int) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.most.take_bridge.card = value  # type: ignore[assignment]
    return move


def meld(seat: int, cards: Sequence[int], joker_as: Sequence[int]) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.most.meld.SetInParent()
    move.most.meld.cards.extend(cards)  # type: ignore[arg-type]
    move.most.meld.joker_as.extend(joker_as)  # type: ignore[arg-type]
    return move


def lay_off(seat: int, meld_id: int, value: int, end: int = 0, joker_as: int = 0) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    lay = move.most.lay_off
    lay.meld_id = meld_id
    lay.card = value  # type: ignore[assignment]
    lay.end = end  # type: ignore[assignment]
    lay.joker_as = joker_as  # type: ignore[assignment]
    return move


def exchange(seat: int, natural: int) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.most.exchange_joker.card = natural  # type: ignore[assignment]
    return move


def discard(seat: int, value: int) -> game_pb2.Move:
    move = game_pb2.Move(seat=seat)
    move.most.discard.card = value  # type: ignore[assignment]
    return move


# -- trying play actions on a copy ------------------------------------------------------------


def _legal(pos: Position, action: str, *args: object) -> bool:
    """Whether a play action (a Position method) is accepted and leaves the
    turn completable (C-M-1)."""
    after = pos.copy()
    try:
        getattr(after, action)(*args)
    except IllegalMove:
        return False
    return completion.refusal(after) is None


def _melds(pos: Position) -> list[game_pb2.Move]:
    out = []
    for cards, joker_as in formable(pos.hand, pos.occupied(), pos.represented()):
        try:
            m = read_meld(cards, joker_as, pos.rules.melds)
        except (IllegalMove, MeldError):  # pragma: no cover - formable melds are melds
            continue
        if _legal(pos, "meld", m):
            out.append(meld(pos.seat, cards, joker_as))
    return out


def _lay_offs(pos: Position) -> list[game_pb2.Move]:
    if not pos.melded:
        return []
    out = []
    held = set(pos.hand)
    jokers = sorted(v for v in held if is_joker(v))
    for table_meld in pos.melds:
        for value, end, joker_as in lay_offs_from(table_meld.meld, held, jokers, pos.rules.melds):
            if _legal(pos, "lay_off", table_meld.id, value, end, joker_as):
                out.append(lay_off(pos.seat, table_meld.id, value, end, joker_as))
    return out


def _exchanges(pos: Position) -> list[game_pb2.Move]:
    represented = pos.represented()
    return [
        exchange(pos.seat, v)
        for v in sorted(v for v in pos.hand if v in represented)
        if _legal(pos, "exchange", v)
    ]
