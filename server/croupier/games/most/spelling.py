"""Other spellings of a «Мост» move, read as the move (K-M-1).

Every move has one canonical spelling: the one `legal.py` lists, `notation.py`
prints and a state stores. A move written in another spelling of the same
move is read as that move (`canonical_move`, the engine's hook, applied
before any rule runs):

- a `Meld` whose cards, in another order, make a meld: written as K-M-1
  says (a set by `set_order`, a sequence round the circle from its first
  card, a whole suit from its 2), each joker keeping its identity;
- a `LayOff` on a sequence of a natural with no end, when it fits one end
  only; of a joker with the identity of one end's card (with that end or
  none): that end, and no identity (the end gives it).

Anything else is left as written, and the rules refuse it as today: a move
that is no respelling of a meld or lay-off that fits, and one that could be
read as two different moves (a card that fits both ends of a sequence one
card short of its whole suit) — never a guess between two moves.
"""

from __future__ import annotations

from croupier.engine.cards import RANK_OF
from croupier.engine.melds import (
    SEQUENCE,
    MeldError,
    MeldRules,
    respelled_lay_off,
    respelled_meld,
)
from croupier.games.most.analyser import analysed
from croupier.games.most.position import table_of
from croupier.games.most.rules import rules_for
from croupier.v1 import game_pb2

MeldKey = tuple[tuple[int, ...], tuple[int, ...]]


def canonical_meld(cards: tuple[int, ...], joker_as: tuple[int, ...], rules: MeldRules) -> MeldKey:
    """The canonical spelling of a meld written in any order; the input
    itself when it is canonical already or no order of it is a meld. A
    canonical meld costs one look-up of the analyser's cache, which the
    rules then read again."""
    try:
        meld = analysed(cards, joker_as, rules)
    except MeldError:
        meld = None
    if meld is not None and not (
        meld.kind == SEQUENCE and len(cards) == 13 and RANK_OF[meld.identities[0]] != 2
    ):
        return cards, joker_as
    found = respelled_meld(cards, joker_as, rules)
    return (cards, joker_as) if found is None else found


def canonical_move(state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
    """`move` in its one spelling (module docstring): `move` itself when it is
    canonical, no respelling of a move that fits, or ambiguous; else a copy
    (seat and stale-move guard kept) spelled canonically. Never raises: the
    state may be any valid one (the deal over, another seat to act)."""
    m = move.most
    action = m.WhichOneof("action")
    if action == "meld":
        spec = m.meld
        key = (tuple(spec.cards), tuple(spec.joker_as))
        found = canonical_meld(*key, rules_for(state.options.most).melds)
        if found == key:
            return move
        out = game_pb2.Move()
        out.CopyFrom(move)
        del out.most.meld.cards[:]
        out.most.meld.cards.extend(found[0])  # type: ignore[arg-type]
        del out.most.meld.joker_as[:]
        out.most.meld.joker_as.extend(found[1])  # type: ignore[arg-type]
        return out
    if action == "lay_off":
        lay = m.lay_off
        if lay.end and not lay.joker_as:
            return move  # an end and no identity: a sequence's one spelling (or no fit)
        return _lay_off(state, move)
    return move


def _lay_off(state: game_pb2.GameState, move: game_pb2.Move) -> game_pb2.Move:
    lay = move.most.lay_off
    rules = rules_for(state.options.most)
    table_meld = next((t for t in table_of(state.most.melds, rules) if t.id == lay.meld_id), None)
    if table_meld is None:
        return move
    found = respelled_lay_off(table_meld.meld, lay.card, lay.end, lay.joker_as, rules.melds)
    if found is None:
        return move
    out = game_pb2.Move()
    out.CopyFrom(move)
    out.most.lay_off.end, out.most.lay_off.joker_as = found  # type: ignore[assignment]
    return out
