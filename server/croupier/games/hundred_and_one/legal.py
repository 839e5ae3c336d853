"""Generating every legal 101 move of a seat, in canonical order.

Written apart from `moves.py` on purpose (python-chess: the generator and the
checker are two readings of the rules, and a property test says they agree).
Canonical order: plays by card value (a Queen once per suit it names, clubs
to spades), then DRAW, PASS, ACCEPT, NAME_SUIT by suit.

The generator yields moves as bytes (`encoded_legal_moves`), looked up in a
table of every move of a seat serialized once: the engine's hot path joins
those bytes into its answers (engine/move_codec.py) without a Move message
or a notation string per move and per step; `legal_moves` parses them.
"""

from __future__ import annotations

from collections.abc import Iterable

from croupier.engine.cards import QUEEN, RANK_OF, SUIT_OF, SUITS, pack_52
from croupier.games.hundred_and_one.rules import rules_of
from croupier.games.hundred_and_one.table import COVER, DRAWN, NAME_SUIT, PLAY, RESPOND
from croupier.v1 import game_pb2

IN_PROGRESS = game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS


def legal_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Every move `seat` may make now (the engine asks only for the seat to act)."""
    return [game_pb2.Move.FromString(move) for move in encoded_legal_moves(state, seat)]


def encoded_legal_moves(state: game_pb2.GameState, seat: int) -> list[bytes]:
    """`legal_moves`, each move serialized: the same moves in the same order."""
    if state.match.phase != IN_PROGRESS or seat != state.current_seat:
        return []
    deal = state.hundred_and_one
    options = state.options.hundred_and_one
    encoded = _ENCODED.get(seat) or _encoded_moves(seat)
    plays = encoded.plays
    discard = deal.discard
    top = discard[-1] if discard else 0
    active = deal.active_suit
    out: list[bytes] = []
    phase = deal.phase
    if phase == PLAY:
        hand = sorted(deal.hands[seat].cards[:])
        if top:  # C2 on the top card
            playable_on = _PLAYABLE_ON.get((top, active)) or _playable_on(top, active)
            for card in hand:
                if card in playable_on:
                    out += plays[card]
            # A voluntary draw (O8) needs a card to draw: one that finds
            # nothing would be a pass (C3.4, A37).
            if not out or (options.voluntary_draw and (deal.stock or len(discard) > 1)):
                out.append(encoded.draw)
            return out
        # A lead (empty discard): every card, nothing to draw for. O5 off: the
        # dealer's chosen first card is plain, a Queen keeps its own suit.
        rules = rules_of(state)
        plain = not rules.lead_any and not rules.upcard_effects
        for card in hand:
            if plain and RANK_OF[card] == QUEEN:
                out.append(plays[card][SUITS.index(SUIT_OF[card])])
            else:
                out += plays[card]
        if not hand:
            out.append(encoded.draw)
        return out
    rules = rules_of(state)
    if phase == DRAWN:
        drawn = deal.drawn_card
        legal = not top or _matches(drawn, top, active)
        if legal:
            out += plays[drawn]
        if rules.draw_until_playable:
            if not legal:
                out.append(encoded.draw)
        elif not (legal and rules.must_play_drawn):
            out.append(encoded.pass_)
    elif phase == COVER:
        covers = [c for c in sorted(deal.hands[seat].cards[:]) if rules.covers(c, top, active)]
        for card in covers:
            out += plays[card]
        if not covers and not deal.cover_batch_drawn:
            out.append(encoded.draw)
    elif phase == RESPOND:
        for card in sorted(deal.hands[seat].cards[:]):
            # §1.3.4: only a card that itself passes a penalty on (a 6 or 7 that draws).
            if rules.effect[card].transferable and (not top or _matches(card, top, active)):
                out += plays[card]
        out.append(encoded.accept)
    elif phase == NAME_SUIT:
        out += encoded.name_suit
    return out


def _matches(card: int, top: int, active_suit: int) -> bool:
    """C2: a Queen, a card of the active suit, or a card of the top's rank."""
    rank = RANK_OF[card]
    return rank == QUEEN or SUIT_OF[card] == active_suit or rank == RANK_OF[top]


# C2 as sets, by (top card, active suit): at most 52 x 4 of them, each made
# once, so a hand is sorted into playable cards by set membership.
# (Hands are read with `cards[:]`: one C-level copy, where iterating a
# repeated field fetches its items one by one.)
_PLAYABLE_ON: dict[tuple[int, int], frozenset[int]] = {}


def _playable_on(top: int, active_suit: int) -> frozenset[int]:
    playable = frozenset(c for c in pack_52() if _matches(c, top, active_suit))
    _PLAYABLE_ON[(top, active_suit)] = playable
    return playable


class _EncodedMoves:
    """Every well-formed 101 move of one seat, serialized once."""

    def __init__(self, seat: int) -> None:
        # A Queen's plays name each suit in turn; any other card names none.
        self.plays: dict[int, tuple[bytes, ...]] = {
            card: tuple(
                play(seat, card, suit).SerializeToString()
                for suit in (SUITS if RANK_OF[card] == QUEEN else (0,))
            )
            for card in pack_52()
        }
        self.draw = action(seat, "draw").SerializeToString()
        self.pass_ = action(seat, "pass").SerializeToString()
        self.accept = action(seat, "accept").SerializeToString()
        self.name_suit = tuple(name_suit(seat, suit).SerializeToString() for suit in SUITS)


_ENCODED: dict[int, _EncodedMoves] = {}


def _encoded_moves(seat: int) -> _EncodedMoves:
    encoded = _ENCODED.get(seat)
    if encoded is None:
        encoded = _ENCODED[seat] = _EncodedMoves(seat)
    return encoded


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


def name_suit(seat: int, suit: int) -> game_pb2.Move:
    """The move naming `suit` for the dealer's upcard Queen (A24)."""
    move = game_pb2.Move(seat=seat)
    move.hundred_and_one.name_suit.suit = suit  # type: ignore[assignment]
    return move


def default_move(state: game_pb2.GameState, seat: int) -> game_pb2.Move:
    """The move `seat` is deemed to make when its clock runs out (RULES.md,
    "Default move"): pass, else draw, else accept the penalty, else name the
    upcard Queen's own suit, else the first legal card in canonical order (a
    seat that holds a legal card and may not draw must play), a Queen naming
    its own suit as a Queen does by default (A28)."""
    moves = legal_moves(state, seat)
    for name in ("pass", "draw", "accept"):
        for move in moves:
            if move.hundred_and_one.WhichOneof("action") == name:
                return move
    deal = state.hundred_and_one
    if deal.phase == NAME_SUIT:
        return name_suit(seat, SUIT_OF[deal.discard[-1]])
    card = moves[0].hundred_and_one.play.card
    return play(seat, card, SUIT_OF[card]) if RANK_OF[card] == QUEEN else moves[0]


def candidate_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Every well-formed move worth trying for `seat` (the conformance suite's
    hook): each card of its hand, plus a card it does not hold, with every
    suit a Queen may name, and every card-less action and suit naming."""
    hand = sorted(set(state.hundred_and_one.hands[seat].cards))
    foreign = next(c for c in range(1, 53) if c not in hand)
    out: list[game_pb2.Move] = []
    _plays(out, seat, [*hand, foreign])
    out += [action(seat, name) for name in ("draw", "pass", "accept")]
    out += [name_suit(seat, suit) for suit in SUITS]
    return out
