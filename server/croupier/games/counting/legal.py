"""Generating every legal counting move of a seat, in canonical order.

Written apart from `moves.py` on purpose (python-chess: the generator and the
checker are two readings of the rules, and a property test says they agree).
Canonical order: plays by card value (FrenchCard order), each card's choices
ascending; CONCEDE last (the only move when it is legal).
"""

from __future__ import annotations

from croupier.engine.cards import is_suited
from croupier.games.counting.effects import ADDS, SETS_TOTAL
from croupier.games.counting.rules import rules_for
from croupier.v1 import game_pb2

IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS

# Choices worth trying in a candidate move, legal or not (T-C2-07's 101 and
# -1 among them): what an ace, a ten or a black ace may carry, and beyond.
_CANDIDATE_ADDS = (-10, 1, 5, 10, 11)
_CANDIDATE_TOTALS = (-1, 0, 73, 100, 101)


def legal_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Every move `seat` may make now (the engine asks only for the seat to act)."""
    return [game_pb2.Move.FromString(move) for move in encoded_legal_moves(state, seat)]


def encoded_legal_moves(state: game_pb2.GameState, seat: int) -> list[bytes]:
    """`legal_moves`, each move serialized (the hot path's form, looked up in
    a table of every move of a seat serialized once): the same moves in the
    same order."""
    if state.match.phase != IN_PROGRESS or seat != state.current_seat:
        return []
    game = state.game
    rules = rules_for(state)
    deal = getattr(state, game)
    total = deal.total
    encoded = _ENCODED.get((game, seat)) or _encoded_moves(game, seat)
    out: list[bytes] = []
    for card in sorted(set(deal.hands[seat].cards[:])):
        effect = rules.effects[card]
        kind = effect.choice
        for value in effect.choices or (0,):
            after = max(effect.raw_total(total, value), rules.floor)
            # A-C3-04: in 101 with chips only a play within the limit is legal;
            # elsewhere any card may be played, a bust included (A-C1-04, A-C2-05).
            if rules.safe_only and after > rules.limit:
                continue
            key = (card, kind, value)
            move = encoded.get(key)
            if move is None:
                move = encoded[key] = play(game, seat, card, kind, value).SerializeToString()
            out.append(move)
    if not out and rules.safe_only:
        out.append(concede(game, seat).SerializeToString())  # R-C3-05
    return out


# Every move of a seat of a game, serialized once: (card, choice kind, value) → bytes.
_ENCODED: dict[tuple[str, int], dict[tuple[int, str | None, int], bytes]] = {}


def _encoded_moves(game: str, seat: int) -> dict[tuple[int, str | None, int], bytes]:
    table: dict[tuple[int, str | None, int], bytes] = {}
    _ENCODED[(game, seat)] = table
    return table


def play(game: str, seat: int, card: int, kind: str | None = None, value: int = 0) -> game_pb2.Move:
    """The move putting `card` down with its choice (ADDS or SETS_TOTAL)."""
    move = game_pb2.Move(seat=seat)
    p = getattr(move, game).play
    p.card = card
    if kind is not None:
        setattr(p, kind, value)
    return move


def concede(game: str, seat: int) -> game_pb2.Move:
    """The move conceding the deal (101 with chips, R-C3-05)."""
    move = game_pb2.Move(seat=seat)
    getattr(move, game).concede.SetInParent()
    return move


def default_move(state: game_pb2.GameState, seat: int) -> game_pb2.Move:
    """The move `seat` is deemed to make when its clock runs out (RULES.md,
    "Default move"): the legal move that leaves the lowest total, the first
    in canonical order among equals; CONCEDE when it is the only move."""
    rules = rules_for(state)
    total = getattr(state, state.game).total
    moves = legal_moves(state, seat)

    def after(move: game_pb2.Move) -> int:
        m = getattr(move, state.game)
        if m.WhichOneof("action") == "concede":
            return 0
        kind = m.play.WhichOneof("choice")
        return rules.total_after(m.play.card, total, getattr(m.play, kind) if kind else 0)

    return min(moves, key=after)


def candidate_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Every well-formed move worth trying for `seat` (the conformance suite's
    hook): each card of its hand and one it does not hold, with no choice and
    with choices of both kinds, legal and not; and CONCEDE."""
    game = state.game
    hand = sorted(set(getattr(state, game).hands[seat].cards))
    foreign = next(c for c in range(1, 53) if is_suited(c) and c not in hand)
    out: list[game_pb2.Move] = []
    for card in [*hand, foreign]:
        out.append(play(game, seat, card))
        out += [play(game, seat, card, ADDS, v) for v in _CANDIDATE_ADDS]
        out += [play(game, seat, card, SETS_TOTAL, v) for v in _CANDIDATE_TOTALS]
    out.append(concede(game, seat))
    return out
