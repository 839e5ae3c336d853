"""Generating every legal 101 move of a seat, in canonical order.

Written apart from `moves.py` on purpose (python-chess: the generator and the
checker are two readings of the rules, and a property test says they agree).
Canonical order: plays by card value (a Queen once per suit it names, clubs
to spades), then DRAW, PASS, ACCEPT, NAME_SUIT by suit.
"""

from __future__ import annotations

from collections.abc import Iterable

from croupier.engine.cards import QUEEN, RANK_OF, SUIT_OF, SUITS
from croupier.games.hundred_and_one.table import COVER, DRAWN, NAME_SUIT, PLAY, RESPOND, Table
from croupier.v1 import game_pb2


def legal_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Every move `seat` may make now (the engine asks only for the seat to act)."""
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
            out.append(action(seat, "draw"))
    elif phase == DRAWN:
        drawn = deal.drawn_card
        legal = table.playable(drawn)
        if legal:
            _plays(out, seat, [drawn])
        if rules.draw_until_playable:
            if not legal:
                out.append(action(seat, "draw"))
        elif not (legal and rules.must_play_drawn):
            out.append(action(seat, "pass"))
    elif phase == COVER:
        covers = [c for c in hand if table.covering(c)]
        _plays(out, seat, covers)
        if not covers and not deal.cover_batch_drawn:
            out.append(action(seat, "draw"))
    elif phase == RESPOND:
        _plays(out, seat, [c for c in hand if RANK_OF[c] in (6, 7) and table.playable(c)])
        out.append(action(seat, "accept"))
    elif phase == NAME_SUIT:
        for suit in SUITS:
            move = game_pb2.Move(seat=seat)
            move.hundred_and_one.name_suit.suit = suit  # type: ignore[assignment]
            out.append(move)
    return out


def _plays(out: list[game_pb2.Move], seat: int, cards: Iterable[int]) -> None:
    for card in cards:
        if RANK_OF[card] == QUEEN:
            for suit in SUITS:
                out.append(play(seat, card, suit))
        else:
            out.append(play(seat, card))


def play(seat: int, card: int, named_suit: int = 0) -> game_pb2.Move:
    """The move playing `card` (a Queen naming `named_suit`)."""
    move = game_pb2.Move(seat=seat)
    p = move.hundred_and_one.play
    p.card = card  # type: ignore[assignment]
    p.named_suit = named_suit  # type: ignore[assignment]
    return move


def action(seat: int, name: str) -> game_pb2.Move:
    """A card-less move: "draw", "pass" or "accept"."""
    move = game_pb2.Move(seat=seat)
    getattr(move.hundred_and_one, name).SetInParent()
    return move


def default_move(state: game_pb2.GameState, seat: int) -> game_pb2.Move:
    """The move `seat` is deemed to make when its clock runs out (RULES.md,
    "Default move"): pass, else draw, else accept the penalty, else name the
    upcard Queen's own suit, else the first legal move in canonical order (a
    seat that holds a legal card and may not draw must play)."""
    moves = legal_moves(state, seat)
    for name in ("pass", "draw", "accept"):
        for move in moves:
            if move.hundred_and_one.WhichOneof("action") == name:
                return move
    deal = state.hundred_and_one
    if deal.phase == NAME_SUIT:
        own = game_pb2.Move(seat=seat)
        own.hundred_and_one.name_suit.suit = SUIT_OF[deal.discard[-1]]  # type: ignore[assignment]
        return own
    return moves[0]


def candidate_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Every well-formed move worth trying for `seat` (the conformance suite's
    hook): each card of its hand, plus a card it does not hold, with every
    suit a Queen may name, and every card-less action and suit naming."""
    hand = sorted(set(state.hundred_and_one.hands[seat].cards))
    foreign = next(c for c in range(1, 53) if c not in hand)
    out: list[game_pb2.Move] = []
    _plays(out, seat, [*hand, foreign])
    out += [action(seat, name) for name in ("draw", "pass", "accept")]
    for suit in SUITS:
        move = game_pb2.Move(seat=seat)
        move.hundred_and_one.name_suit.suit = suit  # type: ignore[assignment]
        out.append(move)
    return out
