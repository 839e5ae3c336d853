"""The default move of a seat whose clock ran out, and the candidate moves
the conformance suite tries (legal or not)."""

from __future__ import annotations

from croupier.engine.cards import BLACK_JOKER, is_joker
from croupier.engine.melds import backwards, lay_off_candidates, turned, written_in
from croupier.engine.move_codec import unique_moves
from croupier.games.most import legal
from croupier.games.most.forming import formable
from croupier.games.most.position import Position
from croupier.games.most.rules import rules_for
from croupier.games.most.table import DRAW
from croupier.v1 import game_pb2


def default_move(state: game_pb2.GameState, seat: int) -> game_pb2.Move:
    """RULES.md "Default move": draw from the stock, then put the card drawn
    into the bridge; when that is not legal, the first legal discard; when no
    discard is legal yet (the bridge card still owed), the first legal meld
    holding the bridge card, else the first legal move."""
    deal = state.most
    if deal.phase == DRAW:
        return legal.draw(seat)
    moves = legal.legal_moves(state, seat)
    discards = [m for m in moves if m.most.WhichOneof("action") == "discard"]
    for move in discards:
        if move.most.discard.card == deal.drawn_card:
            return move
    if discards:
        return discards[0]
    for move in moves:
        if move.most.WhichOneof("action") == "meld" and deal.bridge_card in move.most.meld.cards:
            return move
    return moves[0]


def candidate_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Well-formed moves worth trying for `seat` (the conformance suite's
    hook), legal or not, a few dozen: every listed move; the draw; a take of
    every bridge card and of one not there; a discard of every card held and
    of one not held; for every meld on the table, the hand's cards of its
    suit (a sequence) or rank (a set) laid at both ends or with every suit a
    joker may declare, and exchanged; melds the hand could form if R-M-13
    did not forbid them (a joker standing for a card on the table); one meld
    written backwards; other spellings of moves (K-M-1): melds backwards and
    turned by a card, a natural laid on a sequence with no end, a joker laid
    on it with the identity of each end, at that end, the other or none."""
    deal = state.most
    in_play = state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    hand = sorted(deal.hands[seat].cards)
    foreign = next(v for v in range(1, BLACK_JOKER + 1) if v not in hand)
    absent = next(v for v in range(1, BLACK_JOKER + 1) if v not in deal.bridge)
    out = [legal.draw(seat), legal.take(seat, absent)]
    out += [legal.take(seat, v) for v in deal.bridge]
    out += [legal.discard(seat, v) for v in [*hand[:1], foreign]]
    if not in_play or seat != state.current_seat or deal.phase == DRAW:
        return out
    out = list(legal.legal_moves(state, seat)) + out
    out += [legal.discard(seat, v) for v in hand]
    pos = Position.read(state, rules_for(state.options.most))
    for m in pos.melds:
        near, lay_offs = lay_off_candidates(m.meld, hand, pos.rules.melds)
        out += [legal.lay_off(seat, m.id, *lay_off) for lay_off in lay_offs]
        out += [legal.exchange(seat, v) for v in near if not is_joker(v)]
    unchecked = formable(pos.hand, max_cards=4)
    for cards, joker_as in unchecked[:12] + [k for k in unchecked if k[1]][:12]:
        out.append(legal.meld(seat, cards, joker_as))
    if unchecked:
        cards, joker_as = unchecked[-1]
        out.append(legal.meld(seat, cards[::-1], joker_as[::-1]))
    # Listed melds in other spellings (K-M-1): backwards, and turned by one card.
    melds = [m.most.meld for m in out if m.most.WhichOneof("action") == "meld"]
    for spec in melds[:8]:
        for order in (backwards, turned):
            written, identities = written_in(order, spec.cards, spec.joker_as)
            out.append(legal.meld(seat, written, identities))
    return unique_moves(out)
