"""The default move of a seat whose clock ran out, and the candidate moves
the conformance suite tries (legal or not)."""

from __future__ import annotations

from collections import Counter

from croupier.engine.cards import LAST_SUITED, is_joker
from croupier.engine.melds import backwards, lay_off_candidates, turned, written_in
from croupier.engine.move_codec import unique_moves
from croupier.games.scala40 import legal
from croupier.games.scala40.position import Position
from croupier.games.scala40.rules import rules_for
from croupier.games.scala40.table import DRAW
from croupier.v1 import game_pb2
from croupier.v1 import scala40_pb2 as pb


def default_move(state: game_pb2.GameState, seat: int) -> game_pb2.Move:
    """RULES.md "Default move": draw from the stock, then discard the card
    drawn; when that discard is not legal, the first legal discard; when no
    discard is legal yet (a taken card or a joker still owed), the first
    legal move that places the owed card (any joker for a joker owed: taken,
    C-S40-8, or retrieved, V19/V16), else the first legal move."""
    deal = state.scala40
    if deal.phase == DRAW:
        return legal.action(seat, "draw_stock")
    moves = legal.legal_moves(state, seat)
    discards = [m for m in moves if m.scala40.WhichOneof("action") == "discard"]
    for move in discards:
        if move.scala40.discard.card == deal.drawn_card:
            return move
    if discards:
        return discards[0]
    pos = Position.read(state, rules_for(state.options.scala40))
    placing = [(move, _cards_placed(move.scala40, state)) for move in moves]
    if pos.taken_pending:
        for move, placed in placing:
            if pos.taken in placed:
                return move
    if pos.jokers_owed or (pos.taken_pending and is_joker(pos.taken)):
        for move, placed in placing:
            if any(is_joker(v) for v in placed):
                return move
    return moves[0]


def _cards_placed(m: pb.Scala40Move, state: game_pb2.GameState) -> list[int]:
    """The cards of the hand a play action puts on the table (a swap: its natural)."""
    action = m.WhichOneof("action")
    if action == "open":
        return [v for s in m.open.melds for v in s.cards]
    if action == "meld":
        return list(m.meld.meld.cards)
    if action == "lay_off":
        return [m.lay_off.card]
    if action == "swap_joker":
        return [m.swap_joker.card]
    if action == "split":
        meld = next((t for t in state.scala40.melds if t.id == m.split.meld_id), None)
        parts = Counter(v for p in m.split.parts for v in p.cards)
        return list((parts - Counter(meld.cards if meld is not None else ())).elements())
    return []


def candidate_moves(state: game_pb2.GameState, seat: int) -> list[game_pb2.Move]:
    """Well-formed moves worth trying for `seat` (the conformance suite's
    hook), legal or not, kept to a few dozen so that every position can be
    probed: every listed move; both draws; a discard of every card held and of
    one not held; for every meld on the table, the hand's cards of its suit
    (a sequence) or rank (a set) laid at both ends or with every suit a joker
    may declare, and swapped for its jokers; the melds the hand can form,
    offered as the action it may not take now (a meld before opening, an
    opening after) and as the one it may; one meld written high to low;
    other spellings of moves (K-S40-2): a natural laid on a sequence with
    no end, a joker laid on it with the identity of each end, at that end,
    the other or none; listed melds, openings and splits backwards and
    turned by a card, a split's parts in reverse order."""
    deal = state.scala40
    in_play = state.match.phase == game_pb2.MATCH_PHASE_DEAL_IN_PROGRESS
    hand = sorted(set(deal.hands[seat].cards))
    foreign = next(v for v in range(1, LAST_SUITED + 1) if v not in hand)
    out = [legal.action(seat, "draw_stock"), legal.action(seat, "take_discard")]
    out += [legal.discard(seat, v) for v in [*hand[:1], foreign]]
    if not in_play or seat != state.current_seat or deal.phase == DRAW:
        return out
    out = list(legal.legal_moves(state, seat)) + out
    out += [legal.discard(seat, v) for v in hand]
    pos = Position.read(state, rules_for(state.options.scala40))
    for m in pos.melds:
        near, lay_offs = lay_off_candidates(m.meld, hand, pos.rules.melds)
        out += [legal.lay_off(seat, m.id, *lay_off) for lay_off in lay_offs]
        if m.meld.jokers:
            out += [legal.swap_move(seat, m.id, v) for v in near if not is_joker(v)]
    formable = legal.formable_melds(pos.hand, pos)[:12]
    for cards, joker_as in formable:
        out.append(legal.meld_move(seat, cards, joker_as))
        out.append(legal.open_move(seat, [(cards, joker_as)]))
    if formable:
        cards, joker_as = formable[-1]
        out.append(legal.meld_move(seat, cards[::-1], joker_as[::-1]))
    return unique_moves(out + _respellings(out))


def _respellings(moves: list[game_pb2.Move]) -> list[game_pb2.Move]:
    """Listed melds, openings and splits in other spellings (K-S40-2): each
    meld backwards and turned by one card, a split's parts in reverse order."""
    out = []
    for move in moves[:40]:
        m = move.scala40
        action = m.WhichOneof("action")
        if action == "meld":
            specs = [m.meld.meld]
        elif action == "open":
            specs = list(m.open.melds)
        elif action == "split":
            specs = list(m.split.parts)
        else:
            continue
        for order in (backwards, turned):
            other = game_pb2.Move()
            other.CopyFrom(move)
            o = other.scala40
            written = {"meld": [o.meld.meld], "open": o.open.melds, "split": o.split.parts}[action]
            for spec, original in zip(written, specs, strict=True):
                cards, joker_as = written_in(order, original.cards, original.joker_as)
                del spec.cards[:]
                spec.cards.extend(cards)  # type: ignore[arg-type]
                del spec.joker_as[:]
                spec.joker_as.extend(joker_as)  # type: ignore[arg-type]
            if action == "split" and order is backwards:
                parts = [(tuple(p.cards), tuple(p.joker_as)) for p in o.split.parts][::-1]
                del o.split.parts[:]
                for part_cards, part_as in parts:
                    o.split.parts.add(cards=part_cards, joker_as=part_as)  # type: ignore[arg-type]
            out.append(other)
    return out
